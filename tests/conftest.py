"""Test session set-up: Jupyter, IPython and exports write into a temporary folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_TMP = Path(tempfile.mkdtemp(prefix="vtsmodel-tests-"))
ARTIFACTS = ROOT / "test-artifacts"


def pytest_configure(config):
    """Keep Jupyter state out of the user's home before any kernel starts."""
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
    shutil.rmtree(_TMP, ignore_errors=True)


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
