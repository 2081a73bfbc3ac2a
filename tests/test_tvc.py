"""Tests of vtsmodel.tvc, vtsmodel.workload and vtsmodel.tvc_day: time at peak, its inverse, the cache simulation, profiles."""

from __future__ import annotations

import io
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import b18, tvc
from vtsmodel.data import load
from vtsmodel.throughput import write_rate
from vtsmodel.tvc import effective_capacity_gb, hours_at_peak, smallest_configuration, tvc_needed
from vtsmodel.tvc_day import simulate_tvc
from vtsmodel.workload import PROFILES, make_profile, read_profile_csv

FACTS = load("vts_facts")
RATES = {"peak_mb_s": 80.0, "sustained_mb_s": 50.0}  # explicit rates: tests of the model alone


# --- source statements ------------------------------------------------------------------
def test_sec4_time_at_peak_grows_with_capacity():
    # Sec. 4: "With a larger TVC capacity the VTS can run in a peak write mode longer."
    configs = b18.product_configurations("paf")
    h = hours_at_peak(configs, 3.0)
    assert np.all(np.diff(h) > 0)


def test_fig4_caption_default_backlog_is_the_stated_zero():
    # Fig. 4 caption: "It is assumed that the TVC has no un-migrated data at the time the
    # write activity begins." The default starting backlog is that row's value.
    assert FACTS.value("fig4_unmigrated_at_start") == 0.0
    assert hours_at_peak(864, 3.0) == hours_at_peak(
        864, 3.0, backlog_gb=FACTS.value("fig4_unmigrated_at_start")
    )


def test_fig10_caption_algorithm_change_above_864():
    # Fig. 10 caption: "For TVC capacities greater than 864 GB the algorithms for managing
    # the cache content are modified." Below 864 GB the effective capacity is the
    # physical one; above, the slope is the (derived) fraction.
    knee = FACTS.value("cache_algorithm_change_tvc")
    assert effective_capacity_gb(knee) == knee
    assert effective_capacity_gb(500.0) == 500.0
    f = tvc.above_864_fraction_default()
    assert effective_capacity_gb(1728.0) == pytest.approx(knee + f * (1728.0 - knee))


def test_sec4_1200_gb_effective_capacity_reading():
    # Sec. 4: "the 1200 GB effective capacity"; read as the 1728 GB TVC's (documented
    # reading), so the default effective capacity of 1728 GB is exactly that row.
    assert effective_capacity_gb(FACTS.value("tvc_capacity_1728")) == pytest.approx(
        FACTS.value("fig10_effective_capacity")
    )


def test_peak_copy_and_sustained_consistent_with_sec3_1_2():
    # Sec. 3.1.2: sustained = "the rate of incoming data equaling the rate at which data is
    # being copied": at the sustained rate the un-copied data does not grow.
    p, s = write_rate(3.0, 1728, mode="peak"), write_rate(3.0, 1728, mode="sustained")
    assert hours_at_peak(1728, 3.0, offered_mb_s=s) == math.inf
    assert math.isfinite(hours_at_peak(1728, 3.0, offered_mb_s=p))


def test_base_cache_holds_uncompressed_data():
    # Sec. 2: "Without the data compression feature, data is compressed at the 3590":
    # the base cache fills at the host rate whatever CF; EHPO/PAF fill at host rate / CF.
    assert hours_at_peak(216, 1.0, feature="base") == hours_at_peak(216, 4.0, feature="base")
    assert tvc.cache_cf(3.0, "base") == 1.0
    assert tvc.cache_cf(3.0, "ehpo") == 3.0


def test_default_rates_come_from_write_rate():
    t_default = hours_at_peak(576, 2.5, feature="ehpo")
    t_explicit = hours_at_peak(
        576,
        2.5,
        feature="ehpo",
        peak_mb_s=write_rate(2.5, 576, feature="ehpo", mode="peak"),
        sustained_mb_s=write_rate(2.5, 576, feature="ehpo", mode="sustained"),
    )
    assert t_default == t_explicit


