"""Numbers as a person reads them: plain digits, a sensible unit, no engineering notation.

Readouts, slider labels, captions and sheet cells use these, so that a panel never shows
``2.30e+3`` or ``7.929e+04 s``: 2,300 and 22.0 h.
"""

from __future__ import annotations

import math

from vtsmodel import number

__all__ = ["duration", "number", "percent", "plain_math", "with_unit"]


def with_unit(x, unit: str, digits: int = 3) -> str:
    """``number(x)`` followed by its unit (none for ``"-"`` or an empty unit)."""
    text = number(x, digits)
    return text if unit in ("", "-") else f"{text} {unit}"


def duration(seconds, digits: int = 3) -> str:
    """A duration in the unit a person would use: s below 2 min, min below 2 h, h below 2 days, else days.

    Examples
    --------
    >>> duration(45.0), duration(600.0), duration(79290.0), duration(float("inf"))
    ('45 s', '10 min', '22 h', 'unbounded')
    """
    s = float(seconds)
    if math.isnan(s):
        return "—"
    if math.isinf(s):
        return "unbounded"
    a = abs(s)
    if a < 120:
        return with_unit(s, "s", digits)
    if a < 7200:
        return with_unit(s / 60.0, "min", digits)
    if a < 172800:
        return with_unit(s / 3600.0, "h", digits)
    return with_unit(s / 86400.0, "days", digits)


def percent(fraction, digits: int = 3) -> str:
    """A fraction as a percentage: ``percent(0.1934)`` is ``'19.3 %'``."""
    return with_unit(100.0 * float(fraction), "%", digits)


_LATEX = (
    (r"\leq", "≤"), (r"\geq", "≥"), (r"\le", "≤"), (r"\ge", "≥"), (r"\times", "×"), (r"\cdot", "·"),
    (r"\approx", "≈"), (r"\sim", "~"), (r"\pm", "±"), (r"\%", "%"), (r"\,", " "),
)  # fmt: skip


def plain_math(text: str) -> str:
    r"""Text with its inline LaTeX (``$1 \leq CF \leq 4$``) as plain Unicode (``1 ≤ CF ≤ 4``).

    The sources' quotes keep their math as printed (in LaTeX, from the text extraction); a
    page shows them without MathJax, which would be fetched from the internet.

    Examples
    --------
    >>> plain_math(r"valid for $1 \leq CF \leq 4$ and $3600 / 160 = 22.5\text{s}$")
    'valid for 1 ≤ CF ≤ 4 and 3600 / 160 = 22.5 s'
    """
    import re

    def convert(m: re.Match) -> str:
        s = m.group(1)
        s = re.sub(r"\\text\{([^}]*)\}", r" \1", s)
        for tex, uni in _LATEX:
            s = s.replace(tex, uni)
        return re.sub(r"\s+", " ", s).strip()

    return re.sub(r"\$([^$]+)\$", convert, str(text))
