"""Where a lesson page's load goes: in-page marks and Chromium's CPU profile, preheated kernels.

For each notebook and tree (this one, and ``--baseline DIR`` in the same run, visits
interleaved tree by tree), ``--visits`` fresh browser contexts, each visited cold (empty
cache) then warm. Per visit, in the page's clock [ms]: the HTML's last byte, the load event,
``window.Plotly`` set, the kernel's websocket opened and its first message, the first panel
and control, the first plot drawn; the widget state's bytes; and the main thread's self time
by whose code ran it (plotly.js, Voila's bundles, the widget managers, ipydatagrid and
bqplot, the browser's own work, garbage collection). Printed: the medians per tree and visit.

Run: ``python benchmarks/page_profile.py [--baseline DIR] [--visits 3] [NOTEBOOK ...]``
(default: lessons 01 and 07). Compare the trees of one run; the machine is shared.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))  # the browser harness of the tests

import bench_pages  # noqa: E402

#: In-page marks [ms, performance.now()], and the kernel websocket's messages.
MARKS_JS = """
(() => {
  const m = (window.__vtsmodelMarks = {});
  const t = () => performance.now();
  (function poll() {
    if (!m.plotly && window.Plotly) m.plotly = t();
    if (!m.panel && document.querySelector('.vtsmodel-panel')) m.panel = t();
    if (!m.plot && document.querySelector('.vtsmodel-plot .js-plotly-plot .main-svg')) m.plot = t();
    if (!m.control && document.querySelector('.widget-slider .noUi-handle, .widget-text input')) m.control = t();
    if (!(m.plot && m.control)) requestAnimationFrame(poll);
  })();
  const WS = window.WebSocket;
  window.WebSocket = function (...args) {
    const s = new WS(...args);
    m.ws_open = m.ws_open || t();
    s.addEventListener('message', (e) => {
      m.ws_first = m.ws_first || t();
      m.ws_kb = (m.ws_kb || 0) + (e.data.length || e.data.byteLength || e.data.size || 0) / 1e3;
    });
    return s;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, WS);
})();
"""
_NAVIGATION_JS = """() => { const n = performance.getEntriesByType('navigation')[0];
  return {...window.__vtsmodelMarks, html: n.responseEnd, load: n.loadEventEnd}; }"""
MARKS = ("html", "load", "plotly", "ws_open", "ws_first", "panel", "plot", "ws_kb")


def owner(url: str, function: str) -> str:
    """Whose code a profile sample ran: a script's URL grouped, or the browser's own work."""
    if function in ("(garbage collector)", "(program)"):
        return function
    groups = (("plotly", "plotly.js"), ("ipydatagrid", "ipydatagrid, bqplot"), ("bqplot", "ipydatagrid, bqplot"),
              ("bqscales", "ipydatagrid, bqplot"), ("voila/static", "Voila's bundles"),
              ("jupyterlab-manager", "widget managers"), ("widgets-manager", "widget managers"),
              ("anywidget", "anywidget, plot panes"), ("labextensions", "other extensions"))  # fmt: skip
    for part, name in groups:
        if part in url:
            return name
    return "(browser: native)" if not url else "other scripts"


def visit(context, url: str, notebook: str) -> dict:
    """One visit of ``notebook`` in ``context``: its marks, page to interactive and self time by owner [ms]."""
    from browser.conftest import wait_rendered, with_token

    page = context.new_page()
    page.add_init_script(MARKS_JS)
    cdp = context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    t0 = time.perf_counter()
    page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
    wait_rendered(page, plots=notebook != "00_start_here.ipynb", timeout=300_000)
    page.wait_for_selector(".widget-slider .noUi-handle, .widget-text input", timeout=300_000)
    out = {"interactive": (time.perf_counter() - t0) * 1000}
    profile = cdp.send("Profiler.stop")["profile"]
    out.update(page.evaluate(_NAVIGATION_JS))
    nodes = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    busy: collections.Counter = collections.Counter()
    for node, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node]
        if frame["functionName"] != "(idle)":
            busy[owner(frame["url"], frame["functionName"])] += dt / 1000
    out["busy"] = sum(busy.values())
    out.update({f"self: {k}": v for k, v in busy.items()})
    return out


def run(notebooks: list[str], baseline: Path | None, visits: int) -> dict:
    """Every notebook's visits in each tree, interleaved: ``{(notebook, tree, visit): [marks, ...]}``."""
    from browser.conftest import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    from vtsmodel.app._browser import HOW_TO_GET, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(HOW_TO_GET)
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-profile-"))
    trees = {"now": ROOT, **({"before": baseline.resolve()} if baseline else {})}
    results: dict = collections.defaultdict(list)
    servers = {k: bench_pages.Server(t, pool=1) for k, t in trees.items()}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            try:
                for nb in notebooks:
                    for _ in range(visits):
                        for k, server in servers.items():
                            context = browser.new_context(viewport={"width": 1280, "height": 900})
                            try:
                                for kind in ("cold", "warm"):
                                    bench_pages.wait_preheated(server.proc.pid, 5.0)
                                    results[nb, k, kind].append(visit(context, server.url, nb))
                                    bench_pages.close_page(context)
                            finally:
                                context.close()
            finally:
                browser.close()
    finally:
        for s in servers.values():
            s.close()
    return results


def report(results: dict) -> list[str]:
    """The medians of each (notebook, tree, visit): marks, then self time by owner, largest first."""
    lines = []
    for (nb, tree, kind), rows in results.items():
        med = {k: statistics.median(r.get(k, 0.0) for r in rows) for k in {k for r in rows for k in r}}
        marks = ", ".join(f"{k} {med[k]:.0f}" for k in ("interactive", *MARKS, "busy") if k in med)
        owners = sorted(((v, k) for k, v in med.items() if k.startswith("self: ")), reverse=True)
        lines.append(f"{nb} {tree} {kind} ({len(rows)} visits, medians [ms; ws_kb: kB]): {marks}")
        lines.append("    " + ", ".join(f"{k.removeprefix('self: ')} {v:.0f}" for v, k in owners))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, measured in the same run")
    ap.add_argument(
        "--visits", type=int, default=3, help="fresh browser contexts per tree (each: cold, warm)"
    )
    ap.add_argument(
        "notebooks", nargs="*", default=["01_sustained_vs_peak_write.ipynb", "07_plan_a_system.ipynb"]
    )
    args = ap.parse_args()
    args.notebooks = [Path(nb).name for nb in args.notebooks]
    missing = [nb for nb in args.notebooks if not (ROOT / "notebooks" / nb).is_file()]
    if missing:
        ap.error(f"notebooks={missing}: not in {ROOT / 'notebooks'}")
    start = os.getloadavg()[0]
    lines = report(run(args.notebooks, args.baseline, args.visits))
    print(f"load average {start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
