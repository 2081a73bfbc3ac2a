"""Lesson 03: recall queue mount time, from the paper's estimate to queueing theory.

Four panels: the parts of one recall (a stacked bar), the Fig. 6 question (time until
ready vs queue position), random arrivals (theory vs simulation) and robot contention
(mean value analysis vs the StorageTek points).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import plotly.graph_objects as go

from vtsmodel import queueing, recall, robot
from vtsmodel._tables import load
from vtsmodel.app.figures import COLORS, new_figure, operating_point, source_markers
from vtsmodel.app.lessons import Param, scenario_values
from vtsmodel.app.panels import Panel, View, dropdown, int_slider, slider

__all__ = [
    "NOTEBOOK",
    "SCENARIO_PARAMS",
    "TITLE",
    "arrivals_panel",
    "parts_panel",
    "queue_panel",
    "robot_panel",
    "scenario_outputs",
    "scenario_view",
    "view_arrivals",
    "view_parts",
    "view_queue",
    "view_robot",
]

LESSON_ID = "03"
TITLE = "Lesson 03: recall queue mount time, from the paper's estimate to queueing theory"
NOTEBOOK = "03_recall_queue_mount_time.ipynb"

_P = recall.drive_preset("3590B")
_VTS = load("vts_facts")
FIG6_SIZES = tuple(
    _VTS.value(k) for k in ("fig6_volume_mb_small", "fig6_volume_mb_medium", "fig6_volume_mb_large")
)
_HEIGHT = 400
_PART_LABELS = {
    "robot": "robot fetch",
    "load": "load/thread",
    "overhead": "rest of mount cycle",
    "search": "search",
    "read": "read volume",
    "rewind_unload": "rewind/unload",
}

SCENARIO_PARAMS = {
    "volume_mb": Param("Volume size", "MB", 250.0, 10.0, 4000.0, help="Logical volume, uncompressed"),
    "cf": Param("CF", "-", 3.0, 1.0, 4.0, help="Data compressibility (Fig. 6: 3)"),
    "drive": Param("Drive", "", "3590B", choices=recall.DRIVES),
    "drives": Param("Recall drives", "count", 4, 1, 16, help="Drives allocated to recall (Fig. 6: 4)"),
    "queue_length": Param("Recalls ahead", "count", 8, 0, 200, help="Queue at arrival"),
    "recalls_per_hour": Param("Recalls per hour", "1/h", 40.0, 0.5, 400.0, help="Poisson arrivals"),
    "service_cv": Param("Service time CV", "-", 0.0, 0.0, 2.0, help="0 = identical recalls"),
    "target_p95_min": Param("Target p95 wait", "min", 5.0, 0.1, 120.0, help="For the drives needed"),
    "sessions": Param("Mount sessions", "count", 4, 1, 32, help="Sessions sharing one robot"),
}


def _fmt_s(x: float) -> str:
    if not math.isfinite(x):
        return "∞ (queue grows)"
    return f"{x:.1f} s" if x < 120 else f"{x / 60:.2f} min"


# --- the parts of a recall -----------------------------------------------------------------
def parts_figure(parts_by_size: dict[float, dict[str, float]], band: tuple[float, float]) -> go.Figure:
    """Horizontal stacked bars: the parts of one recall for each volume size."""
    fig = new_figure(xaxis_title="time [s]", yaxis_title="volume size", height=_HEIGHT)
    labels = [f"{v:g} MB" for v in parts_by_size]
    for i, key in enumerate(recall.RECALL_PARTS):
        x = [float(p[key]) for p in parts_by_size.values()]
        fig.add_trace(
            go.Bar(
                x=x,
                y=labels,
                orientation="h",
                name=_PART_LABELS[key],
                marker_color=COLORS[i % len(COLORS)],
                opacity=0.55 if key == "rewind_unload" else 1.0,
                hovertemplate=f"{_PART_LABELS[key]}: %{{x:.1f}} s<extra></extra>",
            )
        )
    fig.add_vrect(x0=band[0], x1=band[1], fillcolor="#009E73", opacity=0.12, line_width=0)
    fig.add_annotation(
        x=(band[0] + band[1]) / 2, y=1.02, yref="paper", showarrow=False,
        text="best case 2–3 min (Sec. 3.4)", font={"size": 12},
    )  # fmt: skip
    fig.update_layout(barmode="stack", legend={"orientation": "h", "y": -0.2})
    return fig


def view_parts(
    *, volume_mb=250.0, cf=3.0, drive="3590B", robot_s=None, load_s=None, overhead_s=None, search_s=None,
    rewind_unload_s=None,
) -> View:  # fmt: skip
    """The parts of a recall for the Fig. 6 sizes and one chosen size."""
    kw = dict(cf=cf, drive=drive, robot_s=robot_s, load_s=load_s, overhead_s=overhead_s, search_s=search_s,
              rewind_unload_s=rewind_unload_s)  # fmt: skip
    # A slider's float steps can land a hair off a Fig. 6 size (249.99999999999997):
    # rounded, it is that size, not a second "250 MB" bar stacked onto the first.
    volume_mb = round(float(volume_mb), 6)
    sizes = tuple(dict.fromkeys((*FIG6_SIZES, volume_mb)))
    parts = {v: recall.recall_parts(v, **kw) for v in sizes}
    band = (_VTS.value("recall_mount_best_low"), _VTS.value("recall_mount_best_high"))
    ready = float(recall.recall_ready_s(volume_mb, **kw))
    service = float(recall.recall_service_s(volume_mb, **kw))
    inside = band[0] <= ready <= band[1]
    return View(
        figures={"parts": parts_figure(parts, band)},
        readouts={
            "Time until ready": _fmt_s(ready),
            "Drive busy per recall": _fmt_s(service),
            "Read share of ready": f"{float(parts[float(volume_mb)]['read']) / ready:.0%}",
            "Inside 2–3 min": "yes" if inside else "no",
        },
        binding=(
            "The mount cycle, not the read, dominates a recall: "
            f"{(ready - float(parts[float(volume_mb)]['read'])):.0f} s of the {ready:.0f} s until ready."
        ),
        caption_values={"Volume [MB]": volume_mb, "CF [-]": cf, "Drive": drive},
        citations=(recall.recall_service_s,),
    )


def parts_panel(**values) -> Panel:
    """Sliders for each part of a recall; the stacked bars follow."""
    v = {"volume_mb": 250.0, "cf": 3.0, "drive": "3590B", **values}
    controls = {
        "drive": dropdown("Drive (read rate)", list(recall.DRIVES), v["drive"], tooltip="Sets the read rate"),
        "volume_mb": slider("Volume size", v["volume_mb"], 10, 2000, 10, unit="MB"),
        "cf": slider("CF", v["cf"], 1.0, 4.0, 0.1, unit="-", tooltip="Data compressibility"),
        "robot_s": slider(
            "Robot fetch", _P["robot_s"], 0, 120, 0.5, unit="s", tooltip="CERN tMount move: 22.5 s"
        ),
        "load_s": slider(
            "Load/thread", _P["load_s"], 0, 120, 0.5, unit="s", tooltip="CERN tMount mount: 15 s"
        ),
        "overhead_s": slider(
            "Rest of mount cycle",
            _P["overhead_s"],
            0,
            200,
            0.1,  # the default, 59.1 s, must sit on the slider's grid
            unit="s",
            tooltip="Eq. 1 per-mount 2.36 min minus the borrowed parts",
        ),  # fmt: skip
        "search_s": slider("Search", _P["search_s"], 0, 120, 0.5, unit="s", tooltip="Sec. 7: about 21 s"),
        "rewind_unload_s": slider(
            "Rewind/unload", _P["rewind_unload_s"], 0, 120, 0.5, unit="s", tooltip="CERN tMount: 45 s"
        ),  # fmt: skip
    }
    return Panel(controls, view_parts, title="The parts of one recall", name="03_parts")


# --- panel 1: the Fig. 6 question -----------------------------------------------------------
def queue_figure(n: np.ndarray, curves: dict[str, np.ndarray], point: tuple[float, float]) -> go.Figure:
    """Time until ready vs recalls ahead, one step curve per volume size."""
    fig = new_figure(
        xaxis_title="recalls ahead in the queue", yaxis_title="time until ready [min]", height=_HEIGHT
    )
    for i, (name, y) in enumerate(curves.items()):
        fig.add_trace(
            go.Scatter(
                x=n,
                y=y / 60.0,
                mode="lines",
                line_shape="hv",
                name=name,
                line={"color": COLORS[i]},
                hovertemplate="%{x} ahead: %{y:.2f} min<extra>" + name + "</extra>",
            )  # fmt: skip
        )
    fig.add_trace(operating_point(point[0], point[1] / 60.0, name="your recall"))
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return fig


def view_queue(*, drives=4, drive="3590B", cf=3.0, queue_length=8, max_queue=40) -> View:
    """Panel 1: the deterministic recall queue (Fig. 6) for the three volume sizes."""
    n = np.arange(0, int(max_queue) + 1)
    curves = {
        f"{v:g} MB": np.asarray(recall.recall_response_s(n, v, cf=cf, drives=drives, drive=drive))
        for v in FIG6_SIZES
    }
    mid = FIG6_SIZES[1]
    t = float(recall.recall_response_s(queue_length, mid, cf=cf, drives=drives, drive=drive))
    readouts = {
        f"Ready, {v:g} MB, {int(queue_length)} ahead": _fmt_s(
            float(curves[f"{v:g} MB"][min(int(queue_length), n[-1])])
        )
        if queue_length <= n[-1]
        else _fmt_s(float(recall.recall_response_s(queue_length, v, cf=cf, drives=drives, drive=drive)))
        for v in FIG6_SIZES
    }
    readouts["Step per batch of drives"] = _fmt_s(float(recall.recall_service_s(mid, cf=cf, drive=drive)))
    return View(
        figures={"queue": queue_figure(n, curves, (float(queue_length), t))},
        readouts=readouts,
        binding=f"{int(drives)} drive(s): every {int(drives)} recalls ahead add one full drive cycle.",
        caption_values={"Drives": drives, "Drive": drive, "CF [-]": cf, "Recalls ahead": queue_length},
        citations=(recall.recall_response_s,),
    )


def queue_panel(**values) -> Panel:
    """Panel 1: time until ready vs queue position, with drives, drive model and CF."""
    v = {"drives": 4, "drive": "3590B", "cf": 3.0, "queue_length": 8, **values}
    controls = {
        "drives": int_slider(
            "Recall drives",
            v["drives"],
            1,
            6,
            unit="count",
            tooltip="Six drives with two copying leave four (Sec. 3.2.2)",
        ),  # fmt: skip
        "drive": dropdown("Drive", list(recall.DRIVES), v["drive"]),
        "cf": slider("CF", v["cf"], 1.0, 4.0, 0.1, unit="-", tooltip="Data compressibility"),
        "queue_length": int_slider("Recalls ahead", v["queue_length"], 0, 40, unit="count"),
    }
    return Panel(controls, view_queue, title="Panel 1: time until ready vs queue position", name="03_queue")


# --- panel 2: random arrivals ----------------------------------------------------------------
_SIM_RHO = np.round(np.arange(0.1, 0.96, 0.05), 3)
_SIM_N = 20_000


@functools.lru_cache(maxsize=256)
def _sim_unit(rho: float, c: int, cv: float) -> tuple[float, float, float]:
    """Simulated mean wait, CI half-width and p95 in units of the service time (S = 1)."""
    sim = queueing.simulate_recalls(rho * c, 1.0, c, _SIM_N, seed=int(rho * 1000) + 7 * c, service_cv=cv)
    return sim.mean_wait, sim.ci_halfwidth, sim.percentile(0.95)


def _theory_unit(rho: np.ndarray, c: int, cv: float) -> tuple[np.ndarray, np.ndarray]:
    if cv == 0.0:
        mean = np.asarray(queueing.wait_mdc(rho * c, 1.0, c))
    else:
        mean = np.asarray(queueing.wait_mgc(rho * c, 1.0, c, cv))
    p95 = np.asarray(queueing.wait_percentile(rho * c, 1.0, c, 0.95, service_cv=cv))
    return mean, p95


def arrivals_figure(x_th, mean_th, p95_th, x_sim, mean_sim, half_sim, point) -> go.Figure:
    """Mean and p95 wait vs recalls per hour: theory lines, simulation with CI band."""
    fig = new_figure(xaxis_title="recalls per hour", yaxis_title="wait for a drive [min]", height=_HEIGHT)
    fig.add_trace(go.Scatter(x=np.r_[x_sim, x_sim[::-1]], y=np.r_[mean_sim + half_sim, (mean_sim - half_sim)[::-1]],
                             fill="toself", fillcolor="rgba(0,114,178,0.2)", line={"width": 0}, hoverinfo="skip",
                             name="simulation 95% CI"))  # fmt: skip
    fig.add_trace(go.Scatter(x=x_sim, y=mean_sim, mode="markers", marker={"color": COLORS[0], "size": 7},
                             name="simulation mean", hovertemplate="%{x:.1f}/h: %{y:.2f} min<extra>sim</extra>"))  # fmt: skip
    fig.add_trace(go.Scatter(x=x_th, y=mean_th, mode="lines", line={"color": COLORS[0]}, name="theory mean",
                             hovertemplate="%{x:.1f}/h: %{y:.2f} min<extra>theory</extra>"))  # fmt: skip
    fig.add_trace(go.Scatter(x=x_th, y=p95_th, mode="lines", line={"color": COLORS[1], "dash": "dash"},
                             name="theory p95", hovertemplate="%{x:.1f}/h: %{y:.2f} min<extra>p95</extra>"))  # fmt: skip
    fig.add_trace(operating_point(point[0], point[1], name="this load"))
    fig.update_layout(legend={"x": 0.01, "y": 0.99}, yaxis={"rangemode": "tozero"})
    return fig


def view_arrivals(
    *, recalls_per_hour=40.0, volume_mb=250.0, drives=4, service_cv=0.0, target_p95_min=5.0, cf=3.0, drive="3590B"
) -> View:  # fmt: skip
    """Panel 2: random (Poisson) recall arrivals on ``drives`` drives."""
    c = int(drives)
    cv = float(service_cv)
    s = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive))
    lam = float(recalls_per_hour) / 3600.0
    rho = lam * s / c
    per_hour = 3600.0 * c / s  # recalls per hour at rho = 1
    r_th = np.linspace(0.01, 0.97, 150)
    mean_u, p95_u = _theory_unit(r_th, c, cv)
    sims = np.array([_sim_unit(float(r), c, cv) for r in _SIM_RHO])
    x_sim = _SIM_RHO * per_hour
    if rho < 1.0:
        mean = float(np.asarray(_theory_unit(np.array([rho]), c, cv)[0])[0]) * s
        p95 = float(queueing.wait_percentile(lam, s, c, 0.95, service_cv=cv))
        pw = float(queueing.erlang_c(lam, s, c))
        y_point = mean / 60.0
    else:
        mean = p95 = math.inf
        pw = 1.0
        y_point = float(mean_u[-1] * s / 60.0)
    need = queueing.recall_drives_needed(lam, s, target_p95_min * 60.0, 0.95, service_cv=cv)
    near = int(np.argmin(np.abs(_SIM_RHO - rho)))
    model = "Cosmetatos M/D/c" if cv == 0.0 else "Allen-Cunneen M/G/c"
    return View(
        figures={
            "arrivals": arrivals_figure(
                r_th * per_hour,
                mean_u * s / 60.0,
                p95_u * s / 60.0,
                x_sim,
                sims[:, 0] * s / 60.0,
                sims[:, 1] * s / 60.0,
                (float(recalls_per_hour), y_point),
            )  # fmt: skip
        },
        readouts={
            "Service time per recall": _fmt_s(s),
            "Utilisation": f"{rho:.2f}",
            "Mean wait (theory)": _fmt_s(mean),
            "p95 wait (theory)": _fmt_s(p95),
            "P(wait) (Erlang C)": f"{pw:.2f}",
            f"Simulation at ρ={_SIM_RHO[near]:.2f}": f"{sims[near, 0] * s / 60:.2f} ± {sims[near, 1] * s / 60:.2f} min",
            "Drives for the p95 target": f"{need}",
        },
        binding=(
            f"Utilisation {rho:.2f} ≥ 1: the queue grows without bound; add drives."
            if rho >= 1.0
            else f"Mean wait by {model}; {need} drive(s) keep the p95 wait under {target_p95_min:g} min."
        ),
        caption_values={
            "Recalls per hour": recalls_per_hour,
            "Volume [MB]": volume_mb,
            "Drives": c,
            "Service CV [-]": cv,
        },  # fmt: skip
        citations=(recall.recall_service_s,),
    )


def arrivals_panel(**values) -> Panel:
    """Panel 2: random arrivals, theory vs simulation, drives needed for a target."""
    v = {"recalls_per_hour": 40.0, "volume_mb": 250.0, "drives": 4, "service_cv": 0.0, "target_p95_min": 5.0,
         **values}  # fmt: skip
    controls = {
        "recalls_per_hour": slider(
            "Recalls per hour", v["recalls_per_hour"], 1, 120, 1, unit="1/h", tooltip="Poisson arrivals"
        ),  # fmt: skip
        "volume_mb": slider("Volume size", v["volume_mb"], 10, 2000, 10, unit="MB"),
        "drives": int_slider("Recall drives", v["drives"], 1, 12, unit="count"),
        "service_cv": slider(
            "Service time CV",
            v["service_cv"],
            0.0,
            1.5,
            0.25,
            unit="-",
            tooltip="0: identical recalls (M/D/c); 1: exponential (M/M/c)",
        ),  # fmt: skip
        "target_p95_min": slider("Target p95 wait", v["target_p95_min"], 0.5, 30, 0.5, unit="min"),
    }
    return Panel(controls, view_arrivals, title="Panel 2: recalls arriving at random", name="03_arrivals")


# --- panel 3: robot contention ---------------------------------------------------------------
def robot_figure(n, mount_s, util, stk_points, point) -> go.Figure:
    """Mean mount time vs sessions sharing one robot, with the StorageTek points."""
    fig = new_figure(
        xaxis_title="concurrent mount sessions", yaxis_title="mean mount time [s]", height=_HEIGHT
    )
    fig.add_trace(go.Scatter(x=n, y=mount_s, mode="lines+markers", name="MVA model", line={"color": COLORS[0]},
                             customdata=util, hovertemplate="%{x} sessions: %{y:.1f} s, robot busy "
                             "%{customdata:.0%}<extra></extra>"))  # fmt: skip
    fig.add_trace(stk_points)
    fig.add_trace(operating_point(point[0], point[1], name="these sessions"))
    fig.update_layout(legend={"x": 0.01, "y": 0.99})
    return fig


def view_robot(*, sessions=4, think_s=0.0, calib_sessions=4) -> View:
    """Panel 3: MVA of sessions sharing one robot, calibrated to 28 s and 52.15 s."""
    cal = robot.calibrate_robot(sessions=calib_sessions, think_s=think_s)
    n = np.arange(1, 17)
    out = robot.mva_robot(n, robot_s=cal["robot_s"], fixed_s=cal["fixed_s"], think_s=think_s)
    stk = load("stk_facts")
    ids = ("mount_time_single_session", "mount_time_avg")
    pts = source_markers([1, int(calib_sessions)], [stk.value(i) for i in ids], [stk.provenance(i) for i in ids],
                         name="StorageTek")  # fmt: skip
    here = robot.mva_robot(sessions, robot_s=cal["robot_s"], fixed_s=cal["fixed_s"], think_s=think_s)
    return View(
        figures={
            "robot": robot_figure(
                n, out["mount_s"], out["robot_utilisation"], pts, (float(sessions), float(here["mount_s"]))
            )
        },  # fmt: skip
        readouts={
            "Robot time per mount": f"{cal['robot_s']:.1f} s",
            "Rest of the mount": f"{cal['fixed_s']:.1f} s",
            f"Mount time, {int(sessions)} sessions": f"{float(here['mount_s']):.1f} s",
            "Robot busy": f"{float(here['robot_utilisation']):.0%}",
            "Mounts per hour": f"{float(here['mounts_per_hour']):.0f}",
        },
        binding="The robot: once it is busy nearly all the time, each extra session adds a full robot time.",
        caption_values={
            "Sessions": sessions,
            "Think time [s]": think_s,
            "Calibration sessions": calib_sessions,
        },
        citations=(robot.mount_response_s,),
    )


def robot_panel(**values) -> Panel:
    """Panel 3: robot contention vs number of sessions."""
    v = {"sessions": 4, "think_s": 0.0, "calib_sessions": 4, **values}
    controls = {
        "sessions": int_slider("Mount sessions", v["sessions"], 1, 16, unit="count"),
        "think_s": slider(
            "Time between mounts",
            v["think_s"],
            0,
            120,
            1,
            unit="s",
            tooltip="Assumption: 0, sessions mount back to back",
        ),  # fmt: skip
        "calib_sessions": int_slider(
            "Sessions behind 52.15 s",
            v["calib_sessions"],
            2,
            8,
            unit="count",
            tooltip="'as many as four' (StorageTek, Test Results f.)",
        ),  # fmt: skip
    }
    return Panel(controls, view_robot, title="Panel 3: robot contention", name="03_robot")


# --- the lesson contract ----------------------------------------------------------------------
def _values(values: dict) -> dict:
    return scenario_values(SCENARIO_PARAMS, values)


def scenario_outputs(**values) -> dict[str, float]:
    """The computed columns of one scenario."""
    v = _values(values)
    kw = dict(cf=v["cf"], drive=v["drive"])
    s = float(recall.recall_service_s(v["volume_mb"], **kw))
    lam = v["recalls_per_hour"] / 3600.0
    rho = lam * s / v["drives"]
    stable = rho < 1.0
    cv = v["service_cv"]
    if stable:
        mean = float(
            queueing.wait_mdc(lam, s, v["drives"]) if cv == 0 else queueing.wait_mgc(lam, s, v["drives"], cv)
        )
        p95 = float(queueing.wait_percentile(lam, s, v["drives"], 0.95, service_cv=cv))
    else:
        mean = p95 = math.inf
    return {
        "Time until ready, free drive [s]": float(recall.recall_ready_s(v["volume_mb"], **kw)),
        "Drive busy per recall [s]": s,
        "Time until ready behind the queue [s]": float(
            recall.recall_response_s(v["queue_length"], v["volume_mb"], drives=v["drives"], **kw)
        ),
        "Utilisation [-]": rho,
        "Mean wait [s]": mean,
        "p95 wait [s]": p95,
        "Drives for the p95 target [count]": float(
            queueing.recall_drives_needed(lam, s, v["target_p95_min"] * 60.0, 0.95, service_cv=cv)
        ),
        "Robot mount time [s]": float(robot.mount_response_s(v["sessions"])),
    }


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    v = _values(values)
    views = (
        view_parts(volume_mb=v["volume_mb"], cf=v["cf"], drive=v["drive"]),
        view_queue(drives=v["drives"], drive=v["drive"], cf=v["cf"], queue_length=min(v["queue_length"], 40)),
        view_arrivals(
            recalls_per_hour=v["recalls_per_hour"],
            volume_mb=v["volume_mb"],
            drives=v["drives"],
            service_cv=v["service_cv"],
            target_p95_min=v["target_p95_min"],
            cf=v["cf"],
            drive=v["drive"],
        ),  # fmt: skip
        view_robot(sessions=v["sessions"]),
    )
    return View(
        figures={k: f for x in views for k, f in x.figures.items()},
        readouts={k: r for x in views for k, r in x.readouts.items()},
        binding=" ".join(x.binding for x in views),
        caption_values={k: c for x in views for k, c in x.caption_values.items()},
        citations=tuple(c for x in views for c in x.citations),
    )


#: The data rows the lesson draws on, (table, id), in the order the notebook shows them.
SOURCE_ROWS = (
    ("vts_facts", "recall_mount_best_low"),
    ("vts_facts", "recall_mount_best_high"),
    ("vts_facts", "fig6_volume_mb_small"),
    ("vts_facts", "fig6_volume_mb_medium"),
    ("vts_facts", "fig6_volume_mb_large"),
    ("vts_facts", "fig6_cf"),
    ("vts_facts", "fig6_recall_drives"),
    ("vts_facts", "search_time_avg"),
    ("vts_facts", "recall_example_concurrent_recalls"),
    ("vts_import_export", "export_per_mount"),
    ("drive_catalog", "ibm3590b_native_rate"),
    ("drive_catalog", "ibm3590e_native_rate"),
    ("cern_facts", "tmount_move"),
    ("cern_facts", "tmount_mount"),
    ("cern_facts", "tmount_rewind_unload"),
    ("stk_facts", "mount_time_single_session"),
    ("stk_facts", "mount_time_avg"),
    ("stk_facts", "mount_sessions_concurrent_max"),
)


def source_table_html() -> str:
    """An HTML table of the lesson's source rows: value, unit, source and locator."""
    import html

    rows = []
    for table, rid in SOURCE_ROWS:
        p = load(table).provenance(rid)
        rows.append(
            f"<tr><td>{html.escape(rid)}</td><td style='text-align:right'>{p.value:g}</td><td>{html.escape(p.unit)}</td>"
            f"<td>{html.escape(p.source)}</td><td>{html.escape(p.locator)}</td><td>{html.escape(p.kind)}</td></tr>"
        )
    head = "".join(
        f"<th style='text-align:left'>{h}</th>" for h in ("id", "value", "unit", "source", "locator", "kind")
    )
    return f"<table class='vtsmodel-sources'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


