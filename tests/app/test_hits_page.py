"""Lesson 08 (vtsmodel.app.lessons.hits) without a browser: the contract, and the page its topics make.

The topic modules are tested against vtsmodel.hits in test_hit_curve.py, test_recall_waits.py
and test_replacement.py; here, the page shows what they compute (the panel's figures and
readouts, the Table 3 table, the policies' table), its file bar reads a picked log as the
browser sends it, and the lesson's contract.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from vtsmodel import hits, mountlog
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import hit_curve as C
from vtsmodel.app.lessons import hits as L
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons import recall_waits as R
from vtsmodel.app.lessons import replacement as P
from vtsmodel.app.lessons.start import LESSON_LIST

from .hits_common import EDGE_LOGS, core, evaluated, shape, shown
from .uploads import browser_upload

EXAMPLE = C.EXAMPLE_LOG


# --- the contract and the inputs ---------------------------------------------------------------


def test_contract():
    assert lesson_module("08") is L
    assert L.LESSON_ID == "08" and L.TITLE and L.NOTEBOOK == "08_read_hits_from_a_mount_log.ipynb"
    assert L.NOTEBOOK in {nb for nb, _q in LESSON_LIST}
    assert set(L.SCENARIO) <= set(L.INPUTS)
    assert list(L.INPUTS)[4:] == [*R.INPUTS, *P.INPUTS]  # each topic's own inputs, declared there
    curve, t = core(EXAMPLE)
    out = L.scenario_outputs(capacity_gb=432.0)
    i = list(t.tvc_gb).index(432.0)
    assert out["read hit ratio [-]"] == pytest.approx(t.read_hit_ratio[i])
    assert out["read hit ratio, bytes [-]"] == pytest.approx(t.read_byte_hit_ratio[i])
    assert out["recalls per hour [1/h]"] == pytest.approx(t.recalls_per_hour[i])
    w = hits.recall_waits(t, size_basis="compressed", cf=3.0)
    assert out["recall ready at percentile [s]"] == pytest.approx(w.response_s[i])
    assert all(k.endswith("]") for k in out)
    view = L.scenario_view()
    assert set(view.figures) == {"curve", "recalls"}
    for plot in view.figures.values():
        assert plot.figure().layout.height  # a valid plotly figure
    assert view.caption_values["mount log"].startswith("example_mount_log.csv (illustrative")
    # what the notebook calls
    assert L.example_numbers is R.example_numbers and L.columns_html is C.columns_html


def test_bad_scenario_input_is_rejected_with_its_name_and_range():
    with pytest.raises(ValueError, match=r"capacity_gb=5000 is outside the valid range \[12, 3456\]"):
        L.scenario_outputs(capacity_gb=5000)
    with pytest.raises(ValueError, match=r"copy_drives=6 is outside the valid range"):
        L.scenario_outputs(copy_drives=6)
    with pytest.raises(ValueError, match="copy_drives=4 must be below total_drives=4"):
        L.scenario_outputs(total_drives=4, copy_drives=4)
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(policies=True)  # a page option, not a scenario's


def test_every_default_lies_on_its_sliders_grid_and_the_controls_take_the_inputs_range():
    page = L.HitsPage()
    for key, inp in L.INPUTS.items():
        ctl = page.panel.controls[key]
        if inp.kind in ("number", "int"):
            assert (ctl.min, ctl.max) == (inp.lo, inp.hi), key
            pos = (inp.default - inp.lo) / ctl.step
            assert pos == pytest.approx(round(pos), abs=1e-9), f"{key}: default off the slider's grid"
            with pytest.raises(ValueError, match=f"{key}="):
                page.set(**{key: inp.hi + ctl.step})
    # Table 3's capacities are all on the capacity slider's grid
    step = page.panel.controls["capacity_gb"].step
    assert all(((g - L.INPUTS["capacity_gb"].lo) / step).is_integer() for g in hits.configuration_hits(
        hits.lru_hit_curve(EXAMPLE)).tvc_gb)  # fmt: skip


# --- the page shows what its topics compute --------------------------------------------------------


def test_the_panel_the_table_and_the_binding_are_the_topics():
    values = {"cf": 2.0, "cache_rule": "base", "capacity_gb": 432.0, "total_drives": 5, "copy_drives": 3,
              "percentile": 0.9, "busiest_hour": True}  # fmt: skip
    page = L.HitsPage(**values)
    src, slow = C.example_source(), {"cf": 2.0, "cache_rule": "base", "warmup_hours": 0.0}
    queue = {k: values.get(k, R.INPUTS[k].default) for k in R.INPUTS}
    curve = shown(C.view_curve, source=src, **slow, capacity_gb=432.0, **queue)
    recalls = shown(R.view_recalls, source=src, **slow, capacity_gb=432.0, **queue)
    assert page.panel.readout_values == {**curve.readouts, **recalls.readouts}
    assert page.panel.view.binding == curve.binding and page.panel.view.citations == C.CITATIONS
    assert page.panel.figure("curve") == curve.figures["curve"].spec()  # nothing asked: the curve alone
    assert page.panel.figure("recalls") == recalls.figures["recalls"].spec()
    assert page.rows == R.table3_rows(evaluated(source=src, **slow, **queue).recalls)
    shown_tables = page.panel._tables.value
    assert R.table3_html(page.rows, 0.9) in shown_tables and "90th pct" in shown_tables


def test_moving_the_capacity_sends_only_the_marks():
    page = L.HitsPage()
    sent = {k: [] for k in page.panel.plots}
    for key, pane in page.panel.plots.items():
        pane.widget.observe(lambda ch, key=key: sent[key].append(ch["name"]), names=["base", "moving"])
    bases = {k: p.widget.base for k, p in page.panel.plots.items()}
    page.panel.controls["capacity_gb"].value = 432.0  # as a person moving the slider
    assert sent == {"curve": ["moving"], "recalls": ["moving"]}
    assert all(page.panel.plots[k].widget.base is bases[k] for k in bases)
    assert "read hits at 432 GB" in page.panel.readout_values
    page.panel.controls["cf"].value = 2.0  # the compression input is slow for the base rule only
    page.set(cache_rule="base")
    assert "base" in sent["curve"]


def test_a_saturated_queue_binds_and_a_combination_the_model_refuses_keeps_the_last_view():
    page = L.HitsPage(total_drives=3, copy_drives=2, busiest_hour=True)
    r = page.panel.readout_values
    assert r["recall ready (95th percentile)"] == "no steady state (the queue grows)"
    assert "grows without bound" in page.panel.view.binding
    assert shape(page.panel.figure("recalls"), "ready here")["visible"] is False
    assert "no steady state" in page.panel.view.tables["hits-rows"]
    page.set(copy_drives=3)  # not a combination the model takes: the panel says why and keeps the last view
    assert "copy_drives=3 must be below total_drives=3" in page.panel.last_error
    assert page.panel.readout_values == r


@pytest.mark.slow
def test_the_comparisons_are_drawn_on_the_curve_and_listed_under_the_panel():
    log = mountlog.synthetic_mount_log(1500, 600, seed=8)
    src = C.LogSource("small.csv", log)
    page = L.HitsPage(src, policies=True, shards=True, max_volumes=256, cache_rule="paf")
    slow = {"cf": 3.0, "cache_rule": "paf", "warmup_hours": 0.0}
    spec = page.panel.figure("curve")
    for tr in P.traces(src, **slow, policies=True, shards=True, max_volumes=256):
        assert np.allclose(trace_named(spec, tr.name)["y"], tr.y, equal_nan=True)
    compared = shown(P.view_compared, source=src, **slow, shards=True, max_volumes=256)
    assert (
        page.panel.readout_values["SHARDS error at Table 3 sizes"]
        == compared.readouts["SHARDS error at Table 3 sizes"]
    )
    policies = page.panel.view.tables["policies"]
    assert (
        policies == P.policies_html(evaluated(source=src, **slow, policies=True))
        and "FIFO (libCacheSim)" in policies
    )
    assert not page.panel.controls["max_volumes"].disabled
    page.set(policies=False, shards=False)
    assert page.panel.view.tables["policies"] == "" and "FIFO (libCacheSim)" not in str(
        page.panel.figure("curve")["data"]
    )
    assert page.panel.controls["max_volumes"].disabled  # used only with the sampled curve


def test_policies_on_a_log_beyond_the_pages_limit_are_a_note(monkeypatch):
    monkeypatch.setattr(P, "MAX_POLICY_MOUNTS", 1000)
    page = L.HitsPage(policies=True)
    assert any("up to 1,000 mounts" in n for n in page.panel.view.notes)
    assert page.panel.view.tables["policies"] == ""


# --- the log: picked in the browser, the example, errors -------------------------------------------


def test_uploading_the_example_shows_the_cores_numbers():
    page = L.HitsPage()
    assert "showing <b>example_mount_log.csv</b> (synthetic, illustrative" in page.status.value
    text = EXAMPLE.read_bytes()
    browser_upload(page.upload, "my_log.csv", text)
    assert page.upload.received == 1  # handled: the picker clears its note, the same file can come again
    assert page.source.name == "my_log.csv" and not page.source.example
    assert "showing <b>my_log.csv</b>" in page.status.value and "8,000 mounts" in page.status.value
    assert "vtsmodel-hits-done" in page.status.value
    curve, t = core(mountlog.read_mount_log(io.BytesIO(text)))
    marks = trace_named(page.panel.figure("curve"), "Table 3 sizes, by count")
    assert np.allclose(marks["y"], t.read_hit_ratio)
    assert page.panel.readout_values["mount log"] == "my_log.csv"
    assert page.panel.view.caption_values == {"mount log": "my_log.csv"}
    page.use_example()
    assert page.source is C.example_source() and "synthetic, illustrative" in page.status.value


def test_a_bad_log_is_shown_with_its_line_field_value_and_range_and_changes_nothing():
    page = L.HitsPage()
    before = page.panel.figure("curve")
    bad = b"time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,A,-5,read\n"
    browser_upload(page.upload, "bad.csv", bad)
    status = page.status.value
    assert "<b>bad.csv</b> not loaded: line 3: compressed_mb=&#x27;-5&#x27;" in status
    assert "valid range [0, 1e+08] MB" in status and "vtsmodel-hits-failed" in status
    assert page.source is C.example_source() and page.panel.figure("curve") == before
    browser_upload(page.upload, "late.csv", b"time_s,volume,compressed_mb,access\n60,A,1,read\n0,B,1,read\n")
    assert "line 3" in page.status.value and "earlier" in page.status.value
    # the page says what to do on the page, not a Python call it has no option for
    assert (
        "read_mount_log(" not in page.status.value
        and "sort the file by time and upload it again" in page.status.value
    )
    browser_upload(page.upload, "cols.csv", b"time_s,volume,sise_mb,access\n0,A,1,read\n")
    assert "sise_mb" in page.status.value and "did you mean" in page.status.value


def test_a_log_larger_than_the_page_reads_points_to_the_command_line():
    """The page's script never sends it (tests/browser/test_hits_page.py); should one arrive, the same words."""
    page = L.HitsPage()
    assert page.upload.max_bytes == C.MAX_UPLOAD_BYTES and page.upload.larger == C.LARGER
    browser_upload(page.upload, "huge.csv", b"#" * (C.MAX_UPLOAD_BYTES + 1))
    assert "huge.csv</b> is 8,000,001 bytes; this page reads files up to 8,000,000 bytes" in page.status.value
    assert "use the command line (vtsmodel hits LOG.csv) for larger ones" in page.status.value
    assert page.source is C.example_source()


