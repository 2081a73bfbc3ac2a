"""Lesson 03: recall response time, from the paper's best case and Fig. 6 to queueing theory.

Four panels: the parts of one recall (:func:`parts_panel`), the recall response time vs
the queue ahead, the Fig. 6 question (:func:`queue_panel`), recalls arriving at random
(:func:`arrivals_panel`: theory, simulation, drives for a target) and the mount response
time of sessions sharing one robot (:func:`robot_panel`). Each figure is a cached base
(curves, cited points) and moving marks. Sources: ibm-vts-b18-2000, cern-tape-sizing-2005,
stk-acs4400-cray and the drive catalog.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from vtsmodel import catalog, queueing, recall, robot
from vtsmodel import quantities as q
from vtsmodel._inputs import Input
from vtsmodel._tables import load
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    base_spec,
    figure_json,
    new_figure,
    point_mark,
    source_markers,
    trace_named,
)
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import number, percent

LESSON_ID = "03"
TITLE = "Recall response time: from the paper's estimate to queueing theory"
NOTEBOOK = "03_recall_queue_mount_time.ipynb"

_VTS = load("vts_facts")
#: Fig. 6's volume sizes. [MB]
FIG6_SIZES = tuple(_VTS.value(f"fig6_volume_mb_{k}") for k in ("small", "medium", "large"))
#: The paper's best case, "approximately two to three minutes" (Sec. 3.4). [s]
BEST_CASE_S = (_VTS.value("recall_mount_best_low"), _VTS.value("recall_mount_best_high"))
#: The paper's own settings (the 3494 VTS's presets of :func:`vtsmodel.recall.drive_preset`),
#: then every catalog drive, by family and generation.
DRIVE_CHOICES = (
    ("VTS B18, IBM 3590 B (Fig. 6)", "3590B"),
    ("VTS B18, IBM 3590 E", "3590E"),
    *catalog.drive_options(),
)
_VTS_DRIVES = ("3590B", "3590E")
_PARTS = {"robot": "robot fetch", "load": "load/thread", "overhead": "rest of mount cycle",
          "search": "search", "read": "read volume", "rewind_unload": "rewind/unload"}  # fmt: skip
_PART_INPUTS = ("robot_s", "load_s", "overhead_s", "search_s", "rewind_unload_s")
_P = recall.drive_preset("3590B")


def _part(label: str, key: str, hi: float, step: float, source: str, help: str) -> Input:
    return Input(label, "s", round(_P[key], 6), lo=0.0, hi=hi, step=step, source=source, help=help)


_CERN = "cern-tape-sizing-2005, tMount (borrowed: 'for 9940 type drives')"
_EQUATIONS = tuple((f"{p.locator} ({t}), {p.printed} min", t) for t in recall.MOUNT_EQUATIONS
                   for p in [load("vts_import_export").provenance(f"{t}_per_mount")])  # fmt: skip
INPUTS = {
    "drive": Input("drive", "", "3590B", choices=DRIVE_CHOICES, source="data/drive_catalog.csv",
                   help="The recall drive: the paper's 3494 VTS with 3590s, or any catalog drive."),
    "mount_equation": Input("3494 mount cycle", "", "export", choices=_EQUATIONS, source="ibm-vts-b18-2000, Sec. 7",
                            help="Whose per-mount term is one 3494 VTS mount cycle (the 3590 settings only)."),
    "volume_mb": q.VOLUME_MB.but(lo=10.0, lo_open=False, hi=4000.0, step=10.0),
    "cf": q.CF.but(hi=4.0, step=0.1),
    "robot_s": _part("robot fetch", "robot_s", 120.0, 0.5, _CERN, "Cartridge from its cell to the drive."),
    "load_s": _part("load/thread", "load_s", 120.0, 0.5, _CERN, "Load and thread to ready."),
    "overhead_s": _part("rest of mount cycle", "overhead_s", 200.0, 0.1,
                        "project assumption (ibm-vts-b18-2000, Eq. 1 per mount minus the borrowed parts)",
                        "The 3494 VTS's own mount cost not in the other parts."),
    "search_s": _part("search", "search_s", 120.0, 0.5, "ibm-vts-b18-2000, Sec. 7 (about 21 s)",
                      "Locate the volume on the stacked cartridge."),
    "rewind_unload_s": _part("rewind/unload", "rewind_unload_s", 120.0, 0.5, _CERN,
                             "After the read: the drive stays busy, the recall is already ready."),
    "drives": q.DRIVES.but(hi=16),
    "queue_length": q.QUEUE_LENGTH.but(hi=200),
    "recalls_per_hour": q.RECALLS_PER_HOUR.but(lo=1.0, lo_open=False, hi=400.0, step=1.0),
    "service_cv": q.SERVICE_CV.but(hi=2.0, step=0.25),
    "target_p95_min": Input("p95 wait target", "min", 5.0, lo=0.5, hi=120.0, step=0.5,
                            source="project assumption", help="The 95th percentile wait the drive count must meet."),
    "sessions": q.SESSIONS.but(hi=32),
    "think_s": Input("time between mounts", "s", 0.0, lo=0.0, hi=120.0, step=1.0,
                     source="project assumption (stk-acs4400-cray does not state it)",
                     help="A session's time between its mounts (0: back to back)."),
    "calib_sessions": Input("sessions behind 52.15 s", "-", 4, lo=2, hi=8, integer=True,
                            source="stk-acs4400-cray, Test Results f. ('as many as four')",
                            help="How many sessions ran while StorageTek measured its 52.15 s average."),
}  # fmt: skip
SCENARIO = ("volume_mb", "cf", "drive", "drives", "queue_length", "recalls_per_hour", "service_cv",
            "target_p95_min", "sessions")  # fmt: skip


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


def _minutes(seconds: float) -> str:
    """A wait in minutes (hours beside it from 2 h); an unbounded one in words."""
    if not math.isfinite(seconds):
        return "unbounded: the queue grows"
    m = seconds / 60.0
    return f"{number(m)} min" + (f" ({number(m / 60.0)} h)" if m >= 120.0 else "")


def preset_parts(drive: str, mount_equation: str = "export") -> dict[str, float]:
    """The part inputs of ``drive``'s preset (:func:`vtsmodel.recall.drive_preset`), as the sliders take them."""
    p = recall.drive_preset(drive, mount_equation)
    return {k: round(float(p[k]), 6) for k in _PART_INPUTS}