# --- the notebook's checked numbers -------------------------------------------------------------


def _expect(ok: bool, what: str, table: str, row: str) -> None:
    """Raise AssertionError naming the source statement ``table``/``row`` when ``ok`` is false."""
    if not ok:
        p = load(table).provenance(row)
        raise AssertionError(
            f'{what}; source: {p.source}, {p.locator}: "{p.quote or p.printed}" ({table}/{row})'
        )


def check_best_case() -> str:
    """The best case (time until ready, no queue) for the Fig. 6 sizes, checked against Sec. 3.4.

    Checks: on the paper's 3590B at CF 3 every Fig. 6 size lands in "approximately two to
    three minutes". Raises AssertionError naming the statement.

    Returns
    -------
    str
        One line per size: 3590B and 3590E times. [s]
    """
    lo, hi = _VTS.value("recall_mount_best_low"), _VTS.value("recall_mount_best_high")
    lines = []
    for v in FIG6_SIZES:
        b, e = float(recall.recall_ready_s(v)), float(recall.recall_ready_s(v, drive="3590E"))
        lines.append(f"{v:g} MB: 3590B {b:.1f} s, 3590E {e:.1f} s")
        _expect(
            lo <= b <= hi,
            f"{v:g} MB on the 3590B is ready after {b:.1f} s",
            "vts_facts",
            "recall_mount_best_low",
        )
    return "\n".join(lines)


