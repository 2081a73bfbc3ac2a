"""Today's tape libraries: frames or modules, slots, drive bays and robots, from vendors' documents.

``data/library_models.csv`` holds, for each library family a document describes, the
cartridge slots and drive bays of its base unit (frame or module) and of each expansion
unit, the units it may have, its robots and their stated move time, and the free-slot
rule its vendor states; every value cited (``data/notes/library_models.md``). What no
document gave (the TS4500's slots per frame, the SL4000's cells per module, most robots'
move times) is a *stand-in*: an argument of :func:`library_model` that the user sets, its
basis ``"yours"`` in the model's :attr:`LibraryModel.basis`.

What the models take from it:

- :func:`library_model` / :class:`LibraryModel`: one family, its values and their rows;
- :meth:`LibraryModel.slots`, :meth:`~LibraryModel.drive_bays`,
  :meth:`~LibraryModel.usable_slots`: a configuration of ``units`` frames or modules;
- :func:`units_needed`: the fewest units that hold the cartridges and drives;
- :func:`robot_mounts_per_hour`, :func:`robot_wait_s`: the robots as a resource (an
  M/D/c queue of cartridge moves, :mod:`vtsmodel.queueing`);
- :func:`flow_mounts_per_hour`: the mounts a flow needs, from the CERN efficiency formula;
- :func:`library_binding`: which of slots, drive bays and robot mounts binds.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import Provenance, cites, load
from vtsmodel._validation import ConstraintError, UnknownName, as_scalar, broadcast, result
from vtsmodel.quantities import BIG_COUNT, BIG_RATE, SMALL, SPEED_MB_S, T_MOUNT_S

__all__ = [
    "LIBRARIES",
    "QUANTITIES",
    "LibraryModel",
    "library_binding",
    "flow_mounts_per_hour",
    "library_model",
    "library_names",
    "library_options",
    "robot_mounts_per_hour",
    "robot_wait_s",
    "units_needed",
]

#: Library families: key -> (label, what one unit is called, drive families it takes).
#: The drive families are those the documents list: TS4500 LTO and 3592
#: (ibm-ts4500-components), SL4000 T10000 and LTO (its Supported Drive Types page),
#: SL8500 LTO and T10000, TS4300 and Diamondback LTO. Names, not data.
LIBRARIES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "TS4300": ("IBM TS4300", "module", ("LTO",)),
    "TS4500": ("IBM TS4500", "frame", ("LTO", "IBM3592")),
    "Diamondback": ("IBM Diamondback", "frame", ("LTO",)),
    "SL8500": ("Oracle StorageTek SL8500", "module", ("LTO", "STK")),
    "SL4000": ("Oracle StorageTek SL4000", "module", ("LTO", "STK")),
}

#: The quantities a row of ``library_models`` may give.
QUANTITIES = (
    "units_max", "slots_base", "slots_per_expansion", "slots_max", "drives_base", "drives_per_expansion",
    "drives_max", "robots_standard", "robots_max", "robot_move_time", "slot_fill_limit", "free_slots_per_drive",
)  # fmt: skip
_FIELD = {"robot_move_time": "robot_move_s"}

#: Cartridge moves per mount: the mount (slot to drive) and the dismount (drive to slot).
#: A modelling choice: a library with a cartridge left mounted for the next request
#: (the replay's dismount delay) makes fewer. [moves]
MOVES_PER_MOUNT = 2

UNITS = Input(
    "frames or modules", "-", 1, lo=1, hi=1000, integer=True, help="Frames (or modules) of one library, the base included."
)  # fmt: skip
ROBOTS = Input(
    "robots", "-", 1, lo=1, hi=1000, integer=True, help="Robots (accessors, HandBots) of the library."
)
MOVE_S = Input(
    "robot time per move", "s", None, lo=0.001, hi=3600.0, source="practical limits (a millisecond to an hour)",
    help="Time of one cartridge move (slot to drive or drive to slot).",
)  # fmt: skip
CARTRIDGES = Input("cartridges", "-", 0, lo=0, hi=BIG_COUNT, help="Cartridges the library holds.")
LIB_DRIVES = Input("drives", "-", 0, lo=0, hi=BIG_COUNT, help="Drives installed in the library.")
MOUNTS_PER_HOUR = Input(
    "mounts per hour", "1/h", 0.0, lo=0.0, hi=BIG_RATE, help="Mounts the workload needs per hour."
)
FLOW_RATE = Input("flow rate", "MB/s", 100.0, lo=0.0, hi=BIG_RATE, help="Average data rate of a flow.")
EFFICIENCY = Input("efficiency", "-", 0.5, lo=SMALL, hi=1.0, help="Share of the drive's speed the flow gets.")
T_MOUNT = T_MOUNT_S.but(lo=SMALL)
QUANTILE = Input(
    "percentile",
    "-",
    0.95,
    lo=0.0,
    hi=1.0,
    lo_open=True,
    hi_open=True,
    help="Share of mounts waiting at most the answer.",
)


@dataclass(frozen=True)
class LibraryModel:
    """One library family: its units (frames or modules), slots, drive bays and robots.

    Attributes
    ----------
    key, label, unit : str
        Family key (``"TS4500"``), display label, and what one unit is called
        (``"frame"`` or ``"module"``).
    families : tuple of str
        Drive families (:data:`vtsmodel.catalog.FAMILIES`) the library takes.
    units_max : int or None
        Units of one library at most, the base included. [count]
    slots_base, slots_per_expansion : float or None
        Cartridge slots of the base unit and of each expansion unit. [count]
    slots_max : float or None
        Slots of the largest library, as a document states it. [count]
    drives_base, drives_per_expansion, drives_max : float or None
        Drive bays of the base unit, of each expansion unit, and of the largest library. [count]
    robots_standard, robots_max : float or None
        Robots of the standard library and with the redundant option. [count]
    robot_move_s : float or None
        Time of one cartridge move. [s]
    slot_fill_limit : float or None
        Share of the slots that may hold cartridges (None: all). [-]
    free_slots_per_drive : float or None
        Free slots to keep per installed drive (None: none). [count]
    basis : dict of str to str
        For each value given: ``"document"`` (a row) or ``"yours"`` (a stand-in).
    rows : dict of str to Provenance
        The rows behind the document values, by quantity.
    """

    key: str
    label: str
    unit: str
    families: tuple[str, ...]
    units_max: int | None = None
    slots_base: float | None = None
    slots_per_expansion: float | None = None
    slots_max: float | None = None
    drives_base: float | None = None
    drives_per_expansion: float | None = None
    drives_max: float | None = None
    robots_standard: float | None = None
    robots_max: float | None = None
    robot_move_s: float | None = None
    slot_fill_limit: float | None = None
    free_slots_per_drive: float | None = None
    basis: dict = field(default_factory=dict, compare=False)
    rows: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def sources(self) -> tuple[str, ...]:
        """Source ids of the rows behind the model's document values."""
        return tuple(sorted({p.source for p in self.rows.values()}))

    def provenance(self, quantity: str) -> Provenance | None:
        """The row behind one value (``None`` for a stand-in or an absent value)."""
        if quantity not in QUANTITIES:
            raise ValueError(f"quantity={quantity!r} is not valid; choose one of {', '.join(QUANTITIES)}")
        return self.rows.get(quantity)

    def _need(self, *names: str) -> None:
        missing = [n for n in names if getattr(self, _FIELD.get(n, n)) is None]
        if missing:
            raise ConstraintError(
                f"{self.label}: no document found gives {', '.join(missing)}; give "
                f"{', '.join(_FIELD.get(n, n) for n in missing)} to library_model({self.key!r}, ...) "
                "(see data/notes/library_models.md)"
            )

    def _units(self, units):
        n = UNITS.check("units", units)
        if self.units_max is not None and np.any(n > self.units_max):
            raise ConstraintError(
                f"units={int(np.max(n))} is more than the {self.units_max} {self.unit}s one {self.label} may have"
            )
        return n

    def slots(self, units):
        """Cartridge slots of ``units`` frames or modules: base + expansions. [count]"""
        self._need("slots_base", "slots_per_expansion")
        return result(self._slots_of(self._units(units)))

    def drive_bays(self, units):
        """Drive bays of ``units`` frames or modules, at most ``drives_max``. [count]"""
        self._need("drives_base", "drives_per_expansion")
        return result(self._bays_of(self._units(units)))

    # the arithmetic, on checked float arrays (the year-by-year plans call it many times)
    def _slots_of(self, n):
        return self.slots_base + (n - 1) * self.slots_per_expansion

    def _bays_of(self, n):
        bays = self.drives_base + (n - 1) * self.drives_per_expansion
        return np.minimum(bays, self.drives_max) if self.drives_max is not None else bays

    def _usable_of(self, n, d):
        s = np.asarray(self._slots_of(n), dtype=float)
        if self.slot_fill_limit is not None:
            s = np.floor(s * self.slot_fill_limit + 1e-9)
        if self.free_slots_per_drive is not None:
            s = s - self.free_slots_per_drive * d
        return np.maximum(s, 0.0)

    def usable_slots(self, units, drives=0):
        """Slots that may hold cartridges: ``floor(slots x fill limit) - free per drive x drives``. [count]

        The fill limit (TS4500: "should not exceed 99% of the reported library slot
        capacity", ibm-ts4500-ipg) and the free slots per drive (ACSLS: "at least one
        free cell for each tape drive", oracle-acsls-cartridge-management) apply where
        the library's documents state them.
        """
        d = LIB_DRIVES.check("drives", drives)
        broadcast(units=np.asarray(units), drives=d)
        self._need("slots_base", "slots_per_expansion")
        return result(self._usable_of(self._units(units), d))

    def default_robots(self) -> int:
        """Robots of the standard library; 1 where no document gives the count."""
        return int(self.robots_standard) if self.robots_standard is not None else 1

    def frame_values_missing(self) -> tuple[str, ...]:
        """What :func:`units_needed` needs that no document gave and no stand-in set (empty: nothing).

        The names are :func:`library_model`'s stand-in arguments.
        """
        return tuple(k for k in _FRAME_VALUES if getattr(self, k) is None)

    def stand_ins(self) -> tuple[str, ...]:
        """The values that are the user's, not a document's."""
        return tuple(k for k, b in self.basis.items() if b == "yours")


