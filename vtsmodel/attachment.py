"""The host attachment of the VTS B18: block size, ESCON channel distance and SCSI adapters.

Source: ibm-vts-b18-2000. The paper's rates are for 32 KB blocks and short ESCON
channels; :func:`block_size_factor` (Table 2) and :func:`escon_distance_factor`
(Sec. 8.2) move a rate to other blocks and distances, and :func:`scsi_rate` is the
throughput through the SCSI host attachment (Sec. 6). :mod:`vtsmodel.throughput` applies
the first two to its write and read rates.
"""

from __future__ import annotations

import functools

import numpy as np

from vtsmodel._inputs import declare
from vtsmodel._tables import cites, load
from vtsmodel._validation import ConstraintError, broadcast, result, warn_outside
from vtsmodel.paf import _soft_min
from vtsmodel.quantities import ADAPTERS, BLOCK_KB, CF, DIRECTION, ESCON_KM

__all__ = ["SCSI_COMPRESSED_MBS", "block_size_factor", "escon_distance_factor", "scsi_rate"]

_SRC = "ibm-vts-b18-2000"


@functools.cache
def _block_overhead(operation: str) -> tuple[float, float]:
    """Per-block time ``t0`` and streaming time per KB ``1/bw`` fitted to Table 2."""
    t2 = load("vts_block_size")
    op = {"write": "peak_write", "read": "read_hit"}[operation]
    rows = t2.where(operation=op)
    b_small, b_large = float(np.min(rows["block_kb"])), float(np.max(rows["block_kb"]))  # 32, 64 KB
    t_small = b_small / rows.value(block_kb=b_small)  # time per block, in units of KB / (MB/s)
    t_large = b_large / rows.value(block_kb=b_large)
    per_kb = (t_large - t_small) / (b_large - b_small)
    return t_small - b_small * per_kb, per_kb


def _reference_block_kb() -> float:
    """The block size of the paper's rates, 32 KB (Table 2's smaller block; Sec. 3.5.7). [KB]"""
    return float(np.min(load("vts_block_size")["block_kb"]))


@cites("vts_block_size")
@declare(block_kb=BLOCK_KB, operation=DIRECTION)
def block_size_factor(block_kb, *, operation: str = "write"):
    """Gain of a channel-bound host rate from larger blocks, relative to 32 KB blocks.

    Each block costs a fixed time ``t0`` (channel protocol and I/O handling) plus its
    bytes at a streaming rate ``bw``, so a channel-bound rate is
    ``r(B) = B / (t0 + B / bw)``. ``t0`` and ``bw`` are solved from Table 2's two points
    (32 and 64 KB at CF 2.66, 8 ESCON, PAF): peak write 80 -> 103 MB/s, read hit
    64 -> 89 MB/s. The factor is ``r(B) / r(32)``.

    Parameters
    ----------
    block_kb : float or array_like
        Host block size. [KB]
    operation : {"write", "read"}
        ``"write"``: peak write (Table 2 row 1); ``"read"``: read hit (row 2).

    Returns
    -------
    numpy.ndarray or numpy.float64
        Multiplier on a channel-bound rate measured with 32 KB blocks. [-]

    Warns
    -----
    ExtrapolationWarning
        Outside 32 to 64 KB, the block sizes Table 2 measured.

    Notes
    -----
    ibm-vts-b18-2000, Table 2 and Sec. 3.5.7 ("more than 25%").
    """
    DIRECTION.check("operation", operation)
    b = BLOCK_KB.check("block_kb", block_kb)
    t2 = load("vts_block_size")["block_kb"]
    warn_outside(
        "block_kb", b, float(np.min(t2)), float(np.max(t2)), source=f"{_SRC}, Table 2 (32 and 64 KB)"
    )
    t0, per_kb = _block_overhead(operation)
    rate = b / (t0 + b * per_kb)
    ref = _reference_block_kb()
    return result(rate / (ref / (t0 + ref * per_kb)))


@cites("vts_facts")
@declare(km=ESCON_KM, direction=DIRECTION)
def escon_distance_factor(km, *, direction: str = "write"):
    """Host throughput multiplier for the ESCON distance between host and VTS.

    ``factor = 1 - loss * km``: "reduced approximately 0.6% and 2.3%, respectively, per
    kilometer" for writes and reads, relative to distances small compared with 1 km,
    32 KB blocks, IBM ESCON directors.

    Parameters
    ----------
    km : float or array_like
        Channel distance between host and VTS. [km]
    direction : {"write", "read"}
        Which host throughput.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Multiplier in (0, 1]. [-]

    Raises
    ------
    ValueError
        For a negative distance; a ``ConstraintError`` for one at which the linear rule
        leaves no throughput (``km >= 1 / loss``: 43 km for reads, 167 km for writes).

    Warns
    -----
    ExtrapolationWarning
        Beyond the 25 km the rule is stated for.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 8.2.
    """
    DIRECTION.check("direction", direction)
    return result(_distance_factor(ESCON_KM.check("km", km), direction, "km", stacklevel=4))


def _distance_factor(d, direction: str, name: str, *, stacklevel: int = 5):
    """The Sec. 8.2 factor of a checked distance ``d``; ``name`` is the caller's parameter."""
    facts = load("vts_facts")
    loss = facts.value(f"escon_distance_{direction}_loss")  # Sec. 8.2, per km
    if np.any(d >= 1.0 / loss):
        raise ConstraintError(
            f"{name}={float(np.max(d)):g} leaves no {direction} throughput: the rule of Sec. 8.2 "
            f"(-{100 * loss:.2g} % per km) reaches 0 at {1.0 / loss:.4g} km (valid range [0, {1.0 / loss:.4g}))"
        )
    warn_outside(
        name, d, 0.0, facts.value("escon_distance_rule_max"), source=f"{_SRC}, Sec. 8.2 (25 km)",
        stacklevel=stacklevel,
    )  # fmt: skip
    return 1.0 - loss * d  # Sec. 8.2


