"""Finding the way through the lessons in the app: links to the start, the previous and the next lesson,
an answer key that is closed until a teacher opens it, and the start page's ledger as a readable table."""

from __future__ import annotations

import re

import pytest

from vtsmodel.app.answers import answers
from vtsmodel.app.lessons.start import LESSON_LIST

from .conftest import RENDER_TIMEOUT_MS

pytestmark = pytest.mark.browser

PAGES = ["00_start_here.ipynb"] + [nb for nb, _q in LESSON_LIST]


def test_a_lesson_links_on_and_its_answer_key_opens_on_demand(open_lesson, artifacts_dir):
    page = open_lesson("05_sizing_workbench.ipynb")
    top = page.locator("nav.vtsmodel-nav-top").first
    hrefs = dict(
        top.locator("a").evaluate_all("els => els.map(e => [e.getAttribute('rel'), e.getAttribute('href')])")
    )
    assert hrefs == {"start": PAGES[0], "prev": PAGES[4], "next": PAGES[6]}
    assert "Lesson 5 of" in top.inner_text()
    bottom = page.locator("nav.vtsmodel-nav-bottom").first
    assert bottom.locator("a.vtsmodel-nav-next").get_attribute("href") == PAGES[6]

    # the answer key: closed, nothing computed; opened, one answer per item of "Things to try"
    key = page.locator(".vtsmodel-answer-key").first
    key.scroll_into_view_if_needed()
    assert key.locator("li").count() == 0
    key.get_by_text("Answer key").first.click()
    expected = len(answers("05"))
    page.wait_for_function(
        "n => document.querySelectorAll('.vtsmodel-answer-key li').length === n", arg=expected, timeout=60_000
    )
    first = key.locator("li").first.inner_text()
    assert re.search(r"\d", first), first  # computed numbers, not a placeholder
    page.screenshot(path=str(artifacts_dir / "navigation-05-answer-key.png"), full_page=False)

    # on to the next lesson by its link
    bottom.locator("a.vtsmodel-nav-next").click()
    page.wait_for_url(re.compile(re.escape(PAGES[6]) + r"$"), timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector("nav.vtsmodel-nav-top", timeout=RENDER_TIMEOUT_MS)
    assert "Lesson 6 of" in page.locator("nav.vtsmodel-nav-top").first.inner_text()


def test_the_ledger_is_a_readable_table(open_lesson, artifacts_dir):
    page = open_lesson("00_start_here.ipynb", plots=False)
    page.wait_for_selector("tr.vtsmodel-ledger-row")
    got = page.evaluate(
        """() => {
          const box = document.querySelector('.vtsmodel-table-box');
          const rows = [...document.querySelectorAll('tr.vtsmodel-ledger-row')].slice(0, 60)
            .map(r => r.getBoundingClientRect().height).sort((a, b) => a - b);
          const head = document.querySelector('table.vtsmodel-ledger th');
          const cell = getComputedStyle(document.querySelector('tr.vtsmodel-ledger-row td'));
          return {box: box.clientHeight, window: window.innerHeight, median: rows[Math.floor(rows.length / 2)],
                  sticky: getComputedStyle(head).position,
                  line: parseFloat(cell.lineHeight) / parseFloat(cell.fontSize)};
        }"""
    )
    # most of the window, not a short inner box; compact lines (Voila's own are twice the font) and
    # rows of a few of them; the head stays in view as rows scroll
    assert got["box"] >= 0.6 * got["window"], got
    assert got["line"] <= 1.5 and got["median"] < 100, got
    assert got["sticky"] == "sticky"
    page.locator(".vtsmodel-table-box").first.screenshot(path=str(artifacts_dir / "start-here-ledger.png"))