#: The values a frame plan needs (:func:`units_needed`): slots and drive bays per unit.
_FRAME_VALUES = ("slots_base", "slots_per_expansion", "drives_base", "drives_per_expansion")
_STAND_INS = frozenset(
    {"units_max", "slots_base", "slots_per_expansion", "drives_base", "drives_per_expansion", "drives_max",
     "robots_standard", "robots_max", "robot_move_s", "slot_fill_limit", "free_slots_per_drive"}
)  # fmt: skip
_STAND_IN_INPUTS = {
    "units_max": UNITS.but(label="frames or modules at most"),
    "slots_base": CARTRIDGES.but(label="slots of the base unit", lo=1),
    "slots_per_expansion": CARTRIDGES.but(label="slots per expansion unit"),
    "drives_base": LIB_DRIVES.but(label="drive bays of the base unit"),
    "drives_per_expansion": LIB_DRIVES.but(label="drive bays per expansion unit"),
    "drives_max": LIB_DRIVES.but(label="drive bays at most", lo=1),
    "robots_standard": ROBOTS,
    "robots_max": ROBOTS.but(label="robots at most"),
    "robot_move_s": MOVE_S,
    "slot_fill_limit": Input("slot fill limit", "-", 1.0, lo=SMALL, hi=1.0),
    "free_slots_per_drive": CARTRIDGES.but(label="free slots per drive"),
}


