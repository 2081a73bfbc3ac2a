"""Lesson 07 with a mount log (vtsmodel.app.lessons.plan_files and the planner page): each configuration's own read hits.

Every expectation is computed here with :mod:`vtsmodel.plan` and :mod:`vtsmodel.hits` for the
same answers and log (``vtsmodel plan PLAN --mount-log LOG.csv``'s path); none is copied from a
run of the page.
"""

from __future__ import annotations

import json

import pytest

from vtsmodel import plan
from vtsmodel.app import report
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.lessons import configurations as cfg
from vtsmodel.app.lessons import planner as P
from vtsmodel.app.lessons import sensitivity
from vtsmodel.app.lessons.hit_curve import EXAMPLE_LOG, LARGER, example_source, read_upload
from vtsmodel.app.text import number
from vtsmodel.hits import lru_hit_curve, tvc_read_hit
from vtsmodel.hourly import read_hourly_workload

from .test_planner import same_data
from .uploads import browser_upload


def page(**values) -> P.PlannerPage:
    return P.PlannerPage(defer_tornado=False, report=report.report_bytes, **values)


def core(answers: plan.Answers, log=EXAMPLE_LOG, workload=None):
    """What the planner computes with the log's curve, as the CLI's --mount-log does."""
    p = plan.Plan(answers, workload=workload, hits=lru_hit_curve(log), mount_log_file=str(log))
    vts = plan.vts_plan(p)
    return p, vts, plan.sensitivity(p, configuration=vts.closest.config)


def shows_log(pg: P.PlannerPage, answers: plan.Answers, workload=None, name: str = EXAMPLE_LOG.name) -> None:
    """The page's numbers are the planner's with the example log: each configuration's read hits, readouts, figures."""
    p, vts, sens = core(answers, workload=workload)
    shown = cfg.evaluate(answers, workload, pg.log).vts
    for got, want in zip(shown.results, vts.results, strict=True):
        assert got.config.label == want.config.label
        assert got.read_hit == pytest.approx(want.read_hit, rel=1e-12)
        assert got.read_hit == pytest.approx(
            float(tvc_read_hit(p.hits, want.config.tvc_gb, feature=want.config.feature, cf=answers.cf)),
            rel=1e-12,
        )
        assert got.worst_recall_ready_s == pytest.approx(want.worst_recall_ready_s, rel=1e-12, nan_ok=True)
    best = vts.closest
    r = pg.panel.readout_values
    assert r["read hit ratio used"] == (
        f"{number(best.read_hit)} at {number(best.config.tvc_gb)} GB, from the mount log {name}"
    )
    for c in best.checks:
        assert r[c.label] == cfg.check_readout(c)
    assert r["recalls in the busiest hour"] == f"{number(vts.day['busiest recall hour [1/h]'])} per hour"
    same_data(pg.panel.figure("configurations"), plan_figures.configurations_spec(vts, targets=False))
    same_data(pg.panel.figure("day"), plan_figures.day_spec(best))
    same_data(pg.panel.figure("tornado"), plan_figures.tornado_spec(sensitivity.moving_rows(sens)))


def test_the_example_log_gives_each_configuration_the_planners_read_hits():
    pg = page()
    answered = pg.panel.readout_values["read hit ratio used"]
    assert answered == "0.7, answered"
    pg.logs.use_example()
    assert pg.log is example_source()
    assert f"read hits from the mount log <b>{EXAMPLE_LOG.name} (synthetic, illustrative" in pg.status.value
    shows_log(pg, plan.Answers())
    # the configurations differ in their hits (else the log would be one guess again)
    hits = {r.read_hit for r in cfg.evaluate(plan.Answers(), None, pg.log).vts.results}
    assert len(hits) > 1
    c = pg.panel.controls
    assert c["read_hit"].disabled and c["recalls_given"].disabled and c["recalls_per_hour"].disabled
    caption = pg.panel.caption()
    assert f"read hit ratio [-] = from the mount log {EXAMPLE_LOG.name} (synthetic" in caption
    # an answer moved: the page follows the planner with the log
    pg.panel.set(cf=3.0, write_gb_per_day=1500.0)
    shows_log(pg, plan.Answers(cf=3.0, write_gb_per_day=1500.0))
    # clearing restores the answered read hit
    pg.logs.clear()
    assert pg.log is None and pg.panel.readout_values["read hit ratio used"] == answered
    assert not c["read_hit"].disabled and not c["recalls_given"].disabled
    assert "mount log cleared" in pg.status.value
    p = plan.Plan(plan.Answers(cf=3.0, write_gb_per_day=1500.0))
    assert pg.panel.readout_values["recommended"] == P.STAGE.show(pg.panel.values).readouts["recommended"]
    assert all(r.read_hit == 0.7 for r in cfg.evaluate(p.answers, None).vts.results)


