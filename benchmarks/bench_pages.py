"""Interaction speed as a user meets it: fresh values, every page, the kernel's time beside the browser's.

Per page (notebook) with a continuous input, its main control (:data:`TARGETS`: a slider by
its label, or lesson 05's grid cell; a page not listed: its first slider):

- **kernel**: the notebook's code cells run in a fresh process, as the page runs them (the
  panels bound to their scenario sheets), then the control moves through fresh values, one
  step each, never back to a value it had: the time of each move (wall and CPU), the work a
  page defers to after the move (the planner's tornado), and the evaluations each move
  computed (``vtsmodel.app.cache``'s counts, where the tree has it);
- **browser**: the page in the app server with Chromium, the control moved the same way (key
  presses in one direction, or grid cells typed with fresh numbers), timed in the page from
  the key press to the first change inside a plot; "reply" is the arrival of the plot's
  message, "redraw" the rest. The next key press follows that change at once, or, with
  ``--pace S``, S seconds after the last key press at the earliest, as a person stepping
  through values does (work a page defers, the planner's tornado, then runs between moves);
- **page to interactive** with preheated kernels: cold (a browser with an empty cache) and
  warm (the same browser's second visit).

With ``--baseline DIR`` (a checkout of an earlier commit, e.g. ``git archive REV | tar -x -C
DIR``), the same measurements of DIR's package and notebooks in the same run, interleaved
page by page: compare the ratios, not absolute times (the machine is shared).

Run: ``python benchmarks/bench_pages.py [--moves 30] [--pace S] [--baseline DIR] [--tti-only | --moves-only] [NOTEBOOK ...]``;
``--kernel NOTEBOOK`` is the worker that measures one page's kernel (JSON on stdout).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import reference  # noqa: E402 - the benchmarks' folder on the path first

#: Notebook -> its main control: ("slider", label) or ("grid", column key). The planner's main
#: slider is the day's writes: a fresh value evaluates every configuration.
TARGETS = {
    "01_sustained_vs_peak_write.ipynb": ("slider", "compressibility CF"),
    "02_time_at_peak_vs_tvc.ipynb": ("slider", "CF"),
    "03_recall_queue_mount_time.ipynb": ("slider", "recalls per hour"),
    "04_drive_efficiency_vs_file_size.ipynb": ("slider", "file size"),
    "05_sizing_workbench.ipynb": ("grid", "rate_mb_s"),
    "06_disk_cache_staging.ipynb": ("slider", "Reads per HDD"),
    "07_plan_a_system.ipynb": ("slider", "data written per day"),
    "08_read_hits_from_a_mount_log.ipynb": ("slider", "TVC capacity"),
    "09_replay_your_log.ipynb": ("slider", "drives"),
    "10_library_over_the_years.ipynb": ("slider", "growth of the writes"),
}
#: The interaction aims: key press to repaint [ms] (two and three frames at 60 Hz), the
#: planner's kernel time per fresh move [ms], page request to interactive [s].
AIM_P50_MS, AIM_P95_MS, AIM_PLANNER_KERNEL_MS, AIM_TTI_S = 33, 50, 60, 3.0


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return math.nan
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# --- the kernel: a notebook's cells run here, its control moved through fresh values -----------------


def _run_cells(notebook: Path) -> dict:
    """Run the notebook's code cells in one namespace, as a kernel does (their output discarded)."""
    ns: dict = {"__name__": "__main__"}
    cells = [c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            exec(compile("".join(cell["source"]), str(notebook), "exec"), ns)  # noqa: S102 - the project's own notebook
    return ns


def _panels(ns: dict) -> list:
    """The panels the notebook built, in the order it built them (a page's panel included)."""
    out = []
    for obj in list(ns.values()):
        for cand in (obj, getattr(obj, "panel", None)):
            if isinstance(getattr(cand, "controls", None), dict) and cand not in out:
                out.append(cand)
    return out


def _slider(ns: dict, label: str | None):
    for panel in _panels(ns):
        for ctl in panel.controls.values():
            if hasattr(ctl, "step") and hasattr(ctl, "max"):
                if label is None or label.lower() in (ctl.description or "").lower():
                    return ctl
    raise LookupError(f"no slider {label!r} in the notebook's panels")


def _fresh_values(ctl, moves: int) -> tuple[list[float], str]:
    """``moves`` values one step apart from the slider's value, in the direction with room; the key that makes them."""
    log = hasattr(ctl, "base")  # a log slider steps its exponent
    at = math.log(ctl.value, ctl.base) if log else ctl.value
    up, down = (ctl.max - at) / ctl.step, (at - ctl.min) / ctl.step
    sign, key = (1, "ArrowRight") if up >= down else (-1, "ArrowLeft")
    n = min(moves, int(math.floor(max(up, down) + 1e-9)))
    exps = [at + sign * k * ctl.step for k in range(1, n + 1)]
    values = [ctl.base**e for e in exps] if log else exps
    if isinstance(ctl.value, int):
        values = [round(v) for v in values]
    return values, key


def _deferred(ns: dict):
    """A page's work scheduled after a move (the planner's tornado), or None."""
    for obj in ns.values():
        tornado = getattr(obj, "tornado", None)
        if tornado is not None and hasattr(tornado, "finish"):
            return tornado
    return None


async def _measure(ns: dict, kind: str, what: str | None, moves: int) -> dict:
    try:
        from vtsmodel.app import cache
    except ImportError:  # a tree before app/cache.py
        cache = None
    deferred = _deferred(ns)
    if kind == "grid":
        wb = next(o for o in ns.values() if hasattr(o, "edit") and hasattr(o, "grid"))
        first = wb.table[0][1]
        base = getattr(first, what)
        values = [base * (1.0 + 0.01 * (k + 1)) for k in range(moves)]

        def move(v):
            assert wb.edit(0, what, v), wb.grid.message.value

        target, key = what, "Enter"
        cell = next(c.header for c in wb.grid.columns if c.key == what)  # the HTML table's cell by its label
    else:
        ctl = _slider(ns, what)
        values, key = _fresh_values(ctl, moves)
        target = ctl.description

        def move(v):
            ctl.value = v

    for panel in _panels(ns):  # the kernel's work alone: no pause for a browser's draw (Panel.lead_pause_s)
        if hasattr(panel, "lead_pause_s"):
            panel.lead_pause_s = 0.0
    wall, cpu, later, computed = [], [], [], []
    for v in values:
        before = sum(c for _n, c in cache.stats().values()) if cache else 0
        t, c = time.perf_counter(), time.process_time()
        move(v)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        if cache:
            computed.append(sum(c for _n, c in cache.stats().values()) - before)
        if deferred is not None and getattr(deferred, "_handle", None) is not None:
            deferred._handle.cancel()
            t = time.perf_counter()
            deferred.finish()
            later.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(0)
    return {"target": target, "kind": kind, "key": key, "values": values, "moves": len(values),
            "wall_ms": wall, "cpu_ms": cpu, "deferred_ms": later, "computed": computed,
            **({"cell": cell} if kind == "grid" else {})}  # fmt: skip


def kernel_moves(notebook: Path, moves: int) -> dict:
    """One page's kernel time per fresh move (see the module's docstring), in this process."""
    os.chdir(notebook.parent)
    kind, what = TARGETS.get(notebook.name, ("slider", None))
    t = time.perf_counter()
    ns = _run_cells(notebook)
    built = time.perf_counter() - t
    out = asyncio.run(_measure(ns, kind, what, moves))
    return {**out, "cells_s": built}


def kernel_in(tree: Path, notebook: str, moves: int) -> dict:
    """:func:`kernel_moves` of ``tree``'s notebook and package, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, __file__, "--kernel", str(tree / "notebooks" / notebook), "--moves", str(moves)],
        capture_output=True, text=True, env=env, cwd=tree, timeout=1800,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --- the browser ---------------------------------------------------------------------------------

_INSTALL = """
() => {
  window.__lat = []; window.__reply = []; window.__t0 = null; window.__draw = [];
  // key press to the first change of the panel's readouts (the numbers beside the plots), where a move changes them;
  // readouts that come after the next key press count for that move (1 of 80 moves in a run of the planner)
  window.__text = []; let t0text = null;
  // plotly.js's drawing (its synchronous part) from one move's first key press to the next move's: every
  // plot a move redraws (a move is one key press, or a cell's number typed and Enter)
  let drawn = null, moves = 0;
  const react = window.Plotly.react;
  window.Plotly.react = function (...args) {
    const t = performance.now();
    const out = react.apply(this, args);
    if (drawn !== null) drawn += performance.now() - t;
    return out;
  };
  document.addEventListener('keydown', () => {
    if (drawn === null || window.__lat.length > moves) {
      if (drawn !== null) window.__draw.push(drawn);
      drawn = 0;
      moves = window.__lat.length;
    }
    window.__t0 = t0text = performance.now(); window.__vtsmodelReceived = null;
  }, true);
  const inReadouts = (rec) => {
    const t = rec.target.nodeType === 1 ? rec.target : rec.target.parentElement;
    return Boolean(t && t.closest && t.closest('.vtsmodel-readouts'));
  };
  const touchesPlot = (rec) => {
    const t = rec.target.nodeType === 1 ? rec.target : rec.target.parentElement;
    if (t && t.closest && t.closest('.js-plotly-plot')) return true;
    for (const n of rec.addedNodes) {
      if (n.nodeType === 1 && (n.matches('.js-plotly-plot, .main-svg') || n.querySelector('.js-plotly-plot'))) return true;
    }
    return false;
  };
  new MutationObserver((recs) => {
    if (t0text !== null && recs.some(inReadouts)) {
      window.__text.push(performance.now() - t0text);
      t0text = null;
    }
    if (window.__t0 !== null && recs.some(touchesPlot)) {
      window.__lat.push(performance.now() - window.__t0);
      const got = window.__vtsmodelReceived;
      window.__reply.push(got !== null && got !== undefined && got >= window.__t0 ? got - window.__t0 : null);
      window.__t0 = null;
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""


class Server:
    """The app server (``make app``'s launcher) of ``tree``'s notebooks on a free port."""

    def __init__(self, tree: Path, *, pool: int) -> None:
        sys.path.insert(0, str(ROOT / "tests"))  # the browser harness of the tests
        from browser.conftest import APP_TOKEN, _wait_http, free_port, ready_url

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix="vtsmodel-bench-app-", suffix=".log", delete=False)  # noqa: SIM115
        cmd = [sys.executable, "-m", "vtsmodel.app.serve", str(tree / "notebooks"), f"--port={self.port}",
               f"--pool-size={pool}", "--log-level=WARN"]  # fmt: skip
        env = {**os.environ, "VTSMODEL_APP_TOKEN": APP_TOKEN, "PYTHONPATH": str(tree)}
        self.proc = subprocess.Popen(
            cmd, cwd=tree / "notebooks", env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        _wait_http(ready_url(self.url), self.proc, timeout=180.0)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def _open(context, url: str, notebook: str):
    from browser.conftest import wait_rendered, wait_widgets_rendered, with_token

    page = context.new_page()
    page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
    wait_rendered(page, timeout=300_000)
    wait_widgets_rendered(page)
    return page


def close_page(context) -> None:
    """Close ``context``'s pages as a person closes a tab: each page's beacon stops its kernel.

    A context closed outright leaves the kernels to the app's cull, and the app's cap on
    open pages (vtsmodel/app/sessions.py) then refuses the next pages.
    """
    for page in context.pages:
        with contextlib.suppress(Exception):
            with page.expect_event("close", timeout=10_000):
                page.close(run_before_unload=True)


def _type_cells(page, kernel: dict) -> None:
    """Type the kernel's values into lesson 05's first flow's cell, as a person does, one edit each:
    click the cell (``kernel["cell"]`` its column's head), type, Enter."""
    flows = page.locator(".vtsmodel-flows").first
    flows.scroll_into_view_if_needed()
    cell = flows.get_by_role("textbox", name=f"{kernel['cell']}, row 1", exact=True)
    for i, v in enumerate(kernel["values"]):
        cell.click()
        page.keyboard.type(f"{v:.6g}")
        page.keyboard.press("Enter")
        page.wait_for_function("n => window.__lat.length >= n", arg=i + 1, timeout=60_000)


def browser_moves(browser, url: str, notebook: str, kernel: dict, prepare=None, *, pace: float = 0.0) -> dict:
    """Move the page's control as :func:`kernel_moves` did (the same fresh values) and time each repaint.

    ``prepare(page)``, when given, runs once the page is drawn, before the moves (a log uploaded).
    ``pace`` [s]: the least time from one key press to the next (0: the next once the move's
    first plot change is seen).
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = _open(context, url, notebook)
        if prepare is not None:
            prepare(page)
        page.evaluate(_INSTALL)
        n = kernel["moves"]
        if kernel["kind"] == "grid":
            _type_cells(page, kernel)
        else:
            label = kernel["target"]
            slider = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=label))
            handle = slider.first.locator(".noUi-handle")
            handle.scroll_into_view_if_needed()
            handle.focus()
            for i in range(n):
                pressed = time.monotonic()
                handle.press(kernel["key"])
                page.wait_for_function("n => window.__lat.length >= n", arg=i + 1, timeout=60_000)
                time.sleep(max(0.0, pace - (time.monotonic() - pressed)))
        lat = page.evaluate("() => window.__lat")
        drawn = page.evaluate("() => window.__draw")  # each move but the last (cut short)
        text = page.evaluate("() => window.__text")
        pairs = [
            (t, r) for t, r in zip(lat, page.evaluate("() => window.__reply"), strict=False) if r is not None
        ]
    finally:
        close_page(context)
        context.close()
    out = {
        "moves": len(lat),
        "p50_ms": statistics.median(lat),
        "p95_ms": _percentile(lat, 0.95),
        "max_ms": max(lat),
    }
    if drawn:
        out["drawn_p50_ms"] = statistics.median(drawn)
    if text:
        out["readouts_p50_ms"] = statistics.median(text)
    if pairs:
        out["reply_p50_ms"] = statistics.median(r for _t, r in pairs)
        out["redraw_p50_ms"] = statistics.median(t - r for t, r in pairs)
    return out


def to_interactive(context, url: str, notebook: str, visit: str) -> dict:
    """Page request to interactive [s] in ``context`` (a browser: empty for the cold visit, the same for the warm).

    Beside it: the requests the page made, those the browser's cache answered without asking
    the server (from memory, from disk), those the server answered "not modified" (304), and
    the megabytes that came over the network (Chromium's own counts).
    """
    from browser.conftest import wait_rendered, with_token

    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    seen = {"requests": 0, "from_cache": 0, "revalidated": 0, "bytes": 0}
    cached: set[str] = set()

    def count(key, n=1):
        seen[key] += n

    def response(e):
        r = e["response"]
        if r.get("fromDiskCache") or r.get("fromPrefetchCache") or r.get("fromServiceWorker"):
            cached.add(e["requestId"])

    def raw(e):  # the network's own status: a revalidated file is reported 200 from the cache entry
        if e.get("statusCode") == 304:
            count("revalidated")

    cdp.on("Network.requestWillBeSent", lambda _e: count("requests"))
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))  # from memory
    cdp.on("Network.responseReceived", response)
    cdp.on("Network.responseReceivedExtraInfo", raw)
    cdp.on("Network.loadingFinished", lambda e: count("bytes", e.get("encodedDataLength", 0)))
    try:
        t0 = time.perf_counter()
        page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
        wait_rendered(page, plots=notebook != "00_start_here.ipynb", timeout=300_000)
        page.wait_for_selector(".widget-slider .noUi-handle, .widget-text input", timeout=300_000)
        took = time.perf_counter() - t0
        page.wait_for_timeout(500)  # the last counts arrive
    finally:
        close_page(context)
    return {f"{visit}_s": took, f"{visit}_requests": seen["requests"], f"{visit}_from_cache": len(cached),
            f"{visit}_revalidated": seen["revalidated"], f"{visit}_mb": seen["bytes"] / 1e6}  # fmt: skip


def _tree_cpu_s(pid: int) -> float:
    """CPU time [s] of process ``pid`` and its descendants (Linux ``/proc``)."""
    parent, cpu, tick = {}, {}, os.sysconf("SC_CLK_TCK")
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                f = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d.name)], cpu[int(d.name)] = int(f[1]), (int(f[11]) + int(f[12])) / tick
    tree, todo = set(), [pid]
    while todo:
        p = todo.pop()
        tree.add(p)
        todo += [c for c, pp in parent.items() if pp == p and c not in tree]
    return sum(cpu.get(p, 0.0) for p in tree)


def refilled_s() -> float:
    """Seconds at least between two visits: the app starts the kernel that replaces a visit's
    preheated one :data:`~vtsmodel.app.serve.REFILL_DELAY_S` after the visit (a baseline before
    it, Voila's 1 s), and a second more for it to start.

    Imported here, not at the top: the kernel worker (``--kernel``) runs a baseline's package.
    """
    from vtsmodel.app.serve import REFILL_DELAY_S

    return REFILL_DELAY_S + 1.0


def wait_preheated(pid: int, floor_s: float, *, quiet_s: float = 5.0, timeout_s: float = 900.0) -> float:
    """Wait until the app server ``pid`` and its kernels are idle (its pool preheated); the seconds waited.

    At least ``floor_s``, then until the process tree used under a tenth of a core for
    ``quiet_s``: a fixed wait is too short on a loaded machine (visits would time the pool's
    notebooks too) and wasted on a quiet one (eleven kernels preheat in about 21 s of CPU
    here). Without ``/proc``: ``floor_s``.
    """
    t0 = time.monotonic()
    time.sleep(floor_s)
    if not Path("/proc/self/stat").exists():
        return floor_s
    last = _tree_cpu_s(pid)
    while time.monotonic() - t0 < timeout_s:
        time.sleep(quiet_s)
        now = _tree_cpu_s(pid)
        if now - last < 0.1 * quiet_s:
            break
        last = now
    return time.monotonic() - t0


def run(
    moves: int = 30,
    notebooks: list[str] | None = None,
    baseline: Path | None = None,
    *,
    pages: bool = True,
    tti: bool = True,
    pace: float = 0.0,
) -> dict:
    """Every page's kernel and browser moves, and its time to interactive, for this tree (and ``baseline``).

    The moves first, both trees' servers up without preheated kernels (a page starts its own),
    page by page, this tree's then the baseline's. Then the time to interactive, one tree at a
    time with one preheated kernel per page: every page's cold visit, then every page's warm
    visit (the same browser as its cold one), each visit once the server has preheated the
    kernel the visit before took (:func:`wait_preheated`), as one person opening a page meets
    it. ``pages=False``: the time to interactive only; ``tti=False``: the moves only; ``pace``:
    :func:`browser_moves`'s.
    """
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.conftest import CHROMIUM_ARGS

    from vtsmodel.app._browser import HOW_TO_GET, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(HOW_TO_GET)
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-bench-"))
    trees = {"now": ROOT, **({"before": Path(baseline).resolve()} if baseline else {})}
    wanted = notebooks or sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    preheat_s = float(os.environ.get("VTSMODEL_PREHEAT_WAIT", "20"))  # at least
    between_s = refilled_s()
    out: dict = {"trees": {k: str(v) for k, v in trees.items()}, "pages": [], "tti": [], "pace_s": pace,
                 "machine": {"start": reference.speed()}}  # fmt: skip
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            servers = {k: Server(t, pool=0) for k, t in trees.items()} if pages else {}
            try:
                for nb in wanted if pages else ():
                    row: dict = {"notebook": nb}
                    for k, tree in trees.items():
                        if nb == "00_start_here.ipynb" or not (tree / "notebooks" / nb).exists():
                            continue
                        try:
                            kernel = kernel_in(tree, nb, moves)
                            row[f"{k}_kernel"] = kernel
                            row[f"{k}_browser"] = browser_moves(
                                browser, servers[k].url, nb, kernel, pace=pace
                            )
                        except Exception as exc:  # noqa: BLE001 - reported per page, the others still run
                            row[f"{k}_error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                    if len(row) > 1:
                        out["pages"].append(row)
                        print(
                            nb, {k: v for k, v in row.items() if k.endswith(("browser", "error"))}, flush=True
                        )
            finally:
                for s in servers.values():
                    s.close()
            for k, tree in trees.items() if tti else ():
                present = [nb for nb in wanted if (tree / "notebooks" / nb).exists()]
                server = Server(tree, pool=1)
                contexts = {
                    nb: browser.new_context(viewport={"width": 1280, "height": 900}) for nb in present
                }
                try:
                    tti = {nb: {"notebook": nb, "tree": k} for nb in present}
                    for visit in ("cold", "warm"):
                        waited = wait_preheated(server.proc.pid, preheat_s)  # a kernel per page (again)
                        print(f"{k} {visit}: the pool preheated in {waited:.0f} s", flush=True)
                        for i, nb in enumerate(present):
                            if i:  # one visitor at a time: the last visit's kernel replaced first
                                wait_preheated(server.proc.pid, between_s, quiet_s=3.0)
                            try:
                                tti[nb].update(to_interactive(contexts[nb], server.url, nb, visit))
                            except Exception as exc:  # noqa: BLE001 - reported per page, the others still run
                                tti[nb]["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
                    out["tti"] += list(tti.values())
                    print(k, list(tti.values()), flush=True)
                finally:
                    for c in contexts.values():
                        c.close()
                    server.close()
        finally:
            browser.close()
    out["machine"]["end"] = reference.speed()
    return out


# --- the report ----------------------------------------------------------------------------------


def _cell(x: float, fmt: str = ".0f") -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def report_lines(res: dict) -> list[str]:
    """The report's sections on the pages: moves with fresh values, kernel beside browser; time to interactive."""
    before = "before" in res.get("trees", {})
    lines = ["## Moving a page's main control, fresh values (kernel and browser)", "",
             "Each page's main control moved one step at a time through values it never had before "
             "(a slider's key presses in one direction; lesson 05: its first flow's rate typed into the grid), "
             "as a person exploring does: no move is answered by a value kept from an earlier one. "
             "\"browser\": key press to the first change inside a plot, timed in the page (Voila, Chromium); "
             "\"reply\" is key press to the plot's message arriving; \"drawn per move\" is plotly.js's drawing from one move's "
             "first key press to the next move's (every plot the move redraws, on the screen or not); \"readouts\" is key "
             "press to the first change of the numbers beside the plots (the moves that change them). \"kernel\": the notebook's cells run in a fresh "
             "process and the same control moved there: wall time per move (p50, p95), CPU time (p50), the work "
             "deferred to after the move (the planner's tornado, p50) and the evaluations computed per move "
             "(the app's cache counts, where the tree has them)"
             + (f"; \"before\": the same of {res['trees']['before']} in the same run" if before else "")
             + (f"; a key press at most every {res['pace_s']:g} s (--pace: a person's pace, the deferred work between "
                "moves)" if res.get("pace_s") else "; each key press once the move before has changed a plot")
             + f". Aims: browser p50 <= {AIM_P50_MS} ms and p95 <= {AIM_P95_MS} ms; the planner's kernel "
             f"<= {AIM_PLANNER_KERNEL_MS} ms per fresh move (judged on its CPU time: on a shared machine the wall "
             "time also holds the other processes' load).", ""]  # fmt: skip
    head = ("| page | control | moves | browser p50 [ms] | p95 [ms] | reply p50 [ms] | drawn per move p50 [ms] "
            "| readouts p50 [ms] | kernel p50 [ms] "
            "| kernel p95 [ms] | CPU p50 [ms] | deferred p50 [ms] | computed per move | aim met |")  # fmt: skip
    if "machine" in res:  # the aims are absolute times: how fast the machine was, at the start and the end
        lines += [
            "The machine "
            + "; ".join(f"at the {when}: {reference.speed_text(s)}" for when, s in res["machine"].items())
            + ".",
            "",
        ]
    lines += [head, "|---" * (head.count("|") - 1) + "|"]
    for row in res["pages"]:
        for tree in ("before", "now") if before else ("now",):
            k, b = row.get(f"{tree}_kernel"), row.get(f"{tree}_browser")
            name = row["notebook"] + (f" ({tree})" if before else "")
            if k is None:
                if f"{tree}_error" in row:
                    lines.append(f"| {name} | failed: {row[f'{tree}_error'].splitlines()[0]} |" + " |" * 12)
                continue
            b = b or {}
            kp50 = statistics.median(k["wall_ms"])
            ok = b.get("p50_ms", math.inf) <= AIM_P50_MS and b.get("p95_ms", math.inf) <= AIM_P95_MS
            if row["notebook"].startswith(
                "07_"
            ):  # and the kernel's own aim, in CPU (wall time holds the load)
                ok = ok and statistics.median(k["cpu_ms"]) <= AIM_PLANNER_KERNEL_MS
            lines.append(
                f"| {name} | {k['target']} | {k['moves']} | {_cell(b.get('p50_ms'))} | {_cell(b.get('p95_ms'))} "
                f"| {_cell(b.get('reply_p50_ms'))} | {_cell(b.get('drawn_p50_ms'))} | {_cell(b.get('readouts_p50_ms'))} "
                f"| {kp50:.1f} "
                f"| {_percentile(k['wall_ms'], 0.95):.1f} "
                f"| {statistics.median(k['cpu_ms']):.1f} "
                f"| {_cell(statistics.median(k['deferred_ms']) if k['deferred_ms'] else None)} "
                f"| {_cell(statistics.mean(k['computed']) if k['computed'] else None, '.1f')} | {'yes' if ok else 'no'} |"
            )
    lines += ["", "## Page request to interactive, preheated kernels", "",
              "Request to the page's first plot drawn and its first control shown, with a kernel the server "
              "started beforehand, one visit at a time (each once the server has replaced the kernel the visit before took): \"cold\" in a browser with an empty cache, \"warm\" the same browser's second "
              "visit; the requests the page made, of those on the warm visit the ones the browser's cache answered "
              "without asking the server (memory or disk) and the ones the server answered \"not modified\" (a round "
              f"trip each), and the megabytes over the network. Aim: <= {AIM_TTI_S:g} s, both.", "",
              "| page | cold [s] | warm [s] | requests, cold | MB, cold | requests, warm | from cache, warm | not modified, warm | MB, warm | aim met |",
              "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in res["tti"]:
        name = r["notebook"] + (f" ({r['tree']})" if before else "")
        if "error" in r or "warm_s" not in r:
            lines.append(f"| {name} | failed: {r.get('error', 'no warm visit').splitlines()[0]} |" + " |" * 8)
            continue
        ok = max(r["cold_s"], r["warm_s"]) <= AIM_TTI_S
        lines.append(f"| {name} | {r['cold_s']:.1f} | {r['warm_s']:.1f} | {r['cold_requests']} | {r['cold_mb']:.1f} "
                     f"| {r['warm_requests']} | {r['warm_from_cache']} | {r.get('warm_revalidated', '')} | {r['warm_mb']:.1f} "
                     f"| {'yes' if ok else 'no'} |")  # fmt: skip
    return lines


def _pace(text: str) -> float:
    """``--pace``: seconds in [0, 10]."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 10.0:
        raise argparse.ArgumentTypeError(f"--pace={text!r} must be a number of seconds in [0, 10]")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--baseline", type=Path, help="a checkout of an earlier commit, measured in the same run")
    ap.add_argument("--kernel", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    ap.add_argument("--tti-only", action="store_true", help="only the page request to interactive")
    ap.add_argument("--moves-only", action="store_true", help="only the moves")
    ap.add_argument("--pace", type=_pace, default=0.0, metavar="S",
                    help="the least seconds from one key press to the next, as a person steps (default 0: at once)")  # fmt: skip
    ap.add_argument("notebooks", nargs="*", help="notebook file names (default: every lesson)")
    args = ap.parse_args()
    if args.kernel:
        print(json.dumps(kernel_moves(args.kernel.resolve(), args.moves)))
        return
    res = run(
        args.moves, args.notebooks or None, args.baseline, pages=not args.tti_only, tti=not args.moves_only,
        pace=args.pace,
    )  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(res, indent=1, default=str))
    print("\n".join(report_lines(res)))


if __name__ == "__main__":
    main()
