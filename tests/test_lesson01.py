"""Lesson 01 without a browser: set a control, the figures and readouts follow the model."""

import json
import warnings

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from vtsmodel import ExtrapolationWarning, hours_at_peak, load
from vtsmodel import bottleneck as bn
from vtsmodel import import_export as ie
from vtsmodel import throughput as tp
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import write as L


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


def trace(fig, name):
    """The trace called ``name`` (for a curve, its solid, validated part)."""
    hits = [t for t in fig.data if t.name == name]
    assert hits, f"no trace {name!r}; traces: {[t.name for t in fig.data]}"
    return hits[0]


def curve(fig, name):
    """A curve's y over the whole axis: the solid part, filled in with the dotted part."""
    solid = trace(fig, name)
    dotted = trace(fig, f"{name} (extrapolated)")
    x = np.where(
        np.isnan(np.asarray(solid.x, float)), np.asarray(dotted.x, float), np.asarray(solid.x, float)
    )
    return x, np.asarray(solid.y, float)


# --- the contract -------------------------------------------------------------------------


def test_contract():
    mod = lesson_module("01")
    assert mod is L
    assert L.NOTEBOOK == "01_sustained_vs_peak_write.ipynb" and L.TITLE
    assert set(L.SCENARIO_PARAMS) == {"cf", "tvc_gb", "feature", "block_kb", "escon_km"}
    out = L.scenario_outputs(cf=2.0, tvc_gb=1152, feature="ehpo")
    assert out["sustained write [MB/s]"] == pytest.approx(float(tp.write_rate(2.0, 1152, feature="ehpo")))
    assert out["peak write [MB/s]"] == pytest.approx(
        float(tp.write_rate(2.0, 1152, feature="ehpo", mode="peak"))
    )
    assert all(isinstance(v, float) for v in out.values())
    view = L.scenario_view(cf=3.0)
    assert {"write", "resources", "reads", "mix", "task_time", "task_parts"} <= set(view.figures)
    assert all(
        isinstance(f, go.Figure) and f.layout.template.layout is not None for f in view.figures.values()
    )
    assert "ibm-vts-b18-2000" in str(view.citations) or view.citations
    with pytest.raises(ValueError, match="feature"):
        L.scenario_outputs(feature="turbo")
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(colour="red")


def test_scenario_outputs_at_distance_and_blocks():
    out = L.scenario_outputs(cf=3.0, block_kb=64, escon_km=10)
    assert out["peak write [MB/s]"] == pytest.approx(
        float(tp.write_rate(3.0, mode="peak", block_kb=64) * tp.escon_distance_factor(10))
    )
    assert out["read hit [MB/s]"] == pytest.approx(
        float(quiet(tp.read_rate, 3.0, block_kb=64) * tp.escon_distance_factor(10, direction="read"))
    )


# --- figure builders ---------------------------------------------------------------------


def test_fig_write_draws_numbers_and_cited_markers():
    x = np.array([1.0, 2.0, 4.0, 5.0])
    pts = L.write_sources("paf")
    fig = L.fig_write(x, x * 20, x * 10, cf=2.0, peak_now=40.0, sustained_now=20.0, sources=pts)
    x_peak, y_peak = curve(fig, "PAF peak")
    np.testing.assert_allclose(y_peak, x * 20)
    # Beyond CF 4 the curve is dotted (extrapolation), inside solid.
    solid = np.asarray(trace(fig, "PAF peak").x, float)
    assert np.isnan(solid[-1]) and not np.isnan(solid[:3]).any()
    markers = [t for t in fig.data if t.name and t.name.startswith("stated")]
    hover = " ".join(h for t in markers for h in t.hovertext)
    assert "Sec. 3.5.3" in hover and "Table 2" in hover and "ibm-vts-b18-2000" in hover
    assert sum(len(t.x) for t in markers) == len(pts)


