"""The quantities the models take, each declared once (:class:`~vtsmodel.Input`).

A declaration here gives a quantity's label, unit, default, the range in which it means
something (a model function rejects values outside it with ``ValueError``) and, where a
source measured or stated it, the range the source validated (outside it a model warns
with :class:`~vtsmodel.ExtrapolationWarning`) with that source's locator. Model functions
check their arguments with these declarations and record them with
:func:`~vtsmodel.declare`; the lessons derive their controls from them with
:meth:`Input.but <vtsmodel.Input.but>` (a slider needs finite ends, a lesson its own
default), so the model, the control, the sheet column and the caption say the same thing.

Defaults that are modelling choices say so in their ``source``.
"""

from __future__ import annotations

from vtsmodel._inputs import Input
from vtsmodel.tvc import configurations as _configurations

__all__ = [
    "BACKLOG_GB",
    "BLOCK_KB",
    "BURST_HOURS",
    "CF",
    "CHANNELS",
    "COMPRESSION_RATIO",
    "DATA_MB",
    "DRIVES",
    "ESCON_KM",
    "FEATURE",
    "FILES_PER_MOUNT",
    "FILE_MB",
    "INTERFERENCE",
    "MODE",
    "MOUNTS",
    "PEAK_COPY_FRACTION",
    "QUEUE_LENGTH",
    "READ_HIT",
    "RECALLS_PER_HOUR",
    "SEARCHES",
    "SERVICE_CV",
    "SESSIONS",
    "SPEED_MB_S",
    "STREAM_MB_S",
    "THRESHOLD",
    "TVC_CONFIG",
    "TVC_GB",
    "T_MOUNT_S",
    "T_OVERHEAD_S",
    "VOLUME_MB",
    "WRITE_FRACTION",
]

_VTS = "ibm-vts-b18-2000"

# --- the VTS B18 -------------------------------------------------------------------------------

CF = Input(
    "compressibility CF", "-", 3.0, lo=1.0, valid=(1.0, 4.0), source=f"{_VTS}, Appendix B and Sec. 3.5.1",
    help="Host bytes per byte stored (data that does not compress has CF 1).",
)  # fmt: skip
TVC_GB = Input(
    "TVC capacity", "GB", 1728.0, lo=0.0, lo_open=True, valid=(72.0, 1728.0), source=f"{_VTS}, Table 3",
    help="Tape volume cache capacity, physical (Table 3 offers 72 to 1728 GB).",
)  # fmt: skip


def _config_label(c) -> str:
    offered = "PAF" if c.features == "paf" else "base, EHPO"
    return f"{c.tvc_gb:g} GB: {c.hdd_gb:g} GB HDDs, {c.raid_groups} × ({c.raid_layout}), {offered}"


TVC_CONFIG = Input(
    "TVC configuration", "", "tvc_1728_36gb_paf",
    choices=tuple((_config_label(c), c.id) for c in _configurations()), source=f"{_VTS}, Table 3",
    help="A Table 3 configuration: its capacity, HDDs and RAID layout (which pick Table 4's column) "
    "and the features it is offered with.",
)  # fmt: skip
FEATURE = Input(
    "feature", "", "paf", choices=(("base", "base"), ("EHPO", "ehpo"), ("PAF (with EHPO)", "paf")),
    source=f"{_VTS}, Secs. 3.1, 3.5",
    help="Performance option: base, EHPO (compression at the host adapters) or PAF (with EHPO).",
)  # fmt: skip
MODE = Input(
    "write mode", "", "sustained", choices=(("sustained write", "sustained"), ("peak write", "peak")),
    source=f"{_VTS}, Secs. 3.1.1, 3.1.2",
    help="Peak: the cache absorbs data with little copying to tape; sustained: copying keeps up.",
)  # fmt: skip
BLOCK_KB = Input(
    "block size", "KB", 32.0, lo=0.0, lo_open=True, valid=(32.0, 64.0), source=f"{_VTS}, Table 2",
    help="Host block size; the paper's rates are for 32 KB, the QSAM limit.",
)  # fmt: skip
ESCON_KM = Input(
    "ESCON distance", "km", 0.0, lo=0.0, valid=(0.0, 25.0), source=f"{_VTS}, Sec. 8.2",
    help="Channel distance host to VTS: -0.6 % of write and -2.3 % of read throughput per km.",
)  # fmt: skip
CHANNELS = Input(
    "ESCON channels", "-", 8, lo=1, hi=8, integer=True, source=f"{_VTS}, Sec. 1 (up to eight)",
    help="ESCON channels attached.",
)  # fmt: skip
WRITE_FRACTION = Input(
    "write fraction", "-", 0.6, lo=0.0, hi=1.0, source=f"{_VTS}, Sec. 3.5.6 (60/40 mix)",
    help="Share of the host bytes that are writes.",
)  # fmt: skip
READ_HIT = Input(
    "read hit ratio", "-", 0.5, lo=0.0, hi=1.0, source=f"{_VTS}, Sec. 3.5.6 (50 % in the typical mix)",
    help="Share of the read bytes found in the cache; the rest are recalled from tape.",
)  # fmt: skip

