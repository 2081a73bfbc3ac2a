"""Each VTS cache through a plan's day, and the recall queues (private: :mod:`vtsmodel.plan.vts` evaluates).

The models' rates with the plan's ESCON channels, the copy's efficiency, a day simulated
(and run again when un-copied data is left at its end), each cache's checked constants kept
across plans with the warnings they gave (:func:`_model_of`), and the recall ready time of
every configuration's hours in one call of each queueing model (:func:`_recalls_ready`).
Sources: ibm-vts-b18-2000 (Secs. 3.2.2, 3.5.1, 3.5.4, Eq. 1), cern-tape-sizing-2005.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vtsmodel import b18
from vtsmodel import quantities as q
from vtsmodel._tables import load
from vtsmodel.bottleneck import binding_resource, bottleneck_rate, write_capacities
from vtsmodel.catalog import drive_spec
from vtsmodel.drives import drive_efficiency
from vtsmodel.plan.answers import Answers
from vtsmodel.plan.day import MIN_RECALLS_PER_HOUR, PlanDay
from vtsmodel.plan.provenance import _given_again, _recorded
from vtsmodel.queueing import wait_percentile
from vtsmodel.recall import drive_preset, recall_drives
from vtsmodel.tvc import DEFAULT_PEAK_COPY_FRACTION, DEFAULT_THRESHOLD
from vtsmodel.tvc_day import TvcRun, _tvc_constants, _TvcConstants, recall_ceiling_mb_s, simulate_tvc

if TYPE_CHECKING:  # for the annotations only: vts.py imports this module
    from vtsmodel.plan.vts import VtsConfiguration


@dataclass(frozen=True)
class _VtsDrive:
    """A VTS drive model as the copy sees it."""

    rate_mb_s: float  # native rate [MB/s]
    cartridge_gb: float  # native cartridge capacity [GB]
    mount_s: float  # per mount: robot, load, overhead, rewind and unload [s]


@functools.cache
def _vts_drive(vts_drive: str) -> _VtsDrive:
    """Rate, cartridge and per-mount time of a VTS drive model."""
    p = drive_preset(vts_drive)
    spec = drive_spec(b18.TAPE_DRIVES[vts_drive])
    mount_s = p["robot_s"] + p["load_s"] + p["overhead_s"] + p["rewind_unload_s"]  # Eq. 1: 2.36 min per mount
    return _VtsDrive(float(p["rate_mb_s"]), float(spec.native_capacity_gb), float(mount_s))


def _copy_efficiency(a: Answers, cf: float) -> float:
    """Share of a drive's rate the copy gets: stored volumes stacked until the cartridge is full.

    The CERN formula (:func:`~vtsmodel.drives.drive_efficiency`) with files of
    ``volume_mb / cf`` stored MB, as many per mount as fill a cartridge (at most 10^9), the drive's
    native rate and Eq. 1's 2.36 min per mount; or the efficiency answered.
    """
    if a.drive_efficiency is not None:
        return float(a.drive_efficiency)
    d = _vts_drive(a.vts_drive)
    stored = a.volume_mb / cf
    # as many as fill a cartridge; beyond 10^9 (volumes of a few bytes) the mount's share is nil
    per_mount = min(max(1.0, d.cartridge_gb * 1000.0 / stored), q.FILES_PER_MOUNT.hi)
    return float(drive_efficiency(stored, per_mount, speed_mb_s=d.rate_mb_s, t_mount_s=d.mount_s))


def _hourly(values_at_edges: np.ndarray, time_hours: np.ndarray, hours: int) -> np.ndarray:
    """Hourly increments of a cumulative series given at the simulation's step edges."""
    at = np.interp(np.arange(hours + 1, dtype=float), time_hours, values_at_edges)
    return np.diff(at)


def _cache(cfg: VtsConfiguration) -> dict:
    """The cache as the models take it: its Table 3 id where the layout matters, else its capacity."""
    return {"tvc_config": cfg.tvc_config} if cfg.tvc_config is not None else {"tvc_gb": cfg.tvc_gb}


