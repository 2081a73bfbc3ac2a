"""Lesson 01: sustained vs peak write of the VTS B18, and which resource limits it.

This module is the pattern the other lessons follow:

* **figure builders** ``fig_*(numbers...) -> go.Figure``: pure, no widget, no model call
  they do not need; testable without a kernel;
* **view functions** ``view_*(**values) -> View``: the values of a panel's controls in;
  the model calls, the figures, the readouts, the binding limit and the caption out;
* **panel factories** ``*_panel() -> Panel``: the controls (units in their labels) bound
  to a view function;
* the **lesson contract** of :mod:`vtsmodel.app.lessons`: ``TITLE``, ``NOTEBOOK``,
  ``SCENARIO_PARAMS``, ``scenario_outputs`` and ``scenario_view``.

Three panels: :func:`write_panel` (peak and sustained write vs CF, and the bottleneck
view), :func:`read_panel` (read hit, recall and the typical mix) and
:func:`import_export_panel` (Eqs. 1 and 2).

Figures are built with :func:`vtsmodel.app.figures.new_figure`, which leaves the plotly
template out: the panel's plot panes and the exports add it.
"""

from __future__ import annotations

import functools
import html
import warnings

import numpy as np
import plotly.graph_objects as go

from vtsmodel import bottleneck as bn
from vtsmodel import import_export as ie
from vtsmodel import throughput as tp
from vtsmodel._tables import Provenance, load
from vtsmodel._validation import ExtrapolationWarning
from vtsmodel.app.figures import (
    COLORS,
    figure_from_json,
    fixed_json,
    new_figure,
    operating_point,
    source_markers,
)
from vtsmodel.app.lessons import Param, scenario_values
from vtsmodel.app.panels import Panel, View, dropdown, int_slider, slider
from vtsmodel.tvc import hours_at_peak

__all__ = [
    "CF_AXIS",
    "NOTEBOOK",
    "SCENARIO_PARAMS",
    "TITLE",
    "TVC_CAPACITIES",
    "fig_import_export",
    "fig_mix",
    "fig_reads",
    "fig_resources",
    "fig_task_parts",
    "fig_write",
    "import_export_panel",
    "read_panel",
    "scenario_outputs",
    "scenario_view",
    "source_table_html",
    "view_import_export",
    "view_reads",
    "view_write",
    "write_panel",
    "write_sources",
]

LESSON_ID = "01"
TITLE = "Sustained vs peak write of the VTS"
NOTEBOOK = "01_sustained_vs_peak_write.ipynb"

#: CF axis of the curves: the validated 1 to 4, and on to 6 drawn as an extrapolation. [-]
CF_AXIS = np.round(np.linspace(1.0, 6.0, 101), 6)
#: The product's TVC capacities (Table 3, both HDD sizes, all features). [GB]
TVC_CAPACITIES = tuple(int(c) for c in sorted(set(load("vts_tvc_configs")["tvc_gb"])))
#: Block sizes offered: the QSAM limit, Table 2's other point and one between. [KB]
BLOCK_SIZES = (32, 48, 64)
#: Data moved, axis of the import/export figure. [MB]
MB_AXIS = np.linspace(0.0, 4000.0, 81)

_SRC = "ibm-vts-b18-2000"
_FEATURE_LABELS = {"base": "base", "ehpo": "EHPO", "paf": "PAF"}
_MODE_COLORS = {"peak": COLORS[1], "sustained": COLORS[0]}
_GREYS = {"base": "#C4C4C4", "ehpo": "#8C8C8C", "paf": "#8C8C8C"}
_RESOURCE_COLORS = dict(zip(bn.RESOURCES, (COLORS[4], COLORS[3], COLORS[2], COLORS[5]), strict=True))
_HEIGHT = 400
_CF_VALID = tp.EQ3_CF_RANGE
_READ_CF_VALID = (1.0, 2.66)  # Table 1

SCENARIO_PARAMS = {
    "cf": Param("compressibility CF", "-", 3.0, 1.0, 10.0, help="Host bytes per byte stored"),
    "tvc_gb": Param("TVC capacity", "GB", 1728.0, 72.0, 1728.0, help="Tape volume cache (Table 3)"),
    "feature": Param("feature", "", "paf", choices=tp.FEATURES, help="base, EHPO or PAF (with EHPO)"),
    "block_kb": Param("block size", "KB", 32.0, 32.0, 64.0, help="Host block size (Table 2)"),
    "escon_km": Param("ESCON distance", "km", 0.0, 0.0, 25.0, help="Host to VTS (Sec. 8.2)"),
}


# --- small helpers ------------------------------------------------------------------------


def _figure(title: str, xaxis_title: str, yaxis_title: str, height: int = _HEIGHT) -> go.Figure:
    """An empty figure in the project's style, with a title."""
    return new_figure(title=title, xaxis_title=xaxis_title, yaxis_title=yaxis_title, height=height)


