"""Interaction speed measured in a real browser: slider key press to plot repaint.

For every lesson's main slider, in Voila with Chromium: press ArrowRight on the slider's
handle N times and time, in the page, from the key press (``performance.now`` in a
capturing keydown listener) to the first change inside a plot (a MutationObserver on the page: a plot pane
replaces its plot element on every change);
report p50 and p95. Also the time from page request to interactive (panel and plot
drawn), with and without preheated kernels.

Run: ``python benchmarks/bench_pages.py [--moves 20]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The browser harness of the tests (a site-packages "tests" package may shadow ours).
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import (  # noqa: E402
    CHROMIUM_ARGS,
    NOTEBOOKS,
    _wait_http,
    free_port,
    ready_url,
    voila_command,
    voila_env,
    wait_rendered,
    wait_widgets_rendered,
    with_token,
)

from vtsmodel.app._browser import HOW_TO_GET, find_chromium  # noqa: E402

#: Lesson notebook -> (label text of its main slider, index of the plot it moves), as the
#: browser tests move them. Lesson 05 is a sheet of flows, with no slider. "Reply" is the
#: key press to the plot pane's receiving the kernel's change (``_plotpane.js`` notes it),
#: "redraw" the rest.
MAIN_SLIDERS = {
    "01_sustained_vs_peak_write.ipynb": ("compressibility CF", 0),
    "02_time_at_peak_vs_tvc.ipynb": ("CF", 0),
    "03_recall_queue_mount_time.ipynb": ("recalls per hour", 2),
    "04_drive_efficiency_vs_file_size.ipynb": ("file size", 0),
    "06_disk_cache_staging.ipynb": ("Reads per HDD", 0),
    "08_read_hits_from_a_mount_log.ipynb": ("TVC capacity", 0),
    "10_library_over_the_years.ipynb": ("growth of the writes", 0),
}

_INSTALL = """
([plotIndex]) => {
  window.__lat = [];
  window.__t0 = null;
  document.addEventListener('keydown', () => { window.__t0 = performance.now(); window.__vtsmodelReceived = null; }, true);
  const touchesPlot = (rec) => {
    const t = rec.target.nodeType === 1 ? rec.target : rec.target.parentElement;
    if (t && t.closest && t.closest('.js-plotly-plot')) return true;
    for (const n of rec.addedNodes) {
      if (n.nodeType === 1 && (n.matches('.js-plotly-plot, .main-svg') || n.querySelector('.js-plotly-plot'))) return true;
    }
    return false;
  };
  window.__reply = [];
  const obs = new MutationObserver((recs) => {
    if (window.__t0 !== null && recs.some(touchesPlot)) {
      window.__lat.push(performance.now() - window.__t0);
      const got = window.__vtsmodelReceived;
      window.__reply.push(got !== null && got !== undefined && got >= window.__t0 ? got - window.__t0 : null);
      window.__t0 = null;
    }
  });
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""


def _kernel_panels(notebook: str):
    """The panel a lesson's main slider moves, built as the lesson's notebook builds it (with its sheet)."""
    from vtsmodel.app.lessons import disk_cache, efficiency, hits, library, recall, time_at_peak, write
    from vtsmodel.app.sheet import scenario_sheet

    keep = []  # the sheets stay bound while the panel moves
    if notebook.startswith("01_"):
        panel = write.write_panel()
    elif notebook.startswith("02_"):
        panel = time_at_peak.time_at_peak_panel()
    elif notebook.startswith("03_"):
        queue, panel = recall.queue_panel(), recall.arrivals_panel()
        keep.append(scenario_sheet("03", queue, panel))
        return panel, keep
    elif notebook.startswith("04_"):
        panel = efficiency.efficiency_panel()
    elif notebook.startswith("06_"):
        panel = disk_cache.staging_panel()
        keep.append(scenario_sheet("06", panel, disk_cache.copy_panel(), disk_cache.ride_panel()))
        return panel, keep
    elif notebook.startswith("08_"):
        page = hits.hits_page()
        return page.panel, [page]
    elif notebook.startswith("10_"):
        return library.library_panel(), []  # no scenario sheet
    else:
        raise KeyError(notebook)
    keep.append(scenario_sheet(notebook[:2], panel))
    return panel, keep


def kernel_move(notebook: str, moves: int = 30) -> float:
    """Median time the kernel spends on one move of the main slider [ms], without a browser.

    The same panel as in the page, bound to its scenario sheet; each move sets the slider
    one step (as a key press does) and runs everything its change triggers: the view,
    the plots' moving parts, the readouts, the sheet's row.
    """
    label, _ = MAIN_SLIDERS[notebook]
    panel, _keep = _kernel_panels(notebook)
    key = next(k for k, inp in panel.inputs.items() if label.lower() in inp.label.lower())
    ctl = panel.controls[key]
    start = ctl.value
    if hasattr(ctl, "base"):  # a log slider steps its exponent (down from the top)
        up = start * ctl.base**ctl.step
        nxt = up if up <= ctl.base**ctl.max else start / ctl.base**ctl.step
    else:
        nxt = start + ctl.step if start + ctl.step <= ctl.max else start - ctl.step
    times = []
    for i in range(moves):
        t = time.perf_counter()
        ctl.value = nxt if i % 2 == 0 else start
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


class Voila:
    """A Voila server on a free port, optionally with preheated kernels."""

    def __init__(self, preheat: bool):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            voila_command(self.port, preheat=preheat),
            cwd=NOTEBOOKS,
            env=voila_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_http(ready_url(self.url), self.proc)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _slider_handle(page, label: str):
    sliders = page.locator(".widget-slider")
    if label:
        sliders = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=label))
    return sliders.first.locator(".noUi-handle")


