"""The statement ledger (data/statements.csv): every checkable statement, recomputed.

Each ledger row that has a ``relation`` is recomputed here by the check registered under
its id: the model function named in the row, called with the statement's conditions
(for ``source-inconsistent`` rows: the source's own arithmetic, from the data rows). The
test then asserts what the row's status says:

- ``reproduced``, ``calibrated`` and ``by-construction``: the statement holds
  (``computed <relation> expected`` within ``tolerance``);
- ``reproduced``: besides, the model does not read the data rows of the statement
  (:func:`test_a_reproduced_statement_is_not_read_by_its_model`): agreement it was built
  to give is no evidence;
- ``contradicted`` and ``source-inconsistent``: it does not, and the note gives the
  computed value (or the gap) that this run measures;
- every checked row: the live answer equals the ``computed`` value recorded in the
  ledger, so a model change that moves an answer fails the row it moves.

After a deliberate model change, review the failing rows and record the new answers with
``python tests/test_statements.py --record`` (it rewrites only the ``computed`` column).
"""

from __future__ import annotations

import csv
import importlib
import io
import math
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from source_quotes import SourceQuotes

from vtsmodel import ExtrapolationWarning, _tables, b18, data, load

ROOT = Path(__file__).resolve().parents[1]
LEDGER = data.statements()
BY_ID = {r["id"]: r for r in LEDGER}
CHECKED = [r for r in LEDGER if r["relation"]]

#: Statement id -> a function of no argument returning the computed value (a number, or
#: a bool for ``holds``).
CHECKS: dict[str, Callable[[], float | bool]] = {}


def check(*ids: str):
    """Register a function as the check of the ledger rows ``ids``."""

    def register(fn):
        for i in ids:
            if i in CHECKS:
                raise KeyError(f"two checks for statement {i!r}")
            CHECKS[i] = fn
        return fn

    return register


def fact(row_id: str) -> float:
    return load("vts_facts").value(row_id)