def _quiet(func, *args, **kwargs):
    """Call a model function with its ExtrapolationWarning silenced (the figure marks the range)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


def _extrapolations(func, *args, **kwargs) -> tuple[object, list[str]]:
    """Call a model function; return its value and the messages of its extrapolation warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ExtrapolationWarning)
        value = func(*args, **kwargs)
    return value, [str(w.message) for w in caught if issubclass(w.category, ExtrapolationWarning)]


def _curve(x, y, *, name, color, valid, dash="solid", width=3.0, legendgroup=None, showlegend=True):
    """Two traces: the curve inside the validated x range, solid, and outside it, dotted."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    inside = (x >= valid[0] - 1e-9) & (x <= valid[1] + 1e-9)
    group = legendgroup or name
    out_x = np.where(inside, np.nan, x)
    # Join the dotted part to the solid part at the edge of the validated range.
    edge = np.flatnonzero(inside)
    if edge.size and edge[-1] + 1 < x.size:
        out_x[edge[-1]] = x[edge[-1]]
    return [
        go.Scatter(
            x=np.where(inside, x, np.nan), y=y, mode="lines", name=name, legendgroup=group,
            line={"color": color, "dash": dash, "width": width}, showlegend=showlegend,
            hovertemplate=f"{name}<br>CF %{{x:.3g}}: %{{y:.3g}} MB/s<extra></extra>",
        ),
        go.Scatter(
            x=out_x, y=y, mode="lines", name=f"{name} (extrapolated)", legendgroup=group,
            line={"color": color, "dash": "dot", "width": max(width - 1.0, 1.0)}, showlegend=False,
            hovertemplate=f"{name}, extrapolated<br>CF %{{x:.3g}}: %{{y:.3g}} MB/s<extra></extra>",
        ),
    ]  # fmt: skip


def _fmt_hours(h: float) -> str:
    return "no limit (copying keeps up)" if not np.isfinite(h) else f"{h:.3g}"


# --- source points ----------------------------------------------------------------------

#: Stated write points by feature: (table, row id, CF row id or CF value, mode).
_WRITE_POINTS = {
    "base": [
        ("vts_facts", "base_sustained_write_low", 1.0, "sustained"),
        ("vts_facts", "base_sustained_write_high", 1.0, "sustained"),
        ("vts_facts", "base_peak_write_low", 1.0, "peak"),
        ("vts_facts", "base_peak_write_high", 1.0, "peak"),
    ],
    "ehpo": [
        ("vts_facts", "ehpo_sustained_cf1_low", 1.0, "sustained"),
        ("vts_facts", "ehpo_sustained_cf1_high", 1.0, "sustained"),
        ("vts_facts", "ehpo_sustained_cf3_max_tvc", "ehpo_sustained_cf3_max_tvc_cf", "sustained"),
    ],
    "paf": [
        ("vts_facts", "paf_sustained_cf1", 1.0, "sustained"),
        ("vts_facts", "paf_sustained_cf3", "paf_sustained_knee_cf", "sustained"),
        ("vts_facts", "paf_peak_cf1", 1.0, "peak"),
        ("vts_facts", "paf_peak_max", "paf_peak_max_min_cf", "peak"),
        ("vts_block_size", "peak_write_{block}kb", 2.66, "peak"),
    ],
}


def write_sources(feature: str = "paf", block_kb: float = 32.0) -> list[tuple[float, float, Provenance, str]]:
    """The paper's stated write points for ``feature``: ``(CF, MB/s, provenance, mode)``.

    The Table 2 point is the one of the block size shown (32 or 64 KB), if any.
    """
    out = []
    for table, rid, cf, mode in _WRITE_POINTS[feature]:
        if "{block}" in rid:
            if float(block_kb) not in (32.0, 64.0):
                continue
            rid = rid.format(block=int(block_kb))
        t = load(table)
        x = load("vts_facts").value(cf) if isinstance(cf, str) else float(cf)
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
    ("vts_facts", "base_peak_write_low"),
    ("vts_facts", "base_peak_write_high"),
    ("vts_facts", "base_sustained_write_low"),
    ("vts_facts", "base_sustained_write_high"),
    ("vts_facts", "ehpo_sustained_cf3_max_tvc"),
    ("vts_facts", "ehpo_sustained_cf3_max_tvc_tvc_printed"),
    ("vts_facts", "paf_sustained_cf1"),
    ("vts_facts", "paf_sustained_cf3"),
    ("vts_facts", "paf_peak_cf1"),
    ("vts_facts", "paf_peak_max"),
    ("vts_facts", "peak_over_sustained_gain"),
    ("vts_block_size", "peak_write_32kb"),
    ("vts_block_size", "peak_write_64kb"),
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


def source_table_html(rows=SOURCE_ROWS) -> str:
    """The lesson's source rows as an HTML table: as printed, value, unit, source, locator."""
    head = "".join(
        f"<th style='text-align:left'>{h}</th>" for h in ("id", "printed", "value", "unit", "source, locator")
    )
    body = []
    for table, rid in rows:
        p = load(table).provenance(rid)
        body.append(
            f"<tr title='{html.escape(p.quote or p.note)}'><td><code>{html.escape(rid)}</code></td>"
            f"<td>{html.escape(p.printed)}</td><td style='text-align:right'>{p.value:g}</td>"
            f"<td>{html.escape(p.unit)}</td><td>{html.escape(p.source)}, {html.escape(p.locator)}</td></tr>"
        )
    return (
        f"<table class='vtsmodel-sources'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )  # fmt: skip


# --- figure builders: numbers in, a Figure out --------------------------------------------


def _write_points(cf: float, peak_now: float, sustained_now: float) -> list[go.Scatter]:
    return [
        operating_point(cf, peak_now, name="peak at this CF", color=_MODE_COLORS["peak"]),
        operating_point(cf, sustained_now, name="sustained at this CF", color=_MODE_COLORS["sustained"]),
    ]


def fig_write(
    cf_axis,
    peak,
    sustained,
    *,
    cf: float | None,
    peak_now: float = float("nan"),
    sustained_now: float = float("nan"),
    feature: str = "paf",
    others=None,
    sources=(),
    valid=_CF_VALID,
) -> go.Figure:
    """Peak and sustained write vs CF, the other features for comparison, the source points.

    Parameters
    ----------
    cf_axis, peak, sustained : array_like
        The curves. [-], [MB/s], [MB/s]
    cf, peak_now, sustained_now : float
        The operating point (none drawn when ``cf`` is None). [-], [MB/s], [MB/s]
    feature : str
        The feature the curves are for (legend text).
    others : dict of str to (peak, sustained) arrays, optional
        Other features' curves, drawn thin.
    sources : sequence of (CF, MB/s, Provenance, mode)
        Stated points, drawn as markers whose hover cites them.
    valid : (float, float)
        CF range drawn solid; outside it the curves are dotted (extrapolation).
    """
    label = _FEATURE_LABELS.get(feature, feature)
    fig = _figure(f"Write throughput, {label}: peak and sustained", "data compressibility CF [-]",
                  "host write rate [MB/s]")  # fmt: skip
    for name, (pk, su) in (others or {}).items():
        lab = _FEATURE_LABELS.get(name, name)
        for mode, y in (("peak", pk), ("sustained", su)):
            fig.add_traces(_curve(cf_axis, y, name=f"{lab} {mode}", color=_GREYS.get(name, "#AAAAAA"), valid=valid, width=1.5,
                                  dash="dash" if mode == "peak" else "solid", legendgroup=name,
                                  showlegend=False))  # fmt: skip
        # One legend entry per other feature, toggling both its curves.
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=f"{lab} (peak dashed)",
                                 legendgroup=name, line={"color": _GREYS.get(name, "#AAAAAA"), "width": 1.5}))  # fmt: skip
    fig.add_traces(_curve(cf_axis, peak, name=f"{label} peak", color=_MODE_COLORS["peak"], valid=valid))
    fig.add_traces(_curve(cf_axis, sustained, name=f"{label} sustained", color=_MODE_COLORS["sustained"],
                          valid=valid))  # fmt: skip
    for mode, symbol in (("sustained", "circle-open"), ("peak", "diamond-open")):
        pts = [s for s in sources if s[3] == mode]
        if pts:
            x, y, prov, _ = zip(*pts, strict=True)
            fig.add_trace(source_markers(x, y, prov, name=f"stated, {mode}", color=_MODE_COLORS[mode],
                                         symbol=symbol))  # fmt: skip
    if cf is not None:
        fig.add_traces(_write_points(cf, peak_now, sustained_now))
    fig.add_vrect(x0=valid[1], x1=float(np.max(cf_axis)), fillcolor="#999999", opacity=0.08, line_width=0)
    fig.update_xaxes(range=[float(np.min(cf_axis)) - 0.05, float(np.max(cf_axis)) + 0.05])
    fig.update_yaxes(rangemode="tozero")
    return fig


