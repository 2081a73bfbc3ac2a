"""A compression ratio below 1 (data that grows on tape) is taken, with a CompressionWarning.

Issue 23: "a ratio of 0.95 gives a result and a warning in throughput, efficiency, sizing and
planner functions". Every public function that declares a compressibility (CF) or a drive's
compression ratio is called with 0.95 (its other inputs at their declared defaults): it
must answer finite numbers and warn with CompressionWarning naming the parameter.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import numpy as np
import pytest

import vtsmodel
from vtsmodel import CompressionWarning
from vtsmodel._inputs import declared_inputs


def _functions():
    seen = {}
    for mod in pkgutil.walk_packages(vtsmodel.__path__, "vtsmodel."):
        if ".app" in mod.name or mod.name.endswith("__main__"):
            continue
        module = importlib.import_module(mod.name)
        for name, f in vars(module).items():
            if name.startswith("_") or not callable(f) or getattr(f, "__module__", "") != module.__name__:
                continue
            growing = [p for p, inp in declared_inputs(f).items() if inp.below is not None]
            if growing:
                seen[f"{module.__name__}.{name}"] = (f, growing)
    return seen


FUNCTIONS = _functions()


def _extra():
    """Arguments no declaration gives a value for, by function."""
    from vtsmodel import hits
    from vtsmodel.logs import synthetic_mount_log
    from vtsmodel.workload import make_profile

    curve = hits.lru_hit_curve(synthetic_mount_log(2000, 300, seed=1))
    return {
        "drives.compressed_rate": {"native_mb_s": 300.0},
        "archive.cartridge_tb": {"drive": "LTO-9"},
        "catalog.streaming_check": {"drive": "LTO-9"},
        "catalog.warn_streaming": {"drive": "LTO-9"},
        "recall_waits": {"hits": curve.at([100.0, 500.0]), "size_basis": "compressed"},
        "configuration_hits": {"curve": curve},
        "tvc_read_hit": {"curve": curve},
        "tvc_day.simulate_tvc": {"profile": make_profile([(0, 30.0, 5.0), (12, 10.0, 5.0)]), "tvc_gb": 864.0},
    }


def _values(obj):
    if hasattr(obj, "__dataclass_fields__"):
        return [v for f in obj.__dataclass_fields__ for v in _values(getattr(obj, f))]
    if isinstance(obj, np.ndarray | float | int) and not isinstance(obj, bool):
        return [np.asarray(obj, dtype=float)]
    return []


def test_the_functions_are_found():
    names = " ".join(FUNCTIONS)
    for part in ("throughput", "tvc", "drives.compressed_rate", "hits", "recall"):
        assert part in names, part


@pytest.mark.parametrize("qual", sorted(FUNCTIONS))
def test_a_ratio_of_0_95_gives_a_result_and_a_warning(qual):
    f, growing = FUNCTIONS[qual]
    inputs = declared_inputs(f)
    kwargs = next((v for k, v in _extra().items() if qual.endswith(k)), {}).copy()
    for p in inspect.signature(f).parameters.values():
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) or p.name in kwargs:
            continue
        if p.name in growing:
            kwargs[p.name] = 0.95
        elif p.default is inspect.Parameter.empty:
            if p.name not in inputs:
                pytest.skip(f"{qual} takes {p.name}, which no declaration gives a value for")
            kwargs[p.name] = inputs[p.name].default
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f(**kwargs)
    compression = [w for w in caught if issubclass(w.category, CompressionWarning)]
    assert compression, f"{qual} gave no CompressionWarning"
    assert any(f"{g}=0.95 is below 1" in str(w.message) for w in compression for g in growing)
    for v in _values(out):
        assert not np.isnan(v).all(), f"{qual} answered NaN"


def test_the_planner_takes_a_cf_below_1_and_says_so():
    from vtsmodel.plan import Answers, Plan, evaluate

    result = evaluate(Plan(Answers(cf=0.95)))  # the planner collects the models' warnings as notes
    assert result.headline()
    for part in (result.vts, result.library):
        assert any("cf=0.95 is below 1: data that does not compress grows on tape" in n for n in part.notes)


def test_below_0_5_is_refused_and_the_validated_range_is_unchanged():
    from vtsmodel import quantities as q

    with pytest.raises(ValueError, match=r"cf=0.4 .*\[0.5, 100\]"):
        q.CF.check("cf", 0.4)
    assert q.CF.valid == (1.0, 4.0)


@pytest.mark.parametrize(
    ("lesson", "key"),
    [("01", "cf"), ("02", "cf"), ("03", "cf"), ("07", "cf"), ("07", "library_compression"), ("08", "cf"),
     ("10", "compression")],
)  # fmt: skip
def test_every_page_that_takes_a_ratio_shows_0_95_with_the_warning_as_a_note(lesson, key):
    from vtsmodel.app.lessons import lesson_module

    view = lesson_module(lesson).scenario_view(**{key: 0.95})
    assert view.figures  # an answer, not a refusal
    assert any("0.95 is below 1: data that does not compress grows on tape" in n for n in view.notes)


def test_lesson_04s_drive_rates_take_0_95_with_the_warning_as_a_note():
    from vtsmodel.app.lessons import efficiency

    panel = efficiency.rates_panel(rate_drive="LTO10", compression_ratio=0.95)
    assert any(
        n.startswith("compression ratio = 0.95 is below 1: data that does not compress")
        for n in panel.view.notes
    )
    # the host sees less than the native rate: the catalog's 400 MB/s x 0.95
    assert panel.readout_values["the drive at this compression"] == "380 MB/s"
