"""Export every lesson figure to PNG with one reused browser, then with a browser per figure.

Run: ``.venv/bin/python benchmarks/bench_export.py [--limit N]``. Both ways run in one
process, on the same figures, one after the other, so the ratio compares like with like
on this machine. "A browser per figure" stops kaleido's shared server after every figure,
so each export starts Chromium again (what a plain ``fig.write_image`` does). The aim:
the whole set in under 10 s with the shared browser.
"""

from __future__ import annotations

import argparse
import time
import warnings

from vtsmodel import export
from vtsmodel.lessons import LESSONS, lesson_module


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


def _export_all(figures, *, restart: bool) -> float:
    start = time.perf_counter()
    for _name, fig in figures:
        data = export.figure_bytes(fig, "png", caption="benchmark", size="page")
        assert data.startswith(b"\x89PNG")
        if restart:
            export.stop_browser()
    seconds = time.perf_counter() - start
    export.stop_browser()
    return seconds


def run(limit: int | None = None) -> dict:
    """Time both ways; return seconds, per-figure seconds and the ratio."""
    figures = lesson_figures()[:limit]
    shared = _export_all(figures, restart=False)  # includes starting the one browser
    per_figure = _export_all(figures, restart=True)
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