def quiet(fn, *args, **kwargs):
    """Call a model where the statement's conditions lie outside a validated range."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return fn(*args, **kwargs)


# ======================================================================================
# ibm-vts-b18-2000
# ======================================================================================
from vtsmodel import bottleneck, import_export, recall, throughput, tvc, tvc_day, workload  # noqa: E402

wr = throughput.write_rate
#: Table 4's columns, each by the 36 GB-HDD configuration of its RAID layout (a capacity alone
#: takes 288 GB as 16(2+P) of 9 GB HDDs, the third column: vtsmodel.b18).
T4_COLUMNS = ("tvc_288_36gb_base_ehpo", "tvc_576_36gb_base_ehpo", "tvc_1152_36gb_base_ehpo")
PAF_CAPACITIES = (216.0, 432.0, 864.0, 1728.0)
CF_GRID = np.linspace(1.0, 4.0, 13)


@check("vts_paf_capacities")
def _():
    return list(b18.product_configurations("paf")) == list(PAF_CAPACITIES)


@check("vts_raid_layout")
def _():
    return all((c.raid_layout == "6+P") == (c.features == "paf") for c in b18.configurations()) and {
        c.raid_layout for c in b18.configurations()
    } == {"2+P", "6+P"}


@check("vts_3590e_vs_b")
def _():
    return recall.drive_preset("3590B")["rate_mb_s"]


@check("vts_compression_where")
def _():
    return (
        float(tvc.cache_cf(3.0, "ehpo")) == 3.0
        and float(tvc.cache_cf(3.0, "paf")) == 3.0
        and (float(tvc.cache_cf(3.0, "base")) == 1.0)
    )


@check("vts_larger_tvc_time_at_peak", "vts_larger_tvc_longer_peak")
def _():
    caps = b18.product_configurations("paf")
    return bool(np.all(np.diff(tvc.hours_at_peak(caps, 3.0)) > 0))


@check("vts_paf_longer_peak_low_cf")
def _():
    caps = b18.product_configurations("paf")
    return bool(np.all(np.diff(tvc.hours_at_peak(caps, 2.0)) > 0))


@check("vts_larger_tvc_bandwidth")
def _():
    ok = True
    for mode in ("sustained", "peak"):
        rates = np.array([wr(CF_GRID, tvc_config=c, feature="ehpo", mode=mode) for c in T4_COLUMNS])
        ok &= bool(np.all(np.diff(rates, axis=0) > 0))
    return ok


@check("vts_more_drives_faster_recall")
def _():
    t = [float(recall.recall_response_s(12, 250.0, drives=d)) for d in range(2, 7)]
    return bool(np.all(np.diff(t) <= 0) and t[-1] < t[0])


@check("vts_paf_up_to_100pct")
def _():
    # The source's own numbers: 50 MB/s (PAF) over 19.5 MB/s (EHPO) at CF 3, Sec. 3.5.3.
    return fact("paf_sustained_cf3") / fact("ehpo_sustained_cf3_max_tvc")


@check("vts_little_copy_below_threshold")
def _():
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=216.0, cf=3.0)
    at_peak = (run.at_peak_hours > 0) & ~run.throttled
    return bool(np.max(run.copy_mb_s[at_peak]) < np.min(run.copy_mb_s[run.throttled]))


@check("vts_base_peak_low")
def _():
    return wr(1.0, tvc_config="tvc_72_9gb_base_ehpo", feature="base", mode="peak")


@check("vts_base_peak_high")
def _():
    return wr(1.0, tvc_config="tvc_1152_36gb_base_ehpo", feature="base", mode="peak")


@check("vts_base_sustained_low")
def _():
    return wr(1.0, tvc_config="tvc_72_9gb_base_ehpo", feature="base")


@check("vts_base_sustained_high")
def _():
    return wr(1.0, tvc_config="tvc_1152_36gb_base_ehpo", feature="base")


@check("vts_peak_ride_through")
def _():
    return float(tvc.hours_at_peak(864.0, 3.0)) > float(tvc.hours_at_peak(864.0, 3.0, backlog_gb=200.0))


@check("vts_fig4_no_unmigrated")
def _():
    default = float(tvc.hours_at_peak(864.0, 3.0))
    for b in (0.0, 1.0, 10.0):
        if float(tvc.hours_at_peak(864.0, 3.0, backlog_gb=b)) == default:
            return b
    return math.nan


def _throttled_run(feature, read_mb_s, hit=0.0):
    profile = workload.make_profile([(0, 200.0, read_mb_s)], duration_hours=30.0, name="saturating")
    return tvc_day.simulate_tvc(
        profile,
        **({"tvc_config": "tvc_288_36gb_base_ehpo"} if feature != "paf" else {"tvc_gb": 216.0}),
        cf=3.0,
        feature=feature,
        read_hit=hit,
    )


@check("vts_sustained_balance")
def _():
    run = _throttled_run("paf", 0.0)
    k = np.flatnonzero(run.throttled)[-1]
    return bool(np.isclose(run.accepted_mb_s[k] / run.cache_cf, run.copy_mb_s[k], rtol=1e-9))


@check("vts_throttled_is_sustained")
def _():
    run = _throttled_run("paf", 0.0)
    k = np.flatnonzero(run.throttled)[-1]
    return bool(np.isclose(run.accepted_mb_s[k], float(wr(3.0, 216.0)), rtol=1e-9))


@check("vts_sustained_below_peak")
def _():
    ok = True
    for feature in ("base", "ehpo", "paf"):
        for c in T4_COLUMNS:
            ok &= bool(
                np.all(
                    wr(CF_GRID, tvc_config=c, feature=feature)
                    < wr(CF_GRID, tvc_config=c, feature=feature, mode="peak")
                )
            )
    return ok


@check("vts_recall_example_four")
def _():
    return recall.recall_drives(6, 2)


@check("vts_recall_queue_sequential")
def _():
    free = float(recall.recall_ready_s(250.0))
    service = float(recall.recall_service_s(250.0))
    queued = recall.recall_response_s(np.arange(4, 12), 250.0, drives=4)
    return bool(np.all(queued >= free + service - 1e-9))


@check("vts_recall_best_case_low")
def _():
    return recall.recall_ready_s(fact("fig6_volume_mb_small"), cf=fact("fig6_cf"))


@check("vts_recall_best_case_high")
def _():
    return recall.recall_ready_s(fact("fig6_volume_mb_large"), cf=fact("fig6_cf"))


@check("vts_fig6_3590e_same")
def _():
    vols = np.array([fact(f"fig6_volume_mb_{s}") for s in ("small", "medium", "large")])
    b = recall.recall_response_s(12, vols, drive="3590B")
    e = recall.recall_response_s(12, vols, drive="3590E")
    ratio = np.asarray(e) / np.asarray(b)
    return float(ratio[np.argmax(np.abs(ratio - 1.0))])


@check("vts_fig6_eq3_sec7")
def _():
    # How many equations Sec. 7 has: the equation locators of the import/export table.
    return len(set(load("vts_import_export")["locator"]))


@check("vts_ehpo_cache_bound")
def _():
    ok = True
    for mode in ("sustained", "peak"):
        for c in T4_COLUMNS:
            ok &= bool(
                np.all(
                    bottleneck.binding_resource(CF_GRID, tvc_config=c, feature="ehpo", mode=mode)
                    == "cache disks"
                )
            )
    return ok


@check("vts_ehpo_io_reduced_by_cf")
def _():
    ok = True
    for mode in ("sustained", "peak"):
        for c in T4_COLUMNS:
            ok &= bool(np.all(np.diff(wr(CF_GRID, tvc_config=c, feature="ehpo", mode=mode)) > 0))
    return ok


def _paf_cache_binds():
    """Share of the PAF grid (CF 1 to 4, both modes) where the view's cache disks bind."""
    modes = ("sustained", "peak")
    binds = [bottleneck.binding_resource(CF_GRID, feature="paf", mode=m) == "cache disks" for m in modes]
    return float(np.mean(np.concatenate(binds)))


check("vts_paf_removes_cache_limit")(lambda: 1.0 - _paf_cache_binds())
check("vts_paf_cache_never_a_constraint")(_paf_cache_binds)


@check("vts_ehpo_intercept_is_base")
def _():
    return all(
        float(wr(1.0, tvc_config=c, feature="ehpo", mode=m))
        == float(wr(1.0, tvc_config=c, feature="base", mode=m))
        for c in T4_COLUMNS
        for m in ("sustained", "peak")
    )


@check("vts_ehpo_proportional_cf")
def _():
    ratios = [
        float(wr(3.0, tvc_config=c, feature="ehpo") / wr(1.0, tvc_config=c, feature="ehpo"))
        for c in T4_COLUMNS
    ]
    return min(ratios, key=lambda r: -abs(r - 3.0))


@check("vts_ehpo_19_5")
def _():
    return wr(3.0, tvc_config="tvc_1152_36gb_base_ehpo", feature="ehpo")


@check("vts_ehpo_1728_not_offered", "vts_fig8_ehpo_1152")
def _():
    return float(np.max(b18.product_configurations("ehpo")))


@check("vts_paf_sustained_50")
def _():
    return wr(3.0, 1728.0)


