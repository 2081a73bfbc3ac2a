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
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from vtsmodel.app import page_assets, serve

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))

# The shape of jupyterlab_server's get_federated_extensions (package.json): the extensions installed
# here, and a grid that takes a plotting library's modules, which takes its scales' (as a data grid
# extension does: its shared packages not bundled).
INSTALLED = {
    "@jupyter-widgets/jupyterlab-manager": {"jupyterlab": {}},
    "@voila-dashboards/widgets-manager8": {
        "jupyterlab": {"sharedPackages": {"@jupyter-widgets/jupyterlab-manager": {"bundled": True}}}
    },
    "anywidget": {"jupyterlab": {}},
    "a-grid": {
        "jupyterlab": {
            "sharedPackages": {"@jupyter-widgets/base": {"bundled": False}, "a-plot": {"bundled": False}}
        }
    },
    "a-plot": {"jupyterlab": {"sharedPackages": {"a-scale": {"bundled": False}, "d3": {"bundled": True}}}},
    "a-scale": {"jupyterlab": {"sharedPackages": {"d3-scale": {"bundled": True}}}},
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
    # The grid takes the plotting library from the page (bundled: false), which takes the scales.
    assert page_assets.with_dependencies(["a-grid"], INSTALLED) == {"a-grid", "a-plot", "a-scale"}
    # A bundled shared package is the extension's own copy; a package no extension provides is not one.
    assert page_assets.with_dependencies(["a-scale"], INSTALLED) == {"a-scale"}
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
    _notebook(tmp_path, "grid.ipynb", {"labextensions": ["anywidget", "a-grid"], "plotly.js": True})
    config = _call(hook, "grid.ipynb")
    names = [x["name"] for x in config["federated_extensions"]]
    assert names == ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8", "anywidget",
                     "a-grid", "a-plot", "a-scale"]  # fmt: skip
    (src,) = config["vtsmodelScripts"]
    assert src == page_assets.plotly_url("/base/")
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


def _widget_modules(notebook: Path) -> tuple[collections.Counter, list]:
    """The model modules of the widgets ``notebook``'s cells create, and its plot panes' widgets."""
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
    plots = [w for w in made if isinstance(w, _PlotView)]
    return collections.Counter(w._model_module for w in made), plots


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
    assert meta.get("plotly.js", False) is bool(plots), (
        f"{name}: {len(plots)} plot panes, metadata plotly.js {meta.get('plotly.js')}"
    )
    # Every trace its plot panes draw at first sight is of a type the partial plotly.js draws.
    drawn = {t.get("type", "scatter") for p in plots for t in [*p.base.get("data", []), *p.moving["traces"]]}
    missing = drawn - page_assets.bundle_traces(_installed_partial())
    assert not missing, (
        f"{name} draws {sorted(missing)}, which {page_assets.PARTIAL_PACKAGE} does not register"
    )


# --- the partial plotly.js bundle ------------------------------------------------------------

ROOT = NOTEBOOKS.parent


def _installed_partial() -> Path:
    path = page_assets.partial_folder() / page_assets.PARTIAL_FILE
    assert path.is_file(), f"{path} is missing: `make setup` installs it (npm ci of js/package-lock.json)"
    return path


def _trace_types() -> dict[str, str]:
    """plotly.py's trace types: type name -> its graph_objects class name (``heatmap`` -> ``Heatmap``)."""
    import plotly.graph_objects as go

    return dict(go.Figure()._data_validator.class_strs_map)


