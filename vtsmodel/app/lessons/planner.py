"""Lesson 07: plan a system from a workload (the open Tape Magic and Consul Batch Magic).

The page on :mod:`vtsmodel.plan`: the answers as controls, an hourly workload file (uploaded,
or the example) that replaces the day they describe, a mount log that gives each configuration
its own read-hit ratio (:mod:`~vtsmodel.app.lessons.plan_files`), every VTS B18 configuration
evaluated on every change, the recommendation with its margin on each target, what the next smaller
configuration misses, the tape-library plan and what governs it, the sensitivity of each
answer, and the plan file and the report as downloads (ibm-vts-b18-2000, Secs. 8.3 and 8.4;
cern-tape-sizing-2005).

One stage (:data:`STAGE`): :func:`evaluate_plan` evaluates the answers, the workload and the
mount log once per setting (:class:`~vtsmodel.app.lessons.configurations.PlanEvaluation`), and
every figure, readout, scenario row and the report read that evaluation. Figures
(:mod:`vtsmodel.app.figures.plan`): every configuration against the targets (a base kept per
the configurations' numbers; the targets and the recommended configuration are moving marks),
the library's cartridges against its slots over the years (beside the library's answers), the
recommended configuration's day and the tornado (computed after the rest).
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Callable
from pathlib import Path

import ipywidgets as w

from vtsmodel import Input, catalog, plan
from vtsmodel.app import cache
from vtsmodel.app.downloads import FileBar, safe_name
from vtsmodel.app.figures import Plot, html_table, inputs_table_html
from vtsmodel.app.figures import plan as plan_figures
from vtsmodel.app.figures.library import capacity_plot
from vtsmodel.app.lessons import configurations as cfg
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.lessons import sensitivity as sens
from vtsmodel.app.lessons.hit_curve import LogSource
from vtsmodel.app.lessons.plan_files import MountLogFiles, log_caption, read_plan, references_text
from vtsmodel.app.lessons.tape_library import library_readouts
from vtsmodel.app.panels import Panel, Stage, View
from vtsmodel.files import example_file
from vtsmodel.hourly import MAX_FILE_BYTES, HourlyWorkload, read_hourly_workload

LESSON_ID = "07"
TITLE = "Plan a system from a workload"
NOTEBOOK = "07_plan_a_system.ipynb"

#: The example hourly workload (illustrative, not measured), where this copy of vtsmodel has it.
EXAMPLE_WORKLOAD = example_file("example_hourly_workload.csv")
_PAGE = "project assumption (the page's switch)"

_A = plan.answer_inputs()
#: The prices a plan may hold (yours only: none is invented).
PRICES = ("price_drive", "price_cartridge", "price_frame", "price_support_per_year")
#: The library's values a plan may give where no document does.
STAND_INS = ("slots_base", "slots_per_expansion")


def _switch(label: str, help: str) -> Input:
    return Input(label, "", False, source=_PAGE, help=help)


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
    "escon_channels": _A["escon_channels"],
    "library_drive": _A["library_drive"],
    "virtual_drives_needed": _A["virtual_drives_needed"].but(hi=256),
    # the library over the years
    "library": _A["library"],
    "years": _A["years"].but(hi=20, step=1),
    "stored_now_tb": _A["stored_now_tb"].but(hi=100_000.0, step=100.0),
    "growth_given": _switch("TB written a year given", "Off: the day's host writes × 365.25; on: the slider below."),
    "growth_tb_per_year": _A["growth_tb_per_year"].but(default=1000.0, hi=100_000.0, step=100.0, optional=False),
    "ingest_growth": _A["ingest_growth"].but(hi=1.0, step=0.05),
    "growth_rate": _A["growth_rate"].but(hi=1.0, step=0.05),
    "retention_years": _A["retention_years"].but(hi=30, step=1),
    "copies": _A["copies"].but(hi=3),
    "offsite_copies": _A["offsite_copies"].but(hi=2),
    "library_compression": _A["library_compression"].but(lo=0.5, hi=3.0, step=0.05),
    "fill_efficiency": _A["fill_efficiency"].but(lo=0.5, step=0.01),
    "reclaim_reserve": _A["reclaim_reserve"].but(hi=0.5, step=0.01),
    "robots_given": _switch("robots given", "Off: as many as the mounts need, within the family's documents; on: the slider."),
    "robots": _A["robots"].but(default=2, hi=16, optional=False),
    "robot_move_given": _switch("robot move time given", "Off: the family's document, else CERN's 22.5 s; on: the slider."),
    "robot_move_s": _A["robot_move_s"].but(default=10.0, lo=1.0, hi=60.0, step=0.5, optional=False),
    **{f"{k}_given": _switch(f"{_A[k].label} given", "For a family whose documents do not give them (the TS4500): "
                             "on, the slider below.") for k in STAND_INS},
    "slots_base": _A["slots_base"].but(default=500, hi=10_000, step=1, optional=False),
    "slots_per_expansion": _A["slots_per_expansion"].but(default=500, hi=10_000, step=1, optional=False),
    **{f"{k}_given": _switch(f"{_A[k].label} given", "Off: not shown (no price is invented); on: your price.")
       for k in PRICES},
    **{k: _A[k].but(default=0.0, hi=1e6, step=1.0, optional=False) for k in PRICES},
    "fraction": Input("tornado: ± fraction", "-", 0.2, lo=0.05, hi=0.5, step=0.05,
                      source="project assumption", help="Each input moved down and up by this share of its value."),
}  # fmt: skip
#: The answers a scenario holds (with the switches); the tornado's move is the page's.
SCENARIO = tuple(k for k in INPUTS if k != "fraction")
_ANSWERS = tuple(_A)
#: Each switch and the answer it gives (off: the answer is left empty, then derived or not shown).
SWITCHES = {
    "recalls_given": "recalls_per_hour", "efficiency_given": "drive_efficiency", "growth_given": "growth_tb_per_year",
    "robots_given": "robots", "robot_move_given": "robot_move_s", **{f"{k}_given": k for k in STAND_INS + PRICES},
}  # fmt: skip
#: The answers an hourly workload replaces (its writes, reads and recall mounts).
REPLACED_BY_WORKLOAD = ("write_gb_per_day", "write_window_hours", "write_start_hour", "read_gb_per_day",
                        "read_window_hours", "read_start_hour", "recalls_given", "recalls_per_hour")  # fmt: skip


# --- answers, workloads and their evaluation ---------------------------------------------------


def answers_of(values) -> plan.Answers:
    """The :class:`~vtsmodel.plan.Answers` of the page's values (the switches empty the optional ones)."""
    a = {k: values[k] for k in _ANSWERS if k in values}
    for switch, key in SWITCHES.items():
        if not values.get(switch, False):
            a[key] = None
    return plan.Answers(**a)


