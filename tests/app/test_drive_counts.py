"""Lesson 05's drives needed (vtsmodel.app.lessons.drive_counts) without a browser: the figures and the numbers.

The worked example is cern-tape-sizing-2005, Summary, sample calculation (see test_sizing.py).
"""

from __future__ import annotations

import math

import plotly.graph_objects as go
import pytest

from vtsmodel import cite
from vtsmodel.app.figures import axes, figure_json
from vtsmodel.app.lessons import drive_counts
from vtsmodel.app.lessons import sizing as L
from vtsmodel.app.text import number
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.sizing import cern_example_flows

from .test_sizing import EXAMPLE, sized


def test_key_numbers_are_labelled_with_units():
    text = drive_counts.key_numbers()
    assert text.splitlines()[0] == "worked example at 40 MB/s: 50 drives needed, buy 50"
    assert "  T2, analysis: 50 MB/s × 2 / 0.1 (efficiency) / 40 MB/s = 25 drives (50 %)" in text
    lto9 = sized(cern_example_flows(), "LTO9")
    assert f"LTO-9 (Ultrium 9), 400 MB/s: {lto9.total:g} drives needed, buy {lto9.whole_drives}" in text
    assert "e+" not in text and "e-" not in text


def test_drive_choice_offers_the_catalog_by_family_and_generation():
    wb = L.sizing_panel()
    assert list(wb.panel.controls["drive"].options) == drive_options()
    labels = [label for label, _k in drive_options()]
    assert labels.index("LTO-1 (Ultrium 1)") < labels.index("LTO-10 (Ultrium 10)")
    compare = wb.panel.figure("compare")
    assert compare["data"][0]["y"] == [
        f"{lab}, {number(drive_spec(k).speed_mb_s)} MB/s" for lab, k in drive_options()
    ]


def test_drive_choice_moves_only_the_band_of_the_comparison():
    wb = L.sizing_panel()
    pane = wb.panel.plots["compare"]
    base = pane._base
    wb.panel.set(drive="LTO9")
    assert pane._base is base  # the comparison's dots stay; only the chosen drive's band moved
    s = sized(cern_example_flows(), "LTO9")
    assert wb.panel.readout_values[EXAMPLE] == f"{s.total:g} needed, buy {s.whole_drives}"
    assert wb.panel.readout_values["drive speed"] == "400 MB/s (spec)"
    band = wb.panel.figure("compare")["layout"]["shapes"][-1]
    row = [k for _label, k in drive_options()].index("LTO9")
    assert (band["y0"], band["y1"]) == (row - 0.5, row + 0.5) and band["name"] == "chosen drive"
    assert wb.panel.figure("compare")["layout"]["annotations"][-1]["y"] == row
    assert wb.panel.figure("split")["data"][0]["x"] == pytest.approx(list(s.drives))


def test_comparison_is_a_dot_plot_on_a_log_axis_not_stacked_bars():
    compare = L.sizing_panel().panel.figure("compare")
    assert {t["type"] for t in compare["data"]} == {"scatter"}
    assert "barmode" not in compare["layout"] and compare["layout"]["xaxis"]["type"] == "log"
    totals = [sized(cern_example_flows(), k).total for _label, k in drive_options()]
    assert compare["data"][0]["x"] == pytest.approx(totals)
    lo, hi = compare["layout"]["xaxis"]["range"]
    assert 10**lo < min(totals) and 10**hi > max(totals)  # every dot inside the fixed axis
    # legends at the top, never over an export's caption
    assert compare["layout"]["showlegend"] is True and compare["layout"]["legend"]["yanchor"] == "bottom"
    assert compare["layout"]["legend"]["y"] >= 1.0


def test_an_edit_of_a_rate_moves_the_values_under_axes_that_stay_put():
    # The page redraws an edit that changes only the traces' values, labels and names by plotly.js's
    # transition path (about half a full redraw); a figure asks for it (in_place) only with fixed axes.
    wb = L.sizing_panel()
    before = {k: wb.panel.figure(k) for k in ("split", "compare")}
    assert wb.edit(0, "rate_mb_s", wb.table[0][1].rate_mb_s * 1.01)
    after = {k: wb.panel.figure(k) for k in ("split", "compare")}
    for k, fig in after.items():
        assert fig["layout"]["transition"] == axes.in_place()
        assert fig["data"][0]["x"] != before[k]["data"][0]["x"]  # the values moved
        assert axes.values_alone_changed(before[k], fig), k  # nothing else did, the axes included
    assert after["split"]["data"][0]["name"] != before["split"]["data"][0]["name"]  # the total in the legend
    # the ranges hold every value with the room its label takes
    top = after["split"]["layout"]["xaxis"]["range"][1]
    assert max(after["split"]["data"][0]["x"]) * 1.08 <= top == axes.nice_ceiling(top)
    lo, hi = after["compare"]["layout"]["xaxis"]["range"]
    dots = [v for t in after["compare"]["data"] for v in t["x"] if v]
    assert lo <= math.log10(min(dots)) - 0.15 and hi >= math.log10(max(dots)) + 0.3


