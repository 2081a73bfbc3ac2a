"""Lesson 04 panels without a browser: figures and readouts equal the model's numbers."""

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel.app.lessons import efficiency as L
from vtsmodel.app.lessons import lesson_module
from vtsmodel.catalog import drive_spec
from vtsmodel.drives import drive_efficiency, transfer_rate

cern = data.load("cern_facts")


def test_contract():
    mod = lesson_module("04")
    assert mod.NOTEBOOK == "04_drive_efficiency_vs_file_size.ipynb" and mod.TITLE
    out = mod.scenario_outputs(drive="IBM3592A", file_mb=100.0, files_per_mount=10)
    expect = float(drive_efficiency(100.0, 10, speed_mb_s=drive_spec("IBM3592A").speed_mb_s))
    assert out["efficiency [-]"] == pytest.approx(expect)
    view = mod.scenario_view()
    assert {"efficiency", "heatmap", "block_size", "residuals", "lto"} <= set(view.figures)
    with pytest.raises(ValueError, match="drive"):
        mod.scenario_outputs(drive="nope")


def test_efficiency_panel_curves_follow_the_formula():
    p = L.efficiency_panel()
    p.set(drive="IBM3592A", t_mount_s=200.0, t_overhead_s=4.4, file_mb=100.0, files_per_mount=10.0)
    fw = p.figure_widgets["efficiency"]
    speed = drive_spec("IBM3592A").speed_mb_s
    for trace, n in zip(fw.data, L.CURVE_FILES_PER_MOUNT, strict=False):
        x = np.asarray(trace.x)
        assert x.size <= 300
        mask = (x >= 1) & (x <= 1000)
        expect = drive_efficiency(x[mask], n, t_mount_s=200.0, t_overhead_s=4.4, speed_mb_s=speed)
        np.testing.assert_allclose(np.asarray(trace.y)[mask], expect)
    e = float(drive_efficiency(100.0, 10.0, t_mount_s=200.0, t_overhead_s=4.4, speed_mb_s=speed))
    assert p.readout_values["efficiency [-]"] == f"{e:.1%}"
    assert p.readout_values["throughput [MB/s]"] == f"{e * speed:.3g}"


def test_efficiency_panel_default_is_the_notes_drive_and_mount_time():
    # "a tape drive with 30 MB/s maximum speed" (the efficiency plot), tMount "about 120s".
    p = L.efficiency_panel()
    assert drive_spec(p.values["drive"]).speed_mb_s == cern.value("plot_drive_speed")
    assert p.values["t_mount_s"] == cern.value("tmount_total")
    assert p.readout_values["tMount from its parts [s]"] == f"{cern.value('tmount_components_sum'):.4g}"


def test_extrapolated_file_size_is_named_not_warned():
    p = L.efficiency_panel()
    p.set(file_mb=10000.0)
    assert "extrapolated" in p.view.binding
    assert not p.last_error


def test_heatmap_values():
    p = L.efficiency_panel()
    hm = p.figure_widgets["heatmap"].data[0]
    z = np.asarray(hm.z)
    speed = drive_spec(p.values["drive"]).speed_mb_s
    f, n = 10 ** np.asarray(hm.x), 10 ** np.asarray(hm.y)
    inside = (f >= 1) & (f <= 1000)
    expect = drive_efficiency(f[None, inside], n[:, None], speed_mb_s=speed)
    np.testing.assert_allclose(z[:, inside], expect)
    assert np.all(np.diff(z, axis=1) >= -1e-12) and np.all(np.diff(z, axis=0) >= -1e-12)


def test_block_size_panel_buffer_share():
    # "shared equally among all drives configured": fewer drives, a bigger share, and the
    # 128 KB write no longer drops.
    p = L.block_size_panel()
    assert p.readout_values["fastest write block [KB]"] == "64"
    p.set(drives_sharing=4, block_kb=128.0)
    assert p.readout_values["fastest write block [KB]"] == "128"
    w = float(
        transfer_rate(128.0, "write", controller_buffer_kb=p.values["controller_buffer_kb"], drives_sharing=4)
    )
    assert p.readout_values["write rate [MB/s]"] == f"{w:.3g}"
    fit = [t for t in p.figure_widgets["block_size"].data if t.name == "write, fit"][0]
    np.testing.assert_allclose(
        fit.y,
        transfer_rate(
            np.asarray(fit.x),
            "write",
            drives_sharing=4,
            controller_buffer_kb=p.values["controller_buffer_kb"],
        ),
    )