@dataclass(frozen=True)
class _Rates:
    """A configuration's host rates with the plan's ESCON channels. [MB/s]"""

    peak_mb_s: float
    sustained_mb_s: float
    channels_mb_s: float  # what the channels carry (32 KB blocks)
    recall_max_mb_s: float  # recalls served at most: the read model's ceiling, or the channels


@functools.cache
def _measured_channels() -> int:
    """The paper's measurements' ESCON channels: with these the planner's rates are the models' own.

    "The throughput shown in the figures has been measured with eight ESCON channels"
    (ibm-vts-b18-2000, Sec. 3.5.1; vts_facts ``meas_escon_channels_figs7_9``). [count]
    """
    return int(load("vts_facts").value("meas_escon_channels_figs7_9"))


def _rates(cf: float, cfg: VtsConfiguration, channels: int) -> _Rates:
    """Peak and sustained write and the recall ceiling of ``cfg`` with ``channels`` ESCON channels.

    The bottleneck view (:func:`~vtsmodel.bottleneck.bottleneck_rate`): a channel carries
    the PAF peak ceiling over eight (Secs. 3.5.4, 9: "up to 80 MB/s" with eight), so with
    eight the rates are :func:`~vtsmodel.throughput.write_rate`'s and with fewer they fall
    where the channels bind (four: 40.3 MB/s at most). Recalls cross the same channels: the
    recall ceiling (:func:`~vtsmodel.tvc_day.recall_ceiling_mb_s`, Table 1 measured with
    eight) is held to what the channels carry for writes, an upper bound for reads ("The
    maximum read rate is usually lower than the corresponding write rate", Sec. 3.5.4).
    """
    where = dict(feature=cfg.feature, channels=channels, **_cache(cfg))
    peak = float(bottleneck_rate(cf, mode="peak", **where))
    sustained = min(float(bottleneck_rate(cf, mode="sustained", **where)), peak)
    chan = float(write_capacities(cf, mode="peak", **where)["host channels"])
    ceiling = float(recall_ceiling_mb_s(cf, feature=cfg.feature, sustained_mb_s=sustained))
    return _Rates(peak, sustained, chan, min(ceiling, chan))


def _simulate(day: PlanDay, cfg: VtsConfiguration, rates: _Rates | None, step_minutes: float,
              tvc_options: Mapping) -> tuple[TvcRun, float, float]:  # fmt: skip
    """The day simulated, run twice when un-copied data is left at its end (a day that repeats).

    ``rates``: the channels' rates (:func:`_rates`), or None for the paper's eight channels,
    where they are the models' own (``write_rate`` and the recall ceiling; a test checks).
    Returns the run, the un-copied data carried into it and the data left at its end. [GB]
    """
    given = {} if rates is None else dict(peak_mb_s=rates.peak_mb_s, sustained_mb_s=rates.sustained_mb_s,
                                          max_recall_mb_s=rates.recall_max_mb_s)  # fmt: skip
    kw = dict(**_cache(cfg), cf=day.cf, feature=cfg.feature, read_hit=day.read_hit, step_minutes=step_minutes,
              **given, **tvc_options)  # fmt: skip
    return _repeated(lambda backlog_gb: simulate_tvc(day.profile, backlog_gb=backlog_gb, **kw))


def _repeated(simulate) -> tuple[TvcRun, float, float]:
    """``simulate(backlog_gb)`` from empty, and again with the un-copied data left at its end (:func:`_simulate`)."""
    first = simulate(0.0)
    left = float(first.uncopied_gb[-1])
    if left <= 1e-9 * max(first.capacity_gb, 1.0) or float(first.delayed_mb[-1]) > 1e-6:
        return first, 0.0, left  # cleared, or already behind (host writes still waiting)
    carried = min(left, first.capacity_gb)
    second = simulate(carried)
    return second, carried, float(second.uncopied_gb[-1])


@dataclass(frozen=True)
class _CacheModel:
    """One cache's constants in a plan: the day simulation's (checked once) and what binds its sustained rate."""

    tvc: _TvcConstants
    binding_resource: str


