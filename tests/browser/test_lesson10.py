"""10_library_over_the_years in Voila: the sliders and the library move both plots and the readouts
to the package's numbers; export downloads PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panel built in the test process and set to the
same inputs as the browser: its view is what ``vtsmodel.library_years`` computes for them.
"""

import pytest

from vtsmodel.app.figures.axes import values_alone_changed
from vtsmodel.app.lessons import library as lesson10

from .helpers import (
    drawn_unlike_a_new_plot,
    export_png_and_html,
    fits_width,
    in_place_draws,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    panel_plot_index,
    panel_readouts,
    select_panel_dropdown,
    wait_for_panel,
    watch_in_place,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "10_library_over_the_years.ipynb"
TITLE = "The CERN archive over the years"


def test_sliders_and_library_move_plots_and_readouts_then_export(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    # the printed key numbers wrap between words ("binds: cartridge slots", not "cart / ridge")
    style = page.evaluate(
        "() => { const s = getComputedStyle([...document.querySelectorAll('.jp-RenderedText pre')]"
        ".find(p => p.textContent.includes('binds:'))); return [s.wordBreak, s.whiteSpace]; }"
    )
    assert style == ["normal", "pre-wrap"]
    panel = panel_as_shown(page, TITLE, lesson10.library_panel())
    move_and_check(page, panel, TITLE, "ingest_growth", "growth of the writes", 5)
    # one step more (30 % a year): the capacity figure's bars and its slot lines' names (the usable slots
    # follow the drives) move under axes that stay put, so the page redraws its traces alone; what each
    # plot draws is what a new plot of it draws
    plots = [panel_plot_index(page, TITLE, n) for n in range(2)]
    before = panel.figure("capacity")
    watch_in_place(page, *plots)
    move_and_check(page, panel, TITLE, "ingest_growth", "growth of the writes", 1)
    assert values_alone_changed(before, panel.figure("capacity"))
    assert in_place_draws(page, plots[0]) == 1, "the growth move did not take the traces-only path"
    for i in plots:
        assert drawn_unlike_a_new_plot(page, i) == ""
    assert "robot mounts per hour bind" in lesson10.LIBRARY.show(panel.values).binding
    # 5 -> 6 -> 7 -> 8 years: the year axes end in bands of five years (axes.year_range) and the other axes
    # in steps, so a move within a band that keeps them (the panel's figures say which) redraws a plot's
    # traces alone; 5 -> 6 opens a band and is drawn in full; every drawing is what a new plot draws
    counted = {i: in_place_draws(page, i) for i in plots}  # watched since the growth move
    start = dict(counted)
    for _ in range(3):
        before = [panel.figure(k) for k in ("capacity", "shares")]
        move_and_check(page, panel, TITLE, "years", "years", 1)
        for i, k, was in zip(plots, ("capacity", "shares"), before, strict=True):
            alone = values_alone_changed(was, panel.figure(k))
            assert in_place_draws(page, i) == counted[i] + alone, (
                f"{k}: drawn {'in full' if alone else 'in place'}"
            )
            counted[i] = in_place_draws(page, i)
            assert drawn_unlike_a_new_plot(page, i) == ""
    assert all(counted[i] > start[i] for i in plots), (start, counted)
    move_and_check(page, panel, TITLE, "robot_move_s", "robot time per move", -39)  # 3 s, the TS4500's
    label = next(lb for lb, v in panel.controls["library"].options if v == "TS4300")
    select_panel_dropdown(page, TITLE, "library", label)
    panel.set(library="TS4300")
    wait_for_panel(page, TITLE, panel.view)
    assert panel_readouts(page, TITLE)["one module fills"] == "too small from the start"
    export_png_and_html(page, TITLE, panel, tmp_path)
    assert fits_width(page)
