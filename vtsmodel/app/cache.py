"""The app's one cache: each pure computation kept per the inputs it reads, bounded.

Every page evaluates its inputs once per distinct setting (:class:`~vtsmodel.app.panels.Stage`),
builds each figure base once per its arguments (:func:`~vtsmodel.app.figures.base_spec`), and
keeps whatever a stage shares with another (a simulated day, a hit curve) here, so that a
slider's move computes each thing once and a move back finds it. Nothing else in the app keeps
results.

A call is keyed by the function and its keyword arguments: plain values (numbers, text,
tuples) by value, anything unhashable or compared by identity (a mount log, a workload, a
result) by identity, which is right for objects the page holds unchanged until it replaces
them. The least recently used entry goes first once :data:`SIZE` are kept; a function that
returns large values keeps fewer (:func:`kept`'s ``keep``). A generator function's value is
what it returns (``StopIteration.value``): :func:`cached` runs it to its end, :func:`cached_steps`
one step per ``next()``, so that a page can compute it between its other work. The project's warnings
(:class:`~vtsmodel.VtsModelWarning`) a computation raised are kept with its value and raised
again on every call that finds it, so a cached answer carries its extrapolation notes.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections import Counter, OrderedDict
from collections.abc import Callable, Generator, Mapping

from vtsmodel import VtsModelWarning

__all__ = ["SIZE", "cached", "cached_steps", "clear", "is_cached", "kept", "stats"]

#: Most entries kept in all (figure bases, evaluations, shared parts).
SIZE = 512


class _Same:
    """A key part that matches only the same object (for values that are unhashable or compared by identity)."""

    __slots__ = ("obj",)

    def __init__(self, obj) -> None:
        self.obj = obj  # held: the object cannot be collected (and its id reused) while keyed

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


def _part(value):
    if isinstance(value, tuple):
        return tuple(_part(v) for v in value)
    try:
        hash(value)
    except TypeError:
        return _Same(value)
    return value


def _key(fn: Callable, kwargs: Mapping) -> tuple:
    return (fn, tuple(sorted((k, _part(v)) for k, v in kwargs.items())))


_entries: OrderedDict = OrderedDict()
_limits: dict[Callable, int] = {}
_held: Counter = Counter()
_calls: Counter = Counter()
_hits: Counter = Counter()


def _store(key: tuple, entry: tuple) -> None:
    fn = key[0]
    _entries[key] = entry
    _held[fn] += 1
    limit = _limits.get(fn)
    if limit is not None and _held[fn] > limit:
        oldest = next(k for k in _entries if k[0] is fn)
        del _entries[oldest]
        _held[fn] -= 1
    while len(_entries) > SIZE:
        old, _ = _entries.popitem(last=False)
        _held[old[0]] -= 1


def _recorded(caught, into: list) -> None:
    """Keep the project's warnings of ``caught`` in ``into``; pass the others on as they came."""
    for w in caught:
        if issubclass(w.category, VtsModelWarning):
            into.append((w.message, w.category, w.filename, w.lineno))
        else:  # not the project's: as it came
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _found(key: tuple):
    """The kept value of ``key``, its warnings raised again; or ``_MISSING``."""
    entry = _entries.get(key)
    if entry is None:
        return _MISSING
    _hits[key[0]] += 1
    _entries.move_to_end(key)
    for message, category, filename, lineno in entry[1]:
        warnings.warn_explicit(message, category, filename, lineno)
    return entry[0]


_MISSING = object()


def cached(fn: Callable, /, **kwargs):
    """``fn(**kwargs)``, computed once per arguments and kept; the project's warnings it raised, raised again.

    An exception is not kept: the next call computes (and raises) again. A generator function
    is run to its end (:func:`cached_steps`): its value is what it returns.
    """
    if inspect.isgeneratorfunction(fn):
        steps = cached_steps(fn, **kwargs)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value
    key = _key(fn, kwargs)
    _calls[fn] += 1
    value = _found(key)
    if value is not _MISSING:
        return value
    kept_warnings: list = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VtsModelWarning)
        value = fn(**kwargs)
    _recorded(caught, kept_warnings)
    _store(key, (value, tuple(kept_warnings)))
    for message, category, filename, lineno in kept_warnings:
        warnings.warn_explicit(message, category, filename, lineno)
    return value


def cached_steps(fn: Callable, /, **kwargs) -> Generator:
    """``fn(**kwargs)`` of a generator function ``fn``, one of its steps per ``next()``, kept as :func:`cached` keeps it.

    A generator that yields ``fn``'s steps and returns its value (``StopIteration.value``):
    at once, without a step, when the value is kept already. The value is kept once ``fn``
    returns; a generator closed or dropped before then keeps nothing, and an exception in a
    step ends it (and is not kept). The project's warnings are recorded inside each step, so
    nothing else that runs between two steps has its warnings taken.
    """
    if not inspect.isgeneratorfunction(fn):
        raise TypeError(f"cached_steps: {fn!r} is not a generator function")
    return _steps(fn, kwargs)


def _steps(fn: Callable, kwargs: Mapping) -> Generator:
    key = _key(fn, kwargs)
    _calls[fn] += 1
    value = _found(key)
    if value is not _MISSING:
        return value
    gen, kept_warnings = fn(**kwargs), []
    while True:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", VtsModelWarning)
            try:
                step = next(gen)
            except StopIteration as done:
                value, step = done.value, _MISSING
        _recorded(caught, kept_warnings)
        if step is _MISSING:
            break
        yield step
    # kept only if the key is still missing: a synchronous call may have kept it between two steps
    if key not in _entries:
        _store(key, (value, tuple(kept_warnings)))
    for message, category, filename, lineno in kept_warnings:
        warnings.warn_explicit(message, category, filename, lineno)
    return value


def is_cached(fn: Callable, /, **kwargs) -> bool:
    """Whether ``fn(**kwargs)`` is kept (a page may show it now, or compute it later)."""
    return _key(fn, kwargs) in _entries


def kept(fn: Callable | None = None, *, keep: int | None = None):
    """Decorate ``fn`` so that its calls go through :func:`cached`; at most ``keep`` of its values kept.

    Positional and keyword calls of the same arguments share an entry (defaults filled in);
    ``fn`` takes named parameters only (no ``*args``, ``**kwargs``).
    """

    def wrap(f: Callable) -> Callable:
        sig = inspect.signature(f)
        if keep is not None:
            _limits[f] = keep

        @functools.wraps(f)
        def call(*args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            return cached(f, **bound.arguments)

        call.uncached = f
        return call

    return wrap(fn) if fn is not None else wrap


def clear() -> None:
    """Forget every kept value and count."""
    _entries.clear()
    _held.clear()
    _calls.clear()
    _hits.clear()


def stats() -> dict[str, tuple[int, int]]:
    """Per function (by qualified name): ``(calls, computed)`` since the last :func:`clear`."""
    return {f"{fn.__module__}.{fn.__qualname__}": (n, n - _hits[fn]) for fn, n in _calls.items()}
