"""Lesson 07's tape library (vtsmodel.app.lessons.tape_library) without a browser: drives, what governs, the feed."""

from __future__ import annotations

import math

import pytest

from vtsmodel import catalog, plan, sizing
from vtsmodel.app.lessons import configurations as cfg
from vtsmodel.app.lessons import planner as P
from vtsmodel.app.lessons import tape_library
from vtsmodel.app.text import number

from .test_planner import evaluated, page


def test_the_cern_sample_calculation_through_the_pages_library_plan_gives_50_drives():
    # cern-tape-sizing-2005, Summary, sample calculation: "Number of needed tape drives = 50"
    lib = plan.library_plan(flows=sizing.cern_example_flows(), drive="IBM3592A")
    r = tape_library.library_readouts(lib)
    assert r["tape library"] == f"50 × {P.INPUTS['library_drive'].label_of('IBM3592A')}"
    assert r["tape library, governs"] == "throughput (CERN formula)"
    assert [r[f"library, {f.name}"].split(" ")[0] for f in sizing.cern_example_flows()] == ["10", "15", "25"]
    assert "tape library: 50 drives at 40 MB/s" in tape_library.cern_numbers()


def test_a_library_drive_fed_below_its_speed_matching_floor_is_noted():
    pg = page(library_drive="LTO9")
    p, _vts, lib, _s = evaluated(plan.Answers(library_drive="LTO9"))
    feed = cfg.write_feed_mb_s(p, lib)
    writes = lib.sizing.drives[0]
    assert feed == pytest.approx(float(p.day().write_mb_s.max()) / max(1, math.ceil(writes)))
    check = catalog.streaming_check("LTO9", feed, compression_ratio=2.5)
    assert check.known and not check.all_stream  # 37 MB/s native against LTO-9's 177 MB/s floor
    assert check.message() in pg.panel.view.notes
    shown = pg.panel.readout_values["library, feed per writing drive"]
    assert shown == f"{number(feed)} MB/s ({number(feed / 2.5)} MB/s native)"
    pg.panel.set(library_drive="IBM3592A")  # no document states its floor: nothing to note
    assert not any("speed-matching" in n for n in pg.panel.view.notes)
