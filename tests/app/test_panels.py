"""The app layer's panels, plot panes, figures-as-base-and-marks and controls, tested once for every page."""

import asyncio
import warnings

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
import pytest

from vtsmodel import ExtrapolationWarning, Input
from vtsmodel.app import cache, figures, panels
from vtsmodel.app.controls import control, tooltip
from vtsmodel.app.figures import Plot, base_spec, compose, path_mark, point_mark, validated_curve
from vtsmodel.app.panels import Panel, PlotPane, Stage, View
from vtsmodel.app.text import duration, number, percent

RATE = Input("rate", "MB/s", 100.0, lo=0.0, hi=1000.0, step=10.0, valid=(0.0, 500.0), source="a test source")
DRIVES = Input("drives", "-", 4, lo=1, hi=16, integer=True)
MODE = Input("mode", "", "fast", choices=(("Fast", "fast"), ("Slow", "slow")))
FLAG = Input("copy", default=True)
BUILDS = []


def curve_base(drives):
    BUILDS.append(drives)
    x = np.linspace(0, 10, 11)
    fig = go.Figure(go.Scatter(x=x, y=10 * x / drives, mode="lines", name="curve"))
    fig.update_xaxes(range=[0, 10])
    return figures.figure_json(fig)


EVALUATIONS = []


def evaluate(rate=100.0, drives=4, copy=True):
    """The test's model: the rate per drive (a note above 500, no answer above 900)."""
    EVALUATIONS.append((rate, drives, copy))
    if rate > 500:
        warnings.warn(
            f"rate={rate:g} is outside the range the source validated", ExtrapolationWarning, stacklevel=2
        )
    if rate > 900:
        raise ValueError(f"rate={rate:g} and drives={drives:d} cannot be combined")
    return {"rate": rate, "drives": drives, "per_drive": rate / drives}


def view(r, mode="fast"):
    """``mode`` only changes how the result is shown (a display input)."""
    return View({"main": Plot(curve_base, {"drives": r["drives"]},
                              shapes=[point_mark(r["rate"] / 100, r["per_drive"], name="here")])},
                readouts={"per drive": f"{number(r['per_drive'])} MB/s", "shown": mode},
                binding="the drives bind", citations=("vts_facts",))  # fmt: skip


STAGE = Stage(evaluate, view)


def make_panel(**values):
    return Panel(
        {"rate": RATE, "drives": DRIVES, "mode": MODE, "copy": FLAG}, STAGE, values=values, title="test"
    )


# --- controls -------------------------------------------------------------------------------


def test_controls_are_built_from_the_declarations():
    p = make_panel()
    rate, drives, mode, copy = (p.controls[k] for k in ("rate", "drives", "mode", "copy"))
    assert isinstance(rate, w.FloatSlider) and (rate.min, rate.max, rate.step) == (0.0, 1000.0, 10.0)
    assert rate.description == "rate [MB/s]" and rate.readout_format == ",.0f"
    assert "Validated: 0 to 500 MB/s (a test source)." in rate.tooltip and "Range [0, 1000]." in rate.tooltip
    assert (
        isinstance(drives, w.IntSlider)
        and (drives.min, drives.max) == (1, 16)
        and drives.readout_format == ",d"
    )
    assert isinstance(mode, w.Dropdown) and mode.options == (("Fast", "fast"), ("Slow", "slow"))
    assert isinstance(copy, w.Checkbox) and copy.value is True
    log = control(Input("size", "MB", 100.0, lo=0.1, hi=1e5, scale="log", step=0.1))
    assert isinstance(log, w.FloatLogSlider) and log.readout_format == ",.3r" and log.value == 100.0
    with pytest.raises(ValueError, match="needs a closed finite range"):
        control(Input("open", "-", 1.0, lo=0.0))
    assert tooltip(DRIVES).startswith("drives")


