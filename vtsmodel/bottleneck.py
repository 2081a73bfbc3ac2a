"""The bottleneck view of the VTS B18's write path: what each resource could carry, which binds.

For each resource (host channels, processor, cache disks, tape drives) the view asks how
many host MB/s of writing it could carry if nothing else limited; the least binds. The
capacities are calibrated (:class:`Resources`) to the write rates of
:mod:`vtsmodel.throughput`; source: ibm-vts-b18-2000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vtsmodel._tables import cites
from vtsmodel._validation import as_float_array, check_choice, result
from vtsmodel.throughput import (
    FEATURES,
    MODES,
    PAF_PARAMS,
    _check_cf,
    _check_tvc,
    _ehpo_rate,
    block_size_factor,
    escon_distance_factor,
)

__all__ = ["RESOURCES", "Resources", "binding_resource", "bottleneck_rate", "write_capacities"]


#: The resources of the bottleneck view, in the order data flows through them on a write.
RESOURCES = ("host channels", "processor", "cache disks", "tape drives")


@dataclass(frozen=True)
class Resources:
    """Capacities of the VTS B18's resources, calibrated to the paper (the defaults).

    The bottleneck view asks, for each resource, how many host MB/s of writing it could
    carry if nothing else limited; the smallest binds. What each resource sees per host
    MB written: the channels and the processor see host bytes; the cache disks and the
    tape drives see compressed bytes (host MB / CF, with EHPO and PAF); in sustained mode
    every byte written is also read back from the cache and copied to tape, which peak
    mode defers (Sec. 3.5.4: "In this manner of operating there is no data flow between
    the VTS and the physical tape drives").

    Attributes
    ----------
    channel_mb_s : float
        Write rate of one ESCON channel with 32 KB blocks: the PAF peak ceiling ``C``
        over eight channels (Secs. 3.5.4, 9: "up to 80 MB/s" with eight channels). [MB/s]
    processor_sustained_mb_s : float
        Host MB/s the RS/6000 carries while also running the copy to tape: the PAF
        sustained ceiling ``C`` ("not sensitive to compression factor" above CF 3). [MB/s]
    processor_peak_mb_s : float
        Host MB/s the RS/6000 carries with the copy deferred. Never seen binding: the VTS
        took 103 MB/s with 64 KB blocks (Table 2), so at least that; 110 is a modelling
        choice. [MB/s]
    paf_disk_mb_s : float
        Compressed MB/s the cache disks take in full-stride writes (PAF): the PAF peak
        slope ``s`` (about 45 MB/s at CF 1, Sec. 3.5.4). [MB/s]
    paf_copy_read_cost : float
        Cache work of reading a byte back for the copy, relative to writing it, with
        full-stride writes; 0.6 from "about 60% greater" (Sec. 3.5.4), a modelling
        choice: with PAF the cache never binds in sustained mode. [-]
    drives_mb_s : float
        Compressed MB/s the tape drives take from the copy process: the PAF sustained
        slope ``s`` (about 19 MB/s at CF 1, Sec. 3.5.3). [MB/s]

    Without PAF the cache disks' capacity is Table 4 itself: the paper says EHPO
    throughput "is determined by the size of the tape cache; i.e., the number of HDDs"
    (Sec. 3.5.1). EHPO and base get PAF's processor and channels: an upper bound, as
    nothing in the paper shows them binding below CF 4.
    """

    channel_mb_s: float = PAF_PARAMS["peak"][1] / 8.0
    processor_sustained_mb_s: float = PAF_PARAMS["sustained"][1]
    processor_peak_mb_s: float = 110.0
    paf_disk_mb_s: float = PAF_PARAMS["peak"][0]
    paf_copy_read_cost: float = 0.6
    drives_mb_s: float = PAF_PARAMS["sustained"][0]


def _capacities(cf, tvc, feature, mode, channels, block_kb, escon_km, res: Resources):
    c = np.asarray(cf, dtype=float)
    ones = np.ones(np.broadcast(c, tvc).shape)
    g = 1.0 if np.ndim(block_kb) == 0 and float(block_kb) == 32.0 else block_size_factor(block_kb)
    chan = channels * res.channel_mb_s * g * escon_distance_factor(escon_km) * ones
    proc = (res.processor_peak_mb_s if mode == "peak" else res.processor_sustained_mb_s) * ones
    if feature == "paf":
        disk = res.paf_disk_mb_s * c * ones
        if mode == "sustained":
            disk = disk / (1.0 + res.paf_copy_read_cost)
    else:
        disk = _ehpo_rate(c if feature == "ehpo" else 1.0, tvc, mode) * ones  # Eq. 3, Table 4
    drives = (np.inf if mode == "peak" else res.drives_mb_s) * c * ones
    return dict(zip(RESOURCES, (chan, proc, disk, drives), strict=True))


@cites("vts_ehpo_coefficients", "vts_facts", "vts_block_size")
def write_capacities(
    cf,
    tvc_gb=1728.0,
    *,
    feature: str = "paf",
    mode: str = "sustained",
    channels: int = 8,
    block_kb=32.0,
    escon_km=0.0,
    resources: Resources | None = None,
) -> dict[str, np.ndarray]:
    """Host MB/s of writing each resource of the VTS could carry, by itself.

    ==============  =============================  ===============================
    resource        peak                           sustained
    ==============  =============================  ===============================
    host channels   n * c_ch * g(B) * f(km)        same
    processor       P_peak                         P_sus
    cache disks     base: Table 4 at CF 1;         base: Table 4 at CF 1;
                    EHPO: Eq. 3; PAF: D * CF       EHPO: Eq. 3; PAF: D * CF / (1 + ρ)
    tape drives     not used (inf)                 T * CF (base: T)
    ==============  =============================  ===============================

    with the :class:`Resources` capacities, ``g`` = :func:`block_size_factor` and ``f`` =
    :func:`escon_distance_factor`. The smallest binds (:func:`binding_resource`); with
    the defaults the minimum reproduces :func:`write_rate`: exactly for base and EHPO,
    and within the soft knee (7 % at most) for PAF.

    Parameters
    ----------
    cf : float or array_like
        Data compressibility (>= 1). [-]
    tvc_gb : float or array_like
        TVC capacity. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option.
    mode : {"sustained", "peak"}
        Write benchmark.
    channels : int
        ESCON channels, 1 to 8 (Sec. 1: "up to eight").
    block_kb : float
        Host block size. [KB]
    escon_km : float
        ESCON distance between host and VTS. [km]
    resources : Resources, optional
        Capacities; default the calibrated :class:`Resources`.

    Returns
    -------
    dict of str to numpy.ndarray
        Resource name (:data:`RESOURCES`) to host write capacity. [MB/s]
    """
    check_choice("feature", feature, FEATURES)
    check_choice("mode", mode, MODES)
    c = _check_cf(cf)
    tvc = _check_tvc(tvc_gb)
    n = float(as_float_array("channels", channels, lo=1, hi=8, integer=True))
    res = Resources() if resources is None else resources
    return {k: result(v) for k, v in _capacities(c, tvc, feature, mode, n, block_kb, escon_km, res).items()}


def binding_resource(cf, tvc_gb=1728.0, *, feature: str = "paf", mode: str = "sustained", **kwargs):
    """Name of the resource that limits the write rate: the one of least capacity.

    Takes the arguments of :func:`write_capacities`. Returns a ``str`` for scalar input,
    an array of names otherwise.

    Examples
    --------
    >>> binding_resource(3, 1152, feature="ehpo")
    'cache disks'
    >>> binding_resource(3, feature="paf", mode="peak")
    'host channels'
    """
    caps = write_capacities(cf, tvc_gb, feature=feature, mode=mode, **kwargs)
    stack = np.stack([np.asarray(v, dtype=float) for v in caps.values()])
    names = np.array(RESOURCES, dtype=object)[np.argmin(stack, axis=0)]
    return str(names) if np.ndim(names) == 0 else names


def bottleneck_rate(cf, tvc_gb=1728.0, *, feature: str = "paf", mode: str = "sustained", **kwargs):
    """The bottleneck view's write rate: the least of :func:`write_capacities`. [MB/s]"""
    caps = write_capacities(cf, tvc_gb, feature=feature, mode=mode, **kwargs)
    return result(np.min(np.stack([np.asarray(v, dtype=float) for v in caps.values()]), axis=0))