def test_lto_panel_alice_streams_and_bus():
    # ALICE: "~ 20 MB/s == 66% efficiency for 9940 B, 50 % for IBM 3592A".
    p = L.lto_panel()
    assert p.readout_values["stream efficiency, 3592A [-]"] == "50%"
    assert p.readout_values["stream efficiency, 9940B [-]"] == f"{20 / 30:.0%}"
    # a fast disk pool and a third drive on the bus: the bus binds LTO-1 at 60/3 = 20 MB/s
    p.set(stream_mb_s=100.0, drives_per_bus=3)
    lto = data.load("lto_facts")
    assert p.readout_values["LTO1 rate [MB/s]"] == f"{lto.value('scsi_bus_rate_needed') / 3:.3g}"
    assert "SCSI bus" in p.view.binding


def test_catalog_rows_cover_the_catalog():
    rows = L.catalog_rows()
    assert [r["drive"] for r in rows] == list(drive_spec.__globals__["drive_names"]())
    assert all(r["sources"] for r in rows)


def test_check_key_numbers_reproduces_the_sources():
    # CERN note: tMount parts (3600 / 160 = 22.5 s; "about 120s" with 240 moves/h); ALICE
    # "66% efficiency for 9940 B, 50 % for IBM 3592A"; ADSM-L LTO-1 15/30/22.5 MB/s and
    # "2x30 = 60 MB/sec" on a bus of two drives.
    text = L.check_key_numbers()
    assert f"tMount from its parts: {cern.value('tmount_components_sum'):.1f} s" in text
    assert f"{cern.value('tmount_total'):.1f} s" in text
    assert "22.5 MB/s observed (75% of the max)" in text and "need 60 MB/s of bus" in text


def test_check_key_numbers_names_the_statement_it_fails(monkeypatch):
    # A drifting stream efficiency fails with the ALICE sentence of the CERN note.
    monkeypatch.setattr(L, "stream_limited_efficiency", lambda stream, speed: 0.9)
    with pytest.raises(AssertionError, match=r"cern-tape-sizing-2005.*66% efficiency"):
        L.check_key_numbers()


def test_formula_efficiency_matches_drive_efficiency():
    e = L._formula_efficiency(100.0, 10, 200.0, 4.4, 40.0)
    assert e == pytest.approx(
        float(drive_efficiency(100.0, 10, t_mount_s=200.0, t_overhead_s=4.4, speed_mb_s=40.0))
    )


@pytest.mark.parametrize(
    ("drive", "tm", "to", "f", "n", "buf", "k", "block"),
    [
        ("STK9940B", None, None, 1000.0, 10.0, None, None, 64.0),
        ("LTO2", 60.0, 2.0, 3.5, 400.0, 512.0, 2, 16.0),
    ],
)
def test_cached_figures_equal_the_figures_built_whole(drive, tm, to, f, n, buf, k, block):
    # The panels reuse each figure's fixed part and add the point; the result must be the
    # figure the builders make in one go, with plotly's validation on.
    import json

    import plotly.io as pio

    def same(a, b):
        return json.loads(pio.to_json(a, validate=False)) == json.loads(pio.to_json(b, validate=False))

    cern, stk = data.load("cern_facts"), data.load("stk_facts")
    speed = drive_spec(drive).speed_mb_s
    tm_ = cern.value("tmount_total") if tm is None else tm
    to_ = cern.value("toverhead") if to is None else to
    view = L.view_efficiency(drive, tm, to, f, n)
    assert same(view.figures["efficiency"], L.efficiency_figure(speed, tm_, to_, f, n, drive=drive))
    assert same(view.figures["heatmap"], L.heatmap_figure(speed, tm_, to_, f, n))
    buf_ = stk.value("controller_buffer") * 1000.0 if buf is None else buf
    k_ = int(stk.value("tested_drives") if k is None else k)
    bview = L.view_block_size(buf, k, block)
    assert same(bview.figures["block_size"], L.block_size_figure(buf_, k_, block))
