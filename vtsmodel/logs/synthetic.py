"""Synthetic logs: ILLUSTRATIVE, made up by vtsmodel, for tests, examples and benchmarks.

No source document gives a mount log, and the project copies no third party's log: the
logs the tests, examples and benchmarks read are made here. :func:`synthetic_mount_log`
draws one (popularity, re-access in time, sizes, access kinds);
:func:`vtsmodel.logs.render_log` writes it in any of the shapes real systems write.
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._mountlog import MAX_SIZE_MB, READ, SCRATCH_WRITE, SIZE_BASIS, SPECIFIC_WRITE, MountLog
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.quantities import BIG_HOURS, SEED, SMALL

__all__ = ["MAX_SYNTHETIC_MOUNTS", "MAX_SYNTHETIC_VOLUMES", "synthetic_mount_log"]

#: Most mounts :func:`synthetic_mount_log` makes: measured on the project's 2-core machine,
#: 10^7 mounts take about 4 to 5 s and 1.3 GB at their peak (about 0.5 microseconds and
#: 130 bytes a mount); the largest log the benchmarks use (``benchmarks/bench_hits.py``). [count]
MAX_SYNTHETIC_MOUNTS = 10_000_000
#: Most volume serials :func:`synthetic_mount_log` draws from: each costs about 50 bytes
#: and 0.3 microseconds (its popularity, and a serial for those the mounts use); 10^7
#: volumes with 10^7 mounts take about 7 s and 1.8 GB at their peak. [count]
MAX_SYNTHETIC_VOLUMES = 10_000_000

_N_MOUNTS = Input(
    "mounts", "-", 10_000, lo=0, hi=MAX_SYNTHETIC_MOUNTS, integer=True,
    source="practical limit MAX_SYNTHETIC_MOUNTS (time and memory)", help="Mounts in a synthetic log.",
)  # fmt: skip
_N_VOLUMES = Input(
    "volumes", "-", 1_000, lo=1, hi=MAX_SYNTHETIC_VOLUMES, integer=True,
    source="practical limit MAX_SYNTHETIC_VOLUMES (time and memory)",
    help="Volume serials a synthetic log draws from.",
)  # fmt: skip
_HOURS = Input("log span", "h", 168.0, lo=SMALL, hi=BIG_HOURS, help="Time a synthetic log spans.")
_POPULARITY = Input(
    "popularity (Zipf exponent)", "-", 0.8, lo=0.0, hi=3.0,
    source="modelling choice (beyond 3 nearly every mount goes to the most popular volume)",
    help="0: every volume equally popular; larger: a few volumes take most mounts.",
)  # fmt: skip
_REACCESS = Input(
    "re-access probability", "-", 0.5, lo=0.0, hi=1.0,
    help="Probability that a mount re-accesses the volume of a recent mount.",
)  # fmt: skip
_REACCESS_HOURS = Input(
    "re-access time", "h", 24.0, lo=SMALL, hi=BIG_HOURS, help="Mean time back to the re-accessed mount."
)
_READ_FRACTION = Input("read share", "-", 0.4, lo=0.0, hi=1.0, help="Share of the mounts that are reads.")
_SPECIFIC_WRITE_FRACTION = Input(
    "specific-write share", "-", 0.1, lo=0.0, hi=1.0,
    help="Share of the mounts that are specific-mount writes; with the reads, at most 1.",
)  # fmt: skip
_MEDIAN_SIZE_MB = Input(
    "median volume size", "MB", 250.0, lo=SMALL, hi=MAX_SIZE_MB, help="Median of the lognormal volume sizes."
)
_SIZE_SIGMA = Input(
    "size spread", "-", 1.0, lo=0.0, hi=5.0,
    source="modelling choice (a log-sd of 5 spans e^10, four decades, between -1 and +1 sd)",
    help="Standard deviation of the natural log of the volume size.",
)  # fmt: skip
_MAX_DRAWN_MB = Input(
    "largest volume size", "MB", 4000.0, lo=1.0, hi=MAX_SIZE_MB, help="Largest volume size drawn."
)


@declare(
    n_mounts=_N_MOUNTS, n_volumes=_N_VOLUMES, seed=SEED, hours=_HOURS, popularity=_POPULARITY,
    reaccess=_REACCESS, reaccess_hours=_REACCESS_HOURS, read_fraction=_READ_FRACTION,
    specific_write_fraction=_SPECIFIC_WRITE_FRACTION, median_size_mb=_MEDIAN_SIZE_MB,
    size_sigma=_SIZE_SIGMA, max_size_mb=_MAX_DRAWN_MB, size_basis=SIZE_BASIS,
)  # fmt: skip
def synthetic_mount_log(
    n_mounts: int = 10_000,
    n_volumes: int = 1_000,
    *,
    seed: int = 0,
    hours: float = 168.0,
    popularity: float = 0.8,
    reaccess: float = 0.5,
    reaccess_hours: float = 24.0,
    read_fraction: float = 0.4,
    specific_write_fraction: float = 0.1,
    median_size_mb: float = 250.0,
    size_sigma: float = 1.0,
    max_size_mb: float = 4000.0,
    resize_on_write: bool = True,
    size_basis: str = "compressed",
) -> MountLog:
    """A synthetic mount log: ILLUSTRATIVE, made up, not measured data.

    For tests, examples and benchmarks; no source document gives a mount log. Each mount
    picks its volume in one of two ways:

    - with probability ``reaccess``, the volume of an earlier mount, ``L`` mounts back,
      ``L`` geometric with mean ``reaccess_hours`` worth of mounts (re-access in time:
      a volume written tonight is read tomorrow);
    - otherwise a volume drawn by popularity: the k-th most popular (k = 1, 2, ...) with
      probability proportional to ``k ** -popularity`` (Zipf; 0 is uniform), the ranks
      shuffled over the volume serials.

    The access type is drawn per mount (``read_fraction``, ``specific_write_fraction``,
    the rest scratch writes). Sizes are lognormal (median ``median_size_mb``, log-sd
    ``size_sigma``, clipped to [1, ``max_size_mb``] MB); each write draws a new size for
    its volume when ``resize_on_write`` (a rewritten volume changes size), and every
    other mount carries the volume's current size. Times are uniform over ``hours``
    (a Poisson process given the count), sorted, rounded to milliseconds.

    The size of the log is limited (:data:`MAX_SYNTHETIC_MOUNTS`, :data:`MAX_SYNTHETIC_VOLUMES`,
    10^7 each): measured on the project's 2-core machine, 10^6 mounts take about 0.3 to 0.6 s
    and 170 to 220 MB at their peak, 10^7 mounts about 4 to 5 s and 1.3 GB (over 10^4 volumes)
    or 7 s and 1.8 GB (over 10^7 volumes); the generator holds the whole log and its
    intermediates in memory, so a billion mounts would exhaust the memory of most machines
    instead of finishing. For more, write several logs, or stream a real one
    (:func:`iter_mount_log`).

    Parameters
    ----------
    n_mounts : int
        Mounts in the log, 0 to :data:`MAX_SYNTHETIC_MOUNTS`. [count]
    n_volumes : int
        Volume serials that can be drawn, 1 to :data:`MAX_SYNTHETIC_VOLUMES`. [count]
    seed : int
        Seed of numpy's default generator, 0 to 2**32 - 1: the same arguments give the
        same log. [-]
    hours : float
        Time the log spans, 10^-9 to 10^6. [h]
    popularity : float
        Zipf exponent of volume popularity, 0 to 3. [-]
    reaccess : float
        Probability that a mount re-accesses the volume of a recent mount, 0 to 1. [-]
    reaccess_hours : float
        Mean time back to the re-accessed mount, 10^-9 to 10^6. [h]
    read_fraction, specific_write_fraction : float
        Shares of reads and of specific-mount writes, each 0 to 1; their sum is at most 1. [-]
    median_size_mb : float
        Median volume size, 10^-9 to :data:`MAX_SIZE_MB`. [MB]
    size_sigma : float
        Standard deviation of the natural log of the size, 0 to 5. [-]
    max_size_mb : float
        Largest size drawn, 1 to :data:`MAX_SIZE_MB`. [MB]
    resize_on_write : bool
        Whether a write gives its volume a new size.
    size_basis : {"compressed", "host"}
        What the sizes are taken to measure.

    Returns
    -------
    MountLog

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it, its value and the range).
    ConstraintError
        ``read_fraction + specific_write_fraction`` above 1.
    """

    def scalar(name, inp, value):
        return as_scalar(name, inp.check(name, value))

    n = int(scalar("n_mounts", _N_MOUNTS, n_mounts))
    v = int(scalar("n_volumes", _N_VOLUMES, n_volumes))
    seed = int(scalar("seed", SEED, seed))
    h = scalar("hours", _HOURS, hours)
    s = scalar("popularity", _POPULARITY, popularity)
    p_re = scalar("reaccess", _REACCESS, reaccess)
    re_h = scalar("reaccess_hours", _REACCESS_HOURS, reaccess_hours)
    rf = scalar("read_fraction", _READ_FRACTION, read_fraction)
    wf = scalar("specific_write_fraction", _SPECIFIC_WRITE_FRACTION, specific_write_fraction)
    med = scalar("median_size_mb", _MEDIAN_SIZE_MB, median_size_mb)
    sig = scalar("size_sigma", _SIZE_SIGMA, size_sigma)
    top = scalar("max_size_mb", _MAX_DRAWN_MB, max_size_mb)
    SIZE_BASIS.check("size_basis", size_basis)
    if rf + wf > 1.0 + 1e-12:
        raise ConstraintError(
            f"read_fraction={rf:g} and specific_write_fraction={wf:g} add up to {rf + wf:g}; "
            "together they may be at most 1 (the rest are scratch writes)"
        )
    rng = np.random.default_rng(seed)

    # popularity: inverse CDF over Zipf ranks, ranks shuffled over the volumes
    w = np.arange(1, v + 1, dtype=np.float64) ** -s
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    u = rng.random(n)
    order = np.argsort(u)  # sorted keys walk the table once (unsorted ones miss the cache: 5x slower)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.searchsorted(cdf, u[order], side="right")
    rank = np.minimum(rank, v - 1)
    vol = rng.permutation(v)[rank]

    # re-access: mount i repeats the volume of mount i - L; chains resolved by pointer jumping
    mean_lag = max(1.0, re_h / h * n)
    lag = rng.geometric(1.0 / mean_lag, size=n)
    idx = np.arange(n)
    src = np.where((rng.random(n) < p_re) & (lag <= idx), idx - lag, idx)
    # every pointer leads back to a root (src[r] == r); only the unresolved ones jump
    active = np.flatnonzero(src[src] != src)
    while active.size:
        src[active] = src[src[active]]
        active = active[src[src[active]] != src[active]]
    vol = vol[src]

    u = rng.random(n)
    access = np.where(u < rf, READ, np.where(u < rf + wf, SPECIFIC_WRITE, SCRATCH_WRITE)).astype(np.int8)

    def draw(k):
        return np.clip(np.round(med * np.exp(sig * rng.standard_normal(k)), 3), 1.0, top)

    base = draw(v)
    fresh = draw(n)
    size = base[vol]
    if resize_on_write and n:
        # forward-fill each volume's latest write size along its own mounts
        order = np.lexsort((idx, vol))
        sv, sw = vol[order], access[order] != READ
        start = np.ones(n, dtype=bool)
        start[1:] = sv[1:] != sv[:-1]
        pos = np.where(sw | start, np.arange(n), 0)
        pos = np.maximum.accumulate(pos)
        filled = np.where(sw[pos], fresh[order][pos], base[sv])
        size = np.empty(n)
        size[order] = filled
    t = np.round(np.sort(rng.random(n)) * h * 3600.0, 3)
    width = max(5, len(str(v - 1)))
    # np.unique(vol, return_inverse=True), by counting (vol holds codes below v): O(n + v)
    used = np.flatnonzero(np.bincount(vol, minlength=v))
    code = np.empty(v, dtype=np.int64)
    code[used] = np.arange(used.size)
    code = code[vol]
    # serials of the volumes used only (np.char.zfill refuses an empty array)
    names = (
        np.char.add("V", np.char.zfill(used.astype(str), width)) if used.size else np.zeros(0, dtype="<U1")
    )
    # codes in order of first appearance, as read_mount_log gives them
    first = np.full(used.size, n, dtype=np.int64)
    np.minimum.at(first, code, idx)
    rank_first = np.empty(used.size, dtype=np.int64)
    rank_first[np.argsort(first, kind="stable")] = np.arange(used.size)
    label = f"synthetic_mount_log(n_mounts={n}, n_volumes={v}, seed={seed}) [illustrative]"
    return MountLog(
        t, rank_first[code], names[np.argsort(rank_first)], size, access, size_basis, None, None, label
    )


# --------------------------------------------------------------------------------------
# Writing a log in the shapes real systems write (for examples and tests)
# --------------------------------------------------------------------------------------
_WORDS = {READ: "read", SCRATCH_WRITE: "write", SPECIFIC_WRITE: "update"}
_EPOCH = {"epoch_s": 10**6, "epoch_ms": 10**3, "epoch_us": 1}
_DEFAULT_START = np.datetime64("2026-01-05T00:00:00", "us")
_COMPRESS = ("gzip", "bz2", "xz", "zstd")


def _decimal(us: np.ndarray, per: int) -> list[str]:
    """Integer microseconds as decimal numbers of ``per`` microseconds, exactly."""
    whole, frac = np.divmod(us, per)
    digits = len(str(per)) - 1
    return [
        f"{w}.{f:0{digits}d}".rstrip("0").rstrip(".") if f else str(w)
        for w, f in zip(whole.tolist(), frac.tolist(), strict=True)
    ]


def _times(log: MountLog, form: str, zone_hours: int | None) -> list[str]:
    if form == "seconds":
        return [repr(t) for t in log.time_s.tolist()]
    start = log.start if log.start is not None else _DEFAULT_START
    us = start.astype("datetime64[us]").astype(np.int64) + np.rint(log.time_s * 1e6).astype(np.int64)
    if form in _EPOCH:
        return _decimal(us, _EPOCH[form])
    if form == "excel":  # a spreadsheet's days since 1899-12-30, its times to the millisecond
        if (us % 1000).any():
            raise ValueError("a spreadsheet's times are whole milliseconds: round the log's times first")
        return [repr(d) for d in (us / 86_400e6 + 25569.0).tolist()]
    local = (us + (zone_hours or 0) * 3_600_000_000).astype("datetime64[us]")
    text = np.datetime_as_string(local, unit="us")
    if form == "ctime":
        if (us % 1_000_000).any():
            raise ValueError("ctime times are whole seconds: round the log's times first")
        out = []
        for t in local.astype("datetime64[s]").tolist():
            out.append(f"{t:%a} {t:%b} {t.day:>2} {t:%H:%M:%S} {t.year}")
        return out
    text = [s.rstrip("0").rstrip(".") for s in text.tolist()]
    if form in ("mdy", "dmy"):  # as US-English tools (12-hour clock) and European ones (dots) write them
        out = []
        for iso, t in zip(text, local.tolist(), strict=True):
            frac = iso[19:]
            if form == "mdy":
                out.append(
                    f"{t.month}/{t.day}/{t.year} {t.hour % 12 or 12}:{t:%M:%S}{frac} {'PM' if t.hour >= 12 else 'AM'}"
                )
            else:
                out.append(f"{t:%d.%m.%Y %H:%M:%S}{frac}")
        return out
    if form == "month_name":  # as web servers write it: 19/Aug/2011:00:15:58 +0200
        zone = "" if zone_hours is None else f" {'+' if zone_hours >= 0 else '-'}{abs(zone_hours):02d}00"
        return [f"{t:%d/%b/%Y:%H:%M:%S}{iso[19:]}{zone}" for iso, t in zip(text, local.tolist(), strict=True)]
    zone = ""
    if zone_hours is not None:
        zone = "Z" if zone_hours == 0 else f"{'+' if zone_hours > 0 else '-'}{abs(zone_hours):02d}:00"
    if form == "iso_basic":
        return [s.replace("-", "").replace(":", "") + zone.replace(":", "") for s in text]
    return [s + zone for s in text]


def render_log(
    log: MountLog,
    *,
    delimiter: str | None = ",",
    header: bool = True,
    time_form: str = "seconds",
    zone_hours: int | None = None,
    size_unit: str | None = "bytes",
    access: bool = True,
    compression: str | None = None,
    encoding: str = "utf-8",
) -> tuple[bytes, str]:
    """A log written in one of the shapes real systems write: the bytes and their ``columns=``.

    The columns are the time, the volume, then (as asked, and as the log has them) the
    size, the access kind (``read``, ``write``, ``update``), the cartridge and the
    duration. ILLUSTRATIVE: for examples and tests of the reader.

    Parameters
    ----------
    log : MountLog
        The log (its ``start``, or 2026-01-05, dates the times).
    delimiter : str or None
        One character, or None for runs of spaces (ids must then hold no space).
    header : bool
        Write a header line naming the columns.
    time_form : str
        One of :data:`vtsmodel.logs.TIME_FORMS` (``ctime`` needs whole seconds).
    zone_hours : int or None
        Write dated times in this zone, with its offset (0: ``Z``); None: no zone, UTC as written.
    size_unit : {"bytes", "mb", None}
        The size column's unit, or no size column.
    access : bool
        Write the access column.
    compression : {None, "gzip", "bz2", "xz", "zstd"}
        Compress the text.
    encoding : str
        One of :data:`RENDER_ENCODINGS`: the text's encoding, with the byte-order mark the
        tools that write it put first.

    Returns
    -------
    (bytes, str)
        The file's bytes, and the ``columns=`` text that reads it without a header.
    """
    from vtsmodel._csv import guard, quote

    if encoding not in RENDER_ENCODINGS:
        raise ValueError(f"encoding={encoding!r} is not valid; choose one of {', '.join(RENDER_ENCODINGS)}")
    basis = "compressed_" if log.size_basis == "compressed" else ""
    names = ["time_s" if time_form == "seconds" else "timestamp", "volume"]
    cols = [_times(log, time_form, zone_hours)]

    def ids(values, codes):
        if delimiter is None:
            cells = values.tolist()
        else:
            cells = [quote(guard(v), delimiter) for v in values.tolist()]
        return np.asarray(cells, dtype=object)[codes].tolist()

    cols.append(ids(log.volume_ids, log.volume))
    if size_unit == "bytes":
        names.append(f"{basis}bytes")
        cols.append([str(round(s * 1e6)) for s in log.size_mb.tolist()])
    elif size_unit == "mb":
        names.append(f"{basis or 'host_'}mb" if basis else "size_mb")
        cols.append([repr(s) for s in log.size_mb.tolist()])
    if access:
        names.append("op")
        cols.append([_WORDS[a] for a in log.access.tolist()])
    if log.cartridge is not None:
        names.append("tape")
        cols.append(ids(log.cartridge_ids, log.cartridge))
    if log.duration_s is not None:
        names.append("duration_s")
        cols.append([repr(d) for d in log.duration_s.tolist()])
    sep = "  " if delimiter is None else delimiter
    spec = ",".join(names)
    fields = len(cols[0][0].split()) if cols[0] else 1
    if delimiter is None and fields > 1:  # a time of several fields (ctime: five)
        if header:
            raise ValueError(
                f"a space-separated log with {time_form} times has no header (the time is {fields} fields)"
            )
        spec = ",".join(
            [
                "time=" + "+".join(str(k + 1) for k in range(fields)),
                *(f"{n}={i + fields + 1}" for i, n in enumerate(names[1:])),
            ]
        )
    lines = [sep.join(names)] if header else []
    lines += [sep.join(row) for row in zip(*cols, strict=True)]
    codec, bom = RENDER_ENCODINGS[encoding]
    data = bom + ("\n".join(lines) + "\n").encode(codec)
    if compression is not None:
        data = _compress(data, compression)
    return data, spec


#: The encodings :func:`render_log` writes: each one's codec and the byte-order mark written first
#: (Excel's "CSV UTF-8" writes UTF-8's; Windows tools and a spreadsheet's "Unicode text", UTF-16's
#: little-endian one).
RENDER_ENCODINGS = {
    "utf-8": ("utf-8", b""),
    "utf-8-sig": ("utf-8", codecs.BOM_UTF8),
    "utf-16": ("utf-16-le", codecs.BOM_UTF16_LE),
    "utf-16-be": ("utf-16-be", codecs.BOM_UTF16_BE),
    "utf-32": ("utf-32-le", codecs.BOM_UTF32_LE),
}


def _compress(data: bytes, how: str) -> bytes:
    import bz2
    import gzip
    import lzma

    if how == "gzip":
        return gzip.compress(data, mtime=0)
    if how == "bz2":
        return bz2.compress(data)
    if how == "xz":
        return lzma.compress(data)
    if how == "zstd":
        import zstandard

        return zstandard.ZstdCompressor().compress(data)
    raise ValueError(f"compression={how!r} is not one of {', '.join(_COMPRESS)}")


def example_log(name: str, n: int = 12, *, seed: int = 3) -> str:
    """A small synthetic example of a named log format (:data:`vtsmodel.logs.FORMATS`).

    ILLUSTRATIVE: made up by vtsmodel from :func:`synthetic_mount_log`, not copied from
    any system's log.

    Parameters
    ----------
    name : str
        The format's name.
    n : int
        Lines. [count]
    seed : int
        Seed of the draw.

    Returns
    -------
    str
        The log's text.
    """
    from vtsmodel.logs._reader import FORMATS

    if name not in FORMATS:
        raise ValueError(f"name={name!r} is not a format; choose one of {', '.join(FORMATS)}")
    log = synthetic_mount_log(n, max(2, n // 2), seed=seed, hours=2.0)
    rng = np.random.default_rng(seed)
    start = np.datetime64("2011-08-19T00:15:58")
    t = start + np.rint(log.time_s).astype("timedelta64[s]")
    if name == "vtsmodel":
        from vtsmodel._mountlog import mount_log_csv

        return mount_log_csv(log, comments=["ILLUSTRATIVE: a synthetic vtsmodel mount log"])
    if name == "xferlog":
        out = []
        for ti, v, s, a in zip(
            t.tolist(), log.volume.tolist(), log.size_mb.tolist(), log.access.tolist(), strict=True
        ):
            secs = int(rng.integers(1, 600))
            path = f"/archive/run{v:04d}/data_{v:05d}.tar"
            direction = "o" if a == READ else "i"
            out.append(
                f"{ti:%a} {ti:%b} {ti.day:>2} {ti:%H:%M:%S} {ti.year} {secs} client{v % 5}.example.org "
                f"{round(s * 1e6)} {path} b _ {direction} r user{v % 3} ftp 0 * c"
            )
        return "\n".join(out) + "\n"
    # tape-requests: time;cartridge;drive
    out = []
    for ti, v in zip(t.tolist(), log.volume.tolist(), strict=True):
        out.append(f"{ti:%Y%m%dT%H%M%S};T{v:05d}L6;drive{v % 4:02d}")
    return "\n".join(out) + "\n"


#: How ``examples/example_mount_log.csv`` was made (every other parameter at its default).
_EXAMPLE = {"n_mounts": 8000, "n_volumes": 4000, "seed": 19, "popularity": 0.6}


def _example_comments() -> list[str]:
    args = ", ".join(f"{k}={v}" for k, v in _EXAMPLE.items())
    return [
        "ILLUSTRATIVE mount log: synthetic, made up by vtsmodel; not measured on any VTS.",
        f"Made by vtsmodel.logs.synthetic_mount_log({args}), other parameters at their defaults;",
        "remake it with: python -m vtsmodel.logs examples/example_mount_log.csv --overwrite",
        "One week (168 h); time_s in seconds from its start; sizes in compressed MB (as held in an",
        "EHPO or PAF cache); access: scratch_write, specific_write or read.",
    ]


def _main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m vtsmodel.logs", description="Write the example mount log.")
    ap.add_argument("path")
    ap.add_argument("--overwrite", action="store_true")
    args = ap.parse_args(argv)
    log = synthetic_mount_log(**_EXAMPLE)
    from vtsmodel._mountlog import write_mount_log

    print(write_mount_log(log, args.path, comments=_example_comments(), overwrite=args.overwrite))
    return 0
