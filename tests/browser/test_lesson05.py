"""05_sizing_workbench in Voila: editing a flow's rate in the sheet changes the drive count."""

import pytest

from vtsmodel.drives import drive_spec
from vtsmodel.lessons import lesson05
from vtsmodel.sizing import Flow, cern_example_flows, drives_needed

from .helpers import readouts, wait_for_readout_change

pytestmark = pytest.mark.browser

NOTEBOOK = "05_sizing_workbench.ipynb"
LABEL = "drives needed [-]"


def test_editing_a_rate_changes_the_drive_count(open_lesson):
    page = open_lesson(NOTEBOOK)
    before = readouts(page)[LABEL]
    flows = cern_example_flows()
    speed = drive_spec(lesson05.default_drive()).speed_mb_s
    assert before == f"{drives_needed(flows, drive_speed_mb_s=speed).total:.4g}"
    grid = page.locator(".vtsmodel-sheet").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # row header 30 px wide ("key"), columns 120 px; header row about 20 px, rows 20 px:
    # the first flow's "rate [MB/s]" cell is the second data column of the first row.
    x, y = box["x"] + 30 + 120 + 60, box["y"] + 20 + 10
    page.mouse.dblclick(x, y)
    page.keyboard.press("Control+A")
    page.keyboard.type("200")
    page.keyboard.press("Enter")
    after = wait_for_readout_change(page, LABEL, before)
    flows[0] = Flow(flows[0].name, 200.0, flows[0].peak_factor, flows[0].efficiency)
    assert after == f"{drives_needed(flows, drive_speed_mb_s=speed).total:.4g}"