@pytest.mark.parametrize(("text", "note"), EDGE_LOGS)
def test_edge_logs_show_a_note_not_an_error(text, note):
    page = L.HitsPage()
    assert page.load_bytes(text.encode(), "edge.csv").startswith("showing <b>edge.csv</b>")
    assert page.source.name == "edge.csv" and not page.panel.last_error
    assert any(note in n for n in page.panel.view.notes), page.panel.view.notes
    assert page.panel.figure("curve")["data"] and len(page.rows) == 9


# --- the downloads ---------------------------------------------------------------------------------


def test_the_table_downloads_as_csv(monkeypatch):
    page = L.HitsPage()
    sent = {}
    monkeypatch.setattr(page.files.downloader, "send_file", lambda name, data, fmt: sent.update(n=name, d=data, f=fmt) or name)  # fmt: skip
    assert page.download_table() == "08_hits_example_mount_log.csv" and sent["f"] == "csv"
    assert "downloaded <b>08_hits_example_mount_log.csv</b>" in page.status.value
    lines = [x for x in sent["d"].decode().splitlines() if not x.startswith("#")]
    rows = list(csv.DictReader(lines))
    assert [float(r["TVC [GB]"]) for r in rows] == [r["TVC [GB]"] for r in page.rows]
    for got, want in zip(rows, page.rows, strict=True):
        assert float(got["read hits [%]"]) == pytest.approx(want["read hits [%]"], rel=1e-5)
        assert float(got["ready at pct [s]"]) == pytest.approx(want["ready at pct [s]"], rel=1e-5)
    assert "illustrative" in sent["d"].decode().splitlines()[0]
    page.files.controls["Download table (CSV)"].click()  # the button does the same
    assert sent["n"] == "08_hits_example_mount_log.csv"


