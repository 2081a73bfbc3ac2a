"""Export every lesson figure to PNG with one reused browser, then with a browser per figure.

Run: ``.venv/bin/python benchmarks/bench_export.py [--limit N]``. Both ways run in one
process, on the same figures, one after the other, so the ratio compares like with like
on this machine. "A browser per figure" stops kaleido's shared server after every figure,
so each export starts Chromium again (what a plain ``fig.write_image`` does); the shared
browser draws the set as ``vtsmodel figures`` does, a few tabs at a time. The aim: the
whole set in under 10 s with the shared browser.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

from vtsmodel.app import export
from vtsmodel.app.lessons import LESSONS, lesson_module


def lesson_figures() -> list[tuple[str, object]]:
    """``(name, figure)`` for every figure of every lesson that follows the contract."""
    out = []
    for number in LESSONS:
        try:
            module = lesson_module(number)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                view = module.scenario_view()
        except Exception as exc:  # noqa: BLE001 - a lesson being written is reported, not fatal
            print(f"lesson {number} skipped: {type(exc).__name__}: {exc}")
            continue
        out += [(f"{number}_{key}", fig) for key, fig in view.figures.items()]
    return out


def _export_all(figures, outdir: Path, *, restart: bool) -> float:
    """Seconds to write every figure as PNG: as ``vtsmodel figures`` does, or restarting
    the browser for every figure."""
    start = time.perf_counter()
    if restart:
        for name, fig in figures:
            export.export_figure(fig, outdir / f"{name}.png", caption="benchmark", overwrite=True)
            export.stop_browser()
    else:
        items = [(fig, outdir / f"{name}.png", "benchmark") for name, fig in figures]
        results = export.export_many(items, overwrite=True)
        assert all(not isinstance(r, Exception) for _p, r in results), results
    seconds = time.perf_counter() - start
    export.stop_browser()
    assert all((outdir / f"{n}.png").read_bytes().startswith(b"\x89PNG") for n, _f in figures)
    return seconds


def run(limit: int | None = None) -> dict:
    """Time both ways; return seconds, per-figure seconds and the ratio."""
    figures = lesson_figures()[:limit]
    with tempfile.TemporaryDirectory() as tmp:
        # both include starting the browser(s)
        shared = _export_all(figures, Path(tmp), restart=False)
        per_figure = _export_all(figures, Path(tmp), restart=True)
    n = len(figures)
    return {
        "figures": n,
        "shared_browser_s": shared,
        "browser_per_figure_s": per_figure,
        "shared_per_figure_s": shared / n if n else float("nan"),
        "fresh_per_figure_s": per_figure / n if n else float("nan"),
        "ratio": per_figure / shared if shared else float("nan"),
        "under_10_s": shared < 10.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N figures")
    r = run(ap.parse_args().limit)
    print(
        f"{r['figures']} figures to PNG: one shared browser {r['shared_browser_s']:.1f} s "
        f"({r['shared_per_figure_s']:.2f} s each), a browser per figure {r['browser_per_figure_s']:.1f} s "
        f"({r['fresh_per_figure_s']:.2f} s each); ratio {r['ratio']:.1f}x; "
        f"whole set under 10 s: {'yes' if r['under_10_s'] else 'no'}"
    )


if __name__ == "__main__":
    main()
