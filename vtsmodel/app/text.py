"""Numbers as a person reads them: plain digits, a sensible unit, no engineering notation.

Readouts, slider labels, captions and sheet cells use these, so that a panel never shows
``2.30e+3`` or ``7.929e+04 s``: 2,300 and 22.0 h.
"""

from __future__ import annotations

import functools
import math

from vtsmodel import number

__all__ = [
    "count",
    "count_or_number",
    "duration",
    "in_words",
    "number",
    "parse_sizes_gb",
    "percent",
    "plain_math",
    "size",
    "with_unit",
]


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


def in_words(message: str, inputs=None) -> str:
    """A model's message with its parameter's code name as a person reads it: ``cf=3 is ...`` → ``compressibility CF = 3 is ...``.

    ``inputs`` maps code names to :class:`~vtsmodel.Input` (the page's); default every input a
    public model function declares. A name neither knows is left as it is.
    """
    import re

    m = re.match(r"(\w+)=(\S+?)(?= |$)", message)
    known = inputs if inputs is not None else _declared_inputs()
    if not m or m.group(1) not in known:
        return message
    inp = known[m.group(1)]
    unit = f" {inp.unit}" if inp.unit not in ("", "-") else ""
    return f"{inp.label} = {m.group(2)}{unit}{message[m.end() :]}"


@functools.cache
def _declared_inputs() -> dict:
    """Every parameter a public model function declares, by name (the first declaration of a name wins)."""
    import vtsmodel
    from vtsmodel import declared_inputs

    out: dict = {}
    for name in vtsmodel.__all__:
        for key, inp in declared_inputs(getattr(vtsmodel, name, None)).items():
            out.setdefault(key, inp)
    return out


def count(n) -> str:
    """A whole number of things with every digit and its thousands grouped: ``count(12175)`` is ``'12,175'``.

    ``number`` rounds to significant digits (12,200); a count of cartridges or requests keeps them all.
    """
    return f"{int(n):,}"


def count_or_number(x, digits: int = 3) -> str:
    """A whole number with every digit (:func:`count`: 1,319 slots), else ``number(x, digits)`` (74.3 mounts an hour)."""
    v = float(x)
    return count(v) if math.isfinite(v) and v.is_integer() else number(v, digits)


def percent(fraction, digits: int = 3) -> str:
    """A fraction as a percentage: ``percent(0.1934)`` is ``'19.3 %'``."""
    return with_unit(100.0 * float(fraction), "%", digits)


#: Size units a person may type, in GB (decimal: GB = 10^9 bytes; binary: GiB = 2^30 bytes).
_SIZE_UNITS = {
    "b": 1e-9, "kb": 1e-6, "mb": 1e-3, "gb": 1.0, "tb": 1e3, "pb": 1e6, "eb": 1e9,
    "kib": 2**10 / 1e9, "mib": 2**20 / 1e9, "gib": 2**30 / 1e9, "tib": 2**40 / 1e9, "pib": 2**50 / 1e9,
}  # fmt: skip


def parse_access_map(text: str, *, name: str = "--access-map") -> dict[str, str | None]:
    """A log's access words typed by a person, ``"R=read,W=scratch_write,D=skip"``, as :class:`vtsmodel.logs.LogFile` takes them.

    ``skip``, ``none`` or nothing after ``=``: lines with that word are left out (None).
    ``ValueError`` naming ``name`` and the part that is not ``WORD=KIND``.
    """
    amap: dict[str, str | None] = {}
    for part in str(text).split(","):
        word, eq, kind = part.partition("=")
        if not eq or not word.strip():
            raise ValueError(f"{name} {text!r}: {part!r} is not WORD=KIND (e.g. R=read)")
        amap[word.strip()] = None if kind.strip().lower() in ("skip", "none", "") else kind.strip()
    return amap


def access_map_text(amap) -> str | None:
    """:func:`parse_access_map`'s text of ``amap`` (a dict of words to kinds or None); None where it has no such text."""
    if not isinstance(amap, dict) or not amap:
        return None
    parts = []
    for word, kind in amap.items():
        if not isinstance(word, str) or any(c in word for c in ",=") or word != word.strip() or not word:
            return None
        if kind is not None and (not isinstance(kind, str) or any(c in kind for c in ",") or kind != kind.strip()
                                 or kind.lower() in ("skip", "none", "")):  # fmt: skip
            return None
        parts.append(f"{word}={'skip' if kind is None else kind}")
    return ",".join(parts)


