"""The drive catalog: every drive a document describes, each value cited, grouped by family.

``data/drive_catalog.csv`` holds one row per drive, quantity and source: native and
compressed rates, capacity, rated compression, the lowest speed-matching rate and the
load, unload, rewind and locate times. The five founding documents describe the STK 3480,
IBM 3590B/E, STK 9940B, IBM 3592 (CERN's "3592A") and LTO-1/LTO-2; public vendor
documents, the LTO Program's releases and, where no vendor document was found, news
reports and Wikipedia (the *supplementary* sources) add LTO-3 to LTO-10, the 3592 family
to the TS1170 and the StorageTek T10000A-C. Where documents disagree every row is kept
and one is marked ``primary``: the value the models use (``data/notes/drive_catalog.md``
says which and why).

What the models take from it:

- :func:`drive_spec` / :class:`DriveSpec`: a drive's primary values;
- :func:`drive_choices`: drive names grouped by family, in order of generation, with
  display labels, for lessons, the CLI and the planner;
- :func:`mount_parts`: the drive's own load, locate and rewind-plus-unload times where
  the catalog has them, CERN's 9940B figures (cern-tape-sizing-2005) where it does not;
- :func:`streaming_check` / :func:`warn_streaming`: whether a feed rate lets the drive
  stream, against its lowest speed-matching rate, and the consequence the documents
  state when it does not.
"""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from vtsmodel._inputs import declare, number
from vtsmodel._tables import Provenance, cites, load
from vtsmodel._validation import UnknownName, VtsModelWarning, broadcast, result
from vtsmodel.quantities import COMPRESSION_RATIO, STREAM_MB_S

_FEED = STREAM_MB_S.but(label="feed rate", help="Rate at which data reaches the drive, as the host sees it.")

__all__ = [
    "BACKHITCH_TEXT",
    "FAMILIES",
    "QUANTITIES",
    "SPEED_MATCHING_TEXT",
    "DriveChoice",
    "DriveGroup",
    "DriveSpec",
    "MountPart",
    "StreamingCheck",
    "StreamingWarning",
    "catalog_provenance",
    "catalog_rows",
    "drive_catalog",
    "drive_choices",
    "drive_names",
    "drive_options",
    "drive_spec",
    "mount_parts",
    "resolve_drive",
    "streaming_check",
    "warn_streaming",
]

#: Drive families in display order: (family id, label).
FAMILIES = (
    ("LTO", "LTO Ultrium"),
    ("IBM3592", "IBM 3592 (TS1100)"),
    ("IBM3590", "IBM 3590 (Magstar)"),
    ("STK", "StorageTek"),
)

#: Quantities a catalog row may give (the ``quantity`` column).
QUANTITIES = (
    "native_rate",
    "compressed_max_rate",
    "observed_rate",
    "native_capacity",
    "compression_ratio",
    "min_speed_matching_rate",
    "load_time",
    "unload_time",
    "rewind_time",
    "locate_time",
)