def part_sources(drive: str, mount_equation: str = "export") -> dict[str, tuple[str, str]]:
    """Where each part of a recall on ``drive`` comes from: ``part -> (basis, text)``.

    ``basis`` is ``"own"`` (the drive's or the paper's own figure), ``"borrowed"`` (CERN's
    9940B figures), ``"assumption"`` or ``"none"``.
    """
    cern = ("borrowed", "borrowed: CERN's figure for 9940 type drives (cern-tape-sizing-2005)")
    move = load("cern_facts").provenance("tmount_move")
    robot_move = ("borrowed", f"borrowed: CERN's robot move, {move.printed} ({move.source}): the library's")
    if drive in _VTS_DRIVES:
        eq1 = load("vts_import_export").provenance(f"{mount_equation}_per_mount")
        rate = catalog.drive_spec(f"IBM{drive}").provenance("native_rate")
        return {"robot": robot_move, "load": cern,
                "overhead": ("assumption", f"assumption: {eq1.source} {eq1.locator}'s {eq1.printed} min per "
                             "mount minus the borrowed robot, load and rewind/unload"),
                "search": ("own", "the VTS paper: 'about 21 seconds' (ibm-vts-b18-2000, Sec. 7)"),
                "read": ("own", f"the drive's rate: {rate.source}, {rate.locator}"), "rewind_unload": cern}  # fmt: skip
    spec = catalog.drive_spec(drive)
    rate = spec.provenance("native_rate") or spec.provenance("observed_rate")
    read = ("own", f"the drive's rate: {rate.source}, {rate.locator}")
    if drive == "STK3480":
        single = load("stk_facts").provenance("mount_time_single_session")
        return {"robot": ("own", f"StorageTek's single-session mount, {single.printed}: robot and load ({single.source})"),
                "load": ("none", "none: inside the single-session mount"), "overhead": ("none", "none"),
                "search": ("assumption", "assumption: none, files read from the start of the tape"),
                "read": read, "rewind_unload": cern}  # fmt: skip
    mp = catalog.mount_parts(drive)

    def own_or_cern(part):
        m = mp[part]
        srcs = ", ".join(sorted({p.source for p in m.provenance}))
        return ("own", f"the drive's own: {srcs}") if m.basis == "drive" else cern

    return {"robot": robot_move, "load": own_or_cern("load"), "search": own_or_cern("locate"),
            "overhead": ("none", "none: the 3494 VTS's mount-cycle remainder applies only inside it"),
            "read": read, "rewind_unload": own_or_cern("rewind_unload")}  # fmt: skip


