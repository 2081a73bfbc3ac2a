"""How many tape drives a site needs for a set of data flows (the CERN sizing rule).

cern-tape-sizing-2005, "Summary, sample calculation": each flow needs
``rate · factor / efficiency / drive_speed`` drives, and the site the sum::

    Number of needed tape drives = 50 = (100 MB/s * 2 (backlog) / 0.5 (efficiency) / 40 MB/s)
        + (150 MB/s * 2 (peaks) / 0.5 (efficiency) / 40 MB/s)
        + (50 MB/s * 2 (peaks) / 0.1 (efficiency) / 40 MB/s)

A flow's efficiency is either given (the note's ~50 % for organised flows, 0.1 in the
example for chaotic ones) or computed from its access pattern (file size, files per
mount) with :func:`vtsmodel.drives.drive_efficiency`, which depends on the drive speed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.drives import drive_efficiency
from vtsmodel.quantities import BIG_RATE, FILE_MB, FILES_PER_MOUNT, SMALL, SPEED_MB_S, T_MOUNT_S, T_OVERHEAD_S

_CERN = "cern-tape-sizing-2005, Summary, sample calculation"
FLOW_RATE = Input(
    "flow rate", "MB/s", 100.0, lo=0.0, hi=BIG_RATE, source=_CERN, help="Average data rate of a flow."
)
PEAK_FACTOR = Input(
    "peak factor", "-", 2.0, lo=1.0, hi=1e6, source=f"{_CERN} ('a factor 2')",
    help="Factor for peaks, backlogs and failures.",
)  # fmt: skip
EFFICIENCY = Input(
    "efficiency", "-", 0.5, lo=SMALL, hi=1.0, source=f"{_CERN} (about 50 %)",
    help="Fraction of the drive's speed the flow gets.",
)  # fmt: skip

__all__ = [
    "Flow",
    "Sizing",
    "cern_example_drive_speed",
    "cern_example_flows",
    "drives_needed",
    "sizing_table",
]


@dataclass(frozen=True)
class Flow:
    """One data flow to or from tape.

    Attributes
    ----------
    name : str
        What the flow is, e.g. ``"T0 → T1"``.
    rate_mb_s : float
        Average data rate, >= 0. [MB/s]
    peak_factor : float
        Factor for peaks, backlogs and failures, >= 1 (the note: "a factor 2"). [-]
    efficiency : float or None
        Fraction of the drive's speed the flow gets, in (0, 1]; ``None`` to compute it
        from ``file_mb`` and ``files_per_mount``. [-]
    file_mb : float or None
        Average file size, for an efficiency from the access pattern. [MB]
    files_per_mount : float or None
        Files written or read per mount, >= 1, for an efficiency from the access
        pattern. [-]
    """

    name: str
    rate_mb_s: float
    peak_factor: float = 1.0
    efficiency: float | None = None
    file_mb: float | None = None
    files_per_mount: float | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"name={self.name!r} must be the flow's name, as text")
        n = self.name
        as_scalar(f"{n}: rate_mb_s", FLOW_RATE.check(f"{n}: rate_mb_s", self.rate_mb_s))
        as_scalar(f"{n}: peak_factor", PEAK_FACTOR.check(f"{n}: peak_factor", self.peak_factor))
        if self.efficiency is not None:
            as_scalar(f"{n}: efficiency", EFFICIENCY.check(f"{n}: efficiency", self.efficiency))
        elif self.file_mb is None or self.files_per_mount is None:
            raise ValueError(
                f"flow {self.name!r} needs an efficiency in {EFFICIENCY.range_text()} or an access pattern "
                f"(file_mb in {FILE_MB.range_text()} and files_per_mount in {FILES_PER_MOUNT.range_text()}); "
                f"it has neither an efficiency nor {'a file size' if self.file_mb is None else 'files per mount'}"
            )
        else:
            as_scalar(f"{n}: file_mb", FILE_MB.check(f"{n}: file_mb", self.file_mb))
            as_scalar(
                f"{n}: files_per_mount", FILES_PER_MOUNT.check(f"{n}: files_per_mount", self.files_per_mount)
            )

    def efficiency_for(self, drive_speed_mb_s: float, **formula) -> float:
        """The flow's efficiency on a drive of ``drive_speed_mb_s`` [MB/s].

        The given efficiency, or :func:`~vtsmodel.drives.drive_efficiency` of the access
        pattern (``formula`` passes ``t_mount_s`` and ``t_overhead_s`` on).
        """
        if self.efficiency is not None:
            return float(self.efficiency)
        return float(
            drive_efficiency(self.file_mb, self.files_per_mount, speed_mb_s=drive_speed_mb_s, **formula)
        )


@dataclass(frozen=True)
class Sizing:
    """The result of :func:`drives_needed`.

    Attributes
    ----------
    names : tuple of str
        The flows, in order.
    drives : numpy.ndarray
        Drives each flow needs (fractional, as the note's terms). [-]
    efficiencies : numpy.ndarray
        The efficiency used for each flow. [-]
    total : float
        Sum of the flows' drives (fractional). [-]
    drive_speed_mb_s : float
        The drive speed sized for. [MB/s]
    """

    names: tuple[str, ...]
    drives: np.ndarray
    efficiencies: np.ndarray
    total: float
    drive_speed_mb_s: float

    @property
    def whole_drives(self) -> int:
        """Drives to buy: the total rounded up to a whole drive."""
        return int(math.ceil(self.total - 1e-9 * max(1.0, self.total)))

    @property
    def shares(self) -> np.ndarray:
        """Each flow's share of the total drives (sums to 1). [-]"""
        return self.drives / self.total if self.total > 0 else np.zeros_like(self.drives)

    def __float__(self) -> float:
        return float(self.total)


def _as_flow(item, i: int) -> Flow:
    if isinstance(item, Flow):
        return item
    if isinstance(item, Mapping):
        fields = {"name", "rate_mb_s", "peak_factor", "efficiency", "file_mb", "files_per_mount"}
        unknown = set(item) - fields
        if unknown:
            raise ValueError(
                f"flows[{i}] has unknown field(s) {', '.join(sorted(map(repr, unknown)))}; "
                f"a flow has {', '.join(sorted(fields))}"
            )
        if "rate_mb_s" not in item:
            raise ValueError(f"flows[{i}] lacks rate_mb_s, the flow's average data rate [MB/s]")
        return Flow(**{"name": f"flow {i + 1}", **item})
    raise ValueError(f"flows[{i}]={item!r} must be a Flow or a mapping of Flow's fields")


def _flows(flows) -> list[Flow]:
    if isinstance(flows, str | bytes | Mapping | Flow) or not isinstance(flows, Iterable):
        raise ValueError(
            f"flows={flows!r} must be a list of flows (Flow objects or mappings of their fields)"
        )
    out = [_as_flow(f, i) for i, f in enumerate(flows)]
    if not out:
        raise ValueError("flows is empty; give at least one flow")
    return out


def _formula(formula: dict) -> dict:
    unknown = set(formula) - {"t_mount_s", "t_overhead_s"}
    if unknown:
        raise ValueError(
            f"unknown argument(s) {', '.join(sorted(map(repr, unknown)))}; the formula takes t_mount_s, t_overhead_s"
        )
    inputs = {"t_mount_s": T_MOUNT_S, "t_overhead_s": T_OVERHEAD_S}
    return {k: None if v is None else as_scalar(k, inputs[k].check(k, v)) for k, v in formula.items()}


@cites("cern_sizing_example", "cern_facts")
@declare(drive_speed_mb_s=SPEED_MB_S, t_mount_s=T_MOUNT_S, t_overhead_s=T_OVERHEAD_S)
def drives_needed(flows: Iterable, *, drive_speed_mb_s: float, **formula) -> Sizing:
    """Tape drives needed for a set of data flows, and each flow's share.

    ``drives = Σ rate_i · factor_i / efficiency_i / drive_speed``
    (cern-tape-sizing-2005, Summary, sample calculation).

    Parameters
    ----------
    flows : iterable of Flow or mapping
        The flows; a mapping gives :class:`Flow`'s fields (``rate_mb_s``,
        ``peak_factor``, ``efficiency`` or ``file_mb`` and ``files_per_mount``).
    drive_speed_mb_s : float
        The drive's maximum speed (CERN's Maxspeed), > 0. [MB/s]
    **formula
        ``t_mount_s`` and ``t_overhead_s`` for efficiencies from access patterns.

    Returns
    -------
    Sizing
        Per-flow drives, efficiencies, the total and the shares.

    Raises
    ------
    ConstraintError
        (a ``ValueError``) when the count overflows (an efficiency so small that
        ``rate / efficiency`` is not a finite number).
    """
    flows = _flows(flows)
    formula = _formula(formula)
    speed = as_scalar("drive_speed_mb_s", SPEED_MB_S.check("drive_speed_mb_s", drive_speed_mb_s))
    eff = np.array([f.efficiency_for(speed, **formula) for f in flows])
    rate = np.array([f.rate_mb_s for f in flows], dtype=float)
    factor = np.array([f.peak_factor for f in flows], dtype=float)
    with np.errstate(over="ignore"):
        drives = rate * factor / eff / speed  # Summary, sample calculation
        total = float(drives.sum())
    if not np.isfinite(total):
        worst = flows[int(np.argmax(np.where(np.isfinite(drives), drives, np.inf)))]
        raise ConstraintError(
            f"the drives needed overflow: flow {worst.name!r} (rate_mb_s={worst.rate_mb_s!r}, "
            f"efficiency {float(worst.efficiency_for(speed, **formula)):.3g}) at drive_speed_mb_s={speed:g} needs "
            "more drives than a number can hold; check its rate, efficiency or access pattern"
        )
    return Sizing(tuple(f.name for f in flows), drives, eff, total, speed)


@cites("cern_sizing_example", "cern_facts")
@declare(drive_speed_mb_s=SPEED_MB_S, t_mount_s=T_MOUNT_S, t_overhead_s=T_OVERHEAD_S)
def sizing_table(flows: Iterable, *, drive_speed_mb_s: float, **formula) -> list[dict]:
    """The sizing as rows to print or export: one per flow, then a total.

    Each row has the keys ``"flow"``, ``"rate [MB/s]"``, ``"factor [-]"``,
    ``"efficiency [-]"``, ``"drives [-]"`` (fractional) and ``"share [-]"``; the total
    row (``"flow": "total"``) sums rates and drives, leaves factor and efficiency
    ``None`` and adds ``"drives to buy [-]"``, the total rounded up.

    Parameters are those of :func:`drives_needed`.
    """
    flows = _flows(flows)
    s = drives_needed(flows, drive_speed_mb_s=drive_speed_mb_s, **formula)
    rows = [
        {
            "flow": f.name,
            "rate [MB/s]": float(f.rate_mb_s),
            "factor [-]": float(f.peak_factor),
            "efficiency [-]": float(e),
            "drives [-]": float(d),
            "share [-]": float(sh),
        }
        for f, e, d, sh in zip(flows, s.efficiencies, s.drives, s.shares, strict=True)
    ]
    rows.append(
        {
            "flow": "total",
            "rate [MB/s]": float(sum(f.rate_mb_s for f in flows)),
            "factor [-]": None,
            "efficiency [-]": None,
            "drives [-]": s.total,
            "share [-]": 1.0 if s.total > 0 else 0.0,
            "drives to buy [-]": s.whole_drives,
        }
    )
    return rows


_FLOW_LABELS = {"t0_to_t1": "T0 → T1", "reprocessing": "reprocessing", "t2_analysis": "T2, analysis"}


@cites("cern_sizing_example")
def cern_example_flows() -> list[Flow]:
    """The three flows of the note's sample calculation (a new list on every call)."""
    return list(_cern_flows())


@functools.cache
def _cern_flows() -> tuple[Flow, ...]:
    t = load("cern_sizing_example")
    out = []
    for key, label in _FLOW_LABELS.items():
        out.append(
            Flow(
                name=label,
                rate_mb_s=t.value(f"{key}_rate"),
                peak_factor=t.value(f"{key}_factor"),
                efficiency=t.value(f"{key}_efficiency"),
            )
        )
    return tuple(out)


@cites("cern_sizing_example")
def cern_example_drive_speed() -> float:
    """The drive speed of the note's sample calculation, "Tape drive maxspeed = 40 MB/s"."""
    return load("cern_sizing_example").value("drive_speed")