# Each drive: family, display label, other names it answers to. Within a family, the
# order here is the order of generation. Labels and aliases are names, not data.
_DRIVES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "LTO1": ("LTO", "LTO-1 (Ultrium 1)", ("LTO-1", "Ultrium 1")),
    "LTO2": ("LTO", "LTO-2 (Ultrium 2)", ("LTO-2", "Ultrium 2")),
    "LTO3": ("LTO", "LTO-3 (Ultrium 3)", ("LTO-3", "Ultrium 3")),
    "LTO4": ("LTO", "LTO-4 (Ultrium 4)", ("LTO-4", "Ultrium 4")),
    "LTO5": ("LTO", "LTO-5 (Ultrium 5)", ("LTO-5", "Ultrium 5")),
    "LTO6": ("LTO", "LTO-6 (Ultrium 6)", ("LTO-6", "Ultrium 6")),
    "LTO7": ("LTO", "LTO-7 (Ultrium 7)", ("LTO-7", "Ultrium 7")),
    "LTO8": ("LTO", "LTO-8 (Ultrium 8)", ("LTO-8", "Ultrium 8")),
    "LTO9": ("LTO", "LTO-9 (Ultrium 9)", ("LTO-9", "Ultrium 9")),
    "LTO10": ("LTO", "LTO-10 (Ultrium 10)", ("LTO-10", "Ultrium 10")),
    "IBM3592A": ("IBM3592", "IBM 3592 J1A (CERN's 3592A)", ("3592A", "3592-J1A", "J1A")),
    "IBM3592E05": ("IBM3592", "IBM TS1120 (3592 E05)", ("TS1120", "3592-E05", "E05")),
    "IBM3592E06": ("IBM3592", "IBM TS1130 (3592 E06)", ("TS1130", "3592-E06", "E06")),
    "IBM3592E07": ("IBM3592", "IBM TS1140 (3592 E07)", ("TS1140", "3592-E07", "E07")),
    "IBM3592E08": ("IBM3592", "IBM TS1150 (3592 E08)", ("TS1150", "3592-E08", "E08")),
    "IBM3592_55F": ("IBM3592", "IBM TS1155 (3592 55F)", ("TS1155", "3592-55F", "55F")),
    "IBM3592_60F": ("IBM3592", "IBM TS1160 (3592 60F)", ("TS1160", "3592-60F", "60F")),
    "IBM3592_70F": ("IBM3592", "IBM TS1170 (3592 70F)", ("TS1170", "3592-70F", "70F")),
    "IBM3590B": ("IBM3590", "IBM 3590 B", ("3590B", "3590-B")),
    "IBM3590E": ("IBM3590", "IBM 3590 E", ("3590E", "3590-E")),
    "STK3480": ("STK", "StorageTek 3480-type (ACS 4400)", ("3480",)),
    "STK9940B": ("STK", "StorageTek 9940B", ("9940B", "T9940B")),
    "STKT10000A": ("STK", "StorageTek T10000A", ("T10000A",)),
    "STKT10000B": ("STK", "StorageTek T10000B", ("T10000B",)),
    "STKT10000C": ("STK", "StorageTek T10000C", ("T10000C",)),
}

# CERN's tMount parts "for 9940 type drives": what a drive without its own time borrows.
_CERN_PART = {"load": "tmount_mount", "locate": "tmount_positioning", "rewind_unload": "tmount_rewind_unload"}
_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"

# The consequence of a feed below the lowest speed-matching rate, in IBM's words
# (ibm-ts4300-speed-matching; the Ultrium 2 and 3 guides say the same).
SPEED_MATCHING_TEXT = (
    "If the server's net (compressed) data rate is between two of the preceding native data rates, "
    "the drive calculates the appropriate data rate at which to operate."
)
BACKHITCH_TEXT = (
    "Speed matching dramatically reduces backhitch, the condition that occurs when a tape stops, "
    "reverses, and restarts motion. A backhitch is usually the result of a mismatch between the data "
    "rates of the server and the drive."
)
_CONSEQUENCE_SOURCE = "ibm-ts4300-speed-matching, Speed matching (closing paragraph)"


class StreamingWarning(VtsModelWarning):
    """A drive is fed below its lowest speed-matching rate: it cannot stream.

    The message names the drive, the feed, the drive's floor and its source, and the
    consequence the documents state (backhitch).
    """


class DriveChoice(NamedTuple):
    """One drive to offer: catalog key and display label."""

    key: str
    label: str


class DriveGroup(NamedTuple):
    """The drives of one family, in order of generation."""

    family: str
    label: str
    drives: tuple[DriveChoice, ...]