def _drawn_in_source() -> dict[str, set[str]]:
    """The trace types the package's code and the notebooks' code cells name, and where.

    A trace is named as ``go.Heatmap(``, ``fig.add_heatmap(`` or a dict's ``"type": "heatmap"``
    (``type="heatmap"``); shapes' and axes' types (line, rect, path, log, category) are not
    trace types.
    """
    texts = {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / "vtsmodel").rglob("*.py")
    }
    for nb in NOTEBOOKS.glob("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts[nb.name] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    found: dict[str, set[str]] = collections.defaultdict(set)
    for kind, cls in _trace_types().items():
        named = re.compile(
            rf"\bgo\.{cls}\(|\.add_{kind}\(|[\"']type[\"']\s*:\s*[\"']{kind}[\"']|\btype\s*=\s*[\"']{kind}[\"']"
        )
        for where, text in texts.items():
            if named.search(text):
                found[kind].add(where)
    return found


def test_the_partial_bundle_is_the_plotly_js_of_the_plotly_package():
    """js/package.json pins the bundle of the plotly.js plotly.py draws with; a new plotly needs a new pin."""
    from plotly.offline import get_plotlyjs_version

    wanted = get_plotlyjs_version()
    pinned = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert pinned == {page_assets.PARTIAL_PACKAGE: wanted}, (
        f"js/package.json pins {pinned}; the installed plotly draws with plotly.js {wanted}: "
        f"pin {page_assets.PARTIAL_PACKAGE} {wanted} and run `npm install --package-lock-only` in js/"
    )
    lock = json.loads((ROOT / "js" / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"][f"node_modules/{page_assets.PARTIAL_PACKAGE}"]
    assert locked["version"] == wanted and locked["integrity"].startswith("sha512-"), locked
    assert page_assets.bundle_version(_installed_partial()) == wanted


def test_the_bundles_registered_trace_types_are_read_from_the_file():
    from plotly.offline import get_plotlyjs_version

    # The full bundle registers every trace type plotly.py knows: the reading finds them all.
    assert page_assets.bundle_traces(page_assets.plotly_folder() / page_assets.PLOTLY_FILE) == set(
        _trace_types()
    )
    assert (
        page_assets.bundle_version(page_assets.plotly_folder() / page_assets.PLOTLY_FILE)
        == get_plotlyjs_version()
    )
    # The cartesian bundle: its README's list (plotly.js-cartesian-dist-min 4.1.1).
    assert page_assets.bundle_traces(_installed_partial()) == {
        "bar", "box", "contour", "heatmap", "histogram", "histogram2d", "histogram2dcontour", "image", "pie",
        "scatter", "scatterternary", "violin",
    }  # fmt: skip


def test_every_trace_type_the_code_names_is_in_the_partial_bundle():
    """A trace of a type the page's plotly.js does not register would draw nothing, silently."""
    found = _drawn_in_source()
    assert {"scatter", "bar", "heatmap"} <= set(found), sorted(found)  # the reading finds what is there
    missing = {
        k: sorted(v) for k, v in found.items() if k not in page_assets.bundle_traces(_installed_partial())
    }
    assert not missing, f"trace types the partial plotly.js does not register, named in {missing}"
    # plotly.express names its traces by function (px.line is a scatter): the app does not use it.
    uses_px = [
        p for p in (ROOT / "vtsmodel").rglob("*.py") if "plotly.express" in p.read_text(encoding="utf-8")
    ]
    assert not uses_px, f"{uses_px} use plotly.express: add its trace types to the reading above"


@pytest.fixture
def bundle_at(tmp_path, monkeypatch):
    """The partial bundle's folder moved to ``tmp_path`` (nothing there yet); the choice made afresh."""
    monkeypatch.setattr(page_assets, "partial_folder", lambda: tmp_path)
    page_assets.plotly_bundle.cache_clear()
    yield tmp_path
    page_assets.plotly_bundle.cache_clear()


def _write_bundle(folder: Path, version: str) -> None:
    (folder / page_assets.PARTIAL_FILE).write_text(
        f"/**\n* plotly.js (cartesian - minified) v{version}\n*/\n", encoding="utf-8"
    )


def test_the_pages_load_the_partial_bundle_where_it_is_installed(bundle_at):
    from plotly.offline import get_plotlyjs_version

    _write_bundle(bundle_at, get_plotlyjs_version())
    b = page_assets.plotly_bundle()
    assert b.partial and (b.folder, b.file) == (bundle_at, page_assets.PARTIAL_FILE)
    url = page_assets.plotly_url("/base/")
    assert (
        url
        == f"/base/voila/vtsmodel/{page_assets.PARTIAL_PACKAGE}-{get_plotlyjs_version()}/plotly-cartesian.min.js"
    )
    assert re.fullmatch(page_assets.plotly_route("/base/"), url).group(1) == page_assets.PARTIAL_FILE


def test_without_the_partial_bundle_the_pages_load_the_full_one_and_say_why(bundle_at):
    from importlib.metadata import version

    b = page_assets.plotly_bundle()  # not installed
    assert not b.partial and (b.folder, b.file) == (page_assets.plotly_folder(), page_assets.PLOTLY_FILE)
    assert "not installed (make setup" in b.note and "full bundle" in b.note
    assert page_assets.plotly_url("/") == f"/voila/vtsmodel/plotly-{version('plotly')}/plotly.min.js"
    # Of another plotly.js than plotly.py's: the full one, the two versions named.
    _write_bundle(bundle_at, "3.0.0")
    page_assets.plotly_bundle.cache_clear()
    b = page_assets.plotly_bundle()
    assert not b.partial and "is plotly.js 3.0.0, the plotly package draws with" in b.note
