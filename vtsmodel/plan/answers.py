"""The handful of answers a plan starts from: their declarations and :class:`Answers`.

Each answer's default is declared once, on its :class:`Answers` field; the declarations
(:func:`answer_inputs`: label, unit, valid range, source, help) take it from there.
"""

from __future__ import annotations

import dataclasses
import functools
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from vtsmodel import archive, b18
from vtsmodel import quantities as q
from vtsmodel._inputs import Input
from vtsmodel.catalog import drive_choices, drive_options
from vtsmodel.hourly import MAX_HOURS, HourlyWorkload
from vtsmodel.library import MOVE_S, ROBOTS, library_options

__all__ = ["Answers", "answer_inputs"]

_VTS = "ibm-vts-b18-2000"
_CERN = "cern-tape-sizing-2005"
_YOURS = "your workload"
#: The ``library`` answer of a plan without a library family (drives, robots and cartridges, no frames).
NO_LIBRARY = "none"
NO_LIBRARY_LABEL = "none (drives and cartridges only)"


@dataclass(frozen=True)
class Answers:
    """The handful of answers a plan starts from; every field checked by :func:`answer_inputs`.

    Attributes
    ----------
    write_gb_per_day : float
        Host data written in a day, uncompressed. [GB]
    write_window_hours, write_start_hour : float
        The hours in which the writes arrive (evenly), and when that window opens. [h]
    read_gb_per_day : float
        Host data read in a day, uncompressed. [GB]
    read_window_hours, read_start_hour : float
        The hours in which the reads arrive (evenly), and when that window opens. [h]
    read_hit : float
        Share of the reads found in the cache. [-]
    cf : float
        Data compressibility. [-]
    recalls_per_hour : float or None
        Recalls arriving per hour in the read window; None: the read MB of each hour
        times ``1 - read_hit`` divided by ``volume_mb``. [1/h]
    volume_mb : float
        Logical volume (VTS) or file (tape library) size, uncompressed. [MB]
    files_per_mount : float
        Files written or read per mount in a tape library. [-]
    recall_target_s, recall_percentile : float
        Recalls must be ready within ``recall_target_s`` [s] at this percentile [-].
    throttle_hours_allowed : float
        Hours the VTS may throttle at its fill threshold. [h]
    delay_hours_allowed : float
        Longest a host write may wait to be accepted. [h]
    drive_efficiency : float or None
        Efficiency assumed for every drive flow; None: from the access pattern. [-]
    peak_factor : float
        CERN's factor for peaks, backlogs and failures on each library flow; 2 as the
        note advises ("one should add a factor 2 for the overall performance to cope
        with peaks, unexpected backlogs, failures", cern-tape-sizing-2005, Summary;
        cern_facts ``peak_factor``). [-]
    vts_drive : {"3590B", "3590E"}
        The VTS's tape drive model.
    escon_channels : {2, 4, 8}
        ESCON channels between the host and the VTS; 8 for the paper's maximum
        throughputs ("should configure the VTS with eight ESCON channels", Sec. 3.5.4).
        Fewer channels lower the peak and sustained write rates where the channels bind
        (the bottleneck view, :func:`vtsmodel.bottleneck.bottleneck_rate`). [count]
    library_drive : str
        A drive of the catalog (:func:`vtsmodel.catalog.drive_names`) for the library plan.
    virtual_drives_needed : int
        Virtual drives mounted at once at the busiest time (0: no requirement). [-]
    library : str
        The library family (:func:`vtsmodel.library.library_names`), or ``"none"``
        (drives, robots and cartridges, no frames).
    years : int
        Years the library is planned for. [year]
    stored_now_tb : float
        Data the archive holds today, one copy. [TB]
    growth_tb_per_year : float or None
        Data written in a year, one copy; None: the day's host writes x 365.25. [TB]
    growth_rate : float
        Data written in a year as a share of what is stored at its start. [-]
    ingest_growth : float
        How much more is written each year than the year before (0.2: 20 %). [-]
    retention_years : int
        Years data is kept (0: for ever). [year]
    copies, offsite_copies : int
        Copies of each byte on tape, and how many of them are kept outside the library. [count]
    library_compression : float
        Host bytes per byte on the library's cartridges (1: none). [-]
    fill_efficiency : float
        Share of a cartridge's native capacity that holds data. [-]
    reclaim_reserve : float
        Extra cartridges awaiting reclamation, a share of those holding data. [-]
    robots : int or None
        Robots installed; None: as many as the mounts need, within the family's documents. [count]
    robot_move_s : float or None
        Time of one robot move; None: the family's document, else CERN's 22.5 s. [s]
    slots_base, slots_per_expansion : float or None
        Slots of the base frame or module and of each expansion unit, where no document
        gives them (the TS4500's); None: the documents'. [count]
    price_drive, price_cartridge, price_frame, price_support_per_year : float or None
        Your prices (a drive, a cartridge, a frame or module, support a year); None: not
        shown. [your currency]

    Notes
    -----
    An answer whose default is None may be left empty: it is then derived (or, for a
    price, not shown). The library drive's default is the newest LTO generation of the
    drive catalog (:func:`newest_drive`).
    """

    write_gb_per_day: float = 2000.0
    write_window_hours: float = 6.0
    write_start_hour: float = 0.0
    read_gb_per_day: float = 400.0
    read_window_hours: float = 24.0
    read_start_hour: float = 0.0
    read_hit: float = 0.7
    cf: float = 2.5
    recalls_per_hour: float | None = None
    volume_mb: float = 800.0
    files_per_mount: float = 10.0
    recall_target_s: float = 600.0
    recall_percentile: float = 0.95
    throttle_hours_allowed: float = 0.0
    delay_hours_allowed: float = 1.0
    drive_efficiency: float | None = None
    peak_factor: float = 2.0
    vts_drive: str = "3590B"
    escon_channels: int = 8
    library_drive: str = field(default_factory=lambda: newest_drive("LTO"))
    virtual_drives_needed: int = 0
    # the library over the years (issue 29)
    library: str = "SL8500"
    years: int = 5
    stored_now_tb: float = 0.0
    growth_tb_per_year: float | None = None
    growth_rate: float = 0.0
    ingest_growth: float = 0.0
    retention_years: int = 0
    copies: int = 1
    offsite_copies: int = 0
    library_compression: float = 1.0
    fill_efficiency: float = 1.0
    reclaim_reserve: float = 0.0
    robots: int | None = None
    robot_move_s: float | None = None
    slots_base: float | None = None
    slots_per_expansion: float | None = None
    price_drive: float | None = None
    price_cartridge: float | None = None
    price_frame: float | None = None
    price_support_per_year: float | None = None

    def __post_init__(self) -> None:
        inputs = _inputs()
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in _OPTIONAL:
                continue
            object.__setattr__(self, f.name, inputs[f.name].parse(f.name, value))

    def replace(self, **changes) -> Answers:
        """A copy with some answers changed (each checked)."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        """The answers by name (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, values: Mapping, *, strict_types: bool = True) -> Answers:
        """Answers from a mapping; missing ones take their defaults, unknown ones are rejected.

        With ``strict_types`` (files), a number must be a number, not text.
        """
        if not isinstance(values, Mapping):
            raise ValueError(f"answers must be an object of name to value, not {type(values).__name__}")
        _check_names(values)
        if strict_types:
            inputs = _inputs()
            for k, v in values.items():
                inp = inputs[k]
                if v is None and k in _OPTIONAL:
                    continue
                if inp.choices:
                    numeric = [val for _, val in inp.options if not isinstance(val, str)]
                    if not isinstance(v, str) and (isinstance(v, bool) or v not in numeric):
                        what = "is not valid" if numeric else "must be text"
                        raise ValueError(f"{k}={v!r} {what}; choose {inp.range_text()}")
                elif isinstance(v, bool) or not isinstance(v, numbers.Real):
                    raise ValueError(f"{k}={v!r} must be a number in {inp.range_text()} ({inp.header})")
        return cls(**dict(values))

    # --- the day they describe -----------------------------------------------------------------
    def hourly(self) -> HourlyWorkload:
        """The 24 hours these answers describe, as an hourly workload.

        Writes and reads spread evenly over their windows (a window that passes midnight
        wraps to the start of the day); recall mounts are ``recalls_per_hour`` in the
        read window, or each hour's reads times ``1 - read_hit`` over ``volume_mb``.
        """
        w = _window_share(self.write_start_hour, self.write_window_hours)
        r = _window_share(self.read_start_hour, self.read_window_hours)
        write_mb = self.write_gb_per_day * 1000.0 * w
        read_mb = self.read_gb_per_day * 1000.0 * r
        if self.recalls_per_hour is None:
            recalls = read_mb * (1.0 - self.read_hit) / self.volume_mb
        else:
            recalls = self.recalls_per_hour * r * self.read_window_hours
        cols = {"hour": np.arange(24.0), "host_write_mb": write_mb, "host_read_mb": read_mb,
                "recall_mounts": recalls}  # fmt: skip
        if self.virtual_drives_needed:
            cols["max_virtual_drives"] = np.full(24, float(self.virtual_drives_needed))
        return HourlyWorkload(name="answers", columns=cols, notes="The day the answers describe.")


