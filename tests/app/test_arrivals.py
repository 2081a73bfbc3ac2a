"""Lesson 03's random arrivals (vtsmodel.app.lessons.arrivals) without a browser: theory, simulation, marks."""

import numpy as np
import pytest

from vtsmodel import queueing, recall
from vtsmodel.app.figures import base_spec, trace_named
from vtsmodel.app.lessons import arrivals
from vtsmodel.app.lessons import recall as L
from vtsmodel.app.text import number, percent

from .test_recall import mark, marks, minutes


def test_arrivals_panel_follows_the_theory():
    a = L.arrivals_panel()
    a.set(recalls_per_hour=60.0, drives=4)
    s = float(recall.recall_service_s(250.0))
    lam = 60.0 / 3600
    r = a.readout_values
    assert r["utilisation ρ"] == number(lam * s / 4)
    wq = float(queueing.wait_mdc(lam, s, 4))
    p95 = float(queueing.wait_percentile(lam, s, 4, 0.95, service_cv=0.0))
    assert r["mean wait for a drive"] == minutes(wq) and r["p95 wait for a drive"] == minutes(p95)
    assert r["P(a recall waits), Erlang C"] == percent(float(queueing.erlang_c(lam, s, 4)))
    spec = a.figure("arrivals")
    assert mark(spec, "mean wait, this load") == (60.0, pytest.approx(wq / 60))
    assert mark(spec, "p95 wait, this load") == (60.0, pytest.approx(p95 / 60))
    need = queueing.recall_drives_needed(lam, s, 5 * 60.0, 0.95, service_cv=0.0)
    assert r["drives for the p95 target"] == str(need)
    mean = trace_named(spec, "theory mean")
    x = np.array(mean["x"])
    np.testing.assert_allclose(mean["y"], np.asarray(queueing.wait_mdc(x / 3600, s, 4)) / 60)


def test_the_main_slider_moves_only_marks():
    # The benchmark moves "recalls per hour": the base is sent once, a move sends the marks only.
    a = L.arrivals_panel()
    sent = []
    a.plots["arrivals"].widget.observe(lambda ch: sent.append(ch["name"]), names=["base", "moving"])
    for rph in (41.0, 42.0, 120.0, 43.0):
        a.set(recalls_per_hour=rph)
    assert sent == ["moving"] * 4
    assert a.plots["arrivals"].plot.traces == ()


def test_a_saturated_queue_shows_no_finite_point():
    # Issue 15: "a finite point plotted for a saturated queue whose readout says infinity".
    a = L.arrivals_panel()
    a.set(recalls_per_hour=120.0)
    s = float(recall.recall_service_s(250.0))
    assert 120.0 / 3600 * s / 4 >= 1
    assert not a.last_error and marks(a.figure("arrivals")) == []
    r = a.readout_values
    assert r["mean wait for a drive"] == r["p95 wait for a drive"] == "unbounded: the queue grows"
    assert r["P(a recall waits), Erlang C"] == "all (no steady state)"
    assert "grows without limit" in a.view.binding
    notes = [n["text"] for n in a.figure("arrivals")["layout"]["annotations"]]
    assert any("beyond the capacity" in t and "no steady state" in t for t in notes)


def test_a_wait_off_the_scale_is_drawn_at_the_edge_and_labelled():
    # Issue 15: "a marker that leaves the chart": near saturation the p95 point stays on the chart.
    a = L.arrivals_panel()
    a.set(recalls_per_hour=82.0)
    spec = a.figure("arrivals")
    top = spec["layout"]["yaxis"]["range"][1]
    s = float(recall.recall_service_s(250.0))
    p95 = float(queueing.wait_percentile(82.0 / 3600, s, 4, 0.95, service_cv=0.0))
    assert p95 / 60 > top and mark(spec, "p95 wait, this load") == (82.0, top)
    assert f"p95 {minutes(p95)}: off the scale" in [n["text"] for n in spec["layout"]["annotations"]]


def test_simulation_band_covers_the_theory():
    # The seeded simulation (20,000 recalls per point) brackets Cosmetatos' M/D/c mean at most loads.
    spec = base_spec(L.arrivals_panel().plots["arrivals"].plot)
    sim = trace_named(spec, "simulation mean")
    s = float(recall.recall_service_s(250.0))
    x, y, h = (np.array(sim[k], float) for k in ("x", "y", "customdata"))
    theory = np.asarray(queueing.wait_mdc(x / 3600, s, 4)) / 60
    assert np.mean(np.abs(y - theory) <= h + 1e-9) >= 0.75


def test_reference_waits_agree_with_each_other():
    # Erlang C's wait is C·S / (c (1 − ρ)); Allen-Cunneen at cv 1 is the exact M/M/c, at cv 0 half of it.
    rho, s, c = 0.8, 180.0, 4
    lam = rho * c / s
    pw, mmc = float(queueing.erlang_c(lam, s, c)), float(queueing.wait_mmc(lam, s, c))
    assert mmc == pytest.approx(pw * s / (c * (1 - rho)))
    assert float(queueing.wait_mgc(lam, s, c, 1.0)) == pytest.approx(mmc)
    assert float(queueing.wait_mgc(lam, s, c, 0.0)) == pytest.approx(mmc / 2)
    text = arrivals.reference_waits(rho, s, c)
    assert f"probability of waiting (Erlang C) {number(pw)}" in text
    assert f"mean wait, M/M/4 (exact): {number(mmc, 4)} s" in text
