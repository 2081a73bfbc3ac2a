"""Tests of vtsmodel.library: the library models from vendors' documents, frames, robots, what binds.

The expected values are worked by hand from the rows (their quotes are in
data/library_models.csv); a test that reads a value back from its own row would prove
nothing, so each one computes a configuration the documents do not print and checks it
against a total they do (or against arithmetic written in the test).
"""

import math

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel._validation import ConstraintError, UnknownName
from vtsmodel.library import (
    LIBRARIES,
    QUANTITIES,
    flow_mounts_per_hour,
    library_binding,
    library_model,
    library_names,
    library_options,
    robot_mounts_per_hour,
    robot_wait_s,
    units_needed,
)
from vtsmodel.queueing import wait_mdc

table = data.load("library_models")


# --- the table -----------------------------------------------------------------------------------


def test_one_row_per_library_and_quantity_and_every_library_known():
    seen = set()
    for r in table.records():
        key = (r["library"], r["quantity"])
        assert key not in seen, f"two rows for {key}"
        seen.add(key)
        assert r["library"] in LIBRARIES and r["quantity"] in QUANTITIES


def test_every_row_carries_its_quote_and_a_supplementary_source_with_url_and_date():
    sources = data.sources("supplementary")
    for r in table.records():
        assert r["quote"].strip() and r["locator"].strip(), r["id"]
        s = sources[r["source"]]
        assert s["url"].startswith("http") and s["accessed"] == "2026-11-26"
        assert "as stored by" not in s["citation"] and s["citation"].endswith("Accessed 26 November 2026.")


def test_printed_numbers_appear_in_their_quotes():
    # the printed value is words of the quote (a derived row may print nothing)
    for r in table.records():
        if r["printed"] and r["kind"] != "derived":
            digits = "".join(ch for ch in r["printed"] if ch.isdigit())
            assert digits in "".join(ch for ch in r["quote"] if ch.isdigit()), r["id"]


def test_at_least_two_current_families_plan_frames_from_documents_alone():
    # TS4300 and SL8500 (and the one-frame Diamondback) need no stand-in to count units
    for key in ("TS4300", "SL8500", "Diamondback"):
        m = library_model(key)
        assert m.stand_ins() == ()
        assert math.isfinite(float(units_needed(m, 10, 1)))


# --- slots and frames, by hand --------------------------------------------------------------------


def test_ts4300_seven_modules_match_the_documents_total():
    # ibm-ts4300-intro, Table 2: "7 Module Library ... 275 with 5-slot I/O": 40 + 6 x 40 = 280,
    # less the 5 slots of one I/O station = 275 (the slots per expansion module are derived from
    # the 1- and 7-module rows, so this checks the base row and the arithmetic, not a new fact)
    m = library_model("TS4300")
    assert float(m.slots(7)) - 5 == 275
    assert float(m.drive_bays(7)) == 7  # Table 2: "Full height Tape Drives 7"


def test_sl8500_five_expansions_give_table_1_5():
    # sun-sl8500-ug-capacities, Table 1-5: 1,448 basic, then 3,176 4,904 6,632 8,360 10,088
    m = library_model("SL8500")
    assert list(np.asarray(m.slots([1, 2, 3, 4, 5, 6]))) == [1448, 3176, 4904, 6632, 8360, 10088]
    # the expansion modules add no drive bays: 64 in every size
    assert list(np.asarray(m.drive_bays([1, 6]))) == [64, 64]


def test_frames_needed_from_the_vendors_slots_per_frame():
    # TS4300: 40 slots a module, 1 full-height drive a module, no free-slot rule.
    # 500 cartridges -> ceil(500 / 40) = 13 modules: more than 7, one library cannot: inf.
    # 250 cartridges and 3 drives -> slots: ceil(250/40) = 7; bays: 3 -> 7.
    # 100 cartridges and 5 drives -> slots: 3; bays: 5 -> 5 (the drives bind).
    m = library_model("TS4300")
    got = np.asarray(units_needed(m, [500, 250, 100], [1, 3, 5]))
    assert got[0] == np.inf and list(got[1:]) == [7, 5]
    # SL8500: one free cell per drive (ACSLS). 20 drives: basic library 1,448 - 20 = 1,428.
    # 1,428 cartridges fit the basic library; 1,429 need a second unit (3,176 - 20 = 3,156).
    s = library_model("SL8500")
    assert list(np.asarray(units_needed(s, [1428, 1429, 3156, 3157], 20))) == [1, 2, 2, 3]


def test_ts4500_fill_limit_and_stand_in_slots():
    # no document found gives the TS4500's slots per frame: a plan must give them
    m = library_model("TS4500")
    with pytest.raises(ConstraintError, match="slots_base"):
        m.slots(2)
    m = library_model("TS4500", slots_base=500, slots_per_expansion=1000)
    assert m.stand_ins() == ("slots_base", "slots_per_expansion")
    # 99% limit (ibm-ts4500-ipg): 3 frames = 2,500 slots -> floor(2,500 x 0.99) = 2,475
    assert float(m.usable_slots(3)) == 2475
    assert float(units_needed(m, 2475)) == 3 and float(units_needed(m, 2476)) == 4
    # 18 frames at most: 17 expansions -> 500 + 17,000 slots, 17,325 usable
    assert float(units_needed(m, 17325)) == 18 and float(units_needed(m, 17326)) == np.inf