def test_write_sources_by_feature_and_block():
    # Sec. 3.1: "between 8 and 10", "between 5.5 and 7"
    assert {y for _, y, _, _ in L.write_sources("base")} == {5.5, 7.0, 8.0, 10.0}
    ehpo = {(x, y) for x, y, _, _ in L.write_sources("ehpo")}
    assert (3.0, 19.5) in ehpo
    paf64 = L.write_sources("paf", 64)
    assert (2.66, 103.0) in {(x, y) for x, y, _, _ in paf64}
    assert all(p.source == "ibm-vts-b18-2000" for _, _, p, _ in paf64)
    assert len(L.write_sources("paf", 48)) == len(L.write_sources("paf", 32)) - 1


def test_fig_resources_hides_unused_resources():
    caps = {"host channels": np.full(3, 80.0), "tape drives": np.full(3, np.inf)}
    fig = L.fig_resources(np.arange(3.0), caps, np.full(3, 80.0), cf=1.0, achieved_now=80.0,
                          binding="host channels", mode="peak")  # fmt: skip
    assert trace(fig, "host channels").line.width > 3
    assert any("not used" in (t.name or "") for t in fig.data)


# --- the write panel ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cf", "tvc", "feature"), [(3.0, 1728.0, "paf"), (2.0, 576.0, "ehpo"), (1.5, 72.0, "base")]
)
def test_write_panel_follows_the_model(cf, tvc, feature):
    p = L.write_panel()
    p.set(cf=cf, tvc_gb=tvc, feature=feature)
    assert not p.last_error
    peak = float(tp.write_rate(cf, tvc, feature=feature, mode="peak"))
    sus = float(tp.write_rate(cf, tvc, feature=feature))
    r = p.readout_values
    assert r["peak write [MB/s]"] == f"{peak:.3g}"
    assert r["sustained write [MB/s]"] == f"{sus:.3g}"
    assert r["peak ÷ sustained [-]"] == f"{peak / sus:.2f}"
    hours = float(hours_at_peak(tvc, cf, feature=feature, peak_mb_s=peak, sustained_mb_s=sus))
    assert r["hours of peak the cache buys [h]"] == f"{hours:.3g}"
    assert r["binds in sustained"] == bn.binding_resource(cf, tvc, feature=feature)
    # The figure widget holds the model's curves.
    fw = p.figure_widgets["write"]
    label = L._FEATURE_LABELS[feature]
    x, y = curve(fw, f"{label} sustained")
    np.testing.assert_allclose(y, quiet(tp.write_rate, x, tvc, feature=feature))
    x, y = curve(fw, f"{label} peak")
    np.testing.assert_allclose(y, quiet(tp.write_rate, x, tvc, feature=feature, mode="peak"))
    op = trace(fw, "sustained at this CF")
    assert op.x[0] == cf and op.y[0] == pytest.approx(sus)


def test_moving_cf_changes_figure_and_readouts():
    p = L.write_panel()
    before_y = np.asarray(trace(p.figure_widgets["write"], "peak at this CF").y)
    before = p.readout_values["peak write [MB/s]"]
    p.controls["cf"].value = 1.5  # as a user moving the slider
    after = p.readout_values["peak write [MB/s]"]
    assert after != before and after == f"{float(tp.write_rate(1.5, mode='peak')):.3g}"
    assert np.asarray(trace(p.figure_widgets["write"], "peak at this CF").y) != pytest.approx(before_y)


def test_bottleneck_figure_follows_the_view():
    p = L.write_panel()
    p.set(cf=3.5, feature="paf", view_mode="sustained")
    fw = p.figure_widgets["resources"]
    caps = bn.write_capacities(L.CF_AXIS, 1728.0, feature="paf")
    for name, cap in caps.items():
        np.testing.assert_allclose(np.asarray(trace(fw, name).y, float), cap)
    assert "processor" in p.view.binding and "host channels" in p.view.binding
    p.set(view_mode="peak")
    assert any("tape drives: not used" in (t.name or "") for t in p.figure_widgets["resources"].data)


