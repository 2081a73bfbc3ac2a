"""Lesson 04 (vtsmodel.app.lessons.efficiency: the contract and the CERN formula) without a browser: set the inputs, the plots and readouts follow the models.

Expected numbers come from ``vtsmodel.drives`` and ``vtsmodel.catalog`` computed here, or
from the data rows the source statements were digitized into (named in each test).
"""

import math
import re
import warnings

import numpy as np
import pytest

from vtsmodel import ExtrapolationWarning, StreamingWarning, catalog, drives, load
from vtsmodel.app.controls import control
from vtsmodel.app.figures import base_spec, trace_named
from vtsmodel.app.lessons import efficiency as L
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.app.text import duration, number, percent

cern, lto, stk = load("cern_facts"), load("lto_facts"), load("stk_facts")
PANELS = (L.efficiency_panel, L.block_size_panel, L.rates_panel)


def shape(spec: dict, name: str) -> dict:
    """The moving shape called ``name`` (an operating point) of figure JSON ``spec``."""
    hits = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert hits, f"no shape {name!r}"
    return hits[0]


def quiet(func, *args, **kwargs):
    """A model call whose extrapolation warning is not under test here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


# --- the contract and the inputs ------------------------------------------------------------


def test_contract():
    assert lesson_module("04") is L
    assert L.LESSON_ID == "04" and L.NOTEBOOK == "04_drive_efficiency_vs_file_size.ipynb" and L.TITLE
    assert set(L.SCENARIO) <= set(L.INPUTS)
    out = L.scenario_outputs(drive="IBM3592A", file_mb=100.0, files_per_mount=10)
    tm = float(drives.mount_cycle_s(drive="IBM3592A"))
    speed = catalog.drive_spec("IBM3592A").speed_mb_s
    assert out["mount cycle [s]"] == tm
    assert out["efficiency [-]"] == pytest.approx(float(drives.drive_efficiency(100.0, 10, t_mount_s=tm,
                                                                                speed_mb_s=speed)))  # fmt: skip
    assert math.isnan(out["lowest speed-matching rate [MB/s]"])  # no document states the J1A's
    with pytest.warns(StreamingWarning, match="cannot stream"):  # the panel's evaluation, its note with it
        assert L.scenario_outputs(drive="LTO9")["lowest speed-matching rate [MB/s]"] == 177.0
    view = L.scenario_view(drive="LTO9")
    assert {"efficiency", "heatmap", "block_size", "residuals", "rates"} == set(view.figures)


@pytest.mark.parametrize(
    ("key", "value", "pattern"),
    [("drive", "nope", r"drive='nope' is not valid; choose one of .*LTO-9"),
     ("file_mb", 0.01, r"file_mb=0.01 is outside the valid range \[0.1, 100000\] \(file size \[MB\]\)"),
     ("files_per_mount", 0.5, r"files_per_mount=0.5 is outside the valid range \[1, 10000\]"),
     ("stream_mb_s", 5000, r"stream_mb_s=5000 is outside the valid range \[0.2, 2000\]"),
     ("robot_moves_per_hour", "fast", r"robot_moves_per_hour='fast' is not a number")],
)  # fmt: skip
def test_bad_input_is_rejected_with_its_name_and_range(key, value, pattern):
    with pytest.raises(ValueError, match=pattern):
        L.scenario_outputs(**{key: value})
    with pytest.raises(ValueError, match=pattern):
        L.efficiency_panel().set(**{key: value})


def test_every_default_lies_on_its_slider_grid():
    # The browser puts a slider on min + k·step (log sliders: in the exponent); a default
    # off that grid would move on the first render and the page would disagree with the sheet.
    for key, inp in L.INPUTS.items():
        c = control(inp)
        if not hasattr(c, "step") or inp.integer:
            continue
        pos = (math.log10(c.value) - c.min) / c.step if inp.scale == "log" else (c.value - c.min) / c.step
        assert pos == pytest.approx(round(pos), abs=1e-9), f"{key}: default {inp.default} is off the grid"
        assert (c.min, c.max) == pytest.approx(
            (math.log10(inp.lo), math.log10(inp.hi)) if inp.scale == "log" else (inp.lo, inp.hi)
        )


def test_sheet_and_panel_accept_the_same_values():
    sheet, panel = ScenarioSheet(L), L.efficiency_panel()
    for key in L.SCENARIO:
        inp = L.INPUTS[key]
        good = [label for label, _v in inp.options] if inp.choices else [inp.lo, inp.hi]
        for v in good:
            sheet.set_cell(0, inp.header, str(v))
            panel.set(**{key: sheet.values(0)[key]})
            want = sheet.values(0)[key]
            assert panel.values[key] == (want if inp.choices else pytest.approx(want, rel=1e-12))
        if not inp.choices:
            for v in (inp.lo - 0.01 * (inp.hi - inp.lo), inp.hi * 1.01):
                with pytest.raises(ValueError, match=key):
                    sheet.set_cell(0, inp.header, str(v))
                with pytest.raises(ValueError, match=key):
                    panel.set(**{key: v})


def test_sheet_round_trip_and_the_bound_panel_overlays_other_scenarios(tmp_path):
    from vtsmodel.app.sheet import scenario_sheet

    panel = L.efficiency_panel()
    widget = scenario_sheet(L, panel)
    widget.duplicate()
    widget.set_cell(1, "Scenario", "small files")
    assert widget.set_cell(1, L.INPUTS["file_mb"].header, "10")
    assert widget.sheet.outputs("small files") == L.scenario_outputs(**widget.sheet.values("small files"))
    widget.select(0)
    names = [t["name"] for t in panel.figure("efficiency")["data"]]
    assert "small files" in names
    path = widget.sheet.save(tmp_path / "l04.json")
    assert ScenarioSheet.from_file(path, lesson_module).rows() == widget.sheet.rows()


def test_drive_choices_come_from_the_catalog_grouped_by_family():
    keys = [v for _label, v in L.INPUTS["drive"].options]
    assert keys == list(catalog.drive_names())  # grouped by family, in order of generation
    assert keys.index("LTO10") == keys.index("LTO9") + 1 and "IBM3592_70F" in keys
    rate_keys = [v for _label, v in L.INPUTS["rate_drive"].options]
    assert rate_keys == [k for _label, k in catalog.drive_options(having=("native_rate",))]
    assert "STK9940B" not in rate_keys  # CERN measured it; no native rate to compress from


# --- panel 1: the CERN formula ----------------------------------------------------------------


def test_efficiency_curves_and_point_follow_the_formula():
    p = L.efficiency_panel()
    p.set(drive="IBM3592A", robot_moves_per_hour=240.0, t_overhead_s=2.0, file_mb=100.0, files_per_mount=10.0)
    speed = catalog.drive_spec("IBM3592A").speed_mb_s
    tm = float(drives.mount_cycle_s(robot_moves_per_hour=240.0, drive="IBM3592A"))
    spec = p.figure("efficiency")
    for n in L.CURVE_FILES_PER_MOUNT:
        t = trace_named(spec, f"{n} file{'s' if n > 1 else ''}/mount")
        x = np.asarray(t["x"], float)
        want = quiet(drives.drive_efficiency, x, n, t_mount_s=tm, t_overhead_s=2.0, speed_mb_s=speed)
        np.testing.assert_allclose(np.asarray(t["y"], float), want)
    e = float(drives.drive_efficiency(100.0, 10.0, t_mount_s=tm, t_overhead_s=2.0, speed_mb_s=speed))
    pt = shape(spec, "this setting")
    assert (pt["xanchor"], pt["yanchor"]) == pytest.approx((100.0, e))
    heat = shape(p.figure("heatmap"), "this setting")
    assert (heat["xanchor"], heat["yanchor"]) == pytest.approx((2.0, 1.0))  # log10 of 100 MB and 10 files
    r = p.readout_values
    assert r["efficiency"] == percent(e) and r["throughput"] == f"{number(e * speed)} MB/s"
    assert r["mount cycle tMount"] == f"{number(tm, 4)} s"
    assert r["time per mount"] == duration(tm + 10 * 2.0 + 10 * 100.0 / speed)
    assert spec["layout"]["xaxis"]["range"] == [-1.02, 5.02] and spec["layout"]["yaxis"]["range"] == [0, 1.06]


def test_heatmap_is_the_formula_over_the_plane():
    p = L.efficiency_panel()
    hm = trace_named(p.figure("heatmap"), "efficiency")
    f, n = 10 ** np.asarray(hm["x"], float), 10 ** np.asarray(hm["y"], float)
    tm = float(drives.mount_cycle_s(drive=p.values["drive"]))
    want = quiet(drives.drive_efficiency, f[None, :], n[:, None], t_mount_s=tm, speed_mb_s=30.0)
    z = np.asarray(hm["z"], float)
    np.testing.assert_allclose(z, want)
    assert np.all(np.diff(z, axis=1) >= -1e-12) and np.all(np.diff(z, axis=0) >= -1e-12)


def test_the_main_slider_moves_only_marks():
    # The benchmark's main slider (file size) must not resend or recompute the base traces.
    p = L.efficiency_panel()
    panes = {k: (pane._base, pane.plot) for k, pane in p.plots.items()}
    for f in (10.0, 11.2, 500.0, 20000.0):
        p.set(file_mb=f)
        for key, pane in p.plots.items():
            assert pane._base is panes[key][0], f"{key}: the base was rebuilt by a file-size move"
            assert pane.plot.traces == () and pane.plot.args == panes[key][1].args
        assert shape(p.figure("efficiency"), "this setting")["xanchor"] == f


def test_defaults_are_the_notes_drive_and_the_mount_cycle_from_its_parts():
    # "a tape drive with 30 MB/s maximum speed" (the efficiency plot) and tMount built from
    # the parts "for 9940 type drives": 3600 / 160 = 22.5 s + 15 + 45 + 45 = 127.5 s
    # (cern_facts tmount_components_sum); the note prints "about 120s".
    p = L.efficiency_panel()
    assert catalog.drive_spec(p.values["drive"]).speed_mb_s == cern.value("plot_drive_speed")
    assert p.readout_values["mount cycle tMount"] == f"{number(cern.value('tmount_components_sum'), 4)} s"
    assert p.readout_values["robot move"] == "22.5 s"
    assert p.readout_values["load + locate + rewind, unload"] == "15 + 45 + 45 s"
    # CERN's parts are "for 9940 type drives": the default 9940B's own, not borrowed.
    assert "9940B's own times" in p.readout_values["mount parts from"]


@pytest.mark.parametrize(
    ("drive", "parts_from"),
    [("LTO9", "own times"), ("LTO6", "own load; CERN's 9940B for the rest"), ("IBM3592_60F", "borrowed")],
)
def test_the_mount_cycle_takes_the_drives_own_times(drive, parts_from):
    p = L.efficiency_panel(drive=drive)
    spec, parts = catalog.drive_spec(drive), catalog.mount_parts(drive)
    assert parts_from in p.readout_values["mount parts from"]
    if drive == "LTO9":  # ibm-dtl-lto-perf, Table 1: load 17 s, locate 45 s, rewind 55 s, unload 30 s
        assert (spec.load_s, spec.locate_s, spec.rewind_s, spec.unload_s) == (17.0, 45.0, 55.0, 30.0)
    tm = 3600.0 / 160.0 + sum(x.seconds for x in parts.values())
    assert p.readout_values["mount cycle tMount"] == f"{number(tm, 4)} s"
    assert p.view.caption_values["mount parts from"] == p.readout_values["mount parts from"]


def test_a_feed_below_the_speed_matching_floor_is_a_note_with_the_consequence():
    # LTO-9's lowest speed-matching rate, 177 MB/s (ibm-ts4300-speed-matching, Table 1);
    # below it, "Speed matching dramatically reduces backhitch ..." (the same page).
    p = L.efficiency_panel(drive="LTO9", stream_mb_s=20.0)
    assert p.readout_values["lowest speed-matching rate"] == "177 MB/s: cannot stream"
    (note,) = [n for n in p.view.notes if "speed-matching" in n]
    assert "177 MB/s" in note and "backhitch" in note and "ibm-ts4300-speed-matching" in note
    assert "The feed" in p.view.binding  # 20 MB/s keeps a 400 MB/s drive at 5 %
    p.set(stream_mb_s=200.0)
    assert p.readout_values["lowest speed-matching rate"] == "177 MB/s: streams"
    assert not any("speed-matching" in n for n in p.view.notes)
    p.set(drive="STK9940B")
    assert p.readout_values["lowest speed-matching rate"] == "not in any document found"


def test_cerns_disk_server_stream_cannot_feed_any_drive_with_a_known_floor():
    # "each of them equally only at 2 MB/s" (cern-tape-sizing-2005, Disk pool performance):
    # below every floor the catalog holds (17.5 MB/s for LTO-2 upwards).
    stream = cern.value("disk_server_stream_rate")
    for group in catalog.drive_choices(having=("min_speed_matching_rate",)):
        for c in group.drives:
            p = L.efficiency_panel(drive=c.key, stream_mb_s=stream)
            assert p.readout_values["lowest speed-matching rate"].endswith("cannot stream"), c.key


@pytest.mark.parametrize(("drive", "row"), [("STK9940B", "alice_efficiency_9940b"),
                                            ("IBM3592A", "alice_efficiency_3592a")])  # fmt: skip
def test_alice_stream_efficiencies(drive, row):
    # "average tape stream speed ~ 20 MB/s == 66% efficiency for 9940 B, 50 % for IBM 3592A":
    # 20/30 = 66.7 % (the note truncates to 66 %), 20/40 = 50 %.
    p = L.efficiency_panel(drive=drive, stream_mb_s=cern.value("alice_tape_stream_rate"))
    feed = cern.value("alice_tape_stream_rate") / catalog.drive_spec(drive).speed_mb_s
    assert feed == pytest.approx(cern.value(row), abs=0.01)
    assert p.readout_values["the feed allows"] == percent(feed)
    line = [s for s in p.figure("efficiency")["layout"]["shapes"] if s.get("type") == "line"][-1]
    assert line["y0"] == pytest.approx(feed) and line["visible"]


def test_extrapolated_file_size_is_a_note():
    p = L.efficiency_panel()
    p.set(file_mb=10000.0)
    # the note names the input as the page does: "file size = 10000 MB is outside ...", not file_mb=10000
    assert any(n.startswith("file size = 10000 MB is outside") and "1-1000 MB" in n for n in p.view.notes)
    assert not p.last_error
    p.set(file_mb=100.0)
    assert not any("file size" in n for n in p.view.notes)


def test_citations_are_the_drives_own_sources():
    p = L.efficiency_panel(drive="LTO9")
    assert set(p.view.citations) == {"cern_facts", *catalog.drive_spec("LTO9").primary_sources}
    assert "drive_catalog" not in p.view.citations
    assert "ibm-dtl-lto-perf" in p.caption()


# --- the checks the lesson made before: the sources' statements -------------------------------


def test_mount_cycle_parts_reproduce_the_note():
    # "3600 / 160 = 22.5s"; the parts sum to 127.5 s (tmount_components_sum); with the
    # upgraded 240 moves/h silo they sum to 120 s, the printed "about 120s".
    assert 3600.0 / cern.value("robot_moves_normal") == cern.value("tmount_move")
    assert float(drives.mount_cycle_s()) == cern.value("tmount_components_sum")
    upgraded = float(drives.mount_cycle_s(robot_moves_per_hour=cern.value("robot_moves_upgraded")))
    assert upgraded == pytest.approx(cern.value("tmount_total"), abs=0.5)


def test_drive_efficiency_is_the_notes_formula_written_out():
    # n·f / (tMount + n·tOverhead + n·f / tSpeed) / tSpeed, with the note's 120 s and 4.4 s.
    speed, tm, to = cern.value("plot_drive_speed"), cern.value("tmount_total"), cern.value("toverhead")
    for n in L.CURVE_FILES_PER_MOUNT:
        want = n * 1000.0 / (tm + n * to + n * 1000.0 / speed) / speed
        assert float(drives.drive_efficiency(1000.0, n, speed_mb_s=speed)) == pytest.approx(want, rel=1e-12)


# --- text a person reads ------------------------------------------------------------------------

_ENGINEERING = re.compile(r"\d[eE][+-]?\d")


@pytest.mark.parametrize("values", [{}, {"file_mb": 1e5, "files_per_mount": 1e4, "drive": "LTO10"},
                                    {"file_mb": 0.1, "stream_mb_s": 0.2, "drive": "STK3480"}])  # fmt: skip
def test_readouts_are_plain_numbers_with_units(values):
    p = L.efficiency_panel(**values)
    for text in (*p.readout_values.values(), p.view.binding, *p.view.notes):
        assert not _ENGINEERING.search(text), text
    for panel in (L.block_size_panel(), L.rates_panel(rate_drive="LTO10", compression_ratio=4.0)):
        assert not any(_ENGINEERING.search(t) for t in (*panel.readout_values.values(), panel.view.binding))


def test_key_numbers_are_labelled_with_units():
    text = L.key_numbers()
    assert "mount cycle from CERN's parts, 160 robot moves/h: 127.5 s (printed: about 120 s)" in text
    assert "240 robot moves/h: 120 s" in text and "LTO-9 from its own parts: 169.5 s" in text
    assert "StorageTek 9940B (30 MB/s) at 66.7 % of its speed" in text
    assert "IBM 3592 J1A (40 MB/s) at 50 % of its speed" in text
    assert "22.5 MB/s observed (75 % of the max)" in text and "need 60 MB/s of bus" in text
    assert "177 MB/s: cannot stream" in text
    assert not _ENGINEERING.search(text)


def test_source_rows_exist():
    for table, row in L.SOURCE_ROWS:
        assert load(table).provenance(row).source == "cern-tape-sizing-2005"


def test_bases_are_cached_and_plain_json():
    p = L.efficiency_panel()
    plot = p.view.figures["efficiency"]
    assert base_spec(plot) is base_spec(plot)
    assert "template" not in base_spec(plot)["layout"]
