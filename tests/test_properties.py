"""Every public function, tried with inputs generated from its declarations.

For each public function (everything in ``vtsmodel.__all__`` and in the ``__all__`` of each
core module that is a function), the inputs come from :func:`vtsmodel.declared_inputs`:
nothing here is written per function except the small registries below, for arguments
that are not quantities (a profile, a list of flows, a drive name) and for the few results
the docstrings document as infinite, NaN or negative.

- **Valid inputs** (drawn by hypothesis from each declared range, as scalars, 1-D and 2-D
  arrays): the call returns within :data:`LIMIT_S`, every number it returns is finite
  (and not negative) unless documented otherwise, an array result has the shape of the
  array inputs, and any warning is a project warning (``ExtrapolationWarning``). The
  only errors allowed are a ``ConstraintError`` (inputs each in range whose combination
  means nothing, named in the message) or "must be a single number" for an array given
  to a scalar input, naming that input.
- **Invalid inputs** (below or above the range, not a whole number, NaN, infinities,
  text, bytes, booleans, ``None``, complex, objects, arrays holding one bad value, an
  unknown choice): ``ValueError`` within :data:`LIMIT_S`, naming the parameter, its value
  and the range.
- **Mismatched shapes** (two array inputs of lengths 2 and 3): ``ValueError`` naming them.

The counts of functions, inputs and outcomes are written to
``test-artifacts/properties.json`` and printed (``pytest -s``).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import importlib
import inspect
import json
import math
import re
import signal
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import Input, declared_inputs
from vtsmodel._validation import ConstraintError, VtsModelWarning, _fmt_range

PACKAGE = __import__("pathlib").Path(vtsmodel.__file__).resolve().parent


def _core_modules() -> tuple[str, ...]:
    """The core: every module outside ``vtsmodel.app`` whose name does not start with ``_``.

    Found on disk (subpackages included), so a new module is covered the day it is added.
    """
    out = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] == "app" or any(p.startswith("_") for p in parts if p != "__init__"):
            continue
        out.append(".".join(("vtsmodel", *(parts[:-1] if parts[-1] == "__init__" else parts))))
    return tuple(sorted(out))


CORE_MODULES = _core_modules()

#: Longest a single call may take before the test calls it a hang. [s]
LIMIT_S = 30.0

COUNTS: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


# --- the public functions --------------------------------------------------------------------------
def _public() -> dict[str, object]:
    out: dict[str, object] = {}
    seen: set[int] = set()

    def add(qual, obj):
        if callable(obj) and not inspect.isclass(obj) and id(obj) not in seen:
            seen.add(id(obj))
            out[qual] = obj

    for mod_name in CORE_MODULES:
        mod = importlib.import_module(mod_name)
        # its __all__, and any function it defines under a public name (listed or not)
        defined = [n for n, f in vars(mod).items() if inspect.isfunction(f) and f.__module__ == mod_name]
        for name in [*mod.__all__, *sorted(n for n in defined if not n.startswith("_"))]:
            add(f"{mod_name}.{name}", getattr(mod, name))
    return out


PUBLIC = _public()


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


# --- arguments that are not quantities: a small registry of valid and invalid values --------------
def _profiles():
    from vtsmodel.workload import PROFILES, make_profile

    return ["steady day", *PROFILES, make_profile([(0, 40, 10), (6, 90, 5)], duration_hours=12.0)]


def _flows():
    from vtsmodel.sizing import Flow, cern_example_flows

    return [
        cern_example_flows(),
        [Flow("backup", 120.0, 2.0, 0.5)],
        [{"rate_mb_s": 30.0, "file_mb": 500.0, "files_per_mount": 20.0}],
    ]


def _drive_names():
    from vtsmodel.catalog import drive_names

    return ["LTO9", *drive_names(), "LTO-9", "TS1160", "lto9"]


def _configs():
    from vtsmodel.b18 import configurations

    return [c.id for c in configurations()]


_CSV = "start_hours,write_mb_s,read_mb_s\n0,10,5\n2,90,5\n8,10,15\n"
_EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples"
_TMP = __import__("tempfile").mkdtemp(prefix="vtsmodel-properties-")


def _plans():
    from vtsmodel.plan import Plan

    return [Plan()]


def _saved_plan():
    import os

    from vtsmodel.plan import Plan, save_plan

    path = os.path.join(_TMP, "plan.json")
    if not os.path.exists(path):
        save_plan(Plan(), path)
    return [path]


def _new_path(suffix):
    import uuid

    return lambda: [f"{_TMP}/{uuid.uuid4().hex}{suffix}"]


@__import__("functools").cache
def _mount_log_head():
    """The example mount log's first 500 lines, as written (its comments, header, 494 rows).

    The readers' property cases draw ``chunk_lines`` down to 1: the whole example (8,000
    rows) took them 24 s; any chunk size still splits these rows.
    """
    import itertools

    path = f"{_TMP}/example_mount_log_head.csv"
    with open(_EXAMPLES / "example_mount_log.csv", encoding="utf-8") as src:
        head = "".join(itertools.islice(src, 500))
    with open(path, "w", encoding="utf-8") as out:
        out.write(head)
    return [path]


@__import__("functools").cache
def _small_log():
    return vtsmodel.synthetic_mount_log(400, 60, seed=1)


def _curve():
    return [vtsmodel.lru_hit_curve(_small_log())]


def _capacity_hits():
    curve = _curve()[0]
    return [curve.at(np.array([0.0, 50.0, 5000.0])), vtsmodel.configuration_hits(curve, feature="paf")]


def _vts_configurations():
    from vtsmodel.plan import VtsConfiguration

    return [VtsConfiguration.of(864, "paf", 4), VtsConfiguration.of(144, "ehpo", 3)]


def _plan_docs():
    from vtsmodel.plan import Plan, plan_to_dict

    return [plan_to_dict(Plan())]


def _plan_bytes():
    from vtsmodel.plan import Plan, plan_to_json

    return [plan_to_json(Plan()).encode()]


#: parameter -> (valid values, the first the one used by default; invalid values). Keyed
#: by parameter name, or by "parameter@function" where a name means different things in
#: different functions.
EXTRA: dict[str, tuple] = {
    "profile": (_profiles, [None, 3, "no such profile", ["steady day"]]),
    "flows": (_flows, [None, [], [3], "backup", {"rate_mb_s": 1.0}]),
    "rows": (lambda: [[(0, 10, 5), (2, 90, 5)]], [None, [], [(1, 10, 5)], [("x", 1, 2)], "0,1,2"]),
    "source": (lambda: [_CSV], [None, 3, "/no/such/profile.csv"]),
    "name@drive_spec": (_drive_names, ["NOPE", 3, None, ["LTO9"]]),
    "name@resolve_drive": (_drive_names, ["NOPE", 3, None, ["LTO9"]]),
    "name@catalog_provenance": (_drive_names, ["NOPE", 3, None]),
    "rows@csv_text": (lambda: [[["a", 1], ["b", 2.5]]], [None, "0,1,2", [1, 2], 3]),
    "values@csv_row": (lambda: [["a", 1, 2.5, None]], [None, "text", 3]),
    "drive@mount_parts": (lambda: [None, *_drive_names()], ["NOPE", 3]),
    "drive@streaming_check": (_drive_names, ["NOPE", 3, None]),
    "drive@warn_streaming": (_drive_names, ["NOPE", 3, None]),
    "drive@mount_cycle_s": (lambda: [None, *_drive_names()], ["NOPE", 3]),
    "having": (lambda: [(), ("load_time",), ["min_speed_matching_rate"]], [("bogus",), 3]),
    "name@load": (lambda: list(vtsmodel.tables()), ["nope", 3, None, ["vts_facts"]]),
    "group@sources": (lambda: [None, "founding", "supplementary"], ["nope", 3]),
    "tvc_config": (lambda: [None], ["nope", 3]),
    "tvc_config@configuration": (_configs, ["nope", 3, None]),
    "tvc_config@table4_column": (_configs, ["nope", 3, None]),
    "resources": (lambda: [None], ["capacities", 3]),
    "stacklevel": (lambda: [2], []),
    # the plan, the hourly workload, the mount log and the hit curves (issue 19)
    "plan": (_plans, [None, 3, "a plan"]),
    "plan@library_plan": (_plans, [3, "a plan"]),
    "path@save_plan": (_new_path(".json"), [None, 3]),
    "path@save_plan_template": (_new_path(".json"), [None, 3]),
    "plan@save_plan_template": (lambda: [None, *_plans()], [3, "a plan"]),
    "plan@plan_template": (lambda: [None, *_plans()], [3, "a plan"]),
    "path@load_plan": (_saved_plan, [None, 3, "/no/such/plan.json"]),
    "source@read_hourly_workload": (
        lambda: [str(_EXAMPLES / "example_hourly_workload.csv")],
        [None, 3, "/no/such.csv"],
    ),
    "source@read_mount_log": (_mount_log_head, [None, 3, "/no/such.csv"]),
    "source@iter_mount_log": (_mount_log_head, [None, 3, "/no/such.csv"]),
    "log": (lambda: [_small_log()], [None, 3]),
    "log@write_mount_log": (lambda: [_small_log()], [None, 3]),
    "path@write_mount_log": (_new_path(".csv"), [None, 3]),
    "curve": (_curve, [None, 3]),
    "time_s": (lambda: [np.array([0.0, 60.0, 120.0])], [None, "0,60", np.array([0.0, np.nan, 1.0])]),
    "volume@mount_log": (
        lambda: [np.array(["A00001", "A00002", "A00001"])],
        [None, np.array([1.5, 2.0, 3.0])],
    ),
    "size_mb": (lambda: [np.array([100.0, 250.0, 100.0])], [None, np.array([100.0, -1.0, 5.0])]),
    "access": (
        lambda: [np.array(["scratch_write", "read", "read"])],
        [None, np.array(["read", "erase", "read"])],
    ),
    "source@mount_log": (lambda: ["<arrays>"], []),
    "configuration@sensitivity": (lambda: [None], ["a configuration", 3]),
    "configuration@sensitivity_steps": (lambda: [None], ["a configuration", 3]),
    "config@evaluate_configuration": (_vts_configurations, [None, "864 GB PAF, 4 drives", 3]),
    "data@plan_from_bytes": (_plan_bytes, [None, 3, "{}", b"{", b"[]", b'{"schema": "vtsmodel-plan"}']),
    "doc@plan_from_dict": (_plan_docs, [None, 3, [], {}, {"schema": "vtsmodel-scenarios", "version": 1}]),
    "hits@recall_waits": (_capacity_hits, [None, 3, "hits"]),
    # an illustrative log writer for the reader's tests: a log, and whether to write its access column
    "log@render_log": (lambda: [_small_log()], []),
    "access@render_log": (lambda: [True, False], []),
    # the data layer's helpers: ledger and catalogue rows, a source id, a workload file
    "rows@format_counts": (lambda: [vtsmodel.data.statements(), []], []),
    "rows@filter_catalogue": (lambda: [vtsmodel.data.catalogue(), []], []),
    "source@filter_catalogue": (lambda: [None, "ibm-vts-b18-2000"], []),
    "source@statements": (lambda: [None, "ibm-vts-b18-2000", "cern-tape-sizing-2005"], ["nope", 3]),
    "source@iter_hourly_rows": (
        lambda: [str(_EXAMPLES / "example_hourly_workload.csv")],
        [None, 3, "/no/such.csv"],
    ),
    # any serial, of any width: a hash has no invalid input (what is not text becomes its text)
    "volume_ids": (lambda: [np.array(["A00001", "B2", "A00001"]), ["x"], np.array([], dtype=str)], []),
    # the replay (issue 24)
    **{
        f"library@{f}": (lambda: [vtsmodel.replay_library(2)], [None, 3, "LTO9"])
        for f in (
            "replay_log",
            "replay_requests",
            "replay_chunks",
            "prepare_log",
            "prepare_requests",
            "replay_prepared",
        )
    },
    "prepared": (
        lambda: [vtsmodel.prepare_requests([0.0, 60.0, 90.0], library=vtsmodel.replay_library(2))],
        [None, 3],
    ),
    "size_mb@prepare_requests": (
        lambda: [None, np.array([100.0, 250.0, 100.0])],
        [np.array([100.0, -1.0, 5.0])],
    ),
    "access@prepare_requests": (lambda: [None, np.array([0, 2, 2])], [np.array([0, 7, 2])]),
    "library@replay_drives_needed": (lambda: [None, vtsmodel.replay_library(2)], [3, "LTO9"]),
    "size_mb@replay_requests": (
        lambda: [None, np.array([100.0, 250.0, 100.0])],
        [np.array([100.0, -1.0, 5.0])],
    ),
    "drive@replay_library": (lambda: ["LTO9", None, "TS1160"], ["NOPE", 3]),
    "obj": (lambda: [None, np.array([0, 1, 0])], [np.array([0, -1, 2]), np.array([0.5, 1.0, 2.0])]),
    "cartridge": (lambda: [None, np.array([0, 0, 1])], [np.array([0, -1, 2])]),
    "duration_s": (lambda: [None, np.array([10.0, 500.0, 30.0])], [np.array([1.0, -1.0, 2.0])]),
    "service_sample": (lambda: [None, np.array([10.0, 500.0])], [np.array([]), np.array([1.0, np.nan])]),
    "access@replay_requests": (lambda: [None, np.array([0, 2, 2])], [np.array([0, 7, 2])]),
    "cache_policy": (lambda: ["LRU"], ["MRU", 3]),
    "chunks": (lambda: [[{"time_s": np.array([0.0, 60.0]), "obj": np.array([0, 1])}]], [None, 3, [None]]),
    "rep": (
        lambda: [vtsmodel.replay_requests([0.0, 60.0, 90.0], library=vtsmodel.replay_library(2))],
        [None, 3],
    ),
    "log@replay_drives_needed": (lambda: [{"time_s": np.array([0.0, 60.0, 90.0])}, _small_log()], [None, 3]),
    # today's library over the years (issue 29)
    "model": (
        lambda: [vtsmodel.library_model("TS4300"), vtsmodel.library_model("SL8500")],
        [None, 3, "TS4300"],
    ),
    "name@library_model": (lambda: ["TS4300", "TS4500", "sl8500", "Diamondback"], ["NOPE", 3, None]),
    "drive@cartridge_tb": (lambda: ["LTO9", "LTO-10", "TS1160"], ["NOPE", 3, None]),
    "bought": (lambda: [{"cartridge": [3.0]}], [None, 3, [1]]),
    "prices": (lambda: [{"cartridge": 10.0, "support_per_year": 5.0}], [None, 3, {"tape": 1.0}]),
    "stored_tb@cost_by_year": (lambda: [[100.0]], [None, "100", [-1.0]]),
    "archive": (
        lambda: [vtsmodel.archive_years(3, stored_now_tb=100, growth_tb_per_year=50, cartridge_tb=18)],
        [None, 3, "archive"],
    ),
    "library": (lambda: [vtsmodel.library_model("SL8500"), None], [3, "SL8500"]),  # None: no frames
    "drive@library_years": (lambda: ["LTO9", "LTO-10"], ["NOPE", 3, None]),
    "needed@fill_year": (lambda: [[10.0, 20.0, 30.0], [5.0]], [None, [], "10,20", [1.0, -1.0]]),
}

#: Optional dependencies a function needs (``ImportError`` without them, as documented).
OPTIONAL = {"simulate_policy": "libcachesim"}


#: Functions whose cases are slow (``make test`` runs them, ``make test-fast`` does not), and why.
SLOW = {
    "simulate_policy": "runs libCacheSim (tests/conftest.py)",
    "synthetic_mount_log": "draws logs of up to 10^7 mounts: seconds and gigabytes a call",
    "simulate_recalls": "simulates up to 10^7 recalls a call",
    "evaluate": "each call evaluates every configuration, and the sensitivity two more per input",
    "sensitivity": "each call evaluates every configuration, and two more per input",
    "sensitivity_steps": "each call evaluates every configuration, and two more per input, a step at a time",
}


#: Functions whose valid calls are slow (their refusals of bad values are not): why.
SLOW_WHEN_VALID = {
    "synthetic_request_log": "draws request logs of up to a year of jobs: 18 s for its 25 valid calls",
}


def _case(qual: str, *values, id: str | None = None, valid: bool = False):
    """A test case of ``qual`` (``valid``: of valid inputs), marked slow where :data:`SLOW` or :data:`SLOW_WHEN_VALID` says so."""
    name = qual.rpartition(".")[2]
    marks = [pytest.mark.slow] if name in SLOW or (valid and name in SLOW_WHEN_VALID) else []
    return pytest.param(qual, *values, id=id, marks=marks)


#: Arguments one of which must be given (``tvc_gb`` or ``tvc_config``): the value a call
#: that tests another argument takes.
ONE_OF = {"simulate_tvc": {"tvc_gb": 864.0}}


class Kw(dict):
    """The keyword arguments of a call in :data:`NAMES` (its last item)."""


def _apply(func, args: tuple):
    """``func(*args)``, the last item of ``args`` taken as keywords if it is a :class:`Kw`."""
    if args and isinstance(args[-1], Kw):
        return func(*args[:-1], **args[-1])
    return func(*args)


def _line(x, a, b):
    return a * x + b


#: Functions whose arguments are names, not quantities: ``(valid calls, invalid calls)``.
NAMES = {
    "cite": ([("vts_facts",), ("cern-tape-sizing-2005",), (vtsmodel.write_rate,)], [("nope",), (3,)]),
    "references": ([("vts_facts",), ()], [("nope",), (3,)]),
    "declare": None,  # a decorator's programming interface: TypeError for a non-Input (tests/test_inputs.py)
    "declared_inputs": None,
    # text for a readout: any float, or text a float() reads; other text is a ValueError
    "number": ([(2300.0,), (0.012345, 2), (float("inf"),), (float("nan"),), ("2.5",)], [("x",), ("",)]),
    # files a person gives or the package writes: paths, bytes, limits
    "atomic_write": (
        [
            (f"{_TMP}/atomic.txt", "text", Kw(overwrite=True)),
            (f"{_TMP}/atomic.bin", b"\x00", Kw(overwrite=True)),
        ],
        [(None, "text"), ("", "text")],
    ),
    "read_file": (
        [(str(_EXAMPLES / "example_hourly_workload.csv"), Kw(max_bytes=10**6))],
        [
            ("/no/such/file", Kw(max_bytes=10)),
            (str(_EXAMPLES / "example_hourly_workload.csv"), Kw(max_bytes=1)),
        ],
    ),
    "parse_json_bytes": (
        [(b'{"a": 1}', "a test", Kw(max_bytes=100, what="test file"))],
        [
            (b"{", "a test", Kw(max_bytes=100, what="test file")),
            (b"[1]" * 50, "a test", Kw(max_bytes=10, what="x")),
        ],
    ),
    # a shipped example by name (FileNotFoundError, documented, for a name it does not ship)
    "example_file": ([("example_plan.json",), ("example_mount_log.csv",)], []),
    "example_log": ([(name,) for name in ("vtsmodel", "xferlog", "tape-requests")], [("nope",)]),
    # CSV cells from any values: a sequence of cells (csv_row), of rows (csv_text)
    "csv_row": (
        [(["a", 1, 2.5, None],), (("=x", -3), Kw(delimiter=";"))],
        [(None,), ("text",), ([1], Kw(delimiter="ab"))],
    ),
    "csv_text": ([([["a", 1], ["b", 2.5]],), ([],)], [(None,), ([1, 2],), ("rows",)]),
    "statement_status": (
        [("vts_facts:tvc_capacity_216",), ("vts_ehpo_coefficients:sustained_m_288",)],
        [("nope",), ("vts_facts",), ("nope:x",), (3,)],
    ),  # fmt: skip
    "statements_for": ([("vts_facts:tvc_capacity_216",)], [("nope",), ("vts_facts",), (3,)]),
    # a fit's programming interface: a function and its points; names and parameters must pair
    "fit_curve": (
        [("line", _line, [1.0, 2.0, 3.0], [2.1, 3.9, 6.0], (1.0, 0.0), Kw(param_names=("a", "b")))],
        [("line", _line, [1.0, 2.0, 3.0], [2.1, 3.9, 6.0], (1.0, 0.0), Kw(param_names=("a",)))],
    ),
}

#: Results the docstrings document as infinite or NaN, or as possibly negative.
NON_FINITE = {
    "hours_at_peak",  # infinite where copying keeps up
    "tvc_needed",  # infinite where the capacity above 864 GB counts for nothing
    "smallest_configuration",  # NaN where even the largest configuration is too small
    "write_capacities",  # tape drives: not used in peak mode (inf)
    "paf_fit",  # a fit's parameter uncertainty is inf where points = parameters
    "read_fit",
    "transfer_rate_fit",
    "evaluate",  # a plan's backlog never cleared (NaN), a check never met (inf): documented
    "vts_plan",
    "evaluate_configuration",
    "sensitivity",
    "simulate_policy",  # a ratio with nothing counted (no reads after the warm-up) is NaN: documented
    "analytic_beside",  # NaN where the formulas have no steady state: documented
    "units_needed",  # inf where one library cannot hold the cartridges and drives
    "library_binding",  # a share is inf where a configuration has no slots or bays for what it must hold
    "cost_by_year",  # no cost per TB (NaN) where nothing is stored
    "library_years",  # inf units (more than one library) and waits (saturated robots): documented
}
SIGNED = {
    "ehpo_coefficients",
    "staging_gain",
    "paf_fit",
    "read_fit",
    "transfer_rate_fit",
    "load",
    "evaluate",  # margins below a target are negative
    "vts_plan",
    "evaluate_configuration",
    "sensitivity",
    "library_plan",
    "analytic_beside",  # differences from the replay are signed
}
#: Results in [0, 1] (probabilities, efficiencies, multipliers).
UNIT = {
    "drive_efficiency",
    "stream_limited_efficiency",
    "erlang_c",
    "escon_distance_factor",
    "paf_small_tvc_factor",
    "cache_cf_inverse",
}


def _extra(func, param):
    return EXTRA.get(f"{param}@{_name(func)}") or EXTRA.get(param)


def _need_optional(func):
    module = OPTIONAL.get(_name(func))
    if module:
        pytest.importorskip(module)


# --- calling with a deadline ----------------------------------------------------------------------
class CallTimeout(BaseException):
    """A call took longer than LIMIT_S (a BaseException: no ``except Exception`` swallows it)."""


@contextlib.contextmanager
def deadline(seconds: float = LIMIT_S):
    def alarm(_signum, _frame):
        raise CallTimeout(f"the call did not return within {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _call(func, kwargs):
    """``func(**kwargs)`` under the deadline: (result, exception, warnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with deadline():
                res = func(**kwargs)
                if inspect.isgenerator(res):
                    res = list(res)
                return res, None, caught
        except CallTimeout as exc:
            pytest.fail(f"{_name(func)}({_show(kwargs)}): {exc}")
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            return None, exc, caught


def _show(kwargs) -> str:
    return ", ".join(f"{k}={v!r}"[:80] for k, v in kwargs.items())


# --- drawing values from a declaration ---------------------------------------------------------------
def _bounds(inp: Input) -> tuple[float, float]:
    lo = -1e6 if inp.lo is None else float(inp.lo)
    hi = 1e6 if inp.hi is None else float(inp.hi)
    return lo, hi


def _number(inp: Input):
    """Valid scalars: near the default, log-spread across the range, and the closed ends."""
    lo, hi = _bounds(inp)
    parts = [st.floats(lo, hi, exclude_min=inp.lo_open, exclude_max=inp.hi_open, allow_nan=False)]
    if lo >= 0 and hi > 0:
        a = max(lo, 1e-6 * hi, 1e-9)
        if a < hi:
            parts.append(st.floats(math.log10(a), math.log10(hi)).map(lambda e: 10.0**e))
    if isinstance(inp.default, int | float) and not isinstance(inp.default, bool) and inp.default > 0:
        d = float(inp.default)
        parts += [st.floats(-1.0, 1.0).map(lambda e, d=d: d * 10.0**e)] * 3
    ends = [x for x, open_ in ((inp.lo, inp.lo_open), (inp.hi, inp.hi_open)) if x is not None and not open_]
    if ends:
        parts.append(st.sampled_from(ends))

    def inside(x):
        x = min(max(x, lo), hi)
        if inp.integer:
            x = float(math.ceil(x)) if inp.lo_open and math.ceil(x) == lo else float(round(x))
            x = min(
                max(x, math.ceil(lo + (1 if inp.lo_open else 0))), math.floor(hi - (1 if inp.hi_open else 0))
            )
        if inp.lo_open and x <= lo:
            x = math.nextafter(lo, math.inf)
        if inp.hi_open and x >= hi:
            x = math.nextafter(hi, -math.inf)
        return x

    return st.one_of(parts).map(inside).filter(lambda x: inp.contains(x))


def _valid(inp: Input):
    if inp.choices:
        return st.sampled_from(inp.values)
    if inp.kind == "flag":
        return st.booleans()
    return _number(inp)


def _bad_values(inp: Input) -> list:
    """Values outside the declared range, of the wrong type, or not numbers at all."""
    if inp.choices:
        return ["no-such-choice", 3, 2.5, True, ["x"], b"paf"]
    lo, hi = inp.lo, inp.hi
    bad: list = [math.nan, math.inf, -math.inf, "3", b"3", True, 1j, object(), ["1", "2"]]
    if lo is not None:
        bad += [lo - max(1.0, abs(lo)), -1e300]
        if inp.lo_open:
            bad.append(lo)
    if hi is not None:
        bad += [hi * 10 + 10, 1e300]
        if inp.hi_open:
            bad.append(hi)
    if inp.integer:
        base = (lo or 0) + 1
        bad.append(base + 0.5)
    ok = inp.default if isinstance(inp.default, int | float) and not isinstance(inp.default, bool) else None
    if ok is not None and inp.contains(ok) and lo is not None:
        bad.append(np.array([ok, lo - max(1.0, abs(lo))]))  # one bad value in an array
    return bad


# --- what comes back ------------------------------------------------------------------------------------
def _leaves(obj, depth=0):
    """The numeric leaves of a result: (value, is_numpy)."""
    if depth > 5 or isinstance(obj, str | bytes | Input | type) or callable(obj):
        return
    if isinstance(obj, bool | np.bool_):
        return
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "iuf":
            yield obj, True
        elif obj.dtype.kind == "O":
            for v in obj.ravel()[:50]:
                yield from _leaves(v, depth + 1)
        return
    if isinstance(obj, np.generic):
        if obj.dtype.kind in "iuf":
            yield obj, True
        return
    if isinstance(obj, int | float):
        yield obj, False
        return
    if isinstance(obj, dict):
        for v in list(obj.values())[:200]:
            yield from _leaves(v, depth + 1)
    elif isinstance(obj, list | tuple):
        for v in obj[:200]:
            yield from _leaves(v, depth + 1)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            yield from _leaves(getattr(obj, f.name), depth + 1)


def _check_result(func, kwargs, res, array_shapes):
    name = _name(func)
    for value, is_numpy in _leaves(res):
        arr = np.asarray(value, dtype=float)
        if name not in NON_FINITE:
            assert np.all(np.isfinite(arr)), (
                f"{name}({_show(kwargs)}) returned a non-finite number: {value!r}"
            )
        if is_numpy and name not in SIGNED:
            assert not np.any(arr < 0), f"{name}({_show(kwargs)}) returned a negative number: {value!r}"
        if is_numpy and name in UNIT:
            assert np.all(arr <= 1.0), f"{name}({_show(kwargs)}) returned more than 1: {value!r}"
    if isinstance(res, np.ndarray | np.generic) and res.dtype.kind in "iufUO" and array_shapes:
        want = np.broadcast_shapes(*array_shapes)
        assert np.broadcast_shapes(np.shape(res), want) == want, (
            f"{name}({_show(kwargs)}) returned shape {np.shape(res)} for inputs of shape {want}"
        )


def _names_a_parameter(msg: str, names) -> bool:
    return any(re.search(rf"\b{re.escape(n)}\b", msg) for n in names)


# --- the functions the test covers, and how -------------------------------------------------------------
def _parameters(func):
    try:
        return inspect.signature(func).parameters
    except (TypeError, ValueError):
        return {}


def _plan(func):
    """(declared inputs, extra registry entries, required parameters missing a source)."""
    declared = declared_inputs(func)
    extras, missing = {}, []
    for pname, p in _parameters(func).items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or pname in declared:
            continue
        entry = _extra(func, pname)
        if entry is not None:
            extras[pname] = entry
        elif p.default is p.empty:
            missing.append(pname)
    return declared, extras, missing


COVERED = sorted(q for q, f in PUBLIC.items() if not (_name(f) in NAMES and NAMES[_name(f)] is None))
DECLARED = sorted(q for q in COVERED if declared_inputs(PUBLIC[q]))


def test_every_public_function_is_covered():
    # A public function needs declarations (or, for names rather than quantities, a
    # registry entry); a required argument the test cannot supply fails here.
    problems = []
    for qual in COVERED:
        func = PUBLIC[qual]
        if NAMES.get(_name(func)):
            continue  # called with the registry's argument lists
        declared, _extras, missing = _plan(func)
        if missing:
            problems.append(f"{qual}: no declaration or registry entry for {', '.join(missing)}")
        params = _parameters(func)
        undeclared_numbers = [
            p
            for p, v in params.items()
            if p not in declared
            and v.kind not in (v.VAR_POSITIONAL, v.VAR_KEYWORD)
            and _extra(func, p) is None
            and isinstance(v.default, int | float)
            and not isinstance(v.default, bool)
        ]
        if undeclared_numbers:
            problems.append(f"{qual}: numeric parameter(s) {', '.join(undeclared_numbers)} not declared")
    assert not problems, "\n".join(problems)
    assert set(NAMES) <= {_name(f) for f in PUBLIC.values()}
    COUNTS["_all"]["functions"] = len(PUBLIC)
    COUNTS["_all"]["functions with declarations"] = len(DECLARED)


def _kwargs(data, func, *, arrays: bool):
    """Draw valid keyword arguments; some omitted (the default), some as arrays."""
    declared, extras, _missing = _plan(func)
    params = _parameters(func)
    kwargs, shapes, as_arrays = {}, [], []
    shape_pool = [(3,), (2, 1), (1, 3), (2, 3)]
    for pname, inp in declared.items():
        p = params.get(pname)
        has_default = p is None or p.default is not p.empty
        if has_default and data.draw(st.integers(0, 3), label=f"omit {pname}") == 0:
            continue
        if (
            has_default
            and p is not None
            and (p.default is None or inp.optional)
            and data.draw(st.booleans(), label=f"none {pname}")
        ):
            kwargs[pname] = None
            continue
        if arrays and inp.kind in ("number", "int") and data.draw(st.booleans(), label=f"array {pname}"):
            shape = data.draw(st.sampled_from(shape_pool), label=f"shape {pname}")
            n = int(np.prod(shape))
            values = data.draw(st.lists(_valid(inp), min_size=n, max_size=n), label=pname)
            kwargs[pname] = np.array(values, dtype=float).reshape(shape)
            shapes.append(shape)
            as_arrays.append(pname)
        else:
            kwargs[pname] = data.draw(_valid(inp), label=pname)
    for pname, (values, _bad) in extras.items():
        kwargs[pname] = data.draw(st.sampled_from(values()), label=pname)
    return kwargs, shapes, as_arrays


@pytest.mark.parametrize(
    "qual",
    [_case(q, valid=True) for q in DECLARED + sorted(q for q in COVERED if not declared_inputs(PUBLIC[q]))],
)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_valid_inputs_give_finite_results_or_a_named_constraint(qual, data):
    func = PUBLIC[qual]
    _need_optional(func)
    if NAMES.get(_name(func)):
        args = data.draw(st.sampled_from(NAMES[_name(func)][0]), label="args")
        with warnings.catch_warnings(), deadline():
            warnings.simplefilter("error")
            _check_result(func, {"args": args}, _apply(func, args), [])
        COUNTS[qual]["valid calls"] += 1
        COUNTS[qual]["valid: result"] += 1
        return
    arrays = data.draw(st.booleans(), label="arrays")
    kwargs, shapes, as_arrays = _kwargs(data, func, arrays=arrays)
    res, exc, caught = _call(func, kwargs)
    counts = COUNTS[qual]
    counts["valid calls"] += 1
    for w in caught:
        assert issubclass(w.category, VtsModelWarning), (
            f"{qual}({_show(kwargs)}) warned {w.category.__name__}: {w.message}"
        )
    if caught:
        counts["valid: documented warning"] += 1
    if exc is None:
        counts["valid: result"] += 1
        _check_result(func, kwargs, res, shapes)
        return
    msg = str(exc)
    if isinstance(exc, ConstraintError):
        counts["valid: ConstraintError"] += 1
        assert _names_a_parameter(msg, kwargs or declared_inputs(func)), f"{qual}: {msg!r} names no parameter"
        return
    if isinstance(exc, ValueError) and "must be a single number" in msg:
        counts["valid: scalar input given an array"] += 1
        assert any(msg.startswith(f"{p} must be a single number") for p in as_arrays), msg
        return
    raise AssertionError(f"{qual}({_show(kwargs)}) raised {type(exc).__name__}: {exc}") from exc


def _invalid_cases():
    for qual in COVERED:
        func = PUBLIC[qual]
        declared, extras, _missing = _plan(func)
        params = _parameters(func)
        for pname, inp in declared.items():
            sig_default = params[pname].default if pname in params else None
            for bad in _bad_values(inp):
                yield _case(qual, pname, bad, id=f"{qual}-{pname}-{_label(bad)}")
            # None is refused unless the signature's default is None or the input is
            # declared optional (a number or None: ``evaluate(fraction=None)``)
            if (
                pname in params
                and sig_default is not params[pname].empty
                and sig_default is not None
                and not inp.optional
            ):
                yield _case(qual, pname, None, id=f"{qual}-{pname}-None")
        for pname, (_values, bads) in extras.items():
            for bad in bads:
                yield _case(qual, pname, bad, id=f"{qual}-{pname}-{_label(bad)}")
        entry = NAMES.get(_name(func))
        if entry:
            for args in entry[1]:
                yield _case(qual, "*items", args, id=f"{qual}-items-{_label(args)}")


def _label(value) -> str:
    text = "object" if type(value) is object else repr(value)
    return re.sub(r"\W+", "_", text)[:24]


def _base_kwargs(func, skip: str) -> dict:
    """Valid values for every required argument except ``skip``: the declared defaults."""
    declared, extras, _missing = _plan(func)
    params = _parameters(func)
    out = {k: v for k, v in ONE_OF.get(_name(func), {}).items() if k != skip}
    for pname, p in params.items():
        if pname == skip or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.default is not p.empty:
            continue
        if pname in declared:
            inp = declared[pname]
            out[pname] = (
                inp.default if inp.default is not None and inp.contains(inp.default) else _example(inp)
            )
        elif pname in extras:
            out[pname] = extras[pname][0]()[0]
    return out


def _example(inp: Input):
    if inp.choices:
        return inp.values[0]
    lo, hi = _bounds(inp)
    x = 1.0 if lo <= 1.0 <= hi and inp.contains(1.0) else (lo + hi) / 2
    return int(x) if inp.integer else x


@pytest.mark.parametrize(("qual", "param", "bad"), list(_invalid_cases()))
def test_invalid_inputs_raise_value_error_naming_parameter_value_and_range(qual, param, bad):
    func = PUBLIC[qual]
    _need_optional(func)
    if param == "*items":
        with warnings.catch_warnings(), deadline():
            warnings.simplefilter("error")
            with pytest.raises(ValueError, match=r"\S"):
                _apply(func, bad)
        COUNTS[qual]["invalid calls"] += 1
        COUNTS[qual]["invalid: ValueError"] += 1
        return
    kwargs = {**_base_kwargs(func, param), param: bad}
    res, exc, caught = _call(func, kwargs)
    COUNTS[qual]["invalid calls"] += 1
    assert exc is not None, f"{qual}({_show(kwargs)}) accepted {param}={bad!r} and returned {res!r}"
    assert isinstance(exc, ValueError), f"{qual}({_show(kwargs)}) raised {type(exc).__name__}: {exc}"
    msg = str(exc)
    inp = declared_inputs(func).get(param)
    if inp is None:  # a name, a profile, a list of flows: the message says what was wrong
        assert msg.strip(), f"{qual}: an empty message"
        COUNTS[qual]["invalid: ValueError"] += 1
        return
    assert re.search(rf"\b{re.escape(param)}\b", msg), f"{qual}: the message does not name {param}: {msg!r}"
    if inp.choices:
        assert all(repr(v) in msg for v in inp.values), f"{qual}: the choices are not listed: {msg!r}"
    else:
        assert _fmt_range(inp.lo, inp.hi, inp.lo_open, inp.hi_open) in msg, (
            f"{qual}: the range {inp.range_text()} is not in {msg!r}"
        )
    COUNTS[qual]["invalid: ValueError"] += 1


def _shape_cases():
    for qual in DECLARED:
        numeric = [p for p, inp in declared_inputs(PUBLIC[qual]).items() if inp.kind in ("number", "int")]
        if len(numeric) >= 2:
            yield _case(qual, numeric[0], numeric[1], id=qual)


@pytest.mark.parametrize(("qual", "first", "second"), list(_shape_cases()))
def test_mismatched_shapes_are_refused_by_name(qual, first, second):
    func = PUBLIC[qual]
    declared = declared_inputs(func)
    kwargs = {**_base_kwargs(func, "")}
    for pname, n in ((first, 2), (second, 3)):
        inp = declared[pname]
        kwargs[pname] = np.full(n, _example(inp) if inp.default is None else inp.default, dtype=float)
    res, exc, caught = _call(func, kwargs)
    COUNTS[qual]["shape calls"] += 1
    assert exc is not None, f"{qual}({_show(kwargs)}) accepted shapes (2,) and (3,): {res!r}"
    assert isinstance(exc, ValueError), f"{qual}: {type(exc).__name__}: {exc}"
    msg = str(exc)
    named = [p for p in (first, second) if re.search(rf"\b{re.escape(p)}\b", msg)]
    if "must be a single number" in msg:
        assert named, msg
    else:
        assert named == [first, second] or len(named) == 2, (
            f"{qual}: {msg!r} does not name {first} and {second}"
        )
    COUNTS[qual]["shape: ValueError"] += 1


def test_declared_limits_agree_with_the_data():
    # Where a declaration repeats a number the data holds, they must agree.
    from vtsmodel.quantities import ADAPTERS, CHANNELS

    facts = vtsmodel.load("vts_facts")
    assert ADAPTERS.hi == facts.value("scsi_adapters_max")
    assert CHANNELS.hi == facts.value("escon_channels_max")
    from vtsmodel import import_export

    assert import_export._MOUNTS.lo == facts.value("ie_min_mounts_per_volume")


def test_zz_summary(artifacts_dir):
    """The counts: functions covered, inputs tried, outcomes (written and printed)."""
    total = collections.Counter()
    for qual, c in COUNTS.items():
        if qual != "_all":
            total.update(c)
    summary = {
        "functions public": len(PUBLIC),
        "functions with declarations": len(DECLARED),
        "functions covered": len(COVERED),
        "functions left to other tests": sorted(q for q in PUBLIC if q not in COVERED),
        "outcomes": dict(sorted(total.items())),
        "per function": {q: dict(sorted(c.items())) for q, c in sorted(COUNTS.items()) if q != "_all"},
    }
    (artifacts_dir / "properties.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "per function"}, indent=2))
    assert summary["functions covered"] >= len(PUBLIC) - len([n for n, v in NAMES.items() if v is None])