def test_export_carries_the_log_and_the_sources():
    page = L.HitsPage()
    name, data = page.panel.export_bytes("html", figure="curve")
    text = data.decode("utf-8")
    assert name == "08_hits_curve.html"
    assert "example_mount_log.csv (illustrative, synthetic)" in text and "ibm-vts-b18-2000" in text
    assert "drive_catalog" not in page.panel.caption("curve")


# --- capacities of any size, and logs of any shape (issue 23) ---------------------------------------


def test_capacities_over_the_working_set_or_typed_follow_the_core():
    page = L.HitsPage()
    curve = C.curve_of(C.example_source(), 0.0)
    page.which.value = "auto"
    caps = hits.auto_capacities(curve, 12)
    assert np.allclose(page.capacities, caps) and page.panel.controls["capacity_gb"].disabled
    assert [r["capacity [GB]"] for r in page.rows] == pytest.approx(caps)
    want = curve.at(caps)
    assert [r["read hits [%]"] for r in page.rows] == pytest.approx(100 * want.read_hit_ratio)
    assert [r["recalls [1/h]"] for r in page.rows] == pytest.approx(want.recalls_per_hour)
    spec = page.panel.figure("curve")
    marks = trace_named(spec, "chosen capacities, by count")
    assert np.allclose(marks["x"], caps) and np.allclose(marks["y"], want.read_hit_ratio)
    assert spec["layout"]["xaxis"]["title"]["text"] == "cache capacity, in the log's sizes [GB]"
    assert "Each chosen capacity" in page.panel.view.tables["hits-rows"]
    page.which.value = "typed"
    page.typed.value = "2GB, 0.5TB"
    assert page.capacities == (2.0, 500.0)
    assert [r["capacity [GB]"] for r in page.rows] == [2.0, 500.0]
    page.typed.value = "lots"
    assert "&#x27;lots&#x27; is not a size" in page.status.value and page.capacities == (2.0, 500.0)
    page.which.value = "table3"
    assert page.capacities is None and len(page.rows) == 9 and not page.panel.controls["capacity_gb"].disabled


def test_a_compressed_headerless_log_is_read_with_the_pages_options():
    import gzip

    from vtsmodel.logs import example_log

    page = L.HitsPage()
    text = example_log("tape-requests", 200, seed=4)
    page.log_format.value = "tape-requests"
    page.object_size.value = "18TB"
    browser_upload(page.upload, "robot.log.gz", gzip.compress(text.encode()))
    assert "showing <b>robot.log.gz</b>" in page.status.value, page.status.value
    log = mountlog.read_mount_log(text, format="tape-requests", object_mb=18e6)
    assert page.source.log.cartridge_ids.tolist() == log.cartridge_ids.tolist()
    assert any("every object counted as 18,000,000 MB" in n for n in page.panel.view.notes)
    page.which.value = "auto"
    curve = hits.lru_hit_curve(log)
    assert [r["read hits [%]"] for r in page.rows] == pytest.approx(
        100 * curve.at(hits.auto_capacities(curve, 12)).read_hit_ratio
    )