def _block_gain(block_kb, operation: str | None):
    """``block_size_factor`` for ``operation`` (checked input, 1 at 32 KB); ``None``: 1."""
    if (
        np.ndim(block_kb) == 0
        and isinstance(block_kb, int | float)
        and float(block_kb) == _reference_block_kb()
    ):
        return np.asarray(1.0)
    b = BLOCK_KB.check("block_kb", block_kb)
    if operation is None:
        return np.ones_like(b)
    return np.asarray(block_size_factor(b, operation=operation))


def _distance(escon_km, direction: str):
    if np.ndim(escon_km) == 0 and isinstance(escon_km, int | float) and float(escon_km) == 0.0:
        return np.asarray(1.0)
    return _distance_factor(ESCON_KM.check("escon_km", escon_km), direction, "escon_km")


#: Capacity of the stage behind a SCSI adapter that carries compressed bytes, in
#: compressed MB/s. Not a source value: calibrated, chosen so that the Sec. 6 statements
#: hold (compressibility has "little effect" at 64 KB and below, under 5 % here, while
#: at 256 KB "throughput improves with data compressibility" and reaches "about 23 MB/s"
#: from CF 2.7 up); those statements are its inputs, not evidence for it. [MB/s]
SCSI_COMPRESSED_MBS = 12.0


@functools.cache
def _scsi_block_curve() -> tuple[float, float]:
    """Per-block time and time per KB of one SCSI adapter, through Sec. 6's two points."""
    f = load("vts_facts")
    b1, r1 = f.value("scsi_write_4kb_block"), f.value("scsi_write_4kb")
    b2, r2 = f.value("scsi_write_256kb_block"), f.value("scsi_write_256kb")
    per_kb = (b2 / r2 - b1 / r1) / (b2 - b1)
    return b1 / r1 - b1 * per_kb, per_kb


@cites("vts_facts")
@declare(block_kb=BLOCK_KB, cf=CF.but(default=2.7), adapters=ADAPTERS, direction=DIRECTION)
def scsi_rate(block_kb, cf=2.7, *, adapters: int = 1, direction: str = "write"):
    """Host throughput through the SCSI attachment (peak/fill), by block size and CF.

    Per adapter, writes: ``soft_min(B / (t0 + B / bw), K * CF)``: a per-block curve
    through "near one MB/s with 4 KB blocking" and "about 23 MB/s with 256 KB blocks"
    (at CF 2.7 and above), under a compressed-byte stage of :data:`SCSI_COMPRESSED_MBS`
    that makes the rate grow with CF at large blocks only. Reads "follow the write
    throughput dependence", insensitive to CF (Fig. 13), "up to twenty percent" lower at
    the larger blocks: the model lowers them by 20 % x ``log2(B/64) / log2(256/64)``
    between 64 and 256 KB, 0 below, 20 % above. Two adapters carry twice one adapter's
    rate (two cards at 256 KB, CF 4: about 47 MB/s observed, 46 modelled).

    Parameters
    ----------
    block_kb : float or array_like
        Host block size. [KB]
    cf : float or array_like
        Data compressibility (>= 1). [-]
    adapters : {1, 2}
        SCSI host attachment features installed ("Up to two"), each used with both of
        its busses.
    direction : {"write", "read"}
        Host writes or read hits.

    Returns
    -------
    numpy.ndarray or numpy.float64
        Host rate through the SCSI adapters. [MB/s]

    Warns
    -----
    ExtrapolationWarning
        Outside 4 to 256 KB or CF 1 to 4.

    Notes
    -----
    ibm-vts-b18-2000, Sec. 6 (Figs. 11 to 13: EHPO, 288 GB TVC, no ESCON load). The
    ESCON and SCSI inputs "share an aggregate maximum" of about 47 MB/s.
    """
    DIRECTION.check("direction", direction)
    facts = load("vts_facts")
    n = ADAPTERS.check("adapters", adapters)  # its hi is scsi_adapters_max (a test checks)
    b = BLOCK_KB.check("block_kb", block_kb)
    c = CF.check("cf", cf)
    broadcast(block_kb=b, cf=c, adapters=n)
    lo_b, hi_b = facts.value("scsi_write_4kb_block"), facts.value("scsi_write_256kb_block")
    warn_outside("block_kb", b, lo_b, hi_b, source=f"{_SRC}, Sec. 6 ({lo_b:g} to {hi_b:g} KB)")
    warn_outside(
        "cf", c, facts.value("eq3_cf_min"), facts.value("eq3_cf_max"), source=f"{_SRC}, Secs. 3.5.1, 6"
    )
    t0, per_kb = _scsi_block_curve()
    per_block = b / (t0 + b * per_kb)  # Sec. 6: 1 MB/s at 4 KB, 23 MB/s at 256 KB
    if direction == "write":
        per_adapter = _soft_min(per_block, SCSI_COMPRESSED_MBS * c)
    else:
        lo_kb = facts.value("scsi_cf_insensitive_block_max")
        hi_kb = facts.value("scsi_write_256kb_block")
        share = np.clip(np.log2(b / lo_kb) / np.log2(hi_kb / lo_kb), 0.0, 1.0)
        per_adapter = per_block * (1.0 - facts.value("scsi_read_below_write_max") * share) + 0.0 * c
    return result(n * per_adapter)
