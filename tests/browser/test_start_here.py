"""00_start_here in Voila: the ledger and the catalogue render and filter, no raw LaTeX, nothing leaves 127.0.0.1."""

import pytest

from vtsmodel.data import catalogue, filter_catalogue, statements

pytestmark = pytest.mark.browser


def test_start_here_ledger_and_catalogue_filter(open_lesson):
    page = open_lesson("00_start_here.ipynb", plots=False)
    page.wait_for_selector("tr.vtsmodel-catalogue-row")
    page.wait_for_selector("tr.vtsmodel-ledger-row")
    ledger, cat = page.locator(".vtsmodel-panel").nth(0), page.locator(".vtsmodel-panel").nth(1)
    # The sources' math reads as text, in cells and hovers, not as raw LaTeX (no MathJax offline).
    assert "\\leq" not in page.content() and "1 ≤ CF ≤ 4" in page.content()

    # The ledger: every statement, then those that match the words and the status.
    assert ledger.locator("tr.vtsmodel-ledger-row").count() == min(len(statements()), 400)
    ledger.locator(".widget-text input").fill("PAF")
    ledger.locator(".widget-dropdown select").first.select_option("calibrated")
    expected = len(statements(status="calibrated", text="PAF"))
    assert 0 < expected < len(statements())
    page.wait_for_function(
        "n => document.querySelectorAll('tr.vtsmodel-ledger-row').length === n", arg=expected
    )
    statuses = ledger.locator("tr.vtsmodel-ledger-row .vtsmodel-status").all_inner_texts()
    assert set(statuses) == {"calibrated"}

    # The catalogue: typing words narrows it to the rows the package's filter returns.
    rows = catalogue()
    assert cat.locator("tr.vtsmodel-catalogue-row").count() == min(len(rows), 500)
    cat.locator(".widget-text input").fill("sustained paf")
    expected = len(filter_catalogue(rows, "sustained paf"))
    assert 0 < expected < len(rows)
    page.wait_for_function(
        "n => document.querySelectorAll('tr.vtsmodel-catalogue-row').length === n", arg=expected
    )
    assert cat.locator(".vtsmodel-catalogue-count").inner_text().startswith(f"{expected} of {len(rows)}")