def _resources_point(cf: float, achieved_now: float, binding: str) -> go.Scatter:
    return operating_point(cf, achieved_now, name=f"this CF: {binding} bind")


def fig_resources(cf_axis, capacities, achieved, *, cf: float | None, achieved_now: float = float("nan"),
                  binding: str, mode: str, valid=_CF_VALID) -> go.Figure:  # fmt: skip
    """The bottleneck view: each resource's capacity vs CF, and the least of them.

    Parameters
    ----------
    cf_axis : array_like
        CF values. [-]
    capacities : dict of str to array_like
        Resource name to the host write rate it could carry alone; ``inf`` where the
        resource is not used. [MB/s]
    achieved : array_like
        The write rate, for the envelope. [MB/s]
    cf, achieved_now : float
        The operating point (none drawn when ``cf`` is None). [-], [MB/s]
    binding : str
        The resource that binds at ``cf`` (drawn thicker).
    mode : str
        "peak" or "sustained" (title text).
    """
    fig = _figure(f"Which resource binds ({mode} write)", "data compressibility CF [-]",
                  "capacity, host write [MB/s]")  # fmt: skip
    finite_max = 0.0
    for name, cap in capacities.items():
        cap = np.asarray(cap, float)
        if not np.any(np.isfinite(cap)):
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=f"{name}: not used in {mode} write",
                                     line={"color": _RESOURCE_COLORS.get(name, "#888"), "dash": "dot"}))  # fmt: skip
            continue
        finite_max = max(finite_max, float(np.nanmax(cap[np.isfinite(cap)])))
        width = 3.5 if name == binding else 2.0
        fig.add_trace(go.Scatter(x=cf_axis, y=cap, mode="lines", name=name,
                                 line={"color": _RESOURCE_COLORS.get(name, "#888"), "width": width},
                                 hovertemplate=f"{name}<br>CF %{{x:.3g}}: %{{y:.3g}} MB/s<extra></extra>"))  # fmt: skip
    fig.add_trace(go.Scatter(x=cf_axis, y=achieved, mode="lines", name="write rate (least capacity)",
                             line={"color": "black", "width": 1.5, "dash": "dash"},
                             hovertemplate="write rate<br>CF %{x:.3g}: %{y:.3g} MB/s<extra></extra>"))  # fmt: skip
    if cf is not None:
        fig.add_trace(_resources_point(cf, achieved_now, binding))
    fig.add_vrect(x0=valid[1], x1=float(np.max(cf_axis)), fillcolor="#999999", opacity=0.08, line_width=0)
    top = min(finite_max, 2.2 * float(np.nanmax(achieved))) * 1.05
    fig.update_yaxes(range=[0, top])
    return fig