@dataclass(frozen=True)
class DriveSpec:
    """One drive of the catalog: its primary values, spec and observed kept apart.

    Attributes
    ----------
    name : str
        Catalog key, e.g. ``"LTO9"``, ``"IBM3592_60F"``.
    family, label : str
        Family id (see :data:`FAMILIES`) and display label.
    native_rate_mb_s : float or None
        Native rate, a specification or derived from one. [MB/s]
    native_rate_basis : str
        ``"spec"`` or ``"derived"`` (``""`` when absent).
    compressed_max_rate_mb_s : float or None
        Compressed (sustained) maximum. [MB/s]
    observed_rate_mb_s : float or None
        Measured rate; where a source gives several (the 3480's write and read tables)
        the lowest, so that sizing stays conservative. [MB/s]
    native_capacity_gb : float or None
        Native cartridge capacity. [GB]
    compression_ratio_spec, compression_ratio_observed : float or None
        Rated ratio (the compressed figures assume it); ratio observed at a site. [-]
    min_speed_matching_rate_mb_s : float or None
        Lowest native rate the drive slows to (speed matching). [MB/s]
    load_s, unload_s, rewind_s, locate_s : float or None
        Load to ready, unload, average rewind and average locate (space from load
        point). [s]
    rows : dict of str to Provenance
        Every catalog row of the drive, primary and alternative, by id.
    """

    name: str
    family: str = ""
    label: str = ""
    native_rate_mb_s: float | None = None
    native_rate_basis: str = ""
    compressed_max_rate_mb_s: float | None = None
    observed_rate_mb_s: float | None = None
    native_capacity_gb: float | None = None
    compression_ratio_spec: float | None = None
    compression_ratio_observed: float | None = None
    min_speed_matching_rate_mb_s: float | None = None
    load_s: float | None = None
    unload_s: float | None = None
    rewind_s: float | None = None
    locate_s: float | None = None
    rows: dict = field(default_factory=dict, repr=False, compare=False)
    primary: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def speed_mb_s(self) -> float:
        """The speed to size with (CERN's tSpeed): observed if measured, else native.

        CERN uses the "measured maximum performance value per drive (Maxspeed)"; a drive
        no source measured falls back to its native rate (spec or derived).
        """
        return self.observed_rate_mb_s if self.observed_rate_mb_s is not None else self.native_rate_mb_s

    @property
    def speed_basis(self) -> str:
        """Basis of :attr:`speed_mb_s`: ``"observed"``, ``"spec"`` or ``"derived"``."""
        return "observed" if self.observed_rate_mb_s is not None else self.native_rate_basis

    @property
    def sources(self) -> tuple[str, ...]:
        """Source ids of the drive's rows, alternatives included."""
        return tuple(sorted({p.source for p in self.rows.values()}))

    @property
    def primary_sources(self) -> tuple[str, ...]:
        """Source ids of the rows behind the drive's values: what a caption should cite.

        ``cite("drive_catalog")`` lists every source of the whole table (some thirty);
        ``cite(*drive_spec(name).primary_sources)`` only the documents one drive's
        numbers come from.
        """
        return tuple(sorted({p.source for p in self.primary.values()}))

    @property
    def speed_provenance(self) -> Provenance | None:
        """The row behind :attr:`speed_mb_s` (``None`` for a derived rate, which no row states)."""
        return self.primary.get("observed_rate" if self.speed_basis == "observed" else "native_rate")

    def provenance(self, quantity: str) -> Provenance | None:
        """The primary row behind one of the drive's values (``None`` when absent)."""
        if quantity not in QUANTITIES:
            raise ValueError(f"quantity={quantity!r} is not valid; choose one of {', '.join(QUANTITIES)}")
        return self.primary.get(quantity)

    def rate_mb_s(self, compression_ratio=1.0):
        """Rate the host sees at a data compression ratio, capped at the compressed maximum.

        ``min(native · ratio, compressed_max)``; without a stated compressed maximum,
        ``native · ratio``.

        Parameters
        ----------
        compression_ratio : float or array_like
            Data compressibility, >= 1. [-]

        Returns
        -------
        numpy value
            Host-side rate. [MB/s]
        """
        if self.native_rate_mb_s is None:
            raise ValueError(f"drive {self.name!r} has no native rate in the catalog")
        cr = COMPRESSION_RATIO.check("compression_ratio", compression_ratio)
        out = self.native_rate_mb_s * cr
        if self.compressed_max_rate_mb_s is not None:
            out = np.minimum(out, self.compressed_max_rate_mb_s)
        return result(out)