def test_a_choice_with_a_long_label_shows_its_dropdown_under_its_label_and_its_panel_says_how():
    """Table 3's configurations ("1152 GB: 36 GB HDDs, 16 × (2+P), base, EHPO") were cut short
    beside their label; such a dropdown goes under its label, the control's whole width, and
    only a panel holding one carries the rule that lays it out (the browser tests measure
    every dropdown's options on every page: tests/browser/helpers.py, ``cut_labels``)."""
    from vtsmodel import b18
    from vtsmodel.app.controls import CHOICE_BELOW, CONTROLS_CSS, FITS_BESIDE

    long = control(b18.TVC_CONFIG)
    assert max(len(label) for label, _v in b18.TVC_CONFIG.options) > FITS_BESIDE
    assert CHOICE_BELOW in long._dom_classes and long.layout.width == "410px"
    assert CHOICE_BELOW not in make_panel().controls["mode"]._dom_classes  # "Fast", "Slow"

    def styles(panel):
        return [c.value for c in panel.widget.children if isinstance(c, w.HTML) and "<style>" in c.value]

    assert styles(make_panel()) == []
    stage = Stage(lambda tvc_config: tvc_config, lambda r: View({}, readouts={"configuration": r}))
    panel = Panel({"tvc_config": b18.TVC_CONFIG}, stage, title="long")
    assert styles(panel) == [f"<style>{CONTROLS_CSS}</style>"] and f".{CHOICE_BELOW}" in CONTROLS_CSS


def test_widgets_share_their_layouts_and_styles_and_a_shared_one_cannot_change():
    """Each layout or style is a model the page creates before it draws: two panels' repeats are one each."""
    from vtsmodel.app.controls import shared

    a, b = make_panel(), make_panel()
    sliders = [a.controls["rate"], a.controls["drives"], b.controls["rate"], b.controls["drives"]]
    assert len({id(s.layout) for s in sliders}) == 1 and len({id(s.style) for s in sliders}) == 1
    assert sliders[0].layout.width == "410px" and sliders[0].style.description_width == "190px"
    assert (
        a.controls["mode"].layout is sliders[0].layout
        and a.controls["mode"].style is b.controls["mode"].style
    )
    assert a.controls["copy"].style is b.controls["copy"].style
    assert a.plots["main"].widget.layout is b.plots["main"].widget.layout
    # The ones that differ stay apart: a flag's style has no label width, a dropdown's is not a slider's.
    assert a.controls["copy"].style is not a.controls["mode"].style is not sliders[0].style
    layout = shared(w.Layout, width="123px")
    assert layout is shared(w.Layout, width="123px") and layout is not shared(w.Layout, width="124px")
    with pytest.raises(RuntimeError, match="shared Layout changed"):
        layout.height = "10px"  # it would move every widget that shows it
    layout.close()
    fresh = shared(w.Layout, width="123px")  # closed: a new one
    assert fresh is not layout and fresh.comm is not None and fresh.width == "123px"


def test_a_panel_rejects_a_value_its_control_cannot_show():
    p = make_panel()
    with pytest.raises(ValueError, match=r"rate=2000 is outside the valid range \[0, 1000\]"):
        p.set(rate=2000)
    with pytest.raises(ValueError, match=r"mode='medium' is not valid; choose one of 'Fast', 'Slow'"):
        p.set(mode="medium")
    with pytest.raises(ValueError, match="no input named colour"):
        p.set(colour="red")
    with pytest.raises(ValueError, match="no input named colour"):
        make_panel(colour="red")
    assert p.values == {"rate": 100.0, "drives": 4, "mode": "fast", "copy": True}
    p.set(mode="Slow", drives="8")  # typed text is parsed by the declaration
    assert p.values["mode"] == "slow" and p.values["drives"] == 8


# --- the view and its notes ---------------------------------------------------------------


def test_extrapolation_warnings_become_notes_other_warnings_pass():
    cache.clear()
    for _ in range(2):  # computed, then kept: the note both times
        v = STAGE.show({"rate": 600.0})
        assert v.notes == ("rate=600 is outside the range the source validated",)

    def noisy(**kw):
        warnings.warn("not ours", RuntimeWarning, stacklevel=1)
        return evaluate(**kw)

    with pytest.warns(RuntimeWarning, match="not ours"):
        assert Stage(noisy, view).show({"rate": 10.0}).notes == ()


def test_a_panel_evaluates_once_per_distinct_setting_of_what_it_reads():
    cache.clear()
    EVALUATIONS.clear()
    p = make_panel()
    assert EVALUATIONS == [(100.0, 4, True)] and p.result == {"rate": 100.0, "drives": 4, "per_drive": 25.0}
    p.set(mode="slow")  # a display input: viewed again, not evaluated
    assert len(EVALUATIONS) == 1 and p.readout_values["shown"] == "slow"
    p.set(rate=120.0)
    p.set(rate=100.0)  # back to a setting evaluated before: kept
    assert EVALUATIONS == [(100.0, 4, True), (120.0, 4, True)]
    other = make_panel(rate=120.0)  # another panel (a scenario row, a report) of the same setting shares it
    assert len(EVALUATIONS) == 2 and other.result is STAGE.result({"rate": 120.0, "drives": 4, "copy": True})


