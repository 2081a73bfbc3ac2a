"""Lesson 06's ride-through (vtsmodel.app.lessons.ride_through) without a browser."""

import math

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel import ds8000 as dc
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import disk_cache as L
from vtsmodel.app.lessons import ride_through
from vtsmodel.app.text import duration

from .test_disk_cache import mark, xy

SIX = data.load("ds8000_facts").value("error_handling_time_max")


def test_ride_panel():
    # ibm-ds8000-tpf, Error Handling Behavior Performance: "never exceeding six seconds";
    # shutdowns "set to roughly 70%" (the default threshold: an input)
    p = L.ride_panel()
    p.set(arrival_per_s=3000.0, resources=30000, threshold=0.7, pause_s=6.0)
    ride = float(dc.ride_through_s(3000.0, 30000, threshold=0.7))
    r = p.readout_values
    assert r["ride-through (before shutdown)"] == duration(ride) == "7 s"
    assert r["survives the measured 6 s"] == "yes" and "lesson 02" in p.view.binding
    assert r["blocks needed for 6 s"] == "25,715"  # ceil(3000 * 6 / 0.7)
    x, y = xy(trace_named(p.figure("ride"), "blocks held = arrivals × pause (at most all)"))
    np.testing.assert_allclose(y, np.minimum(3000.0 * x, 30000))
    assert mark(p.figure("ride"), "this pause")["yanchor"] == pytest.approx(18000.0)
    p.set(resources=20000)
    assert p.readout_values["survives the measured 6 s"] == "no: shutdown"


def test_ride_numbers_hold_the_statements():
    # "should be set to roughly 70%"; "never exceeding six seconds"
    t = float(dc.ride_through_s(2000.0, 20000))
    assert t == pytest.approx(0.7 * 20000 / 2000)
    need = float(dc.resources_for_pause(2000.0, SIX))
    assert float(dc.ride_through_s(2000.0, need)) == pytest.approx(SIX)
    text = ride_through.ride_numbers(2000.0, 20000)
    assert "2,000 transactions/s with 20,000 blocks: ride-through 7 s" in text
    assert f"blocks needed for the measured 6 s: {math.ceil(need):,d}" in text
