"""Tests of vtsmodel.sizing: drive count for data flows (cern-tape-sizing-2005, Summary)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtsmodel import data
from vtsmodel.drives import drive_efficiency
from vtsmodel.sizing import Flow, cern_example_drive_speed, cern_example_flows, drives_needed, sizing_table

ex = data.load("cern_sizing_example")


def test_worked_example_gives_50_drives_cern_summary_sample_calculation():
    # "Number of needed tape drives = 50 = (100 MB/s * 2 (backlog) / 0.5 (efficiency) / 40 MB/s)
    # + (150 ... ) + (50 MB/s * 2 (peaks) / 0.1 (efficiency) / 40 MB/s)": exact, no gap.
    s = drives_needed(cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    assert s.total == pytest.approx(ex.value("drives_needed_total"))
    assert s.whole_drives == ex.value("drives_needed_total")
    for key, d in zip(("t0_to_t1", "reprocessing", "t2_analysis"), s.drives, strict=True):
        assert d == pytest.approx(ex.value(f"{key}_drives"))  # derived rows 10, 15, 25
    assert s.shares.sum() == pytest.approx(1.0)


def test_sizing_table_rows_and_total():
    rows = sizing_table(cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    assert len(rows) == 4 and rows[-1]["flow"] == "total"
    assert rows[-1]["drives [-]"] == pytest.approx(ex.value("drives_needed_total"))
    assert sum(r["drives [-]"] for r in rows[:-1]) == pytest.approx(rows[-1]["drives [-]"])
    assert [r["share [-]"] for r in rows[:-1]] == pytest.approx([0.2, 0.3, 0.5])  # 10/50, 15/50, 25/50


def test_flows_as_mappings():
    s = drives_needed([{"rate_mb_s": 100, "peak_factor": 2, "efficiency": 0.5}], drive_speed_mb_s=40)
    assert s.total == pytest.approx(10)
    assert s.names == ("flow 1",)


def test_efficiency_from_access_pattern_depends_on_drive_speed():
    f = Flow("migration", 100, 2, file_mb=1000, files_per_mount=100)
    s = drives_needed([f], drive_speed_mb_s=40)
    assert s.efficiencies[0] == pytest.approx(drive_efficiency(1000, 100, speed_mb_s=40))
    assert s.total == pytest.approx(100 * 2 / s.efficiencies[0] / 40)
    # a faster drive loses a larger fraction to the same mount and file overheads
    assert drives_needed([f], drive_speed_mb_s=80).efficiencies[0] < s.efficiencies[0]


@pytest.mark.parametrize(
    "kw, name",
    [
        (dict(name="a", rate_mb_s=-1, efficiency=0.5), "rate_mb_s"),
        (dict(name="a", rate_mb_s=1, peak_factor=0.5, efficiency=0.5), "peak_factor"),
        (dict(name="a", rate_mb_s=1, efficiency=0), "efficiency"),
        (dict(name="a", rate_mb_s=1, efficiency=1.5), "efficiency"),
        (dict(name="a", rate_mb_s=1), "access pattern"),
        (dict(name="a", rate_mb_s=1, file_mb=0, files_per_mount=1), "file_mb"),
    ],
)
def test_bad_flow_raises(kw, name):
    with pytest.raises(ValueError, match=name):
        Flow(**kw)


def test_bad_sizing_input_raises():
    with pytest.raises(ValueError, match="drive_speed_mb_s"):
        drives_needed(cern_example_flows(), drive_speed_mb_s=0)
    with pytest.raises(ValueError, match="empty"):
        drives_needed([], drive_speed_mb_s=40)
    with pytest.raises(ValueError, match="flows"):
        drives_needed([3], drive_speed_mb_s=40)


pos = st.floats(0.01, 1000)


@given(
    r=pos, dr=pos, k=st.floats(1, 5), dk=st.floats(0, 5), e=st.floats(0.01, 1), s=st.floats(1, 400), ds=pos
)
@settings(max_examples=200, deadline=None)
def test_monotonic_in_every_input(r, dr, k, dk, e, s, ds):
    base = [Flow("x", r, k, e), *cern_example_flows()]

    def total(flows, speed=s):
        return drives_needed(flows, drive_speed_mb_s=speed).total

    t = total(base)
    assert total([Flow("x", r + dr, k, e), *base[1:]]) >= t
    assert total([Flow("x", r, k + dk, e), *base[1:]]) >= t
    assert total([Flow("x", r, k, min(1.0, e * 1.5)), *base[1:]]) <= t
    assert total(base, s + ds) <= t


@pytest.mark.parametrize(
    ("flows", "kw", "match"),
    [
        # Before: rates near the float limit gave nan shares, and sizing_table then failed
        # converting nan; now the rate has a practical limit and an overflow is named.
        (
            lambda: [Flow("big", 1e300, 1.0, 0.5)],
            {},
            r"big: rate_mb_s=1e\+300 is outside the valid range \[0, 1e\+09\]",
        ),
        (
            lambda: [Flow("chaotic", 1e9, 1e6, 1e-300)],
            {},
            r"chaotic: efficiency=1e-300 is outside the valid range \[1e-09, 1\]",
        ),
        (None, {}, "flows=None must be a list of flows"),
        ([{"rate_mb_s": 10, "efficency": 0.5}], {}, r"unknown field\(s\) 'efficency'"),
        ([Flow("a", 10, 1, 0.5)], {"t_mount": 120}, r"unknown argument\(s\) 't_mount'"),
        ([Flow("a", 10, 1, 0.5)], {"drive_speed_mb_s": "40"}, r"drive_speed_mb_s='40' is text"),
    ],
)
def test_sizing_bad_input_is_a_clear_value_error(flows, kw, match):
    kw = {"drive_speed_mb_s": 40.0, **kw}
    with pytest.raises(ValueError, match=match):
        sizing_table(flows() if callable(flows) else flows, **kw)
