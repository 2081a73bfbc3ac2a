"""Tests of vtsmodel.throughput: reference values from ibm-vts-b18-2000, properties, errors."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import ExtrapolationWarning, load
from vtsmodel import throughput as tp
from vtsmodel.fit import fit_curve

FEATURES = ("base", "ehpo", "paf")
MODES = ("sustained", "peak")


def fact(row_id):
    return load("vts_facts").value(row_id)


# --- write_rate: the paper's stated values --------------------------------------------


@pytest.mark.parametrize(
    ("mode", "tvc", "printed"),
    [
        ("sustained", 288, 5.49),
        ("sustained", 576, 6.05),
        ("sustained", 1152, 7.05),
        ("peak", 288, 8.00),
        ("peak", 576, 9.01),
        ("peak", 1152, 10.00),
    ],
)
@pytest.mark.parametrize("feature", ["base", "ehpo"])
def test_table4_cf1_intercepts(feature, mode, tvc, printed):
    # Table 4, m + b at CF = 1: the base VTS (Sec. 3.5.3 "Their intercept at CF = 1
    # corresponds to the base VTS"), two decimals as Table 4 prints its coefficients.
    assert round(float(tp.write_rate(1, tvc, feature=feature, mode=mode)), 2) == printed


@pytest.mark.parametrize(("mode", "lo_id", "hi_id"), [
    ("peak", "base_peak_write_low", "base_peak_write_high"),
    ("sustained", "base_sustained_write_low", "base_sustained_write_high"),
])  # fmt: skip
def test_sec_3_1_base_range_by_cache_size(mode, lo_id, hi_id):
    # Sec. 3.1.1 "between 8 and 10 MB per second"; Sec. 3.1.2 "between 5.5 and 7": the
    # smallest and largest cache give the ends of the range, to the printed precision
    # (5.49 rounds to 5.5, 7.05 to 7.0).
    lo, hi = fact(lo_id), fact(hi_id)
    small = float(tp.write_rate(2.0, 72, feature="base", mode=mode))
    large = float(tp.write_rate(2.0, 1152, feature="base", mode=mode))
    assert small == pytest.approx(lo, abs=0.06)
    assert large == pytest.approx(hi, abs=0.06)


def test_sec_3_5_3_ehpo_19_5_at_cf3():
    # Sec. 3.5.3: EHPO sustained "approximately 19.5 MB/s" at CF 3 (printed "1728 GB"; the
    # 1152 GB column reproduces it, data notes ambiguity 2). Both capacities map to it.
    for tvc in (1152, 1728):
        assert float(tp.write_rate(3, tvc, feature="ehpo")) == pytest.approx(
            fact("ehpo_sustained_cf3_max_tvc"), abs=0.05
        )


def test_table4_eq3_columns_exactly():
    t4 = load("vts_ehpo_coefficients")
    cf = np.array([1.0, 2.0, 3.0, 4.0])
    for mode in MODES:
        for tvc in (288, 576, 1152):
            m = t4.value(mode=mode, coefficient="m", tvc_gb=tvc)
            b = t4.value(mode=mode, coefficient="b", tvc_gb=tvc)
            np.testing.assert_allclose(
                tp.write_rate(cf, tvc, feature="ehpo", mode=mode), m * cf + b, rtol=1e-12
            )


@pytest.mark.parametrize(("row_id", "cf", "mode"), [
    ("paf_sustained_cf1", 1.0, "sustained"),   # Sec. 3.5.3 "about 19 MB/s at CF = 1"
    ("paf_sustained_cf3", 3.0, "sustained"),   # Sec. 3.5.3 "50 MB/s" at CF 3
    ("paf_peak_cf1", 1.0, "peak"),             # Sec. 3.5.4 "about 45 MB/s at a compressibility of one"
    ("paf_peak_max", 2.0, "peak"),             # Sec. 3.5.4 "about 80 MB/s" down to CF 2.0
])  # fmt: skip
def test_sec_3_5_paf_points(row_id, cf, mode):
    # "about" values, printed to two significant figures: within 3 % (the soft knee costs
    # 1.4 MB/s at CF 2 in peak).
    assert float(tp.write_rate(cf, feature="paf", mode=mode)) == pytest.approx(fact(row_id), rel=0.03)


def test_table2_paf_peak_32kb():
    # Table 2: 80 MB/s peak write at CF 2.66 with 32 KB blocks.
    assert float(tp.write_rate(2.66, feature="paf", mode="peak")) == pytest.approx(80, rel=0.01)


def test_sec_3_5_3_paf_flat_above_cf3():
    # "At higher compression, the PAF throughput is not sensitive to compression factor."
    r3, r4 = tp.write_rate(np.array([3.0, 4.0]), feature="paf")
    assert r4 / r3 - 1 < 0.03


@pytest.mark.parametrize(("tvc", "cf"), [(288, 3), (576, 3), (1152, 3), (1728, 3)])
def test_sec_3_5_4_peak_about_60pct_above_sustained(tvc, cf):
    # Sec. 3.5.4: peak "about 60% greater than the sustained write rate": Table 4 gives
    # 1.55, 1.62, 1.59 at CF 3; PAF 80/50.
    for feature in ("ehpo", "paf"):
        ratio = tp.write_rate(cf, tvc, feature=feature, mode="peak") / tp.write_rate(cf, tvc, feature=feature)
        assert ratio == pytest.approx(1 + fact("peak_over_sustained_gain"), abs=0.06)


def test_paf_more_than_doubles_ehpo_at_cf3():
    # Sec. 3.5.3 "more than doubled to 50 MB/s with respect to the EHPO feature alone".
    assert tp.write_rate(3, 1728, feature="paf") / tp.write_rate(3, 1728, feature="ehpo") > 2


# --- the TVC mapping --------------------------------------------------------------------


def test_tvc_mapping_product_capacities():
    t4 = load("vts_ehpo_coefficients")
    col = {c: t4.value(mode="sustained", coefficient="m", tvc_gb=c) for c in (288, 576, 1152)}
    m = lambda tvc: float(tp.ehpo_coefficients(tvc)[0])  # noqa: E731
    for tvc in (72, 144, 216, 288):
        assert m(tvc) == col[288]
    w = np.log2(432 / 288)  # 0.585: interpolation in log2 capacity
    assert m(432) == pytest.approx(col[288] + w * (col[576] - col[288]))
    assert m(864) == pytest.approx(col[576] + w * (col[1152] - col[576]))
    assert m(1728) == col[1152]


# --- the PAF fit ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_paf_fit_refit_from_data_matches_shipped(mode):
    # Refit here, from the data rows, independently of paf_fit, and compare with the
    # shipped parameters (CalebBell/fluids style).
    facts, blocks = load("vts_facts"), load("vts_block_size")
    if mode == "sustained":
        x = [1.0, facts.value("paf_sustained_knee_cf"), facts.value("meas_cf_max")]
        y = [facts.value("paf_sustained_cf1")] + [facts.value("paf_sustained_cf3")] * 2
    else:
        i = list(blocks["id"]).index("peak_write_32kb")
        x = [1.0, facts.value("paf_peak_max_min_cf"), float(blocks["cf"][i]), facts.value("meas_cf_max")]
        y = [facts.value("paf_peak_cf1"), facts.value("paf_peak_max"), blocks.value("peak_write_32kb"),
             facts.value("conclusion_peak_write_max")]  # fmt: skip
    fit = fit_curve(
        "check", lambda c, s, cap: tp.soft_min(s * c, cap), x, y, p0=(y[0], max(y)), param_names=("s", "C")
    )
    np.testing.assert_allclose(fit.params, tp.PAF_PARAMS[mode], rtol=1e-5)
    shipped = tp.paf_fit(mode)
    np.testing.assert_allclose(shipped.params, tp.PAF_PARAMS[mode], rtol=1e-5)
    np.testing.assert_allclose(shipped.residuals, fit.residuals, atol=1e-4)
    assert np.all(np.isfinite(shipped.stderr)) and np.all(shipped.stderr > 0)
    assert np.max(np.abs(shipped.residuals)) < 1.5  # MB/s, within "about"
    assert len(shipped.ids) == len(shipped.x)


def test_soft_min_bounds():
    a = np.array([1.0, 10.0, 50.0, 1e6])
    b = 50.0
    s = tp.soft_min(a, b)
    assert np.all(s <= np.minimum(a, b))
    assert np.all(s >= np.minimum(a, b) * 2 ** (-1 / tp.PAF_KNEE_SHARPNESS) - 1e-12)


# --- properties ------------------------------------------------------------------------

cfs = st.floats(1.0, 4.0)
tvcs = st.floats(72.0, 1728.0)


@settings(max_examples=200, deadline=None)
@given(cf=cfs, tvc=tvcs, feature=st.sampled_from(FEATURES))
def test_peak_at_least_sustained(cf, tvc, feature):
    assert tp.write_rate(cf, tvc, feature=feature, mode="peak") >= tp.write_rate(cf, tvc, feature=feature)


@settings(max_examples=200, deadline=None)
@given(
    cf=cfs, d=st.floats(0.0, 3.0), tvc=tvcs, feature=st.sampled_from(FEATURES), mode=st.sampled_from(MODES)
)
def test_non_decreasing_in_cf(cf, d, tvc, feature, mode):
    hi = min(cf + d, 4.0)
    assert (
        tp.write_rate(hi, tvc, feature=feature, mode=mode)
        >= tp.write_rate(cf, tvc, feature=feature, mode=mode) - 1e-12
    )


@settings(max_examples=200, deadline=None)
@given(
    cf=cfs, tvc=tvcs, k=st.floats(1.0, 24.0), feature=st.sampled_from(FEATURES), mode=st.sampled_from(MODES)
)
def test_non_decreasing_in_tvc(cf, tvc, k, feature, mode):
    big = min(tvc * k, 1728.0)
    assert (
        tp.write_rate(cf, big, feature=feature, mode=mode)
        >= tp.write_rate(cf, tvc, feature=feature, mode=mode) - 1e-12
    )


@settings(max_examples=200, deadline=None)
@given(cf=st.floats(1.0, 30.0), tvc=st.floats(72.0, 1728.0), mode=st.sampled_from(MODES))
def test_paf_at_least_ehpo_at_least_base(cf, tvc, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        base, ehpo, paf = (tp.write_rate(cf, tvc, feature=f, mode=mode) for f in FEATURES)
    assert paf >= ehpo >= base > 0


def test_arrays_broadcast():
    cf = np.linspace(1, 4, 7)[:, None]
    tvc = np.array([288.0, 576.0, 1152.0])[None, :]
    out = tp.write_rate(cf, tvc, feature="ehpo")
    assert out.shape == (7, 3)
    assert isinstance(tp.write_rate(2.0), np.floating)


# --- invalid input and extrapolation ----------------------------------------------------


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"cf": 0.5}, "cf=0.5"),
    ({"cf": float("nan")}, "cf"),
    ({"cf": -1}, "cf"),
    ({"cf": True}, "cf"),
    ({"cf": "three"}, "cf"),
    ({"cf": 2, "tvc_gb": 0}, "tvc_gb"),
    ({"cf": 2, "tvc_gb": -10}, "tvc_gb"),
    ({"cf": 2, "feature": "turbo"}, "feature='turbo'"),
    ({"cf": 2, "mode": "burst"}, "mode='burst'"),
    ({"cf": [2, np.inf]}, "cf"),
])  # fmt: skip
def test_invalid_input_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tp.write_rate(**kwargs)


def test_extrapolation_warnings():
    with pytest.warns(ExtrapolationWarning, match="cf=5"):
        tp.write_rate(5, feature="paf")
    with pytest.warns(ExtrapolationWarning, match="50"):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="cf=", category=ExtrapolationWarning)
            tp.write_rate(6, 1152, feature="ehpo", mode="peak")
    with pytest.warns(ExtrapolationWarning, match="tvc_gb=3000"):
        tp.write_rate(2, 3000)
    # Inside the validated range: no warning at all (warnings are errors in this suite).
    tp.write_rate(np.linspace(1, 4, 13), 1728, feature="ehpo", mode="peak")
    tp.write_rate(3, 1152, feature="base")


def test_public_name_and_citation():
    assert vtsmodel.write_rate is tp.write_rate
    assert "ibm-vts-b18-2000" in vtsmodel.cite(vtsmodel.write_rate)
