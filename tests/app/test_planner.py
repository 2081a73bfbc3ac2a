"""Lesson 07 (vtsmodel.app.lessons.planner: the answers, the view, the page and its files) without a browser: the page follows the planner's numbers.

Every expectation is computed here with :mod:`vtsmodel.plan` and the report's figure builders
for the same answers and workload; none is copied from a run of the page.
"""

from __future__ import annotations

import json
import math

import pytest

from vtsmodel import plan
from vtsmodel.app import report
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.lessons import configurations as cfg
from vtsmodel.app.lessons import lesson_module, sensitivity
from vtsmodel.app.lessons import planner as P
from vtsmodel.app.lessons.start import LESSON_LIST
from vtsmodel.app.scenarios import ScenarioSheet
from vtsmodel.app.text import number
from vtsmodel.hourly import read_hourly_workload

from .uploads import browser_upload

EXAMPLE = P.EXAMPLE_WORKLOAD


def page(**values) -> P.PlannerPage:
    return P.PlannerPage(defer_tornado=False, report=report.report_bytes, **values)


def evaluated(answers: plan.Answers, workload=None):
    p = plan.Plan(answers, workload=workload)
    vts = plan.vts_plan(p)
    return p, vts, plan.library_plan(p), plan.sensitivity(p, configuration=vts.closest.config)


def same_data(shown: dict, spec: dict) -> None:
    """The traces a pane shows are those of the figure the report draws (:mod:`vtsmodel.app.figures.plan`)."""
    want, data = spec["data"], shown["data"]
    if len(data) == len(want) + 1:  # the page's configurations: the recommended (or closest) point after them
        assert data[-1]["name"].startswith(("recommended: ", "closest: ")), data[-1]["name"]
        data = data[:-1]
    assert [t.get("name") for t in data] == [t.get("name") for t in want]
    for got, exp in zip(data, want, strict=True):
        for axis in ("x", "y", "base"):
            assert got.get(axis) == exp.get(axis), (exp.get("name"), axis)


def shows(pg: P.PlannerPage, answers: plan.Answers, workload=None) -> None:
    """The page's readouts, binding sentence and figures equal the planner's for ``answers``."""
    p, vts, lib, sens = evaluated(answers, workload)
    best = vts.closest
    r = pg.panel.readout_values
    assert r["recommended"] == (
        best.config.label if vts.recommended else f"none (closest: {best.config.label})"
    )
    for c in best.checks:
        assert r[c.label] == cfg.check_readout(c)
    assert r["time at peak"] == f"{number(best.hours_at_peak)} h"
    assert r["tape library"] == f"{lib.drives} × {P.INPUTS['library_drive'].label_of(lib.drive)}"
    assert r["tape library, governs"] == lib.governs
    assert pg.panel.view.binding == cfg.binding_sentence(vts)
    same_data(pg.panel.figure("configurations"), plan_figures.configurations_spec(vts, targets=False))
    same_data(pg.panel.figure("day"), plan_figures.day_spec(best))
    same_data(pg.panel.figure("tornado"), plan_figures.tornado_spec(sensitivity.moving_rows(sens)))


# --- the contract ------------------------------------------------------------------------------


