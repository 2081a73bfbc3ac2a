"""App mode: the lessons' index pages link every lesson and fetch nothing from outside."""

from __future__ import annotations

import pytest

from vtsmodel.app.lessons import LESSONS, lesson_module

from .conftest import NOTEBOOKS, PageWatch

pytestmark = pytest.mark.browser

LESSON_NOTEBOOKS = [lesson_module(n).NOTEBOOK for n in LESSONS]


def test_voila_tree_lists_every_lesson_offline(browser, voila_url, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    watch = PageWatch(page)
    try:
        page.goto(f"{voila_url}/", timeout=60_000)
        page.wait_for_selector("li.jp-DirListing-item", timeout=60_000)
        listed = page.eval_on_selector_all(
            "li.jp-DirListing-item .jp-DirListing-itemText", "els => els.map(e => e.innerText)"
        )
        for name in ["00_start_here.ipynb", *LESSON_NOTEBOOKS]:
            assert (NOTEBOOKS / name).exists(), name
            assert name in listed, f"the index does not list {name}: {listed}"
        page.screenshot(path=str(artifacts_dir / "app-index.png"))
        # Voila's own file-browser page logs plugin errors of its widget manager (no kernel
        # on that page); what matters here is that nothing is fetched from outside.
        assert not watch.external, watch.external
    finally:
        context.close()


def test_start_here_links_every_lesson(open_lesson):
    page = open_lesson("00_start_here.ipynb", plots=False)
    hrefs = page.eval_on_selector_all("a[href$='.ipynb']", "els => els.map(e => e.getAttribute('href'))")
    for name in LESSON_NOTEBOOKS:
        assert name in hrefs, f"start here does not link {name}: {hrefs}"


def test_template_makes_get_model_wait_for_the_kernel_states(open_lesson):
    """The template's hook is in place: the widget manager's get_model waits for the restore.

    Without it, Voila 0.5.13 shows "Error displaying widget: model not found" on pages that
    keep the browser busy for more than 2 s while the states arrive (see conftest's
    VOILA_MODEL_NOT_FOUND). If Voila renames its widget-manager plugin, this fails.
    """
    page = open_lesson("01_sustained_vs_peak_write.ipynb")
    hooked = page.evaluate(
        "() => Object.prototype.hasOwnProperty.call(window.jupyterapp.widgetManager, 'get_model')"
    )
    assert hooked, "the widget manager's get_model is Voila's own: the template hook did not apply"
    restored = page.evaluate("() => window.jupyterapp.widgetManager.restoredStatus")
    assert restored is True
    # ... and anywidget's 2 s limit for a plot pane's script is lifted (a busy page failed with
    # "[anywidget] Failed to initialize model").
    assert page.evaluate("() => AbortSignal.timeout.__vtsmodel === true")