def test_ehpo_scales_with_cf_paf_flattens():
    # The teaching core, read off the panel: EHPO's cache disks bind at every CF in 1-4,
    # PAF's sustained binding moves from the drives (proportional to CF) to the processor.
    p = L.write_panel()
    for cf in (1.0, 2.5, 4.0):
        p.set(cf=cf, feature="ehpo", tvc_gb=1152.0)
        assert p.readout_values["binds in sustained"] == "cache disks"
    p.set(cf=1.5, feature="paf", tvc_gb=1728.0)
    assert p.readout_values["binds in sustained"] == "tape drives"
    p.set(cf=3.5)
    assert p.readout_values["binds in sustained"] == "processor"
    assert p.readout_values["binds in peak"] == "host channels"


def test_block_size_and_distance_controls():
    p = L.write_panel()
    p.set(cf=2.66, block_kb=64.0, escon_km=0.0)
    assert (
        p.readout_values["peak write [MB/s]"] == f"{float(tp.write_rate(2.66, mode='peak', block_kb=64)):.3g}"
    )
    assert any(y == 103.0 for t in p.figure_widgets["write"].data if (t.name or "").startswith("stated")
               for y in t.y)  # fmt: skip
    p.set(block_kb=32.0, escon_km=20.0)
    expect = float(tp.write_rate(2.66, mode="peak")) * (1 - 0.006 * 20)
    assert p.readout_values["peak write [MB/s]"] == f"{expect:.3g}"


def test_extrapolation_is_named_not_raised():
    p = L.write_panel()
    p.set(cf=5.5, feature="ehpo")
    assert not p.last_error
    assert "Extrapolated" in p.view.binding and "cf=5.5" in p.view.binding
    p.set(cf=3.0, feature="ehpo", tvc_gb=1728.0)
    assert "1152 GB column" in p.view.binding and "Extrapolated" not in p.view.binding


def test_write_panel_export(export_dir):
    p = L.write_panel()
    path = p.export("html")
    text = path.read_text()
    assert path.parent == export_dir and "ibm-vts-b18-2000" in text and "plotly" in text.lower()


# --- the read panel -----------------------------------------------------------------------


def test_read_panel_follows_the_model():
    p = L.read_panel()
    assert not p.last_error
    r = p.readout_values
    assert r["read hit [MB/s]"] == "64" and r["read recall [MB/s]"] == "38"  # Table 1 at CF 2.66
    p.set(cf=2.0, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9)
    mix = float(tp.typical_mix_rate(2.0, 1728.0, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9))
    assert p.readout_values["typical mix, total [MB/s]"] == f"{mix:.3g}"
    assert p.readout_values["of which writes [MB/s]"] == f"{0.8 * mix:.3g}"
    x, y = curve(p.figure_widgets["reads"], "read recall")
    np.testing.assert_allclose(y, quiet(tp.read_rate, x, kind="recall"))
    x, y = curve(p.figure_widgets["mix"], "EHPO")
    np.testing.assert_allclose(
        y, quiet(tp.typical_mix_rate, x, 1728.0, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9)
    )
    markers = [t for t in p.figure_widgets["reads"].data if (t.name or "").startswith("Table 1")]
    assert sum(len(t.x) for t in markers) == len(load("vts_read_rates"))


# --- the import/export calculator ---------------------------------------------------------


def test_import_export_panel_follows_eqs_1_2():
    p = L.import_export_panel()
    p.set(mb=2300.0, mounts=13, searches=2, interference="peak_write")
    e = float(ie.export_minutes(2300.0, 13, 2, interference="peak_write"))
    i = float(ie.import_minutes(2300.0, 13, 2, interference="peak_write"))
    assert p.readout_values["export [min]"] == f"{e:.3g}"
    assert p.readout_values["import [min]"] == f"{i:.3g}"
    bars = p.figure_widgets["task_parts"].data
    assert sum(t.x[0] for t in bars) == pytest.approx(e)  # the parts add up to the export time
    assert sum(t.x[1] for t in bars) == pytest.approx(i)
    ex = trace(p.figure_widgets["task_time"], "export (Eq. 1)")
    np.testing.assert_allclose(
        ex.y, quiet(ie.export_minutes, np.asarray(ex.x), 13, 2, interference="peak_write")
    )


