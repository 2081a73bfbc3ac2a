"""03_recall_queue_mount_time in Voila: every panel's main control moves its plot, its marks
and its readouts to the package's numbers; export downloads PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process and set
to the same inputs as the browser: their views are what ``vtsmodel.recall``,
``vtsmodel.queueing`` and ``vtsmodel.robot`` compute for those inputs.
"""

import pytest

from vtsmodel import catalog, queueing, recall
from vtsmodel.app.lessons import recall as lesson03

from .helpers import (
    export_png_and_html,
    fits_width,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    panel_plot_index,
    plot_marks,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "03_recall_queue_mount_time.ipynb"
PARTS = "The parts of one recall"
QUEUE = "Recall response time vs the queue ahead"
ARRIVALS = "Recalls arriving at random"
ROBOT = "Robot contention"


def marks_shown(page, title: str) -> dict:
    """The named marks of the panel's plot as the page holds them: name -> (x, y)."""
    return {
        m["name"]: (m["x"], m["y"]) for m in plot_marks(page, panel_plot_index(page, title)) if m["visible"]
    }


def test_controls_move_plots_marks_and_readouts_then_export(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 4)

    parts = panel_as_shown(page, PARTS, lesson03.parts_panel())
    move_and_check(page, parts, PARTS, "volume_mb", "volume size", 5)
    # Issue 17: a catalog drive loads its own parts where the catalog has them.
    select_panel_dropdown(page, PARTS, "drive", "LTO-9 (Ultrium 9)")
    parts.set(drive="LTO9")
    assert parts.values["load_s"] == catalog.mount_parts("LTO9")["load"].seconds
    wait_for_panel(page, PARTS, parts.view)

    queue = panel_as_shown(page, QUEUE, lesson03.queue_panel())
    move_and_check(page, queue, QUEUE, "drives", "recall drives", -1)
    move_and_check(page, queue, QUEUE, "queue_length", "recalls ahead", 3)
    select_panel_dropdown(page, QUEUE, "drive", "VTS B18, IBM 3590 E")
    queue.set(drive="3590E")
    wait_for_panel(page, QUEUE, queue.view)

    # The scenario sheet binds every panel: the arrivals panel follows the queue panel's drive,
    # drives and CF (the inputs they share).
    shared = {k: queue.values[k] for k in ("drive", "cf", "drives")}
    arrivals = panel_as_shown(page, ARRIVALS, lesson03.arrivals_panel(**shared))
    rph = move_and_check(page, arrivals, ARRIVALS, "recalls_per_hour", "recalls per hour", 5)
    # the mark is Cosmetatos' M/D/c mean wait of the 250 MB recall on the recall drives at this load
    v = arrivals.values
    s = float(recall.recall_service_s(v["volume_mb"], cf=v["cf"], drive=v["drive"]))
    assert marks_shown(page, ARRIVALS)["mean wait, this load"] == pytest.approx(
        (rph, float(queueing.wait_mdc(rph / 3600, s, v["drives"])) / 60), rel=1e-9
    )
    # Issue 15: past the capacity the page shows no point, and the readouts say why.
    move_and_check(page, arrivals, ARRIVALS, "recalls_per_hour", "recalls per hour", 50)
    assert arrivals.values["recalls_per_hour"] / 3600 * s / v["drives"] > 1
    assert marks_shown(page, ARRIVALS) == {}
    assert arrivals.readout_values["mean wait for a drive"] == "unbounded: the queue grows"

    robot = panel_as_shown(page, ROBOT, lesson03.robot_panel())
    move_and_check(page, robot, ROBOT, "sessions", "mount sessions", 2)

    export_png_and_html(page, ARRIVALS, arrivals, tmp_path)
    assert fits_width(page)
