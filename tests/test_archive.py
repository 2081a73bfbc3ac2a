"""Tests of vtsmodel.archive: capacity over time, the year of fill-up, migration, cost.

Every expected number is worked by hand in the test from the inputs it states.
"""

import math

import numpy as np
import pytest

from vtsmodel.archive import (
    CompressionWarning,
    archive_years,
    cartridge_tb,
    cost_by_year,
    fill_year,
    migration,
)
from vtsmodel.catalog import drive_spec
from vtsmodel.library import library_model, units_needed


def test_cartridge_capacity_from_the_catalog():
    # LTO-9: 18 TB native (ibm-ts4500-drives); 1:1 compression, full: 18 TB
    assert float(cartridge_tb("LTO9")) == pytest.approx(18.0)
    # at 1.5:1 expected and 90 % fill: 18 x 1.5 x 0.9 = 24.3 TB
    assert float(cartridge_tb("LTO-9", compression=1.5, fill=0.9)) == pytest.approx(24.3)


def test_compression_below_one_is_allowed_with_a_warning():
    with pytest.warns(CompressionWarning, match="below 1"):
        assert float(cartridge_tb("LTO9", compression=0.9)) == pytest.approx(16.2)


def test_cartridges_per_year_for_a_stated_growth():
    # 1,000 TB now, 3,000 TB written a year, 2 copies (one off site), 18 TB cartridges:
    # stored 1,000, 4,000, 7,000, 10,000; cartridges ceil(stored x 2 / 18):
    # 112 (111.1), 445 (444.4), 778 (777.8), 1,112 (1,111.1); in the library half of the copies:
    # ceil(stored / 18) = 56, 223, 389, 556; bought: 112, 333, 333, 334
    a = archive_years(
        3, stored_now_tb=1000, growth_tb_per_year=3000, copies=2, offsite_copies=1, cartridge_tb=18
    )
    assert list(a.stored_tb) == [1000, 4000, 7000, 10000]
    assert list(a.cartridges) == [112, 445, 778, 1112]
    assert list(a.cartridges_onsite) == [56, 223, 389, 556]
    assert list(a.cartridges_bought) == [112, 333, 333, 334]
    assert list(a.tape_tb) == [2000, 8000, 14000, 20000]


def test_growth_as_a_share_compounds():
    # 100 TB growing 50 % a year: 150, 225, 337.5; at 10 TB a cartridge: 15, 23, 34
    a = archive_years(3, stored_now_tb=100, growth_rate=0.5, cartridge_tb=10)
    assert list(a.stored_tb) == pytest.approx([100, 150, 225, 337.5])
    assert list(a.written_tb) == pytest.approx([0, 50, 75, 112.5])
    assert list(a.cartridges) == [10, 15, 23, 34]


def test_retention_deletes_and_reclaimed_cartridges_are_reused():
    # 300 TB now, kept 3 years: taken as written evenly over the last 3 years, 100 TB
    # expires in each of years 1-3; 60 TB a year is written and kept 3 years, so year 4
    # deletes year 1's 60 TB.
    # stored: 300; 300 + 60 - 100 = 260; 220; 180; 180 + 60 - 60 = 180
    a = archive_years(4, stored_now_tb=300, growth_tb_per_year=60, retention_years=3, cartridge_tb=10)
    assert list(a.deleted_tb) == pytest.approx([0, 100, 100, 100, 60])
    assert list(a.stored_tb) == pytest.approx([300, 260, 220, 180, 180])
    # cartridges 30, 26, 22, 18, 18: none bought after year 0 (freed ones are reused)
    assert list(a.cartridges) == [30, 26, 22, 18, 18]
    assert list(a.cartridges_bought) == [30, 0, 0, 0, 0]


def test_reclamation_reserve_adds_cartridges():
    # 1,000 TB at 18 TB a cartridge with a 10 % reserve: ceil(1000 x 1.1 / 18) = ceil(61.1) = 62
    a = archive_years(1, stored_now_tb=1000, cartridge_tb=18, reclaim_reserve=0.1)
    assert a.cartridges[0] == 62


def test_year_of_fill_up_for_each_configuration():
    # TS4300, 40 slots a module, 7 modules at most; 1 drive; 10 TB cartridges,
    # 200 TB now + 100 TB a year: in the library 20, 30, 40, 50, 60, 70 cartridges (years 0-5)
    a = archive_years(5, stored_now_tb=200, growth_tb_per_year=100, cartridge_tb=10)
    m = library_model("TS4300")
    assert list(a.cartridges_onsite) == [20, 30, 40, 50, 60, 70]
    # one module (40 slots) is full in year 3 (50 > 40); two (80) hold all five years
    assert fill_year(a.cartridges_onsite, float(m.usable_slots(1, 1))) == 3
    assert fill_year(a.cartridges_onsite, float(m.usable_slots(2, 1))) is None
    # modules needed per year: ceil(cartridges / 40) = 1, 1, 1, 2, 2, 2
    assert list(np.asarray(units_needed(m, a.cartridges_onsite, 1))) == [1, 1, 1, 2, 2, 2]


