"""Lesson 08, the recalls each cache size leaves (vtsmodel.app.lessons.recall_waits): they follow vtsmodel.hits."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from vtsmodel import hits
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import hit_curve as C
from vtsmodel.app.lessons import recall_waits as R
from vtsmodel.app.text import duration, number

from .hits_common import core, evaluated, shape, shown

EXAMPLE = C.EXAMPLE_LOG
SLOW = {"cf": 3.0, "cache_rule": "all", "warmup_hours": 0.0}


def view(**values):
    return shown(R.view_recalls, **{**SLOW, **values})


@pytest.mark.parametrize(
    ("cf", "rule", "capacity"), [(3.0, "all", 864.0), (2.0, "base", 432.0), (4.0, "paf", 216.0)]
)
def test_the_recalls_at_the_capacity_equal_the_core(cf, rule, capacity):
    feature = None if rule == "all" else rule
    curve, _t = core(EXAMPLE, cf=cf, feature=feature)
    k = float(hits.compared_capacity_gb(1.0, size_basis="compressed", feature=feature or "ehpo", cf=cf))
    here = curve.at(capacity * k)
    w = hits.recall_waits(here, size_basis="compressed", cf=cf)
    r = view(cf=cf, cache_rule=rule, capacity_gb=capacity).readouts
    assert r["recalls"] == f"{number(here.recalls_per_hour[0])} per hour"
    assert (
        r["recall ready (95th percentile)"]
        == f"{duration(w.response_s[0])}, of which {duration(w.wait_s[0])} waiting"
    )
    assert r["drives for recalls"].startswith("4 (6 − 2 copying)")
    assert r["mean recalled volume"] == f"{number(w.volume_mb[0])} MB uncompressed"


@pytest.mark.slow
def test_the_recalls_figure_and_the_table3_rows_equal_the_core():
    queue = {"total_drives": 5, "copy_drives": 3, "percentile": 0.9, "busiest_hour": True}
    curve, t = core(EXAMPLE)
    w = hits.recall_waits(t, size_basis="compressed", cf=3.0, total_drives=5, copy_drives=3, percentile=0.9,
                          busiest_hour=True)  # fmt: skip
    spec = view(**queue).figures["recalls"].spec()
    marks = trace_named(spec, "Table 3 sizes")
    assert np.array_equal(marks["x"], t.tvc_gb) and np.allclose(marks["y"], t.peak_hour_recalls)
    ready = trace_named(spec, "Table 3 sizes, ready")
    want = np.where(np.isfinite(w.response_s), w.response_s / 60.0, np.nan)
    assert np.allclose(np.array(ready["y"], float), want, equal_nan=True)
    rows = R.table3_rows(evaluated(**SLOW, **queue, capacity_gb=432.0, policies=True).recalls)
    assert len(rows) == t.tvc_gb.size
    for row, g, o, h, b, rate, peak, u, wait, resp in zip(
        rows, t.tvc_gb, t.offered_with, t.read_hit_ratio, t.read_byte_hit_ratio, t.recalls_per_hour,
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
    table = R.table3_html(rows, 0.9)
    assert "90th pct" in table and f"{t.tvc_gb[-1]:,.0f}" in table and "vtsmodel-hits-table" in table


def test_a_saturated_queue_shows_no_finite_point():
    v = view(total_drives=3, copy_drives=2, busiest_hour=True)
    assert v.readouts["recall ready (95th percentile)"] == "no steady state (the queue grows)"
    assert "grows without bound" in v.binding
    assert shape(v.figures["recalls"].spec(), "ready here")["visible"] is False
    rows = R.table3_rows(evaluated(total_drives=3, copy_drives=2, busiest_hour=True).recalls)
    assert "no steady state" in R.table3_html(rows, 0.95)
    with pytest.raises(ValueError, match="copy_drives=3 must be below total_drives=3"):
        view(total_drives=3, copy_drives=3)


def test_the_csv_holds_the_rows_and_says_where_they_came_from():
    rows = R.table3_rows(evaluated().recalls)
    text = R.table3_csv(rows, C.example_source())
    assert "illustrative" in text.splitlines()[0]
    got = list(csv.DictReader(x for x in text.splitlines() if not x.startswith("#")))
    assert [float(r["TVC [GB]"]) for r in got] == [r["TVC [GB]"] for r in rows]
    for g, want in zip(got, rows, strict=True):
        assert float(g["read hits [%]"]) == pytest.approx(want["read hits [%]"], rel=1e-5)
        assert float(g["ready at pct [s]"]) == pytest.approx(want["ready at pct [s]"], rel=1e-5)
    assert R.cell("ready at pct [s]", math.inf) == "no steady state" and R.cell("TVC [GB]", 1728.0) == "1,728"


def test_notebook_numbers_are_labelled():
    text = R.example_numbers()
    _curve, t = core(EXAMPLE)
    assert text.splitlines()[0].startswith("example log: 8,000 mounts")
    for line, g, h in zip(text.splitlines()[1:], t.tvc_gb, t.read_hit_ratio, strict=True):
        assert line.startswith(f"{g:,.0f} GB: read hits {number(100 * h)} % of reads")
    assert not math.isnan(t.read_hit_ratio[0])


def test_a_log_of_whole_cartridges_shows_its_recalls_but_no_vts_recall_queue():
    # A tape library's request log names only cartridges: each is one 18 TB object, and a mount
    # reads part of it. The VTS B18's queue (a recall reads its whole volume on a 3590) would say
    # 21,100 times the drives' capacity; the page shows the recalls and says the queue is not modelled.
    from vtsmodel.app.lessons import hits as L
    from vtsmodel.logs import example_log

    text = example_log("tape-requests", 600, seed=5).encode()
    src = C.read_upload(text, "robot.log", format="tape-requests", object_mb=18e6)
    assert src.log.objects_are_cartridges
    for caps in (None, (2e7, 4e7)):
        r = L.evaluate_hits(src, capacities=caps)
        assert not r.recalls.queued
        v = R.view_recalls(r)
        assert v.readouts["recall waits"] == R.NOT_QUEUED and v.binding == ""
        assert not any("utilisation" in k or "ready" in k or "drives" in k for k in v.readouts)
        rows = R.rows_of(r.recalls)
        assert rows and all(set(row).isdisjoint(R.QUEUE_COLUMNS) for row in rows)
        recalls = [row["recalls [1/h]"] for row in rows]
        assert recalls == pytest.approx(
            list(r.recalls.marked.recalls_per_hour if caps else r.recalls.table3.recalls_per_hour)
        )
        fig = R.recalls_base(r.recalls)
        assert len(fig["data"]) == 2 and "yaxis2" not in fig["layout"]  # the recalls alone, one plot
        assert any("not modelled for whole cartridges" in a["text"] for a in fig["layout"]["annotations"])
        assert not any(
            "2" in f"{s.get('xref')}{s.get('yref')}" for s in v.figures["recalls"].shapes
        )  # no x2, y2
    # a log with volumes keeps its queue
    assert R.rows_of(L.evaluate_hits().recalls)[0].keys() >= set(R.QUEUE_COLUMNS)
