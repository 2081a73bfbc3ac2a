"""Where a plan's numbers come from: the model functions, data tables and rows it used, its assumptions.

Every result of the planner carries the model functions it called and those they are built
on (``models``), the data tables they and the planner read (``tables``), the rows the
planner read itself (``rows``) and their source ids (``sources``), for
:func:`vtsmodel.cite` and the report's references (:class:`Provenance`). The extrapolation
warnings the models gave become the result's ``notes``.
:func:`assumptions` lists the planner's modelling choices with their sources.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vtsmodel import (
    archive,
    b18,
    bottleneck,
    catalog,
    drives,
    library,
    library_years,
    queueing,
    recall,
    sizing,
    throughput,
    tvc,
    tvc_day,
)
from vtsmodel._tables import load, references, tables
from vtsmodel._validation import VtsModelWarning

__all__ = ["LIBRARY_ROWS", "VTS_ROWS", "Provenance", "assumptions"]

_VTS = "ibm-vts-b18-2000"
_CERN = "cern-tape-sizing-2005"


@dataclass(frozen=True)
class Provenance:
    """What a plan's result rests on.

    Attributes
    ----------
    models : tuple of str
        The model functions used, by dotted name.
    tables : tuple of str
        The data tables they and the planner read.
    rows : tuple of (table, id)
        Data rows the planner read itself.
    sources : tuple of str
        Source ids of those tables and rows (for :func:`vtsmodel.cite`).
    """

    models: tuple[str, ...]
    tables: tuple[str, ...]
    rows: tuple[tuple[str, str], ...]
    sources: tuple[str, ...]

    @classmethod
    def of_vts(cls, vts_drive: str) -> Provenance:
        """A VTS plan's, with the VTS's 3590 model (:data:`vtsmodel.b18.TAPE_DRIVES`)."""
        return _of_vts(cls, vts_drive)

    @classmethod
    def _of_vts(cls, vts_drive: str) -> Provenance:
        funcs = (throughput.write_rate, tvc_day.simulate_tvc, tvc.cache_cf, tvc.effective_capacity_gb,
                 b18.product_configurations, b18.capacity_configuration, bottleneck.binding_resource,
                 bottleneck.write_capacities, recall.recall_parts, recall.recall_service_s, recall.recall_ready_s,
                 recall.recall_drives, queueing.wait_percentile, drives.drive_efficiency, catalog.drive_spec)  # fmt: skip
        # the recall functions also cite the StorageTek 3480 preset, which is no VTS drive
        found = _tables_of(funcs, ("vts_tvc_configs", "vts_facts", "drive_catalog"), exclude=("stk_facts",))
        return cls._of(funcs, found, VTS_ROWS + _drive_rows(b18.TAPE_DRIVES[vts_drive]))

    @classmethod
    def of_library(cls, drive: str | None, model=None) -> Provenance:
        """A tape-library plan's, with its catalog drive (None: a drive speed was given) and library family."""
        return _of_library(cls, drive, None if model is None else model.key)

    @classmethod
    def _of_library(cls, drive: str | None, family: str | None) -> Provenance:
        model = None if family is None else library.library_model(family)
        funcs = (sizing.drives_needed, drives.drive_efficiency, drives.mount_cycle_s,
                 queueing.recall_drives_needed, queueing.wait_percentile, catalog.drive_spec, archive.archive_years,
                 archive.cartridge_tb, library_years.library_years, library.units_needed, library.robot_wait_s,
                 library.library_binding)  # fmt: skip
        rows = () if model is None else tuple((p.table, p.id) for p in model.rows.values())
        # library_years cites the CERN example it offers lessons; a plan without a family reads no library row
        found = _tables_of(
            funcs, ("cern_facts",), exclude=("cern_sizing_example",) + (() if model else ("library_models",))
        )
        return cls._of(funcs, found, LIBRARY_ROWS + _drive_rows(drive) + rows)

    @classmethod
    def _of(
        cls, funcs: Sequence[Callable], found: tuple[str, ...], rows: tuple[tuple[str, str], ...]
    ) -> Provenance:
        names = tuple(f"{f.__module__}.{f.__qualname__}" for f in funcs)
        return cls(names, found, rows, _sources(found, rows))


@functools.cache  # once a drive: the tables do not change while a process runs (a planner move read them again)
def _of_vts(cls, vts_drive: str) -> Provenance:
    return cls._of_vts(vts_drive)


@functools.cache
def _of_library(cls, drive: str | None, family: str | None) -> Provenance:
    return cls._of_library(drive, family)