def measure_slider(browser, url: str, notebook: str, moves: int) -> dict:
    label, plot_index = MAIN_SLIDERS.get(notebook, ("", 0))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
    wait_rendered(page, timeout=300_000)
    wait_widgets_rendered(page)
    try:
        page.evaluate(_INSTALL, [plot_index])
        handle = _slider_handle(page, label)
        handle.scroll_into_view_if_needed()
        handle.focus()
        for i in range(moves):
            key = "ArrowRight" if (i // 5) % 2 == 0 else "ArrowLeft"
            handle.press(key)
            page.wait_for_function("n => window.__lat.length >= n", arg=i + 1, timeout=30_000)
        lat = page.evaluate("() => window.__lat")
        pairs = [
            (t, r) for t, r in zip(lat, page.evaluate("() => window.__reply"), strict=False) if r is not None
        ]
    finally:
        context.close()
    out = {
        "notebook": notebook,
        "moves": len(lat),
        "p50_ms": statistics.median(lat),
        "p95_ms": _percentile(lat, 0.95),
        "max_ms": max(lat),
    }
    try:
        out["kernel_p50_ms"] = kernel_move(notebook, moves)
    except Exception as exc:  # noqa: BLE001 - the split is extra; the page's figures stand
        out["kernel_error"] = f"{type(exc).__name__}: {exc}"
    if pairs:
        # Each move split: key press to the figure's message (kernel and network), then redraw.
        out["reply_p50_ms"] = statistics.median(r for _t, r in pairs)
        out["redraw_p50_ms"] = statistics.median(t - r for t, r in pairs)
    return out


def time_to_interactive(browser, url: str, notebook: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        t0 = time.perf_counter()
        page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
        wait_rendered(page, plots=notebook != "00_start_here.ipynb", timeout=300_000)
        page.wait_for_selector(".widget-slider .noUi-handle, .widget-text input", timeout=300_000)
        return time.perf_counter() - t0
    finally:
        context.close()


def run(moves: int = 30, notebooks: list[str] | None = None) -> dict:
    """Slider latency per lesson's main slider, and time to interactive per lesson (cold and preheated)."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(HOW_TO_GET)
    wanted = notebooks or sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    present = [n for n in wanted if (NOTEBOOKS / n).exists()]
    os.environ.setdefault("JUPYTER_RUNTIME_DIR", tempfile.mkdtemp(prefix="vtsmodel-bench-"))
    out: dict = {"sliders": [], "tti": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        cold = Voila(preheat=False)
        tti = {nb: {"notebook": nb} for nb in present}
        try:
            for nb in present:
                if nb in MAIN_SLIDERS:
                    try:
                        out["sliders"].append(measure_slider(browser, cold.url, nb, moves))
                    except Exception as exc:  # noqa: BLE001 - reported per lesson, the others still run
                        out["sliders"].append(
                            {"notebook": nb, "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
                        )
                tti[nb]["cold_s"] = time_to_interactive(browser, cold.url, nb)
        finally:
            cold.close()
        warm = Voila(preheat=True)
        try:
            # Give the pool time to start a kernel per notebook and run it before the requests.
            time.sleep(float(os.environ.get("VTSMODEL_PREHEAT_WAIT", str(20 + 8 * len(present)))))
            for nb in present:
                tti[nb]["preheated_s"] = time_to_interactive(browser, warm.url, nb)
        finally:
            warm.close()
        out["tti"] = list(tti.values())
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("notebooks", nargs="*", help="notebook file names (default: every lesson)")
    args = ap.parse_args()
    res = run(args.moves, args.notebooks or None)
    for r in res["sliders"]:
        if "error" in r:
            print(f"{r['notebook']:45s} failed: {r['error']}")
            continue
        split = (
            f"  reply {r.get('reply_p50_ms', float('nan')):5.1f} (kernel {r.get('kernel_p50_ms', float('nan')):4.1f})"
            f"  redraw {r.get('redraw_p50_ms', float('nan')):5.1f}"
        )
        print(
            f"{r['notebook']:45s} p50 {r['p50_ms']:6.1f} ms  p95 {r['p95_ms']:6.1f} ms  ({r['moves']} moves){split}"
        )
    for r in res["tti"]:
        print(
            f"time to interactive {r['notebook']:45s} cold {r.get('cold_s', float('nan')):5.1f} s, preheated {r.get('preheated_s', float('nan')):5.1f} s"
        )


if __name__ == "__main__":
    main()
