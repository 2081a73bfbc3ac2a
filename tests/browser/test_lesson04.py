"""04_drive_efficiency_vs_file_size in Voila: moving the file-size slider moves the point."""

import pytest

from vtsmodel.drives import drive_efficiency, drive_spec
from vtsmodel.lessons import lesson04

from .helpers import plot_traces, press_slider, wait_for_plot_change

pytestmark = pytest.mark.browser

NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"


def _point(page):
    return next(t for t in plot_traces(page, 0) if t["name"] == "this setting")


@pytest.mark.xfail(
    reason="open: in Voila this page logs '[anywidget] Failed to initialize model' for its five figures "
    "and the operating point does not follow the slider; lesson 05's page (same Panel, one grid) passes",
    strict=False,
)
def test_file_size_slider_moves_the_operating_point(open_lesson):
    page = open_lesson(NOTEBOOK)
    before = plot_traces(page, 0)
    press_slider(page, "file size", "ArrowRight", times=3)
    wait_for_plot_change(page, before, 0)
    p = lesson04.SCENARIO_PARAMS
    point = _point(page)
    for _ in range(100):  # the three key presses may arrive as several updates
        page.wait_for_timeout(100)
        latest = _point(page)
        if latest == point and latest["x"][0] > p["file_mb"].default:
            break
        point = latest
    speed = drive_spec(p["drive"].default).speed_mb_s
    assert point["x"][0] > p["file_mb"].default
    expect = float(drive_efficiency(point["x"][0], p["files_per_mount"].default, speed_mb_s=speed))
    assert point["y"][0] == pytest.approx(expect, rel=1e-9)
