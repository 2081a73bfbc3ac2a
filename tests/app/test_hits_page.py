"""Lesson 08 (vtsmodel.app.lessons.hits) without a browser: the page follows vtsmodel.hits.

Every number the page shows is recomputed here from the core (lru_hit_curve,
configuration_hits, recall_waits, shards_hit_curve, simulate_policy) on the same log and
compared with the figure JSON, the readouts and the Table 3 rows.
"""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest

from vtsmodel import hits, mountlog
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import hits as L
from vtsmodel.app.lessons import lesson_module
from vtsmodel.app.lessons.start import LESSON_LIST
from vtsmodel.app.text import duration, number, percent

EXAMPLE = L.EXAMPLE_LOG


def browser_upload(control, name: str, data: bytes) -> None:
    """What the browser sends when a person picks the file ``name`` in a FileUpload."""
    js = {
        "name": name,
        "type": "text/csv",
        "size": len(data),
        "content": memoryview(data),
        "last_modified": 0,
    }
    control.set_state({"value": [js]})


def shapes(spec, name):
    found = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert found, f"no shape {name!r}: {[s.get('name') for s in spec['layout'].get('shapes', [])]}"
    return found[0]


def core(log, *, cf=3.0, feature=None, warmup_hours=0.0):
    curve = hits.lru_hit_curve(log, warmup_hours=warmup_hours)
    return curve, hits.configuration_hits(curve, feature=feature, cf=cf)


# --- the contract and the inputs ---------------------------------------------------------------


def test_contract():
    assert lesson_module("08") is L
    assert L.LESSON_ID == "08" and L.TITLE and L.NOTEBOOK == "08_read_hits_from_a_mount_log.ipynb"
    assert L.NOTEBOOK in {nb for nb, _q in LESSON_LIST}
    assert set(L.SCENARIO) <= set(L.INPUTS)
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


# --- the panel follows the core ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cf", "rule", "capacity"), [(3.0, "all", 864.0), (2.0, "base", 432.0), (4.0, "paf", 216.0)]
)
def test_the_curve_and_its_table3_marks_equal_the_core(cf, rule, capacity):
    page = L.HitsPage(cf=cf, cache_rule=rule, capacity_gb=capacity)
    feature = None if rule == "all" else rule
    curve, t = core(EXAMPLE, cf=cf, feature=feature)
    spec = page.panel.figure("curve")
    k = float(hits.compared_capacity_gb(1.0, size_basis="compressed", feature=feature or "ehpo", cf=cf))
    lru = trace_named(spec, "LRU, by count")
    x = np.array(lru["x"], float)
    assert np.allclose(lru["y"], curve.read_hit_ratio(x * k), equal_nan=True)
    assert np.allclose(
        trace_named(spec, "LRU, by bytes")["y"], curve.read_byte_hit_ratio(x * k), equal_nan=True
    )
    marks = trace_named(spec, "Table 3 sizes, by count")
    assert np.array_equal(marks["x"], t.tvc_gb) and np.allclose(marks["y"], t.read_hit_ratio)
    marks = trace_named(spec, "Table 3 sizes, by bytes")
    assert np.array_equal(marks["x"], t.tvc_gb) and np.allclose(marks["y"], t.read_byte_hit_ratio)
    # the marks at the slider's capacity
    here = curve.at(capacity * k)
    assert shapes(spec, "by count here")["yanchor"] == pytest.approx(here.read_hit_ratio[0])
    assert shapes(spec, "by bytes here")["yanchor"] == pytest.approx(here.read_byte_hit_ratio[0])
    assert shapes(spec, f"TVC {number(capacity)} GB")["x0"] == capacity
    r = page.panel.readout_values
    assert r[f"read hits at {number(capacity)} GB"] == (
        f"{percent(here.read_hit_ratio[0])} of reads, {percent(here.read_byte_hit_ratio[0])} of bytes"
    )
    w = hits.recall_waits(here, size_basis="compressed", cf=cf)
    assert r["recalls"] == f"{number(here.recalls_per_hour[0])} per hour"
    assert (
        r["recall ready (95th percentile)"]
        == f"{duration(w.response_s[0])}, of which {duration(w.wait_s[0])} waiting"
    )
    assert r["drives for recalls"].startswith("4 (6 − 2 copying)")


