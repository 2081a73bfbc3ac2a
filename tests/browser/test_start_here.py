"""00_start_here in Voila: renders, its filter narrows the catalogue, nothing leaves 127.0.0.1."""

import pytest

from vtsmodel.data import catalogue, filter_catalogue

pytestmark = pytest.mark.browser


def _count(page) -> int:
    return page.locator("tr.vtsmodel-catalogue-row").count()


def test_start_here_catalogue_filters(open_lesson):
    page = open_lesson("00_start_here.ipynb", plots=False)
    rows = catalogue()
    page.wait_for_selector("tr.vtsmodel-catalogue-row")
    assert _count(page) == min(len(rows), 500)
    # Typing words narrows the table to the rows the package's filter returns.
    box = page.locator(".widget-text input").first
    box.fill("sustained paf")
    expected = len(filter_catalogue(rows, "sustained paf"))
    assert 0 < expected < len(rows)
    page.wait_for_function(
        "n => document.querySelectorAll('tr.vtsmodel-catalogue-row').length === n", arg=expected
    )
    assert page.locator(".vtsmodel-catalogue-count").inner_text().startswith(f"{expected} of {len(rows)}")
