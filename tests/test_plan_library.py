"""The planner's library part (issue 29, item 6): the answers, the years, the margins, the cost, the plan file.

Every expected number is worked by hand in the comments from the answers and the cited rows
(LTO-9: 18 TB, 400 MB/s, load 17 s, locate 45 s, rewind 55 s, unload 30 s; CERN's robot
move 22.5 s and tOverhead 4.4 s; the TS4300's 40 slots and 1 drive bay per module).
"""

import json
import math

import numpy as np
import pytest

import vtsmodel
from vtsmodel.plan import Answers, Plan, answer_inputs, library_plan, plan_from_dict, plan_to_dict

# LTO-9's mount cycle with CERN's robot: 22.5 + 17 + 45 + 55 + 30 s (test_library_years works it)
T_MOUNT_LTO9 = 169.5
T_OVERHEAD = 4.4


def _archive_plan(**changes):
    # 1,000 GB a day, evenly over the day; no reads (no recalls); 500 TB stored; two copies, one off site
    a = dict(write_gb_per_day=1000, write_window_hours=24, read_gb_per_day=0, library="TS4300", library_drive="LTO9",
             years=3, stored_now_tb=500, copies=2, offsite_copies=1, fill_efficiency=0.9, peak_factor=1.0)  # fmt: skip
    return Plan(Answers(**{**a, **changes}))


def test_the_default_drive_is_the_catalogs_newest_lto_and_the_sources_drives_stay_a_choice():
    # the catalog's LTO rows end with LTO-10 (bf-2025-lto10); the sources' drives stay choices
    assert Answers().library_drive == "LTO10"
    drives = answer_inputs()["library_drive"].values
    assert {"IBM3592A", "STK9940B", "IBM3590B"} <= set(drives)


def test_cartridges_frames_drives_and_what_binds_year_by_year():
    lib = library_plan(_archive_plan())
    y = lib.over_years
    r = y.years
    # written a year: 1,000 GB x 365.25 = 365.25 TB; stored 500, 865.25, 1,230.5, 1,595.75 TB
    assert list(r.archive.stored_tb) == pytest.approx([500, 865.25, 1230.5, 1595.75])
    # a cartridge holds 18 TB x 0.9 = 16.2 TB; two copies: 1,000 / 16.2 = 61.7 -> 62, 106.8 -> 107,
    # 151.9 -> 152, 197.006 -> 198; in the library (one copy): 30.9 -> 31, 53.4 -> 54, 76.0 -> 76, 98.5 -> 99
    assert list(r.archive.cartridges) == [62, 107, 152, 198]
    assert list(r.archive.cartridges_onsite) == [31, 54, 76, 99]
    # writes 1,000,000 MB / 86,400 s = 11.574 MB/s; efficiency of 10 files of 800 MB a mount:
    # 20 s / (169.5 + 10 x 4.4 + 20) s = 0.08565; drives 11.574 / (0.08565 x 400) = 0.338 -> 1
    eff = 20 / (T_MOUNT_LTO9 + 10 * T_OVERHEAD + 20)
    assert r.drives_fractional[0] == pytest.approx(1e6 / 86400 / (eff * 400))
    assert list(r.drives) == [1, 1, 1, 1] and lib.drives == 1
    # TS4300 modules of 40 slots and one bay: 31 -> 1, 54 -> 2, 76 -> 2, 99 -> 3
    assert list(r.units) == [1, 2, 2, 3]
    # year 0: one drive in one bay is the fullest (1.0 against 31/40); then the slots (54/80, 76/80, 99/120)
    assert r.binding == ("drive bays", "cartridge slots", "cartridge slots", "cartridge slots")
    # one module is full in year 1, two in year 3, three hold every year
    assert r.fill_years == {1: 1, 2: 3, 3: None}
    assert list(y.units_bought) == [1, 1, 0, 1] and list(y.drives_bought) == [1, 0, 0, 0]


