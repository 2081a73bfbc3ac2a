"""Lesson 07: plan a system from a workload (the open Tape Magic and Consul Batch Magic).

The page on :mod:`vtsmodel.plan`: the answers as controls, an hourly workload file (uploaded,
or the example) that replaces the day they describe, every VTS B18 configuration evaluated
on every change, the recommendation with its margin on each target, what the next smaller
configuration misses, the tape-library plan and what governs it, the sensitivity of each
answer, and the plan file and the report as downloads (ibm-vts-b18-2000, Secs. 8.3 and 8.4;
cern-tape-sizing-2005).

Figures: every configuration against the targets (a base keyed on the answers the
configurations' numbers depend on; the targets and the recommended configuration are
moving shapes), the recommended configuration's day and the tornado (plain bases: they
change wholly with the answers they depend on). The evaluation is shared by the view and
the bases (:func:`evaluated`, kept for the last few settings).
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import json
import math
import re
from collections import OrderedDict
from pathlib import Path

import ipywidgets as w

from vtsmodel import catalog, plan
from vtsmodel._files import example_file
from vtsmodel._inputs import Input
from vtsmodel.app import report
from vtsmodel.app.downloads import FileBar, safe_name
from vtsmodel.app.figures import COLORS, Plot, figure_json, point_mark
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import number
from vtsmodel.hourly import MAX_FILE_BYTES, HourlyWorkload, read_hourly_workload

LESSON_ID = "07"
TITLE = "Plan a system from a workload"
NOTEBOOK = "07_plan_a_system.ipynb"

#: The example hourly workload (illustrative, not measured), where this copy of vtsmodel has it.
EXAMPLE_WORKLOAD = example_file("example_hourly_workload.csv")
_PAGE = "project assumption (the page's switch)"

_A = plan.answer_inputs()
#: The answers, each with the slider range the page offers (the sheet takes the same), and two
#: switches for the answers that may be left empty (then derived), and the tornado's move.
INPUTS = {
    "write_gb_per_day": _A["write_gb_per_day"].but(hi=50_000.0, step=50.0),
    "write_window_hours": _A["write_window_hours"].but(lo=0.5, lo_open=False),
    "write_start_hour": _A["write_start_hour"].but(hi=23.5, hi_open=False),
    "read_gb_per_day": _A["read_gb_per_day"].but(hi=50_000.0, step=50.0),
    "read_window_hours": _A["read_window_hours"].but(lo=0.5, lo_open=False),
    "read_start_hour": _A["read_start_hour"].but(hi=23.5, hi_open=False),
    "read_hit": _A["read_hit"].but(step=0.05),
    "cf": _A["cf"].but(hi=6.0, step=0.05),
    "recalls_given": Input("recalls per hour given", "", False, source=_PAGE,
                           help="Off: recalls are each hour's reads × (1 − read hit) ÷ volume size; on: the slider below."),
    "recalls_per_hour": _A["recalls_per_hour"].but(default=10.0, hi=1000.0, step=1.0),
    "volume_mb": _A["volume_mb"].but(lo=10.0, lo_open=False, hi=10_000.0, step=10.0),
    "files_per_mount": _A["files_per_mount"].but(hi=1000.0, step=1.0),
    "recall_target_s": _A["recall_target_s"].but(lo=10.0, lo_open=False, hi=7200.0, step=10.0),
    "recall_percentile": _A["recall_percentile"].but(lo=0.5, lo_open=False, hi=0.99, hi_open=False, step=0.01),
    "throttle_hours_allowed": _A["throttle_hours_allowed"].but(hi=24.0, step=0.1),
    "delay_hours_allowed": _A["delay_hours_allowed"].but(hi=24.0, step=0.1),
    "efficiency_given": Input("drive efficiency given", "", False, source=_PAGE,
                              help="Off: each flow's efficiency from its access pattern (CERN formula); on: the slider below."),
    "drive_efficiency": _A["drive_efficiency"].but(default=0.8, lo=0.05, lo_open=False, step=0.05),
    "peak_factor": _A["peak_factor"].but(step=0.1),
    "vts_drive": _A["vts_drive"],
    "library_drive": _A["library_drive"],
    "virtual_drives_needed": _A["virtual_drives_needed"].but(hi=256),
    "fraction": Input("tornado: ± fraction", "-", 0.2, lo=0.05, hi=0.5, step=0.05,
                      source="project assumption", help="Each input moved down and up by this share of its value."),
}  # fmt: skip
#: The answers a scenario holds (with the two switches); the tornado's move is the page's.
SCENARIO = tuple(k for k in INPUTS if k != "fraction")
_ANSWERS = tuple(_A)
#: Answers that only check a result (not what the models compute for a configuration).
_TARGETS = ("throttle_hours_allowed", "delay_hours_allowed", "recall_target_s", "virtual_drives_needed")
_LIBRARY_ONLY = ("library_drive", "peak_factor", "files_per_mount")
#: The answers an hourly workload replaces (its writes, reads and recall mounts).
REPLACED_BY_WORKLOAD = ("write_gb_per_day", "write_window_hours", "write_start_hour", "read_gb_per_day",
                        "read_window_hours", "read_start_hour", "recalls_given", "recalls_per_hour")  # fmt: skip
#: Evaluations kept (settings x workloads): the view and the figure bases share them.
KEEP = 8
#: Seconds a page waits after the last change before it recomputes the tornado (it costs as much
#: as the rest of an update; the page shows the previous one, marked, meanwhile). [s]
TORNADO_DELAY_S = 0.25


# --- answers, workloads and their evaluation ---------------------------------------------------


def answers_of(values) -> plan.Answers:
    """The :class:`~vtsmodel.plan.Answers` of the page's values (the switches empty the optional ones)."""
    a = {k: values[k] for k in _ANSWERS if k in values}
    if not values.get("recalls_given", False):
        a["recalls_per_hour"] = None
    if not values.get("efficiency_given", False):
        a["drive_efficiency"] = None
    return plan.Answers(**a)