def test_contract():
    assert lesson_module("07") is P and P.LESSON_ID == "07" and P.TITLE
    assert P.NOTEBOOK == "07_plan_a_system.ipynb" and any(n == P.NOTEBOOK for n, _q in LESSON_LIST)
    assert set(P.SCENARIO) == set(plan.answer_inputs()) | set(P.SWITCHES)
    # a switch for every answer that may be left empty
    assert set(P.SWITCHES.values()) == {k for k, inp in plan.answer_inputs().items() if inp.default is None}
    a = plan.Answers(write_gb_per_day=1500, cf=3.0)
    _p, vts, lib, _s = evaluated(a)
    out = P.scenario_outputs(write_gb_per_day=1500, cf=3.0)
    rec = vts.recommended
    assert out["recommended cache [GB]"] == rec.config.tvc_gb
    assert out["recommended feature (0 base, 1 EHPO, 2 PAF) [-]"] == plan.FEATURE_ORDER.index(
        rec.config.feature
    )
    assert out["recommended drives [-]"] == rec.config.drives
    for c in rec.checks:
        assert out[f"margin, {c.label} [{c.unit}]"] == pytest.approx(c.margin)
    assert out["library drives [-]"] == lib.drives
    assert set(P.scenario_view().figures) == {"configurations", "day", "tornado", "capacity"}
    with pytest.raises(ValueError, match=r"cf=0.4 is outside the valid range \[0.5, 6\]"):
        P.scenario_outputs(cf=0.4)
    with pytest.raises(ValueError, match=r"write_gb_per_day=60000 is outside the valid range \[0, 50,?000\]"):
        P.scenario_outputs(write_gb_per_day=60000)


def test_no_recommendation_gives_nan_outputs():
    out = P.scenario_outputs(write_gb_per_day=20000)  # far beyond any VTS B18
    assert math.isnan(out["recommended cache [GB]"]) and out["library drives [-]"] >= 1


def test_the_page_starts_at_the_planners_defaults_on_its_sliders():
    pg = page()
    assert P.answers_of(pg.panel.values) == plan.Answers()
    for key, c in pg.panel.controls.items():
        if hasattr(c, "step") and hasattr(c, "min"):
            k = (c.value - c.min) / c.step
            assert k == pytest.approx(round(k), abs=1e-9), f"{key}: default {c.value} off its step grid"


def test_the_sheet_and_the_panel_accept_the_same_values():
    sheet = ScenarioSheet(P)
    pg = page()
    for key in ("cf", "write_gb_per_day", "recall_target_s", "virtual_drives_needed"):
        inp = P.INPUTS[key]
        for value, ok in ((inp.hi, True), (inp.hi + (inp.step or 1), False)):
            try:
                sheet.set_values(0, **{key: value})
                sheet_ok = True
            except ValueError:
                sheet_ok = False
            try:
                pg.panel.set(**{key: value})
                panel_ok = True
            except ValueError:
                panel_ok = False
            assert sheet_ok == panel_ok == ok, (key, value)
    sheet.set_values(0, library_drive="LTO9", recalls_given="yes", recalls_per_hour=30)
    answers = P.answers_of(sheet.values(0))
    assert answers.recalls_per_hour == 30 and answers.library_drive == "LTO9"
    assert sheet.outputs(0)["library drives [-]"] == plan.library_plan(plan.Plan(answers)).drives


# --- the panel follows the core -----------------------------------------------------------------


def test_the_panel_follows_the_planner_for_a_changed_answer():
    pg = page()
    shows(pg, plan.Answers())
    pg.panel.set(write_gb_per_day=1500.0, cf=3.0, recall_target_s=400.0)
    shows(pg, plan.Answers(write_gb_per_day=1500.0, cf=3.0, recall_target_s=400.0))
    pg.panel.set(efficiency_given=True, drive_efficiency=0.5, recalls_given=True, recalls_per_hour=40.0)
    shows(pg, plan.Answers(write_gb_per_day=1500.0, cf=3.0, recall_target_s=400.0, drive_efficiency=0.5,
                           recalls_per_hour=40.0))  # fmt: skip


def test_a_change_of_the_library_drive_evaluates_the_library_only(monkeypatch):
    pg = page()
    calls = []
    monkeypatch.setattr(P.plan, "vts_plan", lambda *a, **k: calls.append(1))
    pg.panel.set(library_drive="LTO8")
    assert not calls
    assert pg.panel.readout_values["tape library"].endswith(P.INPUTS["library_drive"].label_of("LTO8"))


def test_switches_grey_out_the_sliders_they_turn_off():
    pg = page()
    c = pg.panel.controls
    assert c["recalls_per_hour"].disabled and c["drive_efficiency"].disabled
    pg.panel.set(recalls_given=True, efficiency_given=True)
    assert not c["recalls_per_hour"].disabled and not c["drive_efficiency"].disabled