@check("vts_paf_flat_above_3")
def _():
    return wr(4.0, 1728.0) / wr(3.0, 1728.0)


@check("vts_paf_sustained_cf1")
def _():
    return wr(1.0, 1728.0)


@check("vts_paf_proportional_to_3")
def _():
    # The source's arithmetic: "proportional to CF, starting from about 19 MB/s at CF = 1".
    return fact("paf_sustained_cf1") * fact("paf_sustained_knee_cf")


@check("vts_paf_smaller_tvc_same")
def _():
    return wr(3.0, 216.0) / wr(3.0, 1728.0)


@check("vts_paf_hit_ratio_advantage")
def _():
    h = np.linspace(0.0, 1.0, 11)
    return bool(np.all(np.diff(throughput.typical_mix_rate(3.0, read_hit_ratio=h)) > 0))


@check("vts_peak_no_tape_flow")
def _():
    return bool(np.all(np.isinf(bottleneck.write_capacities(CF_GRID, mode="peak")["tape drives"])))


@check("vts_peak_60pct_over_sustained")
def _():
    gains = [
        float(wr(3.0, tvc_config=c, feature="ehpo", mode="peak") / wr(3.0, tvc_config=c, feature="ehpo")) - 1
        for c in T4_COLUMNS
    ]
    return max(gains, key=lambda g: abs(g - 0.6))


check("vts_peak_60pct_over_sustained_paf")(lambda: float(wr(3.0, mode="peak") / wr(3.0)) - 1)


@check("vts_paf_peak_80")
def _():
    return wr(fact("paf_peak_max_min_cf"), 1728.0, mode="peak")


@check("vts_paf_peak_cf1")
def _():
    return wr(1.0, 1728.0, mode="peak")


@check("vts_eight_escon_for_max")
def _():
    return float(bottleneck.bottleneck_rate(3.0, mode="peak", channels=8)) > float(
        bottleneck.bottleneck_rate(3.0, mode="peak", channels=4)
    )


@check("vts_read_hit_like_peak")
def _():
    return throughput.read_rate(2.66, kind="hit") / wr(2.66, mode="peak")


@check("vts_read_recall_like_sustained")
def _():
    return throughput.read_rate(2.66, kind="recall") / wr(2.66)


@check("vts_read_lower_than_write")
def _():
    cf = np.linspace(1.0, 2.66, 50)
    lower = (throughput.read_rate(cf, kind="hit") < wr(cf, mode="peak")) & (
        throughput.read_rate(cf, kind="recall") < wr(cf)
    )
    return float(np.mean(lower))


@check("vts_read_tvc_insensitive")
def _():
    import inspect

    return not any("tvc" in p for p in inspect.signature(throughput.read_rate).parameters)


@check("vts_typical_mix_definition")
def _():
    import inspect

    mix = inspect.signature(throughput.typical_mix_rate).parameters
    day = inspect.signature(tvc_day.simulate_tvc).parameters
    w, h = fact("typical_mix_write_fraction"), fact("typical_mix_read_hit_ratio")
    explicit = float(throughput.typical_mix_rate(3.0, write_fraction=w, read_hit_ratio=h))
    defaults = float(throughput.typical_mix_rate(3.0))
    return (
        defaults == explicit
        and mix["write_fraction"].default in (None, w)
        and day["read_hit"].default in (None, h)
        and tvc_day.default_read_hit() == h
    )


@check("vts_typical_mix_steady_state")
def _():
    # Components in their workload proportions: each host MB takes its part's time, so the
    # total is the bytes-weighted harmonic mean of the parts' rates.
    w, h, cf = 0.6, 0.5, 2.0
    parts = (float(wr(cf)), float(throughput.read_rate(cf)), float(throughput.read_rate(cf, kind="recall")))
    mix = float(throughput.typical_mix_rate(cf, write_fraction=w, read_hit_ratio=h))
    return math.isclose(
        1.0 / mix, w / parts[0] + (1 - w) * h / parts[1] + (1 - w) * (1 - h) / parts[2], rel_tol=1e-12
    )


@check("vts_typical_mix_smaller_cache")
def _():
    return throughput.typical_mix_rate(3.0, 216.0) / throughput.typical_mix_rate(3.0, 1728.0)


@check("vts_block64_gain")
def _():
    return min(float(throughput.block_size_factor(64.0, operation=op)) for op in ("write", "read")) - 1.0


@check("vts_864_algorithm_change")
def _():
    caps = np.arange(100.0, 1728.0, 1.0)
    slope = np.diff(tvc.effective_capacity_gb(caps))
    return float(caps[np.flatnonzero(np.abs(np.diff(slope)) > 1e-9)[0] + 1])


@check("vts_1200_effective")
def _():
    return tvc.effective_capacity_gb(1728.0)


@check("vts_throttle_delay")
def _():
    run = tvc_day.simulate_tvc("nightly batch window", tvc_gb=216.0, cf=3.0)
    balanced = np.allclose(run.offered_total_mb, run.accepted_total_mb + run.delayed_mb, rtol=1e-9, atol=1e-6)
    return bool(run.throttled.any() and run.delayed_mb.max() > 0 and balanced)


@check("vts_recalls_throttle_without_paf")
def _():
    quiet_run = _throttled_run("ehpo", 0.0)
    busy = _throttled_run("ehpo", 5.0)
    return float(busy.accepted_mb_s[-1]) < float(quiet_run.accepted_mb_s[-1])


