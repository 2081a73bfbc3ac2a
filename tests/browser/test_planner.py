"""07_plan_a_system in Voila: upload the example workload, change one answer, see the recommendation
and the tornado follow the package's numbers, download the report, upload the example mount log
and see each configuration's read hits come from it.

The expected values come from the page's own class built in the test process and given the same
workload and answers as the browser: its view is what ``vtsmodel.plan`` computes for them.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from vtsmodel import plan
from vtsmodel.app.lessons import planner as lesson07
from vtsmodel.app.lessons.hit_curve import EXAMPLE_LOG
from vtsmodel.app.text import number
from vtsmodel.hits import lru_hit_curve

from .helpers import (
    drawn_unlike_a_new_plot,
    fits_width,
    in_place_draws,
    move_panel_slider,
    open_lesson_with_plots,
    panel_as_shown,
    panel_plot_index,
    pick_file,
    plot_locator,
    plot_traces,
    traces_mismatch,
    wait_for_panel,
    watch_in_place,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "07_plan_a_system.ipynb"
TITLE = lesson07.TITLE


def _status(page, kind: str, text: str) -> str:
    loc = page.locator(f".vtsmodel-plan-status .vtsmodel-plan-{kind}", has_text=text)
    loc.wait_for(timeout=120_000)
    return loc.inner_text()


def _below_screen(page, index: int) -> float:
    """How far the top of the page's ``index``-th plot is below the bottom of the screen [px]."""
    return plot_locator(page, index).evaluate("el => el.getBoundingClientRect().top - window.innerHeight")


def _wait_shows(page, index: int, spec) -> None:
    page.wait_for_function(
        "i => document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[i] !== undefined", arg=index
    )
    for _ in range(300):
        if not traces_mismatch(plot_traces(page, index), spec):
            return
        page.wait_for_timeout(100)
    raise AssertionError(traces_mismatch(plot_traces(page, index), spec))


def test_a_move_draws_the_plots_on_the_screen_and_those_below_when_near(open_lesson):
    """A move redraws the plot beside the slider at once; the day's plot, far below the screen, when it
    is scrolled near (``_plotpane.js``), or by itself once the moves pause: each then shows the package's view."""
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)
    mine = lesson07.PlannerPage(defer_tornado=False)
    panel_as_shown(page, TITLE, mine.panel)
    first, day = panel_plot_index(page, TITLE, 0), panel_plot_index(page, TITLE, 2)
    page.evaluate("() => { window.__vtsmodelOffscreenDelayMs = 3600000; }")  # drawn only when near
    before = plot_traces(page, day)

    move_panel_slider(page, mine.panel, TITLE, "write_gb_per_day", "data written per day", 1)
    specs = [p.spec() for p in mine.panel.view.figures.values()]
    _wait_shows(page, first, specs[0])
    assert _below_screen(page, first) < 0, "the configurations' plot is beside the slider, on the screen"
    assert _below_screen(page, day) > 600, "the day's plot is far below the screen"
    page.wait_for_timeout(1000)
    assert plot_traces(page, day) == before, "the day's plot was redrawn off the screen"
    assert traces_mismatch(before, specs[2]), "the move changes the day's plot"

    plot_locator(page, day).scroll_into_view_if_needed()
    _wait_shows(page, day, specs[2])

    # With the page's own delay: drawn without scrolling once the moves pause.
    page.evaluate("() => { delete window.__vtsmodelOffscreenDelayMs; }")
    before = plot_traces(page, day)
    move_panel_slider(page, mine.panel, TITLE, "write_gb_per_day", "data written per day", 1)
    assert _below_screen(page, day) > 600
    specs = [p.spec() for p in mine.panel.view.figures.values()]
    assert traces_mismatch(before, specs[2])
    _wait_shows(page, day, specs[2])
    assert _below_screen(page, day) > 600


