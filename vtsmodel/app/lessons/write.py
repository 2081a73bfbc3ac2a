"""Lesson 01: sustained vs peak write of the VTS B18, and which resource limits it.

Three panels: :func:`write_panel` (peak and sustained write vs CF, and the bottleneck
view: this module), :func:`read_panel` (read hit, recall and the typical mix:
:mod:`~vtsmodel.app.lessons.reads`) and :func:`import_export_panel` (Eqs. 1 and 2:
:mod:`~vtsmodel.app.lessons.import_export`). Each figure is a cached base (the curves and
the cited points, built by a ``*_base`` function from the slow inputs) and the operating
point that CF moves. This module holds the lesson's contract and the inputs its panels
share. Source: ibm-vts-b18-2000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from vtsmodel import b18
from vtsmodel import bottleneck as bn
from vtsmodel import quantities as q
from vtsmodel import throughput as tp
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    figure_json,
    frame_validated,
    new_figure,
    point_mark,
    source_markers,
    validated_curve,
)
from vtsmodel.app.lessons import import_export, reads, scenario_values
from vtsmodel.app.lessons.import_export import IMPORT_EXPORT
from vtsmodel.app.lessons.reads import CF_AXIS, READS
from vtsmodel.app.lessons.reads import FEATURE_NAMES as _FEATURE
from vtsmodel.app.panels import Panel, Stage, View, merge_views
from vtsmodel.app.text import number
from vtsmodel.data import load
from vtsmodel.tvc import hours_at_peak

LESSON_ID = "01"
TITLE = "Sustained vs peak write of the VTS"
NOTEBOOK = "01_sustained_vs_peak_write.ipynb"

INPUTS = {
    "cf": q.CF.but(hi=6.0, step=0.02),  # on its grid: the default 3 and Table 1's 2.66
    "tvc_config": b18.TVC_CONFIG,
    "feature": b18.FEATURE,
    "block_kb": q.BLOCK_KB.but(choices=(("32 KB (QSAM limit)", 32.0), ("48 KB", 48.0), ("64 KB", 64.0))),
    "escon_km": q.ESCON_KM.but(hi=25.0, step=0.5),
    "view_mode": q.MODE.but(label="bottleneck view of", help="Which write mode the resource figure shows."),
    **reads.INPUTS,
    **import_export.INPUTS,
}
SCENARIO = ("cf", "tvc_config", "feature", "block_kb", "escon_km")
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
        if rid == "ehpo_sustained_cf3_max_tvc" and b18.table4_column(tvc_config) != 1152.0:
            continue
        t = load(table)
        x = facts.value(cf) if isinstance(cf, str) else float(cf)
        out.append((x, t.value(rid), t.provenance(rid), mode))
    return out


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


def write_base(feature: str, tvc_config: str, block_kb: float, escon_km: float) -> dict:
    """Peak and sustained write vs CF for ``feature`` (bold) and the other features (grey), cited points."""
    kw = {"block_kb": block_kb, "escon_km": escon_km, "tvc_config": tvc_config}
    label = _FEATURE[feature]
    fig = new_figure(title=f"Write throughput, {label}: peak and sustained", height=400,
                     xaxis_title="data compressibility CF [-]", yaxis_title="host write rate [MB/s]")  # fmt: skip
    valid = tp.EQ3_CF_RANGE
    for f in (x for x in b18.FEATURES if x != feature):
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
    frame_validated(fig, CF_AXIS, valid)
    top = max(float(np.max(tp.write_rate(CF_AXIS, feature=f, mode="peak", **kw))) for f in b18.FEATURES)
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
    fig = new_figure(title=f"Which resource binds ({mode} write)", xaxis_title="data compressibility CF [-]",
                     yaxis_title="capacity, host write [MB/s]", height=400)  # fmt: skip
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
    frame_validated(fig, CF_AXIS, tp.EQ3_CF_RANGE)
    fig.update_yaxes(range=[0, 2.2 * float(np.max(achieved)) * 1.05])
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


#: The write modes, peak first.
MODES = ("peak", "sustained")


@dataclass(frozen=True)
class WriteResult:
    """Peak and sustained write at one CF, the resources that bind, the hours of peak the cache buys.

    Attributes
    ----------
    cf, tvc_config, feature, block_kb, escon_km
        The inputs.
    rate : dict of str to float
        Host write rate by mode, ``"peak"`` and ``"sustained"``. [MB/s]
    binds : dict of str to str
        The binding resource by mode (:func:`vtsmodel.bottleneck.binding_resource`).
    achieved : dict of str to float
        The least resource capacity by mode (:func:`vtsmodel.bottleneck.bottleneck_rate`). [MB/s]
    hours_at_peak : float
        The hours of peak the configuration's cache buys; infinite where copying keeps up. [h]
    """

    cf: float
    tvc_config: str
    feature: str
    block_kb: float
    escon_km: float
    rate: dict
    binds: dict
    achieved: dict
    hours_at_peak: float


def evaluate_write(
    cf=3.0, tvc_config="tvc_1728_36gb_paf", feature="paf", block_kb=32.0, escon_km=0.0
) -> WriteResult:
    """Peak and sustained write at ``cf`` (ibm-vts-b18-2000), the binding resource, the hours of peak."""
    kw = {"feature": feature, "block_kb": block_kb, "escon_km": escon_km, "tvc_config": tvc_config}
    rate = {m: float(tp.write_rate(cf, mode=m, **kw)) for m in MODES}
    hours = float(hours_at_peak(b18.configuration(tvc_config).tvc_gb, cf, feature=feature, tvc_config=tvc_config,
                                peak_mb_s=rate["peak"], sustained_mb_s=rate["sustained"]))  # fmt: skip
    binds = {m: bn.binding_resource(cf, mode=m, **kw) for m in MODES}
    achieved = {m: float(bn.bottleneck_rate(cf, mode=m, **kw)) for m in MODES}
    return WriteResult(
        float(cf), tvc_config, feature, float(block_kb), float(escon_km), rate, binds, achieved, hours
    )


def view_write(r: WriteResult, view_mode="sustained") -> View:
    """The write panel: peak and sustained at ``r.cf`` on the curves, the resource that binds in ``view_mode``, the hours of peak."""
    cf, rate, binds, hours = r.cf, r.rate, r.binds, r.hours_at_peak
    slow = {"feature": r.feature, "tvc_config": r.tvc_config, "block_kb": r.block_kb, "escon_km": r.escon_km}
    figures = {
        "write": Plot(write_base, slow, shapes=[
            point_mark(cf, rate[m], color=_MODE_COLORS[m], name=f"{m} at this CF") for m in ("peak", "sustained")]),
        "resources": Plot(resources_base, {**slow, "mode": view_mode}, shapes=[
            point_mark(cf, r.achieved[view_mode], color=_RESOURCE_COLORS[binds[view_mode]],
                       name=f"this CF: the {binds[view_mode]} bind")]),
    }  # fmt: skip
    binding = " ".join(
        f"{m.capitalize()} {number(rate[m])} MB/s: the {binds[m]} ({_reason(binds[m], r.feature, m)})."
        for m in ("sustained", "peak")
    )
    readouts = {"peak write": f"{number(rate['peak'])} MB/s", "sustained write": f"{number(rate['sustained'])} MB/s",
                "peak ÷ sustained": number(rate["peak"] / rate["sustained"]),
                "hours of peak the cache buys": f"{number(hours)} h" if np.isfinite(hours) else "no limit (copying keeps up)",
                "binds in peak": binds["peak"], "binds in sustained": binds["sustained"]}  # fmt: skip
    return View(figures=figures, readouts=readouts, binding=binding,
                citations=(tp.write_rate, bn.write_capacities, tp.escon_distance_factor, hours_at_peak))  # fmt: skip


#: The write panel's stage (the bottleneck view's mode only changes how the result is shown).
WRITE = Stage(evaluate_write, view_write)


# --- panels --------------------------------------------------------------------------------


def _inputs(*names: str) -> dict:
    return {k: INPUTS[k] for k in names}


def write_panel(**values) -> Panel:
    """Peak and sustained write vs CF, the bottleneck view and the hours of peak."""
    return Panel(_inputs(*SCENARIO, "view_mode"), WRITE, values=values, title="Peak and sustained write",
                 name="01_write")  # fmt: skip


def read_panel(**values) -> Panel:
    """Read hit, read recall and the typical 60/40 mix vs CF (starts at Table 1's CF 2.66)."""
    inputs = _inputs(*SCENARIO, "write_fraction", "read_hit_ratio")
    return Panel(
        inputs, READS, values={"cf": 2.66, **values}, title="Reads and the typical mix", name="01_reads"
    )


def import_export_panel(**values) -> Panel:
    """Import and export task time, Eqs. 1 and 2, with the interference of other work."""
    return Panel(_inputs("mb", "mounts", "searches", "interference"), IMPORT_EXPORT, values=values,
                 title="Import/export calculator", name="01_import_export")  # fmt: skip


# --- the lesson contract ---------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """Peak and sustained write, hours of peak, reads and the typical mix of one scenario (the panels' evaluations)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    w, r = WRITE.result(v), READS.result(v)
    return {
        "peak write [MB/s]": w.rate["peak"], "sustained write [MB/s]": w.rate["sustained"],
        "peak ÷ sustained [-]": w.rate["peak"] / w.rate["sustained"], "hours at peak [h]": w.hours_at_peak,
        "read hit [MB/s]": r.hit_mb_s, "read recall [MB/s]": r.recall_mb_s, "typical mix [MB/s]": r.mix_mb_s,
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (import/export at its defaults)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return merge_views(WRITE.show(v), READS.show(v), IMPORT_EXPORT.show({}))


# --- the numbers the notebook prints ----------------------------------------------------------


def table4_numbers() -> str:
    """Table 4 at CF 1 (the base VTS) for its three columns, and EHPO at CF 3: labelled lines."""
    lines = []
    for mode in ("sustained", "peak"):
        rates = ", ".join(
            # each column by its 36 GB-HDD configuration (288 GB alone is 16(2+P) of 9 GB HDDs)
            f"{c:g} GB {number(tp.write_rate(1, tvc_config=f'tvc_{c}_36gb_base_ehpo', feature='base', mode=mode))}"
            for c in (288, 576, 1152)
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