def test_panel_shows_notes_and_keeps_the_last_good_view_on_error():
    p = make_panel()
    p.set(rate=600.0)
    assert "outside the range the source validated" in p._binding.value and p.view.notes
    assert "Note: rate=600 is outside" in p.caption() and "Settings: rate [MB/s] = 600" in p.caption()
    good = p.readout_values
    p.set(rate=950.0)
    assert p.last_error == "rate=950 and drives=4 cannot be combined" and p.readout_values == good
    assert "cannot be combined" in p._error.value
    p.set(rate=100.0)
    assert not p.last_error and p._error.value == "" and not p.view.notes


# --- a lead: the first figure sent from a part of the evaluation ----------------------------------

PARTS = []


def _part(rate, drives):
    """The part of the test's evaluation that its first figure needs (kept in the cache)."""
    PARTS.append((rate, drives))
    if rate > 500:
        warnings.warn(
            f"rate={rate:g} is outside the range the source validated", ExtrapolationWarning, stacklevel=2
        )
    if rate > 900:
        raise ValueError(f"rate={rate:g} and drives={drives:d} cannot be combined")
    return rate / drives


def evaluate_in_parts(rate=100.0, drives=4, copy=True):
    per_drive = cache.cached(_part, rate=rate, drives=drives)
    if not copy and rate > 400:
        raise ValueError(f"rate={rate:g} needs the copy")
    return {"rate": rate, "drives": drives, "per_drive": per_drive}


def _main(rate, drives, per_drive):
    return Plot(curve_base, {"drives": drives}, shapes=[point_mark(rate / 100, per_drive, name="here")])


def view_in_parts(r, mode="fast"):
    return View({"main": _main(r["rate"], r["drives"], r["per_drive"]),
                 "other": Plot(curve_base, {"drives": 1}, shapes=[point_mark(1.0, r["rate"], name="rate")])},
                readouts={"per drive": f"{number(r['per_drive'])} MB/s"})  # fmt: skip


def lead_in_parts(rate=100.0, drives=4, copy=True):
    return {"main": _main(rate, drives, cache.cached(_part, rate=rate, drives=drives))}


LED = Stage(evaluate_in_parts, view_in_parts, lead=lead_in_parts)


def _led_panel(pause=None, **values):
    kw = {} if pause is None else {"lead_pause_s": pause}
    return Panel({"rate": RATE, "drives": DRIVES, "mode": MODE, "copy": FLAG}, LED, values=values, **kw)


def test_a_lead_figure_is_sent_before_the_rest_is_evaluated_and_once():
    """Stage.lead: the first figure goes out from the kept part, before the evaluation; the view's is the same."""
    cache.clear()
    PARTS.clear()
    p = _led_panel()
    order = []
    for key, pane in p.plots.items():
        pane.widget.observe(lambda ch, key=key: order.append((key, ch["name"])), names=["base", "moving"])
    evaluated = []
    p.stage = Stage(lambda **kw: evaluated.append(list(order)) or evaluate_in_parts(**kw), view_in_parts,
                    reads=("rate", "drives", "copy"), lead=lead_in_parts)  # fmt: skip
    p.set(rate=150.0)
    assert evaluated == [[("main", "moving")]]  # the lead's figure was out before the evaluation ran
    assert order == [("main", "moving"), ("other", "moving")]  # and not sent again by the view
    assert PARTS == [(100.0, 4), (150.0, 4)]  # the part computed once per setting: the evaluation found it
    assert p.figure("main") == PlotPane(view_in_parts(p.result).figures["main"]).spec


def test_a_lead_leaves_the_warnings_to_the_view_and_its_figure_to_the_last_good_view_on_error():
    cache.clear()
    p = _led_panel()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the lead raises no warning of its own
        p.set(rate=600.0)
    assert p.view.notes == ("rate=600 is outside the range the source validated",)
    good = p.figure("main")
    p.set(copy=False, rate=450.0)  # the lead's part is fine, the evaluation is not: its figure goes back
    assert p.last_error == "rate=450 needs the copy" and p.figure("main") == good
    p.set(copy=True, rate=950.0)  # the lead's part fails: nothing sent, the evaluation says why
    assert p.last_error == "rate=950 and drives=4 cannot be combined" and p.figure("main") == good