def _parts_with(basis: dict, kind: str) -> str:
    return (
        ", ".join(k.split("_")[0] if k != "overhead" else "rest" for k, (b, _) in basis.items() if b == kind)
        or "none"
    )


def _citations(drive: str) -> tuple:
    key = f"IBM{drive}" if drive in _VTS_DRIVES else drive
    extra = {"3590B": ("vts_facts", "vts_import_export"), "3590E": ("vts_facts", "vts_import_export"),
             "STK3480": ("stk_facts",)}.get(drive, ())  # fmt: skip
    return ("cern_facts", *extra, *catalog.drive_spec(key).primary_sources)


# --- the parts of one recall ------------------------------------------------------------------


def parts_base(
    drive, mount_equation, volume_mb, cf, robot_s, load_s, overhead_s, search_s, rewind_unload_s
) -> dict:
    """Stacked bars: the parts of one recall for the Fig. 6 sizes and ``volume_mb``; hover says each part's source."""
    kw = dict(robot_s=robot_s, load_s=load_s, overhead_s=overhead_s, search_s=search_s,
              rewind_unload_s=rewind_unload_s)  # fmt: skip
    sizes = np.array(list(dict.fromkeys((*FIG6_SIZES, volume_mb))))
    parts = recall.recall_parts(sizes, cf=cf, drive=drive, **kw)
    preset, sources = preset_parts(drive, mount_equation), part_sources(drive, mount_equation)
    labels = [f"{number(v)} MB" + (" (this volume)" if v == volume_mb else "") for v in sizes]
    fig = new_figure(xaxis_title="time [s]", yaxis_title="volume size", height=400)
    for i, key in enumerate(recall.RECALL_PARTS):
        text = sources[key][1]
        if f"{key}_s" in kw and kw[f"{key}_s"] != preset[f"{key}_s"]:
            text = f"set by you (the drive's preset: {number(preset[f'{key}_s'])} s, {text})"
        fig.add_trace(go.Bar(x=np.asarray(parts[key]), y=labels, orientation="h", name=_PARTS[key],
                             marker_color=COLORS[i % len(COLORS)], opacity=0.55 if key == "rewind_unload" else 1.0,
                             hovertemplate=f"{_PARTS[key]}: %{{x:.1f}} s<br>{text}<extra>%{{y}}</extra>"))  # fmt: skip
    fig.add_vrect(x0=BEST_CASE_S[0], x1=BEST_CASE_S[1], fillcolor=COLORS[2], opacity=0.12, line_width=0)
    fig.add_annotation(x=sum(BEST_CASE_S) / 2, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                       text="3494 VTS best case, 2–3 min (Sec. 3.4)", font={"size": 12})  # fmt: skip
    total = float(np.max(sum(np.asarray(p) for p in parts.values())))
    fig.update_xaxes(range=[0, max(300.0, 1.05 * total)])
    fig.update_yaxes(autorange="reversed")  # the Fig. 6 sizes from the top, this volume last
    fig.update_layout(barmode="stack", legend={"orientation": "h", "y": -0.2, "traceorder": "normal"})
    return figure_json(fig)