def test_diamondback_is_one_frame():
    m = library_model("Diamondback")
    assert float(m.slots(1)) == 1584 and float(m.drive_bays(1)) == 14
    assert float(units_needed(m, 1584, 14)) == 1 and float(units_needed(m, 1585)) == np.inf
    with pytest.raises(ConstraintError, match="more than the 1 frame"):
        m.slots(2)


def test_sl4000_needs_its_module_counts():
    with pytest.raises(ConstraintError, match="no document found"):
        units_needed(library_model("SL4000"), 100)


# --- robots -----------------------------------------------------------------------------------


def test_robot_capacity_from_the_move_time():
    # TS4500: "less than 3 seconds" a move; two moves a mount (mount and dismount):
    # one accessor 3600 / 6 = 600 mounts an hour, two 1,200
    m = library_model("TS4500")
    assert float(robot_mounts_per_hour(1, robot_move_s=m.robot_move_s)) == 600
    assert float(robot_mounts_per_hour(m.robots_max, robot_move_s=m.robot_move_s)) == 1200
    # CERN's Powderhorn: 160 moves an hour -> 22.5 s a move -> 80 mounts an hour per robot
    assert float(robot_mounts_per_hour(4, robot_move_s=22.5)) == pytest.approx(320.0)


def test_robot_wait_is_the_md_c_queue_of_moves():
    # 300 mounts/h -> 600 moves/h = 1/6 per s, 3 s each, one robot: rho = 0.5
    # M/D/1 mean wait = rho S / (2 (1 - rho)) = 0.5 x 3 / 1 = 1.5 s (Pollaczek-Khinchine)
    mean, p95 = robot_wait_s(300, robots=1, robot_move_s=3.0)
    assert float(mean) == pytest.approx(1.5, rel=1e-6)
    assert float(mean) == pytest.approx(float(wait_mdc(1 / 6, 3.0, 1)))
    assert float(p95) > float(mean)
    with pytest.raises(ConstraintError, match="saturated"):
        robot_wait_s(600, robots=1, robot_move_s=3.0)  # rho = 1


def test_more_robots_never_wait_longer():
    waits = [float(robot_wait_s(400, robots=r, robot_move_s=3.0)[0]) for r in (1, 2, 4)]
    assert waits[0] > waits[1] > waits[2] >= 0


def test_flow_mounts_from_the_cern_formula():
    # CERN's T0 -> T1 flow: 100 MB/s x 2 at efficiency 0.5 on a 40 MB/s drive keeps
    # 200 / (0.5 x 40) = 10 drives busy; each spends half its time mounting, 120 s a mount:
    # 10 x 3600 x 0.5 / 120 = 150 mounts an hour
    assert float(
        flow_mounts_per_hour(200.0, efficiency=0.5, speed_mb_s=40.0, t_mount_s=120.0)
    ) == pytest.approx(150)


def test_binding_resource_names_the_fullest():
    m = library_model("TS4300")
    # 3 modules: 120 slots, 3 bays; 100 cartridges (0.83), 3 drives (1.0), 100 mounts/h on a
    # robot of 10 s moves = 180 mounts/h (0.56): the drive bays bind
    name, shares = library_binding(m, 3, 1, cartridges=100, drives=3, mounts_per_hour=100, robot_move_s=10.0)
    assert name == "drive bays"
    assert shares["cartridge slots"] == pytest.approx(100 / 120)
    assert shares["robot mounts per hour"] == pytest.approx(100 / 180)
    name, _ = library_binding(m, 3, 1, cartridges=100, drives=1, mounts_per_hour=170, robot_move_s=10.0)
    assert name == "robot mounts per hour"


# --- names and bad input --------------------------------------------------------------------------


def test_names_and_options():
    assert library_names()[:2] == ("TS4300", "TS4500")
    assert ("IBM TS4300", "TS4300") in library_options()
    assert library_model("sl8500").key == "SL8500"


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: library_model("TS9999"), "no library named"),
        (lambda: library_model("TS4500", slots_per_frame=3), "unknown library value"),
        (lambda: library_model("TS4500", slots_base=-1), "slots_base"),
        (lambda: library_model("TS4300").slots(0), "units"),
        (lambda: units_needed("TS4300", 10), "must be a LibraryModel"),
        (lambda: units_needed(library_model("TS4300"), -1), "cartridges"),
        (lambda: robot_mounts_per_hour(0, robot_move_s=3), "robots"),
        (lambda: robot_mounts_per_hour(1, robot_move_s=0), "robot_move_s"),
        (lambda: flow_mounts_per_hour(10, efficiency=0, speed_mb_s=40, t_mount_s=120), "efficiency"),
    ],
)
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises((ValueError, UnknownName), match=match):
        call()