# --- the hourly workload: upload, example, clear ---------------------------------------------------


def test_uploading_the_example_evaluates_it():
    pg = page()
    browser_upload(pg.upload, EXAMPLE.name, EXAMPLE.read_bytes())
    wl = read_hourly_workload(EXAMPLE)
    assert "evaluating <b>example_hourly_workload.csv</b> (24 h)" in pg.status.value
    assert pg.upload.received == 1  # handled: the picker clears its note, the same file can come again
    shows(pg, plan.Answers(), wl)
    assert pg.panel.readout_values["day evaluated"] == "example_hourly_workload (24 h)"
    assert all(pg.panel.controls[k].disabled for k in P.REPLACED_BY_WORKLOAD)
    assert pg.panel.controls["read_hit"].disabled  # the file's read-hit and recall mounts give it
    pg.clear_workload()
    assert pg.workload is None and not pg.panel.controls["write_gb_per_day"].disabled
    shows(pg, plan.Answers())
    pg.use_example()
    assert "illustrative, not measured" in pg.status.value
    shows(pg, plan.Answers(), wl)


@pytest.mark.parametrize(
    ("edit", "line"),
    [((b"\n3,250000,", b"\n3,-250000,"), "line 13"), ((b"\n5,250000,", b"\n9,250000,"), "line 15")],
)
def test_a_bad_workload_is_rejected_naming_the_line_and_changes_nothing(edit, line):
    pg = page()
    before = pg.panel.readout_values
    bad = EXAMPLE.read_bytes().replace(*edit, 1)
    browser_upload(pg.upload, "day.csv", bad)
    with pytest.raises(ValueError) as err:
        read_hourly_workload(bad)
    assert "vtsmodel-plan-failed" in pg.status.value and line in pg.status.value
    assert P.html.escape(str(err.value)) in pg.status.value
    assert pg.workload is None and pg.panel.readout_values == before


def test_a_file_too_large_is_refused_before_it_is_read():
    pg = page()
    browser_upload(pg.upload, "huge.csv", b"#" * (P.MAX_FILE_BYTES + 1))
    assert "huge.csv</b> is 1,000,001 bytes; this page reads files up to 1,000,000 bytes" in pg.status.value
    assert pg.workload is None


# --- the plan file and the report ------------------------------------------------------------------


def test_plan_save_and_load_round_trip_through_the_page(monkeypatch):
    pg = page()
    pg.use_example()
    pg.panel.set(
        cf=3.0, recall_target_s=900.0, library_drive="LTO9", efficiency_given=True, drive_efficiency=0.6
    )
    sent = {}
    monkeypatch.setattr(
        pg.files.downloader, "send_file", lambda name, data, fmt: sent.update(n=name, d=data) or name
    )
    assert pg.save() == "plan.json" and "downloaded <b>plan.json</b>" in pg.status.value
    doc = json.loads(sent["d"])
    assert doc["answers"] == P.answers_of(pg.panel.values).to_dict() and doc["workload"]["columns"]

    other = page()
    browser_upload(other.plan_upload, "plan.json", sent["d"])
    assert "loaded <b>plan.json</b>" in other.status.value
    assert other.panel.values == pg.panel.values
    assert other.panel.readout_values == pg.panel.readout_values
    shows(other, P.answers_of(pg.panel.values), read_hourly_workload(EXAMPLE))


def test_the_typed_name_names_the_plan_file_the_report_and_its_title(monkeypatch):
    pg = page()
    pg.name_box.value = "  Nightly   batch, site A "
    sent = {}
    monkeypatch.setattr(
        pg.files.downloader, "send_file", lambda name, data, fmt: sent.update({name: data}) or name
    )
    saved = pg.save()
    assert json.loads(sent[saved])["name"] == "Nightly batch, site A"
    report_name = pg.download_report("html")
    assert (
        saved.startswith("Nightly")
        and report_name.startswith("Nightly")
        and report_name.endswith("_report.html")
    )
    assert "<h1>Nightly batch, site A</h1>" in sent[report_name].decode("utf-8")
    other = page()
    browser_upload(other.plan_upload, saved, sent[saved])
    assert other.name_box.value == "Nightly batch, site A"
    other.name_box.value = "   "
    assert other.name == "plan"  # an empty box names the plan "plan"