def test_the_recalls_figure_and_the_table3_rows_equal_the_core():
    page = L.HitsPage(total_drives=5, copy_drives=3, percentile=0.9, busiest_hour=True)
    curve, t = core(EXAMPLE)
    w = hits.recall_waits(t, size_basis="compressed", cf=3.0, total_drives=5, copy_drives=3, percentile=0.9,
                          busiest_hour=True)  # fmt: skip
    spec = page.panel.figure("recalls")
    marks = trace_named(spec, "Table 3 sizes")
    assert np.array_equal(marks["x"], t.tvc_gb) and np.allclose(marks["y"], t.peak_hour_recalls)
    ready = trace_named(spec, "Table 3 sizes, ready")
    want = np.where(np.isfinite(w.response_s), w.response_s / 60.0, np.nan)
    assert np.allclose(np.array(ready["y"], float), want, equal_nan=True)
    assert len(page.rows) == t.tvc_gb.size
    for row, g, o, h, b, rate, peak, u, wait, resp in zip(
        page.rows, t.tvc_gb, t.offered_with, t.read_hit_ratio, t.read_byte_hit_ratio, t.recalls_per_hour,
        t.peak_hour_recalls, w.utilisation, w.wait_s, w.response_s, strict=True,
    ):  # fmt: skip
        assert (row["TVC [GB]"], row["offered with"]) == (g, o)
        assert row["read hits [%]"] == pytest.approx(100 * h) and row[
            "read hits, bytes [%]"
        ] == pytest.approx(100 * b)
        assert row["recalls [1/h]"] == pytest.approx(rate) and row["busiest hour [recalls]"] == peak
        assert row["utilisation [-]"] == pytest.approx(u)
        assert row["wait at pct [s]"] == pytest.approx(wait) and row["ready at pct [s]"] == pytest.approx(
            resp
        )
    assert "90th pct" in page.table.value and f"{t.tvc_gb[-1]:,.0f}" in page.table.value


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


def test_a_saturated_queue_shows_no_finite_point():
    page = L.HitsPage(total_drives=3, copy_drives=2, busiest_hour=True)
    r = page.panel.readout_values
    assert r["recall ready (95th percentile)"] == "no steady state (the queue grows)"
    assert "grows without bound" in page.panel.view.binding
    ready = shapes(page.panel.figure("recalls"), "ready here")
    assert ready["visible"] is False
    assert "no steady state" in page.table.value
    page.set(copy_drives=3)  # not a combination the model takes: the panel says why and keeps the last view
    assert "copy_drives=3 must be below total_drives=3" in page.panel.last_error
    assert page.panel.readout_values == r


# --- the log: upload, example, errors ------------------------------------------------------------


def test_uploading_the_example_shows_the_cores_numbers():
    page = L.HitsPage()
    text = EXAMPLE.read_bytes()
    browser_upload(page.upload, "my_log.csv", text)
    assert page.upload.value == ()  # the same file can be picked again
    assert page.source.name == "my_log.csv" and not page.source.example
    assert "showing <b>my_log.csv</b>" in page.status.value and "8,000 mounts" in page.status.value
    curve, t = core(mountlog.read_mount_log(io.BytesIO(text)))
    marks = trace_named(page.panel.figure("curve"), "Table 3 sizes, by count")
    assert np.allclose(marks["y"], t.read_hit_ratio)
    assert page.panel.readout_values["mount log"] == "my_log.csv"
    assert page.panel.view.caption_values == {"mount log": "my_log.csv"}
    page.use_example()
    assert page.source is L.example_source() and "synthetic, illustrative" in page.status.value


def test_a_bad_log_is_shown_with_its_line_field_value_and_range_and_changes_nothing():
    page = L.HitsPage()
    before = page.panel.figure("curve")
    bad = b"time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,A,-5,read\n"
    browser_upload(page.upload, "bad.csv", bad)
    status = page.status.value
    assert "not read: bad.csv, line 3" in status and "compressed_mb=&#x27;-5&#x27;" in status
    assert "valid range [0, 1e+08] MB" in status and "vtsmodel-hits-failed" in status
    assert page.source is L.example_source() and page.panel.figure("curve") == before
    browser_upload(page.upload, "late.csv", b"time_s,volume,compressed_mb,access\n60,A,1,read\n0,B,1,read\n")
    assert "line 3" in page.status.value and "earlier" in page.status.value
    browser_upload(page.upload, "cols.csv", b"time_s,volume,size_mb,access\n0,A,1,read\n")
    assert "size_mb" in page.status.value and "not known" in page.status.value


def test_a_log_larger_than_the_page_reads_points_to_the_command_line():
    page = L.HitsPage()
    browser_upload(page.upload, "huge.csv", b"#" * (L.MAX_UPLOAD_BYTES + 1))
    assert f"larger than {L.MAX_UPLOAD_BYTES:,} bytes" in page.status.value
    assert "vtsmodel hits LOG.csv" in page.status.value
    with pytest.raises(ValueError, match="larger than 8,000,000 bytes"):
        L.read_upload(b"#" * (L.MAX_UPLOAD_BYTES + 1), "huge.csv")


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("time_s,volume,compressed_mb,access\n", "no reads counted"),
        (
            "time_s,volume,compressed_mb,access\n0,A,1,scratch_write\n10,B,1,specific_write\n",
            "no reads counted",
        ),
        (
            "time_s,volume,compressed_mb,access\n0,A,100000,scratch_write\n60,A,100000,read\n",
            "largest volume",
        ),
    ],
)
def test_edge_logs_show_a_note_not_an_error(text, note):
    page = L.HitsPage()
    page.load_bytes(text.encode(), "edge.csv")
    assert page.source.name == "edge.csv" and not page.panel.last_error
    assert any(note in n for n in page.panel.view.notes), page.panel.view.notes
    assert page.panel.figure("curve")["data"] and len(page.rows) == 9


