"""Lesson 06's background copy (vtsmodel.app.lessons.flashcopy) without a browser.

The copy load is calibrated to a response between "more than doubled" and "less than 5 ms"
(ibm-ds8000-tpf, Performance with FlashCopy): the tests check that the panel shows the
calibration where it says, and call it so; they are no evidence for the model.
"""

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel import ds8000 as dc
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import disk_cache as L
from vtsmodel.app.lessons import flashcopy
from vtsmodel.app.text import percent

from .test_disk_cache import mark, xy

FACTS = data.load("ds8000_facts")


def test_copy_panel_on_off():
    # ibm-ds8000-tpf, Performance with FlashCopy: 2 ms before (the model's reference: an input);
    # the copy load is calibrated to a response between "more than doubled" and "less than 5 ms".
    p = L.copy_panel()
    c = dc.calibrate_copy_load(target_ms=dc.copy_response_target_ms(0.5))
    r = p.readout_values
    assert r["response, no copy"] == "2 ms" and r["response, copy running"] == "4.5 ms"
    assert (
        r["copy load (calibrated)"] == f"{percent(c)} of capacity"
        and r["calibration target (assumed position)"] == "4.5 ms"
    )
    assert r["saturation, no copy"] == "204,000 IO/s"  # plain numbers (issue 15: not 2.038e+5)
    spec = p.figure("copy")
    assert mark(spec, "this rate, copy running")["yanchor"] == pytest.approx(4.5)
    x, y = xy(trace_named(spec, f"background copy, {percent(c)} of capacity (calibrated)"))
    np.testing.assert_allclose(y, dc.background_copy_response_ms(x, copy_load=c), rtol=1e-12)
    p.set(copy_on=False)
    assert mark(p.figure("copy"), "this rate, no copy")["yanchor"] == pytest.approx(2.0)
    p.set(target_position=0.9, utilisation_ref=0.7)
    c = dc.calibrate_copy_load(target_ms=dc.copy_response_target_ms(0.9), utilisation_ref=0.7)
    assert p.readout_values["copy load (calibrated)"] == f"{percent(c)} of capacity"
    assert p.readout_values["calibration target (assumed position)"] == "4.9 ms"


def test_a_saturated_disk_system_shows_no_point():
    p = L.copy_panel()
    p.set(host_io_per_s=250000.0)
    assert p.readout_values["response, copy running"] == "saturated (no steady state)"
    assert not mark(p.figure("copy"), "this rate, copy running")["visible"]


def test_copy_numbers_are_calibrated_between_the_stated_bounds():
    # "the I/0 response time was 2 ms", "more than doubled", "still less than 5 ms"
    before = FACTS.value("flashcopy_response_before")
    c = dc.calibrate_copy_load()
    rate = FACTS.value("flashcopy_test_io_rate")
    during = float(dc.background_copy_response_ms(rate, copy_load=c))
    assert float(dc.background_copy_response_ms(rate)) == pytest.approx(before, abs=0.005)
    assert during / before > FACTS.value("flashcopy_response_factor_min")
    assert during < FACTS.value("flashcopy_response_max")
    text = flashcopy.copy_numbers()
    assert "calibration target at position 0.5 between 4 and 5 ms (assumed): 4.5 ms" in text
    assert "at 163,000 IO/s: 2 ms without the copy, 4.5 ms with it (× 2.25)" in text
    assert "at 40,750 IO/s" in text


def test_a_response_above_the_axis_is_drawn_on_its_edge_with_its_value():
    p = L.copy_panel()
    p.set(host_io_per_s=178000.0)  # just below saturation with the copy: above the 12 ms axis
    r = flashcopy.copy_response(178000.0, flashcopy.copy_load(dc.COPY_UTILISATION_REF, dc.COPY_TARGET_POSITION),
                                dc.COPY_UTILISATION_REF)  # fmt: skip
    assert r > flashcopy.Y_TOP_MS
    spec = p.figure("copy")
    assert mark(spec, "this rate, copy running")["yanchor"] == flashcopy.Y_TOP_MS
    assert f"{flashcopy.number(r)} ms: off the scale" in [a["text"] for a in spec["layout"]["annotations"]]
