"""Tests of vtsmodel.library_years: the library year by year, worked by hand."""

import math

import numpy as np
import pytest

from vtsmodel._validation import ConstraintError
from vtsmodel.archive import archive_years
from vtsmodel.library import library_model
from vtsmodel.library_years import cern_example_writes_tb_per_year, library_years
from vtsmodel.sizing import Flow, cern_example_flows


def _small():
    # 100 TB written in year 1, doubling each year, 10 TB cartridges:
    # written 0, 100, 200, 400; stored 0, 100, 300, 700; cartridges 0, 10, 30, 70
    return archive_years(3, stored_now_tb=0, growth_tb_per_year=100, ingest_growth=1.0, cartridge_tb=10)


def test_a_small_library_by_hand():
    a = _small()
    assert list(a.cartridges_onsite) == [0, 10, 30, 70]
    r = library_years(a, [Flow("writes", 40.0, 1.0, 0.5)], drive="LTO9", library=library_model("TS4300"))
    # flows grow with the writes: 1, 1, 2, 4
    assert list(r.flow_factor) == [1, 1, 2, 4]
    # drives: 40 x k / 0.5 / 400 MB/s (LTO-9 native) = 0.2, 0.2, 0.4, 0.8 -> 1 each
    assert list(r.drives_fractional) == pytest.approx([0.2, 0.2, 0.4, 0.8])
    assert list(r.drives) == [1, 1, 1, 1]
    # no document gives the TS4300's robot: CERN's 22.5 s a move stands in;
    # tMount = 22.5 + LTO-9 load 17 + locate 45 + rewind 55 + unload 30 = 169.5 s
    assert r.robot_move_basis == "stand-in" and r.t_mount_s == pytest.approx(169.5)
    # mounts: 40 k / (0.5 x 400) x 3600 x 0.5 / 169.5 = 2.1239 k per hour
    assert list(r.mounts_per_hour) == pytest.approx([2.1239 * k for k in (1, 1, 2, 4)], rel=1e-4)
    # modules of 40 slots and 1 bay: 1, 1, 1, 2; one module is full in year 3
    assert list(r.units) == [1, 1, 1, 2]
    assert r.fill_years == {1: 3, 2: None}
    # one robot: 80 mounts an hour (3600 / 45 s), far from busy
    assert list(r.robots) == [1, 1, 1, 1] and list(r.robots_needed) == [1, 1, 1, 1]
    assert r.robot_utilisation[3] == pytest.approx(4 * 2.1239 / 80, rel=1e-4)


def test_the_cern_example_over_five_years():
    # 100 MB/s all year: 3,155.76 TB a year
    assert cern_example_writes_tb_per_year() == pytest.approx(3155.76)
    a = archive_years(
        5, stored_now_tb=0, growth_tb_per_year=cern_example_writes_tb_per_year(), cartridge_tb=18
    )
    r = library_years(a, cern_example_flows(), drive="LTO9", library=library_model("SL8500"))
    # the note's 50 drives at 40 MB/s are 50 x 40 / 400 = 5 drives of LTO-9
    assert list(r.drives) == [5] * 6
    # five years of 3,155.76 TB on 18 TB cartridges: ceil(15,778.8 / 18) = 877, one basic SL8500
    assert r.archive.cartridges_onsite[-1] == 877 and r.final_units == 1
    assert r.binding[-1] == "cartridge slots"


def test_robots_saturated_wait_forever_and_too_small_a_library_says_so():
    a = _small()
    r = library_years(a, [Flow("writes", 4000.0, 1.0, 0.1)], drive="LTO9", library=library_model("TS4300"),
                      robots=1)  # fmt: skip
    assert r.robot_utilisation[0] > 1 and math.isinf(r.robot_wait_p95_s[0])
    assert r.robots_needed[0] > 1
    assert np.isinf(r.units).any() and r.binding[-1] == "more than one IBM TS4300"


def test_a_drive_the_library_does_not_take():
    with pytest.raises(ConstraintError, match="takes LTO"):
        library_years(_small(), cern_example_flows(), drive="TS1160", library=library_model("TS4300"))