# --- the options: SHARDS, the other policies, the CSV, the export ----------------------------------


def test_shards_is_drawn_with_its_measured_error():
    page = L.HitsPage(shards=True, max_volumes=256)
    curve, t = core(EXAMPLE)
    s = hits.shards_hit_curve(L.example_source().log, max_volumes=256)
    trace = trace_named(page.panel.figure("curve"), "SHARDS, by count (256 volumes)")
    assert np.allclose(trace["y"], s.read_hit_ratio(np.array(trace["x"], float)), equal_nan=True)
    err = float(np.abs(s.read_hit_ratio(t.capacity_gb) - t.read_hit_ratio).max())
    assert page.panel.readout_values["SHARDS error at Table 3 sizes"] == (
        f"{number(err, 2)} at most (sampling rate {number(s.sampling_rate)})"
    )
    assert err > 0  # 256 of 2,280 volumes: a sample, not the whole log


def test_other_policies_at_the_table3_sizes_are_libcachesims():
    log = mountlog.synthetic_mount_log(1500, 600, seed=8)
    source = L.LogSource("small.csv", log)
    page = L.HitsPage(source, policies=True, cache_rule="paf")
    t = hits.configuration_hits(hits.lru_hit_curve(log), feature="paf", cf=3.0)
    spec = page.panel.figure("curve")
    for policy in ("FIFO", "ARC", "GDSF"):
        got = trace_named(spec, f"{policy} (libCacheSim)")
        want = hits.simulate_policy(log, t.capacity_gb, policy=policy)
        assert np.array_equal(got["x"], t.tvc_gb) and np.allclose(got["y"], want.read_hit_ratio)
    # libCacheSim's LRU is the one-pass curve at these sizes (all above the largest volume)
    assert np.allclose(trace_named(spec, "LRU (libCacheSim)")["y"], t.read_hit_ratio)
    assert "FIFO (libCacheSim)" in page.policies.value and "LRU, one pass" in page.policies.value
    page.set(policies=False)
    assert page.policies.value == "" and "FIFO (libCacheSim)" not in str(page.panel.figure("curve")["data"])


def test_policies_on_a_log_beyond_the_pages_limit_are_a_note(monkeypatch):
    monkeypatch.setattr(L, "MAX_POLICY_MOUNTS", 1000)
    page = L.HitsPage(policies=True)
    assert any("up to 1,000 mounts" in n for n in page.panel.view.notes)
    assert page.policies.value == ""


def test_the_table_downloads_as_csv(monkeypatch):
    page = L.HitsPage()
    sent = {}
    monkeypatch.setattr(page.panel.downloader, "send_file", lambda name, data, fmt: sent.update(n=name, d=data, f=fmt) or name)  # fmt: skip
    assert page.download_table() == "08_hits_example_mount_log.csv" and sent["f"] == "csv"
    lines = [x for x in sent["d"].splitlines() if not x.startswith("#")]
    rows = list(csv.DictReader(lines))
    assert [float(r["TVC [GB]"]) for r in rows] == [r["TVC [GB]"] for r in page.rows]
    for got, want in zip(rows, page.rows, strict=True):
        assert float(got["read hits [%]"]) == pytest.approx(want["read hits [%]"], rel=1e-5)
        assert float(got["ready at pct [s]"]) == pytest.approx(want["ready at pct [s]"], rel=1e-5)
    assert "illustrative" in sent["d"].splitlines()[0]


def test_export_carries_the_log_and_the_sources():
    page = L.HitsPage()
    name, data = page.panel.export_bytes("html", figure="curve")
    text = data.decode("utf-8")
    assert name == "08_hits_curve.html"
    assert "example_mount_log.csv (illustrative, synthetic)" in text and "ibm-vts-b18-2000" in text
    assert "drive_catalog" not in page.panel.caption("curve")


def test_notebook_numbers_are_labelled():
    text = L.example_numbers()
    _curve, t = core(EXAMPLE)
    assert text.splitlines()[0].startswith("example log: 8,000 mounts")
    for line, g, h in zip(text.splitlines()[1:], t.tvc_gb, t.read_hit_ratio, strict=True):
        assert line.startswith(f"{g:,.0f} GB: read hits {number(100 * h)} % of reads")
    assert "<code>access</code>" in L.columns_html()
    assert not math.isnan(t.read_hit_ratio[0])