def test_configuration_names_the_layout_for_the_rates():
    # 144 GB of 9 GB HDDs is 8(2+P), Table 4's "576 /144" column; 144 GB of 36 GB HDDs is
    # 4(2+P), the "≤288 /72" column: same capacity, different rates, different time at peak.
    nine = hours_at_peak(None, 3.0, feature="ehpo", tvc_config="tvc_144_9gb_base_ehpo")
    rates = {
        m: write_rate(3.0, tvc_config="tvc_144_9gb_base_ehpo", feature="ehpo", mode=m)
        for m in ("peak", "sustained")
    }
    assert nine == hours_at_peak(
        144, 3.0, feature="ehpo", peak_mb_s=rates["peak"], sustained_mb_s=rates["sustained"]
    )
    assert nine != hours_at_peak(None, 3.0, feature="ehpo", tvc_config="tvc_144_36gb_base_ehpo")
    with pytest.raises(ValueError, match="does not match tvc_config"):
        hours_at_peak(288, 3.0, tvc_config="tvc_144_9gb_base_ehpo", feature="ehpo")
    with pytest.raises(ValueError, match="tvc_gb=None"):
        hours_at_peak(None, 3.0)


def test_analytic_formula_by_hand():
    # (θ·C − B) / (P/CF − f·S/CF): 0.95·432 GB, P 80, S 50, CF 4, f 0.1, no backlog
    expected = 0.95 * 432 * 1000 / (80 / 4 - 0.1 * 50 / 4) / 3600
    assert hours_at_peak(432, 4.0, **RATES) == pytest.approx(expected, rel=1e-12)


# --- inverse ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("feature", "tvc"),
    [("base", [100.0, 300.0, 700.0, 1100.0]), ("ehpo", [100.0, 300.0, 700.0, 1100.0]),
     ("paf", [100.0, 300.0, 700.0, 1200.0, 1700.0])],
)  # fmt: skip
@pytest.mark.filterwarnings("ignore:.*not offered:vtsmodel._validation.ExtrapolationWarning")
def test_tvc_needed_inverts_hours_at_peak_with_default_rates(feature, tvc):
    tvc = np.array(tvc)
    h = hours_at_peak(tvc, 2.5, feature=feature)
    np.testing.assert_allclose(tvc_needed(h, 2.5, feature=feature), tvc, rtol=1e-7)


def test_tvc_needed_beyond_the_largest_ehpo_configuration_warns():
    # Base and EHPO stop at 1152 GB (Table 3): a longer burst needs more than is offered.
    with pytest.warns(vtsmodel.ExtrapolationWarning, match=r"Table 3 \(ehpo\)"):
        tvc_needed(30.0, 3.0, feature="ehpo")


def test_smallest_configuration_table3():
    # Table 3 PAF column: 216, 432, 864, 1728 GB
    np.testing.assert_array_equal(
        smallest_configuration([1.0, 216.0, 217.0, 900.0, 1728.0, 1729.0]),
        [216.0, 216.0, 432.0, 1728.0, 1728.0, np.nan],
    )
    assert smallest_configuration(500.0, "ehpo") == 576.0


def test_tvc_needed_beyond_table3_warns():
    with pytest.warns(vtsmodel.ExtrapolationWarning, match="Table 3"):
        tvc_needed(40.0, 3.0)


# --- properties ---------------------------------------------------------------------------
# Table 3 range, where write_rate does not extrapolate; 144 and 288 GB alone warn (two layouts)
cap = st.floats(72.0, 1728.0).filter(lambda t: t not in (144.0, 288.0))
cfs = st.floats(1.0, 4.0)


@settings(max_examples=60, deadline=None)
@given(c1=cap, c2=cap, cf=cfs, feature=st.sampled_from(["base", "ehpo", "paf"]))
@pytest.mark.filterwarnings("ignore:.*not offered:vtsmodel._validation.ExtrapolationWarning")
def test_property_non_decreasing_in_capacity(c1, c2, cf, feature):
    lo, hi = sorted((c1, c2))
    assert hours_at_peak(lo, cf, feature=feature) <= hours_at_peak(hi, cf, feature=feature) * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(c=cap, a=cfs, b=cfs)
