"""The core's structure: modules of one concern and a readable size, no import cycle, typed results.

The core is ``vtsmodel/`` outside ``vtsmodel/app/``. These rules are read from the source
files (``ast``), so they hold for code no other test calls.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

import vtsmodel
from vtsmodel import plan

PACKAGE = Path(vtsmodel.__file__).resolve().parent
CORE = sorted(p for p in PACKAGE.rglob("*.py") if "app" not in p.relative_to(PACKAGE).parts)

#: Longest core module. [lines]
MAX_LINES = 900
#: Core modules still over MAX_LINES, each with who splits it; a module that gets under the
#: limit must leave this list (the test says so).
SPLIT_PENDING: dict[str, str] = {}
#: Modules whose function-local imports still close an import cycle, each with who removes
#: it; a module whose cycle is gone must leave this list (the test says so).
CYCLE_PENDING: dict[str, str] = {}
#: Modules whose function-local imports must each say why, on the import's line.
LOCAL_IMPORT_RULE = (
    "plan/",
    "b18.py",
    "throughput.py",
    "paf.py",
    "attachment.py",
    "tvc.py",
    "tvc_day.py",
    "bottleneck.py",
)


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("path", CORE, ids=_name)
def test_no_core_module_is_over_900_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if _name(path) in SPLIT_PENDING:
        assert lines > MAX_LINES, f"{_name(path)} has {lines} lines: take it off SPLIT_PENDING"
        pytest.skip(f"{_name(path)}: {lines} lines, {SPLIT_PENDING[_name(path)]}")
    assert lines <= MAX_LINES, f"{_name(path)} has {lines} lines (at most {MAX_LINES}): split it by concern"


def _imports(path: Path, modules: set[str], *, local: bool = True) -> set[str]:
    """The core modules ``path`` imports (inside functions too, unless not ``local``), but for type checking."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for sub in ast.walk(node)
    }
    in_functions = {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for sub in ast.walk(node)
    }
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or (not local and id(node) in in_functions):
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.add(sub if sub in modules else node.module)
    return out & modules


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of ``graph`` (module to the modules it imports), or None."""
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> list[str] | None:
        if m in path:
            return [*path[path.index(m) :], m]
        if m in done:
            return None
        for n in sorted(graph[m]):
            found = visit(n, (*path, m))
            if found:
                return found
        done.add(m)
        return None

    for m in sorted(graph):
        found = visit(m, ())
        if found:
            return found
    return None


def test_the_core_has_no_import_cycle():
    # Imports inside functions count too: a lazy import that breaks a cycle at run time is
    # still a cycle (throughput <-> tvc was one until vtsmodel.b18).
    modules = {_module(p): p for p in CORE}
    graph = {m: _imports(p, set(modules), local=m not in CYCLE_PENDING) - {m} for m, p in modules.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
    assert {"vtsmodel.b18", "vtsmodel.plan.vts"} <= set(graph)
    for m, why in CYCLE_PENDING.items():
        with_local = {**graph, m: _imports(modules[m], set(modules)) - {m}}
        assert _cycle(with_local), f"{m} closes no cycle any more: take it off CYCLE_PENDING ({why})"


def _local_imports(path: Path):
    source = path.read_text(encoding="utf-8").splitlines()
    for node in ast.walk(ast.parse("\n".join(source))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    yield sub.lineno, source[sub.lineno - 1]


@pytest.mark.parametrize("path", [p for p in CORE if _name(p).startswith(LOCAL_IMPORT_RULE)], ids=_name)
def test_function_local_imports_say_why(path):
    bare = [f"{_name(path)}:{n}: {line.strip()}" for n, line in _local_imports(path) if "#" not in line]
    assert not bare, "import at the top, or say beside it why here:\n" + "\n".join(bare)


def _plan_dataclasses():
    for _, module in inspect.getmembers(plan, inspect.ismodule):
        if module.__name__.startswith("vtsmodel.plan."):
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__:
                    yield cls


def test_the_planners_results_have_typed_fields():
    classes = list(_plan_dataclasses())
    assert {c.__name__ for c in classes} >= {
        "Answers",
        "Plan",
        "PlanDay",
        "ConfigResult",
        "VtsPlan",
        "LibraryPlan",
    }
    loose = [
        f"{c.__module__}.{c.__name__}.{f.name}: {f.type}"
        for c in classes
        for f in dataclasses.fields(c)
        if f.type in ("object", "Any", "typing.Any") or f.type is object
    ]
    assert not loose, loose


def test_the_planners_public_names_are_the_packages():
    # `from vtsmodel.plan import ...` and `from vtsmodel import ...` keep working
    for name in plan.__all__:
        obj = getattr(plan, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__module__.startswith("vtsmodel.plan."), name
    for name in ("Answers", "Plan", "VtsConfiguration", "evaluate", "library_plan", "load_plan", "save_plan",
                 "sensitivity", "vts_configurations", "vts_plan"):  # fmt: skip
        assert getattr(vtsmodel, name) is getattr(plan, name)
