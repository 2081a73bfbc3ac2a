"""The IBM 3494 Virtual Tape Server model B18 as a product: features, cache configurations, drives.

Source: ibm-vts-b18-2000 (Secs. 2, 3.5, Tables 3 and 4). Every model of the VTS reads the
product from here, so each of its facts is read in one place:

:data:`FEATURES`, :data:`FEATURE`
    The performance options, least to most capable: base, EHPO (compression at the host
    adapters, Sec. 2) and PAF (the Performance Accelerator, which "has a prerequisite of
    the EHPO feature", Sec. 3.5).
:class:`Configuration`, :func:`configurations`, :func:`configuration`, :data:`TVC_CONFIG`
    Table 3's tape volume cache (TVC) configurations: capacity, HDDs, RAID layout, and the
    features each is offered with.
:func:`product_configurations`, :func:`tvc_range`, :func:`default_tvc_gb`
    The capacities Table 3 offers with a feature, its whole range, and the capacity a
    model takes when none is given (the largest offered with the feature).
:func:`table4_column`, :func:`capacity_configuration`, :func:`other_layouts`, :func:`resolve_tvc`
    The column of Table 4 (Eq. 3's coefficients) a configuration reads, by its RAID
    layout; the configuration a TVC given by capacity alone is taken as, and the others
    of that capacity.
:func:`physical_drives`, :func:`virtual_drives`, :data:`TAPE_DRIVES`
    The 3590 tape drives a configuration may have and the virtual drives it presents
    (Sec. 2).

Which Table 4 column a TVC reads
--------------------------------
Table 4 prints three columns, read (data notes, ambiguity 1) as the 36 GB-HDD capacities
288 GB (4(2+P); printed "≤288"), 576 GB (8(2+P)) and 1152 GB (16(2+P)), each shared with
the 9 GB-HDD configuration of the same layout (72, 144, 288 GB). The RAID layout, not the
capacity, picks the column (:func:`table4_column`): it is returned as the 36 GB-HDD
capacity of the layout, the point on Table 4's axis where Eq. 3's coefficients are read
(interpolated linearly in log2 between the columns, held flat outside).

A TVC given by a Table 3 configuration (``tvc_config``) reads its own layout's column. A
TVC given by capacity alone (``tvc_gb``) is taken as Table 3's configuration of that
capacity (:func:`capacity_configuration`):

==========  ==========================================  ===============================
TVC [GB]    configuration (base and EHPO)               Table 4 axis [GB]
==========  ==========================================  ===============================
72          4(2+P) (9 GB or 36 GB HDDs: one layout)     288, column "≤288 /72"
144         8(2+P) of 9 GB HDDs (*)                     576, column "576 /144"
216         12(2+P) of 9 GB HDDs                        864, between two columns
288         16(2+P) of 9 GB HDDs (*)                    1152, column "1152 /288"
576         8(2+P) of 36 GB HDDs                        576
1152        16(2+P) of 36 GB HDDs                       1152
any other   none: read on the 36 GB-HDD axis            the capacity itself
==========  ==========================================  ===============================

(*) Table 3 lists 144 and 288 GB in two layouts, also as 4(2+P) of 36 GB HDDs (the
"≤288 /72" column). A capacity alone takes the layout with the most parity groups, the
9 GB-HDD one (a modelling choice; at 144 GB the 36 GB-HDD 4(2+P) is a partly enabled array,
data notes, ambiguity 3), and warns with :class:`LayoutWarning` naming the other, which a
``tvc_config`` selects. At CF 3 the EHPO sustained rate of 144, 216 and 288 GB is then
16.73, 18.36 and 19.51 MB/s; read on the 36 GB-HDD axis all three would be 13.31 MB/s.

Base and EHPO on a capacity Table 3 offers only with PAF (432, 864, 1728 GB) or above
1152 GB warn (:func:`resolve_tvc`). PAF rates do not depend on the layout.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import (
    ConstraintError,
    ExtrapolationWarning,
    VtsModelWarning,
    as_scalar,
    check_choice,
    warn_outside,
)
from vtsmodel.quantities import TVC_GB

__all__ = [
    "FEATURE",
    "FEATURES",
    "FEATURE_LABELS",
    "TAPE_DRIVES",
    "TVC_CONFIG",
    "Configuration",
    "LayoutWarning",
    "capacity_configuration",
    "configuration",
    "configurations",
    "default_tvc_gb",
    "other_layouts",
    "physical_drives",
    "product_configurations",
    "resolve_tvc",
    "table4_column",
    "tvc_range",
    "virtual_drives",
]

_SRC = "ibm-vts-b18-2000"

#: The performance options, least to most capable (PAF includes EHPO: ibm-vts-b18-2000,
#: Secs. 3.1, 3.5).
FEATURES = ("base", "ehpo", "paf")
#: How the paper names each option (read-only).
FEATURE_LABELS = MappingProxyType({"base": "base", "ehpo": "EHPO", "paf": "PAF"})

FEATURE = Input(
    "feature", "", "paf", choices=tuple((FEATURE_LABELS[f] + (" (with EHPO)" if f == "paf" else ""), f)
                                        for f in FEATURES),
    source=f"{_SRC}, Secs. 3.1, 3.5",
    help="Performance option: base, EHPO (compression at the host adapters) or PAF (with EHPO).",
)  # fmt: skip

#: The 3590 models a VTS library holds, by the drive catalog's name (ibm-vts-b18-2000, Sec. 2; read-only).
TAPE_DRIVES = MappingProxyType({"3590B": "IBM3590B", "3590E": "IBM3590E"})


class LayoutWarning(VtsModelWarning):
    """A TVC given by capacity alone that Table 3 lists in two RAID layouts (two Table 4 columns).

    The message names the layout taken and the ``tvc_config`` of the other.
    """


@dataclass(frozen=True)
class Configuration:
    """One TVC configuration of Table 3: capacity, HDDs, RAID layout, feature column.

    Attributes
    ----------
    id : str
        The ``vts_tvc_configs`` row id, e.g. ``"tvc_144_9gb_base_ehpo"``.
    tvc_gb : float
        Capacity, physical. [GB]
    hdd_gb : float
        HDD capacity. [GB]
    features : str
        Table 3's column: ``"base_ehpo"`` (base and EHPO) or ``"paf"``.
    raid_groups : int
        RAID-5 parity groups. [count]
    raid_layout : str
        ``"2+P"`` or ``"6+P"``.
    earlier_paf : bool
        Marked * in Table 3: in earlier shipments also available with PAF.
    """

    id: str
    tvc_gb: float
    hdd_gb: float
    features: str
    raid_groups: int
    raid_layout: str
    earlier_paf: bool

    @property
    def layout(self) -> str:
        """Table 3's cell: ``"8(2+P)"``."""
        return f"{self.raid_groups}({self.raid_layout})"

    @property
    def label(self) -> str:
        """Table 3's name of the configuration: ``"144 GB, 9 GB HDDs, 8(2+P)"``."""
        return f"{self.tvc_gb:g} GB, {self.hdd_gb:g} GB HDDs, {self.layout}"

    def offered_with(self, feature: str) -> bool:
        """Whether Table 3 offers this configuration with ``feature`` (base, ehpo, paf)."""
        check_choice("feature", feature, FEATURES)
        return (self.features == "paf") == (feature == "paf")


