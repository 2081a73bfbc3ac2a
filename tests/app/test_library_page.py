"""Lesson 10 without a browser: set the panel's inputs, compare plots and readouts with the models."""

import math
import re

import pytest

from vtsmodel.app.figures.axes import nice_ceiling, values_alone_changed, year_range
from vtsmodel.app.figures.library import capacity_plot
from vtsmodel.app.lessons import LESSONS, lesson_module
from vtsmodel.app.lessons import library as L
from vtsmodel.app.lessons.start import LESSON_LIST
from vtsmodel.archive import archive_years, cartridge_tb
from vtsmodel.library import library_model
from vtsmodel.library_years import cern_example_writes_tb_per_year, library_years
from vtsmodel.sizing import cern_example_flows


def _model(growth=0.0, library="SL8500", drive="LTO9", years=5, copies=1, compression=1.0, move=22.5):
    a = archive_years(years, stored_now_tb=0.0, growth_tb_per_year=cern_example_writes_tb_per_year(),
                      ingest_growth=growth, copies=copies, cartridge_tb=float(cartridge_tb(drive, compression=compression)))  # fmt: skip
    return library_years(
        a, cern_example_flows(), drive=drive, library=library_model(library), robot_move_s=move
    )


def test_registered_with_its_contract_and_on_the_start_page():
    assert LESSONS["10"] == "library" and lesson_module("10") is L
    assert L.LESSON_ID == "10" and L.NOTEBOOK == "10_library_over_the_years.ipynb"
    assert any(nb == L.NOTEBOOK for nb, _q in LESSON_LIST)
    assert set(L.SCENARIO) <= set(L.INPUTS)


def test_capacity_plot_and_readouts_are_the_models_numbers():
    p = L.library_panel()
    p.set(ingest_growth=0.3)
    r = _model(0.3)
    fig = p.figure("capacity")
    bars = fig["data"][0]
    assert list(bars["y"]) == [float(c) for c in r.archive.cartridges_onsite]
    # one dashed line per configuration, at its usable slots: SL8500 1,448 and 3,176 less a free cell per drive
    lines = [t for t in fig["data"][1:]]
    drives = float(max(r.drives))
    assert [t["y"][0] for t in lines] == [1448 - drives, 3176 - drives][: len(lines)]
    # the cartridge axis in steps over every bar and line (axes.nice_ceiling): a move of the bars keeps it
    lo, hi = fig["layout"]["yaxis"]["range"]
    top = max(max(t["y"]) for t in fig["data"])
    assert lo == 0 and 1.08 * top <= hi <= 1.08 * top * 4 / 3  # 8 % above the tallest, filled at least 3/4
    assert nice_ceiling(hi) == hi  # a step: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten
    ro = p.readout_values
    assert ro["robots"].startswith(
        f"{r.robots[0]}," if r.robots[0] == r.robots[-1] else f"{r.robots[0]} → {r.robots[-1]},"
    )
    assert str(int(max(r.drives))) in ro["drives"]
    assert ro["cartridges, year 0 to last"] == " · ".join(str(int(c)) for c in r.archive.cartridges_onsite)


def test_shares_plot_names_what_binds():
    p = L.library_panel()
    p.set(ingest_growth=0.3)
    r = _model(0.3)
    shares = {t["name"]: t["y"] for t in p.figure("shares")["data"]}
    # in year 5's configuration the robots are fuller than the slots: robots bind (the binding sentence says so)
    assert shares["robot mounts per hour"][-1] > shares["cartridge slots"][-1]
    assert r.binding[-1] == "robot mounts per hour"
    assert "robot mounts per hour bind" in L.LIBRARY.show({"ingest_growth": 0.3}).binding
    cap = r.robots * 3600 / (2 * 22.5)  # each year's robots
    assert shares["robot mounts per hour"] == pytest.approx(
        [m / c for m, c in zip(r.mounts_per_hour, cap, strict=True)]
    )


def test_a_library_too_small_and_the_stand_in_note():
    p = L.library_panel()
    p.set(library="TS4300")
    assert p.readout_values["one module fills"] == "too small from the start"
    v = L.LIBRARY.show({"library": "TS4300"})
    assert "too small" in v.binding
    assert any("stands in" in n for n in v.notes)


def test_scenario_outputs_match_the_model():
    out = L.scenario_outputs(ingest_growth=0.3)
    r = _model(0.3)
    assert out["drives [-]"] == max(r.drives) and out["frames or modules [-]"] == r.final_units
    assert out["cartridges, last year [-]"] == r.archive.cartridges_onsite[-1]
    none = L.scenario_outputs()
    assert math.isnan(none["one unit fills in year [-]"])  # no growth: one basic SL8500 holds five years


@pytest.mark.parametrize(("library", "drive"), [("SL8500", "LTO9"), ("TS4300", "LTO8")])
def test_captions_cite_the_rows_used_not_every_table_source(library, drive):
    # a caption about one library and one drive cites their documents and CERN's flows, not the ~50
    # sources of the whole library and drive tables
    from vtsmodel.catalog import drive_spec

    p = L.library_panel(library=library, drive=drive)
    want = {"cern-tape-sizing-2005", *library_model(library).sources, *drive_spec(drive).primary_sources}
    for figure in ("capacity", "shares"):
        cited = set(re.findall(r"^\[([^\]]+)\]", p.caption(figure), flags=re.M))
        assert cited == want, (figure, cited ^ want)
    assert len(want) < 15


def test_year_axes_end_in_bands_so_a_years_move_within_one_redraws_the_traces_alone():
    """axes.year_range: the year axis ends at the first multiple of five years at or past the last year.

    Within a band a years move changes the figures' traces alone (the page's transition path); the
    bars and slot lines still end at the last year planned; a report draws the years planned exactly.
    """
    p = L.library_panel()
    figs = {}
    for years in (5, 6, 7, 10):
        p.set(years=years)
        figs[years] = {k: p.figure(k) for k in ("capacity", "shares")}
        cap = figs[years]["capacity"]
        assert cap["layout"]["xaxis"]["range"] == ([-0.6, 5.6] if years == 5 else [-0.6, 10.6])
        assert cap["data"][0]["x"] == list(range(years + 1))  # a bar per year planned, no more
        assert all(t["x"] == [-0.5, years + 0.5] for t in cap["data"][1:])  # slot lines to the last year
    for k in ("capacity", "shares"):
        assert values_alone_changed(figs[6][k], figs[7][k])
        assert not values_alone_changed(figs[5][k], figs[6][k])  # a new band: drawn in full
    assert capacity_plot(_model(years=7), band=1).spec()["layout"]["xaxis"]["range"] == [-0.6, 7.6]


@pytest.mark.parametrize("band", [0, -5, 2.5, True])
def test_year_range_rejects_a_band_that_is_not_a_whole_number_of_years(band):
    with pytest.raises(ValueError, match="band="):
        year_range(0, 5, band)