def values_of(answers: plan.Answers) -> dict:
    """The page's values of ``answers``, each checked against the page's range (``ValueError`` naming it)."""
    given = answers.to_dict()
    out = {switch: given[key] is not None for switch, key in SWITCHES.items()}
    return out | {k: INPUTS[k].parse(k, v) for k, v in given.items() if v is not None}


# --- the stage: the answers evaluated, the view of the evaluation -------------------------------


def evaluate_plan(
    workload: HourlyWorkload | None = None, log: LogSource | None = None, **values
) -> cfg.PlanEvaluation:
    """The plan of the page's values (:data:`SCENARIO`), an hourly workload (or None) and a mount log (or None)."""
    return cfg.evaluate(answers_of(values), workload, log)


def view_plan(e: cfg.PlanEvaluation, fraction: float = 0.2, tornado: Plot | None = None) -> View:
    """The plan evaluated: the recommendation (the headline), its margins, the library, the figures.

    The tornado moves each answer by ``fraction`` (or is ``tornado``: the page draws it after
    the rest, :class:`~vtsmodel.app.lessons.sensitivity.DeferredTornado`).
    """
    p, vts, lib = e.plan, e.vts, e.library
    if e.feed_mb_s is not None and lib.drive is not None:
        catalog.warn_streaming(
            lib.drive, e.feed_mb_s, compression_ratio=p.answers.cf
        )  # a note when it cannot stream
    # In the page's order: the capacity figure second, beside the library's answers (years, growth, ...)
    # in the column of controls, so that it is on the screen while they move.
    figures = {
        "configurations": configurations_plot(vts),
        "capacity": capacity_plot(lib.over_years and lib.over_years.years, citations=lib.sources),
        "day": Plot(cfg.day_base, {"result": vts.closest}),
        "tornado": tornado or sens.tornado_plot(e.sensitivity(fraction)),
    }  # fmt: skip
    readouts = {**cfg.vts_readouts(e), **library_readouts(lib, e.feed_mb_s, p.answers.cf)}
    a = p.answers
    caption = {"day evaluated": p.day().name if p.workload is not None else "the day the answers describe"}
    for key in SWITCHES.values():
        if getattr(a, key) is None:
            caption[INPUTS[key].header] = plan.EMPTY_MEANS[key]
    if p.workload is not None:
        caption.update({INPUTS[k].header: "replaced by the workload" for k in REPLACED_BY_WORKLOAD})
    caption.update(log_caption(e.log))
    return View(figures=figures, readouts=readouts, binding=cfg.binding_sentence(vts),
                notes=tuple(dict.fromkeys(vts.notes + lib.notes)), headline=f"{vts.headline()}\n{lib.headline()}",
                caption_values=caption, citations=tuple(dict.fromkeys(vts.sources + lib.sources)))  # fmt: skip


