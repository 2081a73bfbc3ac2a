"""The app's one cache (vtsmodel.app.cache): a computation kept per the inputs it reads, bounded, its warnings kept."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from vtsmodel import ExtrapolationWarning
from vtsmodel.app import cache


@pytest.fixture(autouse=True)
def empty():
    cache.clear()
    yield
    cache.clear()


def test_a_computation_runs_once_per_arguments_in_any_order():
    calls = []

    def product(a, b=1.0):
        calls.append((a, b))
        return a * b

    assert cache.cached(product, a=2.0, b=3.0) == 6.0
    assert cache.cached(product, b=3.0, a=2.0) == 6.0  # the same arguments, in any order
    assert cache.cached(product, a=2.0) == 2.0
    assert calls == [(2.0, 3.0), (2.0, 1.0)]
    assert cache.is_cached(product, a=2.0, b=3.0) and not cache.is_cached(product, a=5.0)
    name = f"{product.__module__}.{product.__qualname__}"
    assert cache.stats()[name] == (3, 2)  # three calls, two computed


def test_unhashable_arguments_are_told_apart_by_identity():
    calls = []

    def total(values, k=1):
        calls.append(values)
        return k * float(np.sum(values))

    a, b = np.array([1.0, 2.0]), np.array([1.0, 2.0])
    assert cache.cached(total, values=a) == cache.cached(total, values=a) == 3.0
    assert cache.cached(total, values=b) == 3.0  # equal, but another object: computed again
    assert len(calls) == 2
    assert (
        cache.cached(total, values=(a,), k=2) == cache.cached(total, values=(a,), k=2) == 6.0
    )  # a tuple holding one
    assert len(calls) == 3


def test_the_projects_warnings_are_raised_again_on_every_call_that_finds_the_value():
    def calibrate(a):
        warnings.warn(f"a={a} is outside what the source validated", ExtrapolationWarning, stacklevel=2)
        return a

    for _ in range(2):  # computed, then found: the warning each time
        with pytest.warns(ExtrapolationWarning, match="a=7 is outside"):
            assert cache.cached(calibrate, a=7) == 7
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)  # a caller that silences them, silences them
        assert cache.cached(calibrate, a=7) == 7


def test_an_exception_is_not_kept():
    calls = []

    def fails(a):
        calls.append(a)
        raise ValueError("no solution")

    for _ in range(2):
        with pytest.raises(ValueError, match="no solution"):
            cache.cached(fails, a=1.0)
    assert calls == [1.0, 1.0] and not cache.is_cached(fails, a=1.0)


def test_the_cache_is_bounded_and_a_function_keeps_at_most_its_share(monkeypatch):
    monkeypatch.setattr(cache, "SIZE", 10)

    @cache.kept(keep=3)
    def big(n):
        return [n] * 3

    def small(n):
        return n

    for n in range(5):
        assert big(n) == [n] * 3
    assert [big.uncached(n) for n in range(2)] == [[0] * 3, [1] * 3]
    assert not cache.is_cached(big.uncached, n=0) and cache.is_cached(big.uncached, n=4)  # the oldest went
    assert sum(k[0] is big.uncached for k in cache._entries) == 3
    assert big(4) is big(n=4)  # a positional and a keyword call share the entry
    for n in range(20):
        cache.cached(small, n=n)
    assert len(cache._entries) == 10 and cache.is_cached(small, n=19) and not cache.is_cached(small, n=5)


# --- a generator function's value, a step at a time (the planner's tornado) ------------------------
def _counting(log: list):
    def total(n):
        """The sum 0..n-1, one term per step; a warning in its second step."""
        acc = 0
        for i in range(n):
            log.append(i)
            if i == 1:
                warnings.warn(
                    f"n={n} is outside what the source validated", ExtrapolationWarning, stacklevel=2
                )
            acc += i
            yield i, n
        return acc

    return total


def test_a_generator_functions_value_is_computed_a_step_at_a_time_and_kept_at_its_end():
    log: list = []
    total = _counting(log)
    steps = cache.cached_steps(total, n=4)
    assert next(steps) == (0, 4) and log == [0]  # one step per next()
    assert not cache.is_cached(total, n=4)  # nothing kept before the end
    with pytest.warns(ExtrapolationWarning, match="n=4 is outside"):
        rest = list(steps)  # the last next() returns the value (StopIteration) and keeps it
    assert rest == [(1, 4), (2, 4), (3, 4)] and cache.is_cached(total, n=4)
    with pytest.warns(ExtrapolationWarning, match="n=4 is outside"):  # found: its warning again, no step
        assert cache.cached(total, n=4) == 6
        assert list(cache.cached_steps(total, n=4)) == []
    assert log == [0, 1, 2, 3]


def test_a_generator_function_through_cached_runs_to_its_end():
    log: list = []
    total = _counting(log)
    with pytest.warns(ExtrapolationWarning):
        assert cache.cached(total, n=3) == 3
    assert log == [0, 1, 2] and cache.is_cached(total, n=3)


def test_steps_closed_before_their_end_keep_nothing_and_take_no_warning_of_what_runs_between():
    log: list = []
    total = _counting(log)
    steps = cache.cached_steps(total, n=5)
    next(steps)
    with pytest.warns(UserWarning, match="between two steps"):  # the page's own work between two steps
        warnings.warn("between two steps", UserWarning, stacklevel=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        next(steps)  # the step's own warning is kept for the end (raised with the value)
    assert caught == []
    steps.close()
    assert not cache.is_cached(total, n=5)
    with pytest.warns(ExtrapolationWarning):
        assert cache.cached(total, n=5) == 10  # computed again, whole


def test_steps_finished_after_a_call_that_kept_the_value_keep_the_first():
    total = _counting([])
    steps = cache.cached_steps(total, n=3)
    next(steps)
    with pytest.warns(ExtrapolationWarning):
        assert cache.cached(total, n=3) == 3  # a report asks for it now
        assert list(steps) == [(1, 3), (2, 3)]
    assert cache.stats()[f"{total.__module__}.{total.__qualname__}"] == (2, 2)


def test_cached_steps_refuses_a_plain_function():
    with pytest.raises(TypeError, match="not a generator function"):
        cache.cached_steps(lambda a: a, a=1)