def test_property_non_decreasing_in_cf_explicit_rates(c, a, b):
    lo, hi = sorted((a, b))
    assert hours_at_peak(c, lo, **RATES) <= hours_at_peak(c, hi, **RATES) * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(
    c=cap,
    cf=cfs,
    o1=st.floats(0.0, 120.0),
    o2=st.floats(0.0, 120.0),
    b1=st.floats(0, 40),
    b2=st.floats(0, 40),
)
def test_property_non_increasing_in_offered_rate_and_backlog(c, cf, o1, o2, b1, b2):
    olo, ohi = sorted((o1, o2))
    blo, bhi = sorted((b1, b2))
    assert hours_at_peak(c, cf, offered_mb_s=ohi, **RATES) <= hours_at_peak(c, cf, offered_mb_s=olo, **RATES)
    assert hours_at_peak(c, cf, backlog_gb=bhi, **RATES) <= hours_at_peak(c, cf, backlog_gb=blo, **RATES)


@settings(max_examples=60, deadline=None)
@given(h=st.floats(0.0, 30.0), cf=cfs, th=st.floats(0.5, 1.0), f=st.floats(0.0, 0.5), b=st.floats(0, 50))
def test_property_tvc_needed_inverts_explicit_rates(h, cf, th, f, b):
    kw = dict(threshold=th, peak_copy_fraction=f, backlog_gb=b, **RATES)
    c = tvc_needed(h, cf, **kw)
    assert hours_at_peak(c, cf, **kw) == pytest.approx(h, rel=1e-9, abs=1e-9)


# --- simulation ---------------------------------------------------------------------------
def _check_conservation(run):
    # round-off is relative to the largest quantity in the balance, backlog included
    scale = max(run.offered_total_mb[-1], run.backlog_gb * 1000 + run.written_total_mb[-1], 1.0)
    # written = copied + not yet copied (physical MB), at every step boundary
    np.testing.assert_allclose(
        run.backlog_gb * 1000 + run.written_total_mb,
        run.copied_total_mb + run.uncopied_gb * 1000,
        rtol=0,
        atol=1e-9 * scale,
    )
    # offered = accepted + delayed (host MB)
    np.testing.assert_allclose(
        run.offered_total_mb, run.accepted_total_mb + run.delayed_mb, rtol=0, atol=1e-9 * scale
    )
    for arr in (run.uncopied_gb, run.delayed_mb, run.accepted_mb_s, run.copy_mb_s):
        assert np.all(arr >= 0)
    assert np.all(run.uncopied_gb <= run.capacity_gb * (1 + 1e-12))
    assert np.all(run.accepted_mb_s <= run.peak_mb_s * (1 + 1e-9))


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("feature", ["base", "ehpo", "paf"])
def test_conservation_builtin_profiles(name, feature):
    run = simulate_tvc(name, tvc_gb=432 if feature == "paf" else 576, cf=2.5, feature=feature)
    _check_conservation(run)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(st.floats(0, 150), st.floats(0, 60)), min_size=1, max_size=6),
    tvc=st.sampled_from([216.0, 432.0, 864.0, 1728.0]),
    cf=cfs,
    backlog=st.floats(0, 1.0),
    step=st.sampled_from([1.0, 7.0, 15.0]),
)
def test_property_conservation_random_profiles(rows, tvc, cf, backlog, step):
    prof = make_profile(
        [(2.0 * i, w, r) for i, (w, r) in enumerate(rows)], duration_hours=2.0 * len(rows) + 3
    )
    run = simulate_tvc(
        prof, tvc_gb=tvc, cf=cf, backlog_gb=backlog * effective_capacity_gb(tvc), step_minutes=step, **RATES
    )
    _check_conservation(run)