@check("vts_paf_no_throttle_recall")
def _():
    base = _throttled_run("paf", 0.0).accepted_mb_s[-1]
    ceiling = float(throughput.read_rate(3.0, kind="recall"))
    heavy = [_throttled_run("paf", r).accepted_mb_s[-1] for r in (0.5 * ceiling, ceiling, 3 * ceiling)]
    return bool(np.allclose(heavy, base, rtol=1e-9)) and base > 0


@check("vts_scsi_cf_little_effect")
def _():
    return float(throughput.scsi_rate(64.0, 4.0) / throughput.scsi_rate(64.0, 1.0)) - 1.0


@check("vts_scsi_cf_helps_large_blocks")
def _():
    cf = np.linspace(1.0, 4.0, 7)
    g256 = throughput.scsi_rate(256.0, cf)
    g128 = throughput.scsi_rate(128.0, cf)
    return bool(np.all(np.diff(g256) > 0)) and float(g256[-1] / g256[0]) > float(g128[-1] / g128[0])


@check("vts_scsi_4kb")
def _():
    return throughput.scsi_rate(fact("scsi_write_4kb_block"), fact("scsi_write_256kb_min_cf"))


@check("vts_scsi_256kb")
def _():
    return throughput.scsi_rate(fact("scsi_write_256kb_block"), fact("scsi_write_256kb_min_cf"))


@check("vts_scsi_more_paths")
def _():
    return float(throughput.scsi_rate(256.0, 4.0, adapters=2)) > float(throughput.scsi_rate(256.0, 4.0))


@check("vts_scsi_read_lower")
def _():
    return throughput.scsi_rate(256.0, 2.7, direction="read") / throughput.scsi_rate(256.0, 2.7)


@check("vts_scsi_read_cf_insensitive")
def _():
    r = throughput.scsi_rate(np.array([16.0, 64.0, 256.0])[:, None], np.linspace(1, 4, 5), direction="read")
    return bool(np.allclose(r, r[:, :1], rtol=1e-12))


@check("vts_two_escon_16")
def _():
    # Sec. 6's VTS (GA Sep 99, 9 GB HDDs as Sec. 3 says): EHPO, 288 GB TVC = 16(2+P),
    # peak write/fill, two channels.
    return bottleneck.bottleneck_rate(
        fact("escon2_saturated_cf"),
        tvc_config="tvc_288_9gb_base_ehpo",
        feature="ehpo",
        mode="peak",
        channels=2,
        block_kb=fact("escon2_saturated_block_kb"),
    )


@check("vts_escon_plus_scsi_47")
def _():
    return throughput.scsi_rate(fact("scsi_added_block_kb"), fact("scsi_added_cf"), adapters=2)


@check("vts_search_21s")
def _():
    return recall.recall_parts(250.0)["search"]


@check("vts_ie_mounts_determine")
def _():
    # The measured load-test tasks (2.3 GB; 13 and 6 mounts) and the largest fitted (18).
    ok = True
    for fn, mounts in ((import_export.export_minutes, 13), (import_export.import_minutes, 6),
                       (import_export.export_minutes, 18)):  # fmt: skip
        data_part = float(fn(2300.0, mounts)) - float(fn(0.0, mounts))
        ok &= float(fn(0.0, mounts)) > data_part
    return ok


def _coefficient(fn, *, mb=0.0, mounts=2, searches=0):
    """The coefficient of one term of Eq. 1 or 2, by differencing the model."""
    base = float(fn(0.0, 2, 0))
    return float(fn(mb, mounts, searches)) - base


check("vts_eq1_per_mb")(lambda: _coefficient(import_export.export_minutes, mb=1000.0) / 1000.0)
check("vts_eq1_per_mount")(lambda: _coefficient(import_export.export_minutes, mounts=3))
check("vts_eq1_per_search")(lambda: _coefficient(import_export.export_minutes, searches=1))
check("vts_eq2_per_mb")(lambda: _coefficient(import_export.import_minutes, mb=1000.0) / 1000.0)
check("vts_eq2_per_mount")(lambda: _coefficient(import_export.import_minutes, mounts=3))
check("vts_eq2_per_search")(lambda: _coefficient(import_export.import_minutes, searches=1))


@check("vts_ie_export_peak_25")
def _():
    return (
        import_export.interference_factor("export", "peak_write", mounts=fact("ie_load_test_export_mounts"))
        - 1
    )


@check("vts_ie_import_peak_50")
def _():
    return (
        import_export.interference_factor("import", "peak_write", mounts=fact("ie_load_test_import_mounts"))
        - 1
    )


@check("vts_ie_less_mounts_more_affected")
def _():
    m = np.arange(2, 19)
    return all(
        bool(np.all(np.diff(import_export.interference_factor(t, "peak_write", mounts=m)) < 0))
        for t in ("export", "import")
    )


@check("vts_ie_recall_50")
def _():
    return import_export.interference_factor("export", "recall") - 1


@check("vts_ie_recall_half")
def _():
    return import_export.recall_rate_factor()


check("vts_escon_write_loss")(lambda: throughput.escon_distance_factor(10.0))
check("vts_escon_read_loss")(lambda: throughput.escon_distance_factor(10.0, direction="read"))


@check("vts_peak_up_to_80")
def _():
    return wr(4.0, 1728.0, mode="peak")


@check("vts_eq3")
def _():
    ok = True
    for mode in ("sustained", "peak"):
        for c in T4_COLUMNS:
            m, b = throughput.ehpo_coefficients(tvc_config=c, mode=mode)
            ok &= bool(
                np.allclose(wr(CF_GRID, tvc_config=c, feature="ehpo", mode=mode), m * CF_GRID + b, rtol=1e-12)
            )
    return ok