def _in_a_loop(moves):
    """Run ``moves()`` inside a running event loop, as a kernel runs a change."""

    async def run():
        return moves()

    return asyncio.run(run())


def test_in_a_kernel_the_panel_pauses_between_a_changed_lead_and_the_rest(monkeypatch):
    """Panel.lead_pause_s: the lead's figure goes out, the kernel sleeps, then the rest is evaluated and sent."""
    cache.clear()
    p = _led_panel()
    order = []
    for key, pane in p.plots.items():
        pane.widget.observe(lambda ch, key=key: order.append(key), names=["base", "moving"])
    monkeypatch.setattr(panels.time, "sleep", lambda s: order.append(("sleep", s)))
    _in_a_loop(lambda: p.set(rate=150.0))
    assert order == ["main", ("sleep", panels.LEAD_PAUSE_S), "other"]
    assert p.readout_values == {"per drive": "37.5 MB/s"}


def test_no_pause_without_a_kernel_with_a_pause_of_0_or_when_the_lead_changed_nothing(monkeypatch):
    cache.clear()
    slept = []
    monkeypatch.setattr(panels.time, "sleep", slept.append)
    p, q = _led_panel(), _led_panel(pause=0)
    p.set(rate=150.0)  # no event loop runs: a test, a script, the report
    _in_a_loop(lambda: q.set(rate=170.0))
    # The lead's figure unchanged by the mode: nothing for the browser to draw first.
    _in_a_loop(lambda: p.set(mode="slow"))
    assert slept == [] and p.result["rate"] == 150.0 and q.result["rate"] == 170.0
    with pytest.raises(ValueError, match=r"lead_pause_s=-1 is not a pause in \[0, 1\] s"):
        _led_panel(pause=-1)


# --- the plot pane: base once, marks on every move ------------------------------------------


def test_the_base_is_built_once_per_slow_setting_and_sent_only_when_it_changes():
    cache.clear()
    BUILDS.clear()
    p = make_panel()
    pane = p.plots["main"]
    sent = []
    pane.widget.observe(lambda ch: sent.append(ch["name"]), names=["base", "moving"])
    for rate in (110.0, 120.0, 130.0):
        p.set(rate=rate)
    assert BUILDS == [4] and sent == ["moving"] * 3
    p.set(drives=8)
    assert BUILDS == [4, 8] and sent[-2:] == ["base", "moving"]
    p.set(drives=4)  # back to a cached base: not built again, but sent
    assert BUILDS == [4, 8] and sent[-2:] == ["base", "moving"]
    sent.clear()
    p.set(mode="slow")  # changes neither base nor marks: nothing sent
    assert sent == []


def test_pane_spec_is_the_composed_figure():
    plot = Plot(curve_base, {"drives": 2}, traces=[{"type": "scatter", "x": [1], "y": [2], "name": "extra"}],
                shapes=[point_mark(1.0, 5.0, name="here")], annotations=[{"x": 1, "y": 1, "text": "a"}],
                layout={"yaxis": {"range": [0, 9]}})  # fmt: skip
    pane = PlotPane(plot)
    spec = pane.spec
    assert [t["name"] for t in spec["data"]] == ["curve", "extra", "here"]
    assert spec["layout"]["shapes"][-1]["name"] == "here" and spec["layout"]["annotations"][-1]["text"] == "a"
    # the mark's legend item is a legend-only trace of its own symbol (plotly draws a path shape's as a hexagon)
    assert spec["layout"]["shapes"][-1]["showlegend"] is False
    assert spec["data"][-1]["marker"]["symbol"] == "diamond" and spec["data"][-1]["x"] == [None]
    assert spec["layout"]["yaxis"]["range"] == [0, 9] and spec["layout"]["xaxis"]["range"] == [0, 10]
    assert spec == plot.spec()
    assert isinstance(plot.figure(), go.Figure)  # the composition is a valid plotly figure


def test_compose_leaves_the_cached_base_untouched():
    base = base_spec(Plot(curve_base, {"drives": 3}))
    before = repr(base)
    compose(base, {"shapes": [point_mark(1, 1)], "layout": {"xaxis": {"range": [0, 1]}}, "traces": []})
    assert repr(base) == before
    assert base_spec(Plot(curve_base, {"drives": 3})) is base


def test_base_builders_are_silenced_and_must_return_figure_json():
    def warns():
        warnings.warn("past the validated range", ExtrapolationWarning, stacklevel=1)
        return {"data": [], "layout": {}}

    base_spec(Plot(warns))  # no warning escapes (pytest turns warnings into errors)
    with pytest.raises(ValueError, match="must return figure JSON"):
        base_spec(Plot(lambda: {"data": []}))