@functools.cache
def _configurations() -> tuple[Configuration, ...]:
    return tuple(
        Configuration(
            id=r["id"],
            tvc_gb=float(r["tvc_gb"]),
            hdd_gb=float(r["hdd_gb"]),
            features=r["features"],
            raid_groups=int(r["raid_groups"]),
            raid_layout=r["raid_layout"],
            earlier_paf=bool(r["earlier_paf"]),
        )  # fmt: skip
        for r in load("vts_tvc_configs").records()
    )


def _config_choice(c: Configuration) -> str:
    offered = "PAF" if c.features == "paf" else "base, EHPO"
    return f"{c.tvc_gb:g} GB: {c.hdd_gb:g} GB HDDs, {c.raid_groups} × ({c.raid_layout}), {offered}"


TVC_CONFIG = Input(
    "TVC configuration", "", "tvc_1728_36gb_paf",
    choices=tuple((_config_choice(c), c.id) for c in _configurations()), source=f"{_SRC}, Table 3",
    help="A Table 3 configuration: its capacity, HDDs and RAID layout (which pick Table 4's column) "
    "and the features it is offered with.",
)  # fmt: skip


@cites("vts_tvc_configs")
@declare(feature=FEATURE.but(default=None))
def configurations(feature: str | None = None) -> tuple[Configuration, ...]:
    """The TVC configurations of Table 3, in table order; only those offered with ``feature``.

    Parameters
    ----------
    feature : {"base", "ehpo", "paf"}, optional
        Keep the configurations Table 3 offers with this feature (base and EHPO share
        its "Base/EHPO" columns); default all.

    Returns
    -------
    tuple of Configuration
    """
    if feature is None:
        return _configurations()
    FEATURE.check("feature", feature)
    return tuple(c for c in _configurations() if c.offered_with(feature))


