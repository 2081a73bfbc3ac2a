"""Lesson 03, recalls arriving at random: queueing theory, a seeded simulation, the drives a target needs.

Poisson recall arrivals on the recall drives: the mean wait for a drive by Cosmetatos' M/D/c
(identical recalls) or Allen-Cunneen's M/G/c, the 95th percentile, Erlang C, a simulation with
its 95 % confidence interval, and the fewest drives that keep the p95 wait under a target. The
panel is :func:`vtsmodel.app.lessons.recall.arrivals_panel` (it shares the drive, volume, CF and
drives with the queue panel). Sources: the drive catalog; the queueing results of
:mod:`vtsmodel.queueing`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel import Input, queueing, recall
from vtsmodel import quantities as q
from vtsmodel.app import cache
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    alert_note,
    figure_json,
    line_mark,
    new_figure,
    off_scale_note,
    point_mark,
)
from vtsmodel.app.lessons.parts import drive_citations
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number, percent

INPUTS = {
    "recalls_per_hour": q.RECALLS_PER_HOUR.but(lo=1.0, lo_open=False, hi=400.0, step=1.0),
    "service_cv": q.SERVICE_CV.but(hi=2.0, step=0.25),
    "target_p95_min": Input("p95 wait target", "min", 5.0, lo=0.5, hi=120.0, step=0.5,
                            source="project assumption", help="The 95th percentile wait the drive count must meet."),
}  # fmt: skip
#: Utilisations simulated, and the recalls in each run.
SIM_RHO = np.round(np.arange(0.1, 0.96, 0.05), 3)
SIM_RECALLS = 20_000
#: Utilisations the theory lines are drawn at; the wait axis ends at the p95 of :data:`_RHO_TOP`.
_RHO_AXIS = np.r_[np.linspace(0.01, 0.97, 150), np.linspace(0.972, 0.998, 14)]
_RHO_TOP = 0.97


def mean_wait(lam, s, c, cv):
    """Mean wait for a drive: Cosmetatos' M/D/c for identical recalls, Allen-Cunneen's M/G/c otherwise. [s]"""
    return queueing.wait_mdc(lam, s, c) if cv == 0 else queueing.wait_mgc(lam, s, c, cv)


def drives_for_target(lam, s, target_s, cv) -> float:
    """The fewest drives that keep the p95 wait under ``target_s`` (infinite beyond the search's 64 drives). [-]"""
    try:
        return float(queueing.recall_drives_needed(lam, s, target_s, 0.95, service_cv=cv))
    except ValueError:  # more than the search limit (64 drives)
        return math.inf


def minutes(seconds: float) -> str:
    """A wait in minutes (hours beside it from 2 h); an unbounded one in words."""
    if not math.isfinite(seconds):
        return "unbounded: the queue grows"
    m = seconds / 60.0
    return f"{number(m)} min" + (f" ({number(m / 60.0)} h)" if m >= 120.0 else "")


@dataclass(frozen=True, eq=False)
class ArrivalCurves:
    """The waits vs recalls per hour for one drive setting: theory lines and a seeded simulation.

    Attributes
    ----------
    service_s : float
        A drive's time per recall. [s]
    drives : int
    service_cv : float
        Coefficient of variation of the service time. [-]
    capacity_per_h : float
        Recalls per hour at utilisation 1. [1/h]
    theory_x, mean_min, p95_min : numpy.ndarray
        Recalls per hour [1/h] and the theory's mean and p95 wait [min] (:data:`_RHO_AXIS`).
    sim_x, sim_mean_min, sim_half_min : numpy.ndarray
        The simulated loads [1/h] (:data:`SIM_RHO`), mean waits and 95 % CI half-widths [min].
    wait_top_min : float
        The wait axis's top: the p95 at utilisation :data:`_RHO_TOP`, 8 % to spare. [min]
    """

    service_s: float
    drives: int
    service_cv: float
    capacity_per_h: float
    theory_x: np.ndarray
    mean_min: np.ndarray
    p95_min: np.ndarray
    sim_x: np.ndarray
    sim_mean_min: np.ndarray
    sim_half_min: np.ndarray
    wait_top_min: float


def arrival_curves(drive: str, volume_mb: float, cf: float, drives: int, service_cv: float) -> ArrivalCurves:
    """Mean and p95 wait vs recalls per hour: theory, and :data:`SIM_RECALLS` simulated recalls per load (seeded)."""
    s, c, cv = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive)), int(drives), float(service_cv)
    cap = 3600.0 * c / s  # recalls per hour at utilisation 1
    lam = _RHO_AXIS * c / s
    mean = np.asarray(mean_wait(lam, s, c, cv)) / 60.0
    p95 = np.asarray(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv)) / 60.0
    sims = [queueing.simulate_recalls(r * c / s, s, c, SIM_RECALLS, seed=int(r * 1000) + 7 * c, service_cv=cv)
            for r in SIM_RHO]  # fmt: skip
    return ArrivalCurves(s, c, cv, cap, _RHO_AXIS * cap, mean, p95, SIM_RHO * cap,
                         np.array([r.mean_wait for r in sims]) / 60.0, np.array([r.ci_halfwidth for r in sims]) / 60.0,
                         1.08 * float(np.interp(_RHO_TOP, _RHO_AXIS, p95)))  # fmt: skip