def view_parts(drive="3590B", mount_equation="export", volume_mb=250.0, cf=3.0, **parts) -> View:
    """The parts of one recall; which are the drive's own and which borrowed."""
    volume_mb = round(float(volume_mb), 6)  # a slider's float step is this size, not a second bar
    kw = {**preset_parts(drive, mount_equation), **parts}
    p = {k: float(v) for k, v in recall.recall_parts(volume_mb, cf=cf, drive=drive, **kw).items()}
    ready = float(recall.recall_ready_s(volume_mb, cf=cf, drive=drive, **kw))
    service = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive, **kw))
    basis = part_sources(drive, mount_equation)
    lo, hi = BEST_CASE_S
    mount = ready - p["read"]
    binding = (f"The mount cycle, not the read, dominates a recall: {number(mount)} s of the {number(ready)} s "
               "until ready." if mount >= p["read"] else
               f"The read dominates this recall: {number(p['read'])} s of the {number(ready)} s until ready.")  # fmt: skip
    readouts = {
        "recall ready, free drive": f"{number(ready)} s ({number(ready / 60.0)} min)",
        "drive busy per recall": f"{number(service)} s ({number(service / 60.0)} min)",
        "read share of ready": percent(p["read"] / ready),
        "in the paper's 2–3 min": "yes" if lo <= ready <= hi else ("no, faster" if ready < lo else "no, slower"),
        "the drive's own": _parts_with(basis, "own"),
        "CERN's (borrowed)": _parts_with(basis, "borrowed"),
    }  # fmt: skip
    plot = Plot(
        parts_base, {"drive": drive, "mount_equation": mount_equation, "volume_mb": volume_mb, "cf": cf, **kw}
    )
    return View(figures={"parts": plot}, readouts=readouts, binding=binding, citations=_citations(drive))


def parts_panel(**values) -> Panel:
    """Drive, volume, CF and each part of a recall; choosing a drive or a mount equation loads the preset parts."""
    choice = {k: INPUTS[k].parse(k, values.get(k, INPUTS[k].default)) for k in ("drive", "mount_equation")}
    panel = Panel(_inputs("drive", "mount_equation", "volume_mb", "cf", *_PART_INPUTS), view_parts,
                  values={**preset_parts(**choice), **values}, title="The parts of one recall", name="03_parts")  # fmt: skip

    def load_preset(_change) -> None:  # the app layer has no dependent defaults: set the parts here
        panel.set(**preset_parts(panel.values["drive"], panel.values["mount_equation"]))

    for k in ("drive", "mount_equation"):
        panel.controls[k].observe(load_preset, names="value")
    return panel


# --- the Fig. 6 question: recall response time vs the queue ahead -----------------------------


def queue_base(drive: str, cf: float, drives: int, n_max: int) -> dict:
    """Recall response time vs recalls ahead, one step curve per Fig. 6 size."""
    n = np.arange(n_max + 1)
    fig = new_figure(xaxis_title="recalls ahead in the queue", yaxis_title="recall response time [min]", height=400)  # fmt: skip
    top = 0.0
    for i, v in enumerate(FIG6_SIZES):
        t = np.asarray(recall.recall_response_s(n, v, cf=cf, drives=drives, drive=drive)) / 60.0
        fig.add_scatter(x=n, y=t, mode="lines", name=f"{number(v)} MB", line={"color": COLORS[i], "shape": "hv"},
                        hovertemplate=f"%{{x}} ahead: %{{y:.3g}} min<extra>{number(v)} MB</extra>")  # fmt: skip
        top = max(top, float(t[-1]))
    fig.update_xaxes(range=[-0.5, n_max + 0.5])
    fig.update_yaxes(range=[0, 1.05 * top])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


def view_queue(drive="3590B", cf=3.0, drives=4, queue_length=8) -> View:
    """The deterministic queue of Fig. 6: T(n) = floor(n / d)·S + R for the three sizes."""
    n = int(queue_length)
    t = {v: float(recall.recall_response_s(n, v, cf=cf, drives=drives, drive=drive)) for v in FIG6_SIZES}
    cycle = float(recall.recall_service_s(FIG6_SIZES[1], cf=cf, drive=drive))
    shapes = [point_mark(n, t[v] / 60.0, color=COLORS[i], name=f"{number(v)} MB, {n} ahead", showlegend=False)
              for i, v in enumerate(FIG6_SIZES)]  # fmt: skip
    readouts = {f"recall response time, {number(v)} MB": _minutes(t[v]) for v in FIG6_SIZES}
    readouts[f"drive cycle, {number(FIG6_SIZES[1])} MB"] = _minutes(cycle)
    readouts["CERN's (borrowed)"] = _parts_with(part_sources(drive), "borrowed")
    args = {"drive": drive, "cf": cf, "drives": int(drives), "n_max": 40 if n <= 40 else 200}
    binding = (f"{int(drives)} drive(s): every {int(drives)} recalls ahead add one full drive cycle "
               f"({_minutes(cycle)} for {number(FIG6_SIZES[1])} MB).")  # fmt: skip
    return View(figures={"queue": Plot(queue_base, args, shapes=shapes)}, readouts=readouts, binding=binding,
                citations=(*_citations(drive), "vts_facts"))  # fmt: skip


