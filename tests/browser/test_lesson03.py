"""03_recall_queue_mount_time in Voila: every panel's main control moves its plot, its marks
and its readouts to the package's numbers; export writes PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process and set
to the same inputs as the browser: their views are what ``vtsmodel.recall``,
``vtsmodel.queueing`` and ``vtsmodel.robot`` compute for those inputs. A plot pane draws
its base traces, then its moving traces; the operating points are layout shapes.
"""

import time

import plotly.graph_objects as go
import pytest

from vtsmodel import catalog, queueing, recall
from vtsmodel.app.lessons import recall as lesson03
from vtsmodel.app.panels import View

from .helpers import (
    export_png_and_html,
    fits_width,
    move_panel_slider,
    open_lesson_with_plots,
    panel_plot_index,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "03_recall_queue_mount_time.ipynb"
PARTS = "The parts of one recall"
QUEUE = "Recall response time vs the queue ahead"
ARRIVALS = "Recalls arriving at random"
ROBOT = "Robot contention"

_MARKS = """(el) => (el.layout.shapes || []).filter(s => s.name)
    .map(s => [s.name, s.visible === false ? null : [Number(s.xanchor), Number(s.yanchor)]])"""


def as_figures(panel) -> View:
    """The panel's view as the page should show it: each plot composed (base, then moving traces)."""
    return View({k: go.Figure(panel.figure(k)) for k in panel.plots}, panel.readout_values)


def marks_shown(page, title: str, n: int = 0) -> dict:
    el = page.locator(".vtsmodel-plot .js-plotly-plot").nth(panel_plot_index(page, title, n))
    return {name: xy for name, xy in el.evaluate(_MARKS)}


def wait_for_view(page, title: str, panel, timeout_s: float = 30.0) -> None:
    """Wait until the page's panel shows ``panel``'s traces, readouts and named marks."""
    wait_for_panel(page, title, as_figures(panel), timeout_s=timeout_s)
    want = {
        s["name"]: [s["xanchor"], s["yanchor"]] for s in panel.figure()["layout"]["shapes"] if s.get("name")
    }
    end = time.monotonic() + timeout_s
    while (got := marks_shown(page, title)).keys() != want.keys() or any(
        got[k] != pytest.approx(v, rel=1e-9) for k, v in want.items()
    ):
        assert time.monotonic() < end, f"{title}: marks {got} != {want}"
        page.wait_for_timeout(100)


def move_and_wait(page, panel, title, key, label, times):
    value = move_panel_slider(page, panel, title, key, label, times)
    wait_for_view(page, title, panel)
    return value


def test_controls_move_plots_marks_and_readouts_then_export(open_lesson, export_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 4)

    parts = lesson03.parts_panel()
    wait_for_view(page, PARTS, parts)
    move_and_wait(page, parts, PARTS, "volume_mb", "volume size", 5)
    # Issue 17: a catalog drive loads its own parts where the catalog has them.
    select_panel_dropdown(page, PARTS, "drive", "LTO-9 (Ultrium 9)")
    parts.set(drive="LTO9")
    assert parts.values["load_s"] == catalog.mount_parts("LTO9")["load"].seconds
    wait_for_view(page, PARTS, parts)

    queue = lesson03.queue_panel()
    wait_for_view(page, QUEUE, queue)
    move_and_wait(page, queue, QUEUE, "drives", "recall drives", -1)
    move_and_wait(page, queue, QUEUE, "queue_length", "recalls ahead", 3)
    select_panel_dropdown(page, QUEUE, "drive", "VTS B18, IBM 3590 E")
    queue.set(drive="3590E")
    wait_for_view(page, QUEUE, queue)

    arrivals = lesson03.arrivals_panel()
    wait_for_view(page, ARRIVALS, arrivals)
    rph = move_and_wait(page, arrivals, ARRIVALS, "recalls_per_hour", "recalls per hour", 5)
    # the mark is Cosmetatos' M/D/c mean wait of the 250 MB recall on 4 drives at this load
    s = float(recall.recall_service_s(arrivals.values["volume_mb"]))
    assert marks_shown(page, ARRIVALS)["mean wait, this load"] == pytest.approx(
        [rph, float(queueing.wait_mdc(rph / 3600, s, 4)) / 60], rel=1e-9
    )
    # Issue 15: past the capacity the page shows no point, and the readouts say why.
    move_and_wait(page, arrivals, ARRIVALS, "recalls_per_hour", "recalls per hour", 50)
    assert arrivals.values["recalls_per_hour"] / 3600 * s / 4 > 1
    assert marks_shown(page, ARRIVALS) == {}
    assert arrivals.readout_values["mean wait for a drive"] == "unbounded: the queue grows"

    robot = lesson03.robot_panel()
    wait_for_view(page, ROBOT, robot)
    move_and_wait(page, robot, ROBOT, "sessions", "mount sessions", 2)

    export_png_and_html(page, ARRIVALS, arrivals, export_dir)
    assert fits_width(page)
