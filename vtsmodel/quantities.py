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

Every range is finite. Where a quantity has no natural upper end (a size, a rate, a
time, a count), its ``hi`` is a *practical limit* far beyond any tape system
(:data:`BIG_MB`, :data:`BIG_RATE`, ...); a quantity that must be above 0 is at least
:data:`SMALL` (10^-9 of its unit). Inside these ranges every model's result stays a
finite number, and a typing error of a few orders of magnitude is caught instead of
overflowing into ``inf`` or ``nan``.
"""

from __future__ import annotations

from vtsmodel._inputs import Input
from vtsmodel._validation import GROWS_ON_TAPE, CompressionWarning

__all__ = [
    "ABOVE_864_FRACTION",
    "ADAPTERS",
    "ARRIVAL_RATE",
    "BIG_COUNT",
    "BIG_GB",
    "BIG_HOURS",
    "BIG_MB",
    "BIG_RATE",
    "BIG_S",
    "BUS_MB_S",
    "SMALL",
    "CONTROLLER_BUFFER_KB",
    "COPY_DRIVES",
    "DIRECTION",
    "DRIVES_PER_BUS",
    "DRIVES_SHARING",
    "DURATION_HOURS",
    "KNEE_SHARPNESS",
    "MAX_SESSIONS",
    "MOUNT_EQUATION",
    "LOAD_S",
    "LOCATE_S",
    "OFFERED_MB_S",
    "OVERHEAD_S",
    "PAF_SMALL_TVC_REDUCTION_INPUT",
    "PEAK_MB_S",
    "RATE_MB_S",
    "READ_KIND",
    "RECALL_DRIVE",
    "REWIND_UNLOAD_S",
    "ROBOT_MOVES_PER_HOUR",
    "ROBOT_S",
    "SERVERS",
    "SERVICE_S",
    "STEP_MINUTES",
    "SUSTAINED_MB_S",
    "TASK",
    "TOTAL_DRIVES",
    "BACKLOG_GB",
    "BLOCK_KB",
    "BURST_HOURS",
    "CHUNK_LINES",
    "MAX_CHUNK_LINES",
    "SEED",
    "WARMUP_HOURS",
    "CF",
    "CHANNELS",
    "COMPRESSION_RATIO",
    "MIN_COMPRESSION",
    "DATA_MB",
    "DRIVES",
    "ESCON_KM",
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
    "TVC_GB",
    "T_MOUNT_S",
    "T_OVERHEAD_S",
    "VOLUME_MB",
    "WRITE_FRACTION",
]

_VTS = "ibm-vts-b18-2000"

# --- practical limits (see the module docstring) -------------------------------------------------

#: Smallest positive value of a quantity that must be above 0 (a size, a rate, a time, a
#: share that divides): 10^-9 of its unit. Below it a quotient overflows, and no tape
#: system has such a value. [unit of the quantity]
SMALL = 1e-9
#: Largest data size: 10^12 MB (an exabyte). [MB]
BIG_MB = 1e12
#: Largest capacity: 10^9 GB (an exabyte). [GB]
BIG_GB = 1e9
#: Largest rate: 10^9 per second (MB/s, IO/s, requests/s; a petabyte per second). [1/s]
BIG_RATE = 1e9
#: Largest time: 10^9 s (about 32 years). [s]
BIG_S = 1e9
#: Largest time in hours: 10^6 h (about 114 years). [h]
BIG_HOURS = 1e6
#: Largest count: 10^9 (drives, mounts, files). [-]
BIG_COUNT = 1e9
#: Most mount sessions sharing one robot: the exact mean value analysis takes one step
#: per session (100,000 sessions: about 0.03 s); no library runs that many mounts at once. [-]
MAX_SESSIONS = 100_000

# --- the VTS B18 -------------------------------------------------------------------------------

#: A compression ratio below 1 (data that grows on tape) is accepted down to this, with a
#: :class:`~vtsmodel.CompressionWarning`; below, a ratio is more likely a typing error
#: (1/2 for 2:1) than data. Modelling choice, not a source value. [-]
MIN_COMPRESSION = 0.5
_GROWS = (1.0, CompressionWarning, GROWS_ON_TAPE)

CF = Input(
    "compressibility CF", "-", 3.0, lo=MIN_COMPRESSION, hi=100.0, valid=(1.0, 4.0),
    source=f"{_VTS}, Appendix B and Sec. 3.5.1", below=_GROWS,
    help="Host bytes per byte stored (data that does not compress has CF 1; below 1 it grows on tape).",
)  # fmt: skip
TVC_GB = Input(
    "TVC capacity", "GB", 1728.0, lo=SMALL, hi=BIG_GB, valid=(72.0, 1728.0), source=f"{_VTS}, Table 3",
    help="Tape volume cache capacity, physical (Table 3 offers 72 to 1728 GB).",
)  # fmt: skip
# The feature and the Table 3 configuration are the product's: vtsmodel.b18.FEATURE, TVC_CONFIG.
MODE = Input(
    "write mode", "", "sustained", choices=(("sustained write", "sustained"), ("peak write", "peak")),
    source=f"{_VTS}, Secs. 3.1.1, 3.1.2",
    help="Peak: the cache absorbs data with little copying to tape; sustained: copying keeps up.",
)  # fmt: skip
BLOCK_KB = Input(
    "block size", "KB", 32.0, lo=SMALL, hi=1e6, valid=(32.0, 64.0), source=f"{_VTS}, Table 2",
    help="Host block size; the paper's rates are for 32 KB, the QSAM limit.",
)  # fmt: skip
ESCON_KM = Input(
    "ESCON distance", "km", 0.0, lo=0.0, hi=1000.0, valid=(0.0, 25.0), source=f"{_VTS}, Sec. 8.2",
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
    "fill threshold", "-", 0.95, lo=SMALL, hi=1.0,
    source=f"project assumption ({_VTS}, Sec. 3.1.1 names a fill threshold, not its value)",
    help="Fraction of the usable cache at which the VTS starts throttling the input.",
)  # fmt: skip
PEAK_COPY_FRACTION = Input(
    "copy during peak", "-", 0.1, lo=0.0, hi=1.0,
    source=f"project assumption ({_VTS}, Sec. 3.1.1: little copy activity)",
    help="Copy rate to tape during peak write, as a fraction of the sustained copy rate.",
)  # fmt: skip
BACKLOG_GB = Input(
    "un-copied at start", "GB", 0.0, lo=0.0, hi=BIG_GB, source=f"{_VTS}, Fig. 4 caption (none at the start)",
    help="Data not yet copied to tape when the writing begins.",
)  # fmt: skip
BURST_HOURS = Input(
    "burst length",
    "h",
    6.0,
    lo=SMALL,
    hi=BIG_HOURS,
    help="A burst at the peak rate the cache must ride.",
)

# --- import/export ----------------------------------------------------------------------------

DATA_MB = Input(
    "data moved", "MB", 2300.0, lo=0.0, hi=BIG_MB, source=f"{_VTS}, Sec. 7, Eqs. 1 and 2",
    help="Physical (compressed) megabytes moved by the task.",
)  # fmt: skip
MOUNTS = Input(
    "mounts", "-", 10, lo=0, hi=BIG_COUNT, integer=True, source=f"{_VTS}, Sec. 7",
    help="Cartridge mounts, source plus destination.",
)  # fmt: skip
SEARCHES = Input(
    "searches",
    "-",
    0,
    lo=0,
    hi=BIG_COUNT,
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
    "volume size", "MB", 250.0, lo=SMALL, hi=BIG_MB, valid=(100.0, 800.0), source=f"{_VTS}, Fig. 6 caption",
    help="Logical volume, uncompressed (Fig. 6: 100, 250 and 800 MB).",
)  # fmt: skip
DRIVES = Input(
    "recall drives", "-", 4, lo=1, hi=BIG_COUNT, integer=True, source=f"{_VTS}, Sec. 3.2.2 and Fig. 6 caption (four of six)",
    help="Tape drives serving recalls.",
)  # fmt: skip
QUEUE_LENGTH = Input(
    "recalls ahead", "-", 8, lo=0, hi=BIG_COUNT, integer=True, source=f"{_VTS}, Fig. 6",
    help="Recalls in the queue when this one arrives.",
)  # fmt: skip
RECALLS_PER_HOUR = Input(
    "recalls per hour",
    "1/h",
    40.0,
    lo=SMALL,
    hi=BIG_RATE,
    help="Recall requests arriving at random (Poisson).",
)
SERVICE_CV = Input(
    "service time CV",
    "-",
    0.0,
    lo=0.0,
    hi=100.0,
    source="practical limit (the M/G/c approximations are not meant for a CV beyond a few)",
    help="Coefficient of variation of a recall's service time (0: identical).",
)
SESSIONS = Input(
    "mount sessions", "-", 4, lo=1, hi=MAX_SESSIONS, integer=True,
    source="stk-acs4400-cray, Test Results a.; at most MAX_SESSIONS (the exact MVA takes a step per session)",
    help="Concurrent mount sessions sharing one robot.",
)  # fmt: skip

# --- tape drives (the CERN formula) -------------------------------------------------------------

_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"
FILE_MB = Input(
    "file size",
    "MB",
    1000.0,
    lo=SMALL,
    hi=BIG_MB,
    source=_CERN,
    help="Average size of a file read or written.",
)
FILES_PER_MOUNT = Input(
    "files per mount",
    "-",
    10.0,
    lo=1.0,
    hi=BIG_COUNT,
    source=_CERN,
    help="Files read or written in one mount (nRequests).",
)
T_MOUNT_S = Input(
    "mount cycle tMount", "s", 120.0, lo=0.0, hi=BIG_S, source=_CERN,
    help="Drive time one mount costs: robot, load, position, rewind and unload.",
)  # fmt: skip
T_OVERHEAD_S = Input(
    "overhead per file tOverhead",
    "s",
    4.4,
    lo=0.0,
    hi=BIG_S,
    source=_CERN,
    help="Time per file: tape marks, positioning.",
)
SPEED_MB_S = Input(
    "drive speed tSpeed",
    "MB/s",
    30.0,
    lo=SMALL,
    hi=BIG_RATE,
    source=_CERN,
    help="The drive's streaming rate.",
)
STREAM_MB_S = Input(
    "disk-pool stream", "MB/s", 2.0, lo=SMALL, hi=BIG_RATE, source="cern-tape-sizing-2005, ALICE example",
    help="Rate at which one stream from the disk pool feeds the drive.",
)  # fmt: skip
COMPRESSION_RATIO = Input(
    "compression ratio",
    "-",
    2.0,
    lo=MIN_COMPRESSION,
    hi=100.0,
    source="adsm-l-lto-2003",
    below=_GROWS,
    help="Host bytes per byte on tape (below 1: data that grows on tape).",
)


# --- added for the input declarations of every model function ---------------------------------

DIRECTION = Input(
    "direction", "", "write", choices=(("write", "write"), ("read", "read")),
    help="Which way the data goes: written to tape (host writes) or read back.",
)  # fmt: skip
READ_KIND = Input(
    "read", "", "hit", choices=(("read hit", "hit"), ("recall (read miss)", "recall")),
    source=f"{_VTS}, Table 1", help="A read hit finds the volume in the cache; a recall reads it from tape.",
)  # fmt: skip
ADAPTERS = Input(
    "SCSI adapters", "-", 1, lo=1, hi=2, integer=True, source=f"{_VTS}, Sec. 6 (up to two)",
    help="SCSI host attachment features installed.",
)  # fmt: skip
KNEE_SHARPNESS = Input(
    "knee sharpness", "-", 10.0, lo=SMALL, hi=1e6,
    source="modelling choice (vtsmodel.throughput.PAF_KNEE_SHARPNESS)",
    help="How sharply a soft minimum of two rates turns: large is close to min(a, b).",
)  # fmt: skip
PAF_SMALL_TVC_REDUCTION_INPUT = Input(
    "PAF reduction at 216 GB", "-", None, lo=0.0, hi=1.0, hi_open=True,
    source=f"project assumption ({_VTS}, Sec. 3.5.3: 'somewhat reduced'; vtsmodel.throughput.PAF_SMALL_TVC_REDUCTION)",
    help="How much lower the PAF sustained rate is with a 216 GB cache than with 1728 GB.",
)  # fmt: skip
RATE_MB_S = Input("rate", "MB/s", 10.0, lo=SMALL, hi=BIG_RATE, help="A data rate, above 0.")
PEAK_MB_S = Input(
    "peak write rate", "MB/s", None, lo=SMALL, hi=BIG_RATE, source=f"{_VTS}, Sec. 3.1.1",
    help="Host write rate while the cache absorbs data with little copying (default: write_rate).",
)  # fmt: skip
SUSTAINED_MB_S = Input(
    "sustained write rate", "MB/s", None, lo=SMALL, hi=BIG_RATE, source=f"{_VTS}, Sec. 3.1.2",
    help="Host write rate with copying to tape keeping up (default: write_rate); at most the peak rate.",
)  # fmt: skip
OFFERED_MB_S = Input(
    "offered write rate", "MB/s", None, lo=0.0, hi=BIG_RATE,
    help="Host write rate offered to the VTS (default: the peak rate, the host saturating it).",
)  # fmt: skip
ABOVE_864_FRACTION = Input(
    "share counted above 864 GB", "-", None, lo=0.0, hi=1.0,
    source=f"{_VTS}, Sec. 4 and Fig. 10 caption (default derived from the 1200 GB effective capacity)",
    help="Share of the capacity above 864 GB that counts toward time at peak (1: ignore the change).",
)  # fmt: skip
DURATION_HOURS = Input("period", "h", 24.0, lo=SMALL, hi=BIG_HOURS, help="Length of a workload profile.")
STEP_MINUTES = Input(
    "time step", "min", 1.0, lo=SMALL, hi=60.0,
    help="Step of the day simulation; the number of steps (period / step) is limited too.",
)  # fmt: skip
TASK = Input(
    "task", "", "export", choices=(("export", "export"), ("import", "import")), source=f"{_VTS}, Sec. 7"
)

# --- queues ----------------------------------------------------------------------------------------

ARRIVAL_RATE = Input(
    "arrival rate", "1/s", 0.01, lo=0.0, hi=BIG_RATE,
    help="Requests (recalls) arriving per second, at random (Poisson).",
)  # fmt: skip
SERVICE_S = Input(
    "service time", "s", 180.0, lo=SMALL, hi=BIG_S,
    help="Mean time one request keeps a server (a drive) busy.",
)  # fmt: skip
SERVERS = Input(
    "servers", "-", 4, lo=1, hi=BIG_COUNT, integer=True, help="Identical servers (drives) serving the queue."
)

# --- the parts of a mount and a recall --------------------------------------------------------------

ROBOT_S = Input(
    "robot time per mount", "s", None, lo=0.0, hi=BIG_S, source="cern-tape-sizing-2005 (22.5 s, a Powderhorn silo)",
    help="The robot's time for one mount: fetch the cartridge, bring it to the drive.",
)  # fmt: skip
LOAD_S = Input(
    "load and thread", "s", None, lo=0.0, hi=BIG_S, source=f"{_CERN} (15 s, 9940 type drives)",
    help="Time to load the cartridge in the drive until ready.",
)  # fmt: skip
LOCATE_S = Input(
    "locate (search)", "s", None, lo=0.0, hi=BIG_S, source=f"{_CERN} (45 s); {_VTS}, Sec. 7 (about 21 s)",
    help="Average time to position the tape at the data.",
)  # fmt: skip
REWIND_UNLOAD_S = Input(
    "rewind and unload", "s", None, lo=0.0, hi=BIG_S, source=f"{_CERN} (45 s)",
    help="Time to rewind and unload the cartridge after use.",
)  # fmt: skip
OVERHEAD_S = Input(
    "rest of the mount cycle", "s", None, lo=0.0, hi=BIG_S, source=f"{_VTS}, Eq. 1 (2.36 min per mount, derived)",
    help="The 3494 VTS mount cycle less robot, load and rewind/unload.",
)  # fmt: skip
ROBOT_MOVES_PER_HOUR = Input(
    "robot moves per hour", "moves/h", 160.0, lo=SMALL, hi=BIG_RATE, source=_CERN,
    help="Cartridge moves the library robot makes per hour.",
)  # fmt: skip
RECALL_DRIVE = Input(
    "drive", "", "3590B", choices=(("IBM 3590B", "3590B"), ("IBM 3590E", "3590E"), ("STK 3480", "STK3480")),
    source=f"{_VTS}, Sec. 2; stk-acs4400-cray",
    help="Drive whose preset fills the parts of a recall (any catalog drive is accepted too).",
)  # fmt: skip
MOUNT_EQUATION = Input(
    "mount cycle from", "", "export", choices=(("Eq. 1 (export, 2.36 min)", "export"), ("Eq. 2 (import, 3.75 min)", "import")),
    source=f"{_VTS}, Sec. 7", help="Whose per-mount term is one 3494 mount cycle.",
)  # fmt: skip
TOTAL_DRIVES = Input(
    "drives in the VTS", "-", 6, lo=1, hi=BIG_COUNT, integer=True, source=f"{_VTS}, Sec. 2 (up to six 3590)",
    help="Tape drives of the VTS.",
)  # fmt: skip
COPY_DRIVES = Input(
    "drives copying", "-", 2, lo=0, hi=BIG_COUNT, integer=True, source=f"{_VTS}, Sec. 3.2.2",
    help="Drives busy copying from the cache to tape; fewer than the drives in the VTS.",
)  # fmt: skip

# --- drives and their attachment --------------------------------------------------------------------

DRIVES_PER_BUS = Input(
    "drives per SCSI bus", "-", 2, lo=1, hi=BIG_COUNT, integer=True, source="adsm-l-lto-2003",
    help="Drives streaming at once on one SCSI bus.",
)  # fmt: skip
BUS_MB_S = Input(
    "SCSI bus bandwidth", "MB/s", 60.0, lo=SMALL, hi=BIG_RATE, source="adsm-l-lto-2003",
    help="Bandwidth of one SCSI bus.",
)  # fmt: skip
CONTROLLER_BUFFER_KB = Input(
    "controller buffer", "KB", 1000.0, lo=SMALL, hi=1e9, source="stk-acs4400-cray (1 MB)",
    help="Controller buffer, shared equally by the drives configured on it.",
)  # fmt: skip
DRIVES_SHARING = Input(
    "drives sharing the buffer", "-", 8, lo=1, hi=BIG_COUNT, integer=True, source="stk-acs4400-cray (eight)",
    help="Drives configured on the controller buffer.",
)  # fmt: skip


# --- mount logs and read hits -------------------------------------------------------------------------

#: Most lines a mount log is parsed in at once: parsing holds about 500 bytes per line of a
#: chunk, so a chunk of 10^6 lines holds about 500 MB; larger chunks gain no speed (a chunk
#: of 10^5 lines, the default, already costs about 1 microsecond a line). [count]
MAX_CHUNK_LINES = 1_000_000
CHUNK_LINES = Input(
    "lines per chunk", "-", 100_000, lo=1, hi=MAX_CHUNK_LINES, integer=True,
    source="practical limit (memory: about 500 bytes per line of a chunk)",
    help="Lines of a mount log parsed (or passed to the hit kernels) at once; small chunks cost "
    "about 45 microseconds each.",
)  # fmt: skip
WARMUP_HOURS = Input(
    "warm-up left out", "h", 0.0, lo=0.0, hi=BIG_HOURS,
    help="Mounts in the first hours of a log fill the cache but are not counted.",
)  # fmt: skip
SEED = Input(
    "random seed", "-", 0, lo=0, hi=2**32 - 1, integer=True,
    source="numpy's seed range (32-bit); the same seed gives the same draw",
    help="Seed of the random generator of a synthetic (illustrative) input.",
)  # fmt: skip