@functools.cache
def _models() -> dict[str, LibraryModel]:
    table = load("library_models")
    by: dict[str, dict] = {}
    for rec in table.records():
        lib = rec["library"]
        if lib not in LIBRARIES:
            raise KeyError(
                f"library_models row {rec['id']!r}: library {lib!r} has no label in vtsmodel.library"
            )
        d = by.setdefault(lib, {"rows": {}, "basis": {}})
        q = rec["quantity"]
        name = _FIELD.get(q, q)
        d[name] = int(rec["value"]) if q == "units_max" else float(rec["value"])
        d["rows"][q] = table.provenance(rec["id"])
        d["basis"][name] = "document"
    out = {}
    for key, (label, unit, families) in LIBRARIES.items():
        d = by.get(key, {"rows": {}, "basis": {}})
        if d.get("units_max") == 1:  # a one-unit library has no expansion units
            for k in ("slots_per_expansion", "drives_per_expansion"):
                d.setdefault(k, 0.0)
                d["basis"].setdefault(k, "document")
        out[key] = LibraryModel(key=key, label=label, unit=unit, families=families, **d)
    return out


def library_names() -> tuple[str, ...]:
    """Library family keys (``"TS4300"``, ``"TS4500"``, ...)."""
    return tuple(LIBRARIES)


