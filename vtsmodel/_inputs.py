"""Inputs declared once: label, unit, default, valid range, the source of the range.

An :class:`Input` describes one quantity a model function or a lesson takes. The same
declaration checks a model function's argument (:meth:`Input.check`), parses what a
person typed into a sheet cell or a file (:meth:`Input.parse`), warns where a value
leaves the range a source validated (:meth:`Input.warn`), heads a sheet column
(:attr:`Input.header`), labels an export caption, and, in the app layer, builds the
control (slider, dropdown, checkbox). A lesson derives its inputs from the model's with
:meth:`Input.but`, so a control and a scenario sheet cannot disagree: there is nothing to
copy.

Model functions record their declarations with :func:`declare`; the property tests draw
inputs from them (every value in range gives a finite answer; every value outside, and
every non-finite or wrongly typed one, raises ``ValueError`` naming the parameter).

One rule for text: model functions take numbers (and numpy arrays), never text; text is
parsed only where a person types it (cells, files, the command line), by
:meth:`Input.parse`, with ``float`` (never evaluated).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from vtsmodel._validation import as_float_array, check_choice, warn_outside

__all__ = ["Input", "declare", "declared_inputs", "number"]

#: Longest text :meth:`Input.parse` looks at (a number or a choice label is far shorter).
MAX_TEXT = 60


def number(x, digits: int = 3) -> str:
    """``x`` rounded to ``digits`` significant digits, in plain decimal notation.

    Thousands are grouped (``12,500``); trailing zeros after the point are dropped
    (``2.5``, not ``2.50``); infinities read ``∞``; NaN reads ``—``.

    Examples
    --------
    >>> number(2300.0), number(0.012345), number(79290.0), number(2.5), number(-0.0)
    ('2,300', '0.0123', '79,300', '2.5', '0')
    """
    x = float(x)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"
    if abs(x) >= 1e15 or abs(x) < 1e-6:
        return f"{x:.{digits}g}"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    r = round(x, places)
    if r == 0:
        return "0"
    if places <= 0:
        return f"{r:,.0f}"
    text = f"{r:,.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _shown(value) -> str:
    """``repr(value)``, cut to 40 characters (a pasted megabyte must not fill the message)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}…({len(text)} characters)"


def _same_choice(value, choice) -> bool:
    """Whether ``value`` is the choice ``choice``: equal, and both numbers or both of one type."""
    if isinstance(value, bool) or isinstance(choice, bool):
        return value is choice
    if isinstance(value, numbers.Real) and isinstance(choice, numbers.Real):
        return float(value) == float(choice)
    return type(value) is type(choice) and value == choice