@check("vts_t4_footnote")
def _():
    return float(max(c.tvc_gb for c in b18.configurations() if c.hdd_gb == 9.0))


@check("vts_t3_layout_selects_t4_column")
def _():
    want = {4: 288.0, 8: 576.0, 16: 1152.0}
    return all(
        b18.table4_column(c.id) == want[c.raid_groups]
        for c in b18.configurations("ehpo")
        if c.raid_groups in want
    )


@check("vts_fig8_paf_all_caches")
def _():
    r = [float(wr(3.0, c, mode="peak")) for c in PAF_CAPACITIES]
    return max(r) == min(r)


# Table 1
for _rid, _kind, _cf in (
    ("read_hit_cf1", "hit", 1.0),
    ("read_hit_cf2_66", "hit", 2.66),
    ("read_recall_cf1", "recall", 1.0),
    ("read_recall_cf2_66", "recall", 2.66),
):
    check(f"vts_t1_{_rid}")(lambda k=_kind, c=_cf: throughput.read_rate(c, kind=k))

# Table 2
check("vts_t2_peak_write_32kb")(lambda: wr(2.66, 1728.0, mode="peak"))
check("vts_t2_peak_write_64kb")(
    lambda: load("vts_block_size").value("peak_write_32kb") * throughput.block_size_factor(64.0)
)
check("vts_t2_read_hit_32kb")(lambda: throughput.read_rate(2.66))
check("vts_t2_read_hit_64kb")(
    lambda: (
        load("vts_block_size").value("read_hit_32kb") * throughput.block_size_factor(64.0, operation="read")
    )
)


# Table 3
def _t3_check(config_id):
    row = load("vts_tvc_configs").provenance(config_id)
    rec = next(r for r in load("vts_tvc_configs").records() if r["id"] == config_id)
    stated = BY_ID[f"vts_t3_{config_id[4:]}"]
    if stated["status"] == "source-inconsistent":
        data_hdds = int(rec["raid_layout"].split("+")[0])
        return rec["raid_groups"] * data_hdds * rec["hdd_gb"]  # the cell's RAID arithmetic
    return b18.configuration(config_id).tvc_gb if row else math.nan


for _cid in load("vts_tvc_configs")["id"]:
    check(f"vts_t3_{_cid[4:]}")(lambda c=_cid: _t3_check(c))

# Table 4
for _mode in ("sustained", "peak"):
    for _i, _coef in enumerate(("m", "b")):
        for _col in (288, 576, 1152):
            check(f"vts_t4_{_mode}_{_coef}_{_col}")(
                lambda m=_mode, i=_i, c=_col: throughput.ehpo_coefficients(
                    tvc_config=f"tvc_{c}_36gb_base_ehpo", mode=m
                )[i]
            )


# ======================================================================================
# stk-acs4400-cray
# ======================================================================================
from vtsmodel import drives, robot  # noqa: E402

TESTED_BLOCKS = np.array([4.0, 8.0, 16.0, 32.0, 64.0, 128.0])


def stk(row_id: str) -> float:
    return load("stk_facts").value(row_id)


check("stk_mount_52_15")(lambda: robot.mount_response_s(stk("mount_sessions_concurrent_max")))
check("stk_mount_28")(lambda: robot.mount_response_s(1))


@check("stk_four_sessions")
def _():
    # The number of sessions the default calibration assumes behind 52.15 s.
    default = robot.calibrate_robot()
    return next((n for n in range(2, 9) if robot.calibrate_robot(sessions=n) == default), math.nan)


@check("stk_contention_direction")
def _():
    cal = robot.calibrate_robot()
    splits = [(cal["robot_s"], cal["fixed_s"]), (5.0, 23.0), (20.0, 8.0)]
    return all(
        bool(np.all(np.diff(robot.mva_robot(np.arange(1, 9), robot_s=r, fixed_s=f)["mount_s"]) > 0))
        for r, f in splits
    )


@check("stk_write_small_blocks")
def _():
    r = drives.transfer_rate(TESTED_BLOCKS, "write")
    return bool(np.all(r[:3] < 1.0) and np.all(r[3:] > 1.0))


@check("stk_read_small_blocks")
def _():
    r = drives.transfer_rate(TESTED_BLOCKS, "read")
    return bool(np.all(r[:3] < 1.0) and np.all(r[3:] > 1.0))


check("stk_write_fastest_64")(lambda: TESTED_BLOCKS[np.argmax(drives.transfer_rate(TESTED_BLOCKS, "write"))])
check("stk_read_fastest_128")(lambda: TESTED_BLOCKS[np.argmax(drives.transfer_rate(TESTED_BLOCKS, "read"))])

for _d in ("write", "read"):
    for _b in TESTED_BLOCKS:
        check(f"stk_{_d}_{int(_b)}kb")(lambda d=_d, b=_b: drives.transfer_rate(b, d))


@check("stk_buffer_share")
def _():
    # The block size at which the write curve starts to overflow the per-drive buffer.
    b = np.arange(100.0, 129.0, 1.0)
    plain = drives.transfer_rate(b, "write", controller_buffer_kb=1e9)
    return float(b[np.flatnonzero(drives.transfer_rate(b, "write") < plain)[0] - 1])


@check("stk_write_drops_128")
def _():
    w = drives.transfer_rate(np.array([64.0, 128.0]), "write")
    return bool(w[1] < w[0] and np.all(np.diff(drives.transfer_rate(TESTED_BLOCKS, "read")) > 0))


@check("stk_unitree_block")
def _():
    small, large = stk("unitree_block"), stk("dmf_block")
    return all(
        float(drives.transfer_rate(small, d)) < float(drives.transfer_rate(large, d))
        for d in ("write", "read")
    )