def test_a_saved_plan_holds_the_answers_without_float_noise(monkeypatch):
    pg = page()
    pg.panel.set(volume_mb=800.0000000000001, cf=2.4000000000000004)  # what a slider's steps leave
    sent = {}
    monkeypatch.setattr(pg.files.downloader, "send_file", lambda name, data, fmt: sent.update(d=data) or name)
    pg.save()
    text = sent["d"].decode("utf-8") if isinstance(sent["d"], bytes) else sent["d"]
    assert '"volume_mb": 800.0,' in text and '"cf": 2.4,' in text and "0000000" not in text


def test_a_plan_the_page_cannot_show_changes_nothing():
    pg = page()
    before = pg.panel.values
    p = plan.Plan(plan.Answers(write_gb_per_day=80_000))  # valid for the planner, beyond the page's slider
    browser_upload(pg.plan_upload, "big.json", plan.plan_to_json(p).encode())
    assert (
        "write_gb_per_day=80000 is outside the valid range" in pg.status.value and pg.panel.values == before
    )
    browser_upload(pg.plan_upload, "broken.json", b'{"schema": "vtsmodel-plan", "version": 1, "answers": {')
    assert "broken.json is not valid JSON" in pg.status.value and pg.panel.values == before


def test_a_plan_that_references_its_workload_file_asks_for_the_upload(tmp_path):
    doc = plan.plan_to_dict(plan.Plan(plan.Answers(cf=2.0)))
    doc["workload"] = {"file": "day.csv"}
    pg = page()
    browser_upload(pg.plan_upload, "ref.json", json.dumps(doc).encode())
    assert pg.panel.values["cf"] == 2.0 and pg.workload is None
    assert "references the workload file <b>day.csv</b>" in pg.status.value


def test_the_report_downloads_as_offline_html(monkeypatch):
    pg = page()
    pg.panel.set(write_gb_per_day=1500.0)
    sent = {}
    monkeypatch.setattr(
        pg.files.downloader, "send_file", lambda name, data, fmt: sent.update(n=name, d=data, f=fmt) or name
    )
    assert pg.download_report("html") == "plan_report.html"
    page_html = sent["d"].decode("utf-8")
    assert page_html.startswith("<!DOCTYPE html>") and "<script src=" not in page_html
    _p, vts, lib, _s = evaluated(plan.Answers(write_gb_per_day=1500.0))
    assert P.html.escape(vts.headline()) in page_html and P.html.escape(lib.headline()) in page_html
    # its tornado is the page's: only the inputs that move an answer (every bar labelled)
    sens = evaluated(plan.Answers(write_gb_per_day=1500.0))[3]
    script = page_html[page_html.rindex('"fig-tornado"') :]
    script = script[: script.index("</script>")]
    for r in sens.rows:
        moves = any(x.driver == r.driver and x.swing > 0 for x in sens.rows)
        assert (f'"{r.driver}"' in script) == moves, r.driver
    assert f"downloaded <b>plan_report.html</b> ({len(sent['d']):,} bytes)" in pg.status.value


@pytest.mark.slow
def test_the_report_downloads_as_pdf(monkeypatch):
    pg = page()
    sent = {}
    monkeypatch.setattr(
        pg.files.downloader, "send_file", lambda name, data, fmt: sent.update(d=data, f=fmt) or name
    )
    assert pg.download_report("pdf") == "plan_report.pdf"
    assert sent["f"] == "pdf" and sent["d"].startswith(b"%PDF") and len(sent["d"]) > 20_000


