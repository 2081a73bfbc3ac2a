"""A synthetic tape library request log: ILLUSTRATIVE, made up by vtsmodel, for lesson 09.

No source document gives a library's request log and the project copies no third party's
trace, so the example lesson 09 opens with (``examples/example_library_log.csv``) is drawn
here, shaped as real request logs are (issue 24, "Why": a real library's mounts lasted
406 s on average with a coefficient of variation of 4.07; its requests came in bursts and
clustered on cartridges):

- **Jobs** arrive as a Poisson process whose rate follows the day (a sine of amplitude
  ``day_swing`` about its mean, highest at 14:00); each job restores a geometric number of
  files (mean ``files_per_job``) from **one cartridge**, chosen with Zipf popularity
  (exponent ``popularity``) among ``cartridges``.
- A job's files are asked for **one after another**: the next request comes a think time
  (exponential, mean ``think_s``) after the previous one would have finished, so a
  cartridge left mounted would serve it without a load.
- **Sizes** are lognormal (``median_mb``, log-sd ``size_sigma``): a file's size is drawn
  once and kept when it is read again. A request's **duration** (its own drive time: locate
  and read) is a locate time uniform in [5, 100] s plus its size at a rate uniform between
  60% and 100% of ``rate_mb_s``: heavy-tailed, as the sizes are.

Every value here is a modelling choice, not a source's figure; the lesson says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vtsmodel._inputs import Input, declare
from vtsmodel._validation import ConstraintError, as_scalar
from vtsmodel.mountlog import MAX_SIZE_MB, MountLog, mount_log
from vtsmodel.quantities import SEED, SMALL

__all__ = ["EXAMPLE", "MAX_REQUESTS", "synthetic_request_log"]

#: Most requests a log may be drawn with, on average (hours x jobs an hour x files a job): the
#: limit of :func:`vtsmodel.logs.synthetic_mount_log`, seconds and about a GB. [count]
MAX_REQUESTS = 10_000_000

HOURS = Input("log span", "h", 72.0, lo=1.0, hi=8760.0, help="Time the log spans (whole hours used).")
JOBS_PER_HOUR = Input("jobs an hour", "1/h", 30.0, lo=0.0, hi=10_000.0, help="Mean rate of restore jobs.")
FILES_PER_JOB = Input("files a job", "-", 2.5, lo=1.0, hi=100.0, help="Mean files a job reads (geometric).")
CARTRIDGES = Input("cartridges", "-", 20_000, lo=1, hi=1_000_000, integer=True,
                   help="Cartridges the jobs choose from.")  # fmt: skip
POPULARITY = Input("cartridge popularity (Zipf exponent)", "-", 0.6, lo=0.0, hi=3.0,
                   help="0: every cartridge equally likely; larger: a few cartridges take most jobs.")  # fmt: skip
FILES_PER_CARTRIDGE = Input("files a cartridge", "-", 200, lo=1, hi=1_000_000, integer=True,
                            help="Files on a cartridge a job chooses from.")  # fmt: skip
MEDIAN_MB = Input("median file size", "MB", 16_000.0, lo=SMALL, hi=MAX_SIZE_MB / 100,
                  help="Median of the lognormal file sizes.")  # fmt: skip
SIZE_SIGMA = Input("size spread", "-", 1.8, lo=0.0, hi=3.0,
                   help="Standard deviation of the natural log of the file size (1.8: a cv of about 5).")  # fmt: skip
RATE_MB_S = Input("read rate", "MB/s", 240.0, lo=1.0, hi=10_000.0,
                  help="The fastest a request reads; each reads at 60-100% of it.")  # fmt: skip
THINK_S = Input("think time", "s", 60.0, lo=0.0, hi=86_400.0,
                help="Mean time between a request's end and the job's next request.")  # fmt: skip
DAY_SWING = Input("day swing", "-", 0.3, lo=0.0, hi=1.0,
                  help="Amplitude of the job rate's daily sine, a share of its mean.")  # fmt: skip

#: How ``examples/example_library_log.csv`` was made (every other parameter at its default).
EXAMPLE = {"seed": 1}


_INPUTS = {"hours": HOURS, "jobs_per_hour": JOBS_PER_HOUR, "files_per_job": FILES_PER_JOB, "cartridges": CARTRIDGES,
           "popularity": POPULARITY, "files_per_cartridge": FILES_PER_CARTRIDGE, "median_mb": MEDIAN_MB,
           "size_sigma": SIZE_SIGMA, "rate_mb_s": RATE_MB_S, "think_s": THINK_S, "day_swing": DAY_SWING,
           "seed": SEED}  # fmt: skip


@declare(**_INPUTS)
def synthetic_request_log(
    *,
    hours=72.0,
    jobs_per_hour=30.0,
    files_per_job=2.5,
    cartridges=20_000,
    popularity=0.6,
    files_per_cartridge=200,
    median_mb=16_000.0,
    size_sigma=1.8,
    rate_mb_s=240.0,
    think_s=60.0,
    day_swing=0.3,
    seed=0,
) -> MountLog:
    """Draw a tape library's request log: bursty jobs, files clustered on cartridges, heavy-tailed durations.

    Parameters
    ----------
    hours : float
        Span of the log (whole hours). [h]
    jobs_per_hour : float
        Mean rate of restore jobs over the day. [1/h]
    files_per_job : float
        Mean files a job reads, one after another, from one cartridge. [count]
    cartridges : int
        Cartridges the jobs choose from. [count]
    popularity : float
        Zipf exponent of the cartridges' popularity. [-]
    files_per_cartridge : int
        Files on a cartridge (a job reads a random few of them). [count]
    median_mb, size_sigma : float
        Median [MB] and log-sd [-] of the lognormal file sizes.
    rate_mb_s : float
        The fastest read rate; a request reads at 60-100% of it. [MB/s]
    think_s : float
        Mean time between a request's end and its job's next request. [s]
    day_swing : float
        Amplitude of the daily sine of the job rate, as a share of its mean. [-]
    seed : int
        Seed of the draw (the same seed, the same log).

    Returns
    -------
    MountLog
        Reads in time order: ``volume`` a file id (``C<cartridge>F<file>``), ``cartridge``
        its cartridge (``C<cartridge>``), ``size_mb`` its size, ``duration_s`` the request's
        own drive time [s].
    """
    given = locals()
    v = {k: as_scalar(k, inp.check(k, given[k])) for k, inp in _INPUTS.items()}
    expected = int(v["hours"]) * v["jobs_per_hour"] * v["files_per_job"]
    if expected > MAX_REQUESTS:
        raise ConstraintError(
            f"hours={hours!r} x jobs_per_hour={jobs_per_hour!r} x files_per_job={files_per_job!r} = {expected:.3g} "
            f"requests on average; at most {MAX_REQUESTS:,}: draw fewer hours, jobs or files"
        )
    rng = np.random.default_rng(int(v["seed"]))
    hour = np.arange(int(v["hours"]))
    rate = v["jobs_per_hour"] * (1.0 + v["day_swing"] * np.sin(2.0 * np.pi * (hour % 24 - 8) / 24.0))
    per_hour = rng.poisson(rate)
    starts = np.repeat(hour * 3600.0, per_hour) + rng.uniform(0.0, 3600.0, int(per_hour.sum()))
    starts.sort()
    n_carts = int(v["cartridges"])
    weight = 1.0 / np.arange(1, n_carts + 1) ** v["popularity"]
    cart_of_job = rng.permutation(n_carts)[rng.choice(n_carts, starts.size, p=weight / weight.sum())]
    files = rng.geometric(1.0 / v["files_per_job"], starts.size)
    job = np.repeat(np.arange(starts.size), files)
    first = np.cumsum(files) - files  # each job's first request
    cart = cart_of_job[job]
    per_cart = int(v["files_per_cartridge"])
    obj = cart.astype(np.int64) * per_cart + rng.integers(0, per_cart, job.size)
    uniq, inv = np.unique(obj, return_inverse=True)
    size = rng.lognormal(np.log(v["median_mb"]), v["size_sigma"], uniq.size)[inv]
    size = np.minimum(size, MAX_SIZE_MB)
    duration = rng.uniform(5.0, 100.0, job.size) + size / (v["rate_mb_s"] * rng.uniform(0.6, 1.0, job.size))
    gap = rng.exponential(v["think_s"], job.size) + np.r_[0.0, duration[:-1]]
    gap[first] = 0.0
    elapsed = np.cumsum(gap)
    t = starts[job] + elapsed - elapsed[first][job]
    order = np.argsort(t, kind="stable")
    names = np.char.add(
        np.char.add("C", (obj // per_cart).astype(str)), np.char.add("F", (obj % per_cart).astype(str))
    )
    return mount_log(
        np.round(t[order], 1), names[order], np.round(size[order]), cartridge=np.char.add("C", cart[order].astype(str)),
        duration_s=np.round(duration[order], 1), source="synthetic request log (vtsmodel.replay.synthetic)",
    )  # fmt: skip


def example_comments() -> list[str]:
    """The header comments of ``examples/example_library_log.csv``: what it is and how it was made."""
    args = ", ".join(f"{k}={v}" for k, v in EXAMPLE.items())
    return [
        "ILLUSTRATIVE tape library request log: synthetic, made up by vtsmodel; not measured on any library.",
        f"Made by vtsmodel.replay.synthetic.synthetic_request_log({args}), other parameters at their defaults;",
        "remake it with: python -m vtsmodel.replay.synthetic examples/example_library_log.csv --overwrite",
        "Three days; time_s in seconds from its start; volume a file, cartridge its tape; sizes in MB as stored;",
        "duration_s the request's own drive time (locate and read) [s]: heavy-tailed, as the sizes are.",
    ]


def _main(argv: Sequence[str] | None = None) -> int:
    import argparse

    from vtsmodel.mountlog import write_mount_log

    ap = argparse.ArgumentParser(prog="python -m vtsmodel.replay.synthetic",
                                 description="Write lesson 09's example request log.")  # fmt: skip
    ap.add_argument("path")
    ap.add_argument("--overwrite", action="store_true")
    args = ap.parse_args(argv)
    log = synthetic_request_log(**EXAMPLE)
    print(write_mount_log(log, args.path, comments=example_comments(), overwrite=args.overwrite))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