def _cache_model(cf: float, read_hit: float, hours: float, cfg: VtsConfiguration, channels: int,
                 step_minutes: float, tvc_options: tuple) -> _CacheModel:  # fmt: skip
    """What :func:`_simulate` and the binding resource compute for a cache before the day's hours."""
    rates = None if channels == _measured_channels() else _rates(cf, cfg, channels)
    opts = dict(tvc_options)
    c = _tvc_constants(
        hours, tvc_gb=cfg.tvc_gb if cfg.tvc_config is None else None, tvc_config=cfg.tvc_config, cf=cf,
        feature=cfg.feature,
        threshold=opts.get("threshold", DEFAULT_THRESHOLD),
        peak_copy_fraction=opts.get("peak_copy_fraction", DEFAULT_PEAK_COPY_FRACTION), above_864_fraction=None,
        read_hit=read_hit, step_minutes=step_minutes, peak_mb_s=rates and rates.peak_mb_s,
        sustained_mb_s=rates and rates.sustained_mb_s, max_recall_mb_s=rates and rates.recall_max_mb_s,
    )  # fmt: skip
    bind = str(binding_resource(cf, feature=cfg.feature, mode="sustained", channels=channels, **_cache(cfg)))
    return _CacheModel(c, bind)


#: :func:`_cache_model` of the caches of recent plans, with the project's warnings each gave (:func:`_model_of`).
_MODELS: dict[tuple, tuple[_CacheModel, tuple]] = {}
_MODELS_KEPT = 1024


def _model_of(day: PlanDay, cfg: VtsConfiguration, channels: int, step_minutes: float,
              tvc_options: Mapping) -> _CacheModel:  # fmt: skip
    """:func:`_cache_model`, kept across plans (it does not read the day's hours), its warnings given again each call."""
    opts = tuple(sorted(tvc_options.items()))
    key = (day.cf, day.read_hit, float(day.profile.duration_hours), cfg.feature, cfg.tvc_gb, int(channels),
           float(step_minutes), opts)  # fmt: skip
    entry = _MODELS.get(key)
    if entry is None:
        entry = _recorded(lambda: _cache_model(day.cf, day.read_hit, float(day.profile.duration_hours), cfg,
                                               int(channels), float(step_minutes), opts))  # fmt: skip
        if len(_MODELS) >= _MODELS_KEPT:
            _MODELS.clear()
        _MODELS[key] = entry
    return _given_again(entry)


def _recall_ready(day: PlanDay, a: Answers, total: int, copy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drives left for recalls and the recall ready time at the percentile, hour by hour."""
    return _recalls_ready([(day, total, copy)], a)[0]


def _recalls_ready(items, a: Answers) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`_recall_ready` of each ``(day, total drives, drives copying each hour)``, one call of each model for all.

    The models are elementwise: every configuration's hours go through
    :func:`~vtsmodel.recall.recall_drives` and :func:`~vtsmodel.queueing.wait_percentile`
    together (a test checks the answers equal one configuration's at a time).
    """
    # One row per item, one column per hour (a plan's items share its hours): the same elementwise
    # arithmetic, and the models' inputs in the same order, as item by item.
    copy = np.stack([c for _d, _t, c in items])
    total = np.array([t for _d, t, _c in items])[:, None]
    per_hour = np.stack([d.recalls_per_hour for d, _t, _c in items])
    service = np.array([float(d.recall_service_s) for d, _t, _c in items])[:, None]
    ready_s = np.array([float(d.recall_ready_s) for d, _t, _c in items])[:, None]
    shape = copy.shape
    ok = copy < total
    left = np.zeros(shape, dtype=int)
    if ok.any():
        left[ok] = recall_drives(np.broadcast_to(total, shape)[ok], copy[ok])  # Sec. 3.2.2: total - copying
    busy = per_hour > MIN_RECALLS_PER_HOUR
    stable = busy & (left >= 1) & (per_hour / 3600.0 * service < left)
    ready_q = np.full(shape, np.nan)
    ready_q[busy] = np.inf
    if stable.any():
        waits = wait_percentile(per_hour[stable] / 3600.0, np.broadcast_to(service, shape)[stable], left[stable],
                                a.recall_percentile, service_cv=0.0)  # fmt: skip
        ready_q[stable] = waits + np.broadcast_to(ready_s, shape)[stable]
    return [(left[i], ready_q[i]) for i in range(len(items))]