@cites("vts_tvc_configs")
@declare(tvc_config=TVC_CONFIG)
def configuration(tvc_config: str) -> Configuration:
    """The Table 3 configuration with this id (a ``vts_tvc_configs`` row id).

    Raises
    ------
    ValueError
        For an unknown id; the message lists the valid ones.
    """
    TVC_CONFIG.check("tvc_config", tvc_config)
    return next(c for c in _configurations() if c.id == tvc_config)


@cites("vts_tvc_configs")
@declare(feature=FEATURE)
def product_configurations(feature: str = "paf") -> np.ndarray:
    """The TVC capacities Table 3 offers with ``feature``, ascending, unique.

    Parameters
    ----------
    feature : {"base", "ehpo", "paf"}
        Feature level. Base and EHPO share Table 3's "Base/EHPO" columns.

    Returns
    -------
    numpy.ndarray
        Capacities. [GB]
    """
    FEATURE.check("feature", feature)
    return np.unique([c.tvc_gb for c in configurations(feature)])


@cites("vts_tvc_configs")
def tvc_range() -> tuple[float, float]:
    """The smallest and largest capacity of Table 3, 72 and 1728 GB. [GB]"""
    caps = [c.tvc_gb for c in _configurations()]
    return min(caps), max(caps)


@cites("vts_tvc_configs")
@declare(feature=FEATURE)
def default_tvc_gb(feature: str = "paf") -> float:
    """The capacity a model takes when none is given: the largest Table 3 offers with ``feature``. [GB]

    1728 GB with PAF, 1152 GB with base and EHPO (ibm-vts-b18-2000, Table 3).
    """
    return float(np.max(product_configurations(feature)))


@cites("vts_tvc_configs", "vts_ehpo_coefficients")
@declare(tvc_config=TVC_CONFIG)
def table4_column(tvc_config: str) -> float | None:
    """Where a base/EHPO configuration sits on Table 4's capacity axis, by its RAID layout. [GB]

    Table 4 heads its columns with two capacities of one RAID layout, read (data notes,
    ibm-vts-b18-2000, ambiguity 1) as the 36 GB-HDD and the 9 GB-HDD capacity of 4, 8
    and 16 groups of 2+P: "≤288 /72", "576 /144", "1152 /288". A configuration's column
    is therefore set by its number of 2+P groups, not by its capacity: 144 GB is the
    "576 /144" column on 9 GB HDDs (8(2+P)) and the "≤288 /72" column on 36 GB HDDs
    (4(2+P)). Returned as the 36 GB-HDD capacity of the same layout, ``groups x 2 x 36
    GB`` (288, 576 or 1152 GB for Table 4's columns; 864 GB for 12(2+P), which lies
    between two columns and is interpolated there like any capacity).

    Parameters
    ----------
    tvc_config : str
        A Table 3 configuration id (:func:`configurations`).

    Returns
    -------
    float or None
        The capacity on Table 4's axis [GB]; ``None`` for a PAF configuration (6+P),
        which Table 4 (EHPO) does not describe.
    """
    c = configuration(tvc_config)
    if c.features == "paf":
        return None
    return c.raid_groups * _gb_per_group()


@functools.cache
def _gb_per_group() -> float:
    """Table 4's first column pairs 4 groups of 2+P on 36 GB and 9 GB HDDs: its 36 GB-HDD GB per group."""
    first = load("vts_ehpo_coefficients").where(mode="sustained", coefficient="m")
    return float(np.min(first["tvc_gb"])) / 4.0  # 288 GB over 4(2+P) of 36 GB HDDs


@functools.cache
def _capacity_layouts(feature: str) -> dict[float, tuple[Configuration, ...]]:
    """Table 3's configurations offered with ``feature``, by capacity, the one a capacity takes first.

    Base/EHPO: most parity groups first (table order between equals); PAF: the PAF column's,
    else the configurations marked * ("In earlier shipments these configurations were
    available with PAF").
    """
    out: dict[float, list[Configuration]] = {}
    for c in sorted(configurations(feature), key=lambda c: -c.raid_groups):
        out.setdefault(c.tvc_gb, []).append(c)
    if feature == "paf":
        for c in _configurations():
            if c.earlier_paf and c.tvc_gb not in out:
                out[c.tvc_gb] = [c]
    return {cap: tuple(rows) for cap, rows in out.items()}