def test_an_uploaded_log_and_a_workload_together_follow_the_planner():
    pg = page()
    browser_upload(pg.logs.upload, EXAMPLE_LOG.name, EXAMPLE_LOG.read_bytes())
    assert pg.logs.upload.received == 1 and pg.log is not None and not pg.log.example
    assert f"read hits from the mount log <b>{EXAMPLE_LOG.name}</b> (8,000 mounts)" in pg.status.value
    pg.use_example()
    shows_log(pg, plan.Answers(), read_hourly_workload(P.EXAMPLE_WORKLOAD))
    assert pg.panel.controls["read_hit"].disabled


def test_another_log_never_reuses_an_evaluation_of_another():
    first, second = example_source(), read_upload(EXAMPLE_LOG.read_bytes(), "copy.csv")
    # a log whose reads all hit a cache of any size: the evaluation must be its own
    rows = ["time_s,volume,compressed_mb,access"] + [f"{60 * i},V{i % 3},100,read" for i in range(60)]
    other = read_upload("\n".join(rows).encode(), "three.csv")
    a = plan.Answers()
    e1, e2 = cfg.evaluate(a, None, first), cfg.evaluate(a, None, other)
    (p1, v1), (p2, v2) = (e1.plan, e1.vts), (e2.plan, e2.vts)
    assert v1 is not v2 and p2.mount_log_file == "three.csv" and p2.hits is not p1.hits
    assert [r.read_hit for r in v2.results] == [
        r.read_hit for r in plan.vts_plan(plan.Plan(a, hits=lru_hit_curve(other.log))).results
    ]
    assert cfg.evaluate(a, None, second).vts is not v1  # the same bytes read again: its own key
    assert e2.sensitivity() is not e1.sensitivity()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            b"time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,A,-5,read\n",
            "line 3: compressed_mb=",
        ),
        (
            b"time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,B,100,scratch_write\n",
            "no counted reads",
        ),
    ],
)
def test_a_bad_log_changes_nothing_and_the_status_says_why(data, said):
    pg = page()
    pg.logs.use_example()
    before, log = pg.panel.readout_values, pg.log
    browser_upload(pg.logs.upload, "bad.csv", data)
    assert "vtsmodel-plan-failed" in pg.status.value and "<b>bad.csv</b> not loaded" in pg.status.value
    assert said in pg.status.value
    assert pg.log is log and pg.panel.readout_values == before


def test_a_log_too_large_is_refused_with_the_command_line_named():
    pg = page()
    assert pg.logs.upload.larger == LARGER
    browser_upload(pg.logs.upload, "huge.csv", b"#" * (pg.logs.upload.max_bytes + 1))
    assert "vtsmodel hits LOG.csv" in pg.status.value and pg.log is None


# --- the plan file and the report ------------------------------------------------------------------


def test_save_references_the_log_and_load_asks_for_it(monkeypatch):
    pg = page()
    pg.logs.use_example()
    pg.panel.set(cf=3.0)
    sent = {}
    monkeypatch.setattr(pg.files.downloader, "send_file", lambda name, data, fmt: sent.update(d=data) or name)
    assert pg.save() == "plan.json"
    doc = json.loads(sent["d"])
    assert doc["mount_log"] == {"file": EXAMPLE_LOG.name} and doc["answers"]["cf"] == 3.0
    assert plan.plan_to_dict(pg.current_plan()) == doc

    other = page()
    other.logs.use_example()
    browser_upload(other.plan_upload, "plan.json", sent["d"])
    assert (
        other.panel.values["cf"] == 3.0
        and other.log is None
        and not other.panel.controls["read_hit"].disabled
    )
    assert (
        f"references the mount log file <b>{EXAMPLE_LOG.name}</b>, which a page cannot read from the server: "
        "upload it"
    ) in other.status.value
    # both references at once: each named
    doc["workload"] = {"file": "day.csv"}
    browser_upload(other.plan_upload, "both.json", json.dumps(doc).encode())
    assert "workload file <b>day.csv</b>" in other.status.value and "mount log file <b>" in other.status.value


