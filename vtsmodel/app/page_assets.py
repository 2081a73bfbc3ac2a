"""What a lesson page loads: the JupyterLab extensions its widgets use, and Voila's bundles under a versioned URL.

A Voila 0.5 page loads every installed JupyterLab extension (its page config's
``federated_extensions``): plotly.js, the widget managers, anywidget, the Pygments theme
and whatever else the environment holds (a data grid once: about 70 files and 8 MB on a
cold visit), all of it parsed and run before the page's widgets were drawn. A lesson
notebook names what its page uses in its metadata::

    "metadata": {"vtsmodel": {"labextensions": ["anywidget"], "plotly.js": true}}

and its page loads those extensions, the extensions they take shared modules from (an
extension's ``sharedPackages`` not bundled in it that another installed extension
provides), the widgets' base and controls, and Voila's widget manager. A notebook that
names none loads every extension, as Voila does.

plotly.js (4.8 MB, about a second of the page's main thread on this 2-core machine) came
with the jupyterlab-plotly extension, which loads it when a panel's hidden plotly output is
drawn: the panels were drawn only once it had been parsed and run. With ``"plotly.js":
true`` the page fetches plotly.js from its first bytes (at a URL naming its version:
:func:`plotly_url`) and runs it once the page has loaded, while it connects to its kernel;
the plot panes wait for ``window.Plotly``. Such a notebook leaves jupyterlab-plotly out of
its extensions (the panels' hidden plotly output then draws nothing, as it shows nothing
anyway; in JupyterLab it still loads plotly.js).

The plotly.js a page loads is the partial bundle ``js/package.json`` names (plotly.js's
cartesian bundle: scatter, bar, heatmap and nine other trace types, 1.5 MB), which ``make
setup`` installs with ``npm ci`` into :func:`partial_folder`, pinned with its integrity in
``js/package-lock.json``. Where it is not installed, or it is not the plotly.js the plotly
package draws with (:func:`plotly.offline.get_plotlyjs_version`), the page loads the plotly
package's full bundle and the server says why in its log (:func:`plotly_bundle`). A test
checks that every trace type the pages draw is one the partial bundle registers.

Voila's own bundles (``voila/static/``: ``voila.js`` and 72 chunks, 3.6 MB) have no
version in their URLs, so every visit asked the server again for each (73 round trips on a
warm visit). The page asks for them under ``voila/static/v-KEY/``, KEY a digest of the
installed files (:func:`static_key`); a new Voila gives a new KEY, so the files there are
served :data:`vtsmodel.app.static_cache.IMMUTABLE`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "METADATA_KEY",
    "PARTIAL_FILE",
    "PARTIAL_PACKAGE",
    "PLOTLY_FILE",
    "PlotlyBundle",
    "bundle_traces",
    "bundle_version",
    "declared_extensions",
    "page_config_hook",
    "partial_folder",
    "plotly_bundle",
    "plotly_folder",
    "plotly_route",
    "plotly_url",
    "static_key",
    "static_prefix",
    "voila_static_paths",
    "with_dependencies",
]

#: The notebook metadata entry that says what a page loads: ``metadata[METADATA_KEY]``.
METADATA_KEY = "vtsmodel"
#: plotly.js as the plotly package ships it (``plotly/package_data/``).
PLOTLY_FILE = "plotly.min.js"
#: The partial plotly.js bundle (npm package, ``js/package.json``) and its file.
PARTIAL_PACKAGE = "plotly.js-cartesian-dist-min"
PARTIAL_FILE = "plotly-cartesian.min.js"
#: Extensions every page loads (names or their beginnings): the widgets' base and controls, and
#: Voila's widget manager (Voila keeps the one for the installed ipywidgets).
_ALWAYS = ("@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager")


def _metadata(notebook: Path) -> dict:
    try:
        meta = json.loads(Path(notebook).read_text(encoding="utf-8")).get("metadata", {})[METADATA_KEY]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return meta if isinstance(meta, dict) else {}


def declared_extensions(notebook: Path) -> tuple[str, ...] | None:
    """The extensions ``notebook`` names in its metadata, or None (it names none, or cannot be read)."""
    names = _metadata(notebook).get("labextensions")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return tuple(names)


def plotly_folder() -> Path:
    """The folder of the plotly package's plotly.js (:data:`PLOTLY_FILE`)."""
    import plotly

    return Path(plotly.__file__).parent / "package_data"


def partial_folder() -> Path:
    """Where ``make setup`` installs the partial bundle: ``{sys.prefix}/share/vtsmodel/js/node_modules/NAME``."""
    return Path(sys.prefix, "share", "vtsmodel", "js", "node_modules", PARTIAL_PACKAGE)


def bundle_version(path: Path) -> str | None:
    """The plotly.js version a bundle's header names (``* plotly.js (cartesian - minified) v4.1.1``), or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(400)
    except OSError:
        return None
    found = re.search(r"\* plotly\.js (?:\([^)]*\) )?v(\d+\.\d+\.\d+\S*)", head)
    return found.group(1) if found else None


def bundle_traces(path: Path) -> frozenset[str]:
    """The trace types a plotly.js bundle registers: its modules ``moduleType:"trace",name:"..."``."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r'moduleType:\s*"trace",\s*name:\s*"([a-z0-9]+)"', text))


