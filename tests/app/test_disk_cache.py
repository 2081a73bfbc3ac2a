"""Lesson 06 (vtsmodel.app.lessons.disk_cache) without a browser: set inputs, the plots and readouts follow the model.

The statements of ibm-ds8000-tpf the lesson rests on are calibrations: the staging load is
solved for the 19 % drop, the copy load for a response between "more than doubled" and
"less than 5 ms". The tests below check that the lesson shows each calibration where it
says, and call it so; they are no evidence for the models (the ledger's status).
"""

import math

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel import ds8000 as dc
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import disk_cache as L
from vtsmodel.app.lessons import flashcopy, lesson_module, ride_through
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.app.text import number, percent

FACTS = data.load("ds8000_facts")
SIX = FACTS.value("error_handling_time_max")
PANELS = {
    "staging": (L.staging_panel, L._STAGING),
    "copy": (L.copy_panel, L._COPY),
    "ride": (L.ride_panel, L._RIDE),
}


def mark(spec, name):
    hits = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert hits, f"no mark {name!r}: {[s.get('name') for s in spec['layout'].get('shapes', [])]}"
    return hits[0]


def xy(trace):
    return np.array(trace["x"], float), np.array(trace["y"], float)


# --- the contract and the inputs -----------------------------------------------------------


def test_contract():
    assert lesson_module("06") is L
    assert L.NOTEBOOK == "06_disk_cache_staging.ipynb" and L.TITLE and L.LESSON_ID == "06"
    assert set(L.SCENARIO) == set(L.INPUTS) == {k for _f, keys in PANELS.values() for k in keys}
    out = L.scenario_outputs()
    assert all(k.endswith("]") for k in out)
    assert out["response, adaptive stage [ms]"] == pytest.approx(
        float(dc.disk_response_ms(119.0, staged_kb=21.0))
    )
    assert out["response, track stage [ms]"] == pytest.approx(
        float(dc.disk_response_ms(119.0, staged_kb=57.0))
    )
    assert out["load calibrated to the 19 % [IO/s]"] == pytest.approx(dc.calibrate_staging_load())
    assert out["copy load (calibrated) [-]"] == pytest.approx(dc.calibrate_copy_load())
    assert out["host response [ms]"] == pytest.approx(dc.copy_response_target_ms())
    assert out["ride-through [s]"] == pytest.approx(0.7 * 20000 / 2000)
    assert out["blocks needed for 6 s [-]"] == pytest.approx(float(dc.resources_for_pause(2000.0, SIX)))
    view = L.scenario_view()
    assert set(view.figures) == {"response", "modes", "copy", "ride"}
    for plot in view.figures.values():
        assert plot.figure().layout.height  # each composes into a valid plotly figure
    assert not view.notes


def test_bad_scenario_input_is_rejected_with_its_name_and_range():
    with pytest.raises(ValueError, match=r"io_per_s=300 is outside the valid range \[0, 250\]"):
        L.scenario_outputs(io_per_s=300)
    with pytest.raises(ValueError, match=r"host_io_per_s=400000 is outside the valid range \[0, 250000\]"):
        L.scenario_outputs(host_io_per_s=400000)  # issue 13: one range, the slider's
    with pytest.raises(ValueError, match=r"resources=1500.5 must be a whole number"):
        L.scenario_outputs(resources=1500.5)
    with pytest.raises(ValueError, match="staged_kb=40 must be smaller than track_kb=30"):
        L.scenario_outputs(staged_kb=40, track_kb=30)
    with pytest.raises(ValueError, match="unknown scenario input"):
        L.scenario_outputs(colour="red")


def test_every_default_lies_on_its_sliders_step_grid():
    for key, inp in L.INPUTS.items():
        if inp.kind in ("number", "int"):
            k = (inp.default - inp.lo) / inp.step
            assert math.isclose(k, round(k), abs_tol=1e-9), key
            assert inp.lo <= inp.default <= inp.hi, key


