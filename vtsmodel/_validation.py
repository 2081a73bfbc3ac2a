"""Input checking shared by every model function, and the project's warning classes.

Every model function checks its inputs with these helpers, so that meaningless input
raises a ``ValueError`` naming the parameter, its value and the valid range, and input
outside what a source validated raises an :class:`ExtrapolationWarning`.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Iterable

import numpy as np

__all__ = [
    "CompressionWarning",
    "MAX_WHOLE",
    "ConstraintError",
    "ExtrapolationWarning",
    "UnknownName",
    "VtsModelWarning",
    "as_float_array",
    "as_scalar",
    "broadcast",
    "cached",
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


#: Why a compression ratio below 1 is accepted, said with the warning.
GROWS_ON_TAPE = (
    "is below 1: data that does not compress grows on tape (encrypted or already compressed data, "
    "which a compressor cannot shrink); taken as given, though the sources measured ratios of 1 and more"
)


class CompressionWarning(ExtrapolationWarning):
    """A compression ratio below 1: the data grows on tape (encrypted or already compressed data).

    Accepted down to 0.5 by every model that takes a ratio; the sources measured only ratios
    of 1 and more, so the answer is the model's arithmetic, not a measurement: an
    extrapolation (figures draw past it silently; a panel and the planner report it).
    """


@functools.lru_cache(maxsize=1024)  # an input's bounds never change; every array checked asks for them
def _fmt_range(lo, hi, lo_open=False, hi_open=False) -> str:
    """A range as every message writes it: ``[0.001, 1]``, ``(0, 1]``, ``[0, ∞)``; an unbounded end is open."""
    left = "(" if lo_open or lo is None else "["
    right = ")" if hi_open or hi is None else "]"
    lo_s = "−∞" if lo is None else bound_text(lo)
    hi_s = "∞" if hi is None else bound_text(hi)
    return f"{left}{lo_s}, {hi_s}{right}"


def bound_text(x: float) -> str:
    """A range's bound, ``:g`` but a whole number exact: ``1e+08``, ``0.001``, ``1048576`` (not ``1.04858e+06``)."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return next(t for d in range(6, 16) if float(t := f"{x:.{d}g}") == x)
    return f"{x:g}"


def _describe(value) -> str:
    arr = np.asarray(value)
    if arr.ndim == 0:
        return repr(arr.item())
    return f"array with values {np.array2string(arr.ravel()[:6], threshold=6)}"


#: The types :func:`as_float_array` checks without numpy when they are in range (not ``bool``: a bool
#: is never a number here).
_PLAIN_NUMBERS = frozenset({float, int, np.float64, np.float32, np.int64, np.int32})

#: Largest whole number an integer input may take: every whole number up to it is exact in
#: a float64 (2**53), so counts never wrap around when converted to integers.
MAX_WHOLE = 2.0**53


class ConstraintError(ValueError):
    """Inputs each in their range whose combination has no meaning.

    For example a utilisation ``arrival_rate * service_s / servers`` of 1 or more (no
    steady state), or more copy drives than drives. The message names the parameters
    and the condition; the function's docstring lists it under *Raises*.
    """