# --- the tape volume cache ---------------------------------------------------------------------

THRESHOLD = Input(
    "fill threshold", "-", 0.95, lo=0.0, hi=1.0, lo_open=True,
    source=f"project assumption ({_VTS}, Sec. 3.1.1 names a fill threshold, not its value)",
    help="Fraction of the usable cache at which the VTS starts throttling the input.",
)  # fmt: skip
PEAK_COPY_FRACTION = Input(
    "copy during peak", "-", 0.1, lo=0.0, hi=1.0,
    source=f"project assumption ({_VTS}, Sec. 3.1.1: little copy activity)",
    help="Copy rate to tape during peak write, as a fraction of the sustained copy rate.",
)  # fmt: skip
BACKLOG_GB = Input(
    "un-copied at start", "GB", 0.0, lo=0.0, source=f"{_VTS}, Fig. 4 caption (none at the start)",
    help="Data not yet copied to tape when the writing begins.",
)  # fmt: skip
BURST_HOURS = Input(
    "burst length", "h", 6.0, lo=0.0, lo_open=True, help="A burst at the peak rate the cache must ride."
)

# --- import/export ----------------------------------------------------------------------------

DATA_MB = Input(
    "data moved", "MB", 2300.0, lo=0.0, source=f"{_VTS}, Sec. 7, Eqs. 1 and 2",
    help="Physical (compressed) megabytes moved by the task.",
)  # fmt: skip
MOUNTS = Input(
    "mounts", "-", 10, lo=0, integer=True, source=f"{_VTS}, Sec. 7",
    help="Cartridge mounts, source plus destination.",
)  # fmt: skip
SEARCHES = Input(
    "searches",
    "-",
    0,
    lo=0,
    integer=True,
    source=f"{_VTS}, Sec. 7",
    help="Searches along a tape, about 21 s each.",
)
INTERFERENCE = Input(
    "other work", "", "none",
    choices=(("none", "none"), ("host in peak write", "peak_write"), ("saturated recalls", "recall")),
    source=f"{_VTS}, Sec. 7", help="What else the VTS is doing meanwhile.",
)  # fmt: skip

# --- recalls and queues -----------------------------------------------------------------------

VOLUME_MB = Input(
    "volume size", "MB", 250.0, lo=0.0, lo_open=True, valid=(100.0, 800.0), source=f"{_VTS}, Fig. 6 caption",
    help="Logical volume, uncompressed (Fig. 6: 100, 250 and 800 MB).",
)  # fmt: skip
DRIVES = Input(
    "recall drives", "-", 4, lo=1, integer=True, source=f"{_VTS}, Sec. 3.2.2 and Fig. 6 caption (four of six)",
    help="Tape drives serving recalls.",
)  # fmt: skip
QUEUE_LENGTH = Input(
    "recalls ahead", "-", 8, lo=0, integer=True, source=f"{_VTS}, Fig. 6",
    help="Recalls in the queue when this one arrives.",
)  # fmt: skip
RECALLS_PER_HOUR = Input(
    "recalls per hour",
    "1/h",
    40.0,
    lo=0.0,
    lo_open=True,
    help="Recall requests arriving at random (Poisson).",
)
SERVICE_CV = Input(
    "service time CV",
    "-",
    0.0,
    lo=0.0,
    help="Coefficient of variation of a recall's service time (0: identical).",
)
SESSIONS = Input(
    "mount sessions", "-", 4, lo=1, integer=True, source="stk-acs4400-cray, Test Results a.",
    help="Concurrent mount sessions sharing one robot.",
)  # fmt: skip

# --- tape drives (the CERN formula) -------------------------------------------------------------

_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"
FILE_MB = Input(
    "file size",
    "MB",
    1000.0,
    lo=0.0,
    lo_open=True,
    source=_CERN,
    help="Average size of a file read or written.",
)
FILES_PER_MOUNT = Input(
    "files per mount", "-", 10.0, lo=1.0, source=_CERN, help="Files read or written in one mount (nRequests)."
)
T_MOUNT_S = Input(
    "mount cycle tMount", "s", 120.0, lo=0.0, source=_CERN,
    help="Drive time one mount costs: robot, load, position, rewind and unload.",
)  # fmt: skip
T_OVERHEAD_S = Input(
    "overhead per file tOverhead",
    "s",
    4.4,
    lo=0.0,
    source=_CERN,
    help="Time per file: tape marks, positioning.",
)
SPEED_MB_S = Input(
    "drive speed tSpeed", "MB/s", 30.0, lo=0.0, lo_open=True, source=_CERN, help="The drive's streaming rate."
)
STREAM_MB_S = Input(
    "disk-pool stream", "MB/s", 2.0, lo=0.0, lo_open=True, source="cern-tape-sizing-2005, ALICE example",
    help="Rate at which one stream from the disk pool feeds the drive.",
)  # fmt: skip
COMPRESSION_RATIO = Input(
    "compression ratio", "-", 2.0, lo=1.0, source="adsm-l-lto-2003", help="Host bytes per byte on tape."
)