def _reads_points(cf: float, hit_now: float, recall_now: float) -> list[go.Scatter]:
    return [
        operating_point(cf, hit_now, name="hit at this CF", color=COLORS[2]),
        operating_point(cf, recall_now, name="recall at this CF", color=COLORS[3]),
    ]


def fig_reads(cf_axis, hit, recall, *, cf: float | None, hit_now: float = float("nan"),
              recall_now: float = float("nan"), sources=(), valid=_READ_CF_VALID) -> go.Figure:  # fmt: skip
    """Read hit and read recall vs CF with Table 1 (and Table 2) as cited markers.

    The operating point is drawn at ``cf`` unless it is None.
    """
    fig = _figure(
        "Read hit and read recall (8 ESCON, PAF)", "data compressibility CF [-]", "host read rate [MB/s]"
    )
    fig.add_traces(_curve(cf_axis, hit, name="read hit", color=COLORS[2], valid=valid))
    fig.add_traces(_curve(cf_axis, recall, name="read recall", color=COLORS[3], valid=valid))
    for kind, color in (("hit", COLORS[2]), ("recall", COLORS[3])):
        pts = [s for s in sources if s[3] == kind]
        if pts:
            x, y, prov, _ = zip(*pts, strict=True)
            fig.add_trace(source_markers(x, y, prov, name=f"Table 1/2, {kind}", color=color))
    if cf is not None:
        fig.add_traces(_reads_points(cf, hit_now, recall_now))
    fig.add_vrect(x0=valid[1], x1=float(np.max(cf_axis)), fillcolor="#999999", opacity=0.08, line_width=0)
    fig.update_yaxes(rangemode="tozero")
    return fig


def _mix_point(cf: float, mix_now: float, feature: str) -> go.Scatter:
    return operating_point(cf, mix_now, name=f"{_FEATURE_LABELS.get(feature, feature)} at this CF")


def fig_mix(cf_axis, mixes, *, cf: float | None, mix_now: float = float("nan"), feature: str,
            valid=None) -> go.Figure:  # fmt: skip
    """Total host rate of the write/read mix vs CF, one curve per feature (the Fig. 9 question).

    ``mixes`` maps feature to its curve [MB/s]; ``valid`` maps feature to its solid CF range.
    The operating point is drawn at ``cf`` unless it is None.
    """
    fig = _figure(
        "Typical mix: writes and reads together", "data compressibility CF [-]", "host rate, total [MB/s]"
    )
    for i, (name, y) in enumerate(mixes.items()):
        rng = (valid or {}).get(name, _CF_VALID)
        fig.add_traces(_curve(cf_axis, y, name=_FEATURE_LABELS.get(name, name), color=COLORS[i % len(COLORS)],
                              valid=rng, width=3.0 if name == feature else 1.5))  # fmt: skip
    if cf is not None:
        fig.add_trace(_mix_point(cf, mix_now, feature))
    fig.update_yaxes(rangemode="tozero")
    return fig


def fig_import_export(mb_axis, export, import_, *, mb: float, export_now: float, import_now: float,
                      fitted_mb: float) -> go.Figure:  # fmt: skip
    """Import and export task time vs data moved (Eqs. 1 and 2), with the fitted range shaded."""
    fig = _figure("Import/export task time", "data moved, compressed [MB]", "task time [min]")
    fig.add_vrect(x0=0, x1=fitted_mb, fillcolor=COLORS[2], opacity=0.07, line_width=0)
    fig.add_trace(go.Scatter(x=mb_axis, y=export, mode="lines", name="export (Eq. 1)",
                             line={"color": COLORS[0], "width": 3}))  # fmt: skip
    fig.add_trace(go.Scatter(x=mb_axis, y=import_, mode="lines", name="import (Eq. 2)",
                             line={"color": COLORS[1], "width": 3}))  # fmt: skip
    fig.add_trace(operating_point(mb, export_now, name="export, this task", color=COLORS[0]))
    fig.add_trace(operating_point(mb, import_now, name="import, this task", color=COLORS[1]))
    fig.update_yaxes(rangemode="tozero")
    return fig


