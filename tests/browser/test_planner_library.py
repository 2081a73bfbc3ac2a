"""07_plan_a_system in Voila, the library over the years: the growth and years sliders move the
capacity figure and the library's readouts to the package's numbers.

The expected values come from the page's own class built in the test process and set to the
same answers as the browser: its view is what ``vtsmodel.plan.library_plan`` computes for them.
"""

from __future__ import annotations

import pytest

from vtsmodel.app.lessons import planner as lesson07

from .helpers import fits_width, move_and_check, open_lesson_with_plots, panel_as_shown, panel_plot_index

pytestmark = pytest.mark.browser

NOTEBOOK = "07_plan_a_system.ipynb"
TITLE = lesson07.TITLE


def test_growth_and_years_move_the_capacity_figure(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 4)
    mine = lesson07.PlannerPage(defer_tornado=False)
    panel = panel_as_shown(page, TITLE, mine.panel)
    move_and_check(page, panel, TITLE, "ingest_growth", "growth of the writes", 6)  # 30 % more each year
    # the figure the slider moves is on the screen with it (it stands beside the library's answers)
    capacity = panel_plot_index(page, TITLE, list(mine.panel.view.figures).index("capacity"))
    box = page.locator(".vtsmodel-plot .js-plotly-plot").nth(capacity).bounding_box()
    assert box["y"] < page.viewport_size["height"] and box["y"] + box["height"] > 0, box
    move_and_check(page, panel, TITLE, "years", "years [", 3)  # 8 years
    move_and_check(page, panel, TITLE, "stored_now_tb", "data stored now", 40)  # 4,000 TB
    years = mine.panel.result.library.over_years
    assert list(years.year) == list(range(9))
    assert mine.panel.readout_values["library, cartridges now → last year"].endswith(
        f"{int(years.archive.cartridges[-1]):,}"
    )
    index = panel_plot_index(page, TITLE, list(mine.panel.view.figures).index("capacity"))
    plot = page.locator(".vtsmodel-plot .js-plotly-plot").nth(index)
    plot.scroll_into_view_if_needed()
    plot.screenshot(path=str(tmp_path / "capacity.png"))
    assert fits_width(page)