@pytest.mark.parametrize("tvc", [216.0, 864.0, 1728.0])
@pytest.mark.parametrize("step", [1.0, 7.0])
def test_constant_load_simulated_time_at_peak_equals_analytic(tvc, step):
    # a host offering more than the peak rate for longer than the cache lasts
    prof = make_profile([(0, 120.0, 0.0)], duration_hours=30)
    kw = dict(threshold=0.9, peak_copy_fraction=0.2, backlog_gb=50.0, **RATES)
    run = simulate_tvc(prof, tvc_gb=tvc, cf=3.0, step_minutes=step, **kw)
    expected = hours_at_peak(tvc, 3.0, **kw)
    assert run.hours_at_peak == pytest.approx(expected, rel=1e-9)
    assert run.peak_occupancy_gb == pytest.approx(run.threshold_gb, rel=1e-12)
    # after the threshold the VTS accepts the sustained rate (Sec. 3.1.2: input = copying)
    late = run.time_hours[:-1] > expected + step / 60
    np.testing.assert_allclose(run.accepted_mb_s[late], RATES["sustained_mb_s"], rtol=1e-9)
    assert run.hours_throttled == pytest.approx(30 - expected, abs=step / 60)


def test_constant_offered_below_peak_matches_analytic():
    prof = make_profile([(0, 65.0, 0.0)], duration_hours=40)
    run = simulate_tvc(prof, tvc_gb=432, cf=2.0, **RATES)
    assert run.first_throttle_hours == pytest.approx(
        hours_at_peak(432, 2.0, offered_mb_s=65.0, **RATES), abs=1 / 60
    )


def test_throttling_delays_not_loses_and_drains():
    # Sec. 5: "A delay is added to each incoming write operation": nothing offered is lost
    run = simulate_tvc("nightly batch window", tvc_gb=432, cf=3.0)
    assert run.hours_throttled > 0
    assert run.delay_mb_hours > 0 and run.max_delay_hours > 0
    assert run.accepted_total_mb[-1] == pytest.approx(run.offered_total_mb[-1], rel=1e-12)
    assert run.backlog_cleared_hours < PROFILES["nightly batch window"].duration_hours
    assert run.uncopied_gb[-1] == 0.0


def test_little_copy_during_peak_sec3_1_1():
    # Sec. 3.1.1: "Until a fill threshold ... is reached there is little copy activity"
    prof = make_profile([(0, 200.0, 0.0)], duration_hours=10)
    run = simulate_tvc(prof, tvc_gb=864, cf=3.0, backlog_gb=100, peak_copy_fraction=0.1, **RATES)
    at_peak = run.at_peak_hours > 0
    np.testing.assert_allclose(run.copy_mb_s[at_peak & ~run.throttled], 0.1 * 50 / 3, rtol=1e-9)


def test_more_capacity_less_throttling():
    a = simulate_tvc("weekly full backup", tvc_gb=432, cf=3.0)
    b = simulate_tvc("weekly full backup", tvc_gb=1728, cf=3.0)
    assert b.hours_throttled < a.hours_throttled
    assert b.hours_at_peak > a.hours_at_peak


def test_recalls_take_copy_bandwidth_without_paf():
    # Sec. 5: "The same situation can also occur with recalls": without PAF they share the
    # drives with the copy, so the input accepted once throttled falls.
    base = make_profile([(0, 120.0, 0.0)], duration_hours=20)
    reads = make_profile([(0, 120.0, 10.0)], duration_hours=20)
    a = simulate_tvc(base, tvc_gb=576, cf=3.0, feature="ehpo", read_hit=0.5)
    b = simulate_tvc(reads, tvc_gb=576, cf=3.0, feature="ehpo", read_hit=0.5)
    assert b.accepted_total_mb[-1] < a.accepted_total_mb[-1]
    # at the threshold: accepted / CF = copy = sustained / CF - recalls
    k = -1
    assert b.accepted_mb_s[k] == pytest.approx(b.sustained_mb_s - 5.0, rel=1e-9)
    _check_conservation(b)