@check("stk_block_correlation")
def _():
    return bool(
        np.all(np.diff(drives.transfer_rate(TESTED_BLOCKS, "read")) > 0)
        and np.all(np.diff(drives.transfer_rate(TESTED_BLOCKS[:5], "write")) > 0)
    )


# ======================================================================================
# ibm-ds8000-tpf
# ======================================================================================
from vtsmodel import ds8000  # noqa: E402


@check("ds8k_tpf_record_caching")
def _():
    m = ds8000.staging_modes(1000.0, spatial_locality=0.01)
    return float(m["record"]["utilisation"]) < float(m["track"]["utilisation"])


@check("ds8k_zos_track_caching")
def _():
    m = ds8000.staging_modes(1000.0, spatial_locality=0.9)
    return float(m["track"]["utilisation"]) < float(m["record"]["utilisation"])


@check("ds8k_adaptive_wide_range")
def _():
    m = ds8000.staging_modes(1000.0, spatial_locality=np.linspace(0.0, 1.0, 21))
    best = np.minimum(m["record"]["utilisation"], m["track"]["utilisation"])
    return bool(np.all(m["adaptive"]["utilisation"] <= best + 1e-15))


check("ds8k_arc_19pct")(lambda: ds8000.staging_gain(ds8000.STAGING_LOAD_IO_PER_S))


@check("ds8k_staged_57_21")
def _():
    # The staged sizes staging_gain uses by default, found by comparing with explicit ones.
    small, big = 21.0, 57.0
    same = float(ds8000.staging_gain(100.0)) == float(
        ds8000.staging_gain(100.0, staged_kb=small, track_kb=big)
    )
    return 1.0 - small / big if same else math.nan


@check("ds8k_lower_utilisation")
def _():
    lam = np.linspace(10.0, 150.0, 8)
    return bool(
        np.all(ds8000.disk_utilisation(lam, staged_kb=21.0) < ds8000.disk_utilisation(lam, staged_kb=57.0))
    )


@check("ds8k_163k_near_max")
def _():
    # The utilisation the copy model puts at the measured 163K IO/s: 1 - R(0) / R(163K).
    return 1.0 - float(ds8000.background_copy_response_ms(0.0)) / float(
        ds8000.background_copy_response_ms(163000.0)
    )


check("ds8k_response_2ms")(lambda: ds8000.background_copy_response_ms(163000.0))
check("ds8k_more_than_doubled", "ds8k_less_than_5ms")(
    lambda: ds8000.background_copy_response_ms(163000.0, copy_load=ds8000.COPY_LOAD)
)


@check("ds8k_modest_load")
def _():
    def added(lam):
        return float(ds8000.background_copy_response_ms(lam, copy_load=ds8000.COPY_LOAD)) - float(
            ds8000.background_copy_response_ms(lam)
        )

    return added(100000.0) < added(163000.0)


check("ds8k_shutdown_70")(lambda: ds8000.ride_through_s(1.0, 1.0))


@check("ds8k_shrink_failover")
def _():
    pauses = np.linspace(6.0, 0.0, 13)
    need = ds8000.resources_for_pause(2000.0, pauses)
    return bool(np.all(np.diff(need) < 0) and need[-1] == 0.0)


# ======================================================================================
# adsm-l-lto-2003
# ======================================================================================
def lto(row_id: str) -> float:
    return load("lto_facts").value(row_id)


check("lto1_compressed_30")(
    lambda: drives.compressed_rate(lto("lto1_native_max_rate"), lto("assumed_compression_ratio"))
)
check("lto2_compressed_70")(
    lambda: drives.compressed_rate(lto("lto2_native_max_rate"), lto("assumed_compression_ratio"))
)
check("lto_two_per_bus")(lambda: drives.scsi_bus_rate(lto("drive_peak_compressed_rate")))


# ======================================================================================
# cern-tape-sizing-2005
# ======================================================================================
from vtsmodel import sizing  # noqa: E402


def cern(row_id: str) -> float:
    return load("cern_facts").value(row_id)


check("cern_alice_66pct")(
    lambda: drives.stream_limited_efficiency(cern("alice_tape_stream_rate"), cern("maxspeed_9940b"))
)
check("cern_alice_50pct")(
    lambda: drives.stream_limited_efficiency(cern("alice_tape_stream_rate"), cern("maxspeed_3592a"))
)
check("cern_formula")(
    lambda: drives.drive_throughput(100.0, 10, t_mount_s=120.0, t_overhead_s=4.4, speed_mb_s=30.0)
)


@check("cern_efficiency_def")
def _():
    f = np.array([1.0, 10.0, 100.0, 1000.0])[:, None]
    n = np.array([1.0, 10.0, 100.0])
    return bool(
        np.allclose(
            drives.drive_efficiency(f, n),
            drives.drive_throughput(f, n) / cern("plot_drive_speed"),
            rtol=1e-12,
        )
    )


@check("cern_toverhead")
def _():
    # The overhead in use: the throughput's time per extra file, less that file's transfer.
    t1 = 100.0 / float(drives.drive_throughput(100.0, 1))
    t2 = 200.0 / float(drives.drive_throughput(100.0, 2))
    return t2 - t1 - 100.0 / cern("plot_drive_speed")


check("cern_tmount_move")(lambda: drives.mount_cycle_s(load_s=0.0, position_s=0.0, rewind_unload_s=0.0))
check("cern_tmount_parts")(
    lambda: drives.mount_cycle_s() - drives.mount_cycle_s(load_s=0.0, position_s=0.0, rewind_unload_s=0.0)
)
check("cern_tmount_120")(lambda: drives.mount_cycle_s())
check("cern_sizing_50")(
    lambda: (
        sizing.drives_needed(
            sizing.cern_example_flows(), drive_speed_mb_s=sizing.cern_example_drive_speed()
        ).total
    )
)


