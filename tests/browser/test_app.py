"""App mode: the start page and start-here link every lesson; the template's hook is in place."""

from __future__ import annotations

import pytest

from vtsmodel.app.lessons import LESSONS, lesson_module
from vtsmodel.app.serve import lessons

from .conftest import NOTEBOOKS, RENDER_TIMEOUT_MS, PageWatch, with_token

pytestmark = pytest.mark.browser

LESSON_NOTEBOOKS = [lesson_module(n).NOTEBOOK for n in LESSONS]


def test_start_page_lists_every_lesson_in_order_offline(browser, voila_url, artifacts_dir):
    """The start URL opens the app's own index: every lesson in order, with its question,
    nothing fetched from outside, no console error (Voila's file list logged 404s on
    /api/kernels and "Plugin ... failed to activate")."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    watch = PageWatch(page)
    try:
        page.goto(with_token(f"{voila_url}/"), timeout=60_000)
        page.wait_for_selector("ul.vtsmodel-lessons", timeout=60_000)
        assert "token=" not in page.url, "the token stays in the address bar"
        links = page.eval_on_selector_all(
            "li.vtsmodel-lesson a", "els => els.map(e => [e.getAttribute('href'), e.innerText])"
        )
        hrefs = [h for h, _ in links]
        expected = ["00_start_here.ipynb", *LESSON_NOTEBOOKS]
        for name in expected:
            assert (NOTEBOOKS / name).exists(), name
        assert hrefs == [f"/voila/render/{n}" for n in sorted(expected)], hrefs
        questions = page.eval_on_selector_all("li.vtsmodel-lesson p", "els => els.map(e => e.innerText)")
        assert questions == [e.question for e in lessons(NOTEBOOKS) if e.question]
        assert len(questions) == len(LESSON_NOTEBOOKS), "a lesson lost its question"
        page.screenshot(path=str(artifacts_dir / "app-index.png"), full_page=True)
        page.click(f"li.vtsmodel-lesson a[href$='{LESSON_NOTEBOOKS[0]}']")
        page.wait_for_selector(".vtsmodel-panel", timeout=RENDER_TIMEOUT_MS)
        assert page.url.endswith(f"/voila/render/{LESSON_NOTEBOOKS[0]}")
        assert not watch.problems(), watch.problems()
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
