"""01_sustained_vs_peak_write in Voila: the CF slider and the feature move plots and readouts to
the package's numbers; the read and import/export panels show theirs; export downloads PNG and HTML.

The expected views come from the lesson's own panels built in the test process, set to the
same inputs as the browser's.
"""

import pytest

from vtsmodel.app.lessons import write as lesson01

from .conftest import RENDER_TIMEOUT_MS
from .helpers import (
    export_png_and_html,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "01_sustained_vs_peak_write.ipynb"
WRITE = "Peak and sustained write"
READS = "Reads and the typical mix"
TASKS = "Import/export calculator"


def test_panels_follow_the_package_and_export_downloads(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 6)
    write = panel_as_shown(page, WRITE, lesson01.write_panel())
    cf = move_and_check(page, write, WRITE, "cf", "compressibility CF", -20)
    assert cf < lesson01.INPUTS["cf"].default
    select_panel_dropdown(page, WRITE, "feature", "EHPO")
    write.set(feature="ehpo")
    wait_for_panel(page, WRITE, write.view)
    move_and_check(page, write, WRITE, "cf", "compressibility CF", 80)  # past CF 4: a note on the page
    assert write.view.notes
    page.locator(".vtsmodel-note", has_text="outside the range the source validated").first.wait_for()
    # A resize after a redraw keeps every plot drawn (a shape with a legend entry, resized, once
    # collapsed its plot to no height).
    page.set_viewport_size({"width": 1100, "height": 800})
    heights = "[...document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')].map(e => e.offsetHeight)"
    try:
        page.wait_for_function(f"() => Math.min(...{heights}) > 200", timeout=RENDER_TIMEOUT_MS)
    except Exception:  # noqa: BLE001 - report the heights
        pytest.fail(f"a plot collapsed after the resize: heights {page.evaluate(heights)}")
    page.set_viewport_size({"width": 1280, "height": 800})
    panel_as_shown(page, READS, lesson01.read_panel())
    panel_as_shown(page, TASKS, lesson01.import_export_panel())
    export_png_and_html(page, WRITE, write, tmp_path)