# ======================================================================================
# The walker
# ======================================================================================
def _holds(value: float, row: dict) -> bool:
    rel, exp, tol = row["relation"], row["expected"], row["tolerance"] or 0.0
    if rel == "holds":
        return bool(value)
    if rel == "=":
        return abs(value - exp) <= tol * (1 + 1e-12) + 1e-12
    if rel == ">=":
        return value >= exp - tol - 1e-12
    if rel == "<=":
        return value <= exp + tol + 1e-12
    raise AssertionError(f"unknown relation {rel!r}")


def _compute(row: dict) -> float:
    with warnings.catch_warnings():
        # A statement's conditions may lie outside a range the model warns about.
        warnings.simplefilter("ignore", ExtrapolationWarning)
        out = CHECKS[row["id"]]()
    if isinstance(out, bool | np.bool_):
        return 1.0 if out else 0.0
    return float(np.asarray(out, dtype=float))


def _numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"[-+]?\d[\d,]*\.?\d*", text)]


def _case_id(row):
    return f"{row['id']}[{row['status']}]"


@pytest.mark.parametrize("row", CHECKED, ids=_case_id)
def test_statement(row):
    """Recompute the statement from its model (source-inconsistent: from the source's rows)."""
    assert row["id"] in CHECKS, f"{row['id']}: no check registered for a row with a relation"
    value = _compute(row)
    holds = _holds(value, row)
    where = f"{row['id']} ({row['source']}, {row['locator']}): computed {value:.6g} {row['unit']}"
    if row["status"] in ("reproduced", "calibrated", "by-construction"):
        assert holds, f"{where} no longer {row['relation']} {row['expected']} ± {row['tolerance']}"
    else:
        assert not holds, f"{where} now agrees with the statement: its status is no longer {row['status']}"
        # The note must carry the measured gap (contradicted) or the arithmetic (inconsistent).
        wanted = abs(value - row["expected"]) if row["status"] == "contradicted" else value
        near = [x for x in _numbers(row["note"]) if math.isclose(abs(x), wanted, rel_tol=0.01, abs_tol=0.005)]
        assert near, f"{where}: the note does not give {wanted:.4g}"
    recorded = row["computed"]
    assert recorded is not None, f"{where}: the ledger records no computed value (run with --record)"
    assert value == pytest.approx(recorded, rel=1e-4, abs=1e-9), (
        f"{where}, the ledger recorded {recorded:.6g}: a model change moved this answer; review the row"
    )


# ======================================================================================
# The rule: a reproduced row's model does not read the statement it reproduces
# ======================================================================================
_TABLES_FILE = str(Path(_tables.__file__).resolve())
_THIS_FILE = str(Path(__file__).resolve())
#: Shipped parameters fitted to data rows, and the fit that says which rows.
_SHIPPED_FITS = (("PAF_PARAMS", throughput.paf_fit), ("READ_PARAMS", throughput.read_fit))


def _row_table(row_id: str) -> str | None:
    return next((t for t in data.tables() if row_id in set(load(t)["id"])), None)


class _FittedParams(dict):
    """A shipped parameter dict that records the data rows its fit was made from, when read."""

    def __init__(self, params: dict, fit, reads: set[str]):
        super().__init__(params)
        self._fit, self._reads = fit, reads

    def __getitem__(self, key):
        for i in self._fit(key).ids:
            table = _row_table(i)
            self._reads.add(f"{table}:{i}" if table else i)
        return super().__getitem__(key)


def _model_frame(depth: int) -> bool:
    """Whether the code ``depth`` frames up is neither the data layer nor this test (conditions)."""
    name = str(Path(sys._getframe(depth).f_code.co_filename).resolve())
    return name not in (_TABLES_FILE, _THIS_FILE)


def _clear_caches() -> None:
    for name, module in list(sys.modules.items()):
        if not name.startswith("vtsmodel") or name == "vtsmodel._tables":
            continue
        for obj in list(vars(module).values()):
            if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", "") == name:
                obj.cache_clear()


def model_reads(fn: Callable[[], object], monkeypatch) -> set[str]:
    """The data rows (``table:id``) the models read while ``fn`` runs.

    A row read by ``Table.value`` or ``Table.provenance`` counts as that row; a column, a
    filtered table or the records read whole count as every row of the table
    (``table:*``); a shipped fitted parameter set counts as the rows its fit was made from.
    Reads made by this test file (the statement's conditions) do not count. The package's
    caches are cleared first, so that a value computed earlier is read again.
    """
    reads: set[str] = set()
    Table = _tables.Table

    def row_read(method):
        def traced(self, id=None, /, **where):
            if _model_frame(2):
                reads.add(f"{self.name}:{self['id'][self._index(id, where)]}")
            return method(self, id, **where)

        return traced

    def table_read(method):
        def traced(self, *args, **kwargs):
            if _model_frame(2):
                reads.add(f"{self.name}:*")
            return method(self, *args, **kwargs)

        return traced

    monkeypatch.setattr(Table, "value", row_read(Table.value))
    monkeypatch.setattr(Table, "provenance", row_read(Table.provenance))
    for name in ("__getitem__", "records", "where"):
        monkeypatch.setattr(Table, name, table_read(getattr(Table, name)))
    for attr, fit in _SHIPPED_FITS:
        params = getattr(throughput, attr)
        traced = _FittedParams(params, fit, reads)
        for module in [m for n, m in sys.modules.items() if n.startswith("vtsmodel")]:
            if getattr(module, attr, None) is params:
                monkeypatch.setattr(module, attr, traced)
    _clear_caches()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ExtrapolationWarning)
            fn()
    finally:
        _clear_caches()
    return reads