def test_the_margins_of_the_last_year():
    y = library_plan(_archive_plan()).over_years
    checks = {c.key: c for c in y.checks()}
    # 99 cartridges in 120 slots; 1 drive in 3 bays; mounts 11.574 / 8,000 MB x 3,600 = 5.208 an hour
    # against one robot's 3,600 / (2 x 22.5 s) = 80
    assert (checks["slots"].value, checks["slots"].limit, checks["slots"].margin) == (99, 120, 21)
    assert (checks["drive_bays"].value, checks["drive_bays"].margin) == (1, 2)
    assert checks["robots"].value == pytest.approx(1e6 / 86400 / 8000 * 3600)
    assert checks["robots"].margin == pytest.approx(80 - 1e6 / 86400 / 8000 * 3600)
    assert "recall" not in checks  # no reads, no recalls
    assert all(c.ok for c in checks.values())
    assert {c.key for c in y.checks(0)} == set(checks)


def test_the_cost_comes_from_the_users_prices_only():
    assert library_plan(_archive_plan()).over_years.cost is None  # no price: nothing shown
    p = _archive_plan(price_drive=5000, price_cartridge=100, price_frame=20000, price_support_per_year=1000)
    cost = library_plan(p).over_years.cost
    # year 0: 1 drive, 62 cartridges, 1 module: 5,000 + 6,200 + 20,000 = 31,200
    # year 1: 45 cartridges, 1 module, support: 4,500 + 20,000 + 1,000 = 25,500
    # year 2: 45 cartridges, support: 5,500; year 3: 46 cartridges, 1 module, support: 25,600
    assert list(cost["per_year"]) == [31200, 25500, 5500, 25600]
    assert list(cost["cumulative"]) == [31200, 56700, 62200, 87800]
    assert cost["per_tb"][0] == pytest.approx(31200 / 500)
    # a price left empty leaves its item out
    only = library_plan(_archive_plan(price_cartridge=100)).over_years.cost
    assert only["items"] == ("cartridge",) and list(only["per_year"]) == [6200, 4500, 4500, 4600]


def test_a_recall_waits_for_a_robot_with_its_drive_reserved():
    # 2,400 GB read a day, half of it missing the cache: 100,000 MB an hour x 0.5 / 800 MB = 62.5 recalls an hour,
    # one mount each, and no writes: 62.5 mounts an hour, 125 robot moves; one robot (80 mounts an hour) is
    # busy rho = 125 x 22.5 / 3,600 = 0.78125. M/D/1 (Pollaczek-Khinchine): Wq = rho x 22.5 / (2 (1 - rho)) = 40.18 s
    a = Answers(library="none", library_drive="LTO9", write_gb_per_day=0, read_gb_per_day=2400, read_hit=0.5,
                recall_target_s=600, peak_factor=1.0)  # fmt: skip
    lib = library_plan(Plan(a))
    rho = 125 * 22.5 / 3600
    wait = rho * 22.5 / (2 * (1 - rho))
    assert lib.robot_wait_s == pytest.approx(wait, rel=1e-9)
    assert list(lib.over_years.years.robots) == [1] * 6
    # the recall keeps its drive for the wait, the mount cycle, tOverhead and 800 MB at 400 MB/s
    service = T_MOUNT_LTO9 + T_OVERHEAD + 2 + wait
    assert lib.recall_service_s == pytest.approx(service)
    assert lib.recall_ready_s == pytest.approx(service - 85)  # less the rewind (55 s) and unload (30 s)
    need = vtsmodel.recall_drives_needed(62.5 / 3600, service, 600 - (service - 85), 0.95)
    assert lib.recall_drives_for_wait == need and lib.drives == need
    # the ready time at the percentile on those drives is within the target: the margin
    check = {c.key: c for c in lib.over_years.checks(0)}["recall"]
    ready_q = float(vtsmodel.wait_percentile(62.5 / 3600, service, need, 0.95, service_cv=0.0)) + service - 85
    assert check.value == pytest.approx(ready_q) and check.margin == pytest.approx(600 - ready_q) and check.ok


def test_saturated_robots_leave_the_recall_target_unmet_and_say_so():
    # one robot of 60 s a move serves 3,600 / 120 = 30 mounts an hour; the recalls need 62.5
    a = Answers(library="none", library_drive="LTO9", write_gb_per_day=0, read_gb_per_day=2400, read_hit=0.5,
                robots=1, robot_move_s=60, peak_factor=1.0)  # fmt: skip
    lib = library_plan(Plan(a))
    assert math.isinf(lib.robot_wait_s) or lib.recall_drives_for_wait is None
    assert lib.recall_drives_for_wait is None and "cannot be met" in lib.governs
    assert any("robots are saturated" in n for n in lib.notes)
    assert lib.over_years.years.robot_utilisation[0] == pytest.approx(62.5 / 30)