@pytest.mark.parametrize("name", list(PANELS))
def test_sheet_and_panel_accept_the_same_values(name):
    factory, keys = PANELS[name]
    panel, sheet = factory(), ScenarioSheet(L)
    sheet.set_values(0, staged_kb=1.0)  # below every track stage (the pair is checked together)
    if "staged_kb" in panel.controls:
        panel.set(staged_kb=1.0)
    for key in (k for k in keys if k != "staged_kb"):
        inp, ctl = L.INPUTS[key], panel.controls[key]
        if inp.kind == "flag":
            continue
        assert (ctl.min, ctl.max, ctl.step) == (inp.lo, inp.hi, inp.step), key
        for ok in (inp.lo, inp.hi):
            sheet.set_values(0, **{key: ok})
        for bad in (inp.lo - inp.step, inp.hi + inp.step):
            with pytest.raises(ValueError, match=key):
                sheet.set_values(0, **{key: bad})
            with pytest.raises(ValueError, match=key):
                panel.set(**{key: bad})
        sheet.set_values(0, **{key: inp.default})
    for ok in (1.0, 56.0) if "staged_kb" in keys else ():  # below the default track stage
        sheet.set_values(0, staged_kb=ok)
        panel.set(staged_kb=ok)
        assert not panel.last_error


def test_assumptions_are_named_so():
    # issue 14: the target's position between the bounds, the HDD timing and the utilisation
    # reading are project assumptions, each an input whose source says so
    for key in ("target_position", "positioning_ms", "media_mb_s", "utilisation_ref", "spatial_locality"):
        assert L.INPUTS[key].source.startswith("project assumption"), key
    assert L.INPUTS["target_position"].default == dc.COPY_TARGET_POSITION
    assert L.INPUTS["threshold"].default == FACTS.value("shutdown_threshold")


# --- staging -------------------------------------------------------------------------------


def test_staging_panel_follows_the_model():
    p = L.staging_panel()
    p.set(io_per_s=80.0, staged_kb=21.0, track_kb=57.0, spatial_locality=0.0)
    assert not p.last_error
    spec = p.figure("response")
    x, y = xy(trace_named(spec, "adaptive stage, 21 KB per miss"))
    np.testing.assert_allclose(y, dc.disk_response_ms(x, staged_kb=21.0), rtol=1e-12)
    x, y = xy(trace_named(spec, "track stage, 57 KB per miss"))
    np.testing.assert_allclose(y, dc.disk_response_ms(x, staged_kb=57.0), rtol=1e-12)
    r21, r57 = (
        float(dc.disk_response_ms(80.0, staged_kb=21.0)),
        float(dc.disk_response_ms(80.0, staged_kb=57.0)),
    )
    r = p.readout_values
    assert (
        r["response, adaptive stage"] == f"{number(r21)} ms"
        and r["response, track stage"] == f"{number(r57)} ms"
    )
    assert r["gain of the adaptive stage"] == percent(1 - r21 / r57)
    assert r["utilisation, track stage"] == number(dc.disk_utilisation(80.0, staged_kb=57.0))
    m = mark(spec, "this load, adaptive stage")
    assert (m["xanchor"], m["yanchor"]) == (80.0, pytest.approx(r21))
    assert mark(spec, "this load, track stage")["yanchor"] == pytest.approx(r57)


def test_moving_the_load_moves_only_marks():
    # The benchmark's main slider: a move sends the response plot's marks, nothing else.
    p = L.staging_panel()
    sent = {k: [] for k in p.plots}
    for k, pane in p.plots.items():
        pane.widget.observe(lambda ch, _k=k: sent[_k].append(ch["name"]), names=["base", "moving"])
    base = p.plots["response"].widget.base
    p.controls["io_per_s"].value = 140.0  # as a person moving the slider
    assert sent == {"response": ["moving"], "modes": []}
    assert p.plots["response"].widget.base is base
    assert mark(p.figure("response"), "this load, adaptive stage")["xanchor"] == 140.0
    # the calibration reaches the view through the evaluation, not in layout.meta (plotly replots every trace for it)
    assert "meta" not in p.figure("response")["layout"] and "meta" not in p.figure("modes")["layout"]
    p.set(spatial_locality=0.2)  # a slow input of both plots
    assert "base" in sent["response"] and "moving" in sent["modes"]