def test_a_failed_report_is_said_in_the_status_line(monkeypatch):
    pg = page()
    monkeypatch.setattr(pg, "report", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no browser")))
    assert pg.download_report("pdf") == "" and "report failed: no browser" in pg.status.value


# --- the notebook's numbers ------------------------------------------------------------------------


def test_the_notebooks_numbers_are_the_pages():
    text = P.plan_numbers()
    view = P.scenario_view()
    assert f"recommended: {view.readouts['recommended']}" in text and f"binding: {view.binding}" in text
    assert "day evaluated: example_hourly_workload (24 h)" in P.example_numbers()
    assert "<table" in P.assumptions_html() and "<table" in P.answers_table_html()


def test_the_caption_says_what_is_derived_and_what_the_workload_replaces():
    pg = page()
    caption = pg.panel.caption()
    assert (
        "recalls per hour [1/h] = derived" in caption
        and "drive efficiency assumed [-] = from the access" in caption
    )
    pg.use_example()
    caption = pg.panel.caption()
    assert "data written per day [GB] = replaced by the workload" in caption
    assert "day evaluated = example_hourly_workload" in caption


def test_the_page_figures_place_their_title_and_legend_in_pixels_that_an_export_keeps():
    """An export adds its caption's height (:func:`vtsmodel.app.export.export_spec`): the title and legend stay put."""
    from vtsmodel.app.export import export_spec

    view = P.scenario_view()
    for name in ("configurations", "day", "tornado"):
        spec = view.figures[name].spec()
        captioned = export_spec(spec, "a caption\n" * 12)
        for fig in (spec, captioned):
            lay = fig["layout"]
            title, legend, m = lay["title"], lay["legend"], lay["margin"]
            assert (title["y"], title["yref"], title["yanchor"], title["pad"]["t"]) == (
                1,
                "container",
                "top",
                10,
            )
            plot_h = lay["height"] - m["t"] - m["b"]
            # the legend's top in pixels under the figure's top edge: under the title, whatever the height
            assert legend["yref"] == "paper" and legend["yanchor"] == "top", name
            assert m["t"] - (legend["y"] - 1) * plot_h == pytest.approx(plan_figures.LEGEND_TOP_PX), name
        assert captioned["layout"]["height"] > spec["layout"]["height"]


def test_slanted_names_get_their_room_under_the_plot():
    p, vts, _lib, _sens = evaluated(plan.Answers())
    spec = plan_figures.configurations_spec(vts)
    longest = max(len(x) for x in spec["data"][0]["x"])
    lay = spec["layout"]
    # 0.6 of a 14 px font a character, at 45 degrees, then the legend's two rows
    assert lay["margin"]["b"] >= longest * 0.6 * 14 * math.sqrt(0.5) + 2 * plan_figures.LEGEND_ROW_PX
    plot_h = lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
    assert -lay["legend"]["y"] * plot_h == pytest.approx(plan_figures.slanted_px(spec["data"][0]["x"]))


def test_a_move_sends_the_configurations_figure_from_the_vts_plan_before_the_library_is_planned(monkeypatch):
    """The page's lead (lead_plan): the configurations' figure goes out once the VTS plan is evaluated,
    before the library's plan, and is the figure the full view draws (sent once)."""
    p = page()
    sent, libraries = [], []
    for key, pane in p.panel.plots.items():
        pane.widget.observe(lambda ch, key=key: sent.append(key), names=["base", "moving"])
    real = plan.library_plan
    monkeypatch.setattr(plan, "library_plan", lambda *a, **k: libraries.append(list(sent)) or real(*a, **k))
    p.panel.set(write_gb_per_day=p.panel.values["write_gb_per_day"] * 1.1)
    assert len(libraries) == 1  # one evaluation of the library
    assert set(libraries[0]) == {"configurations"}  # the configurations were out before it ran
    assert "configurations" not in sent[len(libraries[0]) :]  # and not sent again by the view
    view = P.STAGE.show(p.panel.values)  # the stage's own view of the setting
    same_data(p.panel.figure("configurations"), view.figures["configurations"].spec())
