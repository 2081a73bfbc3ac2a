"""Every VTS B18 configuration run through a plan's day; the smallest that meets every target.

:func:`vts_configurations` lists what the paper offers (feature x Table 3 cache x 3590
drives, with the prerequisites it states); :func:`vts_plan` simulates the day for each
cache (:func:`~vtsmodel.tvc_day.simulate_tvc`), queues the recalls on the drives left after
copying, checks the targets (:class:`Check`) and recommends the smallest configuration that
meets them all (:class:`VtsPlan`); :func:`evaluate_configuration` runs one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from vtsmodel import b18
from vtsmodel import quantities as q
from vtsmodel._inputs import declare, number
from vtsmodel._validation import as_scalar
from vtsmodel.bottleneck import binding_resource
from vtsmodel.plan._days import (
    _cache,
    _CacheModel,
    _copy_efficiency,
    _hourly,
    _measured_channels,
    _model_of,
    _rates,
    _recall_ready,
    _recalls_ready,
    _repeated,
    _simulate,
    _vts_drive,
)
from vtsmodel.plan.answers import Answers
from vtsmodel.plan.day import PlanDay, plan_day
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.provenance import Provenance, _collect_notes
from vtsmodel.tvc_day import (
    TvcRun,
    _run_day,
)

__all__ = [
    "FEATURE_ORDER",
    "STEP",
    "Check",
    "ConfigResult",
    "VtsConfiguration",
    "VtsPlan",
    "evaluate_configuration",
    "vts_configurations",
    "vts_plan",
]

#: Time step of the planner's day simulation: 0.5 to 60 min (finer steps only cost time:
#: a day at 0.5 min is 2,880 steps per configuration). [min]
STEP = q.STEP_MINUTES.but(default=5.0, lo=0.5, source="practical limit (finer steps only cost time)")

#: Feature levels from the least to the most capable: :data:`vtsmodel.b18.FEATURES`.
FEATURE_ORDER = b18.FEATURES


@dataclass(frozen=True, order=True)
class VtsConfiguration:
    """One VTS B18 system: a feature, a Table 3 cache and 3590 drives; ordered from the smallest.

    The order is cache capacity, then feature, then drives (:func:`vts_configurations`).

    Attributes
    ----------
    tvc_gb : float
        Tape volume cache, physical (Table 3). [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option (PAF includes its prerequisite EHPO).
    drives : int
        3590 tape drives. [count]
    cache : vtsmodel.b18.Configuration or None
        The Table 3 configuration of the cache, whose RAID layout picks Table 4's column
        (:func:`vtsmodel.b18.capacity_configuration`); None for a capacity Table 3 does
        not list with the feature.
    """

    rank: tuple = field(repr=False, compare=True)
    tvc_gb: float = field(compare=False)
    feature: str = field(compare=False)
    drives: int = field(compare=False)
    cache: b18.Configuration | None = field(default=None, compare=False)

    @classmethod
    def of(cls, tvc_gb: float, feature: str, drives: int) -> VtsConfiguration:
        """A configuration (not checked against what the paper offers: see :func:`vts_configurations`).

        Its cache is Table 3's configuration of ``tvc_gb`` with ``feature``
        (:func:`vtsmodel.b18.capacity_configuration`: 144 and 288 GB on 9 GB HDDs).
        """
        b18.FEATURE.check("feature", feature)
        tvc = float(tvc_gb)
        cache = b18.capacity_configuration(tvc, feature) if q.TVC_GB.contains(tvc) else None
        return cls((tvc, FEATURE_ORDER.index(feature), int(drives)), tvc, feature, int(drives), cache)

    @property
    def tvc_config(self) -> str | None:
        """The Table 3 id the models take for the rates, where the layout matters (base, EHPO)."""
        return self.cache.id if self.cache is not None and self.feature != "paf" else None

    @functools.cached_property
    def label(self) -> str:
        """``"864 GB PAF, 4 drives"``; the HDDs and layout where Table 3 lists the capacity in two.

        ``"288 GB EHPO (9 GB HDDs, 16(2+P)), 3 drives"``.
        """
        layout = ""
        if self.tvc_config is not None and b18.other_layouts(self.tvc_gb, self.feature):
            layout = f" ({self.cache.hdd_gb:g} GB HDDs, {self.cache.layout})"
        return f"{self.tvc_gb:,.0f} GB {b18.FEATURE_LABELS[self.feature]}{layout}, {self.drives} drives"

    @property
    def virtual_drives(self) -> int:
        """Virtual drives presented: 64 with EHPO (or PAF) and at least 144 GB, else 32 (Sec. 2)."""
        return b18.virtual_drives(self.tvc_gb, self.feature)


def vts_configurations(*, include_earlier_paf: bool = False) -> tuple[VtsConfiguration, ...]:
    """Every configuration the paper offers, smallest first.

    - Caches: Table 3's capacities per feature column ("Base/EHPO": 72, 144, 216, 288,
      576, 1152 GB; "PAF": 216, 432, 864, 1728 GB). With ``include_earlier_paf``, also
      the two marked "In earlier shipments these configurations were available with
      PAF" (144 and 288 GB).
    - Features: base, EHPO, and PAF, which "has a prerequisite of the EHPO feature"
      (Sec. 3.5): a PAF configuration has both.
    - Drives: "from three to six (four to six with the Performance Accelerator)" (Sec. 2).

    Each cache is Table 3's configuration of its capacity
    (:func:`vtsmodel.b18.capacity_configuration`): 144 and 288 GB base/EHPO on 9 GB HDDs,
    the layout with the most parity groups, which is also the faster one (Table 4).

    The order: cache capacity, then feature (base, EHPO, PAF), then drives. The paper
    prices nothing, so "smaller" is this order: a modelling choice.
    """
    return _configurations(bool(include_earlier_paf))


@functools.cache
def _configurations(include_earlier_paf: bool) -> tuple[VtsConfiguration, ...]:
    """:func:`vts_configurations`, built once (the product's data does not change)."""
    out = [
        VtsConfiguration.of(c, feat, d)
        for feat in FEATURE_ORDER
        for c in b18.product_configurations(feat)
        for d in b18.physical_drives(feat)  # Sec. 2
    ]
    if include_earlier_paf:
        earlier = sorted({c.tvc_gb for c in b18.configurations() if c.earlier_paf})
        out += [VtsConfiguration.of(c, "paf", d) for c in earlier for d in b18.physical_drives("paf")]
    return tuple(sorted(out))


@dataclass(frozen=True)
class Check:
    """One target checked.

    Attributes
    ----------
    key : str
        ``"throttle"``, ``"delay"``, ``"recall"``, ``"recall_served"``, ``"copy"`` or
        ``"virtual_drives"``.
    label : str
        What is checked, e.g. ``"hours throttled"``.
    value, limit : float
        The configuration's value and the target. [unit]
    unit : str
    ok : bool
    text : str
        One line for a person: ``"throttles 2.1 h against 0 allowed"``.
    """

    key: str
    label: str
    value: float
    limit: float
    unit: str
    ok: bool
    text: str

    @property
    def margin(self) -> float:
        """How far the value is inside the target (negative: missed). [unit]

        ``limit - value``; for virtual drives, presented minus needed.
        """
        if self.key == "copy" and math.isinf(self.value):
            return -math.inf
        return (
            float(self.limit - self.value) if self.key != "virtual_drives" else float(self.value - self.limit)
        )


@dataclass(frozen=True)
class ConfigResult:
    """A configuration run through the plan's workload.

    Attributes
    ----------
    config : VtsConfiguration
    peak_mb_s, sustained_mb_s : float
        Host write rates (``write_rate``). [MB/s]
    hours_at_peak, hours_throttled, longest_delay_hours : float
        From the day simulated (``simulate_tvc``). [h]
    delay_mb_hours : float
        Delay imposed, the integral of the delayed data. [MB·h]
    backlog_cleared_hours : float
        When un-copied and delayed data last returned to zero (NaN: not within the day). [h]
    carried_gb : float
        Un-copied data carried from one day into the next (the day run twice). [GB]
    copy_drives : numpy.ndarray
        Drives copying to tape in each hour. [count]
    recall_drives : numpy.ndarray
        Drives left for recalls in each hour. [count]
    recall_ready_s : numpy.ndarray
        Time until ready of a recall at the percentile, each hour (NaN: no recalls; inf:
        no steady state). [s]
    binding_resource : str
        What limits the sustained write rate (``binding_resource``).
    checks : tuple of Check
    run : TvcRun
        The day simulated (for figures).
    read_hit : float
        The read-hit ratio the day ran with (a mount log's at this cache size, or the
        answered one). [-]
    """

    config: VtsConfiguration
    peak_mb_s: float
    sustained_mb_s: float
    hours_at_peak: float
    hours_throttled: float
    longest_delay_hours: float
    delay_mb_hours: float
    backlog_cleared_hours: float
    carried_gb: float
    copy_drives: np.ndarray
    recall_drives: np.ndarray
    recall_ready_s: np.ndarray
    binding_resource: str
    checks: tuple[Check, ...]
    run: TvcRun = field(repr=False, compare=False)
    read_hit: float = math.nan

    @functools.cached_property  # read by every comparison of configurations (frozen: its checks never change)
    def meets(self) -> bool:
        """Whether every target is met."""
        return all(c.ok for c in self.checks)

    @functools.cached_property
    def failing(self) -> tuple[Check, ...]:
        """The targets missed."""
        return tuple(c for c in self.checks if not c.ok)

    @functools.cached_property  # read by every comparison of configurations (frozen: its arrays never change)
    def worst_recall_ready_s(self) -> float:
        """Recall ready time at the percentile in the busiest hour (NaN: no recalls). [s]"""
        r = self.recall_ready_s
        return float(np.fmax.reduce(r)) if r.size else math.nan  # NaN hours ignored; all NaN: NaN

    def check(self, key: str) -> Check:
        """The check of ``key``."""
        for c in self.checks:
            if c.key == key:
                return c
        raise KeyError(f"no check {key!r}; checks: {', '.join(c.key for c in self.checks)}")

    def summary(self) -> dict[str, object]:
        """One row of the configuration table, keys with units."""
        return {
            "configuration": self.config.label,
            "peak write [MB/s]": self.peak_mb_s,
            "sustained write [MB/s]": self.sustained_mb_s,
            "time at peak [h]": self.hours_at_peak,
            "throttled [h]": self.hours_throttled,
            "longest write delay [h]": self.longest_delay_hours,
            "recall ready at percentile [s]": self.worst_recall_ready_s,
            "most copy drives [-]": float(self.copy_drives.max()) if self.copy_drives.size else 0.0,
            "binds (sustained)": self.binding_resource,
            "meets targets": self.meets,
        }


def _fmt(x: float, unit: str = "") -> str:
    """``x`` to 3 significant digits with its unit, as the checks' texts say it."""
    return _fmt_float(float(x), unit)


@functools.lru_cache(maxsize=4096)  # a plan's texts say about 70 values 360 times (the targets in every one)
def _fmt_float(x: float, unit: str) -> str:
    if math.isinf(x):
        return "no steady state" if unit == "s" else "∞"
    return f"{number(x, 3)}{(' ' + unit) if unit else ''}"


def _cache_checks(cfg: VtsConfiguration, a: Answers, day: PlanDay, run: TvcRun, thr: float,
                  dly: float) -> tuple[Check, Check, Check]:  # fmt: skip
    """The checks a cache's drive counts share: hours throttled, the longest delay, recalls served."""
    out = []
    allowed, dallowed = a.throttle_hours_allowed, a.delay_hours_allowed
    slowed = ""
    if thr <= 1e-9 and dly > 1e-9:  # 0 h at the threshold is not "never slowed"
        slowed = (
            f" (the cache never reached its fill threshold, yet host writes waited up to {_fmt(dly, 'h')})"
        )
    out.append(Check("throttle", "hours throttled (at the fill threshold)", thr, allowed, "h", thr <= allowed + 1e-9,
                     f"throttles {_fmt(thr, 'h')} against {_fmt(allowed, 'h')} allowed{slowed}"))  # fmt: skip
    stalled = _stalled_hours(cfg, run)
    out.append(Check("delay", "longest write delay", dly, dallowed, "h", dly <= dallowed + 1e-9,
                     f"delays host writes up to {_fmt(dly, 'h')} against {_fmt(dallowed, 'h')} allowed"
                     + (f"; {_stalled_text(stalled)}" if stalled else "")))  # fmt: skip
    out.append(_recall_served(cfg, day, run))
    return tuple(out)


def _checks(cfg: VtsConfiguration, a: Answers, day: PlanDay, cache: _CacheDay,
            ready_q: np.ndarray) -> tuple[Check, ...]:  # fmt: skip
    copy = cache.copy_drives
    throttle, delay, served = cache.checks
    out = [throttle, delay]
    # the busiest hour: the largest ready time (NaN: no recalls that hour), the first hour of it
    worst = float(np.fmax.reduce(ready_q)) if ready_q.size else math.nan
    pct = f"{100 * a.recall_percentile:g}th percentile"
    if not math.isnan(worst):
        hour = int(np.argmax(ready_q == worst))
        why = ""
        if math.isinf(worst):
            why = (" (no drive left for recalls while copying)" if copy[hour] >= cfg.drives
                   else " (recalls arrive faster than the drives left can serve them)")  # fmt: skip
        ready = "are never ready" if math.isinf(worst) else f"ready in {_fmt(worst, 's')}"
        text = (f"recalls {ready} at the {pct} (hour {hour}){why} "
                f"against {_fmt(a.recall_target_s, 's')}")  # fmt: skip
        out.append(Check("recall", f"recall ready ({pct})", worst, a.recall_target_s, "s",
                         worst <= a.recall_target_s + 1e-9, text))  # fmt: skip
    else:
        out.append(Check("recall", f"recall ready ({pct})", 0.0, a.recall_target_s, "s", True, "no recalls"))
    out.append(served)
    most, behind = cache.most_copy_drives, cache.behind
    text = behind or f"copy to tape needs up to {most:.0f} of {cfg.drives} drives"
    out.append(Check("copy", "drives for the copy", most if not behind else math.inf, float(cfg.drives),
                     "drives", most <= cfg.drives and not behind, text))  # fmt: skip
    if day.virtual_drives > 0:
        vd = cfg.virtual_drives
        out.append(Check("virtual_drives", "virtual drives", float(vd), float(day.virtual_drives), "drives",
                         vd >= day.virtual_drives,
                         f"presents {vd} virtual drives for {day.virtual_drives} needed"))  # fmt: skip
    return tuple(out)


def _recall_served(cfg: VtsConfiguration, day: PlanDay, run: TvcRun) -> Check:
    """Recalls above the ceiling the VTS serves: any unserved MB/s misses the recall target.

    The day simulation serves read misses up to the recall ceiling and reports the rest
    (``recall_unserved_mb_s``): those recalls are never ready, whatever the queue says.
    """
    unserved = np.asarray(run.recall_unserved_mb_s if run.recall_unserved_mb_s is not None else [0.0])
    worst = float(unserved.max()) if unserved.size else 0.0
    ok = worst <= 1e-9
    if ok:
        text = f"every recall served (at most {_fmt(run.recall_ceiling_mb_s, 'MB/s')} of recalls)"
    else:
        k = int(np.argmax(unserved))
        hour = int(run.time_hours[k])
        basis = ("Table 1's read recall rate" if cfg.feature == "paf"
                 else "the sustained write rate (Sec. 3.5.4: recalls correspond to it)")  # fmt: skip
        text = (f"leaves {_fmt(worst, 'MB/s')} of recalls unserved (hour {hour}): the read misses exceed the "
                f"{_fmt(run.recall_ceiling_mb_s, 'MB/s')} the VTS recalls at CF {number(day.cf)} ({basis})")  # fmt: skip
    return Check("recall_served", "recalls not served", worst, 0.0, "MB/s", ok, text)


def _stalled_hours(cfg: VtsConfiguration, run: TvcRun) -> tuple[float, float] | None:
    """From when to when a configuration without PAF accepts no write at all while writes wait. [h]

    Without PAF recalls take copy bandwidth (Sec. 5: "The same situation can also occur
    with recalls"); the day simulation gives them the sustained rate first, so at the fill
    threshold a recall load at the ceiling leaves the copy, and the input, nothing. The paper
    says the VTS throttles (delays) the input then; it does not say by how much, so the
    model's zero is stated (:func:`_stalled_text`), not hidden.
    """
    if cfg.feature == "paf":
        return None
    waiting = (run.delayed_mb[:-1] + np.diff(run.offered_total_mb)) > 1e-9
    stopped = waiting & (run.accepted_mb_s <= 1e-9) & (run.recall_mb_s > 0) & run.throttled
    if not stopped.any():
        return None
    k = np.flatnonzero(stopped)
    return float(run.time_hours[k[0]]), float(run.time_hours[k[-1] + 1])


def _stalled_text(hours: tuple[float, float]) -> str:
    return (f"no host write accepted from hour {hours[0]:.3g} to {hours[1]:.3g}: recalls take the whole "
            "copy bandwidth without PAF (Sec. 5: the VTS throttles the input; by how much the paper does not say)")  # fmt: skip


def _closest(results: tuple[ConfigResult, ...]) -> ConfigResult:
    """The first configuration that meets every target, else the one missing fewest (the largest of those)."""
    met = next((r for r in results if r.meets), None)
    if met is not None:
        return met
    return min(
        results, key=lambda r: (len(r.failing), -r.config.rank[0], -r.config.rank[1], -r.config.rank[2])
    )


@dataclass(frozen=True)
class _CacheDay:
    """One cache (feature, Table 3 configuration) through the day: shared by its drive counts."""

    run: TvcRun
    carried_in_gb: float
    carried_out_gb: float
    binding_resource: str
    copy_drives: np.ndarray  # drives copying in each hour [count]
    hours_at_peak: float  # the run's summary numbers, once [h]
    hours_throttled: float
    max_delay_hours: float
    delay_mb_hours: float  # [MB·h]
    backlog_cleared_hours: float
    checks: tuple[Check, Check, Check]  # throttle, delay, recalls served (:func:`_cache_checks`)
    most_copy_drives: float  # the most drives copying in an hour [count]
    behind: str  # how the copy falls behind day after day ("" when it keeps up): the copy check's text


def _behind(run: TvcRun, carried_in: float, carried_out: float) -> str:
    """How the copy falls behind day after day, for the copy check; "" when it keeps up. [GB in the text]"""
    waiting = float(run.delayed_mb[-1])
    if carried_out <= carried_in + 1e-6 * max(run.capacity_gb, 1.0) and waiting <= 1e-6:
        return ""
    return (f"falls behind: {_fmt(carried_out, 'GB')} un-copied at the end of the day after "
            f"{_fmt(carried_in, 'GB')} at its start"
            + (f", {_fmt(waiting / 1000.0, 'GB')} of host writes still waiting" if waiting > 1e-6 else ""))  # fmt: skip


def _cache_day(day: PlanDay, a: Answers, cfg: VtsConfiguration, step_minutes: float, tvc_options: Mapping,
               copy_efficiency: float, model: _CacheModel | None = None) -> _CacheDay:  # fmt: skip
    """One cache through the day; ``model``: its constants kept (:func:`_model_of`), else checked by ``simulate_tvc``."""
    if model is None:
        rates = None if a.escon_channels == _measured_channels() else _rates(day.cf, cfg, a.escon_channels)
        run, cin, cout = _simulate(day, cfg, rates, step_minutes, tvc_options)
        bind = str(binding_resource(day.cf, feature=cfg.feature, mode="sustained", channels=a.escon_channels,
                                    **_cache(cfg)))  # fmt: skip
    else:
        run, cin, cout = _repeated(lambda backlog_gb: _run_day(day.profile, model.tvc, backlog_gb))
        bind = model.binding_resource
    per_drive = (
        _vts_drive(a.vts_drive).rate_mb_s * day.cf / run.cache_cf * copy_efficiency
    )  # in the cache's MB/s
    copy_mb = _hourly(run.copied_total_mb, run.time_hours, day.workload.hours)
    need = np.maximum(np.ceil(copy_mb / 3600.0 / per_drive - 1e-9).astype(int), 0)
    thr, dly = run.hours_throttled, run.max_delay_hours
    return _CacheDay(run, cin, cout, bind, need, run.hours_at_peak, thr, dly, run.delay_mb_hours,
                     run.backlog_cleared_hours, _cache_checks(cfg, a, day, run, thr, dly),
                     float(need.max()) if need.size else 0.0, _behind(run, cin, cout))  # fmt: skip


def _result(cfg: VtsConfiguration, a: Answers, day: PlanDay, cache: _CacheDay, left: np.ndarray,
            ready_q: np.ndarray) -> ConfigResult:  # fmt: skip
    run = cache.run
    return ConfigResult(
        config=cfg, peak_mb_s=float(run.peak_mb_s), sustained_mb_s=float(run.sustained_mb_s),
        hours_at_peak=cache.hours_at_peak, hours_throttled=cache.hours_throttled,
        longest_delay_hours=cache.max_delay_hours, delay_mb_hours=cache.delay_mb_hours,
        backlog_cleared_hours=cache.backlog_cleared_hours, carried_gb=float(cache.carried_in_gb),
        copy_drives=cache.copy_drives, recall_drives=left, recall_ready_s=ready_q,
        binding_resource=cache.binding_resource, checks=_checks(cfg, a, day, cache, ready_q), run=run,
        read_hit=day.read_hit,
    )  # fmt: skip


def _evaluate_all(day: PlanDay, a: Answers, configs: tuple[VtsConfiguration, ...], step_minutes: float,
                  tvc_options: Mapping) -> tuple[ConfigResult, ...]:  # fmt: skip
    """Every configuration: each cache's day once (its constants kept across plans), every recall queue at once.

    The same answers as :func:`evaluate_configuration` of each (a test checks, on random plans).
    """
    eff = None
    caches: dict[tuple[str, float], _CacheDay] = {}
    recalls: dict[tuple, int] = {}
    rows, queues = [], []
    for cfg in configs:
        d = day.of(cfg)
        key = (cfg.feature, cfg.tvc_gb)
        if key not in caches:
            model = _model_of(d, cfg, a.escon_channels, step_minutes, tvc_options)
            if eff is None:  # after the first cache's warnings, as evaluate_configuration gives them
                eff = _copy_efficiency(a, day.cf)
            caches[key] = _cache_day(d, a, cfg, step_minutes, tvc_options, eff, model)
        cache = caches[key]
        rkey = (cache.copy_drives.tobytes(), cfg.drives, d.read_hit)
        if rkey not in recalls:
            recalls[rkey] = len(queues)
            queues.append((d, cfg.drives, cache.copy_drives))
        rows.append((cfg, d, cache, recalls[rkey]))
    ready = _recalls_ready(queues, a)
    return tuple(_result(cfg, a, d, cache, *ready[i]) for cfg, d, cache, i in rows)


@dataclass(frozen=True)
class VtsPlan:
    """Every VTS configuration evaluated against the plan's workload.

    Attributes
    ----------
    results : tuple of ConfigResult
        Every configuration, smallest first (:func:`vts_configurations`).
    recommended : ConfigResult or None
        The smallest that meets every target; None when none does.
    next_smaller : ConfigResult or None
        The configuration just below the recommended one in the order.
    next_smaller_cache : ConfigResult or None
        The recommended feature and drives with the next smaller cache Table 3 offers.
    day : dict
        What the plan ran: read-hit ratio and its basis, recall arrivals and their basis,
        virtual drives needed, the copy's drive efficiency.
    notes : tuple of str
        Extrapolation warnings the models gave.
    models : tuple of str
        The model functions used, by dotted name.
    tables : tuple of str
        The data tables they and the planner read.
    rows : tuple of (table, id)
        Data rows the planner read itself.
    sources : tuple of str
        Source ids of those tables and rows (for :func:`vtsmodel.cite`).
    channels : int
        ESCON channels the plan assumed (the answer ``escon_channels``). [count]
    cautions : tuple of str
        What the headline must say beside the recommendation: writes offered faster than
        every configuration's peak, a write window missed, writes stopped by recalls.
    """

    results: tuple[ConfigResult, ...]
    recommended: ConfigResult | None
    next_smaller: ConfigResult | None
    next_smaller_cache: ConfigResult | None
    day: dict
    notes: tuple[str, ...]
    models: tuple[str, ...]
    tables: tuple[str, ...]
    rows: tuple[tuple[str, str], ...]
    sources: tuple[str, ...]
    channels: int = 8
    cautions: tuple[str, ...] = ()

    def result(self, config: VtsConfiguration | str) -> ConfigResult:
        """The result of one configuration (or its label)."""
        label = config if isinstance(config, str) else config.label
        for r in self.results:
            if r.config.label == label:
                return r
        raise KeyError(f"no configuration {label!r}")

    @functools.cached_property  # read by every view of a plan (frozen: its results never change)
    def closest(self) -> ConfigResult:
        """The recommended configuration, or when none meets every target, the one missing fewest."""
        return self.recommended if self.recommended is not None else _closest(self.results)

    def headline(self) -> str:
        """The recommendation with the channels assumed, what it must not hide, and what the smaller ones miss."""
        cautions = "".join(f" {c}" for c in self.cautions)
        if self.recommended is None:
            c = self.closest
            return (f"No VTS B18 configuration meets every target with {self.channels} ESCON channels. "
                    f"The closest, {c.config.label}, " + "; ".join(x.text for x in c.failing) + "." + cautions)  # fmt: skip
        text = (
            f"Recommended: {self.recommended.config.label}, with {self.channels} ESCON channels." + cautions
        )
        for what, other in (
            ("The next smaller", self.next_smaller),
            ("With the next smaller cache", self.next_smaller_cache),
        ):
            if other is not None and (what == "The next smaller" or other is not self.next_smaller):
                text += f" {what}, {other.config.label}, " + "; ".join(x.text for x in other.failing) + "."
        return text

    def table(self) -> list[dict]:
        """Every configuration as a row (:meth:`ConfigResult.summary`)."""
        return [r.summary() for r in self.results]


@declare(
    step_minutes=STEP, threshold=q.THRESHOLD.but(default=None),
    peak_copy_fraction=q.PEAK_COPY_FRACTION.but(default=None),
)  # fmt: skip
def vts_plan(
    plan: Plan,
    *,
    step_minutes: float = 5.0,
    include_earlier_paf: bool = False,
    threshold: float | None = None,
    peak_copy_fraction: float | None = None,
) -> VtsPlan:
    """Evaluate every VTS B18 configuration against the plan's workload.

    For each cache (feature x Table 3 capacity) the day is simulated hour by hour
    (:func:`~vtsmodel.tvc_day.simulate_tvc`, rates from
    :func:`~vtsmodel.throughput.write_rate`); when un-copied data is left at the end the
    day is run again starting with it (the day repeats). For each drive count, the
    drives copying in each hour are the copy rate over one drive's rate times the copy
    efficiency (:func:`_copy_efficiency`); the rest serve recalls
    (:func:`~vtsmodel.recall.recall_drives`, Sec. 3.2.2), each recall keeping a drive
    busy for :func:`~vtsmodel.recall.recall_service_s`; its wait at the percentile is
    :func:`~vtsmodel.queueing.wait_percentile` (M/D/c, Poisson arrivals), plus
    :func:`~vtsmodel.recall.recall_ready_s`. Recalls are checked in every hour; the
    busiest governs (busy-hour engineering, a modelling choice).

    Targets: hours throttled, the longest write delay, recall ready time at the
    percentile, drives enough for the copy without falling behind day after day, and the
    virtual drives needed (64 need EHPO and 144 GB, Sec. 2).

    Parameters
    ----------
    plan : Plan
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]
    include_earlier_paf : bool
        Also the 144 and 288 GB PAF configurations of earlier shipments (Table 3, *).
    threshold, peak_copy_fraction : float, optional
        The cache model's assumptions (:mod:`vtsmodel.tvc`); default its defaults. [-]

    Returns
    -------
    VtsPlan
    """
    check_plan(plan)
    step_minutes = _check_step(step_minutes)
    opts = {}
    if threshold is not None:
        opts["threshold"] = as_scalar("threshold", q.THRESHOLD.check("threshold", threshold))
    if peak_copy_fraction is not None:
        opts["peak_copy_fraction"] = as_scalar(
            "peak_copy_fraction", q.PEAK_COPY_FRACTION.check("peak_copy_fraction", peak_copy_fraction)
        )

    def run():
        day = plan_day(plan)
        configs = vts_configurations(include_earlier_paf=include_earlier_paf)
        results = _evaluate_all(day, plan.answers, configs, step_minutes, opts)
        return day, results, _copy_efficiency(plan.answers, day.cf)

    (day, results, copy_eff), notes = _collect_notes(run)
    rec_i = next((i for i, r in enumerate(results) if r.meets), None)
    rec = results[rec_i] if rec_i is not None else None
    nxt = results[rec_i - 1] if rec_i else None
    same = None
    if rec is not None:
        below = [r for r in results[:rec_i] if r.config.feature == rec.config.feature
                 and r.config.drives == rec.config.drives]  # fmt: skip
        same = below[-1] if below else None
    info = {
        "read hit ratio [-]": day.read_hit,
        "read hit basis": day.read_hit_basis,
        "recalls per day [-]": float(day.recalls_per_hour.sum()),
        "busiest recall hour [1/h]": float(day.recalls_per_hour.max()) if day.recalls_per_hour.size else 0.0,
        "recall basis": day.recall_basis,
        "virtual drives needed [-]": day.virtual_drives,
        "copy efficiency [-]": copy_eff,
        "hours [h]": day.workload.hours,
        "step [min]": float(step_minutes),
    }
    mean_volume = day.workload.mean_volume_written_mb()
    if mean_volume is not None:  # the fast-ready mounts' volume size, beside the one answered
        info["mean volume written [MB]"] = mean_volume
        info["volume size answered [MB]"] = day.volume_mb
    info["ESCON channels [-]"] = plan.answers.escon_channels
    cautions = _cautions(day, plan.answers, results, _closest(results))
    prov = Provenance.of_vts(plan.answers.vts_drive)
    out = VtsPlan(results, rec, nxt, same, info, notes, prov.models, prov.tables, prov.rows, prov.sources,
                  plan.answers.escon_channels, cautions)  # fmt: skip
    if day.hits is not None:  # with a mount log, the day of the recommended (or closest) configuration
        shown = day.of(out.closest.config)
        info["read hit ratio [-]"] = shown.read_hit
        info["read hit basis"] = (
            f"mount log, at {out.closest.config.tvc_gb:,.0f} GB (each configuration its own)"
        )
        info["recalls per day [-]"] = float(shown.recalls_per_hour.sum())
        info["busiest recall hour [1/h]"] = (
            float(shown.recalls_per_hour.max()) if shown.recalls_per_hour.size else 0.0
        )
    return out


def _cautions(
    day: PlanDay, a: Answers, results: tuple[ConfigResult, ...], shown: ConfigResult
) -> tuple[str, ...]:
    """What a recommendation (or the closest configuration) must say beside itself.

    - the offered write rate above every configuration's peak: every one delays writes;
    - the write window missed: the last host write is accepted after the writes offered
      end (passing only through the write delay allowed);
    - writes stopped by recalls (without PAF), from the delay check.
    """
    out = []
    write = np.asarray(day.workload.write_mb_s, dtype=float)
    if write.size and write.max() > 0:
        best = max(results, key=lambda r: r.peak_mb_s)
        if write.max() > best.peak_mb_s * (1 + 1e-9):
            out.append(f"The writes offered, {_fmt(float(write.max()), 'MB/s')} (hour {int(np.argmax(write))}), "
                       f"exceed every configuration's peak write rate (at most {_fmt(best.peak_mb_s, 'MB/s')}, with "
                       f"{b18.FEATURE_LABELS[best.config.feature]} and {a.escon_channels} ESCON channels): "
                       "every configuration delays them.")  # fmt: skip
        busy = np.flatnonzero(write > 0)
        start, end = float(busy[0]), float(busy[-1] + 1)
        done = _writes_done_hours(shown.run)
        if done > end + 1e-9:
            took = (
                "longer than the day"
                if math.isinf(done)
                else f"{_fmt(done - start, 'h')}, {_fmt(done - end, 'h')} past its end"
            )
            allowed = shown.longest_delay_hours <= a.delay_hours_allowed + 1e-9
            out.append(f"{shown.config.label} misses the write window: the writes offered in hours {start:g} to "
                       f"{end:g} ({_fmt(end - start, 'h')}) take {took}"
                       + (f", within the {_fmt(a.delay_hours_allowed, 'h')} of write delay allowed" if allowed else "")
                       + ".")  # fmt: skip
    stalled = _stalled_hours(shown.config, shown.run)
    if stalled:
        out.append(f"{shown.config.label}: {_stalled_text(stalled)}.")
    return tuple(out)


def _writes_done_hours(run: TvcRun) -> float:
    """When the last host write offered was accepted (inf: some still wait at the end). [h]"""
    waiting = np.flatnonzero(run.delayed_mb > 1e-6 * max(float(run.offered_total_mb[-1]), 1.0))
    if not waiting.size:
        offered = np.flatnonzero(np.diff(run.offered_total_mb) > 0)
        return float(run.time_hours[offered[-1] + 1]) if offered.size else 0.0
    return math.inf if waiting[-1] + 1 >= run.time_hours.size else float(run.time_hours[waiting[-1] + 1])


def _check_step(step_minutes) -> float:
    return as_scalar("step_minutes", STEP.check("step_minutes", step_minutes))


@declare(step_minutes=STEP)
def evaluate_configuration(
    plan: Plan, config: VtsConfiguration, *, step_minutes: float = 5.0
) -> ConfigResult:
    """One configuration run through the plan's workload (as :func:`vts_plan` does for each)."""
    check_plan(plan)
    if not isinstance(config, VtsConfiguration):
        raise ValueError(f"config={config!r} must be a VtsConfiguration (vts_configurations())"[:300])
    return _evaluate_one(plan, config, _check_step(step_minutes), kept=False)


def _evaluate_one(
    plan: Plan, config: VtsConfiguration, step_minutes: float, *, kept: bool = True
) -> ConfigResult:
    """One configuration (checked arguments); ``kept``: its cache's constants kept across plans (:func:`_model_of`).

    :func:`evaluate_configuration` runs it without (``simulate_tvc`` checks every argument);
    the sensitivity, which evaluates one configuration for many plans, with.
    """
    a, day = plan.answers, plan_day(plan).of(config)
    model = _model_of(day, config, a.escon_channels, step_minutes, {}) if kept else None
    cache = _cache_day(day, a, config, step_minutes, {}, _copy_efficiency(a, day.cf), model)
    return _result(config, a, day, cache, *_recall_ready(day, a, config.drives, cache.copy_drives))
