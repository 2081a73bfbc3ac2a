"""vtsmodel.app.kernelgc: the app server's kernels freeze what a page holds after each cell; other kernels do not."""

from __future__ import annotations

import gc
import os

from vtsmodel.app import kernelgc


class _Events:
    def __init__(self) -> None:
        self.callbacks = {"post_run_cell": []}

    def register(self, event: str, fn) -> None:
        self.callbacks[event].append(fn)


class _Shell:
    def __init__(self) -> None:
        self.events = _Events()


def test_an_app_kernel_freezes_after_each_cell_once_registered(monkeypatch):
    monkeypatch.setenv(kernelgc.ENV_VAR, "1")
    shell = _Shell()
    assert kernelgc.freeze_after_cells(shell) and kernelgc.freeze_after_cells(shell)
    (hook,) = shell.events.callbacks["post_run_cell"]  # registered once, however often the app is imported
    held = [[]]  # a cycle alive when the cell ends
    held[0].append(held)
    before = gc.get_freeze_count()
    try:
        hook(None)  # what IPython calls when a cell has run
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


def test_other_kernels_and_processes_are_left_alone(monkeypatch):
    monkeypatch.delenv(kernelgc.ENV_VAR, raising=False)
    shell = _Shell()
    assert not kernelgc.freeze_after_cells(shell)
    assert shell.events.callbacks["post_run_cell"] == []
    monkeypatch.setenv(kernelgc.ENV_VAR, "1")
    assert not kernelgc.freeze_after_cells()  # no IPython shell running here (pytest)


def test_the_app_server_marks_its_kernels(monkeypatch, tmp_path):
    from vtsmodel.app import savedir, serve

    for name in (kernelgc.ENV_VAR, savedir.ENV_VAR, "JUPYTER_PATH"):
        monkeypatch.delenv(name, raising=False)
    serve.kernel_environment(tmp_path)  # what serve.main sets before it starts: its kernels inherit it
    assert os.environ[kernelgc.ENV_VAR] == "1" and os.environ[savedir.ENV_VAR] == str(tmp_path)
    assert os.environ["JUPYTER_PATH"] == str(serve.TEMPLATES)
    serve.kernel_environment(None)
    assert savedir.ENV_VAR not in os.environ