#: The answers of the library over the years (issue 29): only the tape-library plan reads them.
ARCHIVE_ANSWERS = (
    "library", "years", "stored_now_tb", "growth_tb_per_year", "growth_rate", "ingest_growth", "retention_years",
    "copies", "offsite_copies", "library_compression", "fill_efficiency", "reclaim_reserve", "robots",
    "robot_move_s", "slots_base", "slots_per_expansion", "price_drive", "price_cartridge", "price_frame",
    "price_support_per_year",
)  # fmt: skip
#: What each answer that may be left empty means when it is (a caption, a plan file's comment).
EMPTY_MEANS = {
    "recalls_per_hour": "derived: reads × (1 − read hit) ÷ volume size", "drive_efficiency": "from the access pattern",
    "growth_tb_per_year": "the day's host writes (or the writing flows) × 365.25 days",
    "robots": "as many as the mounts need", "robot_move_s": "the family's document, else CERN's 22.5 s",
    "slots_base": "the library's documents", "slots_per_expansion": "the library's documents", "price_drive": "not shown",
    "price_cartridge": "not shown", "price_frame": "not shown", "price_support_per_year": "not shown",
}  # fmt: skip
#: The archive's answers that move only the years, not today's drives (the sensitivity leaves them out).
YEARS_ONLY = tuple(k for k in ARCHIVE_ANSWERS if k not in ("library", "robots", "robot_move_s"))
#: Answers whose default comes from the catalog (:func:`newest_drive`), read on first use.
_FACTORY = frozenset(f.name for f in dataclasses.fields(Answers) if f.default is dataclasses.MISSING)
#: Answers that may be left empty (``None``): they are then derived.
_OPTIONAL = frozenset(f.name for f in dataclasses.fields(Answers) if f.default is None)
#: The answers' names, in order.
_NAMES = tuple(f.name for f in dataclasses.fields(Answers))


