"""Lesson 07, the configurations: every VTS B18 configuration evaluated against the targets.

The evaluation of the page's answers, workload and mount log (kept for the last few settings,
so the view and the figure bases evaluate once; a log is keyed by its identity), the figure of every configuration's numbers with the targets and
the recommended configuration as moving shapes, the recommended configuration's day, and the
targets' readouts and the binding sentence. The page is :mod:`vtsmodel.app.lessons.planner`.
Sources: ibm-vts-b18-2000, Secs. 8.3 and 8.4.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from vtsmodel import plan
from vtsmodel.app import report
from vtsmodel.app.figures import COLORS, figure_json, line_mark, point_mark
from vtsmodel.app.lessons.hit_curve import LogSource, curve_of
from vtsmodel.app.text import number
from vtsmodel.hourly import HourlyWorkload

#: Evaluations kept (settings x workloads x mount logs): the view and the figure bases share them.
KEEP = 8
#: Answers that only check a result (not what the models compute for a configuration).
TARGETS = ("throttle_hours_allowed", "delay_hours_allowed", "recall_target_s", "virtual_drives_needed")
#: Answers only the tape-library plan depends on.
LIBRARY_ONLY = ("library_drive", "peak_factor", "files_per_mount")


def frozen(workload: HourlyWorkload | None):
    """A workload as a hashable tuple (a figure base's argument), or None."""
    if workload is None:
        return None
    return (workload.name, workload.notes, tuple((k, tuple(v.tolist())) for k, v in workload.columns.items()))


def thaw(key) -> HourlyWorkload | None:
    """The workload of :func:`frozen`'s tuple, or None."""
    return None if key is None else HourlyWorkload(key[0], dict(key[2]), key[1])


def hits_of(log: LogSource | None):
    """The read-hit curve of a mount log (:func:`~.hit_curve.curve_of`, no warm-up, as the CLI's), or None."""
    return None if log is None else curve_of(log, 0.0)


def answers_key(answers: plan.Answers, drop=()) -> tuple:
    """``answers`` as a hashable tuple of ``(name, value)``, without those in ``drop``."""
    return tuple((k, v) for k, v in answers.to_dict().items() if k not in drop)


_evaluations: OrderedDict = OrderedDict()


def kept(cache: OrderedDict, key, make):
    """``cache[key]``, made by ``make()`` when missing; the cache keeps the last :data:`KEEP` keys."""
    if key not in cache:
        cache[key] = make()
        if len(cache) > KEEP:
            cache.popitem(last=False)
    cache.move_to_end(key)
    return cache[key]


def _vts_for(slow: tuple, workload, log=None, drop=TARGETS + LIBRARY_ONLY) -> plan.VtsPlan | None:
    """A VTS plan already evaluated, of the same workload and log, whose answers differ at most in ``drop``.

    The configurations' numbers do not depend on the targets and the library's answers
    (only their checks do).
    """
    for (a, wl, lg), (_p, vts, _l) in reversed(_evaluations.items()):
        if wl == workload and lg is log and answers_key(a, drop) == slow:
            return vts
    return None


def evaluated(
    answers: plan.Answers, workload=None, log: LogSource | None = None
) -> tuple[plan.Plan, plan.VtsPlan, plan.LibraryPlan]:
    """The plan of ``answers``, a workload (frozen, :func:`frozen`) and a mount log, its VTS plan and library plan.

    With a log, each configuration gets its own read-hit ratio (:func:`hits_of`). Kept for
    the last :data:`KEEP` settings, so the view and the figure bases evaluate once; a change
    of the library's answers alone evaluates the library only.
    """

    def make():
        p = plan.Plan(answers, workload=thaw(workload), hits=hits_of(log), mount_log_file=log and log.name)
        vts = _vts_for(answers_key(answers, LIBRARY_ONLY), workload, log, LIBRARY_ONLY)
        return p, vts or plan.vts_plan(p), plan.library_plan(p)

    return kept(_evaluations, (answers, workload, log), make)


# --- figure bases ------------------------------------------------------------------------------


def _evaluate(answers: tuple, workload, log) -> plan.VtsPlan:
    return _vts_for(answers, workload, log) or evaluated(plan.Answers(**dict(answers)), workload, log)[1]


def tidy(fig, *, height: int, legend_rows: int, bottom: int) -> dict:
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


def configurations_base(answers: tuple, workload, log: LogSource | None = None) -> dict:
    """Every configuration's numbers (:func:`~vtsmodel.app.report.configurations_figure`), without the target lines.

    ``answers`` leaves out the targets and the library's answers (:data:`TARGETS`,
    :data:`LIBRARY_ONLY`): the targets are drawn as moving shapes (:func:`target_shapes`).
    """
    fig = report.configurations_figure(_evaluate(answers, workload, log))
    fig.layout.shapes = ()
    fig.layout.annotations = [a for a in fig.layout.annotations if a.xref == "paper"]  # the subplot titles
    if fig.layout.yaxis2.type == "log":  # plotly's minor log labels (2, 3, … 9) crowd: 1, 2, 5 per decade
        ticks = [m * 10.0**e for e in range(6) for m in (1, 2, 5)]
        fig.update_yaxes(tickmode="array", tickvals=ticks, ticktext=[number(t) for t in ticks], row=2, col=1)
    return tidy(fig, height=660, legend_rows=1, bottom=120)


def day_base(configuration: str, answers: tuple, workload, log: LogSource | None = None) -> dict:
    """The day of one configuration (:func:`~vtsmodel.app.report.day_figure`)."""
    fig = report.day_figure(_evaluate(answers, workload, log).result(configuration))
    return tidy(fig, height=620, legend_rows=2, bottom=60)


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
        shapes.append(line_mark(y=limit, yref=yref, color=color, dash=dash, name=f"{text} {number(limit)}"))
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


# --- readouts ----------------------------------------------------------------------------------


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
    return vts.headline().removeprefix(
        f"Recommended: {rec.config.label}, with {vts.channels} ESCON channels. "
    )


def vts_readouts(p: plan.Plan, vts: plan.VtsPlan, from_workload: bool) -> dict[str, str]:
    """The recommendation (or the closest configuration) in words: each target, time at peak, the day evaluated."""
    best, day = vts.closest, vts.day
    basis = ", answered" if day["read hit basis"] == "answer" else f", from the {day['read hit basis']}"
    if p.hits is not None:
        basis = f" at {number(best.config.tvc_gb)} GB, from the mount log {p.mount_log_file}"
    return {
        "recommended": best.config.label if vts.recommended else f"none (closest: {best.config.label})",
        **{c.label: check_readout(c) for c in best.checks},
        "time at peak": f"{number(best.hours_at_peak)} h",
        "peak / sustained write": f"{number(best.peak_mb_s)} / {number(best.sustained_mb_s)} MB/s "
        f"with {vts.channels} ESCON channels",
        "sustained write bound by": best.binding_resource,
        "day evaluated": f"{p.day().name if from_workload else 'the answers'} ({day['hours [h]']} h)",
        "read hit ratio used": f"{number(day['read hit ratio [-]'])}{basis}",
        "recalls in the busiest hour": f"{number(day['busiest recall hour [1/h]'])} per hour",
    }