@pytest.mark.parametrize("reads", [0.0, 10.0, 40.0, 200.0])
def test_paf_input_not_throttled_for_recalls(reads):
    # Sec. 5: "With PAF, input is not throttled for recalls and when copying to physical
    # tape": the accepted rate at the threshold is the sustained rate whatever the recalls
    # (earlier the model let heavy recalls drive accepted PAF writes to 0 MB/s).
    prof = make_profile([(0, 200.0, reads)], duration_hours=20)
    run = simulate_tvc(prof, tvc_gb=216, cf=3.0, read_hit=0.0)
    assert run.throttled[-1]
    assert run.accepted_mb_s[-1] == pytest.approx(run.sustained_mb_s, rel=1e-9)
    _check_conservation(run)


def test_recalls_bounded_by_the_recall_ceiling():
    # Recalls are served up to the read model's ceiling (PAF: Table 1's read recall rate;
    # without PAF: the sustained write rate, Sec. 3.5.4); the rest are reported unserved.
    prof = make_profile([(0, 10.0, 100.0)], duration_hours=2)
    run = simulate_tvc(prof, tvc_gb=864, cf=2.66, read_hit=0.0)
    ceiling = load("vts_read_rates").value("read_recall_cf2_66")
    assert run.recall_ceiling_mb_s == pytest.approx(ceiling, rel=1e-3)
    np.testing.assert_allclose(run.recall_mb_s * run.cache_cf, run.recall_ceiling_mb_s)
    np.testing.assert_allclose(run.recall_unserved_mb_s, 100.0 - run.recall_ceiling_mb_s)
    ehpo = simulate_tvc(prof, tvc_gb=576, cf=2.66, read_hit=0.0, feature="ehpo")
    assert ehpo.recall_ceiling_mb_s == pytest.approx(ehpo.sustained_mb_s)
    assert np.all(ehpo.accepted_mb_s >= 0)


def test_read_hit_default_is_the_typical_mix():
    # Sec. 3.5.6: "the reads are assumed to have a 50% hit ratio" (the earlier 0.8 had no source).
    from vtsmodel.tvc_day import default_read_hit

    assert default_read_hit() == FACTS.value("typical_mix_read_hit_ratio") == 0.5
    assert simulate_tvc("steady day", tvc_gb=864, cf=3.0).params["read_hit"] == 0.5


def test_summary_keys_and_units():
    s = simulate_tvc("steady day", tvc_gb=864, cf=3.0).summary()
    assert set(s) >= {
        "Time at peak [h]",
        "Time throttled [h]",
        "Delay imposed [MB·h]",
        "Peak un-copied data [GB]",
    }


def test_bad_simulation_input():
    with pytest.raises(ValueError, match="profile='nope'"):
        simulate_tvc("nope", tvc_gb=432, cf=3)
    with pytest.raises(ValueError, match="backlog_gb"):
        simulate_tvc("steady day", tvc_gb=432, cf=3, backlog_gb=5000)
    with pytest.raises(ValueError, match="threshold"):
        hours_at_peak(432, 3, threshold=0)
    with pytest.raises(ValueError, match="sustained_mb_s"):
        hours_at_peak(432, 3, peak_mb_s=10, sustained_mb_s=20)
    with pytest.raises(ValueError, match="feature"):
        hours_at_peak(432, 3, feature="xyz")


# --- profiles -----------------------------------------------------------------------------
def test_builtin_profiles_are_labelled_illustrative():
    for prof in PROFILES.values():
        assert "not source data" in prof.assumptions


GOOD = "start_hours,write_mb_s,read_mb_s\n0,10,5\n2,90,5\n8,10,15\n"


