"""The bottleneck view of the VTS B18's write path: what each resource could carry, which binds.

For each resource (host channels, processor, cache disks, tape drives) the view asks how
many host MB/s of writing it could carry if nothing else limited; the least binds. The
capacities are calibrated (:class:`Resources`) to the write rates of
:mod:`vtsmodel.throughput`, which are themselves calibrated to the paper's points: with
its defaults the view returns :func:`~vtsmodel.throughput.write_rate` exactly where both
answer, and agreeing with those points is no evidence for it. Two capacities are project
assumptions, exposed as :data:`PROCESSOR_PEAK_MB_S` and :func:`copy_read_cost_default`.
Source: ibm-vts-b18-2000.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ExtrapolationWarning, broadcast, result
from vtsmodel.attachment import _distance_factor, block_size_factor
from vtsmodel.b18 import FEATURE, resolve_tvc
from vtsmodel.paf import PAF_KNEE_SHARPNESS, PAF_PARAMS, _soft_min
from vtsmodel.quantities import (
    BLOCK_KB,
    CF,
    CHANNELS,
    ESCON_KM,
    MODE,
    PAF_SMALL_TVC_REDUCTION_INPUT,
    TVC_GB,
)
from vtsmodel.throughput import _ehpo_rate, _small_tvc_factor

__all__ = [
    "PROCESSOR_PEAK_MB_S",
    "RESOURCES",
    "Resources",
    "binding_resource",
    "bottleneck_rate",
    "copy_read_cost_default",
    "write_capacities",
]


#: The resources of the bottleneck view, in the order data flows through them on a write.
RESOURCES = ("host channels", "processor", "cache disks", "tape drives")
#: Resources whose load is in compressed bytes (capacity in host MB/s grows with CF).
_PROPORTIONAL = ("cache disks", "tape drives")

#: Host MB/s the RS/6000 carries in peak mode (copy deferred): a **project assumption**.
#: The paper never shows the processor binding in peak mode; the VTS took 103 MB/s with
#: 64 KB blocks (ibm-vts-b18-2000, Table 2), so the processor carries at least that, and
#: 110 MB/s leaves it just above, where it never binds at 32 KB blocks. [MB/s]
PROCESSOR_PEAK_MB_S = 110.0


def copy_read_cost_default() -> float:
    """Cache work of reading a byte back for the copy, relative to writing it (PAF): 0.6. [-]

    A **project assumption** borrowed from "about 60% greater" (ibm-vts-b18-2000,
    Sec. 3.5.4, data row ``peak_over_sustained_gain``): that is a ratio of host rates,
    not a cache measurement. With PAF the cache never binds in sustained mode for any
    value from 0 to 1, so the choice does not move the view's rate.
    """
    return load("vts_facts").value("peak_over_sustained_gain")


def _channels_measured() -> float:
    return load("vts_facts").value("meas_escon_channels_figs7_9")  # Sec. 3.5.1: eight


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
        Host MB/s the RS/6000 carries with the copy deferred: :data:`PROCESSOR_PEAK_MB_S`,
        a project assumption. [MB/s]
    paf_disk_mb_s : float
        Compressed MB/s the cache disks take in full-stride writes (PAF): the PAF peak
        slope ``s`` (about 45 MB/s at CF 1, Sec. 3.5.4). [MB/s]
    paf_copy_read_cost : float
        Cache work of reading a byte back for the copy, relative to writing it, with
        full-stride writes: :func:`copy_read_cost_default`, a project assumption. [-]
    drives_mb_s : float
        Compressed MB/s the tape drives take from the copy process: the PAF sustained
        slope ``s`` (about 19 MB/s at CF 1, Sec. 3.5.3). [MB/s]

    Without PAF the cache disks' capacity is Table 4 itself: the paper says EHPO
    throughput "is determined by the size of the tape cache; i.e., the number of HDDs"
    (Sec. 3.5.1). EHPO and base get PAF's processor and channels: an upper bound, as
    nothing in the paper shows them binding below CF 4.
    """

    channel_mb_s: float = field(default_factory=lambda: PAF_PARAMS["peak"][1] / _channels_measured())
    processor_sustained_mb_s: float = PAF_PARAMS["sustained"][1]
    processor_peak_mb_s: float = PROCESSOR_PEAK_MB_S
    paf_disk_mb_s: float = PAF_PARAMS["peak"][0]
    paf_copy_read_cost: float = field(default_factory=copy_read_cost_default)
    drives_mb_s: float = PAF_PARAMS["sustained"][0]


def _capacities(cf, tvc, feature, mode, channels, block_kb, escon_km, res: Resources):
    # ``tvc`` is the capacity on Table 4's axis (b18.resolve_tvc).
    c = np.asarray(cf, dtype=float)
    ones = np.ones(
        np.broadcast_shapes(
            c.shape, np.shape(tvc), np.shape(channels), np.shape(block_kb), np.shape(escon_km)
        )
    )
    g = 1.0 if np.ndim(block_kb) == 0 and float(block_kb) == 32.0 else block_size_factor(block_kb)
    chan = channels * res.channel_mb_s * g * _distance_factor(escon_km, "write", "escon_km") * ones
    proc = (res.processor_peak_mb_s if mode == "peak" else res.processor_sustained_mb_s) * ones
    if feature == "paf":
        disk = res.paf_disk_mb_s * c * ones
        if mode == "sustained":
            disk = disk / (1.0 + res.paf_copy_read_cost)
    else:
        disk = _ehpo_rate(c if feature == "ehpo" else 1.0, tvc, mode) * ones  # Eq. 3, Table 4
    drives = (np.inf if mode == "peak" else res.drives_mb_s) * c * ones
    return dict(zip(RESOURCES, (chan, proc, disk, drives), strict=True))


