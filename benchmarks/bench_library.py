"""The library over the years (issue 29): its sliders as a user moves them, and the plan's cost per fresh answer.

- **pages**: the planner's growth and years sliders (07) and lesson 10's, each moved through
  fresh values (never back to one it had), in the kernel (the notebook's cells run in a fresh
  process) and in the app server with Chromium, as :mod:`bench_pages` measures a page's main
  control (its functions, a target of our choosing);
- **core**: :func:`vtsmodel.plan.library_plan` of the planner's default plan and of the shipped
  archive plan, each with fresh growth values, beside :func:`vtsmodel.plan.vts_plan` of the same
  plan (the ratio says what the library adds to a plan's evaluation).

With ``--baseline DIR`` (a checkout of an earlier commit, e.g. ``git archive REV | tar -x -C
DIR``), the same measurements of DIR's package and notebooks in the same run, interleaved
control by control: compare the ratios, not absolute times (the machine is shared).

Run: ``python benchmarks/bench_library.py [--moves 20] [--no-browser] [--baseline DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_pages  # noqa: E402

#: (notebook, the slider's label) of each control measured; lesson 01's CF first, the reference the
#: others are read against in the same run (the machine is shared).
TARGETS = (
    ("01_sustained_vs_peak_write.ipynb", "compressibility CF"),
    ("07_plan_a_system.ipynb", "growth of the writes"),
    ("07_plan_a_system.ipynb", "years ["),
    ("10_library_over_the_years.ipynb", "growth of the writes"),
    ("10_library_over_the_years.ipynb", "years ["),
)


def _worker(tree: Path, *args: str) -> dict:
    """This script's worker mode (``args``) with ``tree``'s package, in a fresh process; its JSON."""
    proc = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, cwd=tree, timeout=1800,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def kernel_in(notebook: str, label: str, moves: int, tree: Path = ROOT) -> dict:
    """:func:`bench_pages.kernel_moves` of one slider of ``tree``'s notebook, in a fresh process."""
    return _worker(
        tree, "--kernel", str(tree / "notebooks" / notebook), "--label", label, "--moves", str(moves)
    )


def pages(moves: int = 20, browser: bool = True, trees: dict[str, Path] | None = None) -> list[dict]:
    """Each target's kernel moves, and (with ``browser``) the same moves in Voila with Chromium, per tree."""
    trees = trees or {"now": ROOT}
    rows = []
    if not browser:
        return [{"notebook": nb, "label": lb, "tree": k, "kernel": kernel_in(nb, lb, moves, t)}
                for nb, lb in TARGETS for k, t in trees.items()]  # fmt: skip
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.conftest import CHROMIUM_ARGS

    from vtsmodel.app._browser import HOW_TO_GET, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(HOW_TO_GET)
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-bench-"))
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        # No preheated kernels, as bench_pages moves a page's control: a page starts its own, and no
        # kernel refilling the pool runs its notebook beside the moves (with one, the planner's
        # notebook took a core for seconds after each page opened, during its first moves).
        servers = {k: bench_pages.Server(t, pool=0) for k, t in trees.items()}
        try:
            for nb, label in TARGETS:
                for k, tree in trees.items():
                    row = {"notebook": nb, "label": label, "tree": k}
                    try:
                        row["kernel"] = kernel_in(nb, label, moves, tree)
                        row["browser"] = bench_pages.browser_moves(b, servers[k].url, nb, row["kernel"])
                    except Exception as exc:  # noqa: BLE001 - reported per control, the others still run
                        row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                    print(json.dumps(row, default=str)[:300], flush=True)
                    rows.append(row)
        finally:
            for server in servers.values():
                server.close()
            b.close()
    return rows