# --- marks and curves -------------------------------------------------------------------------


def test_point_mark_is_a_pixel_sized_shape_hidden_when_not_finite():
    m = point_mark(2.0, 3.0, name="op", size=10)
    assert (m["xsizemode"], m["ysizemode"], m["xanchor"], m["yanchor"]) == ("pixel", "pixel", 2.0, 3.0)
    assert m["visible"] and m["showlegend"] and m["name"] == "op"
    assert point_mark(2.0, float("inf"))["visible"] is False  # a saturated queue draws no finite point
    with pytest.raises(ValueError, match="symbol='star'"):
        point_mark(1, 1, symbol="star")


def test_path_mark_breaks_at_gaps():
    m = path_mark([1, 2, 3, 4], [1.0, np.nan, 3.0, 4.0], color="red", name="c")
    assert m["path"] == "M1,1 M3,3 L4,4" and m["visible"]
    assert path_mark([1], [np.inf], color="red")["visible"] is False


def test_validated_curve_is_solid_inside_and_dotted_outside():
    solid, dotted = validated_curve([1, 2, 3, 5, 6], [1, 2, 3, 5, 6], name="c", color="k", valid=(1, 4))
    assert np.isnan(solid["x"][3]) and not np.isnan(solid["x"][2])
    assert dotted["x"][2] == 3 and np.isnan(dotted["x"][0]) and dotted["name"] == "c (extrapolated)"
    assert dotted["showlegend"] is False and dotted["line"]["dash"] == "dot"


def test_json_of_arrays_is_plain():
    spec = figures.plain_json({"x": np.array([1.0, np.nan, np.inf]), "n": np.int64(3), "s": (1, 2)})
    assert spec == {"x": [1.0, None, None], "n": 3, "s": [1, 2]}


# --- numbers as a person reads them -------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "text"),
    [(2300.0, "2,300"), (79290.0, "79,300"), (163000.0, "163,000"), (0.012345, "0.0123"), (2.5, "2.5"),
     (3.0, "3"), (-0.0, "0"), (float("nan"), "—"), (float("inf"), "∞"), (1e-9, "1e-09")],
)  # fmt: skip
def test_number(x, text):
    assert number(x) == text


def test_duration_and_percent_choose_a_unit():
    assert [duration(s) for s in (45.0, 600.0, 79290.0, 3e5, float("inf"))] == [
        "45 s", "10 min", "22 h", "3.47 days", "unbounded"]  # fmt: skip
    assert percent(0.1934) == "19.3 %"


def on_grid(panel) -> dict:
    """The sliders of ``panel`` whose value is off the step grid the browser snaps it to."""
    import math

    off = {}
    for key, c in panel.controls.items():
        if isinstance(c, w.FloatLogSlider):
            k = (math.log10(c.value) - c.min) / c.step
        elif isinstance(c, w.FloatSlider):
            k = (c.value - c.min) / c.step
        else:
            continue
        if abs(k - round(k)) > 1e-6:
            off[key] = c.value
    return off


def test_every_lesson_panel_starts_on_its_sliders_grid():
    # A start value off the grid is moved by the browser's slider, and the page would show
    # another setting than the kernel's first view.
    from vtsmodel.app.lessons import time_at_peak, write

    for factory in (write.write_panel, write.read_panel, write.import_export_panel, time_at_peak.time_at_peak_panel,
                    lambda: time_at_peak.day_panel().panel):  # fmt: skip
        assert on_grid(factory()) == {}, factory


def test_merge_views_keeps_every_figure_readout_note_and_citation_once():
    from vtsmodel.app.panels import merge_views

    a = View(
        {"f": Plot(lambda: {"data": [], "layout": {}})},
        {"x": "1 s"},
        "A binds.",
        ("n1",),
        {"k": 1},
        ("c1", "c2"),
    )
    b = View(
        {"g": Plot(lambda: {"data": [], "layout": {}})}, {"y": "2 s"}, "", ("n1", "n2"), {"j": 2}, ("c2",)
    )
    m = merge_views(a, b)
    assert list(m.figures) == ["f", "g"] and m.readouts == {"x": "1 s", "y": "2 s"}
    assert (m.binding, m.notes, m.caption_values, m.citations) == (
        "A binds.",
        ("n1", "n2"),
        {"k": 1, "j": 2},
        ("c1", "c2"),
    )