def reference_waits(rho: float = 0.8, service_s: float = 180.0, servers: int = 4) -> str:
    """Erlang C probability of waiting and the M/M/c, M/D/c and M/G/c (cv 0) mean waits.

    Checks the formulas against each other: Erlang C's wait is C·S / (c·(1 − ρ));
    Allen-Cunneen with cv 1 is exact M/M/c; with cv 0 it halves it. Raises AssertionError.

    Returns
    -------
    str
        ``C  W_MMc  W_MDc  W_MGc`` on one line. [-, s, s, s]
    """
    lam = rho * servers / service_s
    c = float(queueing.erlang_c(lam, service_s, servers))
    mmc = float(queueing.wait_mmc(lam, service_s, servers))
    mdc = float(queueing.wait_mdc(lam, service_s, servers))
    mg0, mg1 = (float(queueing.wait_mgc(lam, service_s, servers, cv)) for cv in (0.0, 1.0))
    if not (
        math.isclose(mmc, c * service_s / (servers * (1 - rho)))
        and math.isclose(mg1, mmc)
        and math.isclose(mg0, mmc / 2)
    ):
        raise AssertionError(f"Erlang C and Allen-Cunneen disagree: {c}, {mmc}, {mg0}, {mg1}")
    return f"{c:.3f} {mmc:.1f} {mdc:.2f} {mg0:.2f}"


def check_robot(sessions=(1, 2, 4, 8)) -> str:
    """Robot mount time vs sessions, checked against the StorageTek measurements.

    Checks: 28 s for a single session and 52.15 s at the calibration concurrency (to the
    printed 0.01 s). Raises AssertionError naming the statement.

    Returns
    -------
    str
        The list of mount times. [s]
    """
    t = [round(float(x), 2) for x in robot.mount_response_s(list(sessions))]
    one = float(robot.mount_response_s(1))
    _expect(abs(one - load("stk_facts").value("mount_time_single_session")) < 0.005, f"{one:.2f} s for one session",
            "stk_facts", "mount_time_single_session")  # fmt: skip
    k = int(load("stk_facts").value("mount_sessions_concurrent_max"))
    many = float(robot.mount_response_s(k))
    _expect(abs(many - load("stk_facts").value("mount_time_avg")) < 0.005, f"{many:.2f} s for {k} sessions",
            "stk_facts", "mount_time_avg")  # fmt: skip
    return str(t)