def fig_task_parts(parts) -> go.Figure:
    """Stacked bars: where each task's time goes. ``parts[task][term]`` in minutes."""
    fig = _figure("Where the time goes", "task time [min]", "", height=260)
    tasks = list(parts)
    terms = list(dict.fromkeys(t for p in parts.values() for t in p))
    for i, term in enumerate(terms):
        fig.add_trace(go.Bar(y=tasks, x=[parts[t].get(term, 0.0) for t in tasks], name=term, orientation="h",
                             marker_color=COLORS[(i + 2) % len(COLORS)],
                             hovertemplate=f"{term}: %{{x:.3g}} min<extra>%{{y}}</extra>"))  # fmt: skip
    fig.update_layout(barmode="stack")
    return fig


# --- view functions: control values in, a View out ----------------------------------------


def _resource_reason(name: str, feature: str, mode: str, block_kb: float, escon_km: float) -> str:
    """Why a resource has the capacity it has, in a phrase for the binding line."""
    res = bn.Resources()
    copy = mode == "sustained"
    if name == "host channels":
        where = "".join(
            [f", {block_kb:g} KB blocks" if block_kb != 32 else "", f", {escon_km:g} km" if escon_km else ""]
        )
        return f"8 ESCON channels at {res.channel_mb_s:.3g} MB/s each with 32 KB blocks{where}"
    if name == "processor":
        return "the RS/6000, which also runs the copy to tape" if copy else "the RS/6000"
    if name == "cache disks":
        also = "; in sustained write they also read every byte back for the copy" if copy else ""
        return {
            "base": f"no compression, every host byte goes to the HDDs: Table 4 at CF 1{also}",
            "ehpo": f"Eq. 3 with Table 4, HDD work per host MB falls as 1/CF{also}",
            "paf": f"full-stride writes at {res.paf_disk_mb_s:.3g} compressed MB/s{also}",
        }[feature]
    return f"the copy to tape at {res.drives_mb_s:.3g} compressed MB/s"


def _notes(messages) -> str:
    """The extrapolation warnings, shortened, as one sentence ('' if none)."""
    short = [m.split("; the result is an extrapolation")[0] for m in dict.fromkeys(messages)]
    return f" Extrapolated: {'; '.join(short)}." if short else ""


# The fixed part of each figure (curves, stated points), built once per setting of the
# inputs other than CF and cached: moving CF then only adds the operating point.
_FIXED_CACHE = 64


@functools.lru_cache(maxsize=_FIXED_CACHE)
def _write_fixed(feature: str, tvc: float, block: float, km: float) -> dict:
    kw = {"block_kb": block, "escon_km": km}

    def curves(f: str):
        return tuple(_quiet(tp.write_rate, CF_AXIS, tvc, mode=m, feature=f, **kw) for m in ("peak", "sustained"))  # fmt: skip

    others = {f: curves(f) for f in tp.FEATURES if f != feature}
    return fixed_json(fig_write(CF_AXIS, *curves(feature), cf=None, feature=feature, others=others,
                                sources=write_sources(feature, block)))  # fmt: skip


@functools.lru_cache(maxsize=_FIXED_CACHE)
def _resources_fixed(feature: str, tvc: float, block: float, km: float, mode: str, binding: str) -> dict:
    kw = {"feature": feature, "block_kb": block, "escon_km": km}
    caps = _quiet(bn.write_capacities, CF_AXIS, tvc, mode=mode, **kw)
    achieved = _quiet(bn.bottleneck_rate, CF_AXIS, tvc, mode=mode, **kw)
    return fixed_json(fig_resources(CF_AXIS, caps, achieved, cf=None, binding=binding, mode=mode))


@functools.lru_cache(maxsize=_FIXED_CACHE)
def _reads_fixed(block: float, km: float) -> dict:
    kw = {"block_kb": block, "escon_km": km}
    hit = _quiet(tp.read_rate, CF_AXIS, kind="hit", **kw)
    recall = _quiet(tp.read_rate, CF_AXIS, kind="recall", **kw)
    return fixed_json(fig_reads(CF_AXIS, hit, recall, cf=None, sources=_read_sources(block)))


@functools.lru_cache(maxsize=_FIXED_CACHE)
def _mix_fixed(tvc: float, feature: str, block: float, km: float, w: float, h: float) -> dict:
    kw = {"write_fraction": w, "read_hit_ratio": h, "block_kb": block, "escon_km": km}
    mixes = {f: _quiet(tp.typical_mix_rate, CF_AXIS, tvc, feature=f, **kw) for f in tp.FEATURES}
    valid = {f: (_READ_CF_VALID if f == "paf" else _CF_VALID) for f in tp.FEATURES}
    return fixed_json(fig_mix(CF_AXIS, mixes, cf=None, feature=feature, valid=valid))