def library_options() -> list[tuple[str, str]]:
    """``(label, key)`` pairs, as a dropdown takes them."""
    return [(label, key) for key, (label, _u, _f) in LIBRARIES.items()]


@cites("library_models")
def library_model(name: str, **stand_ins) -> LibraryModel:
    """One library family; ``stand_ins`` set what no document gave (or replace what one did).

    Parameters
    ----------
    name : str
        A key of :data:`LIBRARIES` (case ignored).
    **stand_ins
        Any of ``units_max``, ``slots_base``, ``slots_per_expansion``, ``drives_base``,
        ``drives_per_expansion``, ``drives_max``, ``robots_standard``, ``robots_max``,
        ``robot_move_s`` [s], ``slot_fill_limit`` [-], ``free_slots_per_drive``; each
        checked, its basis ``"yours"``. ``None`` leaves the value as it is.

    Returns
    -------
    LibraryModel
    """
    keys = {k.lower(): k for k in LIBRARIES}
    key = keys.get(name.lower()) if isinstance(name, str) else None
    if key is None:
        raise UnknownName(f"no library named {name!r:.40}; valid names: {', '.join(LIBRARIES)}")
    model = _models()[key]
    unknown = set(stand_ins) - _STAND_INS
    if unknown:
        raise ValueError(
            f"unknown library value(s) {', '.join(sorted(map(repr, unknown)))}; give any of {', '.join(sorted(_STAND_INS))}"
        )
    changes, basis = {}, dict(model.basis)
    for k, v in stand_ins.items():
        if v is None:
            continue
        inp = _STAND_IN_INPUTS[k]
        value = as_scalar(k, inp.check(k, v))
        changes[k] = int(value) if k == "units_max" else value
        basis[k] = "yours"
    return dataclasses.replace(model, basis=basis, **changes) if changes else model


# --- configurations ----------------------------------------------------------------------------


@cites("library_models")
@declare(cartridges=CARTRIDGES, drives=LIB_DRIVES)
def units_needed(model: LibraryModel, cartridges, drives=0):
    """The fewest frames or modules of one library that hold the cartridges and the drives.

    ``n`` is the smallest count with ``usable_slots(n, drives) >= cartridges`` and
    ``drive_bays(n) >= drives``. Where one library of the family cannot hold them at its
    most units (or, with no expansion units, at all) the answer is ``inf``.

    Parameters
    ----------
    model : LibraryModel
    cartridges : float or array_like
        Cartridges to hold. [count]
    drives : float or array_like
        Drives to install. [count]

    Returns
    -------
    numpy value
        Units (frames or modules), a whole number or ``inf``. [count]
    """
    if not isinstance(model, LibraryModel):
        raise ValueError(f"model={model!r:.60} must be a LibraryModel (library_model(name))")
    c = CARTRIDGES.check("cartridges", cartridges)
    d = LIB_DRIVES.check("drives", drives)
    shape = broadcast(cartridges=c, drives=d)
    model._need("slots_base", "slots_per_expansion", "drives_base", "drives_per_expansion")
    return result(_units_needed(model, np.broadcast_to(c, shape), np.broadcast_to(d, shape)))


