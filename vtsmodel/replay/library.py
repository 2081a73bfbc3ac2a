"""The tape library a log is replayed through: drives, robots, timings and policies.

Every default is a cited row or a named modelling parameter:

- drive timings from the drive catalog (:func:`vtsmodel.catalog.mount_parts`): load to
  ready, average locate from the load point, rewind plus unload; a part the catalog lacks
  is CERN's figure "for 9940 type drives" (cern-tape-sizing-2005), as the catalog says;
- the read rate is the drive's native rate (the catalog's ``native_rate``), for sizes as
  stored on tape (after compression); the cartridge capacity its native capacity;
- a robot move, slot to drive or back, is CERN's 3600 / 160 = 22.5 s, "the normal STK
  Powderhorn Silo can do 160 robot arm movements per hour" (cern-tape-sizing-2005,
  ``cern_facts`` row ``tmount_move``); a mount takes one move and an unload another. The
  StorageTek paper states mount times, not a move (28 s alone, 52.15 s under contention:
  :mod:`vtsmodel.robot` splits them by a calibration, ``calibrate_robot()["robot_s"]``, which
  can be passed as ``robot_move_s`` for a 1990s ACS 4400);
- the dismount delay (0: unload at once), the policy (FIFO), the batch (1 request, no
  wait) and the number of robots (1) are the user's choices, not source values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import load
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.catalog import drive_spec, mount_parts, resolve_drive
from vtsmodel.quantities import BIG_GB, BIG_RATE, BIG_S, LOAD_S, LOCATE_S, REWIND_UNLOAD_S, ROBOT_S, SMALL

__all__ = ["POLICIES", "ReplayLibrary", "replay_library"]

#: Queue policies: ``fifo`` serves the oldest waiting request first (a drive keeps its
#: cartridge for a queued request only when that request is the oldest); ``group`` serves
#: every queued request for a mounted cartridge before the cartridge leaves.
POLICIES = ("fifo", "group")

#: Most drives and robots a replay takes (the event loop's cost grows with their log). [count]
MAX_DRIVES = 100_000

REPLAY_DRIVES = Input(
    "drives", "-", 16, lo=1, hi=MAX_DRIVES, integer=True, source="practical limit",
    help="Tape drives serving the requests that miss the cache.",
)  # fmt: skip
ROBOTS = Input(
    "robots", "-", 1, lo=1, hi=MAX_DRIVES, integer=True, source="modelling choice (one robot)",
    help="Robots moving cartridges between slots and drives, each one move at a time.",
)  # fmt: skip
ROBOT_MOVE_S = ROBOT_S.but(
    label="robot move", source="cern-tape-sizing-2005, tmount_move (3600 / 160 = 22.5 s)",
    help="One robot move, slot to drive or drive to slot.",
)  # fmt: skip
RATE_MB_S = Input(
    "read rate", "MB/s", None, lo=SMALL, hi=BIG_RATE, source="drive catalog, native_rate",
    help="Rate a drive reads a request's data at, as stored on tape.",
)  # fmt: skip
CARTRIDGE_GB = Input(
    "cartridge capacity", "GB", None, lo=SMALL, hi=BIG_GB, source="drive catalog, native_capacity",
    help="Data one cartridge holds, as stored; volumes are stacked on cartridges up to it.",
)  # fmt: skip
DISMOUNT_AFTER_S = Input(
    "dismount delay", "s", 0.0, lo=0.0, hi=BIG_S, source="modelling choice (0: unload at once)",
    help="How long an idle drive keeps its cartridge mounted for a next request.",
)  # fmt: skip
POLICY = Input(
    "policy", "", "fifo", choices=(("FIFO", "fifo"), ("group by cartridge", "group")),
    help="Which waiting request a drive serves next.",
)  # fmt: skip
BATCH_REQUESTS = Input(
    "batch size", "-", 1, lo=1, hi=1e9, integer=True, source="modelling choice (1: no batching)",
    help="A cartridge is mounted when this many requests wait for it ...",
)  # fmt: skip
BATCH_WAIT_S = Input(
    "batch wait", "s", 0.0, lo=0.0, hi=BIG_S, source="modelling choice (0: no batching)",
    help="... or when its oldest request has waited this long.",
)  # fmt: skip


@dataclass(frozen=True)
class ReplayLibrary:
    """A tape library to replay a log through; build one with :func:`replay_library`.

    Attributes
    ----------
    drives, robots : int
        Drives and robots. [count]
    drive : str
        Catalog key of the drive (``""`` when every timing was given).
    robot_move_s, load_s, locate_s, rewind_unload_s : float
        One robot move; load to ready; average locate per request; rewind and unload. [s]
    rate_mb_s : float
        Read rate. [MB/s]
    cartridge_gb : float
        Cartridge capacity. [GB]
    dismount_after_s : float
        Dismount delay. [s]
    policy : str
        One of :data:`POLICIES`.
    batch_requests : int
        Requests that make a cartridge's batch. [count]
    batch_wait_s : float
        Longest a batch's oldest request waits before its mount. [s]
    sources : tuple of str
        Where each default came from: ``"load_s: ibm-dtl-lto-perf, Table 1 ..."``.
    source_ids : tuple of str
        The ids of the documents behind :attr:`sources`, each once: what a caption cites
        (``cite(*library.source_ids)``), rather than the whole drive catalog's list.
    """

    drives: int
    robots: int
    drive: str
    robot_move_s: float
    load_s: float
    locate_s: float
    rewind_unload_s: float
    rate_mb_s: float
    cartridge_gb: float
    dismount_after_s: float = 0.0
    policy: str = "fifo"
    batch_requests: int = 1
    batch_wait_s: float = 0.0
    sources: tuple[str, ...] = field(default=(), compare=False)
    source_ids: tuple[str, ...] = field(default=(), compare=False)

    @property
    def mount_s(self) -> float:
        """Drive time of a mount before the first locate: robot move and load. [s]"""
        return self.robot_move_s + self.load_s

    @property
    def cycle_s(self) -> float:
        """Drive time of a mount with no data: move, load, locate, rewind and unload (CERN's tMount). [s]"""
        return self.robot_move_s + self.load_s + self.locate_s + self.rewind_unload_s

    def but(self, **changes) -> ReplayLibrary:
        """The same library with some fields changed (checked as :func:`replay_library` checks them)."""
        kw = {f: getattr(self, f) for f in _FIELDS}
        kw.update(changes)
        drive = kw.pop("drive") or None
        return replace(replay_library(drive=drive, **kw), sources=self.sources, source_ids=self.source_ids)


_FIELDS = (
    "drives", "robots", "drive", "robot_move_s", "load_s", "locate_s", "rewind_unload_s", "rate_mb_s",
    "cartridge_gb", "dismount_after_s", "policy", "batch_requests", "batch_wait_s",
)  # fmt: skip


def _check(inp: Input, name: str, value) -> float:
    return float(as_scalar(name, inp.check(name, value)))


@declare(
    drives=REPLAY_DRIVES, robots=ROBOTS, robot_move_s=ROBOT_MOVE_S, load_s=LOAD_S, locate_s=LOCATE_S,
    rewind_unload_s=REWIND_UNLOAD_S, rate_mb_s=RATE_MB_S, cartridge_gb=CARTRIDGE_GB,
    dismount_after_s=DISMOUNT_AFTER_S, policy=POLICY, batch_requests=BATCH_REQUESTS, batch_wait_s=BATCH_WAIT_S,
)  # fmt: skip
def replay_library(
    drives=16,
    *,
    drive: str | None = "LTO9",
    robots=1,
    robot_move_s=None,
    load_s=None,
    locate_s=None,
    rewind_unload_s=None,
    rate_mb_s=None,
    cartridge_gb=None,
    dismount_after_s=0.0,
    policy: str = "fifo",
    batch_requests=1,
    batch_wait_s=0.0,
) -> ReplayLibrary:
    """A tape library of ``drives`` catalog drives and ``robots`` robots, for :func:`replay`.

    A timing left ``None`` comes from the drive's catalog rows (:func:`vtsmodel.catalog.mount_parts`:
    its own load, locate, rewind and unload times, or CERN's 9940 figures where the catalog
    has none, said so in :attr:`ReplayLibrary.sources`); the robot move from
    cern-tape-sizing-2005 (22.5 s). ``drive=None`` takes CERN's figures for every part and
    needs ``rate_mb_s`` and ``cartridge_gb``.

    Parameters
    ----------
    drives : int
        Tape drives. [count]
    drive : str or None
        Catalog key or alias (``"LTO-9"``, ``"TS1160"``).
    robots : int
        Robots; each makes one move at a time. [count]
    robot_move_s : float, optional
        One move, slot to drive or drive to slot. [s]
    load_s, locate_s, rewind_unload_s : float, optional
        Load to ready; average locate per request; rewind and unload. [s]
    rate_mb_s : float, optional
        Read rate of the data as stored. [MB/s]
    cartridge_gb : float, optional
        Cartridge capacity as stored. [GB]
    dismount_after_s : float
        How long an idle drive keeps its cartridge (0: unload at once; an idle drive is
        taken over at once when a mount needs a drive). [s]
    policy : str
        ``"fifo"`` or ``"group"`` (:data:`POLICIES`).
    batch_requests : int
        Mount a cartridge when this many requests wait for it ... [count]
    batch_wait_s : float
        ... or when its oldest has waited this long; batching is off when either is at its
        default (1 request or 0 s). [s]

    Returns
    -------
    ReplayLibrary
    """
    sources, ids = [], []
    n = int(_check(REPLAY_DRIVES, "drives", drives))
    r = int(_check(ROBOTS, "robots", robots))
    POLICY.check("policy", policy)
    key = ""
    parts = mount_parts(None)
    spec = None
    if drive is not None:
        key = resolve_drive(drive)
        parts = mount_parts(key)
        spec = drive_spec(key)

    def part(name, value, inp, part_key):
        if value is not None:
            return _check(inp, name, value)
        p = parts[part_key]
        where = "; ".join(f"{q.source}, {q.locator}" for q in p.provenance)
        ids.extend(q.source for q in p.provenance)
        sources.append(
            f"{name}: {where}"
            + (" (CERN's 9940 figure: the catalog has none)" if p.basis == "borrowed" else "")
        )
        return p.seconds

    load_v = part("load_s", load_s, LOAD_S, "load")
    locate_v = part("locate_s", locate_s, LOCATE_S, "locate")
    unload_v = part("rewind_unload_s", rewind_unload_s, REWIND_UNLOAD_S, "rewind_unload")
    if robot_move_s is None:
        row = load("cern_facts").provenance("tmount_move")
        move = float(row.value)
        sources.append(f"robot_move_s: {row.source}, {row.locator}")
        ids.append(row.source)
    else:
        move = _check(ROBOT_MOVE_S, "robot_move_s", robot_move_s)

    def from_spec(name, value, inp, attr, quantity):
        if value is not None:
            return _check(inp, name, value)
        v = None if spec is None else getattr(spec, attr)
        if v is None:
            raise ConstraintError(
                f"{name}=None: drive={drive!r} has no {quantity} in the catalog; give {name}"
            )
        p = spec.provenance(quantity)
        sources.append(f"{name}: {p.source}, {p.locator}")
        ids.append(p.source)
        return float(v)

    rate = from_spec("rate_mb_s", rate_mb_s, RATE_MB_S, "native_rate_mb_s", "native_rate")
    cart = from_spec("cartridge_gb", cartridge_gb, CARTRIDGE_GB, "native_capacity_gb", "native_capacity")
    delay = _check(DISMOUNT_AFTER_S, "dismount_after_s", dismount_after_s)
    k = int(_check(BATCH_REQUESTS, "batch_requests", batch_requests))
    w = _check(BATCH_WAIT_S, "batch_wait_s", batch_wait_s)
    if math.isinf(delay):  # pragma: no cover - the range check refuses it
        raise ValueError("dismount_after_s must be finite")
    return ReplayLibrary(
        drives=n, robots=r, drive=key, robot_move_s=move, load_s=load_v, locate_s=locate_v,
        rewind_unload_s=unload_v, rate_mb_s=rate, cartridge_gb=cart, dismount_after_s=delay,
        policy=policy, batch_requests=k, batch_wait_s=w, sources=tuple(sources),
        source_ids=tuple(dict.fromkeys(ids)),
    )  # fmt: skip
