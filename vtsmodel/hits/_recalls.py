"""The recall queue a cache size lets through (private: :func:`vtsmodel.hits.recall_waits`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._validation import as_scalar
from vtsmodel.hits._curve import _S_PER_H, CapacityHits
from vtsmodel.mountlog import SIZE_BASIS
from vtsmodel.quantities import CF, COPY_DRIVES, RECALL_DRIVE, SERVICE_CV, TOTAL_DRIVES
from vtsmodel.queueing import QUANTILE


@dataclass(frozen=True, eq=False)
class RecallWaits:
    """The recall queue at given cache capacities (one element per capacity).

    Attributes
    ----------
    recalls_per_hour : numpy.ndarray
        Recall arrivals used: the log's mean rate, or its busiest hour's count. [1/h]
    recall_drives : int
        Drives left for recalls: total minus copying (ibm-vts-b18-2000, Sec. 3.2.2). [count]
    volume_mb : numpy.ndarray
        Mean recalled volume, uncompressed (NaN: no recalls). [MB]
    service_s : numpy.ndarray
        Time one recall keeps a drive busy (:func:`vtsmodel.recall.recall_service_s`). [s]
    ready_s : numpy.ndarray
        A recall's time to ready on a free drive (:func:`vtsmodel.recall.recall_ready_s`). [s]
    utilisation : numpy.ndarray
        Offered load per recall drive; at 1 or above the queue grows without bound. [-]
    mean_wait_s : numpy.ndarray
        Mean wait for a drive (M/D/c, Cosmetatos, or M/G/c; inf: no steady state; 0: no
        recalls). [s]
    wait_s : numpy.ndarray
        Wait for a drive at ``percentile`` (:func:`vtsmodel.queueing.wait_percentile`). [s]
    response_s : numpy.ndarray
        Recall ready at ``percentile``: ``wait_s + ready_s`` (NaN: no recalls). [s]
    percentile : float
        The quantile of the waits. [-]
    """

    recalls_per_hour: np.ndarray
    recall_drives: int
    volume_mb: np.ndarray
    service_s: np.ndarray
    ready_s: np.ndarray
    utilisation: np.ndarray
    mean_wait_s: np.ndarray
    wait_s: np.ndarray
    response_s: np.ndarray
    percentile: float


#: Recall arrivals below this count as none. [1/h]
_NO_RECALLS_PER_HOUR = 1e-9


@declare(
    size_basis=SIZE_BASIS.but(default=None), cf=CF.but(default=1.0), total_drives=TOTAL_DRIVES,
    copy_drives=COPY_DRIVES, drive=RECALL_DRIVE, percentile=QUANTILE, service_cv=SERVICE_CV,
)  # fmt: skip
def recall_waits(
    hits: CapacityHits,
    *,
    size_basis: str,
    cf: float = 1.0,
    total_drives: int = 6,
    copy_drives: int = 2,
    drive: str = "3590B",
    percentile: float = 0.95,
    busiest_hour: bool = False,
    service_cv: float = 0.0,
) -> RecallWaits:
    """The recall queue's waits at each capacity: the recalls a cache size lets through, queued.

    Recalls arrive at random (Poisson) at ``recalls_per_hour`` (or, with ``busiest_hour``,
    the count of the busiest clock hour) and queue for the drives not copying
    (:func:`vtsmodel.recall.recall_drives`); each keeps a drive busy for
    :func:`vtsmodel.recall.recall_service_s` of the log's mean recalled volume at that
    capacity. The wait is M/D/c (``service_cv=0``, identical recalls: Cosmetatos) or M/G/c
    (Allen-Cunneen), its percentile :func:`vtsmodel.queueing.wait_percentile`; the recall
    is ready ``recall_ready_s`` after its drive starts (ibm-vts-b18-2000, Secs. 3.2.2, 3.4).

    Parameters
    ----------
    hits : CapacityHits
        From :meth:`HitCurve.at` or :func:`configuration_hits`.
    size_basis : {"compressed", "host"}
        What the log's sizes measure (:attr:`HitCurve.size_basis`): a compressed size
        times ``cf`` is the volume's host size.
    cf : float
        Data compressibility (the read at the drive moves ``volume / cf``). [-]
    total_drives : int
        3590 drives in the VTS (three to six, Sec. 2). [count]
    copy_drives : int
        Drives busy copying the cache to tape, fewer than ``total_drives``. [count]
    drive : str
        The recall drive (:func:`vtsmodel.recall.drive_preset`: "3590B", "3590E", or a
        catalog drive).
    percentile : float
        Quantile of the wait, in (0, 1). [-]
    busiest_hour : bool
        Use the busiest clock hour's recalls instead of the mean rate (the exact curve
        only: a sampled one keeps no times, NaN).
    service_cv : float
        Coefficient of variation of the service time (0: identical recalls). [-]

    Returns
    -------
    RecallWaits
    """
    from vtsmodel.queueing import utilisation, wait_mdc, wait_mgc, wait_percentile
    from vtsmodel.recall import drive_preset, recall_drives, recall_ready_s, recall_service_s

    if not isinstance(hits, CapacityHits):
        raise ValueError(f"hits={hits!r} must be a CapacityHits (HitCurve.at, configuration_hits)"[:300])
    SIZE_BASIS.check("size_basis", size_basis)
    c = as_scalar("cf", CF.check("cf", cf))
    pct = as_scalar("percentile", QUANTILE.check("percentile", percentile))
    cv = as_scalar("service_cv", SERVICE_CV.check("service_cv", service_cv))
    for name, inp, value in (
        ("total_drives", TOTAL_DRIVES, total_drives),
        ("copy_drives", COPY_DRIVES, copy_drives),
    ):
        as_scalar(name, inp.check(name, value))
    left = int(recall_drives(total_drives, copy_drives))
    drive_preset(drive)  # a drive without a preset is refused here, with recalls or without
    rate = np.asarray(hits.peak_hour_recalls if busiest_hour else hits.recalls_per_hour, dtype=float)
    volume = np.asarray(hits.mean_recall_mb, dtype=float) * (c if size_basis == "compressed" else 1.0)
    shape = rate.shape
    nan = np.full(shape, np.nan)
    service, ready = nan.copy(), nan.copy()
    some = np.isfinite(volume) & (volume > 0)
    if some.any():
        service[some] = recall_service_s(volume[some], cf=c, drive=drive)
        ready[some] = recall_ready_s(volume[some], cf=c, drive=drive)
    busy = np.isfinite(rate) & (rate > _NO_RECALLS_PER_HOUR) & some
    known = np.isfinite(rate)
    lam = np.where(busy, rate, 0.0) / _S_PER_H
    rho = np.where(known, 0.0, np.nan)  # no recalls: an idle queue
    mean_wait = np.where(known, 0.0, np.nan)
    wait = mean_wait.copy()
    response = np.full(shape, np.nan)  # no recalls: no response time
    if busy.any():
        rho[busy] = utilisation(lam[busy], service[busy], left)
        stable = busy & (rho < 1.0)
        mean_wait[busy & ~stable] = wait[busy & ~stable] = response[busy & ~stable] = np.inf
        if stable.any():
            s, lam_s = service[stable], lam[stable]
            mean_wait[stable] = wait_mdc(lam_s, s, left) if cv == 0.0 else wait_mgc(lam_s, s, left, cv)
            wait[stable] = wait_percentile(lam_s, s, left, pct, service_cv=cv)
            response[stable] = wait[stable] + ready[stable]
    return RecallWaits(
        recalls_per_hour=rate,
        recall_drives=left,
        volume_mb=np.where(some, volume, np.nan),
        service_s=service,
        ready_s=ready,
        utilisation=rho,
        mean_wait_s=mean_wait,
        wait_s=wait,
        response_s=response,
        percentile=pct,
    )
