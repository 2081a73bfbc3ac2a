"""Run every benchmark and write a short report (BENCHMARKS.md) with the machine and versions.

Each benchmark compares ratios measured in one run (ours vs SimPy, warm vs cold, ...):
the machines are shared and noisy, so no absolute time is asserted anywhere.

Run: ``python benchmarks/run_all.py --report BENCHMARKS.md`` (``make bench``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import importlib.metadata as md
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
NOTEBOOKS = ROOT / "notebooks"
PACKAGES = ("numpy", "scipy", "plotly", "ipywidgets", "anywidget", "kaleido", "voila", "jupyterlab",
            "playwright", "simpy", "ciw", "numba", "libcachesim")  # fmt: skip


#: The report before the app layer (BENCHMARKS.md of 2026-11-22 03:13 UTC), for the
#: "no worse than today's" comparison of import and notebook times.
PREVIOUS = {
    "date": "2026-11-22",
    "import_ms": 263,
    "notebooks": {
        "00_start_here.ipynb": 1.2,
        "01_sustained_vs_peak_write.ipynb": 2.4,
        "02_time_at_peak_vs_tvc.ipynb": 1.8,
        "03_recall_queue_mount_time.ipynb": 3.4,
        "04_drive_efficiency_vs_file_size.ipynb": 2.8,
        "05_sizing_workbench.ipynb": 5.0,
        "06_disk_cache_staging.ipynb": 2.5,
    },
}


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = md.version(name)
        except md.PackageNotFoundError:
            versions[name] = "not installed"
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "versions": versions,
        "speed": importlib.import_module("reference").speed(),
    }


def import_time(repeat: int = 7) -> dict:
    """Median wall time of ``import vtsmodel`` in a fresh interpreter, minus a bare start."""

    def run(code: str) -> float:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - t

    bare = statistics.median(run("pass") for _ in range(repeat))
    full = statistics.median(run("import vtsmodel") for _ in range(repeat))
    heavy = subprocess.run(
        [sys.executable, "-c", "import sys, vtsmodel; print(sorted({m.split('.')[0] for m in sys.modules} & {'plotly', 'ipywidgets', 'pandas', 'kaleido'}))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return {"import_s": full - bare, "interpreter_s": bare, "heavy_modules": heavy}


def notebook_times() -> list[dict]:
    """Wall time to execute each notebook top to bottom with nbclient (kernel start included)."""
    import nbformat
    from nbclient import NotebookClient

    out = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
        )
        t = time.perf_counter()
        client.execute()
        out.append({"notebook": path.name, "seconds": time.perf_counter() - t})
    return out


def optional(name: str, fn):
    try:
        return fn()
    except Exception:  # noqa: BLE001 - a failed benchmark is reported, not fatal
        return {"error": traceback.format_exc(limit=3)}


def report(results: dict) -> str:
    m = results["machine"]
    lines = [
        "# Benchmarks",
        "",
        f"Measured {m['date']} on {m['platform']}, {m['cpu']}, {m['cores']} cores, Python {m['python']}.",
        "",
    ]
    lines.append("Versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + ".")
    lines += ["", "The machine is shared: compare ratios within a run, not absolute times across runs.", ""]
    lines += [f"The machine at the start: {importlib.import_module('reference').speed_text(m['speed'])}.", ""]
    imp = results["import"]
    lines += ["## `import vtsmodel`", ""]
    if "error" in imp:
        lines.append(f"failed: `{imp['error'].splitlines()[-1]}`")
    else:
        lines.append(
            f"{imp['import_s'] * 1000:.0f} ms beyond a bare interpreter start ({imp['interpreter_s'] * 1000:.0f} ms); "
            f"heavy modules imported: {imp['heavy_modules']} (aim: none). Before the app layer "
            f"({PREVIOUS['date']}): {PREVIOUS['import_ms']} ms."
        )
    pages = results["pages"]
    lines.append("")
    if "error" in pages:
        lines += ["## Pages", "", f"failed: `{pages['error'].splitlines()[-1]}`"]
    else:
        lines += importlib.import_module("bench_pages").report_lines(pages)
    lines += ["", "## Notebook execution, top to bottom (nbclient, kernel start included)", ""]
    nbs = results["notebooks"]
    if isinstance(nbs, dict):
        lines.append(f"failed: `{nbs['error'].splitlines()[-1]}`")
    else:
        lines += [
            f"Beside each, the time in the report before the app layer ({PREVIOUS['date']}, another run: "
            "read the ratio with the machine's load in mind).",
            "",
            "| notebook | seconds | before [s] |",
            "|---|---|---|",
        ] + [
            f"| {r['notebook']} | {r['seconds']:.1f} | {PREVIOUS['notebooks'].get(r['notebook'], '')} |"
            for r in nbs
        ]
    for key, title in (
        ("queue", "Recall queue simulation vs SimPy and Ciw"),
        ("export", "Figure export: one reused browser vs a browser per figure"),
        ("plan", "Planner: every VTS configuration for a 24-hour workload, and the report"),
        ("hits", "Read-hit curve from a mount log: one pass vs libCacheSim per size vs plain Python"),
        ("shards", "The sampled curve (SHARDS): its error by sample size, with and without SHARDS_adj"),
        ("replay", "Replay of a request log through a tape library (issue 24)"),
    ):
        lines += ["", f"## {title}", ""]
        res = results.get(key, {})
        if "error" in res:
            lines.append(f"failed: `{res['error'].strip().splitlines()[-1]}`")
        else:
            lines.append("```")
            lines += [f"{k}: {v}" for k, v in res.items()]
            lines.append("```")
    lib = results.get("library", {})
    lines.append("")
    if "error" in lib:
        lines += ["## The library over the years", "", f"failed: `{lib['error'].strip().splitlines()[-1]}`"]
    elif lib:
        lines += importlib.import_module("bench_library").report_lines(lib)
    notes = ROOT / "benchmarks" / "NOTES.md"
    if notes.exists():
        lines += ["", notes.read_text().rstrip()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", default="BENCHMARKS.md")
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument(
        "--baseline", type=Path, help="an earlier checkout whose pages are measured in the same run"
    )
    args = ap.parse_args()
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-bench-"))
    results = {"machine": machine()}
    print("import time…", flush=True)
    results["import"] = optional("import", import_time)
    print("notebooks…", flush=True)
    results["notebooks"] = optional("notebooks", notebook_times)
    print("browser…", flush=True)
    results["pages"] = optional(
        "pages", lambda: importlib.import_module("bench_pages").run(args.moves, baseline=args.baseline)
    )
    print("queue…", flush=True)
    results["queue"] = optional("queue", lambda: importlib.import_module("bench_queue").run())
    print("export…", flush=True)
    results["export"] = optional("export", lambda: importlib.import_module("bench_export").run())
    print("plan…", flush=True)
    results["plan"] = optional("plan", lambda: importlib.import_module("bench_plan").run())
    print("hits…", flush=True)
    results["hits"] = optional("hits", lambda: importlib.import_module("bench_hits").run())
    print("shards…", flush=True)
    results["shards"] = optional("shards", lambda: importlib.import_module("bench_shards_error").run())
    print("replay…", flush=True)
    results["replay"] = optional("replay", lambda: importlib.import_module("bench_replay").run())
    print("library…", flush=True)
    results["library"] = optional("library", lambda: importlib.import_module("bench_library").run(args.moves))
    text = report(results)
    Path(args.report).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