def queue_panel(**values) -> Panel:
    """Recall response time vs queue position, with drives, drive model and CF."""
    return Panel(_inputs("drive", "cf", "drives", "queue_length"), view_queue, values=values,
                 title="Recall response time vs the queue ahead (Fig. 6)", name="03_queue")  # fmt: skip


# --- recalls arriving at random ---------------------------------------------------------------

#: Utilisations simulated, and the recalls in each run.
SIM_RHO = np.round(np.arange(0.1, 0.96, 0.05), 3)
SIM_RECALLS = 20_000
#: Utilisations the theory lines are drawn at; the wait axis ends at the p95 of :data:`_RHO_TOP`.
_RHO_AXIS = np.r_[np.linspace(0.01, 0.97, 150), np.linspace(0.972, 0.998, 14)]
_RHO_TOP = 0.97


def _mean_wait(lam, s, c, cv):
    """Mean wait for a drive: Cosmetatos' M/D/c for identical recalls, Allen-Cunneen's M/G/c otherwise. [s]"""
    return queueing.wait_mdc(lam, s, c) if cv == 0 else queueing.wait_mgc(lam, s, c, cv)


def _drives_needed(lam, s, target_s, cv) -> float:
    try:
        return float(queueing.recall_drives_needed(lam, s, target_s, 0.95, service_cv=cv))
    except ValueError:  # more than the search limit (64 drives)
        return math.inf


def arrivals_base(drive: str, volume_mb: float, cf: float, drives: int, service_cv: float) -> dict:
    """Mean and p95 wait vs recalls per hour: theory lines, a seeded simulation with its 95 % CI, the capacity."""
    s, c, cv = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive)), int(drives), float(service_cv)
    cap = 3600.0 * c / s  # recalls per hour at utilisation 1
    lam = _RHO_AXIS * c / s
    mean = np.asarray(_mean_wait(lam, s, c, cv)) / 60.0
    p95 = np.asarray(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv)) / 60.0
    sims = [queueing.simulate_recalls(r * c / s, s, c, SIM_RECALLS, seed=int(r * 1000) + 7 * c, service_cv=cv)
            for r in SIM_RHO]  # fmt: skip
    m, h, x = (np.array([r.mean_wait for r in sims]) / 60.0, np.array([r.ci_halfwidth for r in sims]) / 60.0,
               SIM_RHO * cap)  # fmt: skip
    fig = new_figure(xaxis_title="recalls per hour", yaxis_title="wait for a drive [min]", height=400)
    fig.add_scatter(x=np.r_[x, x[::-1]], y=np.r_[m + h, (m - h)[::-1]], fill="toself", fillcolor="rgba(0,114,178,0.2)",
                    line={"width": 0}, hoverinfo="skip", name="simulation 95 % CI")  # fmt: skip
    fig.add_scatter(x=x, y=m, customdata=h, mode="markers", marker={"color": COLORS[0], "size": 7}, name="simulation mean",
                    hovertemplate="%{x:.3g}/h: %{y:.3g} ± %{customdata:.2g} min<extra>simulation</extra>")  # fmt: skip
    for y, name, line in ((mean, "theory mean", {"color": COLORS[0]}),
                          (p95, "theory p95", {"color": COLORS[1], "dash": "dash"})):  # fmt: skip
        fig.add_scatter(x=_RHO_AXIS * cap, y=y, mode="lines", line=line, name=name,
                        hovertemplate=f"%{{x:.3g}}/h: %{{y:.3g}} min<extra>{name}</extra>")  # fmt: skip
    fig.add_vline(x=cap, line={"color": "#888", "dash": "dot"})
    fig.add_annotation(x=cap, y=1, yref="paper", xanchor="right", yanchor="top", showarrow=False, font={"size": 11},
                       text=f"capacity {number(cap)}/h", bgcolor="rgba(255,255,255,0.85)")  # fmt: skip
    fig.update_xaxes(range=[0, 1.1 * cap])
    fig.update_yaxes(range=[0, 1.08 * float(np.interp(_RHO_TOP, _RHO_AXIS, p95))])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