def configurations_plot(vts: plan.VtsPlan) -> Plot:
    """Every configuration's numbers against the targets (the targets and the recommendation as moving marks).

    Made once per VTS plan (:mod:`vtsmodel.app.cache`): the page's lead and its view share it.
    """
    return cache.cached(_configurations_plot, vts=vts)


def _configurations_plot(vts: plan.VtsPlan) -> Plot:
    shapes, labels, points = plan_figures.target_marks(vts)
    return Plot(cfg.configurations_base, {"numbers": cfg.ConfigurationNumbers(vts)}, traces=points,
                shapes=shapes, annotations=labels, layout=plan_figures.value_axes(vts))  # fmt: skip


def lead_plan(
    workload: HourlyWorkload | None = None, log: LogSource | None = None, **values
) -> dict[str, Plot]:
    """The configurations' figure of the page's values, from the VTS plan alone (:func:`~.configurations.vts_of`).

    The page sends it before the library is planned: the evaluation that follows finds the
    VTS plan kept (:attr:`~vtsmodel.app.panels.Stage.lead`).
    """
    return {"configurations": configurations_plot(cfg.vts_of(answers_of(values), workload, log))}


#: What the plan's evaluation reads: the answers with their two switches, the workload, the mount log.
STAGE = Stage(evaluate_plan, view_plan, reads=(*SCENARIO, "workload", "log"), lead=lead_plan)


# --- the page --------------------------------------------------------------------------------