def _defaults() -> dict:
    """Each answer's default, from its field."""
    return {
        f.name: (f.default_factory() if f.name in _FACTORY else f.default)
        for f in dataclasses.fields(Answers)
    }


@functools.cache
def newest_drive(family: str) -> str:
    """The newest generation of a drive family in the catalog, of those that give a cartridge capacity (``"LTO10"``).

    The catalog lists each family in order of generation (:func:`vtsmodel.catalog.drive_choices`).
    """
    for g in drive_choices(having=("native_capacity",)):
        if g.family == family:
            return g.drives[-1].key
    raise ValueError(f"family={family!r} has no drive with a cartridge capacity in the catalog")


@functools.cache
def _inputs() -> dict[str, Input]:
    """The declarations, built on first use (the drive catalog is read for the library drive)."""
    declared = {
        "write_gb_per_day": Input(
            "data written per day", "GB", lo=0.0, hi=1e6, source=_YOURS, digits=4,
            help="Host data written in a day, uncompressed (GB = 10^9 bytes).",
        ),
        "write_window_hours": Input(
            "write window", "h", lo=0.0, hi=24.0, lo_open=True, source=_YOURS, step=0.5,
            help="Hours in which the day's writes arrive, evenly.",
        ),
        "write_start_hour": Input(
            "write window starts", "h", lo=0.0, hi=24.0, hi_open=True, source=_YOURS, step=0.5,
            help="Hour of the day the write window opens (the day starts at 0).",
        ),
        "read_gb_per_day": Input(
            "data read per day", "GB", lo=0.0, hi=1e6, source=_YOURS,
            help="Host data read in a day, uncompressed.",
        ),
        "read_window_hours": Input(
            "read window", "h", lo=0.0, hi=24.0, lo_open=True, source=_YOURS, step=0.5,
            help="Hours in which the day's reads arrive, evenly.",
        ),
        "read_start_hour": Input(
            "read window starts", "h", lo=0.0, hi=24.0, hi_open=True, source=_YOURS, step=0.5,
            help="Hour of the day the read window opens.",
        ),
        "read_hit": q.READ_HIT.but(
            source=_YOURS, help="Share of the reads found in the cache; the rest are recalled from tape.",
        ),
        "cf": q.CF,
        "recalls_per_hour": q.RECALLS_PER_HOUR.but(
            lo=0.0, lo_open=False, hi=1e5, source=_YOURS,
            help="Recalls arriving per hour in the read window; empty: reads x misses / volume size.",
        ),
        # at least a byte: stored after a CF of up to 100 it stays above SMALL
        "volume_mb": q.VOLUME_MB.but(
            label="volume or file size", lo=1e-6, hi=1e6,
            help="Logical volume (VTS) or file (library) size, uncompressed; 800 MB in the paper's tests.",
        ),
        "files_per_mount": q.FILES_PER_MOUNT.but(
            hi=1e6, help="Files written or read per mount in a tape library (nRequests).",
        ),
        "recall_target_s": Input(
            "recall ready within", "s", lo=0.0, hi=86400.0, lo_open=True, source=_YOURS,
            help="Time from a recall's request until its volume is ready, at the percentile below.",
        ),
        "recall_percentile": Input(
            "at percentile", "-", lo=0.0, hi=1.0, lo_open=True, hi_open=True, source=_YOURS,
            help="Share of the recalls that must be ready within the target.",
        ),
        "throttle_hours_allowed": Input(
            "hours throttled allowed", "h", lo=0.0, hi=float(MAX_HOURS), source=_YOURS,
            help="Hours the VTS may throttle host writes at its cache fill threshold.",
        ),
        "delay_hours_allowed": Input(
            "write delay allowed", "h", lo=0.0, hi=float(MAX_HOURS), source="project assumption (set yours)",
            help="Longest a host write may wait to be accepted (throttling or a peak rate below demand).",
        ),
        "drive_efficiency": Input(
            "drive efficiency assumed", "-", lo=q.SMALL, hi=1.0, source=_CERN,
            help="Share of a drive's speed a flow gets; empty: from the access pattern (CERN formula).",
        ),
        "peak_factor": Input(
            "peak factor", "-", lo=1.0, hi=10.0,
            source=f"{_CERN}, Summary: 'one should add a factor 2 for the overall performance to cope with peaks'",
            help="Factor for peaks, backlogs and failures on each library flow (the note's 2 by default).",
        ),
        "vts_drive": Input(
            "VTS tape drive", "", choices=tuple((f"IBM 3590 model {m[-1]}", m) for m in b18.TAPE_DRIVES),
            source=f"{_VTS}, Sec. 2", help="The 3590 model in the VTS's library.",
        ),
        "escon_channels": Input(
            "ESCON channels", "-", choices=(("2 ESCON channels", 2), ("4 ESCON channels", 4),
                                            ("8 ESCON channels", 8)),
            source=f"{_VTS}, Secs. 1, 3.5.4 (eight for the maximum throughputs)",
            help="Host channels to the VTS: fewer lower the peak and sustained rates where the channels bind.",
        ),
        "library_drive": Input(
            "library drive", "", choices=tuple(drive_options()), source="drive catalog",
            help="The drive of a tape library plan without a VTS.",
        ),
        "virtual_drives_needed": Input(
            "virtual drives needed", "-", lo=0, hi=4096, integer=True, source=_YOURS,
            help="Virtual drives mounted at once at the busiest time; 0: no requirement.",
        ),
        # the library over the years (issue 29)
        "library": Input(
            "library", "", choices=(*library_options(), (NO_LIBRARY_LABEL, NO_LIBRARY)), source="data/library_models.csv",
            help="The tape library family, from its vendor's documents; none: drives, robots and cartridges, no frames.",
        ),
        "years": archive.YEARS,
        "stored_now_tb": archive.STORED_TB,
        "growth_tb_per_year": archive.GROWTH_TB.but(
            optional=True, help="Data written in a year, one copy; empty: the day's host writes x 365.25 days.",
        ),
        "growth_rate": archive.GROWTH_RATE,
        "ingest_growth": archive.INGEST_GROWTH,
        "retention_years": archive.RETENTION,
        "copies": archive.COPIES,
        "offsite_copies": archive.OFFSITE,
        "library_compression": archive.COMPRESSION.but(label="compression on tape"),
        "fill_efficiency": archive.FILL,
        "reclaim_reserve": archive.RESERVE,
        "robots": ROBOTS.but(
            optional=True, source="your library", help="Robots (accessors, HandBots) installed; empty: as many as the mounts need, "
            "within the family's documented most.",
        ),
        "robot_move_s": MOVE_S.but(
            optional=True, source="your library", help="One cartridge move; empty: the family's document, else CERN's 22.5 s "
            "(160 robot arm movements per hour).",
        ),
        "slots_base": Input(
            "slots of the base frame", "-", lo=1.0, hi=1e6, integer=True, optional=True, source="your library",
            help="Where no document gives them (the TS4500's): the base frame's or module's cartridge slots.",
        ),
        "slots_per_expansion": Input(
            "slots per expansion frame", "-", lo=0.0, hi=1e6, integer=True, optional=True, source="your library",
            help="Where no document gives them (the TS4500's): each expansion frame's or module's slots.",
        ),
        "price_drive": archive.PRICE.but(label="price of a drive", help="Your price of one drive; empty: not shown."),
        "price_cartridge": archive.PRICE.but(label="price of a cartridge", help="Your price of one cartridge; empty: not shown."),
        "price_frame": archive.PRICE.but(label="price of a frame or module",
                                 help="Your price of one frame or module (slots and bays); empty: not shown."),
        "price_support_per_year": archive.PRICE.but(label="support a year", help="Your yearly support; empty: not shown."),
    }  # fmt: skip
    defaults = _defaults()
    return {k: inp.but(default=defaults[k]) for k, inp in declared.items()}


def answer_inputs() -> dict[str, Input]:
    """The declarations of :class:`Answers`' fields, by name (a new dict on every call).

    Each gives the label, unit, default, valid range, source and help a control or a
    form needs.
    """
    return dict(_inputs())


def _check_names(values: Mapping) -> None:
    unknown = [k for k in values if k not in _NAMES]
    if unknown:
        raise ValueError(f"unknown answer(s) {', '.join(map(repr, unknown))}; answers: {', '.join(_NAMES)}")


def _window_share(start: float, length: float) -> np.ndarray:
    """Share of a window ``[start, start + length)`` (wrapping at 24 h) in each hour of the day."""
    edges = np.arange(25.0)
    lo, hi = edges[:-1], edges[1:]
    share = np.zeros(24)
    for a in (start - 24.0, start):
        b = a + length
        share += np.clip(np.minimum(hi, b) - np.maximum(lo, a), 0.0, None)
    return share / length
