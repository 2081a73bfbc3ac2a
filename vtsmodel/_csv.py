"""CSV that a spreadsheet opens safely (private): RFC 4180 quoting and OWASP's formula guard.

Every CSV the project writes (scenario sheets, mount logs, hit tables, plan tables) goes
through :func:`csv_row`:

- **Formula injection.** A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or
  ``@`` (and some take a tab or a carriage return before them) as a formula; a log's ids
  or a scenario's name come from elsewhere and could hold one. Following OWASP's advice
  (https://owasp.org/www-community/attacks/CSV_Injection, read 2026-11-26: "Ensure that no
  cells begin with any of the following characters: Equals to (=), Plus (+), Minus (-),
  At (@), Tab (0x09), Carriage return (0x0D)"; prepend a single quote), such a text cell
  is written with a ``'`` before it, and so is a text cell that already starts with
  ``'`` (so that :func:`unguard` gives every text back exactly).
- **Numbers are not changed**: a number, or a text that is a plain decimal number
  (``-3.5``, ``1e-6``), is written as it is: a spreadsheet reads it as a number, not a
  formula.
- **Quoting** (RFC 4180): a cell holding the delimiter, a double quote, a line feed or a
  carriage return is enclosed in double quotes, its quotes doubled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def guard(text: str) -> str:
    """A text cell that no spreadsheet takes for a formula; numbers unchanged."""
    if text[:1] in FORMULA_START and text[:1] and not _NUMBER.fullmatch(text):
        return "'" + text
    if text[:1] == "'":
        return "'" + text
    return text


def unguard(text: str) -> str:
    """The text :func:`guard` was given (a leading ``'`` taken off where guard put it)."""
    if text[:1] == "'" and text[1:2] in (*FORMULA_START, "'"):
        return text[1:]
    return text


def quote(text: str, delimiter: str = ",") -> str:
    """The cell as RFC 4180 writes it: quoted when it holds the delimiter, a quote or a line end."""
    if delimiter in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def cell(value, delimiter: str = ",") -> str:
    """One cell: a number as ``str`` gives it, text guarded and quoted; None empty."""
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, float | np.floating):
        return repr(float(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    return quote(guard(str(value)), delimiter)


def _check_delimiter(delimiter) -> str:
    if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in '"\r\n':
        raise ValueError(f"delimiter={delimiter!r} is not valid; give one character such as ',' or ';'")
    return delimiter


def csv_row(values: Iterable, delimiter: str = ",") -> str:
    """A CSV line (ending in a line feed) of guarded, quoted cells.

    Parameters
    ----------
    values : iterable
        The cells: numbers (written as they are), text (guarded and quoted), None (empty).
    delimiter : str
        One character.

    Raises
    ------
    ValueError
        For ``values`` that are not a sequence of cells, or a bad delimiter.
    """
    _check_delimiter(delimiter)
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise ValueError(f"values={values!r} must be a sequence of cells (a list or tuple)"[:200])
    cells = [cell(v, delimiter) for v in values]
    if cells == [""]:
        return '""\n'  # a row of one empty cell, not an empty line
    return delimiter.join(cells) + "\n"


def csv_text(rows: Iterable[Iterable], delimiter: str = ",") -> str:
    """CSV text of rows (the first is usually the header): :func:`csv_row` of each.

    Raises
    ------
    ValueError
        For ``rows`` that are not a sequence of rows (naming the first bad one).
    """
    _check_delimiter(delimiter)
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise ValueError(f"rows={rows!r} must be a sequence of rows, each a sequence of cells"[:200])
    out = []
    for i, r in enumerate(rows):
        if isinstance(r, str | bytes) or not isinstance(r, Iterable):
            raise ValueError(f"rows[{i}]={r!r} must be a sequence of cells (a list or tuple)"[:200])
        out.append(csv_row(r, delimiter))
    return "".join(out)
