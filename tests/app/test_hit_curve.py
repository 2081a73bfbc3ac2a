"""Lesson 08, the curve (vtsmodel.app.lessons.hit_curve): the log, its LRU curve and its marks follow vtsmodel.hits."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from vtsmodel import hits, mountlog
from vtsmodel.app.downloads import MAX_UPLOAD_BYTES
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import hit_curve as C
from vtsmodel.app.text import number, percent, size

from .hits_common import EDGE_LOGS, core, shape, shown

EXAMPLE = C.EXAMPLE_LOG


@pytest.mark.parametrize(
    ("cf", "rule", "capacity"), [(3.0, "all", 864.0), (2.0, "base", 432.0), (4.0, "paf", 216.0)]
)
def test_the_curve_and_its_table3_marks_equal_the_core(cf, rule, capacity):
    view = shown(C.view_curve, cf=cf, cache_rule=rule, capacity_gb=capacity)
    feature = None if rule == "all" else rule
    curve, t = core(EXAMPLE, cf=cf, feature=feature)
    spec = view.figures["curve"].spec()
    k = float(hits.compared_capacity_gb(1.0, size_basis="compressed", feature=feature or "ehpo", cf=cf))
    assert C.factor(C.example_source(), cf, rule) == pytest.approx(k)
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
    assert shape(spec, "by count here")["yanchor"] == pytest.approx(here.read_hit_ratio[0])
    assert shape(spec, "by bytes here")["yanchor"] == pytest.approx(here.read_byte_hit_ratio[0])
    line = shape(spec, f"TVC {number(capacity)} GB")
    assert line["x0"] == capacity and line["showlegend"] is True
    assert view.readouts[f"read hits at {number(capacity)} GB"] == (
        f"{percent(here.read_hit_ratio[0])} of reads, {percent(here.read_byte_hit_ratio[0])} of bytes"
    )
    assert view.readouts["capacity compared"] == f"{number(capacity * k)} GB of the log's compressed volumes"
    assert (
        view.readouts["mounts"] == f"{curve.mounts:,} of {curve.volumes:,} volumes in {number(curve.hours)} h"
    )


def test_the_binding_says_where_the_curve_stops_rising():
    curve, _t = core(EXAMPLE)
    full = float(curve.capacity_gb.max()) / C.factor(C.example_source(), 3.0, "all")
    low = shown(C.view_curve, capacity_gb=216.0)
    assert low.binding.startswith("At 216 GB, ") and f"at {size(full)}, beyond" in low.binding
    high = shown(C.view_curve, capacity_gb=3456.0)
    assert high.binding.startswith(
        f"From {size(full)} on, a larger cache gains nothing"
    )  # 2.59 TB, not 2,590 GB
    assert high.caption_values == {"mount log": "example_mount_log.csv (illustrative, synthetic)"}


def test_a_picked_log_is_read_with_its_name():
    text = EXAMPLE.read_bytes()
    src = C.read_upload(text, "my_log.csv")
    assert src.name == "my_log.csv" and not src.example and len(src.log) == 8000
    _curve, t = core(mountlog.read_mount_log(io.BytesIO(text)))
    assert np.allclose(C.table3(src, 3.0, "all", 0.0).read_hit_ratio, t.read_hit_ratio)
    view = shown(C.view_curve, source=src)
    assert view.readouts["mount log"] == "my_log.csv" and view.caption_values == {"mount log": "my_log.csv"}


def test_a_picked_log_in_utf16_reads_as_its_utf8_twin():
    # a log saved by a Windows tool: UTF-16 with its byte-order mark, CRLF line ends
    text = EXAMPLE.read_text(encoding="utf-8").replace("\n", "\r\n")
    src = C.read_upload(text.encode("utf-16"), "unicode_export.csv")
    want = mountlog.read_mount_log(EXAMPLE)
    assert src.log.volume_ids.tolist() == want.volume_ids.tolist() and np.array_equal(
        src.log.size_mb, want.size_mb
    )
    assert any("UTF-16-LE text" in n for n in src.log.notes)


def test_a_picked_json_lines_export_reads_as_its_csv_twin():
    # a monitoring tool's export: an object a line, epoch milliseconds, the file type the picker offers
    assert ".jsonl" in C.LOG_FILES.split(",")
    rows = [(1314000000000 + 7000 * i, f"A{i % 5:05d}", 10**9 + i) for i in range(40)]
    jl = "".join(json.dumps({"ts": t, "vid": v, "bytes": b, "site": "x"}) + "\n" for t, v, b in rows).encode()
    csv = ("ts,vid,bytes\n" + "".join(f"{t},{v},{b}\n" for t, v, b in rows)).encode()
    got, want = C.read_upload(jl, "export.jsonl").log, C.read_upload(csv, "export.csv").log
    assert got.cartridge_ids.tolist() == want.cartridge_ids.tolist() and np.array_equal(
        got.time_s, want.time_s
    )
    assert np.array_equal(got.size_mb, want.size_mb) and got.start == want.start


def test_every_time_form_is_offered_and_a_date_order_the_log_does_not_tell_is_asked_for():
    from vtsmodel.logs import TIME_FORMS

    assert sorted(v for _label, v in C.TIME_FORM_CHOICES if v) == sorted(TIME_FORMS)
    # a US tool's export in 24-hour time: 08/09/2011 could be either order, and no line tells
    text = b"time,tape,bytes\n08/09/2011 00:15:58,T1,1000\n08/10/2011 13:02:03,T2,2000\n"
    with pytest.raises(ValueError) as caught:
        C.read_upload(text, "us_export.csv")
    assert "choose month/day/year (US) or day/month/year in the box 'times'" in str(caught.value)
    assert "time_form=" not in str(caught.value)
    boxes = C.ReadingBoxes()
    boxes.time_form.value = "mdy"
    src = C.read_upload(text, "us_export.csv", **boxes.options())
    assert src.log.start == np.datetime64("2011-08-09T00:15:58") and src.reading == {"time_form": "mdy"}


def test_a_spreadsheets_days_read_as_seconds_are_noted_in_the_pages_words():
    # Dates a spreadsheet saved as numbers (days since 1899-12-30) are numbers: read as seconds unless
    # named. The page says so in its own words, and the box reads them as dates.
    # (sizes grouped in threes, a total under the table: read, and left out and said)
    text = (b'time,tape,bytes\n40774.0110879630,T1,"1,000"\n40774.0112268519,T2,"2,000"\n40774.5,T1,"3,000"\n'
            b'Total,,"6,000"\n')  # fmt: skip
    src = C.read_upload(text, "export.csv")
    assert src.log.size_mb.tolist() == [1e-3, 2e-3, 3e-3]
    assert (
        "1 line after the last request left out (a report's footer, or a line cut short): "
        + repr('Total,,"6,000"')
        in src.log.notes
    )
    said = [n for n in src.log.notes if "spreadsheet" in n]
    assert len(said) == 1 and "choose spreadsheet days in the box 'times'" in C.page_advice(said[0])
    boxes = C.ReadingBoxes()
    boxes.time_form.value = "excel"
    src = C.read_upload(text, "export.csv", **boxes.options())
    assert src.log.start == np.datetime64("2011-08-19T00:15:58") and src.log.time_s.tolist() == [0, 12, 42242]
    assert not any("may be a spreadsheet's dates" in n for n in src.log.notes)


def test_a_bad_log_names_the_file_line_field_value_and_range():
    with pytest.raises(
        ValueError, match=r"bad.csv, line 3: compressed_mb='-5' is outside the valid range \[0, 1e\+08\] MB"
    ):
        C.read_upload(b"time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,A,-5,read\n", "bad.csv")


def test_a_log_larger_than_the_page_reads_points_to_the_command_line():
    with pytest.raises(ValueError, match=r"huge.csv is 8,000,001 bytes; this page reads files up to 8,000,000 bytes: "
                                         r"use the command line \(vtsmodel hits LOG.csv\) for larger ones"):  # fmt: skip
        C.read_upload(b"#" * (MAX_UPLOAD_BYTES + 1), "huge.csv")


@pytest.mark.parametrize(("text", "note"), EDGE_LOGS)
def test_edge_logs_give_a_note_not_an_error(text, note):
    view = shown(C.view_curve, source=C.read_upload(text.encode(), "edge.csv"))
    assert any(note in n for n in view.notes), view.notes
    assert view.figures["curve"].spec()["data"]


def test_the_capacity_axis_is_fixed_and_the_tables_read_right():
    spec = C.curve_base(C.example_source(), 3.0, "all", 0.0)
    assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["xaxis"]["range"] == pytest.approx(
        [1.0, np.log10(5000.0)]
    )
    assert spec["layout"]["yaxis"]["range"] == [0, 1.02]
    table = C.numbers_table(["name", "x"], [["a &amp; b", "1"]], "demo", label_first=True)
    assert (
        "<th style='text-align:left;padding:2px 6px'>name</th><th style='text-align:right;padding:2px 6px'>x</th>"
        in table
    )
    assert "<td style='text-align:left;padding:2px 6px'>a &amp; b</td>" in table and "class='demo'" in table
    assert "<code>access</code>" in C.columns_html()