@cites("vts_tvc_configs")
@declare(tvc_gb=TVC_GB, feature=FEATURE)
def capacity_configuration(tvc_gb: float, feature: str = "paf") -> Configuration | None:
    """The Table 3 configuration a TVC given by capacity alone is taken as.

    Table 3's configuration of that capacity offered with ``feature``; where Table 3
    lists two (144 and 288 GB base/EHPO: 9 GB and 36 GB HDDs), the one with the most
    parity groups, the 9 GB-HDD one (see the module docstring). With PAF, a capacity
    Table 3 offered with PAF only in earlier shipments (144, 288 GB; marked *) is taken
    as that configuration.

    Parameters
    ----------
    tvc_gb : float
        TVC capacity. [GB]
    feature : {"base", "ehpo", "paf"}
        Feature level.

    Returns
    -------
    Configuration or None
        None where Table 3 lists no configuration of that capacity with ``feature``.
    """
    FEATURE.check("feature", feature)
    rows = _capacity_layouts(feature).get(as_scalar("tvc_gb", TVC_GB.check("tvc_gb", tvc_gb)))
    return rows[0] if rows else None


@cites("vts_tvc_configs", "vts_ehpo_coefficients")
@declare(tvc_gb=TVC_GB, feature=FEATURE)
def other_layouts(tvc_gb: float, feature: str = "ehpo") -> tuple[Configuration, ...]:
    """Table 3's other layouts of a capacity: those a capacity given alone is not taken as.

    Only a layout that reads another Table 4 column counts: 4(2+P) of 36 GB HDDs at 144 and
    288 GB (base and EHPO); 72 GB's two rows share 4(2+P). The PAF curves do not depend on
    the layout, so with PAF there are none.

    Parameters
    ----------
    tvc_gb : float
        TVC capacity. [GB]
    feature : {"base", "ehpo", "paf"}
        Feature level.

    Returns
    -------
    tuple of Configuration
        Empty where the capacity has one layout, or Table 3 does not list it.
    """
    FEATURE.check("feature", feature)
    return _other_layouts(as_scalar("tvc_gb", TVC_GB.check("tvc_gb", tvc_gb)), feature)


@functools.cache
def _other_layouts(tvc_gb: float, feature: str) -> tuple[Configuration, ...]:
    rows = _capacity_layouts(feature).get(tvc_gb, ())
    if feature == "paf" or not rows:
        return ()
    return tuple(c for c in rows[1:] if table4_column(c.id) != table4_column(rows[0].id))


def _check_tvc(tvc_gb, stacklevel: int):
    tvc = TVC_GB.check("tvc_gb", tvc_gb)
    lo, hi = tvc_range()
    warn_outside(
        "tvc_gb", tvc, lo, hi, source=f"{_SRC}, Table 3 ({lo:g} to {hi:g} GB)", stacklevel=stacklevel
    )
    return tvc


def _warn(message: str, category: type[Warning], stacklevel: int) -> None:
    warnings.warn(message, category, stacklevel=stacklevel + 1)


def _layout_axis(tvc: np.ndarray, feature: str, stacklevel: int) -> np.ndarray:
    """Table 4's axis for base/EHPO capacities given alone: each Table 3 capacity's layout."""
    axis = tvc
    for cap, rows in _capacity_layouts(feature).items():
        at = tvc == cap
        if not np.any(at):
            continue
        column = table4_column(rows[0].id)
        axis = np.where(at, column, axis)
        others = _other_layouts(cap, feature)
        if others:
            _warn(
                f"tvc_gb={cap:g} GB is in two layouts in Table 3 ({_SRC}): taken as {rows[0].label} "
                f"(Table 4 axis {column:g} GB); for "
                + " or ".join(f"{c.label} give tvc_config={c.id!r}" for c in others),
                LayoutWarning,
                stacklevel + 1,
            )
    return axis


