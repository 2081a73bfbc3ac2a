"""The catalog of tape drives: native and compressed rates, capacities, observed speeds.

Built from ``data/drive_catalog.csv``: every value a cited row, spec and observed values
kept apart (``data/notes/drive_catalog.md``). :func:`drive_spec` gives one drive,
:func:`drive_catalog` all of them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from vtsmodel._tables import Provenance, cites, load

__all__ = ["DriveSpec", "catalog_provenance", "drive_catalog", "drive_names", "drive_spec"]


@dataclass(frozen=True)
class DriveSpec:
    """One drive of the catalog, spec and observed values kept apart.

    Attributes
    ----------
    name : str
        Catalog key, e.g. ``"IBM3592A"``.
    native_rate_mb_s : float or None
        Native rate, a specification or derived from one. [MB/s]
    native_rate_basis : str
        ``"spec"`` or ``"derived"`` (or ``""`` when absent).
    compressed_max_rate_mb_s : float or None
        Compressed maximum (spec). [MB/s]
    observed_rate_mb_s : float or None
        Measured rate; where a source gives several (the 3480's write and read tables)
        the lowest, so that sizing stays conservative. [MB/s]
    native_capacity_gb : float or None
        Native cartridge capacity. [GB]
    compression_ratio_spec, compression_ratio_observed : float or None
        Ratio the compressed maximum assumes; ratio observed at a site. [-]
    rows : dict of str to Provenance
        Every catalog row of the drive, by id.
    """

    name: str
    native_rate_mb_s: float | None = None
    native_rate_basis: str = ""
    compressed_max_rate_mb_s: float | None = None
    observed_rate_mb_s: float | None = None
    native_capacity_gb: float | None = None
    compression_ratio_spec: float | None = None
    compression_ratio_observed: float | None = None
    rows: dict = field(default_factory=dict, repr=False, compare=False)

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
        """Source ids of the drive's rows."""
        return tuple(sorted({p.source for p in self.rows.values()}))


@functools.cache
def _catalog() -> dict[str, DriveSpec]:
    table = load("drive_catalog")
    by_drive: dict[str, dict] = {}
    for rec in table.records():
        d = by_drive.setdefault(rec["drive"], {"rows": {}})
        d["rows"][rec["id"]] = table.provenance(rec["id"])
        q, v, basis = rec["quantity"], float(rec["value"]), rec["basis"]
        if q == "native_rate":
            d["native_rate_mb_s"], d["native_rate_basis"] = v, basis
        elif q == "compressed_max_rate":
            d["compressed_max_rate_mb_s"] = v
        elif q == "observed_rate":
            d["observed_rate_mb_s"] = min(v, d.get("observed_rate_mb_s", v))
        elif q == "native_capacity":
            d["native_capacity_gb"] = v
        elif q == "compression_ratio":
            d[f"compression_ratio_{basis}"] = v
    return {name: DriveSpec(name=name, **kw) for name, kw in by_drive.items()}


def drive_names() -> tuple[str, ...]:
    """Catalog keys in file order (``"STK3480"``, ``"IBM3590B"``, ...)."""
    return tuple(_catalog())


@cites("drive_catalog")
def drive_catalog() -> dict[str, DriveSpec]:
    """The drives the sources describe, by key (a new dict on every call).

    Built from ``data/drive_catalog.csv``; no drive without its own cited source is
    included (see ``data/notes/drive_catalog.md``).
    """
    return dict(_catalog())


@cites("drive_catalog")
def drive_spec(name: str) -> DriveSpec:
    """One drive of the catalog; ``KeyError`` listing the valid names for an unknown one."""
    cat = _catalog()
    try:
        return cat[name]
    except (KeyError, TypeError):
        raise KeyError(f"no drive named {name!r}; valid names: {', '.join(cat)}") from None


def catalog_provenance(name: str) -> tuple[Provenance, ...]:
    """The catalog rows of one drive, as provenance records."""
    return tuple(drive_spec(name).rows.values())