@dataclass(frozen=True)
class PlotlyBundle:
    """The plotly.js the pages load: a file, the URL folder naming its version, and why it was chosen.

    Attributes
    ----------
    folder : Path
        The folder the file is served from.
    file : str
        Its name in ``folder``.
    tag : str
        The URL folder naming what it is and its version: a new one is a new URL, so a
        browser keeps the file for good.
    partial : bool
        Whether it is the partial bundle (``js/package.json``).
    note : str
        What the server logs: which bundle, and where it is not the partial one, why.
    """

    folder: Path
    file: str
    tag: str
    partial: bool
    note: str


@lru_cache(maxsize=1)
def plotly_bundle() -> PlotlyBundle:
    """The plotly.js the pages load: the partial bundle where it is installed and of plotly's plotly.js, else the full one.

    Decided once per process: the server's route and the pages' URL name the same file.
    """
    from importlib.metadata import version

    from plotly.offline import get_plotlyjs_version

    wanted = get_plotlyjs_version()
    path = partial_folder() / PARTIAL_FILE
    got = bundle_version(path)
    if got == wanted:
        size = path.stat().st_size / 1e6
        return PlotlyBundle(path.parent, PARTIAL_FILE, f"{PARTIAL_PACKAGE}-{got}", True,
                            f"plotly.js: the pages load {PARTIAL_PACKAGE} {got} ({size:.1f} MB, {path})")  # fmt: skip
    why = (
        f"{path} is not installed (make setup installs it with npm)"
        if got is None
        else f"{path} is plotly.js {got}, the plotly package draws with {wanted} (js/package.json)"
    )
    full = plotly_folder() / PLOTLY_FILE
    size = full.stat().st_size / 1e6 if full.is_file() else float("nan")
    return PlotlyBundle(plotly_folder(), PLOTLY_FILE, f"plotly-{version('plotly')}", False,
                        f"plotly.js: the pages load plotly's full bundle ({size:.1f} MB): {why}")  # fmt: skip


def plotly_url(base_url: str) -> str:
    """Where a page loads plotly.js from: ``{base_url}voila/vtsmodel/TAG/FILE`` (:func:`plotly_bundle`).

    TAG names the bundle and its version (``plotly.js-cartesian-dist-min-4.1.1``, or
    ``plotly-7.1.0`` for the plotly package's full bundle): a new version is a new URL, so
    the file is cached for good.
    """
    b = plotly_bundle()
    return f"{base_url}voila/vtsmodel/{b.tag}/{b.file}"


def plotly_route(base_url: str) -> str:
    """The server's route of :func:`plotly_url`: that URL, its file name as the group."""
    b = plotly_bundle()
    folder = plotly_url(base_url).removesuffix(b.file)
    return f"{re.escape(folder)}({re.escape(b.file)})"


def with_dependencies(names: Iterable[str], installed: Mapping[str, Mapping]) -> set[str]:
    """``names`` with every installed extension they take shared modules from, transitively.

    ``installed`` maps an extension's name to its ``package.json`` (as jupyterlab_server's
    ``get_federated_extensions`` reads it); a shared package marked ``bundled: false`` is
    taken from the extension of that name.
    """
    out, todo = set(), [n for n in names if n in installed]
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        shared = installed[name].get("jupyterlab", {}).get("sharedPackages", {}) or {}
        todo += [p for p, how in shared.items() if p in installed and not (how or {}).get("bundled", True)]
    return out


def voila_static_paths(template: str) -> list[str]:
    """The folders ``voila/static/`` serves from, as Voila 0.5.13 collects them (``Voila.setup_template_dirs``)."""
    from jupyter_server import DEFAULT_STATIC_FILES_PATH
    from voila.paths import collect_static_paths

    return [*collect_static_paths(["voila", "nbconvert"], template), DEFAULT_STATIC_FILES_PATH]


@lru_cache(maxsize=8)
def static_key(paths: tuple[str, ...]) -> str:
    """A digest of the files directly in ``paths`` (names, sizes, modification times): 12 hex digits."""
    h = hashlib.sha256()
    for folder in paths:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.is_file():
                st = e.stat()
                h.update(f"{folder}/{e.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:12]


def static_prefix(template: str) -> str:
    """The versioned folder of Voila's bundles under ``voila/static/``: ``v-KEY``."""
    return f"v-{static_key(tuple(voila_static_paths(template)))}"


def page_config_hook(notebooks: Path):
    """Voila's ``page_config_hook``: the page loads its notebook's extensions (and plotly.js), and Voila's bundles versioned.

    ``notebooks`` is the folder the pages' notebook paths are relative to. The page config's
    ``vtsmodelScripts`` lists the scripts the page fetches at once and runs once it has
    loaded (the project's template).
    """
    from jupyter_server.utils import url_path_join
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import get_voila_labextensions_path

    def hook(page_config, *, base_url, voila_configuration, notebook_path=None, **_):
        config = dict(page_config)
        config["fullStaticUrl"] = url_path_join(
            base_url, "voila/static", static_prefix(voila_configuration.template)
        )
        path = Path(notebooks, notebook_path) if notebook_path else None
        names = declared_extensions(path) if path else None
        config["vtsmodelScripts"] = (
            [plotly_url(base_url)] if path and _metadata(path).get("plotly.js") is True else []
        )
        if names is not None:
            installed = get_federated_extensions(
                get_voila_labextensions_path(voila_configuration.extra_labextensions_path)
            )
            listed = page_config["federated_extensions"]
            keep = with_dependencies(
                [*names, *(x["name"] for x in listed if x["name"].startswith(_ALWAYS))], installed
            )
            config["federated_extensions"] = [x for x in listed if x["name"] in keep]
        return config

    return hook