def test_split_labels_the_flows_and_names_each_scenarios_total_above_the_plot():
    # The axis had a scenario level, "worked example: 50, buy 50", a third of the figure's width
    # (and an export's caption started right of it): the scenarios are now a legend row each above
    # the plot, the axis the flows' names alone; the export's caption starts at the plot's left edge.
    from vtsmodel.app.export import _category_margin, export_spec

    wb = L.sizing_panel()
    wb.copy_scenario("T2 at 0.05")
    assert wb.edit(5, "efficiency", "0.05")
    split = wb.panel.figure("split")
    totals = drive_counts.evaluate_sizing(wb.table).sized
    assert [t["name"] for t in split["data"]] == [f"{sc}: {s.total:g} drives, buy {s.whole_drives}"
                                                  for sc, s in totals.items()]  # fmt: skip
    names = [f.name for f in cern_example_flows()]
    axis = split["layout"]["yaxis"]
    assert axis["ticktext"] == names * 2 and axis["tickvals"] == list(range(6))
    assert [t["y"] for t in split["data"]] == [[0, 1, 2], [3, 4, 5]]  # numbers: a flow's name may repeat
    legend = split["layout"]["legend"]
    assert (
        split["layout"]["showlegend"] is True
        and legend["orientation"] == "v"
        and legend["yanchor"] == "bottom"
    )
    assert split["layout"]["margin"]["t"] >= 56 + 24 * 2  # a row per scenario between title and plot
    spec = export_spec(split, "caption", style=None)
    longest = max(len(n) for n in names)
    assert (
        _category_margin(spec["data"], spec["layout"]) < (longest + 4) * 0.6 * 14 + 28
    )  # the names' room only
    assert spec["layout"]["margin"]["l"] == _category_margin(spec["data"], spec["layout"])


def test_caption_names_the_efficiencies_and_cites_the_drives_own_sources():
    wb = L.sizing_panel()
    caption = " ".join(wb.panel.caption().split())
    for f in cern_example_flows():
        assert (
            f"{f.name} = {f.rate_mb_s:g} MB/s × {f.peak_factor:g} / {f.efficiency:g} (efficiency)" in caption
        )
    assert cite(*drive_spec(L.DEFAULT_DRIVE).primary_sources).splitlines()[0].split("]")[0] in caption
    assert "[ibm-ts4500-drives]" not in caption  # a source of other drives only, not the 3592A's
    wb.panel.set(drive="LTO9")
    assert "[ibm-ts4500-drives]" in wb.panel.caption()


def test_numbers_read_plainly():
    wb = L.sizing_panel()
    wb.panel.set(drive="STK3480")  # 1.28 MB/s: over a thousand drives
    text = " ".join([*wb.panel.readout_values.values(), wb.panel.view.binding, wb.panel.caption()])
    assert "e+" not in text and "1,5" in wb.panel.readout_values[EXAMPLE]
    texts = [x for t in wb.panel.figure("compare")["data"] for x in t.get("text", [])]
    assert texts and not any("e+" in x for x in texts)


def test_over_a_thousand_drives_keep_the_unit_beside_the_whole_drives_to_buy():
    wb = L.sizing_panel()
    wb.panel.set(drive="STK3480")  # 1.28 MB/s: 1,562.5 drives (the example's 2,000 MB/s of flows / 1.28)
    s = sized(cern_example_flows(), "STK3480")
    assert s.total == pytest.approx(1562.5) and s.whole_drives == 1563
    assert wb.panel.readout_values[EXAMPLE] == "1,562.5 needed, buy 1,563"  # was "1,560 needed, buy 1563"
    assert drive_counts.drives_text(88.888) == "88.9" and drive_counts.drives_text(214.29) == "214"
    assert (
        "StorageTek 3480-type (ACS 4400), 1.28 MB/s: 1,562.5 drives needed, buy 1,563"
        in drive_counts.key_numbers()
    )


@pytest.mark.parametrize("drive", ["IBM3592A", "LTO9", "STK3480"])
def test_figures_written_as_json_are_what_plotly_validates(drive):
    # The bases are plain JSON (plotly's objects were most of an edit's kernel time): each must be
    # exactly what plotly's validated Figure gives back, so no property is misspelt or misplaced.
    table = (
        *drive_counts.example_table(),
        *(("more & <b>", f) for _sc, f in drive_counts.example_table()[:2]),
    )
    r = drive_counts.evaluate_sizing(table, drive)
    for spec in (drive_counts.split_base(r), drive_counts.compare_base(r.comparison),
                 drive_counts.split_base(drive_counts.evaluate_sizing(None, drive))):  # fmt: skip
        assert figure_json(go.Figure(spec)) == spec
