"""The quote check without the source texts: the shipped fingerprints (tests/source_quotes.py)."""

from __future__ import annotations

import pytest
from source_quotes import SourceQuotes, load_fingerprints, occurs, token_hashes

from vtsmodel import data

# The first sentence of ibm-vts-b18-2000, Sec. 3.1.1, which vts_facts quotes.
QUOTE = "Until a fill threshold of the tape volume cache is reached"


@pytest.fixture(scope="module")
def by_fingerprint() -> SourceQuotes:
    """A checker that has only the shipped fingerprints, as a fresh clone has."""
    quotes = SourceQuotes()
    quotes.texts = None
    return quotes


def test_every_founding_source_has_a_fingerprint():
    assert set(load_fingerprints()) == set(data.sources("founding"))


def test_a_quote_of_the_source_is_found(by_fingerprint):
    assert by_fingerprint.verbatim("ibm-vts-b18-2000", QUOTE)
    assert by_fingerprint.verbatim("ibm-vts-b18-2000", QUOTE.replace(" ", "\n  "))  # whitespace collapsed


@pytest.mark.parametrize(
    "changed",
    [
        QUOTE.replace("fill", "full"),  # one word changed
        QUOTE.replace("tape volume", "volume"),  # a word left out
        QUOTE + " twice",  # a word added at the end
        QUOTE.replace("cache", "cache,"),  # punctuation added
    ],
)
def test_a_changed_quote_is_not_found(by_fingerprint, changed):
    assert not by_fingerprint.verbatim("ibm-vts-b18-2000", changed)


def test_a_quote_of_another_source_is_not_found(by_fingerprint):
    assert not by_fingerprint.verbatim("cern-tape-sizing-2005", QUOTE)


def test_runs_are_matched_in_order():
    hay = token_hashes("a b c a b d")
    assert occurs(token_hashes("b d"), hay)
    assert not occurs(token_hashes("b a"), hay)
    assert not occurs(token_hashes("a b c a b d e"), hay)