def core(moves: int = 20) -> dict:
    """library_plan per fresh growth value (the default plan, the archive plan) beside vts_plan of the same plan. [ms]"""
    from vtsmodel.plan import Plan, library_plan, load_plan, vts_plan

    out = {}
    for name, plan in (
        ("default plan", Plan()),
        ("archive plan", load_plan(ROOT / "examples" / "archive_plan.json")),
    ):
        times = []
        for k in range(1, moves + 1):
            p = plan.with_answers(ingest_growth=0.01 * k)
            t = time.perf_counter()
            library_plan(p)
            times.append((time.perf_counter() - t) * 1000)
        out[f"{name}: library_plan p50 [ms]"] = round(statistics.median(times), 1)
        out[f"{name}: library_plan max [ms]"] = round(max(times), 1)
    vts = []
    for k in range(1, 6):
        p = Plan().with_answers(write_gb_per_day=2000.0 + 10 * k)
        t = time.perf_counter()
        vts_plan(p)
        vts.append((time.perf_counter() - t) * 1000)
    out["default plan: vts_plan p50 [ms]"] = round(statistics.median(vts), 1)
    out["library_plan / vts_plan"] = round(
        out["default plan: library_plan p50 [ms]"] / statistics.median(vts), 3
    )
    return out


def run(moves: int = 20, browser: bool = True, baseline: Path | None = None) -> dict:
    trees = {"now": ROOT, **({"before": Path(baseline).resolve()} if baseline else {})}
    load = [os.getloadavg()[0]]
    cores = {k: _worker(t, "--core", "--moves", str(moves)) for k, t in trees.items()}
    rows = pages(moves, browser, trees)
    load.append(os.getloadavg()[0])
    return {"core": cores, "pages": rows, "trees": {k: str(t) for k, t in trees.items()}, "load": load}


def report_lines(res: dict) -> list[str]:
    """The section of BENCHMARKS.md: the sliders (kernel and browser) and the core's cost."""
    a50, a95 = bench_pages.AIM_P50_MS, bench_pages.AIM_P95_MS
    lines = ["## The library over the years: growth and years sliders, fresh values", "",
             "The planner's (07) and lesson 10's growth and years sliders moved one step at a time through values "
             "they never had, as bench_pages moves a page's main control: browser = key press to the first change "
             "inside a plot (Voila, Chromium), reply = to the plot's message arriving, drawn = plotly.js's drawing from "
             "one move's first key press to the next move's (every plot the move redraws), kernel = the same moves in the "
             f"notebook's cells run in a fresh process; lesson 01's CF slider is the reference measured in the same "
             f"run. Aims: browser p50 <= {a50} ms, p95 <= {a95} ms. Load average "
             + " -> ".join(f"{x:.1f}" for x in res.get("load", ())) + " (start -> end).", "",
             "| page | control | moves | browser p50 [ms] | p95 [ms] | reply p50 [ms] | drawn p50 [ms] | kernel p50 [ms] "
             "| kernel p95 [ms] | aim met |", "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    both = len(res.get("trees", {})) > 1
    for r in res["pages"]:
        name = r["notebook"] + (f" ({r['tree']})" if both else "")
        if "error" in r:
            lines.append(f"| {name} | {r['label']} | failed: {r['error']} |" + " |" * 7)
            continue
        k, b = r["kernel"], r.get("browser", {})
        ok = b.get("p50_ms", float("inf")) <= a50 and b.get("p95_ms", float("inf")) <= a95
        lines.append(f"| {name} | {k['target']} | {k['moves']} | {bench_pages._cell(b.get('p50_ms'))} "
                     f"| {bench_pages._cell(b.get('p95_ms'))} | {bench_pages._cell(b.get('reply_p50_ms'))} "
                     f"| {bench_pages._cell(b.get('drawn_p50_ms'))} | {statistics.median(k['wall_ms']):.1f} | {bench_pages._percentile(k['wall_ms'], 0.95):.1f} "
                     f"| {'yes' if ok else 'no'} |")  # fmt: skip
    lines += ["", "The core, per fresh growth value (library_plan: the archive, drives, robots, frames and each "
              "year's recall target), beside vts_plan of the same plan:", "", "```"]  # fmt: skip
    for tree, core_ in res["core"].items():
        lines += [f"{tree + ': ' if both else ''}{k}: {v}" for k, v in core_.items()]
    lines += ["```"]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--kernel", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--label", help=argparse.SUPPRESS)
    ap.add_argument("--core", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, measured in the same run")
    args = ap.parse_args()
    if args.core:
        print(json.dumps(core(args.moves)))
        return
    if args.kernel:
        bench_pages.TARGETS[args.kernel.name] = ("slider", args.label)
        print(json.dumps(bench_pages.kernel_moves(args.kernel.resolve(), args.moves)))
        return
    print("\n".join(report_lines(run(args.moves, not args.no_browser, args.baseline))))


if __name__ == "__main__":
    main()