_INPUTS = {
    "cf": CF, "tvc_gb": TVC_GB.but(default=None), "feature": FEATURE, "mode": MODE, "channels": CHANNELS,
    "block_kb": BLOCK_KB, "escon_km": ESCON_KM,
}  # fmt: skip


@cites("vts_ehpo_coefficients", "vts_facts", "vts_block_size")
@declare(**_INPUTS)
def write_capacities(
    cf,
    tvc_gb=None,
    *,
    feature: str = "paf",
    mode: str = "sustained",
    channels: int = 8,
    block_kb=32.0,
    escon_km=0.0,
    resources: Resources | None = None,
    tvc_config: str | None = None,
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
    :func:`escon_distance_factor`. The smallest binds (:func:`binding_resource`);
    :func:`bottleneck_rate` combines them into the view's rate.

    Parameters
    ----------
    cf : float or array_like
        Data compressibility (>= 1). [-]
    tvc_gb : float or array_like, optional
        TVC capacity; default the largest configuration of the feature. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option.
    mode : {"sustained", "peak"}
        Write benchmark.
    channels : int
        ESCON channels, 1 to 8 (Sec. 1: "up to eight", data row ``escon_channels_max``).
    block_kb : float
        Host block size. [KB]
    escon_km : float
        ESCON distance between host and VTS. [km]
    resources : Resources, optional
        Capacities; default the calibrated :class:`Resources`.
    tvc_config : str, optional
        A Table 3 configuration id instead of ``tvc_gb``; its RAID layout picks the
        Table 4 column (:func:`vtsmodel.b18.resolve_tvc`).

    Returns
    -------
    dict of str to numpy.ndarray
        Resource name (:data:`RESOURCES`) to host write capacity. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        As :func:`~vtsmodel.throughput.write_rate`: CF above 4 with EHPO or PAF, a TVC
        outside Table 3, a block size outside 32 to 64 KB, a distance beyond 25 km.
    """
    FEATURE.check("feature", feature)
    MODE.check("mode", mode)
    c = CF.check("cf", cf)
    _, axis = resolve_tvc(tvc_gb, tvc_config, feature)
    n = CHANNELS.check("channels", channels)  # Sec. 1: "up to eight" (escon_channels_max; a test checks)
    b = BLOCK_KB.check("block_kb", block_kb)
    d = ESCON_KM.check("escon_km", escon_km)
    broadcast(cf=c, tvc_gb=axis, channels=n, block_kb=b, escon_km=d)
    if feature != "base":
        CF.warn("cf", c)  # as write_rate: Eq. 3 and the PAF curves were measured up to CF 4
    if resources is not None and not isinstance(resources, Resources):
        raise ValueError(
            f"resources={resources!r} must be a Resources (the capacities), or None for the defaults"
        )
    res = Resources() if resources is None else resources
    return {k: result(v) for k, v in _capacities(c, axis, feature, mode, n, b, d, res).items()}


@declare(**_INPUTS)
def binding_resource(cf, tvc_gb=None, *, feature: str = "paf", mode: str = "sustained", **kwargs):
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


@declare(**_INPUTS, paf_small_tvc_reduction=PAF_SMALL_TVC_REDUCTION_INPUT)
def bottleneck_rate(
    cf, tvc_gb=None, *, feature: str = "paf", mode: str = "sustained", paf_small_tvc_reduction=None, **kwargs
):
    """The bottleneck view's write rate, from the capacities of :func:`write_capacities`. [MB/s]

    Without PAF, the least capacity. With PAF, the least capacity that grows with CF
    (cache disks, tape drives: they carry compressed bytes) and the least that does not
    (channels, processor) are joined with the soft minimum of the PAF curves
    (:func:`~vtsmodel.throughput.soft_min`, sharpness ``PAF_KNEE_SHARPNESS``), and in
    sustained mode lowered for smaller caches like the PAF curve
    (:func:`~vtsmodel.throughput.paf_small_tvc_factor`, a project assumption no resource
    of the view explains). With the default :class:`Resources`, eight channels, 32 KB
    blocks and no distance this is :func:`~vtsmodel.throughput.write_rate` exactly, for
    every feature, mode, TVC and CF from 1 to 4.

    Parameters
    ----------
    cf, tvc_gb, feature, mode
        As for :func:`write_capacities`.
    paf_small_tvc_reduction : float, optional
        As for :func:`~vtsmodel.throughput.write_rate`. [-]
    **kwargs
        ``channels``, ``block_kb``, ``escon_km``, ``resources``, ``tvc_config`` of
        :func:`write_capacities`.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host write rate. [MB/s]
    """
    caps = write_capacities(cf, tvc_gb, feature=feature, mode=mode, **kwargs)
    arrays = {k: np.asarray(v, dtype=float) for k, v in caps.items()}
    if feature != "paf":
        return result(np.min(np.stack(list(arrays.values())), axis=0))
    grows = np.min(np.stack([arrays[k] for k in _PROPORTIONAL]), axis=0)
    flat = np.min(np.stack([arrays[k] for k in RESOURCES if k not in _PROPORTIONAL]), axis=0)
    rate = _soft_min(grows, flat, PAF_KNEE_SHARPNESS)
    if mode == "sustained":
        with warnings.catch_warnings():  # write_capacities has warned about this TVC
            warnings.simplefilter("ignore", ExtrapolationWarning)
            tvc, _ = resolve_tvc(tvc_gb, kwargs.get("tvc_config"), feature)
        rate = rate * _small_tvc_factor(tvc, paf_small_tvc_reduction, "paf_small_tvc_reduction")
    return result(rate)