def test_a_bad_mount_log_reference_is_refused_and_changes_nothing():
    pg = page()
    before = pg.panel.values
    doc = plan.plan_to_dict(plan.Plan(plan.Answers(cf=2.0)))
    doc["mount_log"] = {"file": ""}
    browser_upload(pg.plan_upload, "bad.json", json.dumps(doc).encode())
    assert "mount_log must be {&#x27;file&#x27;: NAME}" in pg.status.value and pg.panel.values == before


def test_the_report_holds_the_logs_hits(monkeypatch):
    pg = page()
    pg.logs.use_example()
    result = pg.result()
    assert result.plan.hits is not None and result.plan.mount_log_file == EXAMPLE_LOG.name
    _p, vts, _s = core(plan.Answers())
    name, data = pg.report_bytes("html")
    text = data.decode("utf-8")
    assert f"Read hits from the mount log <b>{EXAMPLE_LOG.name}</b>" in text and "read hit [-]" in text
    assert f"The mount log's reader says: {example_source().log.notes[0]}" in text
    for r in vts.results:  # each configuration's row: its label, then its own read hit
        mark = " ◀ recommended" if vts.recommended is not None and r.config == vts.recommended.config else ""
        label = report._e(r.config.label + mark)
        assert f"<tr><td>{label}</td><td class=num>{report._n(r.read_hit)}</td>" in text, r.config.label


def test_a_headerless_compressed_log_is_read_with_its_columns_as_the_hits_page_reads_it():
    # A real system's mount log: the example's rows, no header, semicolon-separated, gzip. Without
    # its columns the page says which to give and changes nothing; with them, the same read hits.
    import csv
    import gzip

    rows = list(csv.reader(line for line in EXAMPLE_LOG.read_text().splitlines() if not line.startswith("#")))
    assert rows[0] == ["time_s", "volume", "compressed_mb", "access"]
    data = gzip.compress("".join(";".join(r) + "\n" for r in rows[1:]).encode())
    pg = page()
    browser_upload(pg.logs.upload, "mounts.log.gz", data)
    assert pg.log is None and "no header line" in pg.status.value and "columns" in pg.status.value
    pg.logs.reading.columns.value = "time,volume,compressed_mb,access"
    browser_upload(pg.logs.upload, "mounts.log.gz", data)
    assert pg.log is not None and pg.log.name == "mounts.log.gz", pg.status.value
    got, want = pg.log.log, example_source().log
    assert got.volume_ids.tolist() == want.volume_ids.tolist() and got.time_s.tolist() == want.time_s.tolist()
    assert got.size_mb.tolist() == want.size_mb.tolist() and got.access.tolist() == want.access.tolist()
    shows_log(pg, plan.Answers(), name="mounts.log.gz")


