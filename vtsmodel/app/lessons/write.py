"""Lesson 01: sustained vs peak write of the VTS B18, and which resource limits it.

Three panels: :func:`write_panel` (peak and sustained write vs CF, and the bottleneck
view), :func:`read_panel` (read hit, recall and the typical mix) and
:func:`import_export_panel` (Eqs. 1 and 2). Each figure is a cached base (the curves and
the cited points, built by a ``*_base`` function from the slow inputs) and the operating
point that CF moves. Source: ibm-vts-b18-2000.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from vtsmodel import bottleneck as bn
from vtsmodel import import_export as ie
from vtsmodel import quantities as q
from vtsmodel import throughput as tp
from vtsmodel import tvc
from vtsmodel._tables import load
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    figure_json,
    new_figure,
    point_mark,
    source_markers,
    validated_curve,
)
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import number
from vtsmodel.tvc import hours_at_peak

LESSON_ID = "01"
TITLE = "Sustained vs peak write of the VTS"
NOTEBOOK = "01_sustained_vs_peak_write.ipynb"

#: CF axis of the curves: the validated 1 to 4, and on to 6 drawn as an extrapolation. [-]
CF_AXIS = np.round(np.linspace(1.0, 6.0, 101), 6)
#: Data moved, axis of the import/export figure. [MB]
MB_AXIS = np.linspace(0.0, 4000.0, 81)
_READ_CF_VALID = (1.0, 2.66)  # Table 1 measured CF 1 and 2.66

INPUTS = {
    "cf": q.CF.but(hi=6.0, step=0.02),  # on its grid: the default 3 and Table 1's 2.66
    "tvc_config": q.TVC_CONFIG,
    "feature": q.FEATURE,
    "block_kb": q.BLOCK_KB.but(choices=(("32 KB (QSAM limit)", 32.0), ("48 KB", 48.0), ("64 KB", 64.0))),
    "escon_km": q.ESCON_KM.but(hi=25.0, step=0.5),
    "view_mode": q.MODE.but(label="bottleneck view of", help="Which write mode the resource figure shows."),
    "write_fraction": q.WRITE_FRACTION.but(step=0.05),
    "read_hit_ratio": q.READ_HIT.but(step=0.05),
    "mb": q.DATA_MB.but(hi=4000.0, step=50.0),
    "mounts": q.MOUNTS.but(lo=2, hi=30),
    "searches": q.SEARCHES.but(hi=20),
    "interference": q.INTERFERENCE,
}
SCENARIO = ("cf", "tvc_config", "feature", "block_kb", "escon_km")
_FEATURE = {v: label.split(" ")[0] for label, v in q.FEATURE.options}
_MODE_COLORS = {"peak": COLORS[1], "sustained": COLORS[0]}
_GREY = "#9A9A9A"
_RESOURCE_COLORS = dict(zip(bn.RESOURCES, (COLORS[4], COLORS[3], COLORS[2], COLORS[5]), strict=True))

# --- the cited points -----------------------------------------------------------------------

#: Stated write points: (feature, table, row id, CF as a number or the row holding it, mode).
_WRITE_POINTS = (
    ("base", "vts_facts", "base_sustained_write_low", 1.0, "sustained"),
    ("base", "vts_facts", "base_sustained_write_high", 1.0, "sustained"),
    ("base", "vts_facts", "base_peak_write_low", 1.0, "peak"),
    ("base", "vts_facts", "base_peak_write_high", 1.0, "peak"),
    ("ehpo", "vts_facts", "ehpo_sustained_cf1_low", 1.0, "sustained"),
    ("ehpo", "vts_facts", "ehpo_sustained_cf1_high", 1.0, "sustained"),
    ("ehpo", "vts_facts", "ehpo_sustained_cf3_max_tvc", "ehpo_sustained_cf3_max_tvc_cf", "sustained"),
    ("paf", "vts_facts", "paf_sustained_cf1", 1.0, "sustained"),
    ("paf", "vts_facts", "paf_sustained_cf3", "paf_sustained_knee_cf", "sustained"),
    ("paf", "vts_facts", "paf_peak_cf1", 1.0, "peak"),
    ("paf", "vts_facts", "paf_peak_max", "paf_peak_max_min_cf", "peak"),
    ("paf", "vts_block_size", "peak_write_32kb", 2.66, "peak"),
    ("paf", "vts_block_size", "peak_write_64kb", 2.66, "peak"),
)


def write_sources(feature: str = "paf", block_kb: float = 32.0, tvc_config: str = "tvc_1728_36gb_paf"):
    """The paper's stated write points that belong on the curves shown: ``(CF, MB/s, provenance, mode)``.

    A point stated for one configuration is drawn only on that configuration's curve: the
    EHPO 19.5 MB/s of Sec. 3.5.3 is for the largest cache EHPO is offered with (the paper
    prints 1728 GB; read as Table 4's 1152 GB column), Table 2's points for their block size.
    """
    facts = load("vts_facts")
    out = []
    for feat, table, rid, cf, mode in _WRITE_POINTS:
        if feat != feature or (table == "vts_block_size" and f"_{block_kb:g}kb" not in rid):
            continue
        if rid == "ehpo_sustained_cf3_max_tvc" and tvc.table4_column(tvc_config) != 1152.0:
            continue
        t = load(table)
        x = facts.value(cf) if isinstance(cf, str) else float(cf)
        out.append((x, t.value(rid), t.provenance(rid), mode))
    return out


def _read_sources(block_kb: float):
    t1 = load("vts_read_rates")
    pts = [(float(t1["cf"][i]), float(t1["value"][i]), t1.provenance(r), str(t1["operation"][i]))
           for i, r in enumerate(t1["id"])]  # fmt: skip
    if float(block_kb) == 64.0:
        t2 = load("vts_block_size")
        pts.append((2.66, t2.value("read_hit_64kb"), t2.provenance("read_hit_64kb"), "hit"))
    return pts


#: The data rows the lesson's source table shows, in reading order.
SOURCE_ROWS = (
    *[("vts_ehpo_coefficients", r) for r in load("vts_ehpo_coefficients")["id"]],
    *[(t, r) for _f, t, r, _c, _m in _WRITE_POINTS],
    ("vts_facts", "ehpo_sustained_cf3_max_tvc_tvc_printed"),
    ("vts_facts", "peak_over_sustained_gain"),
    ("vts_block_size", "read_hit_32kb"),
    ("vts_block_size", "read_hit_64kb"),
    *[("vts_read_rates", r) for r in load("vts_read_rates")["id"]],
    ("vts_facts", "typical_mix_write_fraction"),
    ("vts_facts", "typical_mix_read_hit_ratio"),
    ("vts_facts", "escon_distance_write_loss"),
    ("vts_facts", "escon_distance_read_loss"),
    ("vts_facts", "eq3_cf_max"),
    ("vts_facts", "eq3_host_mbs_max"),
)

# --- figure bases: slow inputs in, figure JSON out (cached by the panel) ----------------------


def _figure(title: str, xaxis: str, yaxis: str, height: int = 400) -> go.Figure:
    return new_figure(title=title, xaxis_title=xaxis, yaxis_title=yaxis, height=height)


def _cf_frame(fig: go.Figure, valid: tuple[float, float]) -> None:
    """Shade CF beyond the validated range and fix the CF axis (marks never rescale it)."""
    fig.add_vrect(x0=valid[1], x1=float(CF_AXIS[-1]), fillcolor="#999999", opacity=0.08, line_width=0)
    fig.update_xaxes(range=[float(CF_AXIS[0]) - 0.05, float(CF_AXIS[-1]) + 0.05])


def write_base(feature: str, tvc_config: str, block_kb: float, escon_km: float) -> dict:
    """Peak and sustained write vs CF for ``feature`` (bold) and the other features (grey), cited points."""
    kw = {"block_kb": block_kb, "escon_km": escon_km, "tvc_config": tvc_config}
    label = _FEATURE[feature]
    fig = _figure(f"Write throughput, {label}: peak and sustained", "data compressibility CF [-]",
                  "host write rate [MB/s]")  # fmt: skip
    valid = tp.EQ3_CF_RANGE
    for f in (x for x in tp.FEATURES if x != feature):
        for mode in ("peak", "sustained"):
            y = tp.write_rate(CF_AXIS, feature=f, mode=mode, **kw)
            fig.add_traces(validated_curve(CF_AXIS, y, name=f"{_FEATURE[f]} {mode}", color=_GREY, valid=valid,
                                           width=1.5, dash="dash" if mode == "peak" else "solid",
                                           legendgroup=f, showlegend=mode == "sustained"))  # fmt: skip
    for mode in ("peak", "sustained"):
        y = tp.write_rate(CF_AXIS, feature=feature, mode=mode, **kw)
        fig.add_traces(
            validated_curve(CF_AXIS, y, name=f"{label} {mode}", color=_MODE_COLORS[mode], valid=valid)
        )
    for mode, symbol in (("sustained", "circle-open"), ("peak", "diamond-open")):
        pts = [s for s in write_sources(feature, block_kb, tvc_config) if s[3] == mode]
        if pts:
            x, y, prov, _ = zip(*pts, strict=True)
            fig.add_trace(
                source_markers(x, y, prov, name=f"stated, {mode}", color=_MODE_COLORS[mode], symbol=symbol)
            )
    _cf_frame(fig, valid)
    top = max(float(np.max(tp.write_rate(CF_AXIS, feature=f, mode="peak", **kw))) for f in tp.FEATURES)
    fig.update_yaxes(range=[0, 1.08 * top])
    return figure_json(fig)


def resources_base(feature: str, tvc_config: str, block_kb: float, escon_km: float, mode: str) -> dict:
    """The bottleneck view: each resource's capacity vs CF, and the least of them (dashed)."""
    kw = {
        "feature": feature,
        "mode": mode,
        "block_kb": block_kb,
        "escon_km": escon_km,
        "tvc_config": tvc_config,
    }
    caps = bn.write_capacities(CF_AXIS, **kw)
    achieved = np.asarray(bn.bottleneck_rate(CF_AXIS, **kw))
    fig = _figure(
        f"Which resource binds ({mode} write)", "data compressibility CF [-]", "capacity, host write [MB/s]"
    )
    for name, cap in caps.items():
        cap = np.asarray(cap, float)
        used = bool(np.any(np.isfinite(cap)))
        fig.add_trace(go.Scatter(
            x=CF_AXIS if used else [None], y=cap if used else [None], mode="lines",
            name=name if used else f"{name}: not used in {mode} write",
            line={"color": _RESOURCE_COLORS[name], "width": 2.5, "dash": "solid" if used else "dot"},
            hovertemplate=f"{name}<br>CF %{{x:.3g}}: %{{y:.3g}} MB/s<extra></extra>",
        ))  # fmt: skip
    fig.add_trace(go.Scatter(x=CF_AXIS, y=achieved, mode="lines", name="write rate (least capacity)",
                             line={"color": "black", "width": 1.5, "dash": "dash"}))  # fmt: skip
    _cf_frame(fig, tp.EQ3_CF_RANGE)
    fig.update_yaxes(range=[0, 2.2 * float(np.max(achieved)) * 1.05])
    return figure_json(fig)


def reads_base(block_kb: float, escon_km: float) -> dict:
    """Read hit and read recall vs CF with Table 1 (and Table 2) as cited markers."""
    fig = _figure(
        "Read hit and read recall (8 ESCON, PAF)", "data compressibility CF [-]", "host read rate [MB/s]"
    )
    sources = _read_sources(block_kb)
    for kind, color in (("hit", COLORS[2]), ("recall", COLORS[3])):
        y = tp.read_rate(CF_AXIS, kind=kind, block_kb=block_kb, escon_km=escon_km)
        fig.add_traces(validated_curve(CF_AXIS, y, name=f"read {kind}", color=color, valid=_READ_CF_VALID))
        x, yy, prov, _ = zip(*[s for s in sources if s[3] == kind], strict=True)
        fig.add_trace(source_markers(x, yy, prov, name=f"Table 1/2, {kind}", color=color))
    _cf_frame(fig, _READ_CF_VALID)
    fig.update_yaxes(rangemode="tozero")
    return figure_json(fig)


def mix_base(tvc_config: str, feature: str, block_kb: float, escon_km: float, w: float, h: float) -> dict:
    """Total host rate of the write/read mix vs CF, one curve per feature (the Fig. 9 question)."""
    fig = _figure(
        "Typical mix: writes and reads together", "data compressibility CF [-]", "host rate, total [MB/s]"
    )
    kw = {"write_fraction": w, "read_hit_ratio": h, "block_kb": block_kb, "escon_km": escon_km}
    for i, f in enumerate(tp.FEATURES):
        y = tp.typical_mix_rate(CF_AXIS, feature=f, tvc_config=tvc_config, **kw)
        valid = _READ_CF_VALID if f == "paf" else tp.EQ3_CF_RANGE
        fig.add_traces(validated_curve(CF_AXIS, y, name=_FEATURE[f], color=COLORS[i], valid=valid,
                                       width=3.0 if f == feature else 1.5))  # fmt: skip
    _cf_frame(fig, tp.EQ3_CF_RANGE)
    fig.update_yaxes(rangemode="tozero")
    return figure_json(fig)


def task_time_base(mounts: int, searches: int, interference: str) -> dict:
    """Import and export task time vs data moved (Eqs. 1 and 2), the fitted range shaded."""
    facts = load("vts_facts")
    fitted_mb = facts.value("ie_trend_data_gb") * (1.0 + facts.value("ie_outlier_extra_data")) * 1000.0
    fig = _figure("Import/export task time", "data moved, compressed [MB]", "task time [min]")
    fig.add_vrect(x0=0, x1=fitted_mb, fillcolor=COLORS[2], opacity=0.07, line_width=0)
    for func, name, color in (
        (ie.export_minutes, "export (Eq. 1)", COLORS[0]),
        (ie.import_minutes, "import (Eq. 2)", COLORS[1]),
    ):
        y = func(MB_AXIS, mounts, searches, interference=interference)
        fig.add_trace(go.Scatter(x=MB_AXIS, y=y, mode="lines", name=name, line={"color": color, "width": 3}))
    fig.update_xaxes(range=[0, float(MB_AXIS[-1])])
    fig.update_yaxes(
        range=[0, 1.05 * float(ie.import_minutes(MB_AXIS[-1], mounts, searches, interference=interference))]
    )
    return figure_json(fig)


def task_parts_base(mb: float, mounts: int, searches: int, interference: str) -> dict:
    """Stacked bars: where each task's time goes (data, mounts, searches, other work)."""
    fig = _figure("Where the time goes", "task time [min]", "", height=260)
    parts = {}
    for task, func in (("export", ie.export_minutes), ("import", ie.import_minutes)):
        base = {
            "data": float(func(mb, 2, 0)) - float(func(0.0, 2, 0)),
            "mounts": float(func(0.0, mounts, 0)),
            "searches": float(func(0.0, 2, searches)) - float(func(0.0, 2, 0)),
        }
        factor = float(ie.interference_factor(task, interference, mounts=mounts))
        base["other work"] = (factor - 1.0) * sum(base.values())
        parts[task] = base
    for i, term in enumerate(parts["export"]):
        fig.add_trace(go.Bar(y=list(parts), x=[parts[t][term] for t in parts], name=term, orientation="h",
                             marker_color=COLORS[(i + 2) % len(COLORS)],
                             hovertemplate=f"{term}: %{{x:.3g}} min<extra>%{{y}}</extra>"))  # fmt: skip
    fig.update_layout(barmode="stack")
    return figure_json(fig)


# --- views: input values in, a View out ----------------------------------------------------


def _reason(name: str, feature: str, mode: str) -> str:
    """Why a resource has the capacity it has, in a phrase for the binding line."""
    res = bn.Resources()
    copy = mode == "sustained"
    if name == "host channels":
        return f"8 ESCON channels at {number(res.channel_mb_s)} MB/s each with 32 KB blocks"
    if name == "processor":
        return "the RS/6000, which also runs the copy to tape" if copy else "the RS/6000"
    if name == "cache disks":
        also = "; in sustained write they also read every byte back for the copy" if copy else ""
        return {"base": "no compression: Table 4 at CF 1", "ehpo": "Eq. 3 with Table 4",
                "paf": f"full-stride writes at {number(res.paf_disk_mb_s)} compressed MB/s"}[feature] + also  # fmt: skip
    return f"the copy to tape at {number(res.drives_mb_s)} compressed MB/s"


def view_write(
    cf=3.0, tvc_config="tvc_1728_36gb_paf", feature="paf", block_kb=32.0, escon_km=0.0, view_mode="sustained"
) -> View:
    """The write panel: peak and sustained at ``cf``, the binding resource, the hours of peak."""
    kw = {"feature": feature, "block_kb": block_kb, "escon_km": escon_km, "tvc_config": tvc_config}
    rate = {m: float(tp.write_rate(cf, mode=m, **kw)) for m in ("peak", "sustained")}
    binds = {m: bn.binding_resource(cf, mode=m, **kw) for m in rate}
    hours = float(hours_at_peak(tvc.configuration(tvc_config).tvc_gb, cf, feature=feature, tvc_config=tvc_config,
                                peak_mb_s=rate["peak"], sustained_mb_s=rate["sustained"]))  # fmt: skip
    achieved = float(bn.bottleneck_rate(cf, mode=view_mode, **kw))
    slow = {"feature": feature, "tvc_config": tvc_config, "block_kb": block_kb, "escon_km": escon_km}
    figures = {
        "write": Plot(write_base, slow, shapes=[
            point_mark(cf, rate[m], color=_MODE_COLORS[m], name=f"{m} at this CF") for m in ("peak", "sustained")]),
        "resources": Plot(resources_base, {**slow, "mode": view_mode}, shapes=[
            point_mark(cf, achieved, color=_RESOURCE_COLORS[binds[view_mode]],
                       name=f"this CF: the {binds[view_mode]} bind")]),
    }  # fmt: skip
    binding = " ".join(
        f"{m.capitalize()} {number(rate[m])} MB/s: the {binds[m]} ({_reason(binds[m], feature, m)})."
        for m in ("sustained", "peak")
    )
    return View(
        figures=figures,
        readouts={
            "peak write": f"{number(rate['peak'])} MB/s",
            "sustained write": f"{number(rate['sustained'])} MB/s",
            "peak ÷ sustained": number(rate["peak"] / rate["sustained"]),
            "hours of peak the cache buys": "no limit (copying keeps up)"
            if not np.isfinite(hours)
            else f"{number(hours)} h",
            "binds in peak": binds["peak"],
            "binds in sustained": binds["sustained"],
        },  # fmt: skip
        binding=binding,
        citations=(tp.write_rate, bn.write_capacities, tp.escon_distance_factor, hours_at_peak),
    )


def view_reads(cf=2.66, tvc_config="tvc_1728_36gb_paf", feature="paf", block_kb=32.0, escon_km=0.0,
               write_fraction=0.6, read_hit_ratio=0.5) -> View:  # fmt: skip
    """The read panel: read hit and recall at ``cf`` (Table 1) and the typical mix."""
    kw = {"block_kb": block_kb, "escon_km": escon_km}
    hit, recall = (float(tp.read_rate(cf, kind=k, **kw)) for k in ("hit", "recall"))
    w, h = write_fraction, read_hit_ratio
    mix = float(tp.typical_mix_rate(cf, feature=feature, write_fraction=w, read_hit_ratio=h, tvc_config=tvc_config,
                                    **kw))  # fmt: skip
    figures = {
        "reads": Plot(reads_base, kw, shapes=[point_mark(cf, hit, color=COLORS[2], name="hit at this CF"),
                                              point_mark(cf, recall, color=COLORS[3], name="recall at this CF")]),
        "mix": Plot(mix_base, {"tvc_config": tvc_config, "feature": feature, "w": w, "h": h, **kw},
                    shapes=[point_mark(cf, mix, name=f"{_FEATURE[feature]} at this CF")]),
    }  # fmt: skip
    binding = (
        f"The mix shares one machine: {w:.0%} of the bytes at the sustained write rate, {(1 - w) * h:.0%} at "
        f"the read hit rate and {(1 - w) * (1 - h):.0%} at the recall rate (a weighted harmonic mean); "
        "recalls are bound by the tape drives, hits by the channels."
    )
    return View(
        figures=figures,
        readouts={
            "read hit": f"{number(hit)} MB/s",
            "read recall": f"{number(recall)} MB/s",
            "typical mix, total": f"{number(mix)} MB/s",
            "of which writes": f"{number(w * mix)} MB/s",
            "of which reads": f"{number((1 - w) * mix)} MB/s",
        },  # fmt: skip
        binding=binding,
        citations=(tp.read_rate, tp.typical_mix_rate),
    )


def view_import_export(mb=2300.0, mounts=10, searches=0, interference="none") -> View:
    """The import/export calculator: task times (Eqs. 1 and 2) and where the time goes."""
    kw = {"interference": interference}
    e = float(ie.export_minutes(mb, mounts, searches, **kw))
    i = float(ie.import_minutes(mb, mounts, searches, **kw))
    slow = {"mounts": mounts, "searches": searches, **kw}
    figures = {
        "task_time": Plot(task_time_base, slow, shapes=[point_mark(mb, e, color=COLORS[0], name="export, this task"),
                                                        point_mark(mb, i, color=COLORS[1], name="import, this task")]),
        "task_parts": Plot(task_parts_base, {"mb": mb, **slow}),
    }  # fmt: skip
    return View(
        figures=figures,
        readouts={
            "export": f"{number(e)} min",
            "import": f"{number(i)} min",
            "export data rate": f"{number(mb / (e * 60.0))} MB/s",
            "import data rate": f"{number(mb / (i * 60.0))} MB/s",
            "recall rate meanwhile": f"× {number(ie.RECALL_RATE_FACTOR)}",
        },  # fmt: skip
        binding=f"Export {number(e)} min, import {number(i)} min for {number(mb)} MB and {mounts} mounts.",
        citations=(ie.export_minutes, ie.import_minutes),
    )


# --- panels --------------------------------------------------------------------------------


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


def write_panel(**values) -> Panel:
    """Peak and sustained write vs CF, the bottleneck view and the hours of peak."""
    return Panel(_inputs(*SCENARIO, "view_mode"), view_write, values=values, title="Peak and sustained write",
                 name="01_write")  # fmt: skip


def read_panel(**values) -> Panel:
    """Read hit, read recall and the typical 60/40 mix vs CF (starts at Table 1's CF 2.66)."""
    inputs = _inputs(*SCENARIO, "write_fraction", "read_hit_ratio")
    return Panel(
        inputs, view_reads, values={"cf": 2.66, **values}, title="Reads and the typical mix", name="01_reads"
    )


def import_export_panel(**values) -> Panel:
    """Import and export task time, Eqs. 1 and 2, with the interference of other work."""
    return Panel(_inputs("mb", "mounts", "searches", "interference"), view_import_export, values=values,
                 title="Import/export calculator", name="01_import_export")  # fmt: skip


# --- the lesson contract ---------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """Peak and sustained write, hours of peak, reads and the typical mix of one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    cf, cfg = v["cf"], v["tvc_config"]
    kw = {"block_kb": v["block_kb"], "escon_km": v["escon_km"]}
    peak = float(tp.write_rate(cf, feature=v["feature"], mode="peak", tvc_config=cfg, **kw))
    sus = float(tp.write_rate(cf, feature=v["feature"], mode="sustained", tvc_config=cfg, **kw))
    return {
        "peak write [MB/s]": peak,
        "sustained write [MB/s]": sus,
        "peak ÷ sustained [-]": peak / sus,
        "hours at peak [h]": float(
            hours_at_peak(
                tvc.configuration(cfg).tvc_gb,
                cf,
                feature=v["feature"],
                tvc_config=cfg,
                peak_mb_s=peak,
                sustained_mb_s=sus,
            )
        ),  # fmt: skip
        "read hit [MB/s]": float(tp.read_rate(cf, kind="hit", **kw)),
        "read recall [MB/s]": float(tp.read_rate(cf, kind="recall", **kw)),
        "typical mix [MB/s]": float(tp.typical_mix_rate(cf, feature=v["feature"], tvc_config=cfg, **kw)),
    }


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (import/export at its defaults)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    views = (compute(view_write, v), compute(view_reads, v), compute(view_import_export, {}))
    return View(
        figures={k: f for view in views for k, f in view.figures.items()},
        readouts={k: r for view in views for k, r in view.readouts.items()},
        binding=views[0].binding,
        notes=tuple(dict.fromkeys(n for view in views for n in view.notes)),
        citations=tuple(dict.fromkeys(c for view in views for c in view.citations)),
    )


# --- the numbers the notebook prints ----------------------------------------------------------


def table4_numbers() -> str:
    """Table 4 at CF 1 (the base VTS) for its three columns, and EHPO at CF 3: labelled lines."""
    lines = []
    for mode in ("sustained", "peak"):
        rates = ", ".join(
            f"{c:g} GB {number(tp.write_rate(1, c, feature='base', mode=mode))}" for c in (288, 576, 1152)
        )
        lines.append(f"base {mode} write (Table 4 at CF 1) [MB/s]: {rates}")
    lines.append(
        f"EHPO sustained write, CF 3, 1152 GB column: {number(tp.write_rate(3, 1152, feature='ehpo'), 4)} MB/s"
    )
    return "\n".join(lines)


def paf_fit_numbers() -> str:
    """The PAF curves' fits: parameters, standard errors, residuals (calibrated to the stated points)."""
    return "\n".join(tp.paf_fit(mode).summary() for mode in ("sustained", "peak"))


def binding_numbers() -> str:
    """The binding resource at CF 1 to 4, EHPO with 1152 GB and PAF with 1728 GB: labelled lines."""
    lines = []
    for feature, tvc_gb in (("ehpo", 1152), ("paf", 1728)):  # the largest cache each is offered with
        for mode in ("sustained", "peak"):
            binds = ", ".join(
                f"CF {c}: {bn.binding_resource(c, tvc_gb, feature=feature, mode=mode)}" for c in (1, 2, 3, 4)
            )
            lines.append(f"binds, {_FEATURE[feature]} {tvc_gb:g} GB {mode}: {binds}")
    return "\n".join(lines)


def read_numbers() -> str:
    """Table 1's reads from the fitted curves, and the typical mix at CF 2.66: labelled lines."""
    lines = [
        f"read {k} at CF {c:g}: {number(tp.read_rate(c, kind=k))} MB/s"
        for k in ("hit", "recall")
        for c in (1, 2.66)
    ]
    lines.append(f"typical mix (60/40, 50 % hits), PAF, CF 2.66: {number(tp.typical_mix_rate(2.66))} MB/s")
    return "\n".join(lines)


def task_numbers(mb: float = 2300.0) -> str:
    """Eqs. 1 and 2 for the paper's Fig. 14 example sizes, alone and with the host in peak write."""
    lines = []
    for task, func, mounts in (("export", ie.export_minutes, 13), ("import", ie.import_minutes, 6)):
        for other in ("none", "peak_write"):
            label = INPUTS["interference"].label_of(other)
            lines.append(f"{task} of {number(mb)} MB with {mounts} mounts, other work {label}: "
                         f"{number(func(mb, mounts, interference=other))} min")  # fmt: skip
    return "\n".join(lines)