def view_write(
    cf=3.0, tvc_gb=1728.0, feature="paf", block_kb=32.0, escon_km=0.0, view_mode="sustained"
) -> View:
    """The write panel: peak and sustained vs CF, the bottleneck view, the hours of peak.

    Parameters
    ----------
    cf : float
        Data compressibility. [-]
    tvc_gb : float
        TVC capacity. [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option.
    block_kb : float
        Host block size. [KB]
    escon_km : float
        ESCON distance between host and VTS (Sec. 8.2). [km]
    view_mode : {"sustained", "peak"}
        Which mode the bottleneck figure shows.
    """
    cf, tvc, block, km = float(cf), float(tvc_gb), float(block_kb), float(escon_km)
    kw = {"feature": feature, "block_kb": block, "escon_km": km}

    (peak, peak_notes), (sus, sus_notes) = (
        _extrapolations(tp.write_rate, cf, tvc, mode=m, **kw) for m in ("peak", "sustained")
    )
    peak, sus = float(peak), float(sus)
    notes = peak_notes + sus_notes
    hours = float(_quiet(hours_at_peak, tvc, cf, feature=feature, peak_mb_s=peak, sustained_mb_s=sus))
    binds = {m: _quiet(bn.binding_resource, cf, tvc, mode=m, **kw) for m in ("peak", "sustained")}
    achieved_now = float(_quiet(bn.bottleneck_rate, cf, tvc, mode=view_mode, **kw))
    figures = {
        "write": figure_from_json(_write_fixed(feature, tvc, block, km), _write_points(cf, peak, sus)),
        "resources": figure_from_json(_resources_fixed(feature, tvc, block, km, view_mode, binds[view_mode]),
                                      [_resources_point(cf, achieved_now, binds[view_mode])]),
    }  # fmt: skip
    readouts = {
        "peak write [MB/s]": f"{peak:.3g}",
        "sustained write [MB/s]": f"{sus:.3g}",
        "peak ÷ sustained [-]": f"{peak / sus:.2f}",
        "hours of peak the cache buys [h]": _fmt_hours(hours),
        "binds in peak": binds["peak"],
        "binds in sustained": binds["sustained"],
    }
    binding = " ".join(
        f"{mode.capitalize()} {rate:.3g} MB/s: the {binds[mode]} ({_resource_reason(binds[mode], feature, mode, block, km)})."
        for mode, rate in (("sustained", sus), ("peak", peak))
    )  # fmt: skip
    if feature != "paf" and tvc > 1152:
        binding += " Table 3 offers more than 1152 GB only with PAF: Table 4's 1152 GB column is used."
    binding += _notes(notes)
    return View(
        figures=figures,
        readouts=readouts,
        binding=binding,
        caption_values={
            "CF [-]": cf,
            "TVC [GB]": tvc,
            "feature": _FEATURE_LABELS[feature],
            "block size [KB]": block,
            "ESCON distance [km]": km,
        },  # fmt: skip
        citations=(tp.write_rate, tp.escon_distance_factor, hours_at_peak),
    )


def view_reads(
    cf=2.66, tvc_gb=1728.0, feature="paf", block_kb=32.0, escon_km=0.0, write_fraction=0.6, read_hit_ratio=0.5
) -> View:
    """The read panel: read hit and recall vs CF (Table 1), and the typical mix.

    Parameters
    ----------
    cf : float
        Data compressibility. [-]
    tvc_gb : float
        TVC capacity (for the mix's write part). [GB]
    feature : {"base", "ehpo", "paf"}
        Performance option of the mix.
    block_kb : float
        Host block size. [KB]
    escon_km : float
        ESCON distance between host and VTS (Sec. 8.2). [km]
    write_fraction, read_hit_ratio : float
        The mix: share of host bytes written, share of read bytes found in cache. [-]
    """
    cf, tvc, block, km = float(cf), float(tvc_gb), float(block_kb), float(escon_km)
    w, h = float(write_fraction), float(read_hit_ratio)
    kw = {"block_kb": block, "escon_km": km}
    (hit, n1), (recall, n2) = (_extrapolations(tp.read_rate, cf, kind=k, **kw) for k in ("hit", "recall"))
    mix_kw = {"write_fraction": w, "read_hit_ratio": h, **kw}
    mix, n3 = _extrapolations(tp.typical_mix_rate, cf, tvc, feature=feature, **mix_kw)
    hit, recall, mix = float(hit), float(recall), float(mix)
    figures = {
        "reads": figure_from_json(_reads_fixed(block, km), _reads_points(cf, hit, recall)),
        "mix": figure_from_json(_mix_fixed(tvc, feature, block, km, w, h), [_mix_point(cf, mix, feature)]),
    }
    readouts = {
        "read hit [MB/s]": f"{hit:.3g}",
        "read recall [MB/s]": f"{recall:.3g}",
        "typical mix, total [MB/s]": f"{mix:.3g}",
        "of which writes [MB/s]": f"{w * mix:.3g}",
        "of which reads [MB/s]": f"{(1 - w) * mix:.3g}",
    }
    binding = (
        f"The mix shares one machine: {w:.0%} of the bytes at the sustained write rate, "
        f"{(1 - w) * h:.0%} at the read hit rate and {(1 - w) * (1 - h):.0%} at the recall rate "
        "(a weighted harmonic mean); recalls are bound by the tape drives, hits by the channels."
    )
    binding += _notes(n1 + n2 + n3)
    return View(
        figures=figures,
        readouts=readouts,
        binding=binding,
        caption_values={
            "CF [-]": cf,
            "TVC [GB]": tvc,
            "feature": _FEATURE_LABELS[feature],
            "block size [KB]": block,
            "ESCON distance [km]": km,
            "write fraction [-]": w,
            "read hit ratio [-]": h,
        },  # fmt: skip
        citations=(tp.read_rate, tp.typical_mix_rate),
    )