def _tables_of(funcs, extra=(), exclude=()) -> tuple[str, ...]:
    known = set(tables()) - set(exclude)
    out = []
    for f in funcs:
        for t in getattr(f, "__vtsmodel_cites__", ()):
            if t in known and t not in out:
                out.append(t)
    for t in extra:
        if t not in out:
            out.append(t)
    return tuple(out)


#: Data rows the planner reads itself (beyond those of the model functions it calls).
VTS_ROWS = (
    ("vts_facts", "physical_drives_low"), ("vts_facts", "physical_drives_high"),
    ("vts_facts", "physical_drives_paf_low"), ("vts_facts", "physical_drives_paf_high"),
    ("vts_facts", "virtual_drives_base"), ("vts_facts", "virtual_drives_ehpo"),
    ("vts_facts", "tvc_min_for_64_virtual_drives"), ("vts_facts", "recall_example_drives"),
    ("vts_facts", "recall_example_copy_drives"), ("vts_facts", "recall_example_concurrent_recalls"),
    ("vts_facts", "search_time_avg"), ("vts_facts", "cache_algorithm_change_tvc"),
    ("vts_facts", "fig10_effective_capacity"), ("vts_import_export", "export_per_mount"),
    ("cern_facts", "tmount_move"), ("cern_facts", "tmount_mount"), ("cern_facts", "tmount_rewind_unload"),
    ("cern_facts", "toverhead"),
)  # fmt: skip
LIBRARY_ROWS = (
    ("cern_facts", "robot_moves_normal"), ("cern_facts", "tmount_move"), ("cern_facts", "tmount_mount"),
    ("cern_facts", "tmount_positioning"), ("cern_facts", "tmount_rewind_unload"), ("cern_facts", "toverhead"),
)  # fmt: skip


def _drive_rows(name: str | None) -> tuple[tuple[str, str], ...]:
    """The catalog rows behind one drive's values, as (table, id)."""
    if name is None:
        return ()
    return tuple((p.table, p.id) for p in catalog.drive_spec(name).primary.values())


def _sources(found: Sequence[str], rows: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Source ids of the tables (the drive catalog and the library models only through the rows used) and the rows."""
    ids = [r["name"] for r in references(*(t for t in found if t not in ("drive_catalog", "library_models")))]
    ids += [load(t).provenance(i).source for t, i in rows]
    return tuple(dict.fromkeys(ids))


def _collect_notes(fn, *args, **kwargs):
    """Call ``fn``; return its result and the project warnings it gave (as text, once each)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VtsModelWarning)
        out = fn(*args, **kwargs)
    notes = []
    for w in caught:
        if issubclass(w.category, VtsModelWarning):
            text = str(w.message)
            if text not in notes:
                notes.append(text)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out, tuple(notes)