def test_a_move_of_the_values_alone_redraws_the_traces_as_a_new_plot_would(open_lesson):
    """A data-per-day move changes the configurations' values under axes that stay put: the page redraws
    the traces alone (plotly.js's transition path, ``_plotpane.js``), and what it draws is what a new
    plot of the same figure draws; a move of a target (a shape, an axis) is drawn in full, as well."""
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)
    mine = lesson07.PlannerPage(defer_tornado=False)
    panel_as_shown(page, TITLE, mine.panel)
    first = panel_plot_index(page, TITLE, 0)
    watch_in_place(page, first)
    axes = mine.panel.figure("configurations")["layout"]["yaxis"]["range"]
    for _ in range(3):
        move_panel_slider(page, mine.panel, TITLE, "write_gb_per_day", "data written per day", 1)
        _wait_shows(page, first, mine.panel.figure("configurations"))
        assert drawn_unlike_a_new_plot(page, first) == ""
    assert mine.panel.figure("configurations")["layout"]["yaxis"]["range"] == axes  # the axes stayed put
    assert in_place_draws(page, first) >= 1, "no move took the traces-only path"

    moved = in_place_draws(page, first)
    move_panel_slider(page, mine.panel, TITLE, "recall_target_s", "recall ready within", 3)
    _wait_shows(page, first, mine.panel.figure("configurations"))
    target = next(
        s["y0"]
        for s in mine.panel.figure("configurations")["layout"]["shapes"]
        if s.get("name", "").startswith("target ")
    )
    page.wait_for_function(
        "([i, y]) => document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[i].layout.shapes"
        ".some(s => s.name && s.name.startsWith('target ') && s.y0 === y)",
        arg=[first, target],
    )
    assert drawn_unlike_a_new_plot(page, first) == ""
    assert in_place_draws(page, first) == moved, "a moved target was drawn by the traces-only path"

    # The years, 5 -> 6 -> 7: the capacity figure's year axis ends in bands of five years (axes.year_range),
    # so the first move (a new band) is drawn in full and the second, one more bar and longer slot lines
    # under the same axes, by the traces-only path; both as a new plot draws them.
    capacity = panel_plot_index(page, TITLE, 1)
    watch_in_place(page, capacity)
    for _ in range(2):
        move_panel_slider(page, mine.panel, TITLE, "years", "years [", 1)
        _wait_shows(page, capacity, mine.panel.figure("capacity"))
        assert drawn_unlike_a_new_plot(page, capacity) == ""
    assert in_place_draws(page, capacity) == 1, "the years move within a band was drawn in full"


