"""What a lesson page loads (vtsmodel/app/page_assets.py): its notebook's extensions, plotly.js, Voila's bundles versioned.

The served page (the HTML's page config, the versioned URLs and their cache headers) is
tested in tests/browser/test_server.py.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from vtsmodel.app import page_assets, serve

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))

# The shape of jupyterlab_server's get_federated_extensions (package.json), as installed here.
INSTALLED = {
    "@jupyter-widgets/jupyterlab-manager": {"jupyterlab": {}},
    "@voila-dashboards/widgets-manager8": {
        "jupyterlab": {"sharedPackages": {"@jupyter-widgets/jupyterlab-manager": {"bundled": True}}}
    },
    "anywidget": {"jupyterlab": {}},
    "ipydatagrid": {
        "jupyterlab": {
            "sharedPackages": {"@jupyter-widgets/base": {"bundled": False}, "bqplot": {"bundled": False}}
        }
    },
    "bqplot": {"jupyterlab": {"sharedPackages": {"bqscales": {"bundled": False}, "d3": {"bundled": True}}}},
    "bqscales": {"jupyterlab": {"sharedPackages": {"d3-scale": {"bundled": True}}}},
    "jupyterlab-plotly": {"jupyterlab": {}},
    "jupyterlab_pygments": {"jupyterlab": {}},
}


def _notebook(folder: Path, name: str, meta: dict | None) -> Path:
    nb = {
        "cells": [],
        "metadata": {} if meta is None else {"vtsmodel": meta},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = folder / name
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_an_extension_brings_the_extensions_it_takes_shared_modules_from():
    # ipydatagrid takes bqplot from the page (bundled: false), bqplot takes bqscales.
    assert page_assets.with_dependencies(["ipydatagrid"], INSTALLED) == {"ipydatagrid", "bqplot", "bqscales"}
    # A bundled shared package is the extension's own copy; a package no extension provides is not one.
    assert page_assets.with_dependencies(["bqscales"], INSTALLED) == {"bqscales"}
    assert page_assets.with_dependencies(["anywidget", "not-installed"], INSTALLED) == {"anywidget"}
    assert page_assets.with_dependencies([], INSTALLED) == set()


def test_a_notebook_names_its_extensions_in_its_metadata(tmp_path):
    named = _notebook(tmp_path, "a.ipynb", {"labextensions": ["anywidget"], "plotly.js": True})
    assert page_assets.declared_extensions(named) == ("anywidget",)
    # Names none, names them wrongly, or cannot be read: None (the page loads every extension).
    assert page_assets.declared_extensions(_notebook(tmp_path, "b.ipynb", None)) is None
    assert (
        page_assets.declared_extensions(_notebook(tmp_path, "c.ipynb", {"labextensions": "anywidget"}))
        is None
    )
    assert page_assets.declared_extensions(_notebook(tmp_path, "d.ipynb", {"labextensions": [1]})) is None
    assert page_assets.declared_extensions(tmp_path / "missing.ipynb") is None
    (tmp_path / "bad.ipynb").write_text("{not json", encoding="utf-8")
    assert page_assets.declared_extensions(tmp_path / "bad.ipynb") is None


def _page_config():
    return {
        "fullStaticUrl": "/base/voila/static",
        "federated_extensions": [{"name": n, "load": f"static/{n}.js"} for n in INSTALLED],
    }


@pytest.fixture
def hook(tmp_path, monkeypatch):
    import jupyterlab_server.config

    monkeypatch.setattr(jupyterlab_server.config, "get_federated_extensions", lambda _paths: INSTALLED)
    return page_assets.page_config_hook(tmp_path)


def _call(hook, notebook_path):
    conf = SimpleNamespace(template="vtsmodel", extra_labextensions_path=[])
    return hook(_page_config(), base_url="/base/", settings={}, log=None, voila_configuration=conf,
                notebook_path=notebook_path)  # fmt: skip


def test_a_page_loads_its_notebooks_extensions_and_plotly_js(hook, tmp_path):
    _notebook(tmp_path, "grid.ipynb", {"labextensions": ["anywidget", "ipydatagrid"], "plotly.js": True})
    config = _call(hook, "grid.ipynb")
    names = [x["name"] for x in config["federated_extensions"]]
    assert names == ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8", "anywidget",
                     "ipydatagrid", "bqplot", "bqscales"]  # fmt: skip
    (src,) = config["vtsmodelScripts"]
    assert src.startswith("/base/voila/vtsmodel/plotly-") and src.endswith("/plotly.min.js")
    assert config["fullStaticUrl"] == f"/base/voila/static/{page_assets.static_prefix('vtsmodel')}"


def test_a_page_of_widgets_only_loads_the_widget_managers_and_no_plotly(hook, tmp_path):
    _notebook(tmp_path, "start.ipynb", {"labextensions": []})
    config = _call(hook, "start.ipynb")
    assert [x["name"] for x in config["federated_extensions"]] == [
        "@jupyter-widgets/jupyterlab-manager",
        "@voila-dashboards/widgets-manager8",
    ]
    assert config["vtsmodelScripts"] == []


def test_a_notebook_that_names_nothing_loads_every_extension_as_voila_does(hook, tmp_path):
    _notebook(tmp_path, "own.ipynb", None)
    config = _call(hook, "own.ipynb")
    assert [x["name"] for x in config["federated_extensions"]] == list(INSTALLED)
    assert config["vtsmodelScripts"] == []


def test_the_static_key_changes_with_the_files(tmp_path):
    (tmp_path / "voila.js").write_text("a", encoding="utf-8")
    first = page_assets.static_key((str(tmp_path),))
    assert len(first) == 12 and first == page_assets.static_key((str(tmp_path),))
    (tmp_path / "1.voila.js").write_text("b", encoding="utf-8")
    page_assets.static_key.cache_clear()  # a new server start reads the files again
    assert page_assets.static_key((str(tmp_path),)) != first


def test_the_voila_config_sets_the_hook(tmp_path):
    c = serve.voila_config(serve.parse_args([str(tmp_path)]), "T" * 43)
    assert callable(c.VoilaConfiguration.page_config_hook)


# --- every lesson names what its widgets use ------------------------------------------------


def _widget_modules(notebook: Path) -> tuple[collections.Counter, bool]:
    """The model modules of the widgets ``notebook``'s cells create, and whether a plot pane is among them."""
    import ipywidgets

    from vtsmodel.app.panels import _PlotView

    before = set(ipywidgets.Widget.widgets)
    ns: dict = {"__name__": "__main__"}
    cwd = os.getcwd()
    os.chdir(notebook.parent)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "code":
                    exec(compile("".join(cell["source"]), str(notebook), "exec"), ns)  # noqa: S102 - the project's notebook
    finally:
        os.chdir(cwd)
    made = [w for k, w in list(ipywidgets.Widget.widgets.items()) if k not in before]
    return collections.Counter(w._model_module for w in made), any(isinstance(w, _PlotView) for w in made)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_names_the_extensions_its_widgets_use(name):
    """A widget whose extension the page does not load shows "Error displaying widget"."""
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import get_voila_labextensions_path

    notebook = NOTEBOOKS / name
    declared = page_assets.declared_extensions(notebook)
    assert declared is not None, f"{name} names no extensions: its page would load all of them"
    loaded = page_assets.with_dependencies(declared, get_federated_extensions(get_voila_labextensions_path()))
    modules, plots = _widget_modules(notebook)
    missing = {m for m in modules if not m.startswith("@jupyter-widgets/") and m not in loaded}
    assert not missing, f"{name}: widgets of {sorted(missing)} but its metadata names {declared}"
    unused = set(declared) - set(modules)
    assert not unused, f"{name} names {sorted(unused)}, which none of its widgets uses"
    meta = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]["vtsmodel"]
    assert meta.get("plotly.js", False) is plots, (
        f"{name}: plot panes {plots}, metadata plotly.js {meta.get('plotly.js')}"
    )