def _recorded(compute: Callable[[], object]) -> tuple[object, tuple]:
    """``compute()`` and the project warnings it gave, to keep beside it (:func:`_given_again`).

    Warnings from elsewhere are passed on as they came, once.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VtsModelWarning)
        value = compute()
    kept = []
    for w in caught:
        if issubclass(w.category, VtsModelWarning):
            kept.append((w.message, w.category, w.filename, w.lineno))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return value, tuple(kept)


def _given_again(entry: tuple[object, tuple]) -> object:
    """A kept result of :func:`_recorded`: its warnings given again, as the computation gave them; its value."""
    for message, category, filename, lineno in entry[1]:
        warnings.warn_explicit(message, category, filename, lineno)
    return entry[0]


def assumptions() -> list[dict]:
    """The planner's assumptions: what, the value, and its source or why.

    Each dict has ``"assumption"``, ``"value"`` and ``"source"``.
    """
    f = load("vts_facts")
    return [
        {"assumption": "fill threshold at which the VTS throttles", "value": f"{tvc.DEFAULT_THRESHOLD:g} of the cache",
         "source": f"modelling choice; {_VTS}, Sec. 3.1.1 names a fill threshold without its value"},
        {"assumption": "copy to tape during peak write", "value": f"{tvc.DEFAULT_PEAK_COPY_FRACTION:g} of the sustained copy rate",
         "source": f"modelling choice for 'little copy activity', {_VTS}, Sec. 3.1.1"},
        {"assumption": "capacity above 864 GB that counts toward time at peak",
         "value": f"{tvc.above_864_fraction_default():.3f}",
         "source": f"derived from the '1200 GB effective capacity', {_VTS}, Sec. 4 and Fig. 10 caption"},
        {"assumption": "where data sits in the cache", "value": "compressed with EHPO and PAF, uncompressed in the base VTS",
         "source": f"{_VTS}, Sec. 2"},
        {"assumption": "the order of configurations ('smaller')", "value": "cache capacity, then feature (base, EHPO, PAF), then drives",
         "source": "modelling choice: the paper prices nothing"},
        {"assumption": "prerequisites", "value": "PAF needs EHPO; 3 to 6 drives, 4 to 6 with PAF; 64 virtual drives need EHPO and 144 GB",
         "source": f"{_VTS}, Secs. 2 and 3.5, Table 3"},
        {"assumption": "drives for recalls", "value": "the drives not copying (total minus copying, each hour)",
         "source": f"{_VTS}, Sec. 3.2.2 ('only four recall mounts can be handled simultaneously')"},
        {"assumption": "drives copying", "value": "copy rate / (drive rate x efficiency of stacking volumes), rounded up",
         "source": f"modelling choice; the CERN formula ({_CERN}) with Eq. 1's {load('vts_import_export').value('export_per_mount'):g} min per mount ({_VTS})"},
        {"assumption": "recall arrivals", "value": "Poisson within each hour; identical service (M/D/c); the busiest hour governs",
         "source": "modelling choice (busy-hour engineering)"},
        {"assumption": "recall parts", "value": "robot, load and rewind/unload from CERN's tMount; the rest of Eq. 1's per-mount time; search 21 s",
         "source": f"{_CERN}; {_VTS}, Eq. 1 and Sec. 7 (search time {f.value('search_time_avg'):g} s)"},
        {"assumption": "a day that repeats", "value": "un-copied data left at the end is carried into a second run of the day",
         "source": "modelling choice"},
        {"assumption": "ESCON channels", "value": "the answer (8 by default); each carries the PAF peak ceiling / 8 (about 10 MB/s with 32 KB blocks); fewer lower the peak and sustained rates where they bind (bottleneck view)",
         "source": f"{_VTS}, Secs. 1, 3.5.4 ('eight ESCON channels' for the maximum), 9 ('up to 80 MB/s'); Sec. 6's two channels measured about 16 MB/s on the older VTS (ledger vts_two_escon_16, contradicted)"},
        {"assumption": "recalls served", "value": "up to the recall ceiling (PAF: Table 1's read recall rate; base, EHPO: the sustained rate), and no more than the channels carry; any recall above it fails the recall target",
         "source": f"{_VTS}, Table 1, Sec. 3.5.4; the channels' bound is an upper bound for reads ('usually lower than the corresponding write rate')"},
        {"assumption": "writes without PAF while recalls saturate", "value": "recalls take the copy bandwidth first: at the fill threshold writes can stop; the planner says in which hours",
         "source": f"{_VTS}, Sec. 5 ('The same situation can also occur with recalls'; the VTS throttles, by an amount the paper does not give)"},
        {"assumption": "library drive speed", "value": "the catalog's observed rate, else its native rate",
         "source": f"{_CERN}, Introduction (Maxspeed); drive catalog"},
        {"assumption": "library flows", "value": "the busiest hour's write and recall rates, times the peak factor",
         "source": f"modelling choice; {_CERN}, Summary (the formula)"},
        {"assumption": "library mount cycle (tMount)", "value": "the drive's own load, locate and rewind/unload where the catalog has them, else CERN's 9940B parts; robot move 22.5 s",
         "source": f"{_CERN}, Access pattern and tape drive efficiency; drive catalog (mount_cycle_s with drive)"},
        {"assumption": "library overhead per file (tOverhead)", "value": f"{load('cern_facts').value('toverhead'):g} s",
         "source": f"{_CERN}, Access pattern and tape drive efficiency"},
        {"assumption": "a recall's wait for a robot", "value": "the mean wait of an M/D/c queue of moves (mount and dismount) "
         "of every flow's mounts, added to the recall's drive time and ready time (its drive reserved)",
         "source": "modelling choice (library.robot_wait_s); the robot move: the family's document, else "
                   f"{_CERN} (160 robot arm movements per hour)"},
        {"assumption": "the library over the years", "value": "the flows grow with the data written each year; "
         "TB written a year: the answer, else the writing flows at their average rate all year, else the day's writes "
         "× 365.25", "source": "modelling choice (library_years)"},
        {"assumption": "robots installed", "value": "as many as the busiest year's mounts need, at least the family's "
         "standard and at most its documented most (one where no document gives a count)",
         "source": "modelling choice; data/library_models.csv"},
        {"assumption": "cost", "value": "your prices only: drives and frames or modules bought when first needed, "
         "cartridges as the archive grows, support each year from year 1", "source": "your prices (archive.cost_by_year)"},
    ]  # fmt: skip
