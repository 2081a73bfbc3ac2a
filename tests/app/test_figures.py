"""vtsmodel.app.figures: the marks that move, the axes that stay, values kept with the bases."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from vtsmodel.app.figures import (
    alert_note,
    frame_validated,
    html_table,
    inputs_table_html,
    line_mark,
    off_scale_note,
    padded,
    point_mark,
)


def test_a_mark_inside_its_range_is_drawn_where_it_is():
    assert point_mark(1.0, 5.0, y_range=(0.0, 10.0)) == point_mark(1.0, 5.0)
    assert off_scale_note(1.0, 5.0, (0.0, 10.0), "inside") == []


@pytest.mark.parametrize(("y", "edge", "side"), [(15.0, 10.0, 1), (-5.0, 0.0, -1)])
def test_a_mark_beyond_its_range_sits_on_the_edge_as_a_triangle_pointing_out(y, edge, side):
    m = point_mark(2.0, y, y_range=(0.0, 10.0), name="p95", size=10)
    assert (m["xanchor"], m["yanchor"], m["visible"], m["name"]) == (2.0, edge, True, "p95")
    # the tip at the anchor (on the edge), the body inside the plot
    assert m["path"] == f"M 0,0 L 5.0,{-side * 8.0} L -5.0,{-side * 8.0} Z"
    go.Figure(layout={"shapes": [m]})  # a valid plotly shape
    (note,) = off_scale_note(2.0, y, (0.0, 10.0), f"p95 {y:g}: off the scale", stack=1)
    assert (note["x"], note["y"], note["text"]) == (2.0, edge, f"p95 {y:g}: off the scale")
    assert note["ay"] == side * 52  # inside the plot, one line further in than the first note
    go.Figure(layout={"annotations": [note]})


def test_an_infinite_value_hides_the_mark_and_has_no_note():
    m = point_mark(2.0, float("inf"), y_range=(0.0, 10.0))
    assert not m["visible"] and off_scale_note(2.0, float("inf"), (0.0, 10.0), "x") == []


def test_line_mark_is_vertical_or_horizontal_across_the_domain():
    v = line_mark(x=3.0, color="red", xref="x2", yref="y2")
    assert (v["x0"], v["x1"], v["y0"], v["y1"], v["xref"], v["yref"]) == (3.0, 3.0, 0, 1, "x2", "y2 domain")
    h = line_mark(y=5.0, dash="dash", width=2, name="target", visible=False)
    assert (h["y0"], h["y1"], h["x0"], h["x1"], h["xref"], h["yref"]) == (5.0, 5.0, 0, 1, "x domain", "y")
    assert (
        h["line"] == {"color": "#777", "dash": "dash", "width": 2}
        and not h["visible"]
        and h["name"] == "target"
    )
    go.Figure(layout={"shapes": [v, h]})
    with pytest.raises(ValueError, match="give x"):
        line_mark(x=1.0, y=1.0)


def test_padded_and_the_validated_frame():
    assert padded(100.0) == [-2.0, 102.0] and padded(6.0, 1.0, 0.01) == [0.95, 6.05]
    fig = go.Figure()
    frame_validated(fig, [1.0, 2.0, 6.0], (1.0, 4.0))
    assert list(fig.layout.xaxis.range) == [0.95, 6.05]
    assert [(s.x0, s.x1) for s in fig.layout.shapes] == [(4.0, 6.0)]  # only beyond the validated range


def test_alert_note_sits_on_the_side_with_room_and_never_past_the_axis():
    right, left = alert_note(900.0, "saturated", x_max=1000.0), alert_note(100.0, "saturated", x_max=1000.0)
    assert (right["xanchor"], left["xanchor"]) == ("right", "left")
    assert alert_note(5000.0, "beyond", x_max=1000.0, yref="y2")["x"] == 1000.0
    assert alert_note(5000.0, "beyond", x_max=1000.0, yref="y2")["yref"] == "y2 domain"
    go.Figure(layout={"annotations": [right, left]})


def test_html_table_escapes_every_cell():
    t = html_table(("a", "b<"), [("1 < 2", "x & y"), (3, "")], css_class="demo")
    assert t.startswith("<table class='demo'><thead><tr><th") and "b&lt;</th>" in t
    assert ">1 &lt; 2</td>" in t and ">x &amp; y</td>" in t and ">3</td>" in t and t.count("<tr>") == 3


def test_inputs_table_lists_each_input_with_its_range_and_source():
    from vtsmodel import Input

    inputs = {
        "cf": Input("compressibility CF", "-", 3.0, lo=1.0, hi=6.0, source="ibm-vts-b18-2000,\n Appendix B"),
        "drive": Input("drive", "", "a", choices=tuple("abcde")),
    }
    t = inputs_table_html(inputs, what="answer", css_class="vtsmodel-answers")
    assert "vtsmodel-answers" in t and ">answer</th>" in t
    assert (
        ">compressibility CF</td>" in t and ">[1, 6]</td>" in t and ">ibm-vts-b18-2000, Appendix B</td>" in t
    )
    assert ">one of 5 (the list on the page)</td>" in t


# --- legends show what the plot draws ---------------------------------------------------------------
def test_every_marks_legend_item_has_the_marks_symbol():
    # plotly draws a path shape's legend item as a hexagon: a named mark is in the legend as a
    # legend-only trace with the symbol (or line) the plot draws.
    from vtsmodel.app.figures import Plot, point_mark
    from vtsmodel.app.lessons import LESSONS, lesson_module

    for symbol in ("diamond", "square", "circle", "triangle"):
        mark = point_mark(1.0, 2.0, symbol=symbol, name="here")
        spec = Plot(lambda: {"data": [], "layout": {}}, shapes=[mark]).spec()
        assert [t["name"] for t in spec["data"]] == ["here"]
        assert spec["data"][0]["marker"]["symbol"] == ("triangle-up" if symbol == "triangle" else symbol)
        assert spec["data"][0]["marker"]["color"] == mark["fillcolor"]
        assert spec["layout"]["shapes"][0]["showlegend"] is False
    for k in LESSONS:
        for name, plot in lesson_module(k).scenario_view().figures.items():
            shapes = plot.spec()["layout"].get("shapes", [])
            in_legend = [s for s in shapes if s.get("type") == "path" and s.get("showlegend")]
            assert in_legend == [], f"lesson {k} {name}: a mark in the legend as a hexagon"
