"""Text as a person reads it: the sources' LaTeX as Unicode (no MathJax offline)."""

from __future__ import annotations

import pytest

from vtsmodel import data
from vtsmodel.app.text import plain_math

QUOTES = [r["quote"] for t in data.tables() for r in data.load(t).records() if r["quote"]] + [
    r["quote"] for r in data.statements()
]


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        (r"valid for $1 \leq CF \leq 4$", "valid for 1 ≤ CF ≤ 4"),
        (r"$3600 / 160 = 22.5\text{s}$", "3600 / 160 = 22.5 s"),  # a number's unit
        (
            r"$$t_e(\text{min}) = 0.00296 \times MB + 2.36 \times m + 0.35 \times s \quad [1]$$",
            "tₑ(min) = 0.00296 × MB + 2.36 × m + 0.35 × s [1]",
        ),  # fmt: skip
        (r"$x^2 + y_{10}$", "x² + y₁₀"),
        (r"$t_{Mount}$", "t_Mount"),  # no Unicode subscript for every letter: kept readable
        ("no math, 5 $ only", "no math, 5 $ only"),
    ],
)
def test_latex_reads_as_unicode(tex, text):
    assert plain_math(tex) == text


def test_no_quote_of_the_data_keeps_latex():
    assert any("$" in q for q in QUOTES)  # the data holds LaTeX to convert
    left = [q for q in QUOTES if "$" in plain_math(q) or "\\" in plain_math(q)]
    assert left == []