def view_arrivals(recalls_per_hour=40.0, drive="3590B", volume_mb=250.0, cf=3.0, drives=4, service_cv=0.0,
                  target_p95_min=5.0) -> View:  # fmt: skip
    """Poisson recall arrivals on ``drives`` drives: the waits at this load, or why there is none."""
    c, cv, rph = int(drives), float(service_cv), float(recalls_per_hour)
    s = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive))
    lam, cap = rph / 3600.0, 3600.0 * c / s
    rho = lam * s / c
    plot = Plot(
        arrivals_base, {"drive": drive, "volume_mb": volume_mb, "cf": cf, "drives": c, "service_cv": cv}
    )
    base = base_spec(plot)
    xmax, ymax = base["layout"]["xaxis"]["range"][1], base["layout"]["yaxis"]["range"][1]
    # the target line is unnamed: the sheet's overlays read named shapes as point marks
    shapes = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": target_p95_min, "y1": target_p95_min,
               "line": {"color": COLORS[2], "dash": "dot", "width": 2}}]  # fmt: skip
    labels = [{"x": 1, "xref": "paper", "y": target_p95_min, "xanchor": "right", "yanchor": "bottom", "showarrow": False,
               "text": f"p95 target {number(target_p95_min)} min", "font": {"size": 11, "color": COLORS[2]}}]  # fmt: skip
    if rho < 1.0:
        mean, p95 = float(_mean_wait(lam, s, c, cv)), float(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv))  # fmt: skip
        pw = float(queueing.erlang_c(lam, s, c))
        shapes += [point_mark(rph, min(mean / 60, ymax), color="black", name="mean wait, this load"),
                   point_mark(rph, min(p95 / 60, ymax), color=COLORS[1], symbol="square", name="p95 wait, this load")]  # fmt: skip
        labels += [{"x": rph, "y": ymax, "ax": -40, "ay": 30 + 22 * k, "showarrow": True, "arrowhead": 2,
                    "xanchor": "right", "text": f"{what} {_minutes(w)}: off the scale"}
                   for k, (what, w) in enumerate((("mean", mean), ("p95", p95))) if w / 60 > ymax]  # fmt: skip
    else:
        mean = p95 = math.inf
        pw = math.nan  # Erlang C needs a steady state
        labels.append({"x": min(rph, xmax), "y": 0.5, "yref": "paper", "xanchor": "right", "showarrow": False,
                      "bgcolor": "rgba(255,255,255,0.85)", "font": {"color": "#B00020"},
                      "text": f"{number(rph)}/h is beyond the capacity, {number(cap)}/h:<br>no steady state, the queue grows"})  # fmt: skip
    sim = trace_named(base, "simulation mean")
    i = int(np.argmin(np.abs(np.asarray(sim["x"]) - rph)))
    need = _drives_needed(lam, s, target_p95_min * 60.0, cv)
    model = "Cosmetatos' M/D/c" if cv == 0 else "Allen-Cunneen's M/G/c"
    readouts = {
        "drive busy per recall": _minutes(s),
        "utilisation ρ": number(rho),
        "P(a recall waits), Erlang C": percent(pw) if rho < 1.0 else "all (no steady state)",
        "mean wait for a drive": _minutes(mean),
        "p95 wait for a drive": _minutes(p95),
        f"simulated mean at {number(sim['x'][i])}/h": f"{number(sim['y'][i])} ± {number(sim['customdata'][i], 2)} min",
        "drives for the p95 target": number(need) if math.isfinite(need) else "more than 64",
    }  # fmt: skip
    if rho >= 1.0:
        binding = (f"Utilisation ρ = {number(rho)} ≥ 1: recalls arrive faster than {c} drive(s) serve them "
                   f"({number(cap)} per hour); the queue grows without limit: add drives or cut the load.")  # fmt: skip
    elif math.isfinite(need):
        binding = f"Mean wait by {model}; {number(need)} drive(s) keep the p95 wait under {number(target_p95_min)} min."
    else:
        binding = f"Mean wait by {model}; no drive count up to 64 keeps the p95 wait under {number(target_p95_min)} min."
    return View(figures={"arrivals": Plot(arrivals_base, plot.args, shapes=shapes, annotations=labels)},
                readouts=readouts, binding=binding, citations=_citations(drive))  # fmt: skip