def view_import_export(mb=2300.0, mounts=10, searches=0, interference="none") -> View:
    """The import/export calculator: task times (Eqs. 1 and 2) and where the time goes.

    Parameters
    ----------
    mb : float
        Physical (compressed) data moved. [MB]
    mounts : int
        Cartridge mounts, source plus destination. [-]
    searches : int
        Searches along a tape. [-]
    interference : {"none", "peak_write", "recall"}
        Concurrent work on the VTS.
    """
    mb, m, s = float(mb), int(mounts), int(searches)
    kw = {"interference": interference}
    export_curve = _quiet(ie.export_minutes, MB_AXIS, m, s, **kw)
    import_curve = _quiet(ie.import_minutes, MB_AXIS, m, s, **kw)
    (e, n1), (i, n2) = (_extrapolations(f, mb, m, s, **kw) for f in (ie.export_minutes, ie.import_minutes))
    e, i = float(e), float(i)
    parts = {}
    for task, func in (("export", ie.export_minutes), ("import", ie.import_minutes)):
        base = {
            "data": float(_quiet(func, mb, 2, 0)) - float(_quiet(func, 0.0, 2, 0)),
            "mounts": float(_quiet(func, 0.0, m, 0)),
            "searches": float(_quiet(func, 0.0, 2, s)) - float(_quiet(func, 0.0, 2, 0)),
        }
        k = ie.interference_factor(task, interference)
        parts[task] = {**base, "other work": (k - 1.0) * sum(base.values())}
    facts = load("vts_facts")
    fitted = facts.value("ie_trend_data_gb") * (1.0 + facts.value("ie_outlier_extra_data")) * 1000.0
    figures = {
        "task_time": fig_import_export(MB_AXIS, export_curve, import_curve, mb=mb, export_now=e, import_now=i,
                                       fitted_mb=fitted),
        "task_parts": fig_task_parts(parts),
    }  # fmt: skip
    readouts = {
        "export [min]": f"{e:.3g}",
        "import [min]": f"{i:.3g}",
        "export data rate [MB/s]": f"{mb / (e * 60.0):.3g}",
        "import data rate [MB/s]": f"{mb / (i * 60.0):.3g}",
        "recall rate meanwhile [-]": f"× {ie.RECALL_RATE_FACTOR:g}",
    }
    binding = " ".join(
        f"{task.capitalize()} {total:.3g} min: mostly {top} ({parts[task][top] / total:.0%})."
        for task, total in (("export", e), ("import", i))
        for top in [max(parts[task], key=parts[task].get)]
    )
    binding += _notes(n1 + n2)
    return View(
        figures=figures,
        readouts=readouts,
        binding=binding,
        caption_values={"data [MB]": mb, "mounts [-]": m, "searches [-]": s, "concurrent work": interference},
        citations=(ie.export_minutes, ie.import_minutes),
    )


# --- panels: controls bound to a view function ---------------------------------------------


def _tvc_options():
    return [(f"{c:g} GB", float(c)) for c in TVC_CAPACITIES]


def _feature_options():
    return [("base", "base"), ("EHPO", "ehpo"), ("PAF (with EHPO)", "paf")]


def _block_options():
    return [(f"{b} KB" + (" (QSAM limit)" if b == 32 else ""), float(b)) for b in BLOCK_SIZES]


def write_panel() -> Panel:
    """Peak and sustained write vs CF, the bottleneck view and the hours of peak."""
    p = SCENARIO_PARAMS
    controls = {
        "cf": slider("compressibility CF", p["cf"].default, 1.0, 6.0, 0.05, unit="-",
                     tooltip="Host bytes per byte stored in the cache; the paper validated 1 to 4"),
        "tvc_gb": dropdown("TVC capacity [GB]", _tvc_options(), p["tvc_gb"].default,
                           tooltip="Tape volume cache capacity (Table 3)"),
        "feature": dropdown("feature", _feature_options(), p["feature"].default,
                            tooltip="base, EHPO (compression) or PAF (four processors, full-stride writes)"),
        "block_kb": dropdown("block size [KB]", _block_options(), p["block_kb"].default,
                             tooltip="Host block size; the paper's rates are for 32 KB"),
        "escon_km": slider("ESCON distance", p["escon_km"].default, 0.0, 25.0, 0.5, unit="km",
                           tooltip="Channel distance host to VTS: -0.6 % of write throughput per km (Sec. 8.2)"),
        "view_mode": dropdown("bottleneck view of", [("sustained write", "sustained"), ("peak write", "peak")],
                              "sustained", tooltip="Which write mode the resource figure shows"),
    }  # fmt: skip
    return Panel(controls, view_write, title="Peak and sustained write", name="01_write")