def test_the_growth_is_the_days_writes_unless_answered():
    # an hourly workload of two days writing 100,000 MB an hour: 2,400 GB a day -> 876.6 TB a year
    rows = [{"hour": h, "host_write_mb": 100_000.0, "host_read_mb": 0.0} for h in range(48)]
    wl = vtsmodel.HourlyWorkload.from_rows(rows, name="two days")
    p = Plan(Answers(library="none", library_drive="LTO9", years=2), workload=wl)
    assert library_plan(p).over_years.archive.written_tb[1] == pytest.approx(2400 * 365.25 / 1000)
    p = Plan(Answers(library="none", library_drive="LTO9", years=2, growth_tb_per_year=100), workload=wl)
    assert library_plan(p).over_years.archive.written_tb[1] == pytest.approx(100)


def test_the_flows_grow_with_the_writes_and_never_need_less():
    base = library_plan(_archive_plan(ingest_growth=0.0, years=4)).over_years
    more = library_plan(_archive_plan(ingest_growth=1.0, years=4)).over_years
    # writes doubling each year: 365.25, 730.5, 1,461, 2,922 TB; the flows 1, 1, 2, 4, 8 times today's
    assert list(more.years.flow_factor) == [1, 1, 2, 4, 8]
    for k in ("drives", "units", "mounts_per_hour"):
        assert np.all(getattr(more.years, k) >= getattr(base.years, k)), k
    assert np.all(more.archive.cartridges >= base.archive.cartridges)


def test_a_family_without_slots_per_frame_plans_no_frames_until_they_are_given():
    lib = library_plan(_archive_plan(library="TS4500"))
    assert not lib.over_years.years.has_frames
    assert any("slots_base" in n and "not planned" in n for n in lib.notes)
    # given: 500 slots in the base frame, 99 % of them usable (ibm-ts4500-ipg): floor(495) holds 99 cartridges
    lib = library_plan(_archive_plan(library="TS4500", slots_base=500, slots_per_expansion=800))
    y = lib.over_years
    assert list(y.years.units) == [1, 1, 1, 1] and y.usable_slots()[-1] == 495
    # the TS4500's accessor: "less than 3 seconds" a move, so its mount cycle is 169.5 - 22.5 + 3 s
    assert lib.robot_move_s == 3.0 and y.years.t_mount_s == pytest.approx(T_MOUNT_LTO9 - 22.5 + 3)


def test_a_drive_the_family_does_not_take_plans_drives_and_cartridges_without_frames():
    lib = library_plan(_archive_plan(library_drive="IBM3592_60F"))
    assert lib.over_years is not None and not lib.over_years.years.has_frames
    assert any("takes LTO drives, not the IBM TS1160" in n for n in lib.notes)
    assert lib.drives >= 1


def test_a_drive_without_a_cartridge_capacity_plans_today_only():
    lib = library_plan(Plan(Answers(library_drive="STK9940B")))
    assert lib.over_years is None and lib.drives >= 1
    assert any("no cartridge capacity for STK9940B" in n for n in lib.notes)


def test_the_headline_names_the_library_frames_drives_robots_cartridges_and_what_binds():
    text = library_plan(_archive_plan()).headline()
    assert text.startswith("Tape library: 1 LTO9 drives; ")
    assert "IBM TS4300 of 1 module now, 3 in year 3" in text
    assert "1 drive, 1 robot and 198 cartridges in year 3" in text and "what binds: cartridge slots" in text


# --- the plan file -------------------------------------------------------------------------------------


def test_a_plan_file_carries_the_librarys_answers():
    p = _archive_plan(price_cartridge=80.0, robots=2, growth_rate=0.1)
    doc = json.loads(json.dumps(plan_to_dict(p)))
    assert doc["version"] == 2 and doc["answers"]["library"] == "TS4300"
    assert doc["answers"]["price_drive"] is None and doc["answers"]["price_cartridge"] == 80.0
    assert plan_from_dict(doc).answers == p.answers


