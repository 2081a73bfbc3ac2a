"""Tests of vtsmodel.import_export: Eqs. 1 and 2 and the interference of Sec. 7."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import ExtrapolationWarning, load
from vtsmodel import import_export as ie


def test_eq1_eq2_terms():
    # Eq. 1: 0.00296 min/MB, 2.36 min/mount, 0.35 min/search; Eq. 2: 0.00276, 3.75, 0.35.
    assert float(ie.export_minutes(1000, 2, 1)) == pytest.approx(2.96 + 4.72 + 0.35)
    assert float(ie.import_minutes(1000, 2, 1)) == pytest.approx(2.76 + 7.5 + 0.35)


def test_sec_7_load_test_tasks():
    # Sec. 7 load test: ten volumes, 2.3 GB, export with 13 mounts, import with 6 mounts.
    e = ie.export_minutes(2300, 13)
    i = ie.import_minutes(2300, 6)
    assert float(e) == pytest.approx(0.00296 * 2300 + 2.36 * 13)
    assert float(i) == pytest.approx(0.00276 * 2300 + 3.75 * 6)
    # "export time was elongated by about 25% ... import by about 50%": the contention
    # constant of 1 + k / mounts is fitted to these two (a calibration), within "about".
    assert ie.export_minutes(2300, 13, interference="peak_write") / e == pytest.approx(1.25, abs=0.025)
    assert ie.import_minutes(2300, 6, interference="peak_write") / i == pytest.approx(1.5, abs=0.05)
    # "with simultaneous (saturated) recall activity increases ... by about 50%"
    assert ie.export_minutes(2300, 13, interference="recall") / e == pytest.approx(1.5)


def test_contention_constant_is_the_least_squares_fit():
    k = ie.contention_mounts()
    fit = [(13, 0.25), (6, 0.5)]
    assert k == pytest.approx(sum(e / m for m, e in fit) / sum(1 / m**2 for m, _ in fit))
    assert k == pytest.approx(3.0439, abs=1e-4)
    # Default mounts: the measured tasks.
    assert float(ie.interference_factor("export", "peak_write")) == pytest.approx(1 + k / 13)
    assert float(ie.interference_factor("import", "peak_write")) == pytest.approx(1 + k / 6)


def test_fewer_mounts_more_affected_sec_7():
    # "the less mount activity an import/export task requires the more it is affected
    # (relatively)": built into the form 1 + k / mounts (an input, not evidence).
    m = np.arange(2, 19)
    for task in ("export", "import"):
        f = ie.interference_factor(task, "peak_write", mounts=m)
        assert np.all(np.diff(f) < 0) and np.all(f > 1)
        rel = ie.interference_factor(task, "recall", mounts=m)
        np.testing.assert_allclose(rel, 1.5)  # no mount count given for the recall case
    with pytest.raises(ValueError, match="mounts"):
        ie.interference_factor("export", "peak_write", mounts=1)


def test_search_term_is_sec_7_search_time():
    # 0.35 min per search = the "about 21 seconds" average search time of Sec. 7 item 3.
    per_search = float(ie.export_minutes(0, 2, 1) - ie.export_minutes(0, 2, 0))
    assert per_search * 60 == pytest.approx(load("vts_facts").value("search_time_avg"))


def test_recall_rate_factor():
    # Read from its row (it was a literal in the code).
    assert ie.recall_rate_factor() == load("vts_facts").value("recall_rate_factor_during_ie")
    assert ie.RECALL_RATE_FACTOR == ie.recall_rate_factor()


@settings(max_examples=100, deadline=None)
@given(mb=st.floats(0, 3600), m=st.integers(2, 17), s=st.integers(0, 10))
def test_monotone_and_positive(mb, m, s):
    for f in (ie.export_minutes, ie.import_minutes):
        t = f(mb, m, s)
        assert t > 0
        assert f(mb + 100, m, s) > t
        assert f(mb, m + 1, s) > t
        assert f(mb, m, s, interference="recall") >= t


def test_arrays():
    out = ie.import_minutes(np.array([100.0, 2300.0]), np.array([2, 6]))
    assert out.shape == (2,)


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    ((-1, 2), {}, "mb"),
    ((100, 1), {}, "mounts"),
    ((100, 2.5), {}, "mounts"),
    ((100, 2, -1), {}, "searches"),
    ((100, 2), {"interference": "busy"}, "interference"),
    ((float("nan"), 2), {}, "mb"),
])  # fmt: skip
def test_invalid(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ie.export_minutes(*args, **kwargs)


def test_outside_fitted_range_warns():
    with pytest.warns(ExtrapolationWarning, match="mounts=30"):
        ie.export_minutes(1000, 30)
    with pytest.warns(ExtrapolationWarning, match="mb=10000"):
        ie.import_minutes(10000, 4)


def test_public_names():
    assert vtsmodel.export_minutes is ie.export_minutes
    assert vtsmodel.import_minutes is ie.import_minutes
    assert "ibm-vts-b18-2000" in vtsmodel.cite(vtsmodel.export_minutes)