def read_panel() -> Panel:
    """Read hit, read recall and the typical 60/40 mix vs CF."""
    facts = load("vts_facts")
    controls = {
        "cf": slider("compressibility CF", 2.66, 1.0, 6.0, 0.02, unit="-",
                     tooltip="Table 1 measured CF 1 and 2.66"),
        "tvc_gb": dropdown("TVC capacity [GB]", _tvc_options(), 1728.0, tooltip="For the mix's writes"),
        "feature": dropdown("feature", _feature_options(), "paf", tooltip="Performance option of the mix"),
        "block_kb": dropdown("block size [KB]", _block_options(), 32.0, tooltip="Host block size"),
        "escon_km": slider("ESCON distance", 0.0, 0.0, 25.0, 0.5, unit="km",
                           tooltip="Channel distance: -2.3 % of read throughput per km (Sec. 8.2)"),
        "write_fraction": slider("write fraction", facts.value("typical_mix_write_fraction"), 0.0, 1.0, 0.05,
                                 unit="-", tooltip="Share of host bytes written (60/40 mix: 0.6)"),
        "read_hit_ratio": slider("read hit ratio", facts.value("typical_mix_read_hit_ratio"), 0.0, 1.0, 0.05,
                                 unit="-", tooltip="Share of read bytes found in the cache (typical mix: 0.5)"),
    }  # fmt: skip
    return Panel(controls, view_reads, title="Reads and the typical mix", name="01_reads")


def import_export_panel() -> Panel:
    """Import and export task time, Eqs. 1 and 2, with the interference of other work."""
    controls = {
        "mb": slider("data moved", 2300.0, 0.0, 4000.0, 50.0, unit="MB", tooltip="Compressed megabytes"),
        "mounts": int_slider("mounts", 10, 2, 30, unit="-", tooltip="Source plus destination cartridge mounts"),
        "searches": int_slider("searches", 0, 0, 20, unit="-", tooltip="Repositionings along a tape, ~21 s each"),
        "interference": dropdown("other work", [("none", "none"), ("host in peak write", "peak_write"),
                                                ("saturated recalls", "recall")], "none",
                                 tooltip="What else the VTS is doing meanwhile (Sec. 7)"),
    }  # fmt: skip
    return Panel(controls, view_import_export, title="Import/export calculator", name="01_import_export")


# --- the lesson contract ----------------------------------------------------------------


def _values(values: dict) -> dict:
    return scenario_values(SCENARIO_PARAMS, values)


def scenario_outputs(**values) -> dict[str, float]:
    """Peak and sustained write, hours of peak, reads and the typical mix of one scenario."""
    v = _values(values)
    cf, tvc = v["cf"], v["tvc_gb"]
    kw = {"block_kb": v["block_kb"], "escon_km": v["escon_km"]}
    peak = float(_quiet(tp.write_rate, cf, tvc, feature=v["feature"], mode="peak", **kw))
    sus = float(_quiet(tp.write_rate, cf, tvc, feature=v["feature"], mode="sustained", **kw))
    hours = float(_quiet(hours_at_peak, tvc, cf, feature=v["feature"], peak_mb_s=peak, sustained_mb_s=sus))
    return {
        "peak write [MB/s]": peak,
        "sustained write [MB/s]": sus,
        "peak ÷ sustained [-]": peak / sus,
        "hours at peak [h]": hours,
        "read hit [MB/s]": float(_quiet(tp.read_rate, cf, kind="hit", **kw)),
        "read recall [MB/s]": float(_quiet(tp.read_rate, cf, kind="recall", **kw)),
        "typical mix [MB/s]": float(_quiet(tp.typical_mix_rate, cf, tvc, feature=v["feature"], **kw)),
    }


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (import/export at its defaults)."""
    v = _values(values)
    write = view_write(**v)
    reads = view_reads(**{k: v[k] for k in ("cf", "tvc_gb", "feature", "block_kb", "escon_km")})
    tasks = view_import_export()
    views = (write, reads, tasks)
    figures = {k: f for view in views for k, f in view.figures.items()}
    return View(
        figures=figures,
        readouts={k: r for view in views for k, r in view.readouts.items()},
        binding=write.binding,
        caption_values={
            **write.caption_values,
            **{f"import/export {k}": v for k, v in tasks.caption_values.items()},
        },
        citations=tuple(dict.fromkeys(c for view in views for c in view.citations)),
    )
