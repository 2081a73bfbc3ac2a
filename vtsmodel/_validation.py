"""Input checking shared by every model function, and the project's warning classes.

Every model function checks its inputs with these helpers, so that meaningless input
raises a ``ValueError`` naming the parameter, its value and the valid range, and input
outside what a source validated raises an :class:`ExtrapolationWarning`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

import numpy as np

__all__ = [
    "ExtrapolationWarning",
    "VtsModelWarning",
    "as_float_array",
    "check_choice",
    "result",
    "warn_outside",
]


class VtsModelWarning(UserWarning):
    """Base class of the warnings vtsmodel raises."""


class ExtrapolationWarning(VtsModelWarning):
    """Input is meaningful but outside the range the source validated.

    The model still answers, by the documented extrapolation, but the number is not
    backed by a measurement. The message names the parameter, its value, the validated
    range and the source locator.
    """


def _fmt_range(lo, hi, lo_open, hi_open) -> str:
    left = "(" if lo_open or lo is None else "["
    right = ")" if hi_open or hi is None else "]"
    lo_s = "-inf" if lo is None else f"{lo:g}"
    hi_s = "inf" if hi is None else f"{hi:g}"
    return f"{left}{lo_s}, {hi_s}{right}"


def _describe(value) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(arr.item())
    return f"array with values {np.array2string(arr.ravel()[:6], threshold=6)}"


def as_float_array(
    name: str,
    value,
    *,
    lo: float | None = None,
    hi: float | None = None,
    lo_open: bool = False,
    hi_open: bool = False,
    integer: bool = False,
) -> np.ndarray:
    """Return ``value`` as a float array, or raise ``ValueError`` naming ``name``.

    Parameters
    ----------
    name : str
        The parameter's name, as the caller spells it.
    value : float or array_like
        The input.
    lo, hi : float, optional
        Bounds of the valid range; ``None`` for unbounded.
    lo_open, hi_open : bool
        Whether the bound itself is excluded.
    integer : bool
        Whether the value must be a whole number.

    Returns
    -------
    numpy.ndarray
        The value as a float64 array (0-d for a scalar).
    """
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name}={value!r} must be a number, not a boolean")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a number or an array of numbers") from None
    rng = _fmt_range(lo, hi, lo_open, hi_open)
    if arr.size == 0:
        raise ValueError(f"{name} is empty; it must hold at least one number in {rng}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}={_describe(value)} must be finite (no NaN or inf); valid range {rng}")
    bad = np.zeros(arr.shape, dtype=bool)
    if lo is not None:
        bad |= (arr <= lo) if lo_open else (arr < lo)
    if hi is not None:
        bad |= (arr >= hi) if hi_open else (arr > hi)
    if bad.any():
        first = arr[bad].ravel()[0]
        raise ValueError(f"{name}={_describe(value)} is outside the valid range {rng} (e.g. {first:g})")
    if integer and not np.all(arr == np.round(arr)):
        raise ValueError(f"{name}={_describe(value)} must be a whole number in {rng}")
    return arr


def check_choice(name: str, value, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ``ValueError``."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name}={value!r} is not valid; choose one of {', '.join(map(repr, options))}")
    return value


def warn_outside(
    name: str,
    value,
    lo: float | None,
    hi: float | None,
    *,
    source: str,
    stacklevel: int = 3,
) -> bool:
    """Warn with :class:`ExtrapolationWarning` where ``value`` leaves ``[lo, hi]``.

    Returns True when a warning was issued.
    """
    arr = np.asarray(value, dtype=float)
    out = np.zeros(arr.shape, dtype=bool)
    if lo is not None:
        out |= arr < lo - 1e-12 * max(1.0, abs(lo))
    if hi is not None:
        out |= arr > hi + 1e-12 * max(1.0, abs(hi))
    if out.any():
        first = arr[out].ravel()[0]
        lo_s = "-inf" if lo is None else f"{lo:g}"
        hi_s = "inf" if hi is None else f"{hi:g}"
        warnings.warn(
            f"{name}={first:g} is outside the range the source validated, [{lo_s}, {hi_s}] "
            f"({source}); the result is an extrapolation",
            ExtrapolationWarning,
            stacklevel=stacklevel,
        )
        return True
    return False


def result(arr):
    """Return a numpy scalar for a 0-d result, the array otherwise."""
    arr = np.asarray(arr)
    return arr[()] if arr.ndim == 0 else arr
