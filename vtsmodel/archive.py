"""An archive over the years: data stored, cartridges and slots per year, migration, cost.

:func:`archive_years`
    Data stored now, growth per year (TB a year and a share of what is stored), retention
    and deletion, copies (on site and off site), the cartridge's capacity (catalog,
    native) x the expected compression x the fill efficiency, and a reclamation reserve,
    year by year for N years: cartridges and slots.
:func:`cartridge_tb`
    What one cartridge of a catalog drive holds at an expected compression and fill.
:func:`fill_year`
    The first year a library configuration no longer holds the cartridges.
:func:`migration`
    Moving the archive to the next generation (read on the old drives, write on the new)
    over a chosen window: drive-months, drives and mounts per hour.
:func:`cost_by_year`
    Cost per year and per TB stored, from the user's prices only.

Modelling choices (each a parameter): data written in a year is kept ``retention_years``
and deleted at the end of its last year; the data stored now is taken as written evenly
over the last ``retention_years`` years, so a share ``1 / retention_years`` of it expires
each year; deleted data is reclaimed (its cartridges rewritten and reused) within the
year, the cartridges awaiting it are the ``reclaim_reserve``; cartridges are bought when
the count needed passes the most held before (reclaimed ones are reused).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import CompressionWarning, ConstraintError, as_scalar, broadcast, result
from vtsmodel.quantities import COMPRESSION_RATIO, SMALL, SPEED_MB_S

__all__ = [
    "ArchiveYears",
    "CompressionWarning",
    "Migration",
    "archive_years",
    "cartridge_tb",
    "cost_by_year",
    "fill_year",
    "migration",
]

_YOURS = "your archive"
#: Largest archive: 10^7 TB (ten exabytes). [TB]
BIG_TB = 1e7

YEARS = Input("years", "-", 5, lo=1, hi=100, integer=True, source=_YOURS, help="Years to plan for.")
STORED_TB = Input("data stored now", "TB", 1000.0, lo=0.0, hi=BIG_TB, source=_YOURS,
                  help="Data the archive holds today, one copy, as the host sees it (TB = 10^12 bytes).")  # fmt: skip
GROWTH_TB = Input("growth, TB a year", "TB", 0.0, lo=0.0, hi=BIG_TB, source=_YOURS,
                  help="Data written in a year, one copy, beyond the share below.")  # fmt: skip
GROWTH_RATE = Input("growth, share of stored", "-", 0.0, lo=0.0, hi=10.0, source=_YOURS,
                    help="Data written in a year as a share of what is stored at its start (0.3: 30% a year).")  # fmt: skip
INGEST_GROWTH = Input("growth of the writes", "-", 0.0, lo=0.0, hi=10.0, source=_YOURS,
                      help="How much the TB written a year grows each year (0.2: 20% more each year).")  # fmt: skip
RETENTION = Input("retention", "years", 0, lo=0, hi=1000, integer=True, source=_YOURS,
                  help="Years data is kept before it is deleted; 0: kept for ever.")  # fmt: skip
COPIES = Input(
    "copies on tape", "-", 1, lo=1, hi=10, integer=True, source=_YOURS, help="Copies of each byte on tape."
)
OFFSITE = Input("copies off site", "-", 0, lo=0, hi=9, integer=True, source=_YOURS,
                help="Copies kept outside this library (a vault, another site): cartridges but no slots here.")  # fmt: skip
CARTRIDGE_TB = Input("data per cartridge", "TB", 18.0, lo=SMALL, hi=1e6,
                     help="Data one cartridge holds: native capacity x compression x fill.")  # fmt: skip
COMPRESSION = COMPRESSION_RATIO.but(  # below 1 (down to 0.5) with a CompressionWarning, as every model takes it
    label="expected compression", default=1.0, source=_YOURS,
    help="Host bytes per byte on tape you expect; real archives compress less than the rated ratio (1: none).",
)  # fmt: skip
FILL = Input("fill efficiency", "-", 1.0, lo=SMALL, hi=1.0, source="project assumption (1: filled to the rated capacity)",
             help="Share of a cartridge's capacity that holds data (cartridges are not filled to the byte).")  # fmt: skip
RESERVE = Input("reclamation reserve", "-", 0.0, lo=0.0, hi=10.0, source="project assumption (0: none)",
                help="Extra cartridges, a share of those holding data: space awaiting reclamation, scratch.")  # fmt: skip


@dataclass(frozen=True)
class ArchiveYears:
    """The archive at the end of each year (year 0: now).

    Attributes
    ----------
    year : numpy.ndarray
        0, 1, ..., N. [year]
    written_tb, deleted_tb : numpy.ndarray
        Data written and deleted in the year, one copy (0 in year 0). [TB]
    stored_tb : numpy.ndarray
        Data held at the end of the year, one copy. [TB]
    cartridge_tb : float
        Data one cartridge holds. [TB]
    copies, offsite_copies : int
    cartridges : numpy.ndarray
        Cartridges of every copy, the reclamation reserve included. [count]
    cartridges_onsite : numpy.ndarray
        Cartridges in this library: the copies not off site. [count]
    cartridges_bought : numpy.ndarray
        Cartridges bought in the year (year 0: those needed now). [count]
    """

    year: np.ndarray
    written_tb: np.ndarray
    deleted_tb: np.ndarray
    stored_tb: np.ndarray
    cartridge_tb: float
    copies: int
    offsite_copies: int
    cartridges: np.ndarray
    cartridges_onsite: np.ndarray
    cartridges_bought: np.ndarray

    @property
    def tape_tb(self) -> np.ndarray:
        """Data on tape, every copy. [TB]"""
        return self.stored_tb * self.copies

    def rows(self) -> list[dict]:
        """One row per year, to print or export."""
        return [
            {"year": int(y), "written [TB]": float(w), "deleted [TB]": float(d), "stored [TB]": float(s),
             "cartridges": int(c), "in the library": int(o), "bought": int(b)}
            for y, w, d, s, c, o, b in zip(self.year, self.written_tb, self.deleted_tb, self.stored_tb,
                                           self.cartridges, self.cartridges_onsite, self.cartridges_bought, strict=True)
        ]  # fmt: skip


def _ceil(x):
    return np.ceil(np.asarray(x, dtype=float) - 1e-9)


@cites("drive_catalog")
@declare(compression=COMPRESSION, fill=FILL)
def cartridge_tb(drive: str, *, compression=1.0, fill=1.0):
    """Data one cartridge of a catalog drive holds: native capacity x compression x fill. [TB]

    The native capacity is the catalog's (e.g. LTO-9: 18 TB, ibm-ts4500-drives). The
    expected compression defaults to 1 (none): the rated ratio (2.5:1 for LTO-6 and
    later, ibm-ts4500-lto-perf) assumes data that compresses as the vendor's test data
    does; below 1 (data that grows, as encrypted data can in a drive's compressor) is
    allowed with a :class:`CompressionWarning`.

    Parameters
    ----------
    drive : str
        A catalog drive (key or alias).
    compression : float
        Host bytes per byte on tape expected, 0.5 to 100 (below 1 with a warning). [-]
    fill : float
        Share of the capacity filled, (0, 1]. [-]
    """
    from vtsmodel.catalog import drive_spec

    spec = drive_spec(drive)
    if spec.native_capacity_gb is None:
        raise ValueError(f"drive {spec.name!r} has no native capacity in the catalog")
    cr = COMPRESSION.check("compression", compression)
    f = FILL.check("fill", fill)
    broadcast(compression=cr, fill=f)
    return result(spec.native_capacity_gb / 1000.0 * cr * f)


@declare(
    years=YEARS, stored_now_tb=STORED_TB, growth_tb_per_year=GROWTH_TB, growth_rate=GROWTH_RATE,
    ingest_growth=INGEST_GROWTH, retention_years=RETENTION, copies=COPIES, offsite_copies=OFFSITE, cartridge_tb=CARTRIDGE_TB,
    reclaim_reserve=RESERVE,
)  # fmt: skip
def archive_years(
    years=5, *, stored_now_tb, growth_tb_per_year=0.0, growth_rate=0.0, ingest_growth=0.0, retention_years=0, copies=1,
    offsite_copies=0, cartridge_tb, reclaim_reserve=0.0,
) -> ArchiveYears:  # fmt: skip
    """Data stored, cartridges and slots at the end of each year, for ``years`` years.

    Year by year (``S`` stored, ``W`` written, ``D`` deleted, ``R`` retention)::

        W_y = growth_tb_per_year x (1 + ingest_growth)^(y-1) + growth_rate x S_(y-1)
        D_y = W_(y-R) + S_0 / R   (the second term for y <= R only; nothing when R = 0)
        S_y = S_(y-1) + W_y - D_y
        cartridges_y = ceil(S_y x copies x (1 + reserve) / cartridge_tb)
        in the library_y = ceil(S_y x (copies - off site) x (1 + reserve) / cartridge_tb)
        bought_y = max(0, cartridges_y - max(cartridges_0 .. cartridges_(y-1)))

    Parameters
    ----------
    years : int
        Years to plan for, 1 to 100. [year]
    stored_now_tb : float
        Data held now, one copy. [TB]
    growth_tb_per_year : float
        Data written each year, one copy. [TB]
    growth_rate : float
        Data written each year as a share of what is stored at its start. [-]
    ingest_growth : float
        How much ``growth_tb_per_year`` grows each year (0.2: 20 % more each year). [-]
    retention_years : int
        Years data is kept; 0: for ever. [year]
    copies, offsite_copies : int
        Copies of each byte on tape, and how many of them are kept outside the library. [count]
    cartridge_tb : float
        Data one cartridge holds (:func:`cartridge_tb`). [TB]
    reclaim_reserve : float
        Extra cartridges, a share of those holding data. [-]

    Returns
    -------
    ArchiveYears
    """
    n = int(as_scalar("years", YEARS.check("years", years)))
    s0 = as_scalar("stored_now_tb", STORED_TB.check("stored_now_tb", stored_now_tb))
    g_tb = as_scalar("growth_tb_per_year", GROWTH_TB.check("growth_tb_per_year", growth_tb_per_year))
    g = as_scalar("growth_rate", GROWTH_RATE.check("growth_rate", growth_rate))
    gi = as_scalar("ingest_growth", INGEST_GROWTH.check("ingest_growth", ingest_growth))
    ret = int(as_scalar("retention_years", RETENTION.check("retention_years", retention_years)))
    cp = int(as_scalar("copies", COPIES.check("copies", copies)))
    off = int(as_scalar("offsite_copies", OFFSITE.check("offsite_copies", offsite_copies)))
    cart = as_scalar("cartridge_tb", CARTRIDGE_TB.check("cartridge_tb", cartridge_tb))
    res = as_scalar("reclaim_reserve", RESERVE.check("reclaim_reserve", reclaim_reserve))
    if off >= cp:
        raise ConstraintError(
            f"offsite_copies={off} must be fewer than copies={cp}: the library holds at least one copy"
        )
    written, deleted, stored = np.zeros(n + 1), np.zeros(n + 1), np.zeros(n + 1)
    stored[0] = s0
    for y in range(1, n + 1):
        written[y] = g_tb * (1.0 + gi) ** (y - 1) + g * stored[y - 1]
        if ret:
            deleted[y] = (written[y - ret] if y - ret >= 1 else 0.0) + (s0 / ret if y <= ret else 0.0)
        stored[y] = max(stored[y - 1] + written[y] - deleted[y], 0.0)
        if stored[y] > BIG_TB:
            raise ConstraintError(
                f"the archive outgrows any library: {stored[y]:.3g} TB in year {y} (more than {BIG_TB:g} TB); "
                f"check growth_tb_per_year={g_tb:g} and growth_rate={g:g}"
            )
    cartridges = _ceil(stored * cp * (1.0 + res) / cart)
    onsite = _ceil(stored * (cp - off) * (1.0 + res) / cart)
    most = np.maximum.accumulate(cartridges)
    bought = np.concatenate([cartridges[:1], np.maximum(cartridges[1:] - most[:-1], 0.0)])
    return ArchiveYears(np.arange(n + 1), written, deleted, stored, float(cart), cp, off,
                        cartridges, onsite, bought)  # fmt: skip


NEED = Input(
    "need per year", "-", 0.0, lo=0.0, hi=1e15, help="What each year needs: slots, drives or mounts per hour."
)
CAPACITY = Input("capacity", "-", 0.0, lo=0.0, hi=1e15, help="What the configuration holds.")


@declare(needed=NEED, capacity=CAPACITY)
def fill_year(needed, capacity) -> int | None:
    """The first year whose need exceeds the capacity, or None within the years given.

    Parameters
    ----------
    needed : array_like
        Need per year (year 0 first): slots, drives or mounts per hour. [count]
    capacity : float
        What the configuration holds. [count]
    """
    need = NEED.check("needed", needed)
    if need.ndim == 0:
        need = need.reshape(1)
    if need.ndim > 1:
        raise ConstraintError(f"needed has {need.ndim} dimensions; give one number per year (year 0 first)")
    if need.size == 0:
        raise ValueError("needed=[] must be a list of numbers, one per year (year 0 first)")
    cap = as_scalar("capacity", CAPACITY.check("capacity", capacity))
    over = np.flatnonzero(need > cap + 1e-9)
    return int(over[0]) if over.size else None


# --- migration ----------------------------------------------------------------------------------

WINDOW = Input("migration window", "months", 12.0, lo=0.1, hi=240.0, source=_YOURS,
               help="Months in which the archive moves to the new generation.")  # fmt: skip
HOURS_PER_DAY = Input("migration hours a day", "h", 24.0, lo=SMALL, hi=24.0, source=_YOURS,
                      help="Hours a day the migration runs beside production.")  # fmt: skip
MIG_EFFICIENCY = Input(
    "migration efficiency", "-", 0.5, lo=SMALL, hi=1.0, source="cern-tape-sizing-2005, Data Rates (~50 %, organised flows)",
    help="Share of the drive's speed the migration gets: an organised flow of whole cartridges.",
)  # fmt: skip
DATA_TB = STORED_TB.but(label="data to migrate", help="Data to move, one copy.")
#: Days in a month (365.25 / 12). [day]
DAYS_PER_MONTH = 365.25 / 12.0


@dataclass(frozen=True)
class Migration:
    """The migration's load: drive-months and drives, on the old and the new generation.

    Attributes
    ----------
    read_tb, write_tb : float
        Data read on the old generation and written on the new (every copy moved). [TB]
    read_drive_months, write_drive_months : float
        Drive time, in months of a drive running ``hours_per_day``. [drive-month]
    read_drives, write_drives : int
        Drives to finish in the window. [count]
    mounts_per_hour : float
        Cartridge mounts the migration adds (old read + new written over the window). [1/h]
    window_months, hours_per_day : float
    """

    read_tb: float
    write_tb: float
    read_drive_months: float
    write_drive_months: float
    read_drives: int
    write_drives: int
    mounts_per_hour: float
    window_months: float
    hours_per_day: float


@cites("cern_facts")
@declare(
    data_tb=DATA_TB, window_months=WINDOW, old_speed_mb_s=SPEED_MB_S, new_speed_mb_s=SPEED_MB_S,
    old_cartridge_tb=CARTRIDGE_TB, new_cartridge_tb=CARTRIDGE_TB, copies=COPIES, efficiency=MIG_EFFICIENCY,
    hours_per_day=HOURS_PER_DAY,
)  # fmt: skip
def migration(
    data_tb, *, window_months=12.0, old_speed_mb_s, new_speed_mb_s, old_cartridge_tb, new_cartridge_tb,
    copies=1, efficiency=None, hours_per_day=24.0,
) -> Migration:  # fmt: skip
    """The load of moving an archive to the next generation, over a chosen window.

    Every copy is read on the old drives and written on the new::

        drive-months = data x copies x 10^6 / (speed x efficiency) / 3600 / (hours a day x 365.25 / 12)
        drives = ceil(drive-months / window)
        mounts/h = (data x copies / old cartridge + data x copies / new cartridge) / (window hours)

    Parameters
    ----------
    data_tb : float
        Data to move, one copy. [TB]
    window_months : float
        Months to finish in. [month]
    old_speed_mb_s, new_speed_mb_s : float
        Drive speeds (catalog: ``DriveSpec.speed_mb_s``). [MB/s]
    old_cartridge_tb, new_cartridge_tb : float
        Data per cartridge on each generation (:func:`cartridge_tb`). [TB]
    copies : int
        Copies moved. [count]
    efficiency : float, optional
        Share of the speed the migration gets; default CERN's ~50 % for organised flows
        (cern_facts ``efficiency_organised``). [-]
    hours_per_day : float
        Hours a day the migration runs. [h]

    Returns
    -------
    Migration
    """
    d = as_scalar("data_tb", DATA_TB.check("data_tb", data_tb))
    w = as_scalar("window_months", WINDOW.check("window_months", window_months))
    vo = as_scalar("old_speed_mb_s", SPEED_MB_S.check("old_speed_mb_s", old_speed_mb_s))
    vn = as_scalar("new_speed_mb_s", SPEED_MB_S.check("new_speed_mb_s", new_speed_mb_s))
    co = as_scalar("old_cartridge_tb", CARTRIDGE_TB.check("old_cartridge_tb", old_cartridge_tb))
    cn = as_scalar("new_cartridge_tb", CARTRIDGE_TB.check("new_cartridge_tb", new_cartridge_tb))
    cp = int(as_scalar("copies", COPIES.check("copies", copies)))
    e = load("cern_facts").value("efficiency_organised") if efficiency is None else efficiency
    e = as_scalar("efficiency", MIG_EFFICIENCY.check("efficiency", e))
    h = as_scalar("hours_per_day", HOURS_PER_DAY.check("hours_per_day", hours_per_day))
    moved = d * cp
    month_s = h * DAYS_PER_MONTH * 3600.0
    read_m = moved * 1e6 / (vo * e) / month_s
    write_m = moved * 1e6 / (vn * e) / month_s
    mounts = (moved / co + moved / cn) / (w * DAYS_PER_MONTH * h)
    return Migration(moved, moved, read_m, write_m, int(_ceil(read_m / w)), int(_ceil(write_m / w)),
                     float(mounts), w, h)  # fmt: skip


# --- cost ---------------------------------------------------------------------------------------

PRICE = Input(
    "price", "", None, lo=0.0, hi=1e12, optional=True, help="Your price, in your currency; empty: not shown."
)
_PRICES = ("drive", "cartridge", "frame", "support_per_year")
COUNT_PER_YEAR = Input("count", "-", 0, lo=0, hi=1e12, help="Units bought in a year.")


def cost_by_year(bought: dict, prices: dict, stored_tb) -> dict | None:
    """Cost per year and per TB stored, from the user's prices only (nothing invented).

    Parameters
    ----------
    bought : dict
        Per year (year 0 first), what is bought: ``"drive"``, ``"cartridge"``,
        ``"frame"`` (lists of counts, any may be absent). [count]
    prices : dict
        The user's prices by the same names, and ``"support_per_year"`` (paid each year
        from year 1); a price that is ``None`` or absent leaves its item out.
    stored_tb : array_like
        Data stored at each year's end, one copy. [TB]

    Returns
    -------
    dict or None
        ``{"per_year": array, "cumulative": array, "per_tb": array, "items": names}``
        in the user's currency, or None when no price is given.
    """
    if not isinstance(bought, dict) or not isinstance(prices, dict):
        raise ValueError(
            f"bought={bought!r:.40} and prices={prices!r:.40} must be dicts of item name to counts or price"
        )
    unknown = set(prices) - set(_PRICES)
    if unknown:
        raise ValueError(
            f"unknown price(s) {', '.join(sorted(map(repr, unknown)))}; prices: {', '.join(_PRICES)}"
        )
    given = {k: PRICE.parse(f"prices[{k!r}]", v) for k, v in prices.items()}
    given = {k: v for k, v in given.items() if v is not None}
    if not given:
        return None
    stored = STORED_TB.but(label="data stored").check("stored_tb", stored_tb)
    if stored.ndim != 1 or stored.size == 0:
        raise ValueError(f"stored_tb={stored_tb!r:.60} must be a list of numbers, one per year")
    per_year = np.zeros(stored.size)
    items = []
    for k, price in given.items():
        if k == "support_per_year":
            per_year[1:] += price
            items.append(k)
            continue
        if k not in bought:
            continue
        counts = COUNT_PER_YEAR.check(f"bought[{k!r}]", bought[k])
        if counts.shape != stored.shape:
            raise ValueError(f"bought[{k!r}] has {counts.size} years; stored_tb has {stored.size}")
        per_year += counts * price
        items.append(k)
    cumulative = np.cumsum(per_year)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_tb = np.where(stored > 0, cumulative / np.where(stored > 0, stored, 1.0), math.nan)
    return {"per_year": per_year, "cumulative": cumulative, "per_tb": per_tb, "items": tuple(items)}