_FIELD = {
    "native_capacity": "native_capacity_gb",
    "min_speed_matching_rate": "min_speed_matching_rate_mb_s",
    "load_time": "load_s",
    "unload_time": "unload_s",
    "rewind_time": "rewind_s",
    "locate_time": "locate_s",
    "compressed_max_rate": "compressed_max_rate_mb_s",
}


@functools.cache
def _catalog() -> dict[str, DriveSpec]:
    table = load("drive_catalog")
    by_drive: dict[str, dict] = {}
    for rec in table.records():
        name = rec["drive"]
        if name not in _DRIVES:
            raise KeyError(
                f"drive_catalog row {rec['id']!r}: drive {name!r} has no family and label in vtsmodel.catalog"
            )
        d = by_drive.setdefault(name, {"rows": {}, "primary": {}, "_basis": {}})
        prov = table.provenance(rec["id"])
        d["rows"][rec["id"]] = prov
        if rec["role"] != "primary" or rec["basis"] == "roadmap":
            continue
        q, v, basis = rec["quantity"], float(rec["value"]), rec["basis"]
        if q == "observed_rate":
            if v <= d.get("observed_rate_mb_s", v):
                d["observed_rate_mb_s"] = v
                d["primary"][q] = prov
        elif q == "compression_ratio":
            d[f"compression_ratio_{basis}"] = v
            if basis == "spec":
                d["primary"][q] = prov
        elif q == "native_rate":
            if basis == "spec" or "native_rate_mb_s" not in d:
                d["native_rate_mb_s"], d["native_rate_basis"] = v, basis
                d["primary"][q] = prov
        else:
            # spec before derived where both exist (one primary per basis)
            if basis == "spec" or q not in d["_basis"]:
                d[_FIELD[q]] = v
                d["_basis"][q] = basis
                d["primary"][q] = prov
    out = {}
    for name in _DRIVES:
        if name in by_drive:
            kw = by_drive[name]
            kw.pop("_basis")
            family, label, _ = _DRIVES[name]
            out[name] = DriveSpec(name=name, family=family, label=label, **kw)
    return out


