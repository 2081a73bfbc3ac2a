"""Lesson 03 (vtsmodel.app.lessons.recall: the contract and the Fig. 6 queue) without a browser."""

import math
import re

import numpy as np
import pytest

from vtsmodel import catalog, load, recall, robot
from vtsmodel.app.controls import control
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import lesson_module, parts
from vtsmodel.app.lessons import recall as L
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.app.text import number

STK = load("stk_facts")
PANELS = (L.parts_panel, L.queue_panel, L.arrivals_panel, L.robot_panel)


def mark(spec, name):
    """The operating point drawn as a shape named ``name``: (x, y)."""
    hits = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert hits, f"no mark {name!r}"
    return hits[0]["xanchor"], hits[0]["yanchor"]


def marks(spec):
    return [s for s in spec["layout"].get("shapes", []) if s.get("xsizemode") == "pixel"]


def minutes(seconds):
    return f"{number(seconds / 60.0)} min"


# --- the contract and the inputs ----------------------------------------------------------------


def test_contract():
    assert lesson_module("03") is L and L.LESSON_ID == "03" and L.TITLE
    assert L.NOTEBOOK == "03_recall_queue_mount_time.ipynb"
    assert set(L.SCENARIO) <= set(L.INPUTS)
    out = L.scenario_outputs()
    assert out["drive busy per recall [min]"] == pytest.approx(float(recall.recall_service_s(250.0)) / 60)
    assert out["recall response time, queue ahead [min]"] == pytest.approx(
        float(recall.recall_response_s(8, 250.0, drives=4)) / 60
    )
    assert out["mount response time, robot [s]"] == pytest.approx(float(robot.mount_response_s(4)))
    view = L.scenario_view()
    assert set(view.figures) == {"parts", "queue", "arrivals", "robot"}
    for plot in view.figures.values():
        assert plot.figure().layout.height  # each composes into a valid plotly figure
    with pytest.raises(ValueError, match=r"drive='turbo' is not valid; choose one of 'VTS B18, IBM 3590 B"):
        L.scenario_outputs(drive="turbo")
    with pytest.raises(ValueError, match=r"volume_mb=5000 is outside the valid range \[10, 4000\]"):
        L.scenario_outputs(volume_mb=5000)
    with pytest.raises(ValueError, match=r"drives=17 is outside the valid range"):
        L.scenario_outputs(drives=17)
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(colour="red")


def test_saturated_scenario_has_no_finite_wait():
    out = L.scenario_outputs(recalls_per_hour=200.0)  # rho = 200/3600 * 171.5 / 4 = 2.4
    assert out["utilisation [-]"] > 1
    assert math.isinf(out["mean wait for a drive [min]"]) and math.isinf(out["p95 wait for a drive [min]"])


def test_drive_choice_offers_the_catalog_after_the_papers_setting():
    # Issue 17: the recall panel's drive choice offers the catalog's drives, by family and generation.
    drive = L.INPUTS["drive"]
    assert drive.values[:2] == ("3590B", "3590E")
    assert drive.values[2:] == catalog.drive_names()
    assert drive.parse("drive", "LTO-9 (Ultrium 9)") == "LTO9"  # a sheet cell takes the label it shows
    out = L.scenario_outputs(drive="LTO9")
    assert out["recall ready, free drive [min]"] == pytest.approx(
        float(recall.recall_ready_s(250.0, drive="LTO9")) / 60
    )


def test_defaults_lie_on_their_slider_grid_and_controls_take_the_inputs_range():
    for key, inp in L.INPUTS.items():
        if inp.kind not in ("number", "int"):
            continue
        step = inp.step or 1
        k = (inp.default - inp.lo) / step
        assert k == pytest.approx(round(k), abs=1e-9), key
        c = control(inp)
        assert (c.min, c.max, c.value) == (inp.lo, inp.hi, inp.default), key


@pytest.mark.parametrize("key", L.SCENARIO)
def test_sheet_and_panel_accept_the_same_values(key):
    inp = L.INPUTS[key]
    panel = next(f() for f in PANELS if key in f().controls)
    sheet = ScenarioSheet(L)
    good = (inp.values[-1],) if inp.choices else (inp.lo, inp.hi)
    for value in good:
        sheet.set_values(0, **{key: value})
        panel.set(**{key: value})
        assert panel.values[key] == value and not panel.last_error
    bad = "no such drive" if inp.choices else inp.hi + (inp.step or 1)
    for target in (lambda v: sheet.set_values(0, **{key: v}), lambda v: panel.set(**{key: v})):
        with pytest.raises(ValueError, match=key):
            target(bad)


def test_readouts_are_plain_numbers_with_units():
    # Issue 15: never "2.30e+3" or "7.929e+04 s".
    settings = [(L.parts_panel, {"volume_mb": 4000.0, "drive": "STK3480"}),
                (L.queue_panel, {"queue_length": 200, "drives": 1}),
                (L.arrivals_panel, {"recalls_per_hour": 83.0}), (L.arrivals_panel, {"recalls_per_hour": 400.0}),
                (L.robot_panel, {"sessions": 32})]  # fmt: skip
    for factory, values in settings:
        p = factory()
        p.set(**values)
        for label, text in p.readout_values.items():
            assert not re.search(r"\d[eE][+-]?\d", text), (label, text)


# --- the Fig. 6 queue ---------------------------------------------------------------------------


def test_queue_panel_matches_the_model():
    p = L.queue_panel()
    p.set(drives=3, cf=2.0, drive="3590E", queue_length=10)
    spec = p.figure("queue")
    for v in parts.FIG6_SIZES:
        line = trace_named(spec, f"{number(v)} MB")
        expect = recall.recall_response_s(np.array(line["x"]), v, drives=3, cf=2.0, drive="3590E") / 60
        np.testing.assert_allclose(line["y"], expect)
        t = float(recall.recall_response_s(10, v, drives=3, cf=2.0, drive="3590E"))
        assert mark(spec, f"{number(v)} MB, 10 ahead") == (10, pytest.approx(t / 60))
        assert p.readout_values[f"recall response time, {number(v)} MB"] == minutes(t)
    assert spec["layout"]["xaxis"]["range"] == [-0.5, 40.5]
    p.set(queue_length=120)  # past 40 the axis widens once, to 200
    assert p.figure("queue")["layout"]["xaxis"]["range"] == [-0.5, 200.5]
