"""Packaging: the environment files agree, the wheel ships the data, imports stay light."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: conda-forge names that differ from the PyPI names.
CONDA_TO_PYPI = {"python-kaleido": "kaleido"}
#: conda-forge packages that are no Python package: pip's side installs them from npm
#: (make hub-tools: the JupyterHub proxy).
CONDA_ONLY = {"configurable-http-proxy"}


def _split(req: str) -> tuple[str, str]:
    m = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", req)
    assert m, req
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def _pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    return dict(_split(r) for r in reqs)


def _environment_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    out = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for pip_req in dep.get("pip", []):
                if not pip_req.startswith("-e"):
                    name, spec = _split(pip_req)
                    out[name] = spec
            continue
        name, spec = _split(dep)
        if name in ("python", "pip") or name in CONDA_ONLY:
            continue
        out[CONDA_TO_PYPI.get(name, name)] = spec
    return out


def test_environment_yml_matches_pyproject():
    assert _environment_requirements() == _pyproject_requirements()


def test_environment_yml_installs_the_project_and_uses_conda_forge():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip


@pytest.mark.slow
def test_import_does_not_pull_plotly_or_ipywidgets():
    code = (
        "import sys, vtsmodel; "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('plotly', 'ipywidgets', 'kaleido', 'pandas')); "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.slow
def test_core_never_imports_the_app_or_its_libraries():
    """The two layers: vtsmodel/*.py (the core) imports neither vtsmodel.app nor plotly/ipywidgets."""
    import ast

    banned = ("vtsmodel.app", "plotly", "ipywidgets", "anywidget", "kaleido", "pandas")
    offenders = []
    for path in sorted((ROOT / "vtsmodel").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(banned)]
    assert offenders == []
    code = "import sys, vtsmodel; print(any(m.startswith('vtsmodel.app') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _imports(path: Path) -> list[str]:
    """Every module and name ``path`` imports, dotted (``vtsmodel.data.load``)."""
    import ast

    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


def test_the_app_uses_the_cores_public_names_and_its_imports_go_one_way():
    """vtsmodel/app imports no private part of the core (vtsmodel._tables, ...: vtsmodel.data, vtsmodel.Input, ...).

    And within the app: no lesson page imports the report generator (a page is given it), and
    the scenario sheet imports no lesson (it is given the lesson's module).
    """
    app = ROOT / "vtsmodel" / "app"
    private, wrong_way = [], []
    for path in sorted(app.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "vtsmodel" and parts[1:2] != ["app"] and any(p.startswith("_") for p in parts[1:]):
                private.append(f"{where}: {name}")
            if path.parent.name == "lessons" and name.startswith("vtsmodel.app.report"):
                wrong_way.append(f"{where}: {name}")
            if path.name == "scenarios.py" and name.startswith("vtsmodel.app.lessons"):
                wrong_way.append(f"{where}: {name}")
    assert private == [] and wrong_way == []


@pytest.mark.slow
def test_notebooks_are_committed_without_outputs_or_widget_state():
    listed = subprocess.run(
        ["git", "ls-files", "notebooks/*.ipynb"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert listed, "no notebooks are tracked"
    dirty = []
    for name in listed:
        nb = json.loads((ROOT / name).read_text())
        outputs = sum(len(c.get("outputs", [])) for c in nb["cells"] if c["cell_type"] == "code")
        counts = [c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"]
        if outputs or "widgets" in nb.get("metadata", {}) or any(counts):
            dirty.append(name)
    assert not dirty, f"strip these notebooks (make strip): {dirty}"


@pytest.mark.slow
def test_wheel_ships_the_data_and_loads_every_table_from_elsewhere(tmp_path):
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheel_dir), str(ROOT)],
        check=True,
    )
    (wheel,) = wheel_dir.glob("vtsmodel-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "vtsmodel/_data/datapackage.json" in names
    data_files = sorted(p.name for p in (ROOT / "data").glob("*.csv"))
    assert all(f"vtsmodel/_data/{n}" in names for n in data_files)
    # The plot panes' script and the Voila template (make app) ship too.
    assert "vtsmodel/app/_plotpane.js" in names
    assert "vtsmodel/app/_jupyter/voila/templates/vtsmodel/index.html.j2" in names
    # ... and the illustrative example files the pages offer.
    assert all(f"vtsmodel/_examples/{p.name}" in names for p in (ROOT / "examples").glob("*.csv"))
    # A fresh venv that sees the test environment's numpy and scipy but not the checkout.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # Make numpy and scipy importable by pointing at this environment's copies.
    deps = [str(Path(m.__file__).parents[1]) for m in (__import__("numpy"), __import__("scipy"))]
    Path(site, "deps.pth").write_text("\n".join(sorted(set(deps))) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", site, str(wheel)],
        check=True,
    )
    code = (
        "import vtsmodel, vtsmodel.data as d; "
        "assert 'site-packages' in vtsmodel.__file__ or '/venv/' in vtsmodel.__file__, vtsmodel.__file__; "
        "from vtsmodel._files import example_file; "
        "assert example_file('example_hourly_workload.csv').parent.name == '_examples'; "
        "print(d.data_dir().name, sum(len(d.load(t)) for t in d.tables()))"
    )
    out = subprocess.run([str(py), "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    where, rows = out.stdout.split()
    assert where == "_data"
    import vtsmodel.data as d

    assert int(rows) == sum(len(d.load(t)) for t in d.tables())


def test_the_voila_template_hooks_match_the_installed_libraries():
    """The template (vtsmodel/app/_jupyter) wraps Voila's widget-manager plugin by its id and
    lifts anywidget's 2 s limit for a model's script: both names must still be what the
    installed Voila and anywidget use (pyproject pins the ranges known to work)."""
    share = Path(sys.prefix) / "share" / "jupyter"
    voila_js = "".join(
        p.read_text(errors="ignore")
        for p in share.glob("voila/labextensions/**/widgets-manager8/static/*.js")
    )
    assert (
        '"@voila-dashboards/voila:widget-manager8"' in voila_js
        or "@voila-dashboards/voila:widget-manager8" in voila_js
    )
    anywidget_js = [p.read_text(errors="ignore") for p in share.glob("labextensions/anywidget/static/*.js")]
    assert any("Failed to initialize model" in s and "AbortSignal.timeout(2000)" in s for s in anywidget_js)
    template = (
        ROOT / "vtsmodel" / "app" / "_jupyter" / "voila" / "templates" / "vtsmodel" / "index.html.j2"
    ).read_text()
    assert "@voila-dashboards/voila:widget-manager8" in template and "ms === 2000" in template