def _empty(value) -> bool:
    """Whether ``value`` is empty: ``None``, blank text or NaN."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isnan(value)


def _bound(x: float | None) -> str:
    return "" if x is None else number(x, 6)


@dataclass(frozen=True)
class Input:
    """One input: what it is, its unit, default, the range it may take, how a control steps it.

    Attributes
    ----------
    label : str
        What a person reads, without the unit (``"compressibility CF"``).
    unit : str
        Unit, as the project writes it (``"MB/s"``, ``"GB"``, ``"-"`` for a ratio); empty
        for a choice or a flag.
    default : object
        Default value (a number, a choice's value, or a bool for a flag).
    lo, hi : float, optional
        The range the input may take: a model function rejects values outside it with
        ``ValueError``; a control and a sheet column accept exactly this range.
        ``None``: unbounded.
    lo_open, hi_open : bool
        Whether the bound itself is excluded.
    integer : bool
        Whole numbers only.
    choices : tuple
        For a choice: the values, or ``(label, value)`` pairs.
    valid : (float or None, float or None), optional
        The range a source validated: outside it a model warns with
        :class:`~vtsmodel.ExtrapolationWarning` and an exported caption says so.
    source : str
        Where ``valid`` (or the range) comes from: ``"ibm-vts-b18-2000, Appendix B"``, or
        ``"project assumption"``.
    help : str
        One sentence for a tooltip and the documentation.
    step : float, optional
        Slider step (for a log scale: steps per decade are ``1 / step``).
    scale : {"linear", "log"}
        How a slider spaces its values.
    digits : int
        Significant digits of the value in readouts and captions (plain notation, :func:`number`).
    below : (float, type, str), optional
        A threshold inside the range below which a value is accepted with a warning of the
        class, saying the sentence (a compression ratio below 1: :class:`CompressionWarning`).
    optional : bool
        Whether a cell may be left empty: :meth:`parse` takes an empty value (``None``, blank
        text, NaN) as ``None``, which :meth:`format` shows empty. A model argument's
        :meth:`check` is unaffected (a model function never takes ``None`` through it).
    """

    label: str
    unit: str = ""
    default: object = None
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False
    choices: tuple = ()
    valid: tuple[float | None, float | None] | None = None
    source: str = ""
    help: str = ""
    step: float | None = None
    scale: str = "linear"
    digits: int = 4
    optional: bool = False
    below: tuple | None = None

    def __post_init__(self) -> None:
        if self.scale not in ("linear", "log"):
            raise ValueError(f"scale={self.scale!r} is not valid; choose 'linear' or 'log'")
        if self.choices and not isinstance(self.choices, tuple):
            object.__setattr__(self, "choices", tuple(self.choices))

    # --- what it is ----------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``"choice"``, ``"flag"``, ``"text"``, ``"int"`` or ``"number"``."""
        if self.choices:
            return "choice"
        if isinstance(self.default, bool):
            return "flag"
        if isinstance(self.default, str):
            return "text"
        return "int" if self.integer else "number"

    @property
    def header(self) -> str:
        """The label with its unit, e.g. ``"TVC capacity [GB]"`` (a sheet column, a caption key)."""
        return f"{self.label} [{self.unit}]" if self.unit else self.label

    @property
    def options(self) -> tuple[tuple[str, object], ...]:
        """A choice's ``(label, value)`` pairs, in display order."""
        out = []
        for c in self.choices:
            if isinstance(c, tuple) and len(c) == 2:
                out.append((str(c[0]), c[1]))
            else:
                out.append((str(c), c))
        return tuple(out)

    @property
    def values(self) -> tuple:
        """A choice's values."""
        return tuple(v for _label, v in self.options)

    def label_of(self, value) -> str:
        """The display label of a choice's value (the value itself as text otherwise)."""
        for label, v in self.options:
            if v == value and type(v) is type(value):
                return label
        return self.format(value)

    def range_text(self) -> str:
        """The valid range as a person reads it: ``"[1, 4]"`` or ``"one of 'base', 'EHPO'"``."""
        if self.choices:
            return "one of " + ", ".join(repr(label) for label, _v in self.options)
        if self.kind == "flag":
            return "yes or no"
        if self.kind == "text":
            return f"text of 1 to {MAX_TEXT} characters"
        left = "(" if self.lo_open or self.lo is None else "["
        right = ")" if self.hi_open or self.hi is None else "]"
        # digits without thousands separators: the comma separates the bounds; a whole number exact
        lo = (
            "−∞"
            if self.lo is None
            else number(self.lo, 15 if float(self.lo).is_integer() else 6).replace(",", "")
        )
        hi = (
            "∞"
            if self.hi is None
            else number(self.hi, 15 if float(self.hi).is_integer() else 6).replace(",", "")
        )
        text = f"{left}{lo}, {hi}{right}"
        text = f"whole numbers in {text}" if self.integer else text
        return f"{text} or empty" if self.optional else text

    def valid_text(self) -> str:
        """The validated range and its source, e.g. ``"1 to 4 (ibm-vts-b18-2000, Appendix B)"``."""
        if not self.valid:
            return ""
        lo, hi = self.valid
        if lo is None:
            span = f"up to {_bound(hi)}"
        elif hi is None:
            span = f"from {_bound(lo)}"
        else:
            span = f"{_bound(lo)} to {_bound(hi)}"
        return f"{span} {self.unit if self.unit not in ('', '-') else ''}".strip() + (
            f" ({self.source})" if self.source else ""
        )

    def format(self, value) -> str:
        """``value`` as a readout or caption shows it (a choice by its label; an empty optional value, empty)."""
        if value is None and self.optional:
            return ""
        if self.choices:
            for label, v in self.options:
                if v == value:
                    return label
            return str(value)
        if isinstance(value, bool) or self.kind == "flag":
            return "yes" if value else "no"
        if isinstance(value, numbers.Real):
            if self.integer:
                return f"{int(value):,d}"
            return number(value, self.digits)
        return str(value)

    def but(self, **changes) -> Input:
        """A copy with some fields changed (a lesson's control range, another default)."""
        return dataclasses.replace(self, **changes)

    # --- checking ---------------------------------------------------------------------------
    def check(self, name: str, value) -> np.ndarray | object:
        """A model function's argument checked: a float array (or the choice), else ``ValueError``.

        Numbers only (no text): see the module docstring for the rule.
        """
        if self.choices:
            return check_choice(name, value, self.values)
        arr = as_float_array(
            name,
            value,
            lo=self.lo,
            hi=self.hi,
            lo_open=self.lo_open,
            hi_open=self.hi_open,
            integer=self.integer,
        )
        if self.below is not None and np.any(arr < self.below[0]):
            low = arr[arr < self.below[0]] if arr.ndim else arr
            shown = f"{float(np.min(low)):g}"
            warnings.warn(f"{name}={shown} {self.below[2]}", self.below[1], stacklevel=3)
        return arr

    def contains(self, value) -> bool:
        """Whether a scalar value lies in the range (or is one of the choices)."""
        try:
            self.parse("value", value)
        except ValueError:
            return False
        return True

    def parse(self, name: str, value):
        """What a person typed or a file holds, as this input's value; ``ValueError`` otherwise.

        Text is stripped and converted with ``float`` (never evaluated); a choice accepts
        its value or its label (``"EHPO"`` as well as ``"ehpo"``); a flag accepts
        ``yes/no/true/false/1/0``. Numbers are checked against the range; whole-number
        inputs come back as ``int``. An :attr:`optional` input takes an empty value (``None``,
        blank text, NaN) as ``None``.
        """
        if self.optional and _empty(value):
            return None
        if hasattr(value, "item") and not isinstance(value, list | tuple | dict):
            size = getattr(value, "size", 1)
            if size != 1:  # numpy's own message named no input
                held = "an empty array" if size == 0 else f"an array of {size} values"
                raise ValueError(f"{name} is {held}; {self.header} takes one value: {self.range_text()}")
            value = value.item()  # numpy scalars (a grid sends them)
        if isinstance(value, str):
            text = value.strip()
            if len(text) > MAX_TEXT:
                raise ValueError(f"{name}={text[:20]!r}… is not valid; {self.header}: {self.range_text()}")
        else:
            text = None
        if self.choices:
            for label, v in self.options:
                if _same_choice(value, v):
                    return v
                if text is not None and (text == label or text == str(v) or text.lower() == label.lower()):
                    return v
            if text is not None:  # "1728" for the choice 1728.0
                try:
                    num = float(text)
                except ValueError:
                    num = None
                for _label, v in self.options:
                    if num is not None and _same_choice(num, v):
                        return v
            raise ValueError(f"{name}={_shown(value)} is not valid; choose {self.range_text()}")
        if self.kind == "text":
            if text is None or not text or any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
                raise ValueError(
                    f"{name}={_shown(value)} is not valid; {self.header}: {self.range_text()}, no control characters"
                )
            return text
        if self.kind == "flag":
            if isinstance(value, bool):
                return value
            if text is not None and text.lower() in ("yes", "true", "1", "on"):
                return True
            if text is not None and text.lower() in ("no", "false", "0", "off"):
                return False
            if isinstance(value, numbers.Integral) and value in (0, 1):
                return bool(value)
            raise ValueError(f"{name}={_shown(value)} is not valid; {self.header}: {self.range_text()}")
        if value is None or (text is not None and not text):
            raise ValueError(f"{name} is empty; {self.header} must be a number in {self.range_text()}")
        if isinstance(value, bool) or not isinstance(value, numbers.Real | str):
            raise ValueError(
                f"{name}={_shown(value)} must be a number in {self.range_text()} ({self.header})"
            )
        if text is not None:
            try:
                num = float(text)  # "1e3", " 2.5 ": numbers; anything else is rejected
            except ValueError:
                raise ValueError(
                    f"{name}={_shown(value)} is not a number; {self.header} must be in {self.range_text()}"
                ) from None
        else:
            try:
                num = float(value)
            except OverflowError:
                raise ValueError(
                    f"{name}={_shown(value)} is outside the valid range {self.range_text()}"
                ) from None
        if not math.isfinite(num):
            raise ValueError(
                f"{name}={_shown(value)} must be finite; {self.header} must be in {self.range_text()}"
            )
        bad = (
            (self.lo is not None and (num <= self.lo if self.lo_open else num < self.lo))
            or (self.hi is not None and (num >= self.hi if self.hi_open else num > self.hi))
        )  # fmt: skip
        if bad:
            raise ValueError(f"{name}={num:g} is outside the valid range {self.range_text()} ({self.header})")
        if self.integer:
            if num != round(num):
                raise ValueError(
                    f"{name}={num:g} must be a whole number in {self.range_text()} ({self.header})"
                )
            return int(round(num))
        return num

    def warn(self, name: str, value, *, stacklevel: int = 3) -> bool:
        """Warn with :class:`~vtsmodel.ExtrapolationWarning` where ``value`` leaves ``valid``."""
        if not self.valid or self.choices:
            return False
        lo, hi = self.valid
        return warn_outside(
            name, value, lo, hi, source=self.source or "the source", stacklevel=stacklevel + 1
        )

    def outside_valid(self, value) -> str:
        """A sentence for a caption when a scalar ``value`` leaves ``valid``; empty inside it."""
        if not self.valid or self.choices or isinstance(value, bool) or not isinstance(value, numbers.Real):
            return ""
        lo, hi = self.valid
        x = float(value)
        tol = 1e-12
        if (lo is not None and x < lo - tol * max(1.0, abs(lo))) or (
            hi is not None and x > hi + tol * max(1.0, abs(hi))
        ):
            return f"{self.label} = {self.format(x)} {self.unit if self.unit != '-' else ''}".rstrip() + (
                f" is outside the range the source validated, {self.valid_text()}: an extrapolation."
            )
        return ""


def declare(**inputs: Input) -> Callable:
    """Record the :class:`Input` declarations of a model function's parameters.

    The function is returned unchanged (no wrapper, no cost per call); its declarations are
    read back with :func:`declared_inputs`.

    Examples
    --------
    >>> CF = Input("compressibility CF", "-", 3.0, lo=1.0)
    >>> @declare(cf=CF)
    ... def f(cf):
    ...     return CF.check("cf", cf)
    >>> declared_inputs(f)["cf"].label
    'compressibility CF'
    """
    for name, inp in inputs.items():
        if not isinstance(inp, Input):
            raise TypeError(f"declare: {name}={inp!r} is not an Input")

    def deco(func):
        func.__vtsmodel_inputs__ = dict(inputs)
        return func

    return deco


def declared_inputs(func) -> Mapping[str, Input]:
    """The :class:`Input` declarations recorded on ``func`` by :func:`declare` (empty if none)."""
    return dict(getattr(func, "__vtsmodel_inputs__", {}))