def test_read_csv_text_file_and_path(tmp_path):
    p = tmp_path / "day.csv"
    p.write_text(GOOD)
    for src in (GOOD, io.StringIO(GOOD), p):
        prof = read_profile_csv(src)
        np.testing.assert_array_equal(prof.start_hours, [0, 2, 8])
        np.testing.assert_array_equal(prof.write_mb_s, [10, 90, 10])
    assert read_profile_csv(p).name == "day"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("start,write,read\n0,1,1\n", "line 1: header"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,1\n2,abc,1\n", r"line 3: write_mb_s='abc' is not a number"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,1\n2,-4,1\n", r"line 3: write_mb_s='-4' is outside"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,1\n5,1,1\n3,1,1\n", "line 4: start_hours=3 is not after"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,1\n2,1\n", "line 3: expected 3 values"),
        ("start_hours,write_mb_s,read_mb_s\n1,1,1\n", "line 2: start_hours=1 must be 0"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,1\n30,1,1\n", "line 3: start_hours=30 is not before"),
        ("start_hours,write_mb_s,read_mb_s\n0,1,nan\n", "line 2: read_mb_s='nan' is outside"),
        ("start_hours,write_mb_s,read_mb_s\n\n0,1,1\n\n2,x,1\n", "line 5: write_mb_s='x'"),
    ],
)
def test_read_csv_errors_name_the_line(text, match):
    with pytest.raises(ValueError, match=match):
        read_profile_csv(text)


def test_bad_file_leaves_nothing_half_loaded(tmp_path):
    # the reader returns a profile or raises: no partial object escapes
    p = tmp_path / "bad.csv"
    p.write_text("start_hours,write_mb_s,read_mb_s\n0,1,1\n2,1,1\n1,1,1\n")
    got = None
    with pytest.raises(ValueError, match="line 4"):
        got = read_profile_csv(p)
    assert got is None


def test_make_profile_row_errors():
    with pytest.raises(ValueError, match="row 2: write_mb_s"):
        make_profile([(0, 1, 1), (1, None, 1)])
    with pytest.raises(ValueError, match="no rows"):
        make_profile([])


def test_public_names():
    from vtsmodel import tvc, tvc_day

    for module, name in ((tvc, "hours_at_peak"), (tvc, "tvc_needed"), (tvc_day, "simulate_tvc")):
        assert getattr(vtsmodel, name) is getattr(module, name)


# --- bad input: named, bounded, never an AttributeError ----------------------------------------------
def test_a_tiny_step_is_refused_at_once(monkeypatch):
    # Before: step_minutes=1e-6 ran 1.44e9 steps (hours, and memory without limit).
    from vtsmodel import tvc_day

    with pytest.raises(
        ValueError, match=r"step_minutes=1e-06 takes 1.44e\+09 steps over the profile's 24 h; at most"
    ):
        simulate_tvc("steady day", tvc_gb=864, cf=3, step_minutes=1e-6)
    monkeypatch.setattr(tvc_day, "MAX_STEPS", 48)  # the limit itself is allowed
    assert simulate_tvc("steady day", tvc_gb=864, cf=3, step_minutes=30).time_hours.size == 49
    with pytest.raises(ValueError, match="at most 48: choose a step of at least 30 min"):
        simulate_tvc("steady day", tvc_gb=864, cf=3, step_minutes=29.9)


@pytest.mark.parametrize("profile", [None, 3, b"steady day", ["steady day"]])
def test_a_profile_that_is_not_one_is_a_value_error(profile):
    # Before: simulate_tvc(None, ...) raised AttributeError ('NoneType' has no attribute 'duration_hours').
    with pytest.raises(ValueError, match=r"profile=.* must be a Profile"):
        simulate_tvc(profile, tvc_gb=864, cf=3)


def test_scalar_inputs_refuse_arrays_by_name():
    # Before: TypeError "only length-1 arrays can be converted to Python scalars".
    with pytest.raises(ValueError, match=r"^threshold must be a single number"):
        hours_at_peak(864, 3, threshold=[0.9, 0.95])
    with pytest.raises(ValueError, match=r"^tvc_gb must be a single number"):
        simulate_tvc("steady day", tvc_gb=[864, 1728], cf=3)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_profile_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "day.csv"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a profile CSV file"):
        read_profile_csv(fifo)


def test_profile_rows_that_are_not_rows_are_value_errors():
    for rows, match in [(None, "must be a list of"), ("0,10,5", "must be a list of"), ([5], "row 1: expected 3 values"),
                        ([(0, 10**400, 5)], r"row 1: write_mb_s=1000.* is outside")]:  # fmt: skip
        with pytest.raises(ValueError, match=match):
            make_profile(rows)