def values_of(answers: plan.Answers) -> dict:
    """The page's values of ``answers``, each checked against the page's range (``ValueError`` naming it)."""
    out = {}
    for k, v in answers.to_dict().items():
        if k == "recalls_per_hour":
            out["recalls_given"] = v is not None
        elif k == "drive_efficiency":
            out["efficiency_given"] = v is not None
        if v is not None:
            out[k] = INPUTS[k].parse(k, v)
    return out


def frozen(workload: HourlyWorkload | None):
    """A workload as a hashable tuple (a figure base's argument), or None."""
    if workload is None:
        return None
    return (workload.name, workload.notes, tuple((k, tuple(v.tolist())) for k, v in workload.columns.items()))


def _thaw(key) -> HourlyWorkload | None:
    return None if key is None else HourlyWorkload(key[0], dict(key[2]), key[1])


def _key(answers: plan.Answers, drop=()) -> tuple:
    return tuple((k, v) for k, v in answers.to_dict().items() if k not in drop)


_evaluations: OrderedDict = OrderedDict()
_sensitivities: OrderedDict = OrderedDict()


def _kept(cache: OrderedDict, key, make):
    if key not in cache:
        cache[key] = make()
        if len(cache) > KEEP:
            cache.popitem(last=False)
    cache.move_to_end(key)
    return cache[key]


def _vts_for(answers_key: tuple, workload) -> plan.VtsPlan | None:
    """A VTS plan already evaluated whose answers differ at most in the targets and the library's answers.

    The configurations' numbers do not depend on those (only their checks do).
    """
    for (a, wl), (_p, vts, _l) in reversed(_evaluations.items()):
        if wl == workload and _key(a, _TARGETS + _LIBRARY_ONLY) == answers_key:
            return vts
    return None


def evaluated(answers: plan.Answers, workload=None) -> tuple[plan.Plan, plan.VtsPlan, plan.LibraryPlan]:
    """The plan of ``answers`` and a workload (frozen, :func:`frozen`), its VTS plan and library plan.

    Kept for the last :data:`KEEP` settings, so the view and the figure bases evaluate once;
    a change of the library's answers alone evaluates the library only.
    """

    def make():
        p = plan.Plan(answers, workload=_thaw(workload))
        lib_only = _key(answers, _LIBRARY_ONLY)
        vts = next((v for (a, wl), (_p, v, _l) in reversed(_evaluations.items())
                    if wl == workload and _key(a, _LIBRARY_ONLY) == lib_only), None)  # fmt: skip
        return p, vts or plan.vts_plan(p), plan.library_plan(p)

    return _kept(_evaluations, (answers, workload), make)