class PlannerPage:
    """The planner: the answers' panel, an hourly workload, the plan file and the report.

    Parameters
    ----------
    workload : HourlyWorkload, optional
        An hourly workload that replaces the day the answers describe.
    log : LogSource, optional
        A mount log: each configuration gets its own read-hit ratio from it.
    defer_tornado : bool
        Recompute the tornado on the kernel's event loop after the other figures (when one
        runs; :class:`~vtsmodel.app.lessons.sensitivity.DeferredTornado`); False: with them.
    report : callable, optional
        ``report(result, fmt) -> bytes``, a report of a :class:`~vtsmodel.plan.PlanResult` as
        ``"html"`` or ``"pdf"`` (:func:`vtsmodel.app.report.report_bytes`): the page offers
        the report's downloads with it.
    **values
        Starting values of :data:`INPUTS`.
    """

    def __init__(self, workload: HourlyWorkload | None = None, *, log: LogSource | None = None,
                 defer_tornado: bool = True, report: Callable[[plan.PlanResult, str], bytes] | None = None,
                 **values) -> None:  # fmt: skip
        self.workload, self.log, self.report = workload, log, report
        self.tornado = sens.DeferredTornado(lambda: self.panel.update(), defer=defer_tornado)
        self.name_box = w.Text(value="plan", description="Plan name", placeholder="a name for the plan and its report",
                               tooltip="Names the plan file, the report and its title", layout=w.Layout(width="320px"))  # fmt: skip
        self.name_box.add_class("vtsmodel-plan-name")
        self.panel = Panel(INPUTS, Stage(evaluate_plan, self._view, reads=STAGE.reads, lead=lead_plan), values=values,
                           state=lambda: {"workload": self.workload, "log": self.log}, title=TITLE, name="07_plan")  # fmt: skip
        self.files = f = FileBar("plan")
        f.add(w.HTML("<b>Hourly workload</b>"))
        self.upload = f.upload("Upload workload…", self.load_workload, accept=".csv", max_bytes=MAX_FILE_BYTES,
                               tooltip="An hourly workload CSV (columns: hour, host_write_mb, host_read_mb, …)")  # fmt: skip
        f.button("Use the example workload", self.use_example,
                 "examples/example_hourly_workload.csv: illustrative, not measured").disabled = not EXAMPLE_WORKLOAD.exists()  # fmt: skip
        f.button("Clear workload", self.clear_workload, "Back to the day the answers describe")
        self.logs = MountLogFiles(f, self.set_log)
        f.add(w.HTML("<b>Plan</b>"), self.name_box)
        f.button("Save plan", self.save, "Download the answers and workload as JSON")
        self.plan_upload = f.upload("Load plan…", self.load_plan_bytes, accept=".json", max_bytes=plan.MAX_PLAN_BYTES,
                                    tooltip="A plan file (JSON)")  # fmt: skip
        if report is not None:
            f.add(w.HTML("&nbsp;&nbsp;<b>Report</b>"))
            f.button(
                "Report (HTML)", lambda: self.download_report("html"), "Download the report as offline HTML"
            )
            f.button("Report (PDF)", lambda: self.download_report("pdf"), "Download the report as PDF")
        self.status = f.status
        for flag in SWITCHES:
            self.panel.controls[flag].observe(self._enable, names="value")
        self.widget = w.VBox([f.widget, self.panel.widget],
                             layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip
        self._enable()
        f.say("evaluating the day the answers describe")

    @property
    def name(self) -> str:
        """The plan's name as typed (``"plan"`` when the box is empty)."""
        return " ".join(self.name_box.value.split())[:200] or "plan"

    @name.setter
    def name(self, value: str) -> None:
        self.name_box.value = value

    # --- the evaluation ------------------------------------------------------------------------
    def _view(self, e: cfg.PlanEvaluation, fraction: float = 0.2) -> View:
        """:func:`view_plan`, its tornado drawn after the rest when it is not computed yet."""
        return view_plan(e, fraction, tornado=self.tornado.shown(e, fraction))

    def result(self) -> plan.PlanResult:
        """The plan as the page shows it (the panel's evaluation), with its tornado: what the report holds."""
        e = self.panel.result
        sensitivity = e.sensitivity(self.panel.values["fraction"])
        return plan.PlanResult(dataclasses.replace(e.plan, name=self.name), e.vts, e.library, sensitivity)

    # --- the workload --------------------------------------------------------------------------
    def set_workload(self, workload: HourlyWorkload | None) -> None:
        """Evaluate ``workload`` (None: the day the answers describe) and show it."""
        self.workload = workload
        self._enable()
        self.panel.update()

    def set_log(self, log: LogSource | None) -> None:
        """Evaluate each configuration with its own read hits from ``log`` (None: the answered ratio)."""
        self.log = log
        self._enable()
        self.panel.update()

    def _enable(self, _change=None) -> None:
        """Grey out what is not used: the answers a workload or a mount log replaces, sliders whose switch is off."""
        c, wl, log = self.panel.controls, self.workload, self.log
        for k in REPLACED_BY_WORKLOAD:
            c[k].disabled = wl is not None
        c["recalls_given"].disabled = wl is not None or log is not None
        for switch, key in SWITCHES.items():
            c[key].disabled = c[switch].disabled or not c[switch].value
        c["read_hit"].disabled = log is not None or (wl is not None and wl.read_hit_by_mounts() is not None)

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
        """The plan the page shows (answers, workload and mount log)."""
        p = cfg.the_plan(answers_of(self.panel.values), self.workload, self.log)
        return dataclasses.replace(p, name=self.name)

    def save(self) -> str:
        """Download the plan file (JSON, the workload embedded, the mount log referenced by name); return the file name."""
        return self.files.deliver("save", lambda: (f"{safe_name(self.name)}.json", plan.plan_to_json(self.current_plan())))  # fmt: skip

    def load_plan_bytes(self, data: bytes, name: str = "the plan file") -> str:
        """Show a plan file's answers and workload; a bad file (or answers off the page's ranges) changes nothing.

        A plan that references its workload or its mount log by file name is loaded without
        it (:func:`~.plan_files.read_plan`: a page reads no file on the server); the message
        says to upload it. The mount log shown before is cleared; the next one uploaded is read
        as the plan file says (its ``mount_log.reading``: the reading boxes set to it).
        """
        new, refs = read_plan(data, name)
        if not new.vts or new.library_flows:
            raise ValueError(
                f"{name} plans a tape library alone or with flows of its own; this page plans a VTS and a library "
                "from the day's answers: run vtsmodel plan on the file (nothing changed)"
            )
        values = values_of(new.answers)
        self.name, self.workload, self.log = new.name, new.workload, None
        self._enable()
        self.panel.set(**values)
        if "mount log" in refs:
            read_as = self.logs.expect(new.mount_log_reading)
        else:
            self.logs.plan_reading, read_as = {}, ""
        return f"loaded <b>{html.escape(name)}</b> (plan {html.escape(new.name)!r}){references_text(refs)}{read_as}"

    # --- the report --------------------------------------------------------------------------------
    def report_bytes(self, fmt: str = "html") -> tuple[str, bytes]:
        """The report of the plan shown, as ``(file name, bytes)``.

        Its tornado, like the page's, leaves out the inputs that move no answer: with all of
        them, plotly skips crowded category labels and bars stand beside other inputs' names.
        """
        if self.report is None:
            raise ValueError("this page was made without a report (planner_page(report=...))")
        result = self.result()
        result = dataclasses.replace(result, sensitivity=sens.moving_rows(result.sensitivity))
        return f"{safe_name(self.name)}_report.{fmt}", self.report(result, fmt)

    def download_report(self, fmt: str = "html") -> str:
        """Download the report (``"html"`` or ``"pdf"``); the status names the file. Return its name ("" if it failed)."""
        return self.files.deliver("report", lambda: self.report_bytes(fmt), preparing=f"preparing the {fmt.upper()} report…")  # fmt: skip

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def planner_page(report: Callable[[plan.PlanResult, str], bytes] | None = None, **values) -> PlannerPage:
    """The planner page at the answers' defaults (or ``values``), offering ``report``'s downloads (see :class:`PlannerPage`)."""
    return PlannerPage(report=report, **values)


# --- the lesson contract and the notebook's numbers ---------------------------------------------

_FEATURE_LEVEL = {f: float(i) for i, f in enumerate(plan.FEATURE_ORDER)}


def scenario_outputs(**values) -> dict[str, float]:
    """The recommendation (cache, feature level 0 base / 1 EHPO / 2 PAF, drives), its margins, the library's drives."""
    e = STAGE.result(scenario_values(INPUTS, SCENARIO, values))
    vts, lib = e.vts, e.library
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
    return STAGE.show(scenario_values(INPUTS, SCENARIO, values))


def plan_numbers(**values) -> str:
    """The recommendation, its margins, what the next smaller misses and the library plan: labelled lines."""
    return _lines(STAGE.show(scenario_values(INPUTS, SCENARIO, values)), skip=("day evaluated",))


def _lines(view: View, skip=()) -> str:
    return "\n".join(
        [*(f"{k}: {x}" for k, x in view.readouts.items() if k not in skip), f"binding: {view.binding}"]
    )


def answers_table_html() -> str:
    """The answers as the page offers them: label, unit, default, the sliders' range, source."""
    return inputs_table_html(INPUTS, what="answer", css_class="vtsmodel-answers")


def assumptions_html() -> str:
    """The planner's assumptions (:func:`vtsmodel.plan.assumptions`) as a table: what, the value, the source or why."""
    rows = [(a["assumption"], a["value"], a["source"]) for a in plan.assumptions()]
    return html_table(("assumption", "value", "source or reason"), rows, css_class="vtsmodel-assumptions")


def example_numbers() -> str:
    """The example hourly workload at the default answers: the recommendation and its margins, labelled lines."""
    wl = read_hourly_workload(EXAMPLE_WORKLOAD)
    return _lines(STAGE.show({**{k: INPUTS[k].default for k in SCENARIO}, "workload": wl}))