def test_the_calibrated_19_percent_is_marked_and_called_a_calibration():
    # ibm-ds8000-tpf, Adaptive Record Caching: "reduced the HDD response time by 19%": the
    # staging load is calibrated to it (ledger ds8k_arc_19pct: calibrated), not reproduced.
    p = L.staging_panel()
    pts = trace_named(p.figure("response"), "calibrated to the measured 19 % (21 vs 57 KB)")
    lam = dc.calibrate_staging_load()
    assert pts["x"] == pytest.approx([lam, lam])
    assert 1 - pts["y"][0] / pts["y"][1] == pytest.approx(
        FACTS.value("arc_hdd_read_response_reduction"), abs=1e-9
    )
    assert "Adaptive Record Caching" in pts["hovertext"][0]
    u = float(dc.disk_utilisation(lam, staged_kb=57.0))
    assert p.readout_values["load calibrated to the 19 %"] == f"{number(lam)} IO/s"
    assert p.readout_values["track utilisation at that load"] == number(u)
    assert not any("reproduc" in k.lower() or "reproduc" in v.lower() for k, v in p.readout_values.items())
    p.set(positioning_ms=1.0)  # the gain exceeds 19 % on an idle HDD: no load is calibrated
    assert p.readout_values["load calibrated to the 19 %"].startswith("none")
    assert not any((t.get("name") or "").startswith("calibrated") for t in p.figure("response")["data"])


def test_spatial_locality_moves_track_staging_and_the_modes():
    p = L.staging_panel()
    p.set(io_per_s=100.0, spatial_locality=0.3, temporal_hit=0.2)
    x, y = xy(trace_named(p.figure("response"), "track stage, 57 KB per miss"))
    np.testing.assert_allclose(y, dc.disk_response_ms(x * 0.7, staged_kb=57.0), rtol=1e-12)
    modes = p.figure("modes")
    loc = np.array(modes["data"][0]["x"], float)
    m = dc.staging_modes(1.0, spatial_locality=loc, temporal_hit=0.2)
    by_axis = {(t["name"], t.get("yaxis", "y")): np.array(t["y"], float) for t in modes["data"]}
    np.testing.assert_allclose(by_axis["track", "y"], m["track"]["hit_ratio"])
    np.testing.assert_allclose(by_axis["adaptive", "y2"], m["adaptive"]["staged_kb"])
    busy = (1 - m["adaptive"]["hit_ratio"]) * dc.disk_service_ms(m["adaptive"]["staged_kb"])
    np.testing.assert_allclose(by_axis["adaptive", "y3"], busy)
    # adaptive is never busier than the better of record and track (ledger ds8k_adaptive_wide_range)
    assert np.all(
        by_axis["adaptive", "y3"] <= np.minimum(by_axis["record", "y3"], by_axis["track", "y3"]) + 1e-12
    )
    assert [s["x0"] for s in modes["layout"]["shapes"]] == [0.3, 0.3, 0.3]


def test_a_saturated_load_reads_saturated_and_shows_no_point():
    p = L.staging_panel()
    p.set(io_per_s=250.0)
    r = p.readout_values
    assert r["response, adaptive stage"] == r["response, track stage"] == "saturated (no steady state)"
    assert r["gain of the adaptive stage"] == "n/a (saturated)" and not p.last_error
    spec = p.figure("response")
    assert not mark(spec, "this load, adaptive stage")["visible"]
    assert "saturated" in spec["layout"]["annotations"][-1]["text"] and "saturates" in p.view.binding


def test_an_invalid_staging_combination_keeps_the_last_view():
    p = L.staging_panel()
    p.set(staged_kb=56.0, track_kb=40.0)
    assert "staged_kb=56 must be smaller than track_kb=40" in p.last_error
    assert (
        p.readout_values["response, adaptive stage"]
        == f"{number(dc.disk_response_ms(119.0, staged_kb=21.0))} ms"
    )


# --- what a person reads -----------------------------------------------------------------


