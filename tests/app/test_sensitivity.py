"""Lesson 07's sensitivity (vtsmodel.app.lessons.sensitivity) without a browser: the tornado, after the rest."""

from __future__ import annotations

import asyncio

from vtsmodel import plan
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.lessons import planner as P
from vtsmodel.app.lessons import sensitivity

from .test_planner import evaluated, page, same_data


def test_the_tornado_follows_after_the_other_figures_when_an_event_loop_runs():
    async def run():
        pg = P.PlannerPage()
        old = pg.panel.figure("tornado")
        pg.panel.set(write_gb_per_day=2500.0)
        pending = pg.panel.figure("tornado")
        assert pending["data"] == old["data"] and pending["layout"]["annotations"][-1]["text"] == "updating…"
        await asyncio.sleep(sensitivity.TORNADO_DELAY_S + 0.5)
        return pg

    pg = asyncio.run(run())
    _p, vts, _l, sens = evaluated(plan.Answers(write_gb_per_day=2500.0))
    same_data(pg.panel.figure("tornado"), plan_figures.tornado_spec(sensitivity.moving_rows(sens)))
    assert "updating…" not in [a["text"] for a in pg.panel.figure("tornado")["layout"]["annotations"]]


def test_the_tornado_labels_every_bar_with_its_input():
    pg = page()
    _p, _vts, _l, sens = evaluated(plan.Answers())
    spec = pg.panel.figure("tornado")
    moved = sensitivity.moving_rows(sens)
    assert all(r.swing > 0 for r in moved.rows) and len(moved.rows) < len(sens.rows)
    for axis in (k for k in spec["layout"] if k.startswith("yaxis")):
        assert spec["layout"][axis]["dtick"] == 1  # plotly would skip crowded category labels
    for out in moved.outputs:  # each panel's categories are the inputs that move its answer
        names = [r.driver for r in moved.tornado(out)][::-1]
        assert any(t["y"] == names for t in spec["data"]), out