def test_source_table_cites_every_row():
    text = L.source_table_html()
    for _table, rid in L.SOURCE_ROWS:
        assert rid in text
    assert "Table 4" in text and "Sec. 3.5.3" in text


@pytest.mark.parametrize(
    ("feature", "tvc", "cf", "block", "km", "mode"),
    [("paf", 1728.0, 3.0, 32.0, 0.0, "sustained"), ("ehpo", 576.0, 1.7, 64.0, 20.0, "peak"),
     ("base", 288.0, 5.5, 16.0, 5.0, "sustained")],
)  # fmt: skip
def test_cached_figures_equal_the_figures_built_whole(feature, tvc, cf, block, km, mode):
    # The panels reuse each figure's fixed part and add the operating point; the result
    # must be the figure the builders make in one go, with plotly's validation on.
    def same(a, b):
        return json.loads(pio.to_json(a, validate=False)) == json.loads(pio.to_json(b, validate=False))

    def q(func, *args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ExtrapolationWarning)
            return func(*args, **kwargs)

    kw = {"block_kb": block, "escon_km": km}
    ax = L.CF_AXIS
    curves = {f: tuple(q(tp.write_rate, ax, tvc, mode=m, feature=f, **kw) for m in ("peak", "sustained"))
              for f in tp.FEATURES}  # fmt: skip
    peak, sus = (
        float(q(tp.write_rate, cf, tvc, mode=m, feature=feature, **kw)) for m in ("peak", "sustained")
    )
    binding = q(bn.binding_resource, cf, tvc, mode=mode, feature=feature, **kw)
    whole = {
        "write": L.fig_write(ax, *curves[feature], cf=cf, peak_now=peak, sustained_now=sus, feature=feature,
                             others={f: c for f, c in curves.items() if f != feature},
                             sources=L.write_sources(feature, block)),
        "resources": L.fig_resources(
            ax, q(bn.write_capacities, ax, tvc, mode=mode, feature=feature, **kw),
            q(bn.bottleneck_rate, ax, tvc, mode=mode, feature=feature, **kw), cf=cf,
            achieved_now=float(q(bn.bottleneck_rate, cf, tvc, mode=mode, feature=feature, **kw)),
            binding=binding, mode=mode),
    }  # fmt: skip
    view = q(L.view_write, cf=cf, tvc_gb=tvc, feature=feature, block_kb=block, escon_km=km, view_mode=mode)
    for key, fig in whole.items():
        assert same(view.figures[key], fig), key
    w, h = 0.6, 0.5
    mix_kw = {"write_fraction": w, "read_hit_ratio": h, **kw}
    reads = L.fig_reads(ax, q(tp.read_rate, ax, kind="hit", **kw), q(tp.read_rate, ax, kind="recall", **kw),
                        cf=cf, hit_now=float(q(tp.read_rate, cf, kind="hit", **kw)),
                        recall_now=float(q(tp.read_rate, cf, kind="recall", **kw)),
                        sources=L._read_sources(block))  # fmt: skip
    mix = L.fig_mix(ax, {f: q(tp.typical_mix_rate, ax, tvc, feature=f, **mix_kw) for f in tp.FEATURES}, cf=cf,
                    mix_now=float(q(tp.typical_mix_rate, cf, tvc, feature=feature, **mix_kw)), feature=feature,
                    valid={f: (L._READ_CF_VALID if f == "paf" else L._CF_VALID) for f in tp.FEATURES})  # fmt: skip
    rview = q(L.view_reads, cf=cf, tvc_gb=tvc, feature=feature, block_kb=block, escon_km=km,
              write_fraction=w, read_hit_ratio=h)  # fmt: skip
    assert same(rview.figures["reads"], reads)
    assert same(rview.figures["mix"], mix)
