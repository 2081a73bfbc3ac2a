"""App mode: the lessons' index pages link every lesson and fetch nothing from outside."""

from __future__ import annotations

import pytest

from vtsmodel.lessons import LESSONS, lesson_module

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
