"""The planner: answers, plan files, every VTS configuration, the tape-library plan, sensitivity."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import load, sizing
from vtsmodel.hourly import HourlyWorkload, read_hourly_workload
from vtsmodel.plan import (
    MAX_PLAN_BYTES,
    PLAN_SCHEMA,
    Answers,
    Plan,
    VtsConfiguration,
    answer_inputs,
    assumptions,
    evaluate,
    evaluate_configuration,
    library_plan,
    load_plan,
    plan_from_bytes,
    plan_to_dict,
    plan_to_json,
    save_plan,
    sensitivity,
    sensitivity_steps,
    vts_configurations,
    vts_plan,
)
from vtsmodel.queueing import wait_percentile
from vtsmodel.recall import recall_ready_s, recall_service_s
from vtsmodel.throughput import write_rate
from vtsmodel.tvc_day import simulate_tvc
from vtsmodel.workload import make_profile

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "example_hourly_workload.csv"


def constant_day(write_mb_s: float, *, read_mb_s: float = 0.0, hours: int = 24) -> HourlyWorkload:
    return HourlyWorkload.from_rows(
        [
            {"hour": h, "host_write_mb": write_mb_s * 3600, "host_read_mb": read_mb_s * 3600}
            for h in range(hours)
        ]
    )


# --- answers ------------------------------------------------------------------------------------
def test_every_answer_is_declared_and_the_defaults_agree():
    inputs = answer_inputs()
    fields = {f.name: f.default for f in dataclasses.fields(Answers)}
    assert list(fields) == list(inputs)
    for name, default in fields.items():
        if name != "library_drive":  # the catalog's newest LTO (tests/test_plan_library.py)
            assert inputs[name].default == default, name
    assert inputs["library_drive"].default == Answers().library_drive
    assert set(inputs["library_drive"].values) == set(vtsmodel.catalog.drive_names())


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"cf": 0.4}, ["cf=0.4", "[0.5, 100]"]),
        ({"read_hit": 1.5}, ["read_hit=1.5", "[0, 1]"]),
        ({"write_window_hours": 0}, ["write_window_hours=0", "(0, 24]"]),
        ({"vts_drive": "LTO9"}, ["vts_drive='LTO9'", "IBM 3590 model B"]),
        ({"library_drive": "floppy"}, ["library_drive='floppy'"]),
        ({"virtual_drives_needed": 2.5}, ["virtual_drives_needed=2.5", "whole number"]),
        ({"recall_target_s": float("nan")}, ["recall_target_s", "finite"]),
        ({"write_gb_per_day": None}, ["write_gb_per_day is empty"]),
    ],
)
def test_a_bad_answer_names_the_parameter_value_and_range(change, words):
    with pytest.raises(ValueError) as err:
        Answers(**change)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_optional_answers_may_be_empty_and_unknown_ones_are_rejected():
    assert Answers(recalls_per_hour=None, drive_efficiency=None).recalls_per_hour is None
    with pytest.raises(ValueError, match="unknown answer"):
        Answers().replace(colour="blue")
    with pytest.raises(ValueError, match="must be a number"):
        Answers.from_dict({"cf": "3"})  # a file's number must be a number


def test_the_day_the_answers_describe():
    a = Answers(write_gb_per_day=1200, write_window_hours=4, write_start_hour=22, read_gb_per_day=240,
                read_hit=0.75, volume_mb=500)  # fmt: skip
    w = a.hourly()
    assert w.hours == 24
    assert w.write_mb.sum() == pytest.approx(1.2e6)
    assert np.flatnonzero(w.write_mb).tolist() == [0, 1, 22, 23]  # the window wraps past midnight
    assert np.allclose(w.read_mb, 240e3 / 24)
    assert np.allclose(w.columns["recall_mounts"], 240e3 / 24 * 0.25 / 500)  # reads x misses / volume
    half = Answers(write_window_hours=1.5, write_start_hour=0.5).hourly()
    assert half.write_mb[:3] == pytest.approx(np.array([0.5, 1.0, 0.0]) / 1.5 * 2e6)  # 0.5 h to 2 h
    given = Answers(recalls_per_hour=12, read_window_hours=8, read_start_hour=9).hourly()
    assert (
        given.columns["recall_mounts"].sum() == pytest.approx(96) and given.columns["recall_mounts"][9] == 12
    )


# --- configurations -------------------------------------------------------------------------------
def test_the_configurations_the_paper_offers():
    configs = vts_configurations()
    t, f = load("vts_tvc_configs"), load("vts_facts")
    paf = sorted(set(t["tvc_gb"][t["features"] == "paf"].tolist()))
    base = sorted(set(t["tvc_gb"][t["features"] == "base_ehpo"].tolist()))
    assert paf == [216, 432, 864, 1728] and base == [72, 144, 216, 288, 576, 1152]  # Table 3
    # Sec. 2: "from three to six (four to six with the Performance Accelerator)"
    lo, hi = f.value("physical_drives_low"), f.value("physical_drives_high")
    plo = f.value("physical_drives_paf_low")
    assert {c.drives for c in configs if c.feature != "paf"} == set(range(int(lo), int(hi) + 1))
    assert {c.drives for c in configs if c.feature == "paf"} == set(range(int(plo), int(hi) + 1))
    assert {c.tvc_gb for c in configs if c.feature == "paf"} == set(paf)
    assert {c.tvc_gb for c in configs if c.feature == "ehpo"} == set(base)
    assert len(configs) == 2 * len(base) * 4 + len(paf) * 3
    assert list(configs) == sorted(configs)
    earlier = vts_configurations(include_earlier_paf=True)  # Table 3, "*": earlier shipments with PAF
    assert {c.tvc_gb for c in earlier if c.feature == "paf"} == set(paf) | {144.0, 288.0}


def test_virtual_drives_follow_sec_2():
    # "With the EHPO feature and a minimum of 144 GB of cache, 64 virtual drives ..."; base: 32
    assert VtsConfiguration.of(1152, "base", 3).virtual_drives == 32
    assert VtsConfiguration.of(72, "ehpo", 3).virtual_drives == 32
    assert VtsConfiguration.of(144, "ehpo", 3).virtual_drives == 64
    assert VtsConfiguration.of(216, "paf", 4).virtual_drives == 64
    plan = Plan(Answers(virtual_drives_needed=48))
    ok = {r.config.label for r in vts_plan(plan).results if r.check("virtual_drives").ok}
    assert all("base" not in label and not label.startswith("72 GB") for label in ok)


# --- reference tests ------------------------------------------------------------------------------
def test_the_cern_sample_calculation_through_the_planner_gives_50_drives():
    # cern-tape-sizing-2005, Summary, sample calculation: "Number of needed tape drives = 50"
    lib = library_plan(flows=sizing.cern_example_flows(), drive_speed_mb_s=sizing.cern_example_drive_speed())
    assert lib.drives == 50
    assert lib.sizing.drives.tolist() == pytest.approx([10, 15, 25])
    assert lib.governs == "throughput (CERN formula)"
    # the catalog's IBM 3592A is measured at 40 MB/s (Introduction, item 1), the example's speed
    assert library_plan(flows=sizing.cern_example_flows(), drive="IBM3592A").drives == 50


def test_a_day_at_the_ehpo_sustained_benchmark_is_covered_by_the_recommendation():
    # ibm-vts-b18-2000, Sec. 3.5.3: "For an average data compressibility of three the EHPO option with a
    # 1728 GB TVC has a sustained write bandwidth of approximately 19.5 MB/s": the benchmark's 800 MB
    # volumes written at that rate all day, no reads. Eq. 3 with Table 4 gives 19.51 MB/s at 1152 GB, an
    # independent statement (ledger vts_ehpo_19_5: reproduced).
    rate = load("vts_facts").value("ehpo_sustained_cf3_max_tvc")
    plan = Plan(Answers(cf=3.0, volume_mb=800, read_gb_per_day=0), workload=constant_day(rate))
    vts = vts_plan(plan)
    rec = vts.recommended
    assert rec is not None and rec.sustained_mb_s >= rate
    # and it is the smallest whose sustained rate covers the demand: every smaller one falls short
    smaller = vts.results[: vts.results.index(rec)]
    assert smaller and all(r.sustained_mb_s < rate for r in smaller)
    assert all(not r.meets for r in smaller)


def test_a_17_mb_s_day_fits_the_ehpo_cache_of_its_own_layout():
    # ibm-vts-b18-2000, Tables 3 and 4: 216 GB base/EHPO exists only as 12(2+P) of 9 GB HDDs, between
    # Table 4's 8- and 16-group columns: 18.36 MB/s sustained at CF 3 (Eq. 3). Read on the 36 GB-HDD
    # axis (the "≤288" column, 13.31 MB/s) a 17 MB/s day was rejected by every EHPO cache up to 288 GB.
    vts = vts_plan(Plan(Answers(cf=3.0, read_gb_per_day=0), workload=constant_day(17.0)))
    rec = vts.recommended
    assert (rec.config.tvc_gb, rec.config.feature, rec.config.cache.id) == (
        216.0,
        "ehpo",
        "tvc_216_9gb_base_ehpo",
    )
    want = write_rate(3.0, tvc_config="tvc_216_9gb_base_ehpo", feature="ehpo")
    assert rec.sustained_mb_s == pytest.approx(want) and round(want, 2) == 18.36
    # 144 GB is 8(2+P) of 9 GB HDDs (16.73 MB/s): it falls behind, and its label names the layout
    assert vts.next_smaller_cache.config.label == "144 GB EHPO (9 GB HDDs, 8(2+P)), 3 drives"
    assert [c.key for c in vts.next_smaller_cache.failing] == ["copy"]


@pytest.mark.xfail(strict=True, reason="50 MB/s at CF 3 is a calibration point of paf_fit (ledger "
                   "vts_paf_sustained_50, calibrated), not evidence; the fitted curve gives 49.4 MB/s there "
                   "(a 1.2 % residual), so a day at exactly 50 MB/s falls behind")  # fmt: skip
def test_a_day_at_the_paf_sustained_benchmark_is_covered():
    rate = load("vts_facts").value("paf_sustained_cf3")  # "more than doubled to 50 MB/s" at CF 3
    plan = Plan(Answers(cf=3.0, read_gb_per_day=0), workload=constant_day(rate))
    rec = vts_plan(plan).recommended
    assert rec is not None and rec.sustained_mb_s >= rate


def test_the_longest_write_delay_is_the_drain_of_the_excess_over_the_peak_rate():
    # 2 TB in 6 h = 92.6 MB/s against an 80.4 MB/s peak: the excess waits and drains at the peak
    # rate after the window (TvcRun.max_delay_hours once read 18 h here: its totals were compared
    # with an absolute 1e-9 MB tolerance on sums of 2e6 MB).
    a = Answers(read_gb_per_day=0)
    r = evaluate_configuration(Plan(a), VtsConfiguration.of(864, "paf", 4))
    peak = float(write_rate(a.cf, 864, feature="paf", mode="peak"))
    offered = a.write_gb_per_day * 1000 / (a.write_window_hours * 3600)
    drain_h = (offered - peak) * a.write_window_hours / peak
    assert r.longest_delay_hours == pytest.approx(drain_h, abs=5 / 60)  # one 5-minute step


# --- what a configuration's result says -----------------------------------------------------------
@pytest.fixture(scope="module")
def default_plan():
    return Plan(Answers(delay_hours_allowed=2.0), name="issue example")


@pytest.fixture(scope="module")
def default_vts(default_plan):
    return vts_plan(default_plan)


def test_the_smallest_configuration_meeting_every_target_is_recommended(default_vts):
    rec = default_vts.recommended
    assert rec is not None and rec.meets
    i = default_vts.results.index(rec)
    assert not any(r.meets for r in default_vts.results[:i])
    assert default_vts.next_smaller is default_vts.results[i - 1]
    same = default_vts.next_smaller_cache
    assert same.config.feature == rec.config.feature and same.config.drives == rec.config.drives
    assert same.config.tvc_gb < rec.config.tvc_gb and not same.meets


def test_the_failing_target_is_named_with_its_number(default_vts):
    same = default_vts.next_smaller_cache
    thr = same.check("throttle")
    assert not thr.ok and thr.value == same.run.hours_throttled
    assert f"throttles {vtsmodel._inputs.number(thr.value)} h against 0 h allowed" == thr.text
    head = default_vts.headline()
    assert default_vts.recommended.config.label in head and thr.text in head
    assert thr.margin == pytest.approx(-thr.value)


def test_margins_are_target_minus_value_and_positive_for_the_recommendation(default_vts):
    for ch in default_vts.recommended.checks:
        assert ch.ok and ch.margin >= -1e-9, ch


def test_recalls_wait_on_the_drives_left_after_copying(default_plan, default_vts):
    a = default_plan.answers
    day = default_plan.day()
    lam = day.columns["recall_mounts"] / 3600
    service = float(recall_service_s(a.volume_mb, cf=a.cf, drive=a.vts_drive))
    ready = float(recall_ready_s(a.volume_mb, cf=a.cf, drive=a.vts_drive))
    for r in default_vts.results:
        copy = r.copy_drives
        assert np.array_equal(
            r.recall_drives[copy < r.config.drives], (r.config.drives - copy)[copy < r.config.drives]
        )
        h = int(np.argmax(np.where(np.isnan(r.recall_ready_s), -1, r.recall_ready_s)))
        c = r.recall_drives[h]
        if c >= 1 and lam[h] * service < c:  # steady state: M/D/c wait at the percentile + ready time
            expect = float(wait_percentile(lam[h], service, c, a.recall_percentile, service_cv=0.0)) + ready
            assert r.worst_recall_ready_s == pytest.approx(expect)
        else:
            assert math.isinf(r.worst_recall_ready_s) and not r.check("recall").ok


def test_each_cache_is_simulated_with_the_model_and_its_rates(default_plan, default_vts):
    r = default_vts.recommended
    a = default_plan.answers
    day = default_plan.day()
    profile = make_profile(
        [(h, w, rd) for h, w, rd in zip(range(24), day.write_mb_s, day.read_mb_s, strict=True)]
    )
    run = simulate_tvc(profile, tvc_gb=r.config.tvc_gb, cf=a.cf, feature=r.config.feature, read_hit=a.read_hit,
                       step_minutes=5)  # fmt: skip
    assert r.carried_gb == 0 and run.uncopied_gb[-1] == 0  # the day clears: one pass
    assert (r.hours_at_peak, r.hours_throttled, r.longest_delay_hours) == (
        run.hours_at_peak, run.hours_throttled, run.max_delay_hours)  # fmt: skip
    assert r.peak_mb_s == pytest.approx(
        float(write_rate(a.cf, r.config.tvc_gb, feature=r.config.feature, mode="peak"))
    )
    assert r.sustained_mb_s == pytest.approx(
        float(write_rate(a.cf, r.config.tvc_gb, feature=r.config.feature))
    )
    assert r.binding_resource == vtsmodel.binding_resource(a.cf, r.config.tvc_gb, feature=r.config.feature)


def test_results_carry_their_models_tables_and_rows(default_vts):
    for name in ("vtsmodel.throughput.write_rate", "vtsmodel.tvc_day.simulate_tvc", "vtsmodel.recall.recall_drives",
                 "vtsmodel.queueing.wait_percentile", "vtsmodel.bottleneck.binding_resource"):  # fmt: skip
        assert name in default_vts.models
    assert "vts_tvc_configs" in default_vts.tables
    assert "[ibm-vts-b18-2000]" in vtsmodel.cite(*default_vts.sources)
    # the catalog's many documents only through the rows of the drive used
    assert set(default_vts.sources) == {"ibm-vts-b18-2000", "cern-tape-sizing-2005"}
    for table, row in default_vts.rows:
        assert load(table).provenance(row).source  # every row the planner names exists
    assert all(a["source"] for a in assumptions())


def test_extrapolations_are_collected_as_notes_not_raised():
    vts = vts_plan(Plan(Answers(cf=5.0)))
    assert any("cf=5" in n and "extrapolation" in n for n in vts.notes)
    big = evaluate(Plan(Answers(volume_mb=1e6)), fraction=0.2)  # the copy's files: 400,000 MB stored
    assert any("file_mb=400000" in n for n in big.vts.notes)
    assert any("file_mb" in n for n in big.library.notes)


def test_a_workload_file_replaces_the_day_of_the_answers():
    w = read_hourly_workload(EXAMPLE)
    vts = vts_plan(Plan(workload=w))
    assert vts.day["recall basis"] == "workload (recall mounts)"
    assert vts.day["read hit ratio [-]"] == pytest.approx(w.read_hit_by_mounts())
    assert vts.day["virtual drives needed [-]"] == int(w.columns["max_virtual_drives"].max())
    assert vts.day["recalls per day [-]"] == pytest.approx(w.columns["recall_mounts"].sum())
    assert vts.day["mean volume written [MB]"] == pytest.approx(
        w.write_mb.sum() / w.columns["fast_ready_mounts"].sum()
    )


# --- monotonicity ---------------------------------------------------------------------------------
def _rank(plan):
    rec = vts_plan(plan).recommended
    return (math.inf,) if rec is None else rec.config.rank


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gb=st.floats(50, 3000), more=st.floats(1.05, 2.0), reads=st.floats(0, 800), cf=st.floats(1.0, 4.0))
def test_more_data_never_needs_fewer_drives_or_a_smaller_cache(gb, more, reads, cf):
    a = Answers(write_gb_per_day=gb, read_gb_per_day=reads, cf=cf, delay_hours_allowed=2.0)
    b = a.replace(write_gb_per_day=gb * more)
    assert library_plan(Plan(b)).drives >= library_plan(Plan(a)).drives
    ra, rb = _rank(Plan(a)), _rank(Plan(b))
    assert rb >= ra  # the recommendation never moves to a smaller configuration ...
    if math.isfinite(ra[0]) and math.isfinite(rb[0]):
        assert rb[0] >= ra[0]  # ... nor to a smaller cache
    c = a.replace(read_gb_per_day=reads * more + 1)
    assert library_plan(Plan(c)).drives >= library_plan(Plan(a)).drives


# --- the tape-library plan ------------------------------------------------------------------------
def test_the_library_plan_sizes_flows_and_the_recall_wait():
    a = Answers(read_gb_per_day=2000, read_hit=0.5, write_gb_per_day=500, recall_target_s=400)
    lib = library_plan(Plan(a))
    cern = load("cern_facts")
    speed = vtsmodel.drive_spec(a.library_drive).speed_mb_s
    t_mount = float(vtsmodel.mount_cycle_s(drive=a.library_drive))  # the drive's own parts, else CERN's
    assert lib.speed_mb_s == speed
    # each recall also waits for a robot, its drive reserved (tests/test_plan_library.py works the wait by hand)
    assert lib.robot_wait_s > 0
    assert lib.recall_service_s == pytest.approx(
        t_mount + cern.value("toverhead") + a.volume_mb / speed + lib.robot_wait_s
    )
    rewind = vtsmodel.catalog.mount_parts(a.library_drive)["rewind_unload"].seconds
    assert lib.recall_ready_s == pytest.approx(lib.recall_service_s - rewind)
    lam = a.read_gb_per_day * 1000 / 24 * (1 - a.read_hit) / a.volume_mb / 3600
    need = vtsmodel.recall_drives_needed(
        lam, lib.recall_service_s, a.recall_target_s - lib.recall_ready_s, 0.95
    )
    assert lib.recall_drives_for_wait == need
    writes, recalls = lib.sizing.drives
    assert lib.drives == math.ceil(writes + max(recalls, need))
    assert lib.governs == ("recall wait target (queueing)" if need > recalls else "throughput (CERN formula)")


def test_a_recall_target_below_one_recall_is_reported_not_raised():
    lib = library_plan(Plan(Answers(recall_target_s=30)))
    assert lib.recall_drives_for_wait is None and any("cannot be met" in n for n in lib.notes)
    assert "cannot be met" in lib.governs


def test_every_catalog_drive_plans():
    for name in vtsmodel.catalog.drive_names():
        assert library_plan(Plan(Answers(library_drive=name))).drives >= 1


# --- sensitivity ---------------------------------------------------------------------------------
def test_sensitivity_moves_each_input_and_holds_the_configuration(default_plan, default_vts):
    s = sensitivity(default_plan, fraction=0.2)
    assert s.configuration == default_vts.recommended.config.label
    drivers = {r.driver for r in s.rows}
    assert {"data written per day", "compressibility CF", "read hit ratio"} <= drivers
    row = next(r for r in s.rows if r.driver == "data written per day" and r.output == "time throttled [h]")
    assert row.input_low == pytest.approx(0.8 * 2000) and row.input_high == pytest.approx(1.2 * 2000)
    more = evaluate_configuration(
        default_plan.with_answers(write_gb_per_day=2400), default_vts.recommended.config
    )
    assert row.high == more.hours_throttled
    bars = s.tornado("library drives [-]")
    assert [b.swing for b in bars] == sorted((b.swing for b in bars), reverse=True)
    with pytest.raises(ValueError, match="fraction"):
        sensitivity(default_plan, fraction=1.5)


def test_sensitivity_clips_inputs_to_their_ranges():
    s = sensitivity(Plan(Answers(read_hit=0.95)), fraction=0.2)
    hit = next(r for r in s.rows if r.driver == "read hit ratio")
    assert hit.input_high == 1.0 and hit.input_low == pytest.approx(0.76)
    cf = next(
        r for r in sensitivity(Plan(Answers(cf=0.55)), fraction=0.2).rows if r.driver == "compressibility CF"
    )
    assert cf.input_low == 0.5  # CF's range starts at 0.5 (data that grows on tape: issue 23)


def test_sensitivity_in_steps_is_the_sensitivity_one_evaluation_at_a_time(default_plan):
    steps = sensitivity_steps(default_plan, fraction=0.2)
    progress = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as done:
            result = done.value
            break
    assert result == sensitivity(default_plan, fraction=0.2)
    drivers = len({r.driver for r in result.rows})
    total = 1 + 1 + 2 * drivers  # the configuration chosen, the plan as it is, each input down and up
    assert progress == [(k, total) for k in range(1, total + 1)]
    config = vts_plan(default_plan).closest.config
    assert len(list(sensitivity_steps(default_plan, configuration=config))) == total - 1  # nothing to choose


def test_sensitivity_in_steps_checks_its_arguments_at_the_call(default_plan):
    # refused before any step: a page that starts it learns at once
    with pytest.raises(ValueError, match=r"fraction"):
        sensitivity_steps(default_plan, fraction=1.5)
    with pytest.raises(ValueError, match=r"configuration='864 GB'"):
        sensitivity_steps(default_plan, configuration="864 GB")


# --- plan files ---------------------------------------------------------------------------------
def test_plan_files_round_trip(tmp_path):
    w = read_hourly_workload(EXAMPLE)
    (tmp_path / EXAMPLE.name).write_text(EXAMPLE.read_text())
    plans = {
        "answers.json": Plan(Answers(cf=3.2, recalls_per_hour=7.5), name="answers only"),
        "embedded.json": Plan(Answers(), workload=w, name="embedded"),
        "referenced.json": Plan(
            Answers(vts_drive="3590E"), workload=w, workload_file=EXAMPLE.name, name="ref"
        ),
    }
    for fname, plan in plans.items():
        save_plan(plan, tmp_path / fname)
        back = load_plan(tmp_path / fname)
        assert back.answers == plan.answers and back.name == plan.name
        if plan.workload is None:
            assert back.workload is None
        else:
            assert back.workload.rows() == w.rows() and back.workload.notes == w.notes
    upload = plan_from_bytes(plan_to_json(plans["embedded.json"]).encode())  # the page's upload and download
    assert upload.workload.rows() == w.rows() and upload.answers == plans["embedded.json"].answers
    with pytest.raises(ValueError, match="the plan file is not valid JSON"):
        plan_from_bytes(b"{oops")
    doc = json.loads((tmp_path / "referenced.json").read_text())
    assert doc["schema"] == PLAN_SCHEMA and doc["workload"] == {"file": EXAMPLE.name}


def test_saving_never_replaces_a_file_unless_asked(tmp_path):
    path = tmp_path / "plan.json"
    save_plan(Plan(name="first"), path)
    with pytest.raises(FileExistsError):
        save_plan(Plan(name="second"), path)
    assert load_plan(path).name == "first"
    save_plan(Plan(name="second"), path, overwrite=True)
    assert load_plan(path).name == "second"
    with pytest.raises(ValueError, match="workload_file"):
        plan_to_dict(Plan(workload=constant_day(1.0)), embed=False)


def _good() -> dict:
    return plan_to_dict(Plan(workload=constant_day(10.0, hours=3)))


def _bad_docs():
    def edit(fn):
        d = _good()
        fn(d)
        return d

    yield "not an object", [1, 2], "JSON object"
    yield "schema", edit(lambda d: d.update(schema="vtsmodel-scenarios")), "not a vtsmodel plan file"
    yield "version", edit(lambda d: d.update(version=99)), "version=99"
    yield "version bool", edit(lambda d: d.update(version=True)), "version=True"
    yield "unknown key", edit(lambda d: d.update(extra=1)), "unknown key"
    yield "missing answers", edit(lambda d: d.pop("answers")), "lacks answers"
    yield "unknown answer", edit(lambda d: d["answers"].update(colour=1)), "unknown answer"
    yield "answer out of range", edit(lambda d: d["answers"].update(cf=0.2)), "answers: cf=0.2"
    yield "answer as text", edit(lambda d: d["answers"].update(cf="3")), "must be a number"
    yield "answer as bool", edit(lambda d: d["answers"].update(cf=True)), "must be a number"
    yield "choice as number", edit(lambda d: d["answers"].update(vts_drive=3590)), "must be text"
    yield "name", edit(lambda d: d.update(name="")), "name=''"
    yield "workload type", edit(lambda d: d.update(workload=[1])), "workload must be an object"
    yield "workload keys", edit(lambda d: d["workload"].update(path="x")), "workload must be"
    yield "ragged", edit(lambda d: d["workload"]["columns"]["host_read_mb"].pop()), "differ in length"
    yield (
        "bad hour value",
        edit(lambda d: d["workload"]["columns"]["host_write_mb"].__setitem__(1, -5)),
        "row 2: host_write_mb=-5",
    )
    yield (
        "text in column",
        edit(lambda d: d["workload"]["columns"]["host_write_mb"].__setitem__(0, "1")),
        "row 1",
    )
    yield "unknown column", edit(lambda d: d["workload"]["columns"].update(speed=[1, 2, 3])), "unknown column"
    yield (
        "missing file",
        edit(lambda d: d.update(workload={"file": "nowhere.csv"})),
        "workload file nowhere.csv: ",
    )


@pytest.mark.parametrize(("what", "doc", "words"), list(_bad_docs()), ids=[w for w, _d, _x in _bad_docs()])
def test_a_corrupt_plan_file_is_rejected_naming_what_is_wrong(tmp_path, what, doc, words):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError) as err:
        load_plan(path)
    assert words in str(err.value), str(err.value)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"schema": "vtsmodel-plan", "version": 1, "answers": {"cf": NaN}}', "NaN is not allowed"),
        (b'{"schema": "vtsmodel-plan", "vers', "truncated or corrupt"),
        (b"{\xff}", "not UTF-8"),
        ("{}".encode("utf-16"), "is UTF-16 text .*save the plan file as UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b" " * (MAX_PLAN_BYTES + 1), "larger than"),
        (b"", "truncated or corrupt"),
    ],
)
def test_files_that_are_not_plan_files_are_rejected(tmp_path, content, words):
    path = tmp_path / "plan.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=words):
        load_plan(path)
    with pytest.raises(ValueError, match="no such file"):
        load_plan(tmp_path / "missing.json")


# --- everything at once ---------------------------------------------------------------------------
def test_evaluate_gives_all_three_and_a_headline(default_plan):
    res = evaluate(default_plan, fraction=0.1)
    assert res.sensitivity.fraction == 0.1
    assert res.vts.recommended.config.label in res.headline() and "Tape library" in res.headline()
    assert set(res.models) >= set(res.vts.models) | set(res.library.models)
    assert evaluate(default_plan, fraction=None).sensitivity is None


def test_the_time_step_is_checked():
    with pytest.raises(ValueError, match=r"step_minutes=0.01 is outside the valid range \[0.5, 60\]"):
        vts_plan(Plan(), step_minutes=0.01)
    with pytest.raises(ValueError, match="step_minutes"):
        evaluate_configuration(Plan(), VtsConfiguration.of(864, "paf", 4), step_minutes=90)


def test_numeric_arguments_are_checked_before_any_work():
    with pytest.raises(ValueError, match=r"fraction=1.0 is outside the valid range \(0, 1\)"):
        evaluate(Plan(), fraction=1.0)
    with pytest.raises(ValueError, match=r"threshold=0.0 is outside the valid range \[1e-09, 1\]"):
        vts_plan(Plan(), threshold=0.0)
    with pytest.raises(ValueError, match=r"peak_copy_fraction must be a single number"):
        vts_plan(Plan(), peak_copy_fraction=[0.1, 0.2])
    # the speed is checked before the plan or flows are looked at
    with pytest.raises(ValueError, match=r"drive_speed_mb_s=nan must be finite"):
        library_plan(drive_speed_mb_s=math.nan)


def test_the_smallest_answers_still_plan():
    # Found by tests/test_properties.py: a sensitivity moving the volume size to the bottom
    # of its range (then 1e-9 MB) asked the copy's efficiency for files of 4e-10 MB and
    # 10^13 per mount, outside the CERN formula's ranges; an efficiency answered in (0, 1e-9)
    # was refused by the sizing. The volume is now at least a byte, files per mount at most
    # 10^9, the efficiency at least 1e-9.
    for a in (Answers(volume_mb=1e-6, cf=100.0), Answers(volume_mb=1e-6, cf=1.0)):
        vts = vts_plan(Plan(a))
        assert len(vts.results) > 0
    lib = library_plan(Plan(Answers(drive_efficiency=1e-9)))
    assert lib.drives > 0
    with pytest.raises(ValueError, match="volume_mb"):
        Answers(volume_mb=1e-9)


# --- read hits from a mount log ---------------------------------------------------------------------
def one_ratio_log(ratio_reads: int = 3, n: int = 200):
    """A mount log whose read-hit ratio is ratio_reads / (ratio_reads + 1) at every capacity of 1 MB up.

    Each volume is written, then read ``ratio_reads`` times (hits: it is the most recent);
    then a volume never seen is read (a miss at any size: the first mount of a volume).
    All volumes are 1 MB, so the ratio by bytes equals the ratio by count.
    """
    from vtsmodel.mountlog import mount_log

    vols, kinds = [], []
    for i in range(n):
        vols += [f"V{i}"] * (1 + ratio_reads) + [f"W{i}"]
        kinds += ["scratch_write"] + ["read"] * ratio_reads + ["read"]
    return mount_log(np.arange(len(vols)) * 60.0, vols, np.ones(len(vols)), kinds)


def test_a_mount_log_with_one_ratio_at_every_size_equals_that_ratio_typed_in():
    from vtsmodel.hits import lru_hit_curve

    curve = lru_hit_curve(one_ratio_log())
    assert np.allclose(curve.read_byte_hit_ratio([0.001, 72.0, 1728.0]), 0.75)
    typed = vts_plan(Plan(Answers(read_hit=0.75)))
    logged = vts_plan(Plan(Answers(read_hit=0.2), hits=curve))  # the answered 0.2 is replaced
    assert len(typed.results) == len(logged.results)
    for a, b in zip(typed.results, logged.results, strict=True):
        assert b.read_hit == pytest.approx(0.75) and a.read_hit == 0.75
        _same(a.summary(), b.summary())
        assert [c.text for c in a.checks] == [c.text for c in b.checks]
        assert np.allclose(a.recall_ready_s, b.recall_ready_s, equal_nan=True)
    assert typed.recommended.config == logged.recommended.config
    assert logged.day["read hit ratio [-]"] == pytest.approx(0.75)
    assert logged.day["read hit basis"].startswith("mount log")
    assert logged.day["recalls per day [-]"] == pytest.approx(typed.day["recalls per day [-]"])


def _same(a: dict, b: dict) -> bool:
    for k in a:
        if isinstance(a[k], float):
            assert a[k] == pytest.approx(b[k], nan_ok=True), k
        else:
            assert a[k] == b[k], k
    return True


def test_each_configuration_runs_with_its_own_read_hit_from_the_log():
    from vtsmodel.hits import lru_hit_curve, tvc_read_hit
    from vtsmodel.mountlog import synthetic_mount_log

    # a week of 200 MB (compressed) volumes: the hit ratio climbs over Table 3's sizes
    curve = lru_hit_curve(synthetic_mount_log(6000, 3000, seed=3, median_size_mb=200.0, popularity=0.6))
    answers = Answers(read_gb_per_day=2000.0, cf=2.5)
    logged = vts_plan(Plan(answers, hits=curve))
    ratios = {}
    for r in logged.results:
        want = float(tvc_read_hit(curve, r.config.tvc_gb, feature=r.config.feature, cf=2.5))
        assert r.read_hit == pytest.approx(want)
        ratios[(r.config.tvc_gb, r.config.feature)] = want
    assert len(set(np.round(list(ratios.values()), 6))) > 3  # not one guess: the ratio varies with the cache
    # each configuration equals a plan with its own ratio typed in
    for r in logged.results[:: len(logged.results) // 5]:
        typed = evaluate_configuration(Plan(answers.replace(read_hit=r.read_hit)), r.config)
        _same(typed.summary(), r.summary())
        assert np.allclose(typed.recall_ready_s, r.recall_ready_s, equal_nan=True)
    # the base VTS holds host-size volumes: at the same capacity it holds less than EHPO (Sec. 2)
    assert ratios[(576.0, "base")] < ratios[(576.0, "ehpo")]
    # the answered ratio moves nothing with a log: the tornado leaves it out
    assert "read hit ratio" not in {r.driver for r in sensitivity(Plan(answers, hits=curve)).rows}


def test_a_plan_file_references_its_mount_log(tmp_path):
    from vtsmodel.hits import lru_hit_curve

    log = ROOT / "examples" / "example_mount_log.csv"
    (tmp_path / "log.csv").write_bytes(log.read_bytes())
    plan = Plan(Answers(), hits=lru_hit_curve(log), mount_log_file="log.csv", name="with a log")
    path = save_plan(plan, tmp_path / "plan.json")
    assert json.loads(path.read_text())["mount_log"] == {"file": "log.csv"}
    back = load_plan(path)
    assert back.mount_log_file == "log.csv"
    assert back.hits.read_hit_ratio(864.0) == plan.hits.read_hit_ratio(864.0)
    # a plan from bytes (an upload to a page) reads no file on the server
    with pytest.raises(ValueError, match="references the mount log 'log.csv'.*reads no file"):
        plan_from_bytes(path.read_bytes())
    # a log without a file name cannot be referenced: saving it would lose it
    with pytest.raises(ValueError, match="mount log without a file name"):
        plan_to_dict(Plan(Answers(), hits=plan.hits))
    doc = plan_to_dict(Plan(Answers()))
    assert "mount_log" not in doc  # plans without a log are written as before
    bad = {**json.loads(path.read_text()), "mount_log": {"file": "missing.csv"}}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="mount log file missing.csv: no such file"):
        load_plan(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="hits=.* must be a HitCurve"):
        Plan(Answers(), hits={"864": 0.7})


@pytest.mark.parametrize(
    "bad", [np.array([]), np.array([1.0, 2.0]), np.zeros((2, 2))], ids=["empty", "two", "2x2"]
)
def test_every_answer_given_an_array_names_itself(bad):
    """Issue 27: ``Answers(cf=np.array([]))`` said "can only convert an array of size 1"."""
    for f in dataclasses.fields(Answers):
        with pytest.raises(
            ValueError, match=rf"^{f.name} is an (empty array|array of {bad.size} values); .* takes one value"
        ):
            Answers(**{f.name: bad})
    assert (
        Answers(cf=np.array([2.5])).cf == 2.5 and Answers(cf=np.float64(2.5)).cf == 2.5
    )  # one value is one value
