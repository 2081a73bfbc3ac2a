"""Reading a log in the shapes users bring: each against the plain CSV, in one run.

One synthetic log (``vtsmodel.logs.synthetic_mount_log``, ``--lines`` requests, times as ISO
8601 with a zone) written as: comma-separated UTF-8 (the reference), the same in UTF-16 with
its byte-order mark (a Windows tool's save), gzip-compressed, semicolon-separated with times
month first on a 12-hour clock (a US-English export), JSON Lines (a monitoring tool's
export), a web server's times (``19/Aug/2011:00:15:58 +0000``, to the second as Apache's ``%t``
writes them: the log's times rounded) and sizes grouped in threes (``"1,234,567"``, a
spreadsheet's). Each is read by ``read_mount_log`` from its bytes, the shapes interleaved round by
round (``--rounds``); printed: the median seconds of each, its lines a second and its ratio
to the reference. The machine is shared: compare the ratios, not the seconds.

Run: ``python benchmarks/bench_logs.py [--lines 300000] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vtsmodel import read_mount_log  # noqa: E402
from vtsmodel.logs import render_log, synthetic_mount_log  # noqa: E402


def shapes(lines: int, seed: int = 1) -> dict[str, bytes]:
    """The log's bytes in each shape (the same requests in each)."""
    log = synthetic_mount_log(lines, max(lines // 10, 1), seed=seed, hours=24)
    csv, _ = render_log(log, delimiter=",", time_form="iso", zone_hours=0)
    head, *rows = csv.decode().splitlines()
    keys = head.split(",")
    jsonl = "".join(json.dumps(dict(zip(keys, r.split(","), strict=True))) + "\n" for r in rows)
    b = next(i for i, k in enumerate(keys) if k.endswith("bytes"))
    grouped = "".join(
        ",".join(f'"{int(c):,}"' if i == b else c for i, c in enumerate(r.split(","))) + "\n" for r in rows
    )
    return {
        "CSV, UTF-8": csv,
        "CSV, UTF-16 with its mark": render_log(
            log, delimiter=",", time_form="iso", zone_hours=0, encoding="utf-16"
        )[0],
        "CSV, gzip": gzip.compress(csv, compresslevel=1),
        "semicolons, month/day/year AM/PM": render_log(log, delimiter=";", time_form="mdy")[0],
        "JSON Lines": jsonl.encode(),
        "web server's times (19/Aug/2011:00:15:58 +0000)": render_log(
            _to_the_second(log), delimiter=",", time_form="month_name", zone_hours=0
        )[0],
        'sizes grouped in threes ("1,234,567")': (head + "\n" + grouped).encode(),
    }


def _to_the_second(log):
    """The log with its times rounded to whole seconds."""
    from vtsmodel.mountlog import mount_log

    return mount_log(np.round(log.time_s), log.volume_ids[log.volume], log.size_mb, log.access,
                     size_basis=log.size_basis)  # fmt: skip


def run(lines: int = 300_000, rounds: int = 3) -> list[dict]:
    """Median seconds to read each shape, interleaved round by round, and each one's ratio to the first."""
    data = shapes(lines)
    times: dict[str, list[float]] = {k: [] for k in data}
    for _ in range(rounds):
        for name, raw in data.items():
            t = time.perf_counter()
            got = read_mount_log(raw)
            times[name].append(time.perf_counter() - t)
            if len(got) != lines:
                raise AssertionError(f"{name}: {len(got)} requests read of {lines}")
    ref = statistics.median(times["CSV, UTF-8"])
    return [
        {"shape": k, "s": statistics.median(v), "lines_per_s": lines / statistics.median(v),
         "ratio": statistics.median(v) / ref}
        for k, v in times.items()
    ]  # fmt: skip


def _positive(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(f"{text!r} must be a whole number in [1, 10000000]")
    return value


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=_positive, default=300_000, help="requests in the log")
    ap.add_argument("--rounds", type=_positive, default=3, help="reads of each shape")
    args = ap.parse_args(argv)
    print(f"{args.lines:,} requests, {args.rounds} rounds (median)\n")
    print("| shape | s | lines/s | against CSV, UTF-8 |")
    print("|---|---|---|---|")
    for r in run(args.lines, args.rounds):
        print(f"| {r['shape']} | {r['s']:.2f} | {r['lines_per_s']:,.0f} | {r['ratio']:.2f} |")


if __name__ == "__main__":
    main()
