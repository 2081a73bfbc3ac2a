"""The planner page's library over the years (issue 29, item 6): its controls, figure and readouts are the plan's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vtsmodel import number, plan
from vtsmodel.app import report
from vtsmodel.app.lessons import planner as P

from .uploads import browser_upload

ARCHIVE = Path(__file__).resolve().parents[2] / "examples" / "archive_plan.json"


def page(**values) -> P.PlannerPage:
    return P.PlannerPage(defer_tornado=False, report=report.report_bytes, **values)


def test_growth_and_years_move_the_capacity_figure_and_the_readouts():
    pg = page()
    pg.panel.set(years=8, ingest_growth=0.5, stored_now_tb=2000.0, library="TS4300", library_drive="LTO9")
    lib = plan.library_plan(plan.Plan(P.answers_of(pg.panel.values)))
    y = lib.over_years
    fig = pg.panel.figure("capacity")
    assert fig["data"][0]["x"] == list(range(9))
    assert fig["data"][0]["y"] == [float(c) for c in y.archive.cartridges_onsite]
    r = pg.panel.readout_values
    assert (
        r["library, cartridges now → last year"]
        == f"{int(y.archive.cartridges[0]):,} → {int(y.archive.cartridges[-1]):,}"
    )
    assert r["library, drives now → last year"] == f"{int(y.years.drives[0])} → {int(y.years.drives[-1])}"
    assert r["tape library"].startswith(f"{lib.drives} × ")
    # a TS4300 holds 7 x 40 slots at most: 2,000 TB on 18 TB cartridges (112) growing 50 % a year outgrow it
    assert r["library, frames"] == "more than one IBM TS4300"
    assert "more than one IBM TS4300" in (pg.panel.view.headline or "")


def test_the_library_margins_give_whole_counts_exactly():
    # the default plan's SL8500 module: 1,441 usable slots less the cartridges read "1,320 slots" (3 digits)
    pg = page()
    y = plan.library_plan(plan.Plan(P.answers_of(pg.panel.values))).over_years
    slots = next(c for c in y.checks() if c.key == "slots")
    assert slots.margin == int(slots.margin) and slots.margin % 10  # a count not a multiple of ten
    assert pg.panel.readout_values[f"library margin, {slots.label}"] == f"{int(slots.margin):,} slots"


def test_a_switch_gives_an_answer_that_may_be_left_empty():
    pg = page()
    assert P.answers_of(pg.panel.values).price_cartridge is None
    assert "library, cost so far" not in pg.panel.readout_values  # no price: no cost
    pg.panel.set(price_cartridge_given=True, price_cartridge=90.0)
    a = P.answers_of(pg.panel.values)
    assert a.price_cartridge == 90.0 and a.price_drive is None
    cost = plan.library_plan(plan.Plan(a)).over_years.cost
    assert cost["items"] == ("cartridge",)
    assert pg.panel.readout_values["library, cost so far"].startswith(number(float(cost["cumulative"][-1])))
    assert (
        pg.panel.controls["price_cartridge"].disabled is False and pg.panel.controls["price_drive"].disabled
    )


def test_the_librarys_answers_survive_a_save_and_load_through_the_page():
    pg = page()
    pg.panel.set(library="Diamondback", years=7, copies=2, offsite_copies=1, robots_given=True, robots=2,
                 price_drive_given=True, price_drive=12000.0)  # fmt: skip
    saved = json.loads(plan.plan_to_json(pg.current_plan()))
    assert (
        saved["version"] == 2
        and saved["answers"]["library"] == "Diamondback"
        and saved["answers"]["robots"] == 2
    )
    other = page()
    browser_upload(other.plan_upload, "mine.json", json.dumps(saved).encode())
    assert P.answers_of(other.panel.values) == P.answers_of(pg.panel.values)


def test_a_plan_of_a_library_alone_is_refused_and_changes_nothing():
    pg = page(years=3)
    before = dict(pg.panel.values)
    browser_upload(pg.plan_upload, "archive_plan.json", ARCHIVE.read_bytes())
    assert "plans a tape library alone" in pg.status.value and "vtsmodel plan" in pg.status.value
    assert pg.panel.values == before


@pytest.mark.parametrize("drive", ["STK9940B"])
def test_a_drive_without_a_cartridge_capacity_empties_the_capacity_figure_and_says_why(drive):
    pg = page()
    pg.panel.set(library="none", library_drive=drive)
    fig = pg.panel.figure("capacity")
    assert not any(t.get("type") == "bar" for t in fig["data"])
    assert any("no cartridge capacity" in a.get("text", "") for a in fig["layout"].get("annotations", []))


def test_with_a_mount_log_the_page_shows_the_recall_target_by_replay():
    from vtsmodel.app.lessons.hit_curve import example_source

    # the 3592A's 300 GB cartridges: the example log's 2,280 volumes on several cartridges (on LTO-10's 30 TB
    # they share one, and no number of drives serves its bursts within the target: the plan says so)
    pg = page(library="none", library_drive="IBM3592A")
    pg.logs.use_example()
    lib = plan.library_plan(pg.current_plan())
    shown = pg.panel.readout_values["library, recall target by replay"]
    assert lib.replay is not None and shown.startswith(f"{lib.replay.drives} drive")
    assert f"analytic M/G/c count: {lib.replay.analytic_drives}" in shown
    assert pg.log is example_source()


def _sent_by(panel, key, value) -> list[tuple[str, str, tuple[str, ...]]]:
    """The widget messages a move of ``key`` to ``value`` in the page sends: (what, method, traits), in order.

    The move arrives as the page's slider sends it (a comm message), so the slider's echo is in the list.
    """
    from ipywidgets import Widget

    names = {id(p.widget): f"plot {k}" for k, p in panel.plots.items()}
    names |= {id(getattr(panel, f"_{k}")): k for k in ("headline", "readouts", "binding", "error", "tables")}
    names |= {id(c): f"control {k}" for k, c in panel.controls.items()}
    sent, send = [], Widget._send

    def spy(self, msg, buffers=None):
        sent.append(
            (names.get(id(self), type(self).__name__), msg.get("method"), tuple(sorted(msg.get("state", {}))))
        )
        return send(self, msg, buffers)

    Widget._send = spy
    try:
        message = {"method": "update", "state": {"value": value}, "buffer_paths": []}
        panel.controls[key]._handle_msg({"content": {"data": message}, "buffers": []})
    finally:
        Widget._send = send
    return sent


@pytest.mark.parametrize(("key", "value"), [("ingest_growth", 0.35), ("years", 9)])
def test_a_growth_or_years_move_sends_the_capacity_figure_first_and_nothing_unchanged(key, value):
    """A library answer moves the capacity figure's moving part (its base is kept), then the texts that
    change; the configurations, the day and the tornado send nothing (the page redraws one plot)."""
    pg = page()
    pg.panel.set(ingest_growth=0.3)
    sent = _sent_by(pg.panel, key, value)
    assert sent[0] == (f"control {key}", "echo_update", ("value",))
    assert sent[1] == ("plot capacity", "update", ("moving",))
    assert {s[0] for s in sent[2:]} <= {"headline", "readouts", "binding"}
    assert ("readouts", "update", ("value",)) in sent[2:]  # the library's readouts follow the figure
    assert pg.panel.values[key] == value


def test_the_capacity_figure_stands_beside_the_library_answers():
    """In the page's order the capacity figure comes second: the plots' column beside the library's sliders."""
    assert list(P.scenario_view().figures) == ["configurations", "capacity", "day", "tornado"]
    assert list(page().panel.plots) == ["configurations", "capacity", "day", "tornado"]
