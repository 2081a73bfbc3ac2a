"""Benchmark: the planner end to end on a 24-hour hourly workload, and the report.

What the planner page runs on every change of an answer: read the hourly workload file,
build the plan, evaluate every VTS B18 configuration (:func:`vtsmodel.plan.vts_plan`, the
aim: under 200 ms), plus the tape-library plan; then the whole evaluation with the
sensitivity, and the report as HTML and as PDF (Chromium; the aim: under 10 s). The
evaluation is timed in a fresh process too, to show the first call's cost (data tables
loaded, imports).

Not a test: run ``python benchmarks/bench_plan.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WORKLOAD = ROOT / "examples" / "example_hourly_workload.csv"

AIM_PLAN_MS = 200.0
AIM_REPORT_S = 10.0

_FIRST_CALL = """
import time
t = time.perf_counter()
from vtsmodel.hourly import read_hourly_workload
from vtsmodel.plan import Plan, vts_plan
t_import = time.perf_counter() - t
t = time.perf_counter()
vts_plan(Plan(workload=read_hourly_workload({path!r})))
print(t_import, time.perf_counter() - t)
"""


def _times(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def _stats(ts: list[float], scale: float = 1000.0) -> dict:
    s = sorted(ts)
    return {
        "median": statistics.median(s) * scale,
        "p95": s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] * scale,
        "min": s[0] * scale,
    }


def run(repeat: int = 20) -> dict:
    """Time the planner and its report; return the numbers and whether the aims are met."""
    from vtsmodel.hourly import read_hourly_workload
    from vtsmodel.plan import Plan, evaluate, library_plan, vts_plan

    def plan_once():
        plan = Plan(workload=read_hourly_workload(WORKLOAD), workload_file=WORKLOAD.name)
        vts = vts_plan(plan)
        library_plan(plan)
        return vts

    vts = plan_once()  # warm: tables loaded, caches filled
    out: dict = {"configurations": len(vts.results), "hours": int(vts.day["hours [h]"]),
                 "step_minutes": vts.day["step [min]"], "recommended": vts.headline()}  # fmt: skip
    plan_ms = _stats(_times(plan_once, repeat))
    out.update({f"plan_{k}_ms": round(v, 1) for k, v in plan_ms.items()})
    out["plan_aim_met"] = plan_ms["median"] < AIM_PLAN_MS

    proc = subprocess.run([sys.executable, "-c", _FIRST_CALL.format(path=str(WORKLOAD))],
                          capture_output=True, text=True, check=True, cwd=ROOT)  # fmt: skip
    t_import, t_first = map(float, proc.stdout.split())
    out["fresh_process_import_ms"] = round(t_import * 1000, 1)
    out["fresh_process_first_plan_ms"] = round(t_first * 1000, 1)

    plan = Plan(workload=read_hourly_workload(WORKLOAD), workload_file=WORKLOAD.name)
    full = _stats(_times(lambda: evaluate(plan, fraction=0.2), max(3, repeat // 4)))
    out["evaluate_with_sensitivity_median_ms"] = round(full["median"], 1)

    from vtsmodel.app import report
    from vtsmodel.app._browser import find_chromium

    t = time.perf_counter()
    page = report.report_bytes(plan, "html")
    out["report_html_s"] = round(time.perf_counter() - t, 2)
    out["report_html_bytes"] = len(page)
    if find_chromium() is None:
        out["report_pdf_s"] = "skipped: no Chromium"
    else:
        t = time.perf_counter()
        pdf = report.report_bytes(plan, "pdf")
        out["report_pdf_s"] = round(time.perf_counter() - t, 2)
        out["report_pdf_bytes"] = len(pdf)
        out["report_aim_met"] = out["report_pdf_s"] < AIM_REPORT_S
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    for k, v in run(ap.parse_args().repeat).items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
