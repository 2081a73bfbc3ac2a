"""Lesson 07's configurations (vtsmodel.app.lessons.configurations) without a browser: the targets, the readouts."""

from __future__ import annotations

import math

import pytest

from vtsmodel import plan
from vtsmodel.app.lessons import configurations as cfg

from .test_planner import evaluated, page


def test_the_next_smaller_configurations_failing_target_is_named():
    pg = page()
    _p, vts, _l, _s = evaluated(plan.Answers())
    nxt = vts.next_smaller_cache
    assert nxt is not None and nxt.failing
    # "432 GB PAF, 4 drives, throttles 5.67 h against 0 h allowed" (the example sentence)
    assert f"{nxt.config.label}, {nxt.failing[0].text}" in pg.panel.view.binding
    # what the recommendation must not hide comes first (ESCON channels, writes above every peak)
    assert pg.panel.view.binding.startswith(
        " ".join(vts.cautions + (f"The next smaller, {vts.next_smaller.config.label}, ",))
    )


def test_targets_are_moving_shapes_over_a_cached_base():
    pg = page()
    sent = []
    pg.panel.plots["configurations"].widget.observe(
        lambda ch: sent.append(ch["name"]), names=["base", "moving"]
    )
    before = pg.panel.readout_values["recommended"]
    pg.panel.set(recall_target_s=700.0)
    assert pg.panel.readout_values["recommended"] == before  # the same configuration: only the line moves
    assert sent == ["moving"]
    shapes = {s.get("name"): s for s in pg.panel.figure("configurations")["layout"]["shapes"]}
    assert shapes["target 700"]["y0"] == 700.0 and shapes["throttling allowed 0"]["y0"] == 0.0
    rec = next(s for name, s in shapes.items() if name and name.startswith("recommended: "))
    _p, vts, _l, _s = evaluated(plan.Answers(recall_target_s=700.0))
    assert rec["name"] == f"recommended: {vts.recommended.config.label}"
    assert rec["yanchor"] == pytest.approx(vts.recommended.worst_recall_ready_s)


def test_readouts_of_a_target_missed_without_a_number():
    behind = plan.Check("copy", "drives for the copy", math.inf, 4.0, "drives", False, "falls behind: …")
    assert cfg.check_readout(behind) == "falls behind day after day with 4"
    never = plan.Check("recall", "recall ready (95th percentile)", math.inf, 600.0, "s", False, "…")
    assert cfg.check_readout(never) == "no steady state against 600 s; margin —"
    copy = plan.Check("copy", "drives for the copy", 3.0, 4.0, "drives", True, "…")
    assert cfg.check_readout(copy) == "3 of 4 drives; margin 1"
    ok = plan.Check("recall", "recall ready (95th percentile)", 439.0, 600.0, "s", True, "…")
    assert cfg.check_readout(ok) == "439 s against 600 s; margin 161 s"


def test_answers_differing_in_the_librarys_only_share_the_vts_plan():
    # the VTS configurations do not read the library's answers: one evaluation serves both
    a, b = plan.Answers(), plan.Answers(library_drive="LTO9", peak_factor=2.0)
    e, f = cfg.evaluate(a), cfg.evaluate(b)
    assert f.vts is e.vts and f.library.drive == "LTO9" and e.library.drive != "LTO9"
    assert f.day is e.day  # the hours evaluated, kept with the VTS plan (a library move computes neither)
    assert cfg.evaluate(plan.Answers(recall_target_s=900.0)).vts is not e.vts  # a target: its own checks


def test_the_configurations_figure_is_kept_per_its_numbers():
    a = cfg.evaluate(plan.Answers()).vts
    b = cfg.evaluate(plan.Answers(recall_target_s=900.0)).vts
    assert cfg.ConfigurationNumbers(a) == cfg.ConfigurationNumbers(b)  # targets are marks, not numbers
    assert hash(cfg.ConfigurationNumbers(a)) == hash(cfg.ConfigurationNumbers(b))
    c = cfg.evaluate(plan.Answers(write_gb_per_day=2500.0)).vts
    assert cfg.ConfigurationNumbers(c) != cfg.ConfigurationNumbers(a)


def test_a_fresh_move_evaluates_the_plan_once(monkeypatch):
    # the count before the compute stage: one move ran the day simulation 32 times and
    # library_plan 16 times, through seven caches; now one evaluation per setting feeds every view
    from collections import Counter

    from vtsmodel.app.lessons import planner as P

    calls = Counter()
    for name in ("vts_plan", "library_plan", "sensitivity"):
        real = getattr(plan, name)
        monkeypatch.setattr(plan, name, lambda *a, _r=real, _n=name, **k: calls.update([_n]) or _r(*a, **k))
    pg = P.PlannerPage(defer_tornado=False)
    calls.clear()
    pg.panel.set(write_gb_per_day=2150.0)  # a value no earlier move had
    assert calls == {"vts_plan": 1, "library_plan": 1, "sensitivity": 1}
    pg.panel.set(library_drive="LTO9")  # the library's answers only: the VTS plan is kept
    assert calls["vts_plan"] == 1 and calls["library_plan"] == 2
