"""Answer key of lesson 08 (read hits from a mount log), from hits on the example log."""

from __future__ import annotations

import numpy as np

from vtsmodel.app.lessons.hit_curve import EXAMPLE_LOG, curve_of, example_source, factor, read_upload, table3
from vtsmodel.app.lessons.recall_waits import recall_curves, table3_rows
from vtsmodel.app.lessons.replacement import policies_of, sampled_curve_of
from vtsmodel.app.text import number, percent

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


def answers() -> list[str]:
    """The seven answers of lesson 08, on the example log at the page's defaults (CF 3, EHPO or PAF)."""
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
    ]
