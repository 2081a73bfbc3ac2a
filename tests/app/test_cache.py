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
