"""Lesson 07's sensitivity (vtsmodel.app.lessons.sensitivity) without a browser: the tornado, after the rest."""

from __future__ import annotations

import asyncio

from vtsmodel import plan
from vtsmodel.app import cache
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.lessons import planner as P
from vtsmodel.app.lessons import sensitivity

from .test_planner import evaluated, page, same_data


async def _computed(pg, timeout_s: float = 120.0) -> None:
    """Wait until the page's tornado is computed and drawn (a condition, not a time)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout_s
    while pg.tornado.pending:
        assert loop.time() < end, "the tornado was not computed"
        await asyncio.sleep(0.01)


def test_the_tornado_follows_after_the_other_figures_when_an_event_loop_runs():
    async def run():
        pg = P.PlannerPage()
        old = pg.panel.figure("tornado")
        pg.panel.set(write_gb_per_day=2500.0)
        pending = pg.panel.figure("tornado")
        assert pending["data"] == old["data"] and pending["layout"]["annotations"][-1]["text"] == "updating…"
        await _computed(pg)
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


def test_a_move_while_the_tornado_is_computed_waits_for_one_step_and_replaces_it():
    # The kernel runs a page's message between two of the tornado's steps (each a callback on its
    # event loop): the move comes before the next step, not after the whole tornado.
    order = []

    async def run():
        cache.clear()  # no tornado kept from another test
        pg = P.PlannerPage()
        pg.panel.set(write_gb_per_day=2500.0)
        end = asyncio.get_running_loop().time() + 120.0
        while pg.tornado.progress is None:  # the first step made
            assert asyncio.get_running_loop().time() < end, "the tornado was not started"
            await asyncio.sleep(0.005)
        done, total = pg.tornado.progress
        assert done < total
        first = pg.panel.stage.result(pg.panel.values)

        def move():  # as the kernel's handler of the page's next message
            order.append(("move", pg.tornado.progress))
            pg.panel.set(write_gb_per_day=3000.0)

        asyncio.get_running_loop().call_soon(move)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        order.append(("after", pg.tornado.progress))
        assert not first.sensitivity_ready(0.2)  # the dropped tornado kept nothing
        await _computed(pg)
        return pg

    pg = asyncio.run(run())
    (kind, at), (_after, now) = order
    assert kind == "move" and at is not None and at[0] < at[1]  # came while it was computed
    assert now is None or now[0] <= 1  # the new tornado's, started again
    _p, _vts, _l, sens = evaluated(plan.Answers(write_gb_per_day=3000.0))
    same_data(pg.panel.figure("tornado"), plan_figures.tornado_spec(sensitivity.moving_rows(sens)))
