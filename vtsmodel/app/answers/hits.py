"""Answer key of lesson 08 (read hits from a mount log), from hits on the example log."""

from __future__ import annotations

import gzip

import numpy as np

from vtsmodel.app.lessons.hit_curve import (
    EXAMPLE_LOG,
    capacities_choice,
    curve_of,
    example_source,
    factor,
    read_upload,
    table3,
)
from vtsmodel.app.lessons.recall_waits import recall_curves, table3_rows, whole_cartridges
from vtsmodel.app.lessons.replacement import policies_of, sampled_curve_of
from vtsmodel.app.text import number, percent, size
from vtsmodel.logs import example_log

#: A step in hit ratio smaller than this is "flat". [-]
_FLAT = 0.005


def _bad_log_message(example: bytes) -> str:
    """What the page says of the example log with one size made negative."""
    lines = example.decode("utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line and not line.startswith("#") and line[0].isdigit())
    cells = lines[i].split(",")
    cells[2] = "-" + cells[2]
    lines[i] = ",".join(cells)
    try:
        read_upload("\n".join(lines).encode("utf-8"), "my_log.csv")
    except ValueError as exc:
        return str(exc)
    return "(the log was read)"


def _over_working_set(src) -> str:
    """Item 8: the curve at 12 capacities over the example's working set, and at two typed ones."""
    curve = curve_of(src, 0.0)
    caps = np.array(capacities_choice(src, 0.0, "auto"))
    hit = curve.at(caps).read_hit_ratio
    i = int(np.argmax(np.diff(hit)))
    typed = np.array(capacities_choice(src, 0.0, "typed", "200GB, 500GB"))
    at = curve.at(typed).read_hit_ratio
    return (
        f"The 12 capacities run from {size(float(caps[0]))} (the smallest volume) to {size(float(caps[-1]))}; the "
        f"curve rises fastest from {size(float(caps[i]))} to {size(float(caps[i + 1]))} ({percent(float(hit[i]))} to "
        f"{percent(float(hit[i + 1]))} of reads). Typed, 200 GB hits {percent(float(at[0]))} and 500 GB "
        f"{percent(float(at[1]))}: the rows the table downloads."
    )


def _tape_requests() -> str:
    """Item 9: the tape-request example, gzip'd, read as the page reads it with 18 TB objects."""
    data = gzip.compress(example_log("tape-requests").encode("utf-8"))
    src = read_upload(data, "tape_requests.log.gz", format="tape-requests", object_mb=18e6)
    caps = np.array(capacities_choice(src, 0.0, "auto"))
    hit = curve_of(src, 0.0).at(caps).read_hit_ratio
    carts = int(np.unique(src.log.volume).size)
    return (
        f"{len(src.log):,} requests on {carts} cartridges; the notes say: " + "; ".join(src.log.notes) + ". "
        f"The capacities run from one cartridge ({size(float(caps[0]))}) to all {carts} ({size(float(caps[-1]))}): "
        f"a cache of one cartridge hits {percent(float(hit[0]))} of requests, one of all {percent(float(hit[-1]))} "
        "(every request but each cartridge's first)."
        + (" The recalls' waits are not shown: the page's queue is a VTS B18's, whose recall reads a whole "
           "logical volume on a 3590, while a request reads part of a cartridge; lesson 09 replays such a log "
           "on a library's drives and robots." if whole_cartridges(src) else "")
    )  # fmt: skip


def answers() -> list[str]:
    """The nine answers of lesson 08, on the example log at the page's defaults (CF 3, EHPO or PAF)."""
    src = example_source()
    t = table3(src, 3.0, "all", 0.0)
    gb, hit = t.tvc_gb, t.read_hit_ratio
    flat = next((i for i in range(1, len(gb)) if hit[i] - hit[i - 1] < _FLAT), len(gb) - 1) - 1
    curve = curve_of(src, 0.0)
    ceiling = float(curve.at(np.array([1e9])).read_hit_ratio[0])  # a cache holding every volume
    warm = table3(src, 3.0, "all", 24.0).read_hit_ratio
    k_base, k_ehpo = factor(src, 3.0, "base"), factor(src, 3.0, "ehpo")
    ehpo_864 = float(hit[list(gb).index(864.0)])
    rows = {(total, copy): table3_rows(recall_curves(src, 3.0, "all", 0.0, total_drives=total, copy_drives=copy,
                                                     busiest_hour=True))
            for total, copy in ((3, 2), (4, 2), (6, 2))}  # fmt: skip

    def steady(rs) -> str:
        ok = [r["TVC [GB]"] for r in rs if r["utilisation [-]"] < 1]
        return f"from {ok[0]:,.0f} GB" if ok else "at no Table 3 size"

    runs = policies_of(src, tuple(t.capacity_gb), 0.0)
    spread = np.ptp(np.array([r.read_hit_ratio for r in runs.values()]), axis=0)
    step = np.append(np.diff(hit), 0.0)
    matters = [f"{g:,.0f} GB" for g, s, d in zip(gb, spread, step, strict=True) if s > max(d, _FLAT)]
    exact = t.read_hit_ratio
    errors = {n: float(np.max(np.abs(sampled_curve_of(src, 0.0, n).at(t.capacity_gb).read_hit_ratio - exact)))
              for n in (256, 1024, 4096)}  # fmt: skip
    return [
        f"The read-hit ratio rises to {percent(float(hit[flat]))} at {gb[flat]:,.0f} GB and then stays flat "
        f"({percent(float(hit[-1]))} at {gb[-1]:,.0f} GB). No cache does better than {percent(ceiling)}: the other "
        f"{percent(1 - ceiling)} of reads are first mounts of their volumes.",
        f"With 24 h left out the largest sizes hit {percent(float(warm[-1]))} of reads instead of "
        f"{percent(float(hit[-1]))}: {number(100 * (warm[-1] - hit[-1]))} percentage points of the 'miss' were the "
        "log's cold start.",
        f"One physical GB holds {number(k_ehpo)} GB of the log's (compressed) volumes with EHPO and {number(k_base)} "
        f"with the base VTS at CF 3: a base cache must be {number(k_ehpo / k_base)} times as large, "
        f"{864 * k_ehpo / k_base:,.0f} GB for the {percent(ehpo_864)} EHPO reaches at 864 GB (beyond Table 3's "
        "base sizes).",
        "With the busiest hour's recalls, the queue keeps a steady state: with three drives, two copying, "
        f"{steady(rows[(3, 2)])}; with four, two copying, {steady(rows[(4, 2)])}; with six, two copying, "
        f"{steady(rows[(6, 2)])}. A larger cache cannot make up for a single recall drive: more drives can.",
        "The policies differ by more than the step to the next Table 3 size at "
        + (", ".join(matters) if matters else "no size")
        + f"; from {gb[flat]:,.0f} GB on every policy hits about {percent(float(hit[-1]))}: there the cache holds "
        "the whole working set.",
        "The largest error of the SHARDS curve at Table 3's sizes: "
        + ", ".join(f"{number(100 * e)} percentage points with {n:,} volumes" for n, e in errors.items())
        + f". The example has {curve.volumes:,} volumes, so 4,096 samples them all.",
        f"With one size made negative the page says: “{_bad_log_message(EXAMPLE_LOG.read_bytes())}”, and keeps the log it "
        "showed.",
        _over_working_set(src),
        _tape_requests(),
    ]