def test_upload_change_an_answer_and_download_the_report(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)
    mine = lesson07.PlannerPage(defer_tornado=False)  # Playwright runs an event loop here
    panel_as_shown(page, TITLE, mine.panel)

    # A bad file: rejected naming the line; the page keeps the day of the answers.
    bad = lesson07.EXAMPLE_WORKLOAD.read_bytes().replace(b"\n3,250000,", b"\n3,-250000,", 1)
    pick_file(
        page, "plan", "Upload workload", {"name": "broken_day.csv", "mimeType": "text/csv", "buffer": bad}
    )
    text = _status(page, "failed", "broken_day.csv not loaded")
    with pytest.raises(ValueError) as err:
        mine.load_workload(bad, "broken_day.csv")
    assert str(err.value) in text and "line 13" in text, text

    # The example workload, uploaded as a person would.
    pick_file(page, "plan", "Upload workload", str(lesson07.EXAMPLE_WORKLOAD))
    _status(page, "done", "evaluating example_hourly_workload.csv")
    mine.load_workload(lesson07.EXAMPLE_WORKLOAD.read_bytes(), lesson07.EXAMPLE_WORKLOAD.name)
    wait_for_panel(page, TITLE, mine.panel.view)
    before = dict(mine.panel.readout_values)
    tornado_before = mine.panel.figure("tornado")
    assert before["day evaluated"] == "example_hourly_workload (24 h)"

    # One answer changed: CF six steps right; the recommendation and the tornado follow.
    handle = (
        page.locator(".vtsmodel-panel .widget-slider")
        .filter(has=page.locator(".widget-label", has_text="compressibility CF"))
        .first.locator(".noUi-handle")
    )
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(6):
        handle.press("ArrowRight")
    cf = round(lesson07.INPUTS["cf"].default + 6 * lesson07.INPUTS["cf"].step, 6)
    mine.panel.set(cf=cf)
    wait_for_panel(page, TITLE, mine.panel.view)
    after = mine.panel.readout_values
    p = plan.Plan(lesson07.answers_of(mine.panel.values), workload=mine.workload)
    vts = plan.vts_plan(p)
    assert after["recommended"] == vts.recommended.config.label != before["recommended"]
    sens = plan.sensitivity(p, configuration=vts.closest.config)
    tornado = panel_plot_index(page, TITLE, list(mine.panel.view.figures).index("tornado"))
    assert traces_mismatch(plot_traces(page, tornado), tornado_before)  # it moved
    cf_row = next(r for r in sens.tornado("time throttled [h]") if r.driver == "compressibility CF")
    assert cf_row.input_base == pytest.approx(cf)
    assert page.locator(".vtsmodel-headline").inner_text().startswith(vts.headline()[:40])

    # The report, downloaded: the plan shown, offline, named and titled as typed.
    page.locator(".vtsmodel-plan-name input").fill("Site A nightly")
    page.locator(".vtsmodel-plan-name input").press("Enter")
    with page.expect_download(timeout=120_000) as info:
        page.locator("button.jupyter-button", has_text="Report (HTML)").click()
    download = info.value
    assert download.suggested_filename == "Site A nightly_report.html"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    _status(page, "done", "downloaded Site A nightly_report.html")
    report = target.read_text(encoding="utf-8")
    assert report.startswith("<!DOCTYPE html>") and "<script src=" not in report
    assert "<h1>Site A nightly</h1>" in report
    assert vts.recommended.config.label in report and "example_hourly_workload" in report

    # The example mount log, uploaded: each configuration its own read hits, the slider greyed out.
    pick_file(page, "plan", "Upload log", str(EXAMPLE_LOG))
    _status(page, "done", f"read hits from the mount log {EXAMPLE_LOG.name}")
    mine.logs.load_bytes(EXAMPLE_LOG.read_bytes(), EXAMPLE_LOG.name)
    wait_for_panel(page, TITLE, mine.panel.view)  # the figures and every readout
    hits = plan.vts_plan(dataclasses.replace(p, hits=lru_hit_curve(EXAMPLE_LOG))).closest
    shown = mine.panel.readout_values["read hit ratio used"]
    assert shown.startswith(f"{number(hits.read_hit)} at ") and shown.endswith(EXAMPLE_LOG.name), shown
    assert shown != after["read hit ratio used"]
    slider = (
        page.locator(".vtsmodel-panel .widget-slider")
        .filter(has=page.locator(".widget-label", has_text=lesson07.INPUTS["read_hit"].label))
        .first
    )
    assert slider.locator(".noUi-target[disabled]").count() == 1
    assert fits_width(page)


def test_a_plan_file_that_says_how_to_read_its_log_reads_the_upload_so(open_lesson, tmp_path):
    """A site's log (no header, its own access word U) needs the plan's reading: the boxes show it, the upload is read,
    and the plan saved again says it."""
    from replay_logs import SITE_READING, site_log

    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 3)
    doc = plan.plan_to_dict(plan.Plan(plan.Answers(cf=2.5), name="site"))
    doc["mount_log"] = {"file": "site.log.gz", "reading": SITE_READING}
    plan_file = tmp_path / "site.json"
    plan_file.write_text(json.dumps(doc))
    pick_file(page, "plan", "Load plan", str(plan_file))
    _status(page, "done", "read as the plan file says")
    boxes = page.locator(".vtsmodel-read-option input")
    assert [boxes.nth(i).input_value() for i in range(boxes.count())] == [
        "time,volume,mb,access",
        "",
        "U=specific_write",
    ]
    log = tmp_path / "site.log.gz"
    log.write_bytes(site_log())
    pick_file(page, "plan", "Upload log", str(log))
    assert "(3,000 mounts)" in _status(page, "done", "read hits from the mount log site.log.gz")
    with page.expect_download(timeout=120_000) as info:
        page.locator("button.jupyter-button", has_text="Save plan").click()
    saved = tmp_path / "saved.json"
    info.value.save_as(saved)
    assert json.loads(saved.read_text())["mount_log"] == {"file": "site.log.gz", "reading": SITE_READING}