def arrivals_panel(**values) -> Panel:
    """Random arrivals: theory vs simulation, and the drives a p95 target needs."""
    names = ("recalls_per_hour", "drive", "volume_mb", "cf", "drives", "service_cv", "target_p95_min")
    return Panel(_inputs(*names), view_arrivals, values=values, title="Recalls arriving at random",
                 name="03_arrivals")  # fmt: skip


# --- robot contention: the mount response time ----------------------------------------------

ROBOT_SESSIONS = np.arange(1, 33)


def robot_base(think_s: float, calib_sessions: int) -> dict:
    """Mount response time vs sessions sharing one robot (MVA), with the StorageTek measurements."""
    cal = robot.calibrate_robot(sessions=calib_sessions, think_s=think_s)
    out = robot.mva_robot(ROBOT_SESSIONS, think_s=think_s, **cal)
    stk = load("stk_facts")
    ids = ("mount_time_single_session", "mount_time_avg")
    fig = new_figure(xaxis_title="concurrent mount sessions", yaxis_title="mount response time [s]", height=400)  # fmt: skip
    fig.add_scatter(x=ROBOT_SESSIONS, y=out["mount_s"], customdata=out["robot_utilisation"], mode="lines+markers",
                    name="MVA model", line={"color": COLORS[0]}, marker={"size": 5},
                    hovertemplate="%{x} sessions: %{y:.3g} s, robot busy %{customdata:.0%}<extra></extra>")  # fmt: skip
    fig.add_trace(source_markers([1, int(calib_sessions)], [stk.value(i) for i in ids], [stk.provenance(i) for i in ids],
                                 name="StorageTek measured"))  # fmt: skip
    fig.update_xaxes(range=[0, float(ROBOT_SESSIONS[-1]) + 1])
    fig.update_yaxes(range=[0, 1.05 * float(np.max(out["mount_s"]))])
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return figure_json(fig)


def view_robot(sessions=4, think_s=0.0, calib_sessions=4) -> View:
    """Sessions sharing one robot, calibrated to StorageTek's 28 s and 52.15 s."""
    cal = robot.calibrate_robot(sessions=calib_sessions, think_s=think_s)
    here = robot.mva_robot(sessions, think_s=think_s, **cal)
    t = float(robot.mount_response_s(sessions, think_s=think_s, calib_sessions=calib_sessions))
    readouts = {
        "robot time per mount": f"{number(cal['robot_s'])} s",
        "rest of the mount": f"{number(cal['fixed_s'])} s",
        f"mount response time, {int(sessions)} sessions": f"{number(t)} s",
        "robot busy": percent(float(here["robot_utilisation"])),
        "mounts per hour": number(float(here["mounts_per_hour"])),
    }
    plot = Plot(robot_base, {"think_s": think_s, "calib_sessions": int(calib_sessions)},
                shapes=[point_mark(sessions, t, name="these sessions")])  # fmt: skip
    binding = (f"The robot: once it is busy nearly all the time, each extra session adds a full robot time "
               f"({number(cal['robot_s'])} s).")  # fmt: skip
    return View(
        figures={"robot": plot}, readouts=readouts, binding=binding, citations=(robot.mount_response_s,)
    )


def robot_panel(**values) -> Panel:
    """Robot contention vs the number of sessions."""
    return Panel(_inputs("sessions", "think_s", "calib_sessions"), view_robot, values=values,
                 title="Robot contention: the mount response time", name="03_robot")  # fmt: skip


