"""The start page and the way through the lessons: every lesson links to the start, the previous and the next."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vtsmodel.app.lessons import LESSONS, lesson_module
from vtsmodel.app.lessons.start import LESSON_LIST, lessons_html, navigation_html, short_title
from vtsmodel.app.serve import lessons

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PAGES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def _hrefs(page: str) -> dict[str, str]:
    return dict(re.findall(r"rel='(\w+)' href='([^']+)'", page))


def _code(notebook: str) -> list[str]:
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_every_notebook_is_a_lesson_in_order():
    assert [nb for nb, _q in LESSON_LIST] == PAGES[1:]
    assert PAGES[0] == "00_start_here.ipynb"
    assert [lesson_module(k).NOTEBOOK for k in LESSONS] == [nb for nb, _q in LESSON_LIST if nb[:2] in LESSONS]


@pytest.mark.parametrize("notebook", PAGES)
def test_every_page_starts_and_ends_with_its_navigation(notebook):
    code = _code(notebook)
    lesson = notebook[:2]
    assert f'navigation("{lesson}")' in code[0], "the first cell shows the way"
    assert code[-1].strip() == f'navigation("{lesson}", bottom=True)', "the last cell shows the way on"


@pytest.mark.parametrize("i", range(1, len(PAGES)))
def test_a_lesson_links_to_the_start_the_previous_and_the_next(i):
    lesson = PAGES[i][:2]
    links = _hrefs(navigation_html(lesson))
    assert links["start"] == "00_start_here.ipynb"
    assert links.get("prev") == (PAGES[i - 1] if i > 1 else None)
    assert links.get("next") == (PAGES[i + 1] if i + 1 < len(PAGES) else None)
    assert f"Lesson {i} of {len(PAGES) - 1}" in navigation_html(lesson)
    bottom = navigation_html(lesson, bottom=True)
    if i + 1 < len(PAGES):  # the next lesson's question, to say why to go on
        assert LESSON_LIST[i][1].replace("'", "&#x27;") in bottom


def test_the_start_page_links_on_to_the_first_lesson_and_lists_every_lesson():
    assert _hrefs(navigation_html("00")) == {"next": PAGES[1]}
    table = lessons_html()
    assert re.findall(r"href='([^']+)'", table) == PAGES[1:]


def test_an_unknown_lesson_is_refused_with_the_valid_ones():
    with pytest.raises(ValueError, match="lesson_id='42' is not valid; choose one of 00, 01"):
        navigation_html("42")


def test_short_titles_read_as_words():
    assert short_title("02_time_at_peak_vs_tvc.ipynb") == "Time at peak vs TVC"
    assert short_title("08_read_hits_from_a_mount_log.ipynb") == "Read hits from a mount log"


def test_the_app_start_page_gives_each_lesson_a_whole_question():
    # The app's start page shows each notebook's "The question." paragraph (vtsmodel.app.serve).
    for entry in lessons(NOTEBOOKS)[1:]:
        assert entry.question.rstrip().endswith(("?", ".")), f"{entry.notebook}: {entry.question[-60:]!r}"
