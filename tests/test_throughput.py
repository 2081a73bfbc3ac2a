"""Tests of vtsmodel.throughput: reference values from ibm-vts-b18-2000, properties, errors."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import vtsmodel
from vtsmodel import ExtrapolationWarning, b18, load
from vtsmodel import throughput as tp
from vtsmodel.fit import fit_curve

FEATURES = ("base", "ehpo", "paf")
MODES = ("sustained", "peak")
#: Table 4's columns by the 36 GB-HDD configuration of each layout (a capacity alone takes
#: 288 GB as 16(2+P) of 9 GB HDDs, the third column: vtsmodel.b18).
COLUMN = {288: "tvc_288_36gb_base_ehpo", 576: "tvc_576_36gb_base_ehpo", 1152: "tvc_1152_36gb_base_ehpo"}


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
    assert round(float(tp.write_rate(1, tvc_config=COLUMN[tvc], feature=feature, mode=mode)), 2) == printed


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
    # Sec. 3.5.3: EHPO sustained "approximately 19.5 MB/s" at CF 3 (printed "1728 GB", a
    # PAF-only configuration; the largest EHPO one, 1152 GB, reproduces it: data notes,
    # ambiguity 2; ledger vts_ehpo_19_5). The default EHPO capacity is that 1152 GB.
    want = fact("ehpo_sustained_cf3_max_tvc")
    assert float(tp.write_rate(3, feature="ehpo")) == pytest.approx(want, abs=0.05)
    assert float(tp.write_rate(3, tvc_config="tvc_1152_36gb_base_ehpo", feature="ehpo")) == pytest.approx(
        want, abs=0.05
    )
    with pytest.warns(ExtrapolationWarning, match="only with PAF"):
        assert float(tp.write_rate(3, 1728, feature="ehpo")) == pytest.approx(want, abs=0.05)


def test_table4_eq3_columns_exactly():
    t4 = load("vts_ehpo_coefficients")
    cf = np.array([1.0, 2.0, 3.0, 4.0])
    for mode in MODES:
        for tvc in (288, 576, 1152):
            m = t4.value(mode=mode, coefficient="m", tvc_gb=tvc)
            b = t4.value(mode=mode, coefficient="b", tvc_gb=tvc)
            np.testing.assert_allclose(
                tp.write_rate(cf, tvc_config=COLUMN[tvc], feature="ehpo", mode=mode), m * cf + b, rtol=1e-12
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


@pytest.mark.parametrize(("feature", "tvc"), [("ehpo", 288), ("ehpo", 576), ("ehpo", 1152), ("paf", 1728)])
def test_sec_3_5_4_peak_about_60pct_above_sustained(feature, tvc):
    # Sec. 3.5.4: peak "about 60% greater than the sustained write rate (cf., Figs. 7 and
    # 8)": Table 4 gives 1.55, 1.62, 1.59 at CF 3; the PAF fits at 1728 GB (Fig. 7's) 1.63.
    # Table 4 and the PAF fits were not made to this ratio (ledger vts_peak_60pct_over_sustained).
    kw = {"tvc_config": COLUMN[tvc]} if feature == "ehpo" else {"tvc_gb": tvc}
    ratio = tp.write_rate(3, feature=feature, mode="peak", **kw) / tp.write_rate(3, feature=feature, **kw)
    assert ratio == pytest.approx(1 + fact("peak_over_sustained_gain"), abs=0.06)


def test_paf_more_than_doubles_ehpo_at_cf3():
    # Sec. 3.5.3 "more than doubled to 50 MB/s with respect to the EHPO feature alone": a
    # consequence of the PAF curve's calibration to 50 MB/s and Table 4's 19.51 (2.53 x),
    # not evidence. Sec. 2's "up to 100%" contradicts it (ledger vts_paf_up_to_100pct).
    assert tp.write_rate(3, 1728, feature="paf") / tp.write_rate(3, feature="ehpo") > 2


# --- the TVC mapping --------------------------------------------------------------------


@pytest.mark.parametrize(("config", "column"), [
    ("tvc_72_9gb_base_ehpo", 288), ("tvc_72_36gb_base_ehpo", 288),
    ("tvc_144_9gb_base_ehpo", 576), ("tvc_144_36gb_base_ehpo", 288),
    ("tvc_288_9gb_base_ehpo", 1152), ("tvc_288_36gb_base_ehpo", 288),
    ("tvc_576_36gb_base_ehpo", 576), ("tvc_1152_36gb_base_ehpo", 1152),
])  # fmt: skip
def test_configuration_gets_the_table4_column_of_its_layout(config, column):
    # Table 4's columns pair the 36 GB- and 9 GB-HDD capacities of one RAID layout (data
    # notes, ambiguity 1): 144 GB is the "576 /144" column on 9 GB HDDs, "≤288 /72" on 36.
    t4 = load("vts_ehpo_coefficients")
    for mode in MODES:
        m = t4.value(mode=mode, coefficient="m", tvc_gb=column)
        b = t4.value(mode=mode, coefficient="b", tvc_gb=column)
        got = tp.write_rate(np.array([1.0, 3.0]), tvc_config=config, feature="ehpo", mode=mode)
        np.testing.assert_allclose(got, [m + b, 3 * m + b], rtol=1e-12)
        assert float(tp.write_rate(1, tvc_config=config, feature="base", mode=mode)) == pytest.approx(m + b)


def test_capacity_and_configuration_agree_or_raise():
    assert tp.write_rate(3, 576, feature="ehpo") == tp.write_rate(
        3, tvc_config="tvc_576_36gb_base_ehpo", feature="ehpo"
    )
    # 216 GB of 9 GB HDDs is 12(2+P): between the 8 and 16 group columns, like 864 GB.
    with pytest.warns(ExtrapolationWarning, match="864 GB is not offered"):
        like = tp.write_rate(3, 864, feature="ehpo")
    assert tp.write_rate(3, tvc_config="tvc_216_9gb_base_ehpo", feature="ehpo") == like
    one = tp.write_rate(3, 144, tvc_config="tvc_144_9gb_base_ehpo", feature="ehpo")
    assert one == tp.write_rate(3, tvc_config="tvc_144_9gb_base_ehpo", feature="ehpo")
    with pytest.raises(ValueError, match="does not match tvc_config"):
        tp.write_rate(3, 288, tvc_config="tvc_144_9gb_base_ehpo", feature="ehpo")
    with pytest.raises(ValueError, match="tvc_config='tvc_999'"):
        tp.write_rate(3, tvc_config="tvc_999")


@pytest.mark.parametrize("tvc", [432, 864, 1728, 1500])
@pytest.mark.parametrize("feature", ["base", "ehpo"])
def test_paf_only_capacities_warn_for_base_and_ehpo(tvc, feature):
    # Table 3 offers 432, 864 and 1728 GB only with PAF; base/EHPO stop at 1152 GB.
    with pytest.warns(ExtrapolationWarning, match="not offered"):
        tp.write_rate(3, tvc, feature=feature)
    with pytest.warns(ExtrapolationWarning, match="only with PAF"):
        tp.write_rate(3, tvc_config="tvc_864_36gb_paf", feature=feature)


def test_paf_on_a_base_ehpo_configuration_warns():
    with pytest.warns(ExtrapolationWarning, match="only without PAF"):
        tp.write_rate(3, tvc_config="tvc_576_36gb_base_ehpo")
    tp.write_rate(3, tvc_config="tvc_432_36gb_paf")  # offered: no warning


def test_paf_smaller_cache_somewhat_reduced_project_assumption():
    # Sec. 3.5.3: 216-864 GB "approximately the same, but ... somewhat reduced"; how much is
    # a project assumption (PAF_SMALL_TVC_REDUCTION, a parameter): sustained only.
    caps = tp.np.array([216.0, 432.0, 864.0, 1728.0])
    sus = tp.write_rate(3, caps)
    np.testing.assert_allclose(sus / sus[-1], 1 - tp.PAF_SMALL_TVC_REDUCTION * np.array([1, 2 / 3, 1 / 3, 0]))
    np.testing.assert_allclose(tp.write_rate(3, caps, mode="peak"), tp.write_rate(3, 1728, mode="peak"))
    none = tp.write_rate(3, 216, paf_small_tvc_reduction=0.0)
    assert none == tp.write_rate(3, 1728)
    with pytest.raises(ValueError, match="paf_small_tvc_reduction"):
        tp.write_rate(3, 216, paf_small_tvc_reduction=1.5)


def test_a_capacity_alone_reads_the_column_of_its_table3_layout():
    # ibm-vts-b18-2000, Tables 3 and 4 (data notes, ambiguities 1 and 8): 72 GB is 4(2+P), the
    # first column; 144, 216 and 288 GB are 8, 12 and 16 groups of 2+P on 9 GB HDDs; 576 and
    # 1152 GB are 8 and 16 groups on 36 GB HDDs. 12 groups sit between two columns, like 864 GB.
    t4 = load("vts_ehpo_coefficients")
    col = {c: t4.value(mode="sustained", coefficient="m", tvc_gb=c) for c in (288, 576, 1152)}
    m = lambda tvc: float(tp.ehpo_coefficients(tvc)[0])  # noqa: E731
    w = np.log2(432 / 288)  # 0.585: interpolation in log2 of Table 4's axis
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vtsmodel.LayoutWarning)  # 144, 288 GB: tests/test_b18.py
        got = {tvc: m(tvc) for tvc in (72, 144, 216, 288, 576, 1152)}
    assert got == {72: col[288], 144: col[576], 216: pytest.approx(col[576] + w * (col[1152] - col[576])),
                   288: col[1152], 576: col[576], 1152: col[1152]}  # fmt: skip
    # a capacity Table 3 does not list for EHPO is read on the 36 GB-HDD axis
    assert m(400) == pytest.approx(col[288] + np.log2(400 / 288) * (col[576] - col[288]))
    with pytest.warns(ExtrapolationWarning, match="not offered"):
        assert m(864) == pytest.approx(col[576] + w * (col[1152] - col[576]))
    with pytest.warns(ExtrapolationWarning, match="not offered"):
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
    # The CF 4 point is placed by the project: its own provenance, not a data row's id.
    anchor = tp.PAF_ANCHORS[mode]
    assert shipped.ids[-1] == anchor and anchor.startswith("anchor:")
    assert "project anchor" in tp.PAF_ANCHOR_PROVENANCE[anchor]
    assert all(i in load("vts_facts")["id"] or i in load("vts_block_size")["id"] for i in shipped.ids[:-1])


def test_soft_min_bounds():
    a = np.array([1.0, 10.0, 50.0, 1e6])
    b = 50.0
    s = tp.soft_min(a, b)
    assert np.all(s <= np.minimum(a, b))
    assert np.all(s >= np.minimum(a, b) * 2 ** (-1 / tp.PAF_KNEE_SHARPNESS) - 1e-12)


# --- properties ------------------------------------------------------------------------

cfs = st.floats(1.0, 4.0)
# 144 and 288 GB alone warn (two Table 3 layouts): tests/test_b18.py
tvcs = st.floats(72.0, 1728.0).filter(lambda t: t not in (144.0, 288.0))

# Base and EHPO above 1152 GB warn (not offered with them); the properties hold there too.
ignore_not_offered = pytest.mark.filterwarnings(
    "ignore:.*not offered:vtsmodel._validation.ExtrapolationWarning"
)


@ignore_not_offered
@settings(max_examples=200, deadline=None)
@given(cf=cfs, tvc=tvcs, feature=st.sampled_from(FEATURES))
def test_peak_at_least_sustained(cf, tvc, feature):
    assert tp.write_rate(cf, tvc, feature=feature, mode="peak") >= tp.write_rate(cf, tvc, feature=feature)


@ignore_not_offered
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


@ignore_not_offered
@settings(max_examples=200, deadline=None)
@given(
    cf=cfs, tvc=tvcs, k=st.floats(1.0, 24.0), feature=st.sampled_from(FEATURES), mode=st.sampled_from(MODES)
)
def test_non_decreasing_in_tvc(cf, tvc, k, feature, mode):
    # PAF: in capacity. Base and EHPO: along Table 4's axis, which a capacity Table 3 does not
    # list follows; a listed one takes its layout's column (288 GB on 9 GB HDDs outruns 576 GB
    # on 36 GB HDDs: more parity groups, tests/test_b18.py).
    big = min(tvc * k, 1728.0)
    listed = set(b18.product_configurations("ehpo").tolist())
    assume(feature == "paf" or not {tvc, big} & listed)
    assert (
        tp.write_rate(cf, big, feature=feature, mode=mode)
        >= tp.write_rate(cf, tvc, feature=feature, mode=mode) - 1e-12
    )


@settings(max_examples=200, deadline=None)
@given(cf=st.floats(1.0, 30.0), tvc=tvcs, mode=st.sampled_from(MODES))
def test_paf_at_least_ehpo_at_least_base(cf, tvc, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        base, ehpo, paf = (tp.write_rate(cf, tvc, feature=f, mode=mode) for f in FEATURES)
    assert paf >= ehpo >= base > 0


def test_arrays_broadcast():
    cf = np.linspace(1, 4, 7)[:, None]
    tvc = np.array([72.0, 576.0, 1152.0])[None, :]
    out = tp.write_rate(cf, tvc, feature="ehpo")
    assert out.shape == (7, 3)
    assert isinstance(tp.write_rate(2.0), np.floating)


# --- invalid input and extrapolation ----------------------------------------------------


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"cf": 0.4}, "cf=0.4"),
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
    tp.write_rate(np.linspace(1, 4, 13), 1152, feature="ehpo", mode="peak")
    tp.write_rate(np.linspace(1, 4, 13), feature="ehpo", mode="peak")
    tp.write_rate(3, 1152, feature="base")


def test_public_name_and_citation():
    assert vtsmodel.write_rate is tp.write_rate
    assert "ibm-vts-b18-2000" in vtsmodel.cite(vtsmodel.write_rate)


# --- block size --------------------------------------------------------------------------


def test_table2_block_size_factors():
    # Table 2 at CF 2.66: peak write 80 -> 103 MB/s, read hit 64 -> 89 MB/s (32 -> 64 KB);
    # the two-point per-block model passes through both.
    assert float(tp.block_size_factor(64)) == pytest.approx(103 / 80)
    assert float(tp.block_size_factor(64, operation="read")) == pytest.approx(89 / 64)
    assert float(tp.block_size_factor(32)) == 1.0


def test_sec_3_5_7_more_than_25pct():
    # Sec. 3.5.7: "The doubling of block size can improve the throughput for these
    # functions by more than 25%", Table 2: 103 (peak write) and 89 (read hit) at 64 KB.
    peak64 = float(tp.write_rate(2.66, feature="paf", mode="peak", block_kb=64))
    hit64 = float(tp.read_rate(2.66, kind="hit", block_kb=64))
    assert peak64 == pytest.approx(103, rel=0.02)  # 101.8: the soft knee costs 1.2 %
    assert hit64 == pytest.approx(89, rel=0.01)
    assert peak64 / float(tp.write_rate(2.66, feature="paf", mode="peak")) > 1 + fact("block64_gain_min")


def test_block_size_out_of_table2_warns_and_is_monotone():
    with pytest.warns(ExtrapolationWarning, match="block_kb=16"):
        f = tp.block_size_factor([16, 32, 64, 128])
    assert np.all(np.diff(f) > 0)
    with pytest.raises(ValueError, match="block_kb"):
        tp.block_size_factor(0)
    with pytest.raises(ValueError, match="operation"):
        tp.block_size_factor(32, operation="seek")


def test_block_size_leaves_sustained_and_recall_alone():
    assert tp.write_rate(3, block_kb=64) == tp.write_rate(3)
    assert tp.read_rate(2, kind="recall", block_kb=64) == tp.read_rate(2, kind="recall")


# --- reads ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("row_id", "kind", "cf"), [
    ("read_hit_cf1", "hit", 1.0),
    ("read_hit_cf2_66", "hit", 2.66),
    ("read_recall_cf1", "recall", 1.0),
    ("read_recall_cf2_66", "recall", 2.66),
])  # fmt: skip
def test_table1_read_rates(row_id, kind, cf):
    # Table 1 prints whole MB/s; the two-parameter curve passes through both points.
    assert round(float(tp.read_rate(cf, kind=kind))) == load("vts_read_rates").value(row_id)


@pytest.mark.parametrize("kind", ["hit", "recall"])
def test_read_fit_refit_matches_shipped(kind):
    t1 = load("vts_read_rates").where(operation=kind)
    fit = fit_curve(
        "check", lambda c, s, cap: tp.soft_min(s * c, cap), t1["cf"], t1["value"],
        p0=(t1["value"][0], max(t1["value"])), param_names=("s", "C"),
    )  # fmt: skip
    np.testing.assert_allclose(fit.params, tp.READ_PARAMS[kind], rtol=1e-5)
    np.testing.assert_allclose(tp.read_fit(kind).params, tp.READ_PARAMS[kind], rtol=1e-5)
    np.testing.assert_allclose(tp.read_fit(kind).residuals, 0, atol=1e-4)


def test_reads_mirror_writes_sec_3_5_4():
    # Sec. 3.5.4: read hit and recall "correspond approximately to the peak write and
    # sustained write rates"; "The maximum read rate is usually lower".
    assert tp.read_rate(2.66) < tp.write_rate(2.66, mode="peak")
    assert tp.read_rate(2.66, kind="recall") < tp.write_rate(2.66)


def test_read_extrapolation_warns():
    with pytest.warns(ExtrapolationWarning, match="Table 1"):
        tp.read_rate(3.5)
    with pytest.raises(ValueError, match="kind"):
        tp.read_rate(2, kind="miss")


# --- typical mix ----------------------------------------------------------------------------


def test_typical_mix_harmonic_rule():
    cf = 2.0
    w, h = fact("typical_mix_write_fraction"), fact("typical_mix_read_hit_ratio")
    big_w = tp.write_rate(cf)
    big_h, big_r = tp.read_rate(cf), tp.read_rate(cf, kind="recall")
    expected = 1 / (w / big_w + (1 - w) * h / big_h + (1 - w) * (1 - h) / big_r)
    assert tp.typical_mix_rate(cf) == pytest.approx(expected)
    # The pure cases give back the component rates.
    assert tp.typical_mix_rate(cf, write_fraction=1) == pytest.approx(big_w)
    assert tp.typical_mix_rate(cf, write_fraction=0, read_hit_ratio=1) == pytest.approx(big_h)
    assert tp.typical_mix_rate(cf, write_fraction=0, read_hit_ratio=0) == pytest.approx(big_r)


def test_typical_mix_defaults_are_the_typical_mix_rows():
    # Sec. 3.5.6: "a 60/40 mix of writes/reads ... a 50% hit ratio", read from the rows.
    w, h = fact("typical_mix_write_fraction"), fact("typical_mix_read_hit_ratio")
    assert tp.typical_mix_rate(2.0) == tp.typical_mix_rate(2.0, write_fraction=w, read_hit_ratio=h)


def test_typical_mix_smaller_cache_somewhat_reduced():
    # Fig. 9 caption: "smaller caches will reduce the throughput somewhat": through the PAF
    # small-cache reduction (a project assumption), so calibrated, not evidence.
    small, large = tp.typical_mix_rate(2.0, 216), tp.typical_mix_rate(2.0, 1728)
    assert 0.9 < small / large < 1


def test_typical_mix_without_paf_uses_write_rates():
    # Sec. 3.5.4: hits ~ peak write, recalls ~ sustained write.
    peak = tp.write_rate(2, 1152, feature="ehpo", mode="peak")
    sus = tp.write_rate(2, 1152, feature="ehpo")
    expected = 1 / (0.6 / sus + 0.2 / peak + 0.2 / sus)
    assert tp.typical_mix_rate(2, 1152, feature="ehpo") == pytest.approx(expected)


@settings(max_examples=100, deadline=None)
@given(cf=st.floats(1.0, 2.66), w=st.floats(0, 1), h=st.floats(0, 1), feature=st.sampled_from(FEATURES))
def test_typical_mix_between_its_parts(cf, w, h, feature):
    x = tp.typical_mix_rate(cf, feature=feature, write_fraction=w, read_hit_ratio=h)
    parts = [tp.write_rate(cf, feature=feature)]
    if feature == "paf":
        parts += [tp.read_rate(cf), tp.read_rate(cf, kind="recall")]
    else:
        parts += [tp.write_rate(cf, feature=feature, mode="peak")]
    assert min(parts) * (1 - 1e-12) <= x <= max(parts) * (1 + 1e-12)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"write_fraction": 1.2}, "write_fraction"),
    ({"read_hit_ratio": -0.1}, "read_hit_ratio"),
    ({"feature": "x"}, "feature"),
])  # fmt: skip
def test_typical_mix_invalid(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tp.typical_mix_rate(2, **kwargs)


# --- ESCON distance ---------------------------------------------------------------------


def test_sec_8_2_distance_rule():
    # Sec. 8.2: write -0.6 % and read -2.3 % per km.
    assert float(tp.escon_distance_factor(10)) == pytest.approx(1 - 0.06)
    assert float(tp.escon_distance_factor(10, direction="read")) == pytest.approx(1 - 0.23)
    assert float(tp.escon_distance_factor(0)) == 1.0


@settings(max_examples=100, deadline=None)
@given(km=st.floats(0, 25), direction=st.sampled_from(["write", "read"]))
def test_distance_factor_in_unit_interval(km, direction):
    f = float(tp.escon_distance_factor(km, direction=direction))
    assert 0 < f <= 1


def test_distance_beyond_rule():
    with pytest.warns(ExtrapolationWarning, match="25"):
        tp.escon_distance_factor(30)
    with pytest.raises(ValueError, match="km"):
        tp.escon_distance_factor(-1)
    with pytest.raises(ValueError, match="km"):
        tp.escon_distance_factor(50, direction="read")  # 1 - 0.023 * 50 < 0


# --- SCSI -------------------------------------------------------------------------------


def test_sec_6_scsi_statements():
    # "from near one MB/s with 4 KB blocking to about 23 MB/s with 256 KB blocks (at
    # compressibility of 2.7 and above)"
    assert float(tp.scsi_rate(4, 2.7)) == pytest.approx(fact("scsi_write_4kb"), rel=0.01)
    for cf in (2.7, 4.0):
        assert float(tp.scsi_rate(256, cf)) == pytest.approx(fact("scsi_write_256kb"), rel=0.02)
    # "For block sizes of 64 KB and below there is little effect of compressibility"
    for b in (4, 16, 32, 64):
        assert tp.scsi_rate(b, 1.0) / tp.scsi_rate(b, 4.0) > 0.95
    # "At the larger block sizes, throughput improves with data compressibility"
    assert tp.scsi_rate(256, 1.0) < 0.7 * tp.scsi_rate(256, 2.7)
    # Two cards at 256 KB, CF 4: "about 47 MB/s"
    assert float(tp.scsi_rate(256, 4.0, adapters=2)) == pytest.approx(fact("scsi_alone_max"), rel=0.03)
    # Reads "somewhat lower (up to twenty percent) for the larger block sizes"
    ratio = tp.scsi_rate(256, 4.0, direction="read") / tp.scsi_rate(256, 4.0)
    assert 0.8 - 1e-9 <= ratio < 1
    assert tp.scsi_rate(32, 1.0, direction="read") == tp.scsi_rate(32, 4.0, direction="read")


def test_scsi_invalid():
    with pytest.raises(ValueError, match="adapters"):
        tp.scsi_rate(64, adapters=3)
    with pytest.raises(ValueError, match="direction"):
        tp.scsi_rate(64, direction="both")


def test_public_names():
    for name in (
        "read_rate",
        "typical_mix_rate",
        "escon_distance_factor",
    ):
        assert getattr(vtsmodel, name) is getattr(tp, name)
    assert tp.EQ3_CF_RANGE == (fact("eq3_cf_min"), fact("eq3_cf_max"))
    assert tp.EQ3_HOST_MBS_MAX == fact("eq3_host_mbs_max")
    assert tp.TVC_RANGE == (72.0, 1728.0)


# --- bad input, names and shapes -------------------------------------------------------------------
def test_the_distance_is_named_as_the_caller_spells_it():
    # Before: write_rate(3, escon_km=-1) said "km=-1 ...", a parameter of another function.
    from vtsmodel.bottleneck import write_capacities

    for call in (
        lambda: tp.write_rate(3, escon_km=-1.0),
        lambda: tp.read_rate(2, escon_km=-1.0),
        lambda: tp.typical_mix_rate(2, escon_km=-1.0),
        lambda: write_capacities(2, escon_km=-1.0),
    ):
        with pytest.raises(ValueError, match=r"^escon_km=-1.0 is outside the valid range \[0, 1000\]"):
            call()
    with pytest.raises(ValueError, match=r"^escon_km=50 leaves no read throughput"):
        tp.read_rate(2, escon_km=50.0)
    with pytest.raises(ValueError, match=r"^km=50 leaves no read throughput"):
        tp.escon_distance_factor(50.0, direction="read")


def test_soft_min_refuses_rates_that_are_not_positive():
    # Before: soft_min(0, 5) returned nan, and soft_min(-1, 5) a negative number.
    from vtsmodel.throughput import soft_min

    for a in (0.0, -1.0):
        with pytest.raises(ValueError, match=rf"^a={a!r} is outside the valid range \[1e-09, 1e\+09\]"):
            soft_min(a, 5.0)
    assert 0 < soft_min(4.0, 5.0) < 4.0


@pytest.mark.parametrize("shape", [(2, 3), (3, 1)])
def test_the_bottleneck_view_broadcasts_2d_like_the_rest(shape):
    # Before: binding_resource and bottleneck_rate raised "all input arrays must have the
    # same shape" when block_kb or escon_km had a shape cf and tvc_gb did not.
    from vtsmodel.bottleneck import binding_resource, bottleneck_rate, write_capacities

    km = np.linspace(0.0, 5.0, int(np.prod(shape))).reshape(shape)
    names = binding_resource(2.5, escon_km=km)
    rates = bottleneck_rate(2.5, escon_km=km, block_kb=48.0)
    assert names.shape == shape and rates.shape == shape
    caps = write_capacities(np.full(shape[-1], 2.5), escon_km=km)
    assert all(np.shape(v) == shape for v in caps.values())


def test_write_capacities_warns_where_write_rate_does():
    # Before: write_rate(10) warned (CF beyond 4, Appendix B); write_capacities(10) did not.
    from vtsmodel.bottleneck import binding_resource, write_capacities

    for f in (tp.write_rate, write_capacities, binding_resource):
        with pytest.warns(ExtrapolationWarning, match=r"cf=10 is outside the range the source validated"):
            f(10.0)
