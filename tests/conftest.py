"""Test session set-up: Jupyter, IPython and exports write into a temporary folder.

Slow work is marked: a test that starts a process (a Python, a server, Chromium for an
export or a page) or runs libCacheSim must be marked ``slow`` (or ``browser``), so that
``make test-fast`` (``-m "not browser and not slow"``) leaves it out. The session notes
both as they happen and fails an unmarked test that did either, naming what it started.
"""

from __future__ import annotations

import importlib.abc
import os
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_TMP = Path(tempfile.mkdtemp(prefix="vtsmodel-tests-"))
ARTIFACTS = ROOT / "test-artifacts"


class _SlowWork:
    """What the running test started that makes a test slow: processes, libCacheSim."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def note(self, what: str) -> None:
        if what not in self.seen:
            self.seen.append(what)


SLOW_WORK = _SlowWork()
_popen_init = subprocess.Popen.__init__


def _noted_popen_init(self, *args, **kwargs):
    cmd = args[0] if args else kwargs.get("args")
    SLOW_WORK.note(f"a process ({' '.join(map(str, cmd)) if isinstance(cmd, list | tuple) else cmd})"[:160])
    _popen_init(self, *args, **kwargs)


class _Noted(types.ModuleType):
    """libCacheSim as imported, noting each use (the real module is ``_real``)."""

    def __getattr__(self, name):
        if not name.startswith("__"):  # a dunder is a tool looking at the module (Hypothesis), not a use
            SLOW_WORK.note("libCacheSim")
        return getattr(self.__dict__["_real"], name)


class _NotedLoader(importlib.abc.Loader):
    def __init__(self, loader) -> None:
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        self.loader.exec_module(module)
        noted = _Noted(module.__name__)
        noted.__dict__["_real"] = module
        sys.modules[module.__name__] = noted  # what `import libcachesim` then returns


class _NoteLibCacheSim(importlib.abc.MetaPathFinder):
    """Finds libcachesim as the other finders do and hands its module out noted (imported lazily)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "libcachesim":
            return None
        for finder in sys.meta_path:
            spec = (
                None
                if finder is self
                else getattr(finder, "find_spec", lambda *a: None)(fullname, path, target)
            )
            if spec is not None:
                spec.loader = _NotedLoader(spec.loader)
                return spec
        return None


def pytest_configure(config):
    """Keep Jupyter state out of the user's home before any kernel starts; note slow work."""
    subprocess.Popen.__init__ = _noted_popen_init
    if "libcachesim" not in sys.modules:
        sys.meta_path.insert(0, _NoteLibCacheSim())
    home = _TMP / "home"
    home.mkdir(exist_ok=True)
    env = {
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(_TMP / "jupyter-config"),
        "JUPYTER_DATA_DIR": str(_TMP / "jupyter-data"),
        "JUPYTER_RUNTIME_DIR": str(_TMP / "jupyter-runtime"),
        "IPYTHONDIR": str(_TMP / "ipython"),
        "MPLCONFIGDIR": str(_TMP / "mpl"),
        "VTSMODEL_EXPORT_DIR": str(_TMP / "exports"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }
    os.environ.update(env)


def pytest_unconfigure(config):
    subprocess.Popen.__init__ = _popen_init
    shutil.rmtree(_TMP, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    SLOW_WORK.seen.clear()  # what the test's fixtures start counts too


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail a test that started a process or ran libCacheSim without the ``slow`` or ``browser`` mark."""
    out = yield
    marked = item.get_closest_marker("slow") or item.get_closest_marker("browser")
    if SLOW_WORK.seen and not marked:
        pytest.fail(
            f"{item.nodeid} started {', '.join(SLOW_WORK.seen)}: mark it @pytest.mark.slow "
            "(make test-fast leaves slow tests out)",
            pytrace=False,
        )
    return out


@pytest.fixture
def export_dir() -> Path:
    """The folder panels export into during tests (emptied per test)."""
    d = Path(os.environ["VTSMODEL_EXPORT_DIR"])
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where tests save artifacts to look at (screenshots): ``test-artifacts/``."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