def test_a_log_read_with_options_is_saved_with_them_and_read_so_after_the_plan_is_loaded(monkeypatch):
    """The plan file says how its mount log is read (mount_log.reading): the page saves what the upload took, and
    reads the next upload as a loaded plan says, the boxes set to what they can show and the rest kept."""
    from replay_logs import SITE_READING, site_log

    from vtsmodel import read_mount_log

    data = site_log()
    pg = page()
    pg.logs.reading.columns.value = "time,volume,mb,access"
    browser_upload(
        pg.logs.upload, "site.log.gz", data
    )  # the site's own word U: the page says where to say it
    assert (
        pg.log is None
        and "say what it means: type U=read in the box &#x27;access words&#x27;" in pg.status.value
    )
    assert "--access-map" not in pg.status.value
    # A plan file that says it all (written by hand, or saved by a page): loaded, then the log uploaded.
    reading = {**SITE_READING, "delimiter": ";"}
    doc = plan.plan_to_dict(plan.Plan(plan.Answers(cf=2.5), name="site"))
    doc["mount_log"] = {"file": "site.log.gz", "reading": reading}
    browser_upload(pg.plan_upload, "site.json", json.dumps(doc).encode())
    assert (
        "read as the plan file says: columns &quot;time,volume,mb,access&quot;, access_map" in pg.status.value
    )
    boxes = pg.logs.reading
    assert (boxes.columns.value, boxes.access_words.value) == ("time,volume,mb,access", "U=specific_write")
    assert pg.logs.plan_reading == {"delimiter": ";"}  # no box shows it: kept beside the boxes
    browser_upload(pg.logs.upload, "site.log.gz", data)
    assert pg.log is not None and pg.log.reading == reading
    log = read_mount_log(data, **reading)
    expected = plan.vts_plan(plan.Plan(plan.Answers(cf=2.5), hits=lru_hit_curve(log)))
    assert pg.panel.result.vts.closest.read_hit == expected.closest.read_hit
    # Saved again: the file says how the log was read.
    sent = {}
    monkeypatch.setattr(pg.files.downloader, "send_file", lambda name, d, fmt: sent.update(d=d) or name)
    pg.save()
    assert json.loads(sent["d"])["mount_log"] == {"file": "site.log.gz", "reading": reading}
    # A box the person empties is detected again; the mount log cleared forgets the plan's reading.
    boxes.columns.value = ""
    browser_upload(pg.logs.upload, "site.log.gz", data)
    assert "no header line" in pg.status.value
    pg.logs.clear()
    assert pg.logs.plan_reading == {}


def test_the_reading_boxes_show_what_they_can_and_read_access_words():
    from vtsmodel.app.lessons.hit_curve import ReadingBoxes

    boxes = ReadingBoxes()
    rest = boxes.show({"format": "tape-requests", "object_mb": 18e6, "columns": ["time", "volume"],
                       "access_map": {"R": "read", "D": None}, "sort": True, "time_form": "dmy"})  # fmt: skip
    assert rest == {"columns": ["time", "volume"], "sort": True}
    assert boxes.options() == {
        "format": "tape-requests",
        "time_form": "dmy",
        "object_mb": 18e6,
        "access_map": {"R": "read", "D": None},
    }
    assert boxes.show({"access_map": {"a,b": "read"}}) == {
        "access_map": {"a,b": "read"}
    }  # no text says that word
    assert boxes.options() == {}
    boxes.access_words.value = "R=read,W"
    with pytest.raises(ValueError, match="access words 'R=read,W': 'W' is not WORD=KIND"):
        boxes.options()


def test_the_stepped_tornado_with_a_log_shaped_like_a_real_systems_is_the_cores():
    # a gzip-compressed, semicolon-separated log with zoned times and heavy-tailed sizes, uploaded;
    # a move made while the page waits to compute its tornado: the tornado drawn is the core's
    import asyncio

    from vtsmodel.app import cache
    from vtsmodel.logs.synthetic import render_log, synthetic_mount_log

    log = synthetic_mount_log(5_000, 800, seed=7, popularity=1.1, size_sigma=1.6)
    data, _columns = render_log(log, delimiter=";", time_form="iso", zone_hours=2, compression="gzip")

    async def run():
        cache.clear()
        pg = P.PlannerPage()
        browser_upload(pg.logs.upload, "mounts.csv.gz", data)
        pg.panel.set(write_gb_per_day=2300.0)
        pg.panel.set(write_gb_per_day=2350.0)
        end = asyncio.get_running_loop().time() + 120.0
        while pg.tornado.pending:
            assert asyncio.get_running_loop().time() < end, "the tornado was not computed"
            await asyncio.sleep(0.01)
        return pg

    pg = asyncio.run(run())
    e = pg.panel.stage.result({**pg.panel.values, **pg.panel.state()})
    assert e.log is not None and e.plan.hits is not None  # each configuration its own read hits
    assert len({r.read_hit for r in e.vts.results}) > 1
    core = plan.sensitivity(e.plan, configuration=e.vts.closest.config)
    same_data(pg.panel.figure("tornado"), plan_figures.tornado_spec(sensitivity.moving_rows(core)))
    assert "updating…" not in [a["text"] for a in pg.panel.figure("tornado")["layout"].get("annotations", [])]