class UnknownName(KeyError, ValueError):
    """A name that is not in a catalog or a table; the message lists the valid names.

    A ``KeyError`` (a lookup failed) and a ``ValueError`` (bad input), so that either
    ``except`` catches it.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _text_error(name: str, value, rng: str) -> ValueError:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return ValueError(
        f"{name}={shown} is text; model functions take numbers (convert text with float() where a "
        f"person typed it); valid range {rng}"
    )


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

    One rule for text everywhere: model functions take numbers and numpy arrays, never
    text (``"3"``, ``b"3"``, an array of strings); text is parsed only where a person types
    it, by :meth:`vtsmodel.Input.parse`. Booleans, complex numbers, ``None`` and objects
    that are not numbers are rejected too; whole numbers (``integer=True``) may not exceed
    :data:`MAX_WHOLE`.

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
    if type(value) in _PLAIN_NUMBERS:  # a plain number in its range: the common case, without numpy's checks
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        if (
            math.isfinite(x)
            and (lo is None or (x > lo if lo_open else x >= lo))
            and (hi is None or (x < hi if hi_open else x <= hi))
            and (not integer or (x.is_integer() and abs(x) <= MAX_WHOLE))
        ):
            return np.array(x)
    rng = _fmt_range(lo, hi, lo_open, hi_open)  # below: the checks that name what is wrong
    if isinstance(value, str | bytes | np.str_ | np.bytes_):
        raise _text_error(name, value, rng)
    if value is None:
        raise ValueError(f"{name}=None must be a number in {rng}")
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name}={value!r} must be a number, not a boolean; valid range {rng}")
    try:
        raw = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name}={value!r} must be a number or an array of numbers in {rng}") from None
    kind = raw.dtype.kind
    if kind in "US" or (kind == "O" and any(isinstance(v, str | bytes) for v in raw.ravel().tolist())):
        raise _text_error(name, value, rng)
    if kind == "b":
        raise ValueError(f"{name}={_describe(raw)} must hold numbers, not booleans; valid range {rng}")
    if kind in "cmMV" or (kind == "O" and any(isinstance(v, complex) for v in raw.ravel().tolist())):
        raise ValueError(f"{name}={_describe(raw)} must hold real numbers; valid range {rng}")
    try:
        arr = np.asarray(raw, dtype=float)
    except OverflowError:
        raise ValueError(f"{name}={value!r} is outside the valid range {rng}") from None
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a number or an array of numbers in {rng}") from None
    if arr.size == 0:
        raise ValueError(f"{name} is empty; it must hold at least one number in {rng}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}={_describe(value)} must be finite (no NaN or infinity); valid range {rng}")
    bad = np.zeros(arr.shape, dtype=bool)
    if lo is not None:
        bad |= (arr <= lo) if lo_open else (arr < lo)
    if hi is not None:
        bad |= (arr >= hi) if hi_open else (arr > hi)
    if bad.any():
        first = f" (e.g. {arr[bad].ravel()[0]:g})" if arr.size > 1 else ""  # which of an array's values
        raise ValueError(f"{name}={_describe(value)} is outside the valid range {rng}{first}")
    if integer and not np.all(arr == np.round(arr)):
        raise ValueError(f"{name}={_describe(value)} must be a whole number in {rng}")
    if integer and np.any(np.abs(arr) > MAX_WHOLE):
        raise ValueError(
            f"{name}={_describe(value)} is too large for a whole number (at most 2**53 = {MAX_WHOLE:.0f}); "
            f"valid range {rng}"
        )
    return arr


def as_scalar(name: str, arr) -> float:
    """``arr`` (checked) as one float; ``ValueError`` naming ``name`` for an array of several values."""
    a = np.asarray(arr, dtype=float)
    if a.size != 1:
        raise ValueError(f"{name} must be a single number, not an array of shape {a.shape}")
    return float(a.reshape(()))


def broadcast(**arrays) -> tuple[int, ...]:
    """The shape the arrays broadcast to; ``ValueError`` naming the parameters that do not fit.

    Examples
    --------
    >>> broadcast(cf=np.ones(3), tvc_gb=np.ones((2, 1)))
    (2, 3)
    """
    shapes = {k: np.shape(v) for k, v in arrays.items()}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        pass
    shape: tuple[int, ...] = ()
    seen: list[str] = []
    for k, sh in shapes.items():
        try:
            shape = np.broadcast_shapes(shape, sh)
            seen.append(k)
        except ValueError:
            others = ", ".join(f"{o} has shape {shapes[o]}" for o in seen if shapes[o] != ())
            raise ValueError(
                f"the shapes of the inputs do not match: {k} has shape {sh}, {others}; give arrays "
                "of one shape, or shapes that broadcast (numpy's rules: scalars, or axes of length 1)"
            ) from None
    return shape  # pragma: no cover - the loop raises


def check_choice(name: str, value, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ``ValueError``."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"{name}={shown} is not valid; choose one of {', '.join(map(repr, options))}")
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
        warnings.warn(
            f"{name}={first:g} is outside the range the source validated, {_fmt_range(lo, hi)} "
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


def cached(func):
    """``functools.cache`` that lets unhashable arguments reach the function's own checks.

    ``functools.cache`` hashes the arguments first, so ``paf_fit(["peak"])`` would raise
    ``TypeError: unhashable type`` before the function could say which values are valid;
    here such a call runs uncached and the function's check raises its ``ValueError``.
    """
    inner = functools.cache(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return func(*args, **kwargs)
        return inner(*args, **kwargs)

    wrapper.cache_clear = inner.cache_clear
    wrapper.cache_info = inner.cache_info
    return wrapper