def parse_sizes_gb(text: str, *, name: str = "capacities") -> list[float]:
    """Sizes typed by a person, ``"500GB, 2TB, 10 TB"``, in GB (a number alone is GB).

    Raises
    ------
    ValueError
        Naming the part that is not a size, and the units known.
    """
    import re

    out = []
    for part in str(text).split(","):
        p = part.strip()
        if not p:
            continue
        m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)", p)
        unit = m.group(2).lower() if m else ""
        if m is None or (unit and unit not in _SIZE_UNITS):
            raise ValueError(
                f"{name}={text!r}: {p!r} is not a size; write a number and a unit "
                f"({', '.join(u.upper() if 'i' not in u else u[0].upper() + 'iB' for u in _SIZE_UNITS)}), e.g. 500GB,2TB"
            )
        out.append(float(m.group(1)) * _SIZE_UNITS[unit or "gb"])
    if not out:
        raise ValueError(f"{name}={text!r} names no size; e.g. 500GB,2TB,10TB")
    return out


def size(gb, digits: int = 3) -> str:
    """A size in GB in the unit a person would use (decimal: kB, MB, GB, TB, PB).

    Examples
    --------
    >>> size(0.004096), size(500), size(2000), size(1.5e7)
    ('4.1 MB', '500 GB', '2 TB', '15 PB')
    """
    g = float(gb)
    if math.isnan(g):
        return "—"
    for unit, scale in (("PB", 1e6), ("TB", 1e3), ("GB", 1.0), ("MB", 1e-3), ("kB", 1e-6)):
        if abs(g) >= scale:
            return with_unit(g / scale, unit, digits)
    return with_unit(g * 1e9, "B", digits)


_LATEX = (
    (r"\leq", "≤"), (r"\geq", "≥"), (r"\le", "≤"), (r"\ge", "≥"), (r"\times", "×"), (r"\cdot", "·"),
    (r"\approx", "≈"), (r"\sim", "~"), (r"\pm", "±"), (r"\%", "%"), (r"\quad", "  "), (r"\,", " "),
)  # fmt: skip
_SUB = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ")


def _script(text: str, table: dict, mark: str) -> str:
    """``text`` in Unicode sub- or superscript where every character has one, else ``mark`` and the text."""
    out = text.translate(table)
    return out if all(ord(c) > 127 for c in out if not c.isspace()) else f"{mark}{text}"


def plain_math(text: str) -> str:
    r"""Text with its LaTeX math (``$1 \leq CF \leq 4$``, ``$$...$$``) as plain Unicode (``1 ≤ CF ≤ 4``).

    The sources' quotes keep their math as printed (in LaTeX, from the text extraction); a
    page, a figure and a report show them without MathJax, which would be fetched from the
    internet. ``\text{s}`` after a number reads as a unit (``22.5 s``); ``t_e`` as ``tₑ``.

    Examples
    --------
    >>> plain_math(r"valid for $1 \leq CF \leq 4$ and $3600 / 160 = 22.5\text{s}$")
    'valid for 1 ≤ CF ≤ 4 and 3600 / 160 = 22.5 s'
    >>> plain_math(r"$$t_e(\text{min}) = 0.00296 \times MB + 2.36 \times m \quad [1]$$")
    'tₑ(min) = 0.00296 × MB + 2.36 × m [1]'
    """
    import re

    def convert(m: re.Match) -> str:
        s = m.group(1) if m.group(1) is not None else m.group(2)
        s = re.sub(r"(?<=\d)\\text\{([^}]*)\}", r" \1", s)  # a number's unit
        s = re.sub(r"\\(?:text|mathrm|mathit|textit)\{([^}]*)\}", r"\1", s)
        for tex, uni in _LATEX:
            s = s.replace(tex, uni)
        s = re.sub(r"_\{([^}]*)\}|_(\w)", lambda g: _script(g.group(1) or g.group(2), _SUB, "_"), s)
        s = re.sub(r"\^\{([^}]*)\}|\^(\w)", lambda g: _script(g.group(1) or g.group(2), _SUP, "^"), s)
        return re.sub(r"\s+", " ", s).strip()

    out = re.sub(r"\$\$(.+?)\$\$|\$([^$]+)\$", convert, str(text))
    if "\\" in out:  # a quote cut from inside an equation, and markdown's escapes (\*)
        out = re.sub(r"\\(?:text|mathrm)\{([^}]*)\}", r"\1", out)
        for tex, uni in _LATEX:
            out = out.replace(tex, uni)
        out = re.sub(r"\\([*_\[\]#])", r"\1", out)
        out = re.sub(r" {2,}", " ", out)
    return out