#: Answers the tornado does not depend on (they only pick the configuration, which is its own argument).
_NOT_TORNADO = ("throttle_hours_allowed", "delay_hours_allowed", "virtual_drives_needed")


def tornado_key(answers: plan.Answers) -> tuple:
    """The answers the tornado depends on, as a base's argument."""
    return _key(answers, _NOT_TORNADO)


def tornado_data(answers: tuple, workload, configuration: str, fraction: float) -> plan.Sensitivity:
    """The sensitivity (:func:`vtsmodel.plan.sensitivity`) with ``configuration`` held fixed; kept like the plans."""

    def make():
        config = next(c for c in plan.vts_configurations() if c.label == configuration)
        p = plan.Plan(plan.Answers(**dict(answers)), workload=_thaw(workload))
        return plan.sensitivity(p, fraction=fraction, configuration=config)

    return _kept(_sensitivities, (answers, workload, configuration, fraction), make)


def tornado_ready(answers: tuple, workload, configuration: str, fraction: float) -> bool:
    """Whether that sensitivity is already computed."""
    return (answers, workload, configuration, fraction) in _sensitivities


# --- figure bases ------------------------------------------------------------------------------


def _evaluate(answers: tuple, workload) -> plan.VtsPlan:
    return evaluated(plan.Answers(**dict(answers)), workload)[1]


def _tidy(fig, *, height: int, legend_rows: int, bottom: int) -> dict:
    """The report's figure laid out for a pane and an export: the title, then the legend, then the plots.

    The legend sits above the plots (an export would move a legend from under them there,
    over the title), the bottom margin holds the tick labels (an export's caption goes under it).
    """
    fig.update_layout(
        width=None, height=height, margin={"t": 44 + 22 * legend_rows + 30, "b": bottom},
        title={"y": 1 - 10 / height, "yanchor": "top", "yref": "container"},
        legend={"orientation": "h", "x": 0, "xanchor": "left", "yref": "container", "y": 1 - 42 / height,
                "yanchor": "top"},
    )  # fmt: skip
    return figure_json(fig)


def configurations_base(answers: tuple, workload) -> dict:
    """Every configuration's numbers (:func:`~vtsmodel.app.report.configurations_figure`), without the target lines.

    ``answers`` leaves out the targets and the library's answers: the targets are drawn as
    moving shapes (:func:`target_shapes`).
    """
    fig = report.configurations_figure(_vts_for(answers, workload) or _evaluate(answers, workload))
    fig.layout.shapes = ()
    fig.layout.annotations = [a for a in fig.layout.annotations if a.xref == "paper"]  # the subplot titles
    if fig.layout.yaxis2.type == "log":  # plotly's minor log labels (2, 3, … 9) crowd: 1, 2, 5 per decade
        ticks = [m * 10.0**e for e in range(6) for m in (1, 2, 5)]
        fig.update_yaxes(tickmode="array", tickvals=ticks, ticktext=[number(t) for t in ticks], row=2, col=1)
    return _tidy(fig, height=660, legend_rows=1, bottom=120)


def day_base(configuration: str, answers: tuple, workload) -> dict:
    """The day of one configuration (:func:`~vtsmodel.app.report.day_figure`)."""
    fig = report.day_figure(
        (_vts_for(answers, workload) or _evaluate(answers, workload)).result(configuration)
    )
    return _tidy(fig, height=620, legend_rows=2, bottom=60)


def moving_rows(sens: plan.Sensitivity) -> plan.Sensitivity:
    """The sensitivity without the inputs that move no answer (every bar left is drawn and labelled)."""
    rows = tuple(r for r in sens.rows if r.swing > 0)
    return dataclasses.replace(sens, rows=rows) if rows else sens


def tornado_base(configuration: str, answers: tuple, workload, fraction: float) -> dict:
    """The tornado for ``configuration`` held fixed (:func:`~vtsmodel.app.report.tornado_figure`).

    Inputs that move no answer are left out, and every bar's label is shown (plotly skips
    category labels where they crowd, which would leave bars beside other inputs' names).
    """
    fig = report.tornado_figure(moving_rows(tornado_data(answers, workload, configuration, fraction)))
    fig.update_yaxes(tickmode="linear", tick0=0, dtick=1)
    return _tidy(fig, height=int(fig.layout.height), legend_rows=1, bottom=40)