def _settings():
    """Corners of every panel's inputs: their ends, and the ends of the slow inputs."""
    lo = {k: i.lo for k, i in L.INPUTS.items() if i.kind in ("number", "int")}
    hi = {k: i.hi for k, i in L.INPUTS.items() if i.kind in ("number", "int")}
    for k in lo:
        for v in (lo[k], hi[k]):
            yield {k: v}
    yield {"positioning_ms": 15.0, "media_mb_s": 20.0, "io_per_s": 60.0}
    yield {"positioning_ms": 0.5, "media_mb_s": 400.0, "spatial_locality": 0.9}
    yield {"utilisation_ref": 0.97, "target_position": 0.95, "host_io_per_s": 160000.0}
    yield {"arrival_per_s": 10000.0, "resources": 1000, "pause_s": 20.0, "threshold": 0.1}
    yield {"copy_on": False, "host_io_per_s": 250000.0}


@pytest.mark.parametrize("values", list(_settings()), ids=str)
def test_every_mark_stays_inside_its_chart_and_every_number_is_plain(values):
    # issue 15: "a marker that leaves the chart (lesson 06)"; "1.630e+5" must read 163,000 IO/s
    if values.get("staged_kb", 0) >= 56 or values.get("track_kb", 99) <= 21:
        values = {**values, "staged_kb": 4.0}
    view = L.scenario_view(**values)
    for key, plot in view.figures.items():
        spec = plot.spec()
        lay = spec["layout"]
        for s in lay.get("shapes", []):
            if s.get("xsizemode") == "pixel" and s.get("visible", True):
                xr = lay[s["xref"].replace("x", "xaxis")]["range"]
                yr = lay[s["yref"].replace("y", "yaxis")]["range"]
                assert xr[0] < s["xanchor"] < xr[1] and yr[0] < s["yanchor"] < yr[1], (key, s["name"])
        assert lay["legend"].get("y", 1) >= 0, key  # inside the plot or above it, never over the caption
        text = " ".join(
            [*(t.get("name") or "" for t in spec["data"]), *(a["text"] for a in lay.get("annotations", []))]
        )
        assert "e+" not in text and "$" not in text, key
    for label, shown in view.readouts.items():
        assert "e+" not in shown and "e-" not in shown and "nan" not in shown.lower(), (label, shown)


def test_readouts_carry_their_units():
    r = L.scenario_view().readouts
    assert r["response, adaptive stage"].endswith(" ms") and r["saturation, no copy"].endswith(" IO/s")
    assert r["ride-through (before shutdown)"].endswith(" s") and r["copy load (calibrated)"].endswith(
        "of capacity"
    )


def test_export_html(export_dir):
    path = L.staging_panel().export("html")
    text = path.read_text()
    assert path.parent == export_dir and "ibm-ds8000-tpf" in text


# --- the statements behind the notebook's printed numbers (calibrations, not evidence) ------


def test_staging_numbers_are_calibrated_to_the_measured_19_percent():
    # "Adaptive record caching reduced the HDD response time by 19% compared to track caching";
    # "decreased from 57 KB to 21 KB": the load is solved for the 19 % with these two sizes.
    lam = dc.calibrate_staging_load()
    assert float(dc.staging_gain(lam)) == pytest.approx(0.19, abs=5e-4)
    assert float(dc.staging_gain(lam)) == float(dc.staging_gain(lam, staged_kb=21.0, track_kb=57.0))
    gains = [float(dc.staging_gain(x)) for x in sorted((*L.GAIN_LOADS, lam))]
    assert all(np.diff(gains) > 0)  # the gain grows with load
    text = L.staging_numbers()
    assert f"load calibrated to the measured 19 %: {number(lam, 4)} read misses per second per HDD" in text
    assert f"gain at {number(lam, 4)} read misses/s: 19 %" in text


def test_notebook_numbers_are_labelled_lines():
    for text in (L.staging_numbers(), flashcopy.copy_numbers(), ride_through.ride_numbers()):
        for line in text.splitlines():
            assert ": " in line and "e+" not in line, line