def arrivals_base(curves: ArrivalCurves) -> dict:
    """Mean and p95 wait vs recalls per hour: theory lines, a seeded simulation with its 95 % CI, the capacity."""
    x, m, h, cap = curves.sim_x, curves.sim_mean_min, curves.sim_half_min, curves.capacity_per_h
    fig = new_figure(title="Wait for a drive vs recalls arriving at random", xaxis_title="recalls per hour",
                     yaxis_title="wait for a drive [min]", height=400)  # fmt: skip
    fig.add_scatter(x=np.r_[x, x[::-1]], y=np.r_[m + h, (m - h)[::-1]], fill="toself", fillcolor="rgba(0,114,178,0.2)",
                    line={"width": 0}, hoverinfo="skip", name="simulation 95 % CI")  # fmt: skip
    fig.add_scatter(x=x, y=m, customdata=h, mode="markers", marker={"color": COLORS[0], "size": 7}, name="simulation mean",
                    hovertemplate="%{x:.3g}/h: %{y:.3g} ± %{customdata:.2g} min<extra>simulation</extra>")  # fmt: skip
    for y, name, line in ((curves.mean_min, "theory mean", {"color": COLORS[0]}),
                          (curves.p95_min, "theory p95", {"color": COLORS[1], "dash": "dash"})):  # fmt: skip
        fig.add_scatter(x=curves.theory_x, y=y, mode="lines", line=line, name=name,
                        hovertemplate=f"%{{x:.3g}}/h: %{{y:.3g}} min<extra>{name}</extra>")  # fmt: skip
    fig.add_vline(x=cap, line={"color": "#888", "dash": "dot"})
    # below the top edge, where a wait off the scale is drawn (point_mark with a y range)
    fig.add_annotation(x=cap, y=0.94, yref="paper", xanchor="right", yanchor="top", showarrow=False, font={"size": 11},
                       text=f"capacity {number(cap)}/h", bgcolor="rgba(255,255,255,0.85)")  # fmt: skip
    fig.update_xaxes(range=[0, 1.1 * cap])
    fig.update_yaxes(range=[0, curves.wait_top_min])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


@dataclass(frozen=True, eq=False)
class ArrivalsResult:
    """Poisson recall arrivals at one load: the waits, or why there is no steady state; the drives a target needs.

    Attributes
    ----------
    recalls_per_hour, drive, target_p95_min
        The inputs.
    curves : ArrivalCurves
        The waits at every load for the drive setting (kept per setting: a load's move reuses them).
    rho : float
        Utilisation. [-]
    mean_s, p95_s : float
        Mean and 95th-percentile wait for a drive; infinite without a steady state. [s]
    p_wait : float
        Probability that a recall waits (Erlang C); NaN without a steady state. [-]
    drives_needed : float
        The fewest drives keeping the p95 wait under the target (infinite beyond 64). [-]
    """

    recalls_per_hour: float
    drive: str
    target_p95_min: float
    curves: ArrivalCurves
    rho: float
    mean_s: float
    p95_s: float
    p_wait: float
    drives_needed: float


def evaluate_arrivals(recalls_per_hour=40.0, drive="3590B", volume_mb=250.0, cf=3.0, drives=4, service_cv=0.0,
                      target_p95_min=5.0) -> ArrivalsResult:  # fmt: skip
    """Poisson recall arrivals on ``drives`` drives: the waits at this load (theory), the curves, the drives for the target."""
    curves = cache.cached(arrival_curves, drive=drive, volume_mb=float(volume_mb), cf=float(cf), drives=int(drives),
                          service_cv=float(service_cv))  # fmt: skip
    s, c, cv, rph = curves.service_s, curves.drives, curves.service_cv, float(recalls_per_hour)
    lam = rph / 3600.0
    rho = lam * s / c
    if rho < 1.0:
        mean, p95 = float(mean_wait(lam, s, c, cv)), float(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv))  # fmt: skip
        pw = float(queueing.erlang_c(lam, s, c))
    else:
        mean = p95 = math.inf
        pw = math.nan  # Erlang C needs a steady state
    need = drives_for_target(lam, s, target_p95_min * 60.0, cv)
    return ArrivalsResult(rph, drive, float(target_p95_min), curves, rho, mean, p95, pw, need)