def target_shapes(vts: plan.VtsPlan) -> tuple[list[dict], list[dict]]:
    """The targets as lines, and the recommended (or closest) configuration marked: shapes and labels."""
    first, best = vts.results[0], vts.closest
    caches = list(dict.fromkeys(r.config.label.rsplit(", ", 1)[0] for r in vts.results))
    shapes, labels = [], []
    for key, yref, color, dash, text, anchor in (
        ("throttle", "y", COLORS[1], "dash", "throttling allowed", "left"),
        ("delay", "y", COLORS[0], "dot", "delay allowed", "right"),
        ("recall", "y2", "#444", "dash", "target", "left"),
    ):
        limit = first.check(key).limit
        if key == "recall" and math.isnan(best.worst_recall_ready_s):
            continue
        shapes.append({"type": "line", "xref": "x domain", "x0": 0, "x1": 1, "yref": yref, "y0": limit, "y1": limit,
                       "line": {"color": color, "dash": dash, "width": 1}, "name": f"{text} {number(limit)}"})  # fmt: skip
        y = math.log10(limit) if key == "recall" else limit  # annotations on a log axis take the log
        labels.append({"xref": "x domain", "x": 0 if anchor == "left" else 1, "xanchor": anchor, "yref": yref,
                       "y": y, "yanchor": "bottom", "showarrow": False, "font": {"size": 11, "color": color},
                       "bgcolor": "rgba(255,255,255,0.85)",
                       "text": f"{text} {number(limit)} {first.check(key).unit}"})  # fmt: skip
    i = caches.index(best.config.label.rsplit(", ", 1)[0])
    word = "recommended" if vts.recommended is not None else "closest"
    shapes.append({"type": "rect", "xref": "x", "x0": i - 0.45, "x1": i + 0.45, "yref": "paper", "y0": 0, "y1": 1,
                   "fillcolor": "rgba(0,158,115,0.12)", "line": {"width": 0}, "layer": "below"})  # fmt: skip
    ready = best.worst_recall_ready_s
    shapes.append(point_mark(i, ready, xref="x2", yref="y2", color=COLORS[2], size=14, showlegend=False,
                             name=f"{word}: {best.config.label}"))  # fmt: skip
    labels.append({"xref": "x", "x": i, "yref": "y domain", "y": 0.98, "yanchor": "top", "textangle": -90,
                   "showarrow": False, "text": f"{word}: {best.config.label}", "font": {"size": 11, "color": "#05704F"},
                   "bgcolor": "rgba(255,255,255,0.85)"})  # fmt: skip
    return shapes, labels


# --- the view ----------------------------------------------------------------------------------


def _fmt(value: float, unit: str) -> str:
    if math.isinf(value):
        return "no steady state" if unit == "s" else "∞"
    if unit == "drives":
        return f"{value:.0f}"
    return f"{number(value)} {unit}"


def check_readout(c: plan.Check) -> str:
    """One target: value, target and margin, e.g. ``"439 s against 600 s; margin 161 s"``."""
    if c.key == "virtual_drives":
        return f"{c.value:.0f} presented for {c.limit:.0f}; margin {c.margin:.0f}"
    if c.key == "copy":
        if math.isinf(c.value):
            return f"falls behind day after day with {c.limit:.0f}"
        return f"{c.value:.0f} of {c.limit:.0f} drives; margin {c.margin:.0f}"
    margin = "—" if math.isinf(c.margin) else _fmt(c.margin, c.unit)
    return f"{_fmt(c.value, c.unit)} against {_fmt(c.limit, c.unit)}; margin {margin}"


def binding_sentence(vts: plan.VtsPlan) -> str:
    """What the next smaller configuration misses (or, with no recommendation, what the closest misses)."""
    rec = vts.recommended
    if rec is None:
        return vts.headline()
    if vts.next_smaller is None:
        return (
            f"{rec.config.label} is the smallest configuration the paper offers: nothing smaller to compare."
        )
    return vts.headline().removeprefix(f"Recommended: {rec.config.label}. ")


