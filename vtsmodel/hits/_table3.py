"""Read hits of Table 3's configurations, and the capacity a physical TVC holds (private)."""

from __future__ import annotations

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._tables import cites
from vtsmodel._validation import as_scalar, result
from vtsmodel.b18 import FEATURE, FEATURE_LABELS, configurations, product_configurations
from vtsmodel.hits._curve import CapacityHits, ConfigurationHits, HitCurve
from vtsmodel.mountlog import SIZE_BASIS
from vtsmodel.quantities import CF, TVC_GB
from vtsmodel.tvc import cache_cf


# --------------------------------------------------------------------------------------
# Table 3 configurations
# --------------------------------------------------------------------------------------
@cites("vts_tvc_configs", "ibm-vts-b18-2000")
@declare(feature=FEATURE.but(default=None), cf=CF.but(default=1.0))
def configuration_hits(
    curve: HitCurve, *, feature: str | None = None, cf: float = 1.0, recall_specific_writes: bool = True
) -> ConfigurationHits:
    """Read hits and recall mounts per hour of each Table 3 TVC capacity.

    The input the recall queue (:mod:`vtsmodel.queueing`: ``arrival_rate =
    recalls_per_hour / 3600``), the cache-day simulation (its ``read_hit``) and the
    planner take, one value per configuration instead of one guess.

    Parameters
    ----------
    curve : HitCurve
        From :func:`lru_hit_curve` or :func:`shards_hit_curve`.
    feature : {None, "base", "ehpo", "paf"}
        The capacities Table 3 offers with this feature, and its rule for what the cache
        holds (base: host-size data; EHPO, PAF: compressed). None: every Table 3
        capacity, the cache holding compressed data (each capacity is offered with EHPO
        or PAF).
    cf : float
        Data compressibility, to convert between host and compressed sizes where the
        log's size basis and the cache's differ; 1 means the data does not compress. [-]
    recall_specific_writes : bool
        Count specific-mount writes that miss as recalls (ibm-vts-b18-2000, Sec. 3.4).

    Returns
    -------
    ConfigurationHits
        One element per capacity, ascending; ``capacity_gb`` is the capacity in the
        log's size basis that was compared with the volumes. [GB] NaN where there is
        nothing to count (:class:`CapacityHits`).
    """
    if not isinstance(curve, HitCurve):
        raise ValueError(f"curve={curve!r} must be a HitCurve (lru_hit_curve, shards_hit_curve)"[:300])
    if feature is not None:
        FEATURE.check("feature", feature)
    c = as_scalar("cf", CF.check("cf", cf))
    table3 = configurations()
    tvc = product_configurations(feature) if feature is not None else np.unique([t.tvc_gb for t in table3])
    names = {"base_ehpo": "base/EHPO", "paf": FEATURE_LABELS["paf"]}
    offered = tuple(
        ", ".join(names[f] for f in sorted({t.features for t in table3 if t.tvc_gb == g})) for g in tvc
    )
    compared = compared_capacity_gb(tvc, size_basis=curve.size_basis, feature=feature or "ehpo", cf=c)
    h = curve.at(compared, recall_specific_writes=recall_specific_writes)
    return ConfigurationHits(
        **{f: getattr(h, f) for f in CapacityHits.__dataclass_fields__}, tvc_gb=tvc, offered_with=offered
    )


#: A physical TVC capacity compared with a log's volumes: 0 GB holds nothing. [GB]
_TVC_GB = TVC_GB.but(lo=0.0, valid=None)
_BY = Input("read-hit ratio of", "", "bytes", choices=(("bytes read", "bytes"), ("read mounts", "count")),
            help="Share of the bytes read, or of the read mounts.")  # fmt: skip


@declare(tvc_gb=_TVC_GB, size_basis=SIZE_BASIS, feature=FEATURE, cf=CF.but(default=1.0))
def compared_capacity_gb(tvc_gb, *, size_basis: str = "compressed", feature: str = "paf", cf: float = 1.0):
    """The capacity, in a log's size basis, that a physical TVC holds. [GB]

    With EHPO or PAF the cache holds compressed volumes, the base VTS host-size ones
    (ibm-vts-b18-2000, Sec. 2; :func:`vtsmodel.tvc.cache_cf`): a log of compressed sizes
    is compared with ``tvc_gb`` (EHPO, PAF) or ``tvc_gb / cf`` (base); a log of host sizes
    with ``tvc_gb * cf`` (EHPO, PAF) or ``tvc_gb`` (base).

    Parameters
    ----------
    tvc_gb : float or array_like
        Physical TVC capacity. [GB]
    size_basis : {"compressed", "host"}
        What the log's sizes measure (:attr:`HitCurve.size_basis`).
    feature : {"base", "ehpo", "paf"}
        The feature, which decides what the cache holds.
    cf : float
        Data compressibility. [-]

    Returns
    -------
    numpy value
        Capacity in the log's size basis. [GB]
    """
    SIZE_BASIS.check("size_basis", size_basis)
    FEATURE.check("feature", feature)
    tvc = _TVC_GB.check("tvc_gb", tvc_gb)
    c = as_scalar("cf", CF.check("cf", cf))
    host_per_physical = float(cache_cf(c, feature))  # host MB held per physical MB of cache
    factor = host_per_physical if size_basis == "host" else host_per_physical / c
    return result(tvc * factor)


@declare(tvc_gb=_TVC_GB, feature=FEATURE, cf=CF.but(default=1.0), by=_BY)
def tvc_read_hit(curve: HitCurve, tvc_gb, *, feature: str = "paf", cf: float = 1.0, by: str = "bytes"):
    """The read-hit ratio of a physical TVC, from the curve: what the cache-day simulation takes.

    :func:`vtsmodel.tvc_day.simulate_tvc` and the planner count reads in MB (recalled MB =
    read MB x (1 - read_hit)), so the ratio by bytes is their input; ``by="count"`` gives
    the share of read mounts that hit.

    Parameters
    ----------
    curve : HitCurve
        From :func:`lru_hit_curve` or :func:`shards_hit_curve`.
    tvc_gb : float or array_like
        Physical TVC capacity (a Table 3 capacity, or any). [GB]
    feature : {"base", "ehpo", "paf"}
        What the cache holds (:func:`compared_capacity_gb`).
    cf : float
        Data compressibility. [-]
    by : {"bytes", "count"}
        Share of the bytes read, or of the read mounts.

    Returns
    -------
    numpy value
        Read-hit ratio (NaN when the log has no reads). [-]
    """
    if not isinstance(curve, HitCurve):
        raise ValueError(f"curve={curve!r} must be a HitCurve (lru_hit_curve, shards_hit_curve)"[:300])
    _BY.check("by", by)
    cap = compared_capacity_gb(tvc_gb, size_basis=curve.size_basis, feature=feature, cf=cf)
    return curve.read_byte_hit_ratio(cap) if by == "bytes" else curve.read_hit_ratio(cap)