@declare(tvc_gb=TVC_GB.but(default=None), tvc_config=TVC_CONFIG.but(default=None), feature=FEATURE)
def resolve_tvc(tvc_gb, tvc_config, feature: str, *, stacklevel: int = 4):
    """The capacity, and the capacity on Table 4's axis, of a TVC given by size or by configuration.

    Parameters
    ----------
    tvc_gb : float or array_like or None
        Capacity [GB]; ``None`` takes :func:`default_tvc_gb` (or the configuration's).
        Given alone, a capacity is taken as Table 3's configuration of it
        (:func:`capacity_configuration`) for Table 4's column; a capacity Table 3 does
        not list with ``feature`` is read on the 36 GB-HDD axis.
    tvc_config : str or None
        A Table 3 configuration id; its capacity is the capacity, and its RAID layout picks
        the Table 4 column (:func:`table4_column`). ``tvc_gb``, if given, must equal its
        capacity.
    feature : {"base", "ehpo", "paf"}
        Performance option.
    stacklevel : int
        Where a warning points: 4, the caller of the model function that calls this.

    Returns
    -------
    tvc : numpy.ndarray
        The capacity. [GB]
    axis : numpy.ndarray
        The capacity on Table 4's axis (Eq. 3's coefficients are looked up there). [GB]

    Raises
    ------
    ValueError
        For an unknown configuration, or a ``tvc_gb`` that is not the configuration's.

    Warns
    -----
    ExtrapolationWarning
        For a capacity outside Table 3's 72 to 1728 GB; for base or EHPO on a configuration
        Table 3 offers only with PAF (216, 432, 864, 1728 GB on 6+P) or on a capacity above
        the largest base/EHPO configuration (1152 GB) or equal to a PAF-only one (432, 864,
        1728 GB); for PAF on a configuration Table 3 offers only without it.
    LayoutWarning
        For base or EHPO on a capacity alone that Table 3 lists in two layouts (144, 288 GB).
    """
    FEATURE.check("feature", feature)
    src = f"{_SRC}, Table 3"
    if tvc_config is None:
        tvc = _check_tvc(default_tvc_gb(feature) if tvc_gb is None else tvc_gb, stacklevel + 1)
        if feature == "paf":
            return tvc, tvc
        top = default_tvc_gb(feature)
        paf_only = np.setdiff1d(product_configurations("paf"), product_configurations(feature))
        off = np.isin(tvc, paf_only) | (tvc > top * (1 + 1e-12))
        if np.any(off):
            _warn(
                f"tvc_gb={float(np.asarray(tvc)[off].ravel()[0]):g} GB is not offered with {feature} "
                f"({src}: base and EHPO up to {top:g} GB; {', '.join(f'{x:g}' for x in paf_only)} GB "
                "only with PAF); the result is an extrapolation",
                ExtrapolationWarning,
                stacklevel + 1,
            )
        return tvc, _layout_axis(tvc, feature, stacklevel + 1)
    cfg = configuration(tvc_config)
    if tvc_gb is not None:
        given = TVC_GB.check("tvc_gb", tvc_gb)
        if np.any(given != cfg.tvc_gb):
            raise ConstraintError(
                f"tvc_gb={tvc_gb!r} does not match tvc_config={tvc_config!r} ({cfg.tvc_gb:g} GB); give one of them"
            )
    if not cfg.offered_with(feature):
        only = (
            "with PAF"
            if cfg.features == "paf"
            else "without PAF" + (" (earlier shipments: also with PAF)" if cfg.earlier_paf else "")
        )
        _warn(
            f"tvc_config={tvc_config!r} ({cfg.label}) is offered only {only} ({src}); "
            f"evaluated for {feature}, the result is an extrapolation",
            ExtrapolationWarning,
            stacklevel + 1,
        )
    column = table4_column(tvc_config)
    return np.asarray(cfg.tvc_gb), np.asarray(cfg.tvc_gb if column is None else column)


@cites("vts_facts")
@declare(feature=FEATURE)
def physical_drives(feature: str = "paf") -> range:
    """The numbers of 3590 tape drives a configuration with ``feature`` may have. [count]

    "from three to six (four to six with the Performance Accelerator)" (ibm-vts-b18-2000, Sec. 2).
    """
    FEATURE.check("feature", feature)
    f = load("vts_facts")
    key = "physical_drives_paf" if feature == "paf" else "physical_drives"
    return range(int(f.value(f"{key}_low")), int(f.value(f"{key}_high")) + 1)


@cites("vts_facts")
@declare(tvc_gb=TVC_GB, feature=FEATURE)
def virtual_drives(tvc_gb: float, feature: str = "paf") -> int:
    """Virtual drives the VTS presents: 64 with EHPO (or PAF) and at least 144 GB, else 32. [count]

    "With the EHPO feature and a minimum of 144 GB of cache, 64 virtual drives are seen as
    four control units"; the base model presents 32 (ibm-vts-b18-2000, Sec. 2).
    """
    FEATURE.check("feature", feature)
    tvc = as_scalar("tvc_gb", TVC_GB.check("tvc_gb", tvc_gb))
    f = load("vts_facts")
    if feature != "base" and tvc >= f.value("tvc_min_for_64_virtual_drives"):
        return int(f.value("virtual_drives_ehpo"))
    return int(f.value("virtual_drives_base"))