def _norm(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


@functools.cache
def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for key, (_family, label, aliases) in _DRIVES.items():
        for a in (key, label, *aliases):
            out.setdefault(_norm(a), key)
    return out


def _valid_names() -> str:
    return "; ".join(f"{g.label}: {', '.join(c.key for c in g.drives)}" for g in drive_choices())


def resolve_drive(name: str) -> str:
    """The catalog key for a drive name or alias (``"LTO-9"``, ``"TS1160"``, ``"lto9"``).

    Case, spaces, hyphens and underscores are ignored. ``KeyError`` lists the valid
    names grouped by family.
    """
    key = _aliases().get(_norm(name)) if isinstance(name, str) else None
    if key is None or key not in _catalog():
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        raise UnknownName(f"no drive named {shown}; valid names: {_valid_names()}")
    return key


def drive_names() -> tuple[str, ...]:
    """Catalog keys, grouped by family and in order of generation (``"LTO1"``, ...)."""
    return tuple(_catalog())


@cites("drive_catalog")
def drive_catalog() -> dict[str, DriveSpec]:
    """Every drive of the catalog, by key, in :func:`drive_names` order (a new dict)."""
    return dict(_catalog())


@cites("drive_catalog")
def drive_spec(name: str) -> DriveSpec:
    """One drive of the catalog by key or alias; ``KeyError`` listing the valid names."""
    return _catalog()[resolve_drive(name)]


def catalog_provenance(name: str) -> tuple[Provenance, ...]:
    """The catalog rows of one drive (primary and alternative), as provenance records."""
    return tuple(drive_spec(name).rows.values())


def drive_choices(*, having: tuple[str, ...] | list[str] = ()) -> tuple[DriveGroup, ...]:
    """Drive names grouped by family, in order of generation, with display labels.

    Parameters
    ----------
    having : sequence of str, optional
        Quantities every offered drive must have (primary rows), e.g.
        ``("min_speed_matching_rate",)``; see :data:`QUANTITIES`.

    Returns
    -------
    tuple of DriveGroup
        ``(family, label, drives)`` per family with at least one drive, ``drives`` a
        tuple of ``(key, label)``.

    Examples
    --------
    >>> [g.family for g in drive_choices()]
    ['LTO', 'IBM3592', 'IBM3590', 'STK']
    >>> drive_choices()[0].drives[8]
    DriveChoice(key='LTO9', label='LTO-9 (Ultrium 9)')
    """
    if isinstance(having, str) or not isinstance(having, tuple | list):
        raise ValueError(
            f"having={having!r} must be a tuple of catalog quantities; choose from {', '.join(QUANTITIES)}"
        )
    for q in having:
        if q not in QUANTITIES:
            raise ValueError(f"having={q!r} is not a catalog quantity; choose from {', '.join(QUANTITIES)}")
    cat = _catalog()
    groups = []
    for family, flabel in FAMILIES:
        drives = tuple(
            DriveChoice(k, s.label)
            for k, s in cat.items()
            if s.family == family and all(s.provenance(q) is not None for q in having)
        )
        if drives:
            groups.append(DriveGroup(family, flabel, drives))
    return tuple(groups)


def drive_options(*, having: tuple[str, ...] | list[str] = ()) -> list[tuple[str, str]]:
    """``(label, key)`` pairs in :func:`drive_choices` order, as a dropdown takes them.

    The labels are the drives' own (``"IBM TS1160 (3592 60F)"``); the order carries the
    grouping by family and generation.
    """
    return [(c.label, c.key) for g in drive_choices(having=having) for c in g.drives]


def catalog_rows() -> list[dict]:
    """The catalog's primary values as rows to show, in :func:`drive_choices` order.

    Values absent from the catalog are ``None``; ``sources`` lists every source id of
    the drive's rows (alternatives included).
    """
    return [
        {
            "drive": s.name,
            "family": dict(FAMILIES)[s.family],
            "label": s.label,
            "speed [MB/s]": s.speed_mb_s,
            "basis": s.speed_basis,
            "native [MB/s]": s.native_rate_mb_s,
            "compressed max [MB/s]": s.compressed_max_rate_mb_s,
            "compression ratio [-]": s.compression_ratio_spec,
            "capacity [GB]": s.native_capacity_gb,
            "min speed matching [MB/s]": s.min_speed_matching_rate_mb_s,
            "load [s]": s.load_s,
            "unload [s]": s.unload_s,
            "rewind [s]": s.rewind_s,
            "locate [s]": s.locate_s,
            "sources": ", ".join(s.sources),
        }
        for s in _catalog().values()
    ]


# --- mount-time parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class MountPart:
    """One drive-side part of a mount: its time and where it comes from.

    ``basis`` is ``"drive"`` (the drive's own catalog rows) or ``"borrowed"`` (CERN's
    figure "for 9940 type drives", cern-tape-sizing-2005, used where the catalog has no
    time for the drive).
    """

    name: str
    seconds: float
    basis: str
    provenance: tuple[Provenance, ...]

    def __str__(self) -> str:
        where = "; ".join(str(p) for p in self.provenance)
        return f"{self.name} {self.seconds:g} s ({self.basis}: {where})"


@functools.cache
def _cern_part(part: str) -> Provenance:
    return load("cern_facts").provenance(_CERN_PART[part])


@cites("drive_catalog", "cern_facts")
def mount_parts(drive: str | None = None) -> dict[str, MountPart]:
    """The drive-side parts of a mount: load, locate, rewind and unload. [s]

    CERN's tMount (cern-tape-sizing-2005, "Access pattern and tape drive efficiency") is
    robot move + "time to mount the tape in the tape drive" (15 s) + "average time to
    positioning the tape to file to be read" (45 s) + "time to rewind and unload" (45 s),
    given "for 9940 type drives". A catalog drive replaces each part it has a time for:

    - ``load``: the drive's load-to-ready time (``load_time``);
    - ``locate``: its average locate (space) time from the load point (``locate_time``);
    - ``rewind_unload``: its average rewind plus unload time, when the catalog has both.

    A part the catalog lacks keeps CERN's 9940B figure (basis ``"borrowed"``, the 9940B's
    own ``"drive"``): the 3592 family, the T10000s and LTO-1 to LTO-4 borrow all three;
    LTO-5 to LTO-8 have their own load time only (their unload time alone does not make a
    rewind-and-unload). ``data/notes/drive_catalog.md`` lists every drive's parts.

    Parameters
    ----------
    drive : str, optional
        Catalog key or alias; ``None`` gives CERN's figures.

    Returns
    -------
    dict of str to MountPart
        ``"load"``, ``"locate"``, ``"rewind_unload"``.
    """
    spec = drive_spec(drive) if drive is not None else None

    def borrowed(part):
        p = _cern_part(part)
        # CERN's parts are given "for 9940 type drives": the 9940B's own.
        return MountPart(
            part, p.value, "drive" if spec is not None and spec.name == "STK9940B" else "borrowed", (p,)
        )

    def own(part, *quantities):
        if spec is None:
            return borrowed(part)
        provs = tuple(spec.provenance(q) for q in quantities)
        if any(p is None for p in provs):
            return borrowed(part)
        return MountPart(part, float(sum(p.value for p in provs)), "drive", provs)

    return {
        "load": own("load", "load_time"),
        "locate": own("locate", "locate_time"),
        "rewind_unload": own("rewind_unload", "rewind_time", "unload_time"),
    }


# --- streaming ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamingCheck:
    """Whether a feed lets a drive stream, and what the documents say happens.

    Attributes
    ----------
    drive : str
        Catalog key.
    feed_mb_s : numpy value
        Host-side feed as given. [MB/s]
    native_feed_mb_s : numpy value
        The feed after the drive's compression, ``feed / compression_ratio``: what the
        drive must write to tape, compared with its native speeds. [MB/s]
    min_rate_mb_s : float or None
        The drive's lowest speed-matching rate; ``None`` where no document states it.
        [MB/s]
    streams : numpy bool value or None
        True where the native feed reaches the floor; ``None`` when the floor is
        unknown.
    consequence : str
        What the documents state, quoted: speed matching at or above the floor, backhitch
        below it; "unknown" text when the floor is not in the catalog.
    provenance : tuple of Provenance
        The floor's catalog row.
    """

    drive: str
    feed_mb_s: object
    native_feed_mb_s: object
    min_rate_mb_s: float | None
    streams: object
    consequence: str
    provenance: tuple[Provenance, ...] = ()

    @property
    def known(self) -> bool:
        """Whether the catalog has the drive's lowest speed-matching rate."""
        return self.min_rate_mb_s is not None

    @property
    def all_stream(self) -> bool | None:
        """True when every feed given reaches the floor (``None`` when unknown)."""
        return None if self.streams is None else bool(np.all(self.streams))

    def message(self) -> str:
        """One paragraph for a reader: the numbers, the verdict and the documents' words."""
        feed = np.asarray(self.native_feed_mb_s)
        shown = number(feed.item()) if feed.ndim == 0 else f"{number(feed.min())} to {number(feed.max())}"
        if not self.known:
            return f"{self.drive}: fed {shown} MB/s (native); {self.consequence}"
        src = "; ".join(str(p) for p in self.provenance)
        verdict = "streams" if self.all_stream else "cannot stream at the lowest feed"
        return (
            f"{self.drive}: fed {shown} MB/s (native), lowest speed-matching rate "
            f"{self.min_rate_mb_s:g} MB/s ({src}): {verdict}. {self.consequence}"
        )


@cites("drive_catalog")
@declare(feed_mb_s=_FEED, compression_ratio=COMPRESSION_RATIO.but(default=1.0))
def streaming_check(drive: str, feed_mb_s, *, compression_ratio=1.0) -> StreamingCheck:
    """Compare a feed with the drive's lowest speed-matching rate.

    A drive speed-matches: it "operates at different speeds" so that its native rate
    follows a slower host. "If the server's net (compressed) data rate is between two of
    the preceding native data rates, the drive calculates the appropriate data rate at
    which to operate." Below the lowest of those rates it cannot slow further; the
    documents name what speed matching avoids: "Speed matching dramatically reduces
    backhitch, the condition that occurs when a tape stops, reverses, and restarts
    motion. A backhitch is usually the result of a mismatch between the data rates of
    the server and the drive." (ibm-ts4300-speed-matching; the same in the IBM Ultrium 2
    and 3 guides.) No document states how much a backhitching drive loses; this check
    says *whether*, not *how much*.

    The comparison is in native terms: ``feed_mb_s / compression_ratio`` against the
    floor. CERN's disk server streams, "each of them equally only at 2 MB/s"
    (cern-tape-sizing-2005, Disk pool performance), are below every floor the catalog
    holds (17.5 MB/s for LTO-2 to 177 MB/s for LTO-9).

    Parameters
    ----------
    drive : str
        Catalog key or alias.
    feed_mb_s : float or array_like
        Rate at which data reaches the drive, as the host sees it (uncompressed), > 0.
        [MB/s]
    compression_ratio : float or array_like, optional
        Compressibility of the data, >= 1 (1: incompressible). [-]

    Returns
    -------
    StreamingCheck
    """
    spec = drive_spec(drive)
    feed = _FEED.check("feed_mb_s", feed_mb_s)
    cr = COMPRESSION_RATIO.check("compression_ratio", compression_ratio)
    broadcast(feed_mb_s=feed, compression_ratio=cr)
    native = feed / cr
    prov = spec.provenance("min_speed_matching_rate")
    if prov is None:
        return StreamingCheck(
            spec.name, result(feed), result(native), None, None,
            "no document found states this drive's lowest speed-matching rate; "
            "whether it streams at this feed is not known.",
        )  # fmt: skip
    floor = float(prov.value)
    streams = native >= floor
    if np.all(streams):
        text = f"Speed matching: {SPEED_MATCHING_TEXT}"
    else:
        text = (
            f"Below {floor:g} MB/s the drive cannot slow further and does not stream: "
            f"{BACKHITCH_TEXT} ({_CONSEQUENCE_SOURCE})"
        )
    return StreamingCheck(spec.name, result(feed), result(native), floor, result(streams), text, (prov,))


@declare(feed_mb_s=_FEED, compression_ratio=COMPRESSION_RATIO.but(default=1.0))
def warn_streaming(drive: str, feed_mb_s, *, compression_ratio=1.0, stacklevel: int = 2) -> StreamingCheck:
    """:func:`streaming_check`, warning with :class:`StreamingWarning` when a feed is too slow.

    Returns the check. Nothing is raised where the drive's floor is unknown.
    """
    check = streaming_check(drive, feed_mb_s, compression_ratio=compression_ratio)
    if check.known and not check.all_stream:
        warnings.warn(check.message(), StreamingWarning, stacklevel=stacklevel)
    return check