def _reads_row(reads: set[str], ref: str) -> bool:
    return ref in reads or f"{ref.partition(':')[0]}:*" in reads


@pytest.mark.parametrize("row", [r for r in CHECKED if r["status"] == "reproduced"], ids=lambda r: r["id"])
def test_a_reproduced_statement_is_not_read_by_its_model(row, monkeypatch):
    # A model that reads the data row digitizing the statement agrees with it by
    # construction: such a row is no evidence (status by-construction or calibrated).
    reads = model_reads(CHECKS[row["id"]], monkeypatch)
    own = [ref for ref in row["data_rows"] if _reads_row(reads, ref)]
    assert not own, f"{row['id']}: its model reads {own}, the data rows of the statement it reproduces"


def test_the_read_trace_sees_rows_tables_and_fits(monkeypatch):
    # The rule's own check: each kind of read is seen, conditions read here are not, and a
    # calibrated row (Table 4's m, read by write_rate) would fail the rule.
    reads = model_reads(lambda: (drives.mount_cycle_s(), fact("fig6_cf")), monkeypatch)
    assert "cern_facts:robot_moves_normal" in reads and "vts_facts:fig6_cf" not in reads
    reads = model_reads(CHECKS["vts_t4_peak_m_288"], monkeypatch)
    assert _reads_row(reads, "vts_ehpo_coefficients:peak_m_288")
    reads = model_reads(lambda: throughput.write_rate(3.0, 1728.0), monkeypatch)
    assert {"vts_facts:paf_sustained_cf1", "vts_facts:paf_sustained_cf3"} <= reads


def test_every_check_has_a_ledger_row():
    stale = sorted(set(CHECKS) - {r["id"] for r in CHECKED})
    assert not stale, f"checks without a ledger row that has a relation: {stale}"


@pytest.mark.parametrize("row", [r for r in LEDGER if r["model"]], ids=lambda r: r["id"])
def test_model_paths_resolve(row):
    module, _, name = row["model"].rpartition(".")
    assert callable(getattr(importlib.import_module(module), name)), row["model"]


def test_statuses_are_complete():
    for r in LEDGER:
        if r["status"] == "data-only":
            assert not r["relation"], f"{r['id']}: a data-only row checks nothing"
            assert r["note"], f"{r['id']}: a data-only row says why nothing models it"
        else:
            assert r["relation"], f"{r['id']}: a {r['status']} row needs a check"
        if r["status"] in ("reproduced", "calibrated", "by-construction", "contradicted"):
            assert r["model"], f"{r['id']}: a {r['status']} row names its model"
        if r["status"] in ("contradicted", "source-inconsistent", "calibrated", "by-construction"):
            assert r["note"], r["id"]


def test_every_data_row_of_the_five_sources_is_in_the_ledger():
    # The ledger covers the five founding documents; drive catalog rows from supplementary
    # sources (vendor data sheets and the like) are not statements of them.
    founding = set(data.sources("founding"))
    linked = {ref for r in LEDGER for ref in r["data_rows"]}
    rows = {
        f"{t}:{rec['id']}" for t in data.tables() for rec in load(t).records() if rec["source"] in founding
    }
    assert not sorted(rows - linked), f"data rows no statement links: {sorted(rows - linked)}"


def test_ledger_quotes_are_verbatim():
    # Matched as the data tables' quotes are (tests/test_data.py): whitespace collapsed, by the
    # source texts where present, else by their fingerprints (tests/source_quotes.py).
    quotes = SourceQuotes()
    missing = [r["id"] for r in LEDGER if not quotes.verbatim(r["source"], r["quote"])]
    assert not missing, f"quotes not found verbatim in their source: {missing}"


def test_the_readme_gives_the_ledger_counts():
    text = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    m = re.search(r"It holds (\d+) statements: (.*?) \(a test keeps these counts true\)", text)
    assert m, "README.md: the ledger's counts sentence is gone"
    said = {status: int(n) for n, status in re.findall(r"(\d+) ([a-z-]+)", m.group(2))}
    counts = data.statement_counts()
    live = {s: sum(c[s] for c in counts.values()) for s in data.STATUSES}
    assert int(m.group(1)) == len(LEDGER) and said == live, f"README.md says {said}, the ledger has {live}"


def test_well_over_a_hundred_statements_from_every_source():
    assert len(LEDGER) > 150
    assert {r["source"] for r in LEDGER} == set(data.sources("founding"))


# ======================================================================================
# Recording the computed column after a reviewed model change
# ======================================================================================
def _record() -> int:
    path = data.data_dir() / "statements.csv"
    text = path.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    fields = list(rows[0])
    failed = []
    for r in rows:
        if r["id"] in CHECKS and r["relation"]:
            try:
                r["computed"] = f"{_compute(BY_ID[r['id']]):.10g}"
            except Exception as exc:  # report every failing check, record the others
                failed.append(f"{r['id']}: {type(exc).__name__}: {exc}")
    for f in failed:
        print(f, file=sys.stderr)
    out = io.StringIO()
    w = csv.DictWriter(out, fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    print(f"recorded computed values of {sum(1 for r in rows if r['computed'])} statements in {path}")
    return 0


if __name__ == "__main__" and "--record" in sys.argv:
    raise SystemExit(_record())