def test_a_version_1_file_is_read_as_it_was_written():
    # version 1 had no library family and defaulted to CERN's 3592A
    p = plan_from_dict({"schema": "vtsmodel-plan", "version": 1, "answers": {"cf": 2.0}})
    assert p.answers.library == "none" and p.answers.library_drive == "IBM3592A" and p.answers.cf == 2.0
    p = plan_from_dict({"schema": "vtsmodel-plan", "version": 1, "answers": {"library_drive": "LTO9"}})
    assert p.answers.library_drive == "LTO9"
    with pytest.raises(ValueError, match="'years' came after version 1"):
        plan_from_dict({"schema": "vtsmodel-plan", "version": 1, "answers": {"years": 3}})
    with pytest.raises(ValueError, match="reads versions 1 and 2"):
        plan_from_dict({"schema": "vtsmodel-plan", "version": 3, "answers": {}})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"library": "SL9999"}, ["library='SL9999'", "Oracle StorageTek SL8500"]),
        ({"years": 0}, ["years=0", "[1, 100]"]),
        ({"copies": 11}, ["copies=11"]),
        ({"library_compression": 0.4}, ["library_compression=0.4", "[0.5, 100]"]),
        ({"price_drive": -1}, ["price_drive=-1"]),
        ({"robots": 0}, ["robots=0"]),
    ],
)
def test_a_bad_library_answer_names_the_parameter_value_and_range(change, words):
    with pytest.raises(ValueError) as e:
        Answers(**change)
    for w in words:
        assert w in str(e.value)


def test_more_copies_off_site_than_on_tape_is_a_named_error():
    with pytest.raises(ValueError, match="offsite_copies=2 must be fewer than copies=2"):
        library_plan(_archive_plan(offsite_copies=2))


def test_a_plan_of_a_library_alone_with_its_own_flows():
    from vtsmodel.plan import LibraryFlow, evaluate
    from vtsmodel.sizing import Flow

    flows = (
        LibraryFlow(Flow("ingest", 50.0, 2.0, 0.5), writes=True),
        LibraryFlow(Flow("reads", 20.0, 1.0, 0.1)),
    )
    p = Plan(Answers(library_drive="LTO9", years=2), vts=False, library_flows=flows)
    r = evaluate(p)
    assert r.vts is None and r.sensitivity is None and r.headline() == r.library.headline()
    # 50 x 2 / 0.5 / 400 + 20 / 0.1 / 400 = 0.5 + 0.5 = 1 drive; no recall flow: no recall target
    assert (
        r.library.drives == 1 and r.library.recall_flow is None and r.library.recall_drives_for_wait is None
    )
    # the writing flow all year: 50 MB/s x 365.25 x 86,400 s = 1,577.88 TB
    assert r.library.over_years.archive.written_tb[1] == pytest.approx(1577.88)
    doc = json.loads(json.dumps(plan_to_dict(p)))
    assert doc["vts"] is False and doc["library_flows"][0] == {
        "name": "ingest", "rate_mb_s": 50.0, "peak_factor": 2.0, "efficiency": 0.5, "writes": True,
    }  # fmt: skip
    back = plan_from_dict(doc)
    assert back.library_flows == flows and back.vts is False


@pytest.mark.parametrize(
    ("flows", "words"),
    [
        ([{"name": "a"}], "library flow 1 needs a name and rate_mb_s"),
        ([{"name": "a", "rate_mb_s": 10, "efficiency": 2}], "library flow 1: a: efficiency=2"),
        ([{"name": "a", "rate_mb_s": 10, "efficiency": 0.5, "tape": 1}], "unknown key(s) 'tape'"),
        (
            [{"name": "a", "rate_mb_s": 10, "efficiency": 0.5, "writes": "yes"}],
            "writes='yes' must be true or false",
        ),
        ([{"name": "a", "rate_mb_s": "10", "efficiency": 0.5}], "rate_mb_s='10' must be a number"),
        ([], "library_flows must be a list of flows"),
    ],
)
def test_a_bad_flow_in_a_plan_file_names_the_flow_and_field(flows, words):
    with pytest.raises(ValueError) as e:
        plan_from_dict({"schema": "vtsmodel-plan", "version": 2, "answers": {}, "library_flows": flows})
    assert words in str(e.value)