def test_migration_drive_months_by_hand():
    # 1,000 TB from LTO-8 (360 MB/s native) to LTO-9 (400 MB/s), one copy, efficiency 0.5,
    # 24 h a day, 12 months. A drive-month = 24 x 365.25 / 12 x 3600 = 2,629,800 s.
    # read: 1e9 MB / (360 x 0.5) = 5,555,555.6 s = 2.1125 drive-months
    # write: 1e9 MB / (400 x 0.5) = 5,000,000 s = 1.9013 drive-months
    old, new = drive_spec("LTO8"), drive_spec("LTO9")
    m = migration(1000, window_months=12, old_speed_mb_s=old.native_rate_mb_s, new_speed_mb_s=new.native_rate_mb_s,
                  old_cartridge_tb=12, new_cartridge_tb=18, efficiency=0.5)  # fmt: skip
    assert m.read_drive_months == pytest.approx(5_555_555.56 / 2_629_800, rel=1e-6)
    assert m.write_drive_months == pytest.approx(5_000_000 / 2_629_800, rel=1e-6)
    # in 12 months one drive of each does it; in 1 month, 3 old and 2 new
    assert (m.read_drives, m.write_drives) == (1, 1)
    m1 = migration(1000, window_months=1, old_speed_mb_s=360, new_speed_mb_s=400, old_cartridge_tb=12,
                   new_cartridge_tb=18, efficiency=0.5)  # fmt: skip
    assert (m1.read_drives, m1.write_drives) == (3, 2)
    # mounts: 1000/12 + 1000/18 = 138.9 cartridges over 12 x 730.5 h = 8,766 h -> 0.01584 per hour
    assert m.mounts_per_hour == pytest.approx((1000 / 12 + 1000 / 18) / 8766.0)


def test_migration_efficiency_defaults_to_cerns_organised_flows():
    # cern_facts efficiency_organised: "~ 50 %"
    a = migration(100, old_speed_mb_s=300, new_speed_mb_s=400, old_cartridge_tb=6, new_cartridge_tb=18)
    b = migration(100, old_speed_mb_s=300, new_speed_mb_s=400, old_cartridge_tb=6, new_cartridge_tb=18,
                  efficiency=0.5)  # fmt: skip
    assert a == b


def test_cost_only_from_the_users_prices():
    stored = [100.0, 200.0, 300.0]
    bought = {"cartridge": [10, 5, 5], "drive": [4, 0, 1]}
    assert cost_by_year(bought, {}, stored) is None
    assert cost_by_year(bought, {"drive": None}, stored) is None
    # cartridges at 100, drives at 5,000, support 1,000 a year from year 1:
    # year 0: 1,000 + 20,000 = 21,000; year 1: 500 + 1,000 = 1,500; year 2: 500 + 5,000 + 1,000 = 6,500
    c = cost_by_year(bought, {"cartridge": 100, "drive": 5000, "support_per_year": 1000}, stored)
    assert list(c["per_year"]) == [21000, 1500, 6500]
    assert list(c["cumulative"]) == [21000, 22500, 29000]
    assert list(c["per_tb"]) == pytest.approx([210, 112.5, 29000 / 300])
    # an item priced but not bought is left out; an item bought but not priced costs nothing shown
    c = cost_by_year(bought, {"frame": 9999, "cartridge": 1}, stored)
    assert c["items"] == ("cartridge",) and list(c["per_year"]) == [10, 5, 5]


def test_stored_zero_has_no_cost_per_tb():
    c = cost_by_year({"cartridge": [1]}, {"cartridge": 5}, [0.0])
    assert math.isnan(c["per_tb"][0])


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: archive_years(0, stored_now_tb=1, cartridge_tb=1), "years"),
        (lambda: archive_years(3, stored_now_tb=-1, cartridge_tb=1), "stored_now_tb"),
        (
            lambda: archive_years(3, stored_now_tb=1, cartridge_tb=1, copies=2, offsite_copies=2),
            "offsite_copies",
        ),
        (lambda: archive_years(100, stored_now_tb=1e6, growth_rate=10, cartridge_tb=1), "outgrows"),
        (lambda: cartridge_tb("LTO9", compression=0), "compression"),
        (lambda: cartridge_tb("LTO9", fill=1.5), "fill"),
        (
            lambda: migration(
                1, old_speed_mb_s=1, new_speed_mb_s=1, old_cartridge_tb=1, new_cartridge_tb=1, window_months=0
            ),
            "window_months",
        ),
        (lambda: cost_by_year({"cartridge": [1]}, {"tape": 3}, [1.0]), "unknown price"),
        (lambda: cost_by_year({"cartridge": [1, 2]}, {"cartridge": 3}, [1.0]), "years"),
        (lambda: cost_by_year(None, {}, [1.0]), "must be dicts"),
        (lambda: fill_year([], 3), "needed"),
    ],
)
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()
