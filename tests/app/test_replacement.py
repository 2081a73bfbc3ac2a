"""Lesson 08, the curve compared (vtsmodel.app.lessons.replacement): libCacheSim's policies and SHARDS."""

from __future__ import annotations

import numpy as np
import pytest

from vtsmodel import hits, mountlog
from vtsmodel.app.lessons import hit_curve as C
from vtsmodel.app.lessons import replacement as P
from vtsmodel.app.text import number

from .hits_common import core, evaluated, shown

SLOW = {"cf": 3.0, "cache_rule": "all", "warmup_hours": 0.0}


def test_shards_is_drawn_with_its_measured_error():
    src = C.example_source()
    _curve, t = core(C.EXAMPLE_LOG)
    s = hits.shards_hit_curve(src.log, max_volumes=256)
    band, trace = P.traces(src, **SLOW, shards=True, max_volumes=256)
    assert trace.name == "SHARDS, by count (256 volumes)"
    x = np.asarray(trace.x, float)
    assert np.allclose(trace.y, s.read_hit_ratio(x), equal_nan=True)
    # the band: the curve ± the wider of twice the replicates' standard error and the error measured
    # for a sample this size (2 standard errors alone undercover: BENCHMARKS.md), out along the grid and back
    half = np.maximum(2 * s.read_hit_error(x), s.expected_error)
    # the measured error widens it somewhere
    assert s.expected_error > 0 and np.any(half > 2 * s.read_hit_error(x))
    assert np.allclose(band.y, np.concatenate([trace.y + half, (trace.y - half)[::-1]]), equal_nan=True)
    assert band.name == "SHARDS ± its likely error"
    err = float(np.abs(s.read_hit_ratio(t.capacity_gb) - t.read_hit_ratio).max())
    view = shown(P.view_compared, **SLOW, shards=True, max_volumes=256)
    assert view.readouts["SHARDS error at Table 3 sizes"] == (
        f"{number(err, 2)} at most (sampling rate {number(s.sampling_rate)}); expected about "
        f"{number(s.expected_error, 2)} for a sample this size (measured), ± 2 standard errors "
        f"{number(float(np.nanmax(2 * s.read_hit_error(t.capacity_gb))), 2)} at most"
    )
    assert err > 0  # 256 of 2,280 volumes: a sample, not the whole log
    assert shown(P.view_compared, **SLOW).readouts == {} and P.traces(src, **SLOW) == []


@pytest.mark.slow
def test_other_policies_at_the_table3_sizes_are_libcachesims():
    log = mountlog.synthetic_mount_log(1500, 600, seed=8)
    src = C.LogSource("small.csv", log)
    slow = {**SLOW, "cache_rule": "paf"}
    t = hits.configuration_hits(hits.lru_hit_curve(log), feature="paf", cf=3.0)
    drawn = {tr.name: tr for tr in P.traces(src, **slow, policies=True)}
    assert list(drawn) == [f"{p} (libCacheSim)" for p in hits.POLICIES]
    for policy in ("FIFO", "ARC", "GDSF"):
        got = drawn[f"{policy} (libCacheSim)"]
        want = hits.simulate_policy(log, t.capacity_gb, policy=policy)
        assert np.array_equal(got.x, t.tvc_gb) and np.allclose(got.y, want.read_hit_ratio)
    # libCacheSim's LRU is the one-pass curve at these sizes (all above the largest volume)
    assert np.allclose(drawn["LRU (libCacheSim)"].y, t.read_hit_ratio)
    table = P.policies_html(evaluated(source=src, **slow, policies=True))
    assert "FIFO (libCacheSim)" in table and "LRU, one pass" in table and "vtsmodel-policies" in table


def test_policies_on_a_log_beyond_the_pages_limit_are_a_note(monkeypatch):
    monkeypatch.setattr(P, "MAX_POLICY_MOUNTS", 1000)
    src = C.example_source()
    view = shown(P.view_compared, **SLOW, policies=True)
    assert any("up to 1,000 mounts" in n for n in view.notes)
    assert (
        P.policies_html(evaluated(**SLOW, policies=True)) == "" and P.traces(src, **SLOW, policies=True) == []
    )