def test_vts_in_a_plan_file_is_true_or_false():
    with pytest.raises(ValueError, match="vts='no' must be true"):
        plan_from_dict({"schema": "vtsmodel-plan", "version": 2, "answers": {}, "vts": "no"})
    with pytest.raises(ValueError, match="'vts' came after version 1"):
        plan_from_dict({"schema": "vtsmodel-plan", "version": 1, "answers": {}, "vts": False})


# --- the recall target checked by replay (issue 24, item 4) ---------------------------------------


def _burst_log(n=12):
    # n reads at the same instant, each of its own cartridge: a burst the Poisson day does not see
    from vtsmodel.mountlog import mount_log

    return mount_log(
        np.zeros(n), [f"V{i}" for i in range(n)], np.full(n, 400.0), cartridge=[f"C{i}" for i in range(n)]
    )


def test_with_a_mount_log_the_recall_target_is_checked_by_replay():
    from vtsmodel.replay import replay_drives_needed, replay_library

    log = _burst_log()
    a = Answers(
        library="none", library_drive="LTO9", write_gb_per_day=0, read_gb_per_day=100, recall_target_s=400
    )
    analytic = library_plan(Plan(a))
    lib = library_plan(Plan(a, log=log))
    # the replay the plan runs: the plan's drive, robots and robot move, the answers' target and percentile
    same = replay_drives_needed(
        log, 400, q=0.95, library=replay_library(1, drive="LTO9", robots=1, robot_move_s=22.5)
    )
    assert lib.replay.drives == same.drives and lib.replay.analytic_drives == same.analytic_drives
    assert lib.replay.tried == same.tried
    # twelve mounts at once: each ready after the robot (22.5 s each, one robot), load 17, locate 45 and
    # 400 MB at 400 MB/s: the 95th percentile within 400 s needs more drives than the day's Poisson recalls
    assert lib.replay.drives > analytic.drives
    assert lib.drives == lib.replay.drives and lib.governs == "recall target by replay of the mount log"
    assert list(lib.over_years.years.drives) == [lib.replay.drives] * 6  # never fewer than today's replay
    # fewer drives than the replay's miss the target; the replay's meet it
    assert (
        lib.replay.tried[lib.replay.drives]
        <= 400
        < lib.replay.tried[max(k for k in lib.replay.tried if k < lib.replay.drives)]
    )


def test_a_mount_log_whose_target_no_drive_count_meets_says_so():
    a = Answers(library="none", library_drive="LTO9", recall_target_s=30)  # less than one mount takes
    lib = library_plan(Plan(a, log=_burst_log(3)))
    assert lib.replay is None and any("the mount log replayed" in n for n in lib.notes)
    # said in the plan's answers (its target and percentile), not in the replay's parameter names
    from vtsmodel import number
    from vtsmodel._validation import ConstraintError
    from vtsmodel.replay import replay_drives_needed, replay_library

    robots = int(lib.over_years.years.robots[0])  # the replay the plan runs: its drive, robots and move
    with pytest.raises(ConstraintError) as raised:
        replay_drives_needed(
            _burst_log(3),
            30,
            q=0.95,
            library=replay_library(1, drive="LTO9", robots=robots, robot_move_s=22.5),
        )
    note = next(n for n in lib.notes if "the mount log replayed" in n)
    assert (f"even {raised.value.drives:,} drives leave a recall at the 95th percentile "
            f"{number(raised.value.replayed_s)} s to be ready, against the 30 s target") in note, note  # fmt: skip
    assert "max_drives" not in note and "target_s" not in note


def test_every_answer_that_may_be_left_empty_says_what_empty_means():
    from vtsmodel.plan import EMPTY_MEANS, plan_template

    assert set(EMPTY_MEANS) == {k for k, inp in answer_inputs().items() if inp.default is None}
    assert EMPTY_MEANS["price_drive"] == "not shown"
    assert "null: not shown" in plan_template()  # the commented plan file says so beside each price


def test_the_report_says_the_recall_target_was_checked_by_replay():
    from vtsmodel.app.report import report_html
    from vtsmodel.plan import evaluate

    a = Answers(
        library="none", library_drive="LTO9", write_gb_per_day=0, read_gb_per_day=100, recall_target_s=400
    )
    page = report_html(evaluate(Plan(a, vts=False, log=_burst_log()), fraction=None))
    assert "The recall target checked by replay of the mount log:" in page
    assert "recall target by replay of the mount log governs" in page