def _units_needed(model: LibraryModel, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """:func:`units_needed` of checked arrays of one shape (every value a frame plan needs given)."""
    top = model.units_max if model.units_max is not None else int(UNITS.hi)
    n = np.arange(1, top + 1, dtype=float)
    usable = np.asarray(model._usable_of(n[:, None], np.ravel(d)[None, :]), dtype=float)
    bays = np.asarray(model._bays_of(n), dtype=float)[:, None]
    ok = (usable >= np.ravel(c)[None, :] - 1e-9) & (bays >= np.ravel(d)[None, :] - 1e-9)
    first = np.where(ok.any(axis=0), np.argmax(ok, axis=0) + 1.0, np.inf)
    return first.reshape(c.shape)


# --- robots --------------------------------------------------------------------------------------


@declare(robots=ROBOTS, robot_move_s=MOVE_S)
def robot_mounts_per_hour(robots, *, robot_move_s):
    """Mounts per hour the robots can serve: ``robots x 3600 / (2 x move time)``. [1/h]

    Each mount costs :data:`MOVES_PER_MOUNT` moves (mount and dismount). CERN states a
    robot's capacity the same way, "160 robot arm movements per hour"
    (cern-tape-sizing-2005); TS4500 states "typical cartridge move times of less than 3
    seconds" (ibm-ts4500-r8-redbook), which gives at least 600 mounts per hour per accessor.

    Parameters
    ----------
    robots : int or array_like
        Robots serving the mounts. [count]
    robot_move_s : float or array_like
        Time of one cartridge move. [s]
    """
    r = ROBOTS.check("robots", robots)
    m = MOVE_S.check("robot_move_s", robot_move_s)
    broadcast(robots=r, robot_move_s=m)
    return result(r * 3600.0 / (MOVES_PER_MOUNT * m))


@cites("cern_facts")
@declare(mounts_per_hour=MOUNTS_PER_HOUR, robots=ROBOTS, robot_move_s=MOVE_S, q=QUANTILE)
def robot_wait_s(mounts_per_hour, *, robots, robot_move_s, q=0.95):
    """A mount's wait for a robot: the mean and the q-percentile. [s]

    The robots are an M/D/c queue of cartridge moves (:func:`vtsmodel.queueing.wait_mdc`,
    :func:`~vtsmodel.queueing.wait_percentile` with service cv 0): moves arrive at
    ``2 x mounts_per_hour`` (mount and dismount), each takes ``robot_move_s``, ``robots``
    serve them. This is the open-arrival form of the robot contention that
    :mod:`vtsmodel.robot` computes for a closed set of sessions (calibrated to the StorageTek
    ACS 4400: 28 s alone, 52.15 s with four sessions); today's libraries have several
    robots and many drives, so arrivals are closer to open.

    Raises ``ConstraintError`` when the robots are saturated (utilisation >= 1).

    Returns
    -------
    (numpy value, numpy value)
        Mean wait and the q-percentile wait. [s]
    """
    from vtsmodel.queueing import wait_mdc, wait_percentile

    lam = MOUNTS_PER_HOUR.check("mounts_per_hour", mounts_per_hour) * MOVES_PER_MOUNT / 3600.0
    r = ROBOTS.check("robots", robots)
    s = MOVE_S.check("robot_move_s", robot_move_s)
    broadcast(mounts_per_hour=lam, robots=r, robot_move_s=s)
    rho = lam * s / r
    if np.any(rho >= 1.0):
        raise ConstraintError(
            f"the robots are saturated: {float(np.max(lam * 3600 / MOVES_PER_MOUNT)):.4g} mounts per hour need "
            f"{float(np.max(lam * s)):.3g} robots busy all the time, and there are {int(np.min(r))}"
        )
    lam_ = np.maximum(lam, 1e-12)
    return wait_mdc(lam_, s, r), wait_percentile(lam_, s, r, q, service_cv=0.0)


@cites("cern_facts")
@declare(rate_mb_s=FLOW_RATE, efficiency=EFFICIENCY, speed_mb_s=SPEED_MB_S, t_mount_s=T_MOUNT)
def flow_mounts_per_hour(rate_mb_s, *, efficiency, speed_mb_s, t_mount_s):
    """Mounts per hour a flow needs, from CERN's efficiency formula (an upper bound). [1/h]

    CERN's efficiency is ``e = n f / v / (tMount + n tOverhead + n f / v)``
    (cern-tape-sizing-2005): a busy drive transfers a share ``e`` of its time and spends
    ``1 - e`` mounting and on per-file overhead. The flow keeps ``rate / (e v)`` drives
    busy; each makes at most ``3600 (1 - e) / tMount`` mounts an hour (equality when the
    per-file overhead is nothing)::

        mounts/h <= rate / (e v) x 3600 (1 - e) / tMount

    Parameters
    ----------
    rate_mb_s : float or array_like
        The flow's rate (peak factor included). [MB/s]
    efficiency : float or array_like
        The flow's drive efficiency. [-]
    speed_mb_s : float or array_like
        The drive's speed. [MB/s]
    t_mount_s : float or array_like
        The mount cycle (:func:`vtsmodel.drives.mount_cycle_s`). [s]
    """
    rate = FLOW_RATE.check("rate_mb_s", rate_mb_s)
    e = EFFICIENCY.check("efficiency", efficiency)
    v = SPEED_MB_S.check("speed_mb_s", speed_mb_s)
    t = T_MOUNT.check("t_mount_s", t_mount_s)
    broadcast(rate_mb_s=rate, efficiency=e, speed_mb_s=v, t_mount_s=t)
    return result(rate / (e * v) * 3600.0 * (1.0 - e) / t)


# --- what binds ----------------------------------------------------------------------------------

#: The resources :func:`library_binding` compares, in order.
RESOURCES = ("cartridge slots", "drive bays", "robot mounts per hour")


@cites("library_models")
@declare(
    units=UNITS, robots=ROBOTS, cartridges=CARTRIDGES, drives=LIB_DRIVES, mounts_per_hour=MOUNTS_PER_HOUR,
    robot_move_s=MOVE_S,
)  # fmt: skip
def library_binding(
    model: LibraryModel, units, robots, *, cartridges, drives, mounts_per_hour, robot_move_s=None
):
    """How full each resource of a configuration is, and which binds (the fullest).

    Shares: cartridges / usable slots, drives / drive bays, mounts per hour / what the
    robots serve (:func:`robot_mounts_per_hour`). A share above 1 does not fit.

    Parameters
    ----------
    model : LibraryModel
    units, robots : int
        The configuration. [count]
    cartridges, drives : float
        What it must hold. [count]
    mounts_per_hour : float
        Mounts the workload needs. [1/h]
    robot_move_s : float, optional
        Time of one move; default the model's (a ``ConstraintError`` if it has none). [s]

    Returns
    -------
    (str, dict of str to float)
        The binding resource's name (:data:`RESOURCES`) and every share. [-]
    """
    if not isinstance(model, LibraryModel):
        raise ValueError(f"model={model!r:.60} must be a LibraryModel (library_model(name))")
    n = as_scalar("units", UNITS.check("units", units))
    r = as_scalar("robots", ROBOTS.check("robots", robots))
    c = as_scalar("cartridges", CARTRIDGES.check("cartridges", cartridges))
    d = as_scalar("drives", LIB_DRIVES.check("drives", drives))
    m = as_scalar("mounts_per_hour", MOUNTS_PER_HOUR.check("mounts_per_hour", mounts_per_hour))
    move = robot_move_s if robot_move_s is not None else model.robot_move_s
    if move is None:
        raise ConstraintError(
            f"{model.label}: no document found gives its robots' move time; give robot_move_s "
            "(or library_model(..., robot_move_s=...))"
        )
    move = as_scalar("robot_move_s", MOVE_S.check("robot_move_s", move))
    shares = {k: float(v) for k, v in _shares(model, n, r, c, d, m, move).items()}
    return max(RESOURCES, key=lambda k: shares[k]), shares


def _shares(model: LibraryModel, units, robots, cartridges, drives, mounts_per_hour, move_s) -> dict:
    """Each resource's share used, for checked arrays of configurations (no input checks here)."""
    units, drives = np.asarray(units, dtype=float), np.asarray(drives, dtype=float)
    usable = np.asarray(model._usable_of(units, drives), dtype=float)
    bays = np.asarray(model._bays_of(units), dtype=float)
    cap = np.asarray(robots, dtype=float) * 3600.0 / (MOVES_PER_MOUNT * move_s)
    c, d = np.asarray(cartridges, dtype=float), np.asarray(drives, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        slots = np.where(usable > 0, c / np.where(usable > 0, usable, 1.0), np.where(c > 0, np.inf, 0.0))
        bay = np.where(bays > 0, d / np.where(bays > 0, bays, 1.0), np.where(d > 0, np.inf, 0.0))
    return {
        "cartridge slots": slots,
        "drive bays": bay,
        "robot mounts per hour": np.asarray(mounts_per_hour) / cap,
    }