def write_feed_mb_s(p: plan.Plan, lib: plan.LibraryPlan) -> float | None:
    """Host MB/s reaching each library drive that writes, in the busiest hour (None: no writes).

    The busiest hour's write rate spread over the whole drives the CERN formula sizes for
    the write flow (a modelling choice: the drives share the flow evenly).
    """
    if lib.recall_flow is None:
        return None
    rate = float(p.day().write_mb_s.max())
    drives = max(1, math.ceil(float(lib.sizing.drives[1 - lib.recall_flow]) - 1e-9))
    return rate / drives if rate > 0 else None


def library_readouts(lib: plan.LibraryPlan) -> dict[str, str]:
    """The tape-library plan in words: drives per flow, the recall wait target's drives, what governs."""
    if lib.drive:
        drives = f"{lib.drives} × {INPUTS['library_drive'].label_of(lib.drive)}"
    else:
        drives = f"{_drives(lib.drives)} at {number(lib.speed_mb_s)} MB/s"
    out = {"tape library": drives, "tape library, governs": lib.governs}
    for flow, eff, d in zip(lib.sizing.names, lib.sizing.efficiencies, lib.sizing.drives, strict=True):
        out[f"library, {flow}"] = f"{_drives(d)} (efficiency {number(eff)})"
    if lib.recall_flow is not None:
        need = lib.recall_drives_for_wait
        out["library, recall wait target"] = "cannot be met" if need is None else _drives(need)
    return out


def _drives(n: float) -> str:
    return f"{number(n)} drive{'' if n == 1 else 's'}"


def view_plan(workload=None, fraction=0.2, **values) -> View:
    """The plan of the page's values and an hourly workload (frozen, :func:`frozen`, or None)."""
    answers = answers_of(values)
    p, vts, lib = evaluated(answers, workload)
    best = vts.closest
    feed = write_feed_mb_s(p, lib)
    if feed is not None and lib.drive is not None:
        catalog.warn_streaming(lib.drive, feed, compression_ratio=answers.cf)  # a note when it cannot stream
    shapes, labels = target_shapes(vts)
    slow = _key(answers, _TARGETS + _LIBRARY_ONLY)
    figures = {
        "configurations": Plot(configurations_base, {"answers": slow, "workload": workload}, shapes=shapes,
                               annotations=labels),
        "day": Plot(day_base, {"configuration": best.config.label, "answers": slow, "workload": workload}),
        "tornado": Plot(tornado_base, {"configuration": best.config.label, "workload": workload, "fraction": fraction,
                                       "answers": tornado_key(answers)}),
    }  # fmt: skip
    day = vts.day
    readouts = {
        "recommended": best.config.label if vts.recommended else f"none (closest: {best.config.label})",
        **{c.label: check_readout(c) for c in best.checks},
        "time at peak": f"{number(best.hours_at_peak)} h",
        "peak / sustained write": f"{number(best.peak_mb_s)} / {number(best.sustained_mb_s)} MB/s",
        "sustained write bound by": best.binding_resource,
        "day evaluated": f"{p.day().name if workload else 'the answers'} ({day['hours [h]']} h)",
        "read hit ratio used": f"{number(day['read hit ratio [-]'])}, "
        + ("answered" if day["read hit basis"] == "answer" else f"from the {day['read hit basis']}"),
        "recalls in the busiest hour": f"{number(day['busiest recall hour [1/h]'])} per hour",
        **library_readouts(lib),
    }
    if feed is not None:
        readouts["library, feed per writing drive"] = (
            f"{number(feed)} MB/s ({number(feed / answers.cf)} MB/s native)"
        )
    caption = {"day evaluated": p.day().name if workload else "the day the answers describe"}
    if not values.get("recalls_given", False):
        caption[INPUTS["recalls_per_hour"].header] = "derived: reads × (1 − read hit) ÷ volume size"
    if not values.get("efficiency_given", False):
        caption[INPUTS["drive_efficiency"].header] = "from the access pattern"
    if workload:
        caption.update({INPUTS[k].header: "replaced by the workload" for k in REPLACED_BY_WORKLOAD})
    return View(figures=figures, readouts=readouts, binding=binding_sentence(vts),
                notes=tuple(dict.fromkeys(vts.notes + lib.notes)),
                caption_values=caption, citations=tuple(dict.fromkeys(vts.sources + lib.sources)))  # fmt: skip


# --- the page --------------------------------------------------------------------------------


_UPDATING = {"text": "updating…", "xref": "paper", "yref": "paper", "x": 1, "y": 1, "xanchor": "right",
             "yanchor": "bottom", "showarrow": False, "font": {"color": "#B00020", "size": 13}}  # fmt: skip