# --- the lesson contract ---------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    kw, c, cv = {"cf": v["cf"], "drive": v["drive"]}, v["drives"], v["service_cv"]
    s = float(recall.recall_service_s(v["volume_mb"], **kw))
    lam = v["recalls_per_hour"] / 3600.0
    rho = lam * s / c
    wait = float(_mean_wait(lam, s, c, cv)) if rho < 1 else math.inf
    p95 = float(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv)) if rho < 1 else math.inf
    return {
        "recall ready, free drive [min]": float(recall.recall_ready_s(v["volume_mb"], **kw)) / 60.0,
        "drive busy per recall [min]": s / 60.0,
        "recall response time, queue ahead [min]": float(
            recall.recall_response_s(v["queue_length"], v["volume_mb"], drives=c, **kw)) / 60.0,
        "utilisation [-]": rho,
        "mean wait for a drive [min]": wait / 60.0,
        "p95 wait for a drive [min]": p95 / 60.0,
        "drives for the p95 target [-]": _drives_needed(lam, s, v["target_p95_min"] * 60.0, cv),
        "mount response time, robot [s]": float(robot.mount_response_s(v["sessions"])),
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (parts at the drive's preset)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    views = (compute(view_parts, {k: v[k] for k in ("drive", "volume_mb", "cf")}),
             compute(view_queue, {k: v[k] for k in ("drive", "cf", "drives", "queue_length")}),
             compute(view_arrivals, {k: v[k] for k in ("recalls_per_hour", "drive", "volume_mb", "cf", "drives",
                                                       "service_cv", "target_p95_min")}),
             compute(view_robot, {"sessions": v["sessions"]}))  # fmt: skip
    return View(
        figures={k: f for x in views for k, f in x.figures.items()},
        readouts={k: r for x in views for k, r in x.readouts.items()},
        binding=" ".join(x.binding for x in views),
        notes=tuple(dict.fromkeys(n for x in views for n in x.notes)),
        citations=tuple(dict.fromkeys(c for x in views for c in x.citations)),
    )


#: The data rows the lesson draws on, (table, id), in the order the notebook shows them.
SOURCE_ROWS = (
    *[("vts_facts", r) for r in ("recall_mount_best_low", "recall_mount_best_high", "fig6_volume_mb_small",
                                 "fig6_volume_mb_medium", "fig6_volume_mb_large", "fig6_cf", "fig6_recall_drives",
                                 "search_time_avg", "recall_example_concurrent_recalls")],
    ("vts_import_export", "export_per_mount"),
    ("drive_catalog", "ibm3590b_native_rate"),
    ("drive_catalog", "ibm3590e_native_rate"),
    *[("cern_facts", r) for r in ("tmount_move", "tmount_mount", "tmount_rewind_unload")],
    *[("stk_facts", r) for r in ("mount_time_single_session", "mount_time_avg", "mount_sessions_concurrent_max")],
)  # fmt: skip


# --- the numbers the notebook prints ------------------------------------------------------------


def best_case_numbers() -> str:
    """The best case (ready on a free drive) for the Fig. 6 sizes at CF 3, 3590B and 3590E: labelled lines."""
    lines = [f"{number(v)} MB at CF 3, ready on a free drive: 3590B {number(recall.recall_ready_s(v), 4)} s, "
             f"3590E {number(recall.recall_ready_s(v, drive='3590E'), 4)} s" for v in FIG6_SIZES]  # fmt: skip
    lines.append(f"the paper's best case (Sec. 3.4): {number(BEST_CASE_S[0])} to {number(BEST_CASE_S[1])} s")
    return "\n".join(lines)


def drive_numbers(volume_mb: float = 250.0, drives=("3590B", "STK9940B", "IBM3592_60F", "LTO9")) -> str:
    """Recall ready on a free drive for a few drives, and which of their parts are borrowed: labelled lines."""
    lines = []
    for d in drives:
        borrowed = ", ".join(_PARTS[k] for k, (b, _) in part_sources(d).items() if b == "borrowed") or "none"
        lines.append(f"{INPUTS['drive'].label_of(d)}, {number(volume_mb)} MB at CF 3: ready after "
                     f"{number(recall.recall_ready_s(volume_mb, drive=d), 4)} s; borrowed from CERN's tMount: "
                     f"{borrowed}")  # fmt: skip
    return "\n".join(lines)


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


def robot_numbers(sessions=(1, 2, 4, 8)) -> str:
    """Mount response time vs sessions sharing one robot, and StorageTek's measurements: labelled lines."""
    stk = load("stk_facts")
    lines = [f"mount response time, {n} session(s): {number(robot.mount_response_s(n), 4)} s" for n in sessions]  # fmt: skip
    lines.append(f"StorageTek measured: {number(stk.value('mount_time_single_session'))} s for one session, "
                 f"{number(stk.value('mount_time_avg'), 4)} s on average with up to four")  # fmt: skip
    return "\n".join(lines)
