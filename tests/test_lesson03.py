"""Tests of lesson 03's panels and contract, without a browser: controls in, figures out."""

import numpy as np
import pytest

from vtsmodel import queueing, recall, robot
from vtsmodel.app.lessons import recall as L


def test_contract():
    assert L.NOTEBOOK == "03_recall_queue_mount_time.ipynb"
    out = L.scenario_outputs()
    assert out["Drive busy per recall [s]"] == pytest.approx(float(recall.recall_service_s(250.0)))
    view = L.scenario_view()
    assert set(view.figures) == {"parts", "queue", "arrivals", "robot"}
    with pytest.raises(ValueError, match="drive"):
        L.scenario_outputs(drive="LTO9")


def test_parts_panel_follows_sliders():
    p = L.parts_panel()
    p.set(robot_s=40.0, volume_mb=800.0)
    bars = {t.name: t for t in p.figure_widgets["parts"].data}
    parts = recall.recall_parts(800.0, robot_s=40.0)
    assert bars["robot fetch"].x[-1] == pytest.approx(40.0)
    assert bars["read volume"].x[-1] == pytest.approx(float(parts["read"]))
    ready = float(recall.recall_ready_s(800.0, robot_s=40.0))
    assert p.readout_values["Time until ready"] == f"{ready / 60:.2f} min"


def test_queue_panel_matches_model():
    q = L.queue_panel()
    q.set(drives=3, cf=2.0, drive="3590E")
    fw = q.figure_widgets["queue"]
    line = next(t for t in fw.data if t.name == "800 MB")
    expect = recall.recall_response_s(np.asarray(line.x), 800.0, drives=3, cf=2.0, drive="3590E") / 60
    np.testing.assert_allclose(line.y, expect)


def test_arrivals_panel_theory_and_drives():
    a = L.arrivals_panel()
    a.set(recalls_per_hour=60.0, volume_mb=250.0, drives=4)
    s = float(recall.recall_service_s(250.0))
    lam = 60.0 / 3600
    assert a.readout_values["Utilisation"] == f"{lam * s / 4:.2f}"
    wq = float(queueing.wait_mdc(lam, s, 4))
    point = next(t for t in a.figure_widgets["arrivals"].data if t.name == "this load")
    assert point.y[0] == pytest.approx(wq / 60)
    need = queueing.recall_drives_needed(lam, s, 5 * 60.0, 0.95, service_cv=0.0)
    assert a.readout_values["Drives for the p95 target"] == str(need)
    # overload: a clear message, no error, simulation band still drawn
    a.set(recalls_per_hour=110.0)
    assert a.last_error == ""
    assert "grows" in a.view.binding
    assert a.readout_values["Mean wait (theory)"].startswith("∞")


def test_arrivals_simulation_band_covers_theory():
    # The simulated points (20,000 recalls each) should mostly bracket the theory line.
    v = L.view_arrivals(drives=4)
    f = v.figures["arrivals"]
    sim = next(t for t in f.data if t.name == "simulation mean")
    s = float(recall.recall_service_s(250.0))
    rho = np.asarray(sim.x) * s / (3600 * 4)
    theory = np.asarray(queueing.wait_mdc(rho * 4 / s, s, 4)) / 60
    band = next(t for t in f.data if t.name == "simulation 95% CI")
    n = len(sim.x)
    upper = np.asarray(band.y[:n])
    lower = np.asarray(band.y[n:])[::-1]
    covered = np.mean((lower <= theory + 1e-9) & (theory <= upper + 1e-9))
    assert covered >= 0.75


def test_robot_panel_matches_stk_points():
    r = L.robot_panel()
    r.set(sessions=4)
    assert r.readout_values["Mount time, 4 sessions"] == f"{float(robot.mount_response_s(4)):.1f} s"
    stk = next(t for t in r.figure_widgets["robot"].data if t.name == "StorageTek")
    assert list(stk.y) == [28.0, 52.15]
    # the calibration holds the 52.15 s point whatever the time between mounts
    r.set(think_s=30.0)
    got = float(r.readout_values["Mount time, 4 sessions"].split()[0])
    assert got == pytest.approx(52.15, abs=0.06)


def test_check_best_case_in_two_to_three_minutes():
    # Sec. 3.4: a recall's best case is "approximately two to three minutes".
    text = L.check_best_case()
    for v in L.FIG6_SIZES:
        assert f"{v:g} MB: 3590B {float(recall.recall_ready_s(v)):.1f} s" in text


def test_reference_waits_and_robot_check():
    lam = 0.8 * 4 / 180
    assert L.reference_waits().startswith(f"{float(queueing.erlang_c(lam, 180, 4)):.3f} ")
    # stk-acs4400-cray: 28 s for a single session, "an average of 52.15 seconds" with several.
    assert L.check_robot() == str([round(float(t), 2) for t in robot.mount_response_s([1, 2, 4, 8])])


def test_check_best_case_names_the_statement_it_fails(monkeypatch):
    monkeypatch.setattr(L.recall, "recall_ready_s", lambda v, drive="3590B": 400.0)
    with pytest.raises(AssertionError, match=r"ibm-vts-b18-2000.*two to three minutes"):
        L.check_best_case()