class PlannerPage:
    """The planner: the answers' panel, an hourly workload, the plan file and the report.

    Parameters
    ----------
    workload : HourlyWorkload, optional
        An hourly workload that replaces the day the answers describe.
    defer_tornado : bool
        Recompute the tornado on the kernel's event loop after the other figures (when one
        runs), :data:`TORNADO_DELAY_S` after the last change; False: with them.
    **values
        Starting values of :data:`INPUTS`.
    """

    def __init__(
        self, workload: HourlyWorkload | None = None, *, defer_tornado: bool = True, **values
    ) -> None:
        self.workload = workload
        self.defer_tornado = defer_tornado
        self.name = "plan"
        self.headline = w.HTML()
        self.headline.add_class("vtsmodel-plan-headline")
        self.panel = Panel(INPUTS, self._view, values=values, title=TITLE, name="07_plan")
        self.files = f = FileBar("plan")
        f.add(w.HTML("<b>Hourly workload</b>"))
        self.upload = f.upload("Upload workload…", self.load_workload, accept=".csv", max_bytes=MAX_FILE_BYTES,
                               tooltip="An hourly workload CSV (columns: hour, host_write_mb, host_read_mb, …)")  # fmt: skip
        f.button("Use the example workload", self.use_example,
                 "examples/example_hourly_workload.csv: illustrative, not measured").disabled = not EXAMPLE_WORKLOAD.exists()  # fmt: skip
        f.button("Clear workload", self.clear_workload, "Back to the day the answers describe")
        f.add(w.HTML("&nbsp;&nbsp;<b>Plan</b>"))
        f.button("Save plan", self.save, "Download the answers and workload as JSON")
        self.plan_upload = f.upload("Load plan…", self.load_plan_bytes, accept=".json", max_bytes=plan.MAX_PLAN_BYTES,
                                    tooltip="A plan file (JSON)")  # fmt: skip
        f.add(w.HTML("&nbsp;&nbsp;<b>Report</b>"))
        f.button("Report (HTML)", lambda: self.download_report("html"), "Download the report as offline HTML")
        f.button("Report (PDF)", lambda: self.download_report("pdf"), "Download the report as PDF")
        self.status = f.status
        for flag in ("recalls_given", "efficiency_given"):
            self.panel.controls[flag].observe(self._enable, names="value")
        self.widget = w.VBox([f.widget, self.headline, self.panel.widget],
                             layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip
        self._enable()
        f.say("evaluating the day the answers describe")

    # --- the evaluation ------------------------------------------------------------------------
    _handle = None
    _shown_tornado = None

    def _view(self, **values) -> View:
        view = view_plan(workload=frozen(self.workload), **values)
        tornado = view.figures["tornado"]
        if self._shown_tornado is not None and not tornado_ready(**tornado.args) and self._later():
            old = self._shown_tornado  # shown, marked, until the new one is computed
            view.figures["tornado"] = Plot(old.base, old.args, annotations=[_UPDATING])
        else:
            self._shown_tornado = tornado
        _p, vts, lib = evaluated(answers_of(values), frozen(self.workload))
        self.headline.value = (
            "<div style='background:#F5F8FC;border-left:4px solid #0072B2;padding:6px 10px;margin:4px 0'>"
            f"{html.escape(vts.headline())}<br>{html.escape(lib.headline())}</div>"
        )
        return view

    def _later(self) -> bool:
        """Schedule the tornado on the kernel's event loop (debounced); False where none runs."""
        if not self.defer_tornado:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if self._handle is not None:
            self._handle.cancel()
        self._handle = loop.call_later(TORNADO_DELAY_S, self.finish_tornado)
        return True

    def finish_tornado(self) -> None:
        """Compute the tornado of the answers shown, now."""
        self._handle = None
        self.defer_tornado, defer = False, self.defer_tornado
        try:
            self.panel.update()
        finally:
            self.defer_tornado = defer

    def result(self) -> plan.PlanResult:
        """The plan as the page shows it, evaluated with its tornado (what the report holds)."""
        values = self.panel.values
        answers, wl = answers_of(values), frozen(self.workload)
        p, vts, lib = evaluated(answers, wl)
        sens = tornado_data(tornado_key(answers), wl, vts.closest.config.label, values["fraction"])
        return plan.PlanResult(dataclasses.replace(p, name=self.name), vts, lib, sens)

    # --- the workload --------------------------------------------------------------------------
    def set_workload(self, workload: HourlyWorkload | None) -> None:
        """Evaluate ``workload`` (None: the day the answers describe) and show it."""
        self.workload = workload
        self._enable()
        self.panel.update()

    def _enable(self, _change=None) -> None:
        """Grey out what is not used: the answers a workload replaces, sliders whose switch is off."""
        c, wl = self.panel.controls, self.workload
        for k in REPLACED_BY_WORKLOAD:
            c[k].disabled = wl is not None
        c["recalls_per_hour"].disabled = wl is not None or not c["recalls_given"].value
        c["drive_efficiency"].disabled = not c["efficiency_given"].value
        c["read_hit"].disabled = wl is not None and wl.read_hit_by_mounts() is not None

    def load_workload(self, data: bytes, name: str) -> str:
        """Read an hourly workload file's bytes and evaluate it; a bad file changes nothing. Say what it is."""
        wl = read_hourly_workload(data, name=Path(name).stem)
        self.set_workload(wl)
        return f"evaluating <b>{html.escape(name)}</b> ({wl.hours} h)"

    def use_example(self) -> None:
        """Evaluate the example hourly workload (illustrative, not measured)."""
        self.files.load(EXAMPLE_WORKLOAD.name, EXAMPLE_WORKLOAD.read_bytes(),
                        lambda d, n: f"{self.load_workload(d, n)}; illustrative, not measured")  # fmt: skip

    def clear_workload(self) -> None:
        """Back to the day the answers describe."""
        self.set_workload(None)
        self.files.say("workload cleared: evaluating the day the answers describe")

    # --- the plan file -----------------------------------------------------------------------------
    def current_plan(self) -> plan.Plan:
        """The plan the page shows (answers and workload)."""
        return plan.Plan(answers_of(self.panel.values), workload=self.workload, name=self.name)

    def save(self) -> str:
        """Download the plan file (JSON, the workload embedded); return the file name."""
        return self.files.deliver("save", lambda: (f"{safe_name(self.name)}.json", plan.plan_to_json(self.current_plan())))  # fmt: skip

    def load_plan_bytes(self, data: bytes, name: str = "the plan file") -> str:
        """Show a plan file's answers and workload; a bad file (or answers off the page's ranges) changes nothing.

        A plan that references its workload by file name is loaded without it: a page reads
        no file on the server; the message says to upload it.
        """
        try:
            doc = json.loads(bytes(data).decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8, not JSON: plan_from_bytes says what is wrong
            doc = None
        ref = None
        if (
            isinstance(doc, dict)
            and isinstance(doc.get("workload"), dict)
            and set(doc["workload"]) == {"file"}
        ):
            ref, doc = doc["workload"]["file"], {**doc, "workload": None}
            new = plan.plan_from_dict(doc)
        else:
            new = plan.plan_from_bytes(bytes(data), where=name)
        values = values_of(new.answers)
        self.name, self.workload = new.name, new.workload
        self._enable()
        self.panel.set(**values)
        text = f"loaded <b>{html.escape(name)}</b> (plan {html.escape(new.name)!r})"
        if ref:
            text += (f"; it references the workload file <b>{html.escape(str(ref))}</b>, which a page cannot read "
                     "from the server: upload it")  # fmt: skip
        return text

    # --- the report --------------------------------------------------------------------------------
    def report_bytes(self, fmt: str = "html") -> tuple[str, bytes]:
        """The report of the plan shown, as ``(file name, bytes)``.

        Its tornado, like the page's, leaves out the inputs that move no answer: with all of
        them, plotly skips crowded category labels and bars stand beside other inputs' names.
        """
        result = self.result()
        result = dataclasses.replace(result, sensitivity=moving_rows(result.sensitivity))
        return f"{safe_name(self.name)}_report.{fmt}", report.report_bytes(result, fmt)

    def download_report(self, fmt: str = "html") -> str:
        """Download the report (``"html"`` or ``"pdf"``); the status names the file. Return its name ("" if it failed)."""
        return self.files.deliver("report", lambda: self.report_bytes(fmt), preparing=f"preparing the {fmt.upper()} report…")  # fmt: skip

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def planner_page(**values) -> PlannerPage:
    """The planner page at the answers' defaults (or ``values``)."""
    return PlannerPage(**values)


# --- the lesson contract and the notebook's numbers ---------------------------------------------

_FEATURE_LEVEL = {f: float(i) for i, f in enumerate(plan.FEATURE_ORDER)}


def scenario_outputs(**values) -> dict[str, float]:
    """The recommendation (cache, feature level 0 base / 1 EHPO / 2 PAF, drives), its margins, the library's drives."""
    v = scenario_values(INPUTS, SCENARIO, values)
    _p, vts, lib = evaluated(answers_of(v), None)
    rec = vts.recommended
    nan = math.nan
    out = {
        "recommended cache [GB]": rec.config.tvc_gb if rec else nan,
        "recommended feature (0 base, 1 EHPO, 2 PAF) [-]": _FEATURE_LEVEL[rec.config.feature] if rec else nan,
        "recommended drives [-]": float(rec.config.drives) if rec else nan,
    }
    for c in vts.results[0].checks:
        out[f"margin, {c.label} [{c.unit}]"] = rec.check(c.key).margin if rec else nan
    out["library drives [-]"] = float(lib.drives)
    return out


def scenario_view(**values) -> View:
    """Every figure of the page for one scenario (the day the answers describe)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return compute(view_plan, {**v, "fraction": INPUTS["fraction"].default})


def plan_numbers(**values) -> str:
    """The recommendation, its margins, what the next smaller misses and the library plan: labelled lines."""
    v = scenario_values(INPUTS, SCENARIO, values)
    view = compute(view_plan, {**v, "fraction": INPUTS["fraction"].default})
    lines = [f"{k}: {x}" for k, x in view.readouts.items() if k not in ("day evaluated",)]
    return "\n".join([*lines, f"binding: {view.binding}"])


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


_CELL = "style='text-align:left;vertical-align:top;padding:2px 8px'"


def _range(inp: Input) -> str:
    return f"one of {len(inp.options)} (the list on the page)" if len(inp.options) > 4 else inp.range_text()


def answers_table_html() -> str:
    """The answers as the page offers them: label, unit, default, the sliders' range, source."""
    rows = "".join(
        f"<tr><td {_CELL}>{html.escape(inp.label)}</td><td {_CELL}>{html.escape(inp.unit)}</td>"
        f"<td {_CELL}>{html.escape(inp.format(inp.default))}</td><td {_CELL}>{html.escape(_range(inp))}</td>"
        f"<td {_CELL}>{html.escape(_one_line(inp.source))}</td></tr>"
        for inp in INPUTS.values()
    )
    head = "".join(
        f"<th {_CELL}>{h}</th>" for h in ("answer", "unit", "default", "range on the page", "source")
    )
    return f"<table class='vtsmodel-answers'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def assumptions_html() -> str:
    """The planner's assumptions (:func:`vtsmodel.plan.assumptions`) as a table: what, the value, the source or why."""
    rows = "".join(
        f"<tr><td {_CELL}>{html.escape(a['assumption'])}</td><td {_CELL}>{html.escape(a['value'])}</td>"
        f"<td {_CELL}>{html.escape(a['source'])}</td></tr>"
        for a in plan.assumptions()
    )
    head = "".join(f"<th {_CELL}>{h}</th>" for h in ("assumption", "value", "source or reason"))
    return f"<table class='vtsmodel-assumptions'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def example_numbers() -> str:
    """The example hourly workload at the default answers: the recommendation and its margins, labelled lines."""
    wl = read_hourly_workload(EXAMPLE_WORKLOAD)
    view = compute(view_plan, {**{k: INPUTS[k].default for k in INPUTS}, "workload": frozen(wl)})
    lines = [f"{k}: {x}" for k, x in view.readouts.items()]
    return "\n".join([*lines, f"binding: {view.binding}"])


def cern_numbers() -> str:
    """CERN's sample calculation through the page's library plan (cern-tape-sizing-2005, Summary): labelled lines."""
    from vtsmodel.sizing import cern_example_drive_speed, cern_example_flows

    lib = plan.library_plan(flows=cern_example_flows(), drive_speed_mb_s=cern_example_drive_speed())
    return "\n".join(f"{k}: {x}" for k, x in library_readouts(lib).items())
