"""The app's kernels: what a page holds once built, kept out of the garbage collector's full passes.

A Voila page is built once, cell by cell, and then lives as long as its page. Python's full
collection (generation 2) walks every object alive: in the planner's kernel one took 77 ms,
once in about 40 slider moves, on the same move in every run (BENCHMARKS.md). ``gc.freeze()``
after each cell moves what the page holds so far out of those walks; what the moves create
later is collected as before. Only in the app's kernels (the app server sets :data:`ENV_VAR`
for the kernels it starts): in JupyterLab a cell run again would leave frozen the cycles of
the objects it replaced.
"""

from __future__ import annotations

import gc
import os

__all__ = ["ENV_VAR", "freeze_after_cells"]

#: Set to ``"1"`` in the environment of the app server's kernels (:mod:`vtsmodel.app.serve`).
ENV_VAR = "VTSMODEL_APP_KERNEL"


def freeze_after_cells(shell=None) -> bool:
    """In an app kernel, freeze the objects alive after each cell runs; return whether it was set up.

    ``shell``: the IPython shell (default the running one; none outside a kernel).
    """
    if os.environ.get(ENV_VAR) != "1":
        return False
    if shell is None:
        try:
            from IPython import get_ipython  # here: only an app kernel needs it
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    if _freeze not in shell.events.callbacks["post_run_cell"]:
        shell.events.register("post_run_cell", _freeze)
    return True


def _freeze(_result=None) -> None:
    gc.freeze()