def view_arrivals(r: ArrivalsResult) -> View:
    """The waits at this load on the curves, or why there is none; the drives the target needs."""
    k, rph, c = r.curves, r.recalls_per_hour, r.curves.drives
    cap, xmax, ymax = k.capacity_per_h, 1.1 * k.capacity_per_h, k.wait_top_min
    # the target line is unnamed: the sheet's overlays read named shapes as point marks
    shapes = [line_mark(y=r.target_p95_min, color=COLORS[2], width=2)]
    labels = [{"x": 1, "xref": "paper", "y": r.target_p95_min, "xanchor": "right", "yanchor": "bottom", "showarrow": False,
               "text": f"p95 target {number(r.target_p95_min)} min", "font": {"size": 11, "color": COLORS[2]}}]  # fmt: skip
    if r.rho < 1.0:
        shapes += [point_mark(rph, r.mean_s / 60, color="black", name="mean wait, this load", y_range=(0, ymax)),
                   point_mark(rph, r.p95_s / 60, color=COLORS[1], symbol="square", name="p95 wait, this load",
                              y_range=(0, ymax))]  # fmt: skip
        labels += [note for j, (what, w) in enumerate((("mean", r.mean_s), ("p95", r.p95_s)))
                   for note in off_scale_note(rph, w / 60, (0, ymax), f"{what} {minutes(w)}: off the scale", stack=j)]  # fmt: skip
    else:
        labels.append(alert_note(rph, f"{number(rph)}/h is beyond the capacity, {number(cap)}/h:<br>no steady state, "
                                 "the queue grows", x_max=xmax, y=0.5))  # fmt: skip
    i = int(np.argmin(np.abs(k.sim_x - rph)))
    model = "Cosmetatos' M/D/c" if k.service_cv == 0 else "Allen-Cunneen's M/G/c"
    need = r.drives_needed
    readouts = {
        "drive busy per recall": minutes(k.service_s),
        "utilisation ρ": number(r.rho),
        "P(a recall waits), Erlang C": percent(r.p_wait) if r.rho < 1.0 else "all (no steady state)",
        "mean wait for a drive": minutes(r.mean_s),
        "p95 wait for a drive": minutes(r.p95_s),
        f"simulated mean at {number(k.sim_x[i])}/h": f"{number(k.sim_mean_min[i])} ± {number(k.sim_half_min[i], 2)} min",
        "drives for the p95 target": number(need) if math.isfinite(need) else "more than 64",
    }  # fmt: skip
    if r.rho >= 1.0:
        binding = (f"Utilisation ρ = {number(r.rho)} ≥ 1: recalls arrive faster than {c} drive(s) serve them "
                   f"({number(cap)} per hour); the queue grows without limit: add drives or cut the load.")  # fmt: skip
    elif math.isfinite(need):
        binding = f"Mean wait by {model}; {number(need)} drive(s) keep the p95 wait under {number(r.target_p95_min)} min."
    else:
        binding = f"Mean wait by {model}; no drive count up to 64 keeps the p95 wait under {number(r.target_p95_min)} min."
    return View(figures={"arrivals": Plot(arrivals_base, {"curves": k}, shapes=shapes, annotations=labels)},
                readouts=readouts, binding=binding, citations=drive_citations(r.drive))  # fmt: skip


#: The arrivals panel's stage.
ARRIVALS = Stage(evaluate_arrivals, view_arrivals)


def reference_waits(rho: float = 0.8, service_s: float = 180.0, servers: int = 4) -> str:
    """Erlang C and the M/M/c, M/D/c and M/G/c (cv 0) mean waits at one load: labelled lines."""
    lam = rho * servers / service_s
    head = f"{servers} drives, service {number(service_s)} s, utilisation {number(rho)}"
    return "\n".join([
        f"{head}: probability of waiting (Erlang C) {number(queueing.erlang_c(lam, service_s, servers))}",
        f"mean wait, M/M/{servers} (exact): {number(queueing.wait_mmc(lam, service_s, servers), 4)} s",
        f"mean wait, M/D/{servers} (Cosmetatos): {number(queueing.wait_mdc(lam, service_s, servers), 4)} s",
        f"mean wait, M/G/{servers} at cv 0 (Allen-Cunneen): {number(queueing.wait_mgc(lam, service_s, servers, 0.0), 4)} s",
    ])  # fmt: skip
