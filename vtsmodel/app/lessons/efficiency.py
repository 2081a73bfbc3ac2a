"""Lesson 04: drive efficiency vs file size, block size, and a drive's rates outside the lab.

Three panels: :func:`efficiency_panel` (the CERN formula, cern-tape-sizing-2005: efficiency
vs file size per files-per-mount and over the whole plane, with the drive's own mount cycle
and its feed checked against its lowest speed-matching rate), :func:`block_size_panel`
(the StorageTek tables, stk-acs4400-cray, their fits and the controller buffer share) and
:func:`rates_panel` (a drive family's spec and observed rates, and the limits outside the
drive: compression, a shared bus, the disk-pool stream; adsm-l-lto-2003). Each figure is a
cached base and the marks the sliders move.
"""

from __future__ import annotations

import html
import math

import numpy as np
import plotly.graph_objects as go

from vtsmodel import catalog, drives
from vtsmodel import quantities as q
from vtsmodel._inputs import Input
from vtsmodel._tables import load
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark, source_markers
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, View, compute
from vtsmodel.app.text import duration, number, percent

LESSON_ID = "04"
TITLE = "Drive efficiency vs file size"
NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"

_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"
_STK = "stk-acs4400-cray, Test Results b. and c."
_ADSM = "adsm-l-lto-2003"
#: Files per mount of the efficiency curves. [-]
CURVE_FILES_PER_MOUNT = (1, 10, 100, 1000)
#: File sizes of the curves, 0.1 MB to 100 GB, and of the heatmap's columns. [MB]
FILE_SIZES_MB = np.logspace(-1, 5, 181)
_HEAT_F, _HEAT_N = np.logspace(-1, 5, 61), np.logspace(0, 4, 41)
_BLOCKS = np.geomspace(4.0, 128.0, 150)
_cern = load("cern_facts")
_MEASURED = (_cern.value("toverhead_test_file_size_1"), _cern.value("toverhead_test_file_size_1000"))


def _drive_options(**having) -> tuple:
    return tuple(
        (f"{label}, {number(catalog.drive_spec(key).speed_mb_s)} MB/s", key)
        for label, key in catalog.drive_options(**having)
    )


INPUTS = {
    "drive": Input("drive", "", "STK9940B", choices=_drive_options(), source="data/drive_catalog.csv",
                   help="A catalog drive (its speed is tSpeed); its own load, locate, rewind and unload times "
                        "make the mount cycle where the catalog has them."),
    "robot_moves_per_hour": Input("robot moves", "moves/h", 160.0, lo=40.0, hi=800.0, step=10.0,
                                  source=f"{_CERN} (160 normal, 240 upgraded); range: project assumption",
                                  help="Robot arm moves per hour; one move brings a tape from its slot to the drive."),
    "t_overhead_s": q.T_OVERHEAD_S.but(label="tOverhead per file", hi=30.0, step=0.1),
    "file_mb": q.FILE_MB.but(lo=0.1, lo_open=False, hi=1e5, scale="log", step=0.05, valid=_MEASURED,
                             source=f"{_CERN}: tOverhead measured with 1-1000 MB files"),
    "files_per_mount": q.FILES_PER_MOUNT.but(hi=1e4, scale="log", step=0.05),
    "stream_mb_s": q.STREAM_MB_S.but(default=20.0, lo=0.2, lo_open=False, hi=2000.0, scale="log", step=0.05,
                                     help="Rate one disk-pool stream feeds the drive (ALICE: about 20 MB/s; "
                                          "a busy disk server: 2 MB/s per stream)."),
    "block_kb": Input("block size", "KB", 64.0, lo=4.0, hi=128.0, scale="log", step=math.log10(2) / 4,
                      valid=(4.0, 128.0), source=_STK, help="Block size of the transfers (the tables: 4 to 128 KB)."),
    "controller_buffer_kb": Input("controller buffer", "KB", 1000.0, lo=250.0, hi=4000.0, step=50.0,
                                  source="stk-acs4400-cray (the Ciprico 4781: 1 MB); range: project assumption",
                                  help="Buffer of the SCSI controller, shared equally by the drives configured."),
    "drives_sharing": Input("drives sharing buffer", "-", 8, lo=1, hi=16, integer=True,
                            source="stk-acs4400-cray (eight drives)", help="Drives configured on the controller."),
    "rate_drive": Input("drive", "", "LTO1", choices=_drive_options(having=("native_rate",)),
                        source="data/drive_catalog.csv", help="A catalog drive with a native rate; the chart "
                        "shows its family in order of generation."),
    "compression_ratio": q.COMPRESSION_RATIO.but(hi=4.0, step=0.01),
    "drives_per_bus": Input("drives per bus", "-", 2, lo=1, hi=8, integer=True, source=_ADSM,
                            help="Drives streaming at once on one shared bus (the site keeps two per SCSI bus)."),
    "bus_mb_s": Input("shared bus", "MB/s", 60.0, lo=10.0, hi=2000.0, step=10.0,
                      source=f"{_ADSM} (\"2x30 = 60 MB/sec\"); range: project assumption",
                      help="Bandwidth of the bus the drives share."),
}  # fmt: skip
SCENARIO = ("drive", "robot_moves_per_hour", "t_overhead_s", "file_mb", "files_per_mount", "stream_mb_s")
#: The CERN rows the notebook lists under "The source data".
SOURCE_ROWS = tuple(("cern_facts", r) for r in (
    "robot_moves_normal", "robot_moves_upgraded", "tmount_move", "tmount_mount", "tmount_positioning",
    "tmount_rewind_unload", "tmount_total", "toverhead", "toverhead_test_file_size_1",
    "toverhead_test_file_size_1000", "plot_drive_speed", "disk_server_stream_rate", "alice_tape_stream_rate",
    "alice_efficiency_9940b", "alice_efficiency_3592a"))  # fmt: skip


def _short(spec: catalog.DriveSpec) -> str:
    return spec.label.split(" (")[0]


# --- panel 1: the CERN formula ----------------------------------------------------------------


def efficiency_base(speed_mb_s: float, t_mount_s: float, t_overhead_s: float, drive: str) -> dict:
    """Efficiency vs file size (log axis), one curve per :data:`CURVE_FILES_PER_MOUNT`."""
    title = f"Efficiency of the {drive} ({number(speed_mb_s)} MB/s, tMount {number(t_mount_s, 4)} s)"
    fig = new_figure(title=title, xaxis_title="file size [MB]", yaxis_title="efficiency [%]", height=400)  # fmt: skip
    n = np.array(CURVE_FILES_PER_MOUNT, float)[:, None]
    eff = drives.drive_efficiency(FILE_SIZES_MB[None, :], n, t_mount_s=t_mount_s, t_overhead_s=t_overhead_s,
                                  speed_mb_s=speed_mb_s)  # fmt: skip
    for i, (k, e) in enumerate(zip(CURVE_FILES_PER_MOUNT, eff, strict=True)):
        name = f"{k} file{'s' if k > 1 else ''}/mount"
        fig.add_scatter(x=FILE_SIZES_MB, y=e, mode="lines", name=name, line={"color": COLORS[i], "width": 2},
                        hovertemplate=f"{name}<br>%{{x:,.3~r}} MB: %{{y:.1%}}<extra></extra>")  # fmt: skip
    lo, hi = _MEASURED
    fig.add_vrect(x0=lo, x1=hi, fillcolor="#999999", opacity=0.12, line_width=0)
    fig.add_annotation(x=math.log10(math.sqrt(lo * hi)), y=1.03, text="tOverhead measured, 1 to 1,000 MB",
                       showarrow=False, font={"size": 11})  # fmt: skip
    fig.update_xaxes(type="log", range=[-1.02, 5.02], dtick=1, exponentformat="none", separatethousands=True)
    fig.update_yaxes(range=[0, 1.06], tickformat=".0%")
    fig.update_layout(legend={"x": 0.01, "y": 0.97, "xanchor": "left", "yanchor": "top"})
    return figure_json(fig)


def heatmap_base(speed_mb_s: float, t_mount_s: float, t_overhead_s: float) -> dict:
    """Efficiency over file size × files per mount (both log10), with contours."""
    fig = new_figure(title="Efficiency over file size × files per mount", xaxis_title="file size [MB]",
                     yaxis_title="files per mount [-]", height=400)  # fmt: skip
    z = drives.drive_efficiency(_HEAT_F[None, :], _HEAT_N[:, None], t_mount_s=t_mount_s,
                                t_overhead_s=t_overhead_s, speed_mb_s=speed_mb_s)  # fmt: skip
    x, y = np.log10(_HEAT_F), np.log10(_HEAT_N)
    fig.add_heatmap(x=x, y=y, z=z, zmin=0, zmax=1, colorscale="Viridis", name="efficiency",
                    colorbar={"title": {"text": "efficiency"}, "tickformat": ".0%"},
                    customdata=np.stack(np.meshgrid(_HEAT_F, _HEAT_N), axis=-1),
                    hovertemplate="%{customdata[0]:,.3~r} MB, %{customdata[1]:,.3~r} files: %{z:.1%}"
                                  "<extra></extra>")  # fmt: skip
    fig.add_contour(x=x, y=y, z=z, showscale=False, hoverinfo="skip", name="contours",
                    line={"color": "white", "width": 1},
                    contours={"coloring": "none", "start": 0.1, "end": 0.9, "size": 0.2, "showlabels": True})  # fmt: skip
    ticks = ["0.1", "1", "10", "100", "1,000", "10,000", "100,000"]
    fig.update_xaxes(range=[-1, 5], tickmode="array", tickvals=list(range(-1, 6)), ticktext=ticks)
    fig.update_yaxes(range=[0, 4], tickmode="array", tickvals=list(range(5)), ticktext=ticks[1:6])
    return figure_json(fig)


def _parts_from(drive: str, name: str) -> str:
    """Where the drive-side parts of the mount cycle come from, in a phrase."""
    own = [k.replace("_", " + ") for k, p in catalog.mount_parts(drive).items() if p.basis == "drive"]
    if len(own) == 3:
        return f"the {name}'s own times"
    borrowed = "CERN's 9940B figures (borrowed: the catalog has no times for this drive)"
    return f"the {name}'s own {', '.join(own)}; CERN's 9940B for the rest" if own else borrowed


def view_efficiency(drive="STK9940B", robot_moves_per_hour=160.0, t_overhead_s=4.4, file_mb=1000.0,
                    files_per_mount=10.0, stream_mb_s=20.0) -> View:  # fmt: skip
    """Panel 1: the efficiency at this access pattern, the drive's mount cycle and its feed."""
    spec = catalog.drive_spec(drive)
    speed, name = spec.speed_mb_s, _short(spec)
    parts = catalog.mount_parts(drive)
    tm = float(drives.mount_cycle_s(robot_moves_per_hour=robot_moves_per_hour, drive=drive))
    f, n, to = file_mb, files_per_mount, t_overhead_s
    eff = float(drives.drive_efficiency(f, n, t_mount_s=tm, t_overhead_s=to, speed_mb_s=speed))
    feed = float(drives.stream_limited_efficiency(stream_mb_s, speed))
    check = catalog.warn_streaming(drive, stream_mb_s)  # too slow a feed: a note under the panel
    spent = {"the mount cycle": tm, "file overheads": n * to, "streaming": n * f / speed}
    total = sum(spent.values())
    most = max(spent, key=spent.get)
    if feed < eff:
        binding = (f"The feed: a {number(stream_mb_s)} MB/s stream keeps the {name} at {percent(feed)} of its "
                   f"{number(speed)} MB/s, below the {percent(eff)} this access pattern allows.")  # fmt: skip
    else:
        binding = (f"The access pattern: {most} takes {percent(spent[most] / total)} of each mount's "
                   f"{duration(total)} (mount cycle {number(tm, 4)} s, {number(n)} × {number(to)} s overhead, "
                   f"{duration(n * f / speed)} streaming).")  # fmt: skip
    line = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": feed, "y1": feed,
            "line": {"color": COLORS[3], "dash": "dash", "width": 2}, "opacity": 1, "visible": feed < 1}  # fmt: skip
    label = {"x": 1, "xref": "paper", "xanchor": "right", "y": feed, "yref": "y", "yshift": 9, "showarrow": False,
             "text": f"the feed allows {percent(feed)}", "font": {"size": 11, "color": COLORS[3]},
             "visible": feed < 1}  # fmt: skip
    slow = {"speed_mb_s": speed, "t_mount_s": tm, "t_overhead_s": to}
    figures = {
        "efficiency": Plot(efficiency_base, {**slow, "drive": name}, shapes=[
            line, point_mark(f, eff, color=COLORS[1], name="this setting")], annotations=[label]),
        "heatmap": Plot(heatmap_base, slow, shapes=[{**point_mark(math.log10(f), math.log10(n), color="white",
                name="this setting", showlegend=False), "line": {"color": "black", "width": 2}}]),
    }  # fmt: skip
    floor, source = check.min_rate_mb_s, _parts_from(drive, name)
    return View(
        figures=figures,
        readouts={
            "drive speed tSpeed": f"{number(speed)} MB/s ({spec.speed_basis})",
            "mount cycle tMount": f"{number(tm, 4)} s",
            "robot move": f"{number(3600.0 / robot_moves_per_hour, 4)} s",
            "load + locate + rewind, unload": " + ".join(number(p.seconds, 4) for p in parts.values()) + " s",
            "mount parts from": source,
            "efficiency": percent(eff),
            "throughput": f"{number(eff * speed)} MB/s",
            "time per mount": duration(total),
            "the feed allows": percent(feed),
            "lowest speed-matching rate": "not in any document found" if floor is None else
                f"{number(floor)} MB/s: {'streams' if check.all_stream else 'cannot stream'}",
        },
        binding=binding,
        caption_values={"drive speed tSpeed [MB/s]": speed, "mount cycle tMount [s]": tm, "mount parts from": source},
        citations=("cern_facts", *spec.primary_sources),
    )  # fmt: skip


def efficiency_panel(**values) -> Panel:
    """Panel 1: drive, robot, tOverhead, file size, files per mount and the feed."""
    return Panel({k: INPUTS[k] for k in SCENARIO}, view_efficiency, values=values,
                 title="Drive efficiency (CERN formula)", name="04_efficiency")  # fmt: skip


# --- panel 2: block size ---------------------------------------------------------------------


def block_size_base(controller_buffer_kb: float, drives_sharing: int) -> dict:
    """The StorageTek write and read tables (cited markers), the fitted curves and the buffer share."""
    fig = new_figure(title="Transfer rate vs block size (StorageTek 3480 on a Cray Y-MP EL)",
                     xaxis_title="block size [KB]", yaxis_title="transfer rate [MB/s]", height=400)  # fmt: skip
    t = load("stk_transfer_rates")
    kw = {"controller_buffer_kb": controller_buffer_kb, "drives_sharing": drives_sharing}
    top = 0.0
    for i, direction in enumerate(drives.DIRECTIONS):
        rows = t.where(direction=direction)
        rate = drives.transfer_rate(_BLOCKS, direction, **kw)
        top = max(top, float(np.max(rate)), float(np.max(rows["value"])))
        fig.add_scatter(x=_BLOCKS, y=rate, mode="lines", name=f"{direction}, fit", line={"color": COLORS[i]},
                        hovertemplate=f"{direction}, fit<br>%{{x:.3~r}} KB: %{{y:.3~r}} MB/s<extra></extra>")  # fmt: skip
        fig.add_trace(source_markers(rows["block_kb"], rows["value"], [t.provenance(r) for r in rows["id"]],
                                     name=f"{direction}, measured", color=COLORS[i]))  # fmt: skip
    share = controller_buffer_kb / drives_sharing
    if share <= 128:
        fig.add_vline(x=share, line={"dash": "dot", "color": "#666666"})
        fig.add_annotation(x=math.log10(share), y=0.06, yref="paper", text=f"buffer share {number(share)} KB",
                           showarrow=False, xanchor="right", font={"size": 11})  # fmt: skip
    fig.update_xaxes(type="log", range=[math.log10(3.5), math.log10(146)], tickvals=[4, 8, 16, 32, 64, 128])
    fig.update_yaxes(range=[0, 1.1 * top])
    return figure_json(fig)


def residuals_base() -> dict:
    """Residuals (measured − fitted) of both fits, per block size of the tables."""
    fig = new_figure(title="Fit residuals", xaxis_title="block size [KB]", yaxis_title="measured − fit [MB/s]",
                     height=260)  # fmt: skip
    for i, direction in enumerate(drives.DIRECTIONS):
        fit = drives.transfer_rate_fit(direction)
        fig.add_bar(x=[f"{b:g}" for b in fit.x], y=fit.residuals, name=direction, marker_color=COLORS[i])
    fig.update_xaxes(type="category")
    return figure_json(fig)


def view_block_size(controller_buffer_kb=1000.0, drives_sharing=8, block_kb=64.0) -> View:
    """Panel 2: write and read rates at a block size, the buffer share, the fastest write block."""
    buf, k, b = controller_buffer_kb, drives_sharing, block_kb
    kw = {"controller_buffer_kb": buf, "drives_sharing": k}
    w, r = float(drives.transfer_rate(b, "write", **kw)), float(drives.transfer_rate(b, "read"))
    blocks = load("stk_transfer_rates").where(direction="write")["block_kb"]
    best = float(blocks[np.argmax(drives.transfer_rate(blocks, "write", **kw))])
    share = buf / k
    marks = [point_mark(b, w, color=COLORS[0], name="write at this block size"),
             point_mark(b, r, color=COLORS[1], name="read at this block size")]  # fmt: skip
    return View(
        figures={"block_size": Plot(block_size_base, kw, shapes=marks), "residuals": Plot(residuals_base)},
        readouts={"write rate": f"{number(w)} MB/s", "read rate": f"{number(r)} MB/s",
                  "buffer share per drive": f"{number(share)} KB", "fastest write block": f"{number(best)} KB"},
        binding=f"A {number(b)} KB block {'does not fit' if b > share else 'fits'} in the {number(share)} KB "
                f"buffer share ({number(buf)} KB / {k} drives).",
        citations=("stk_transfer_rates", "stk_facts"),
    )  # fmt: skip


def block_size_panel(**values) -> Panel:
    """Panel 2: the controller buffer, the drives sharing it and the block size."""
    names = ("controller_buffer_kb", "drives_sharing", "block_kb")
    return Panel({k: INPUTS[k] for k in names}, view_block_size, values=values,
                 title="Block size (StorageTek tables)", name="04_block_size")  # fmt: skip


# --- panel 3: spec vs observed, and the limits outside the drive ------------------------------


def host_rate(drive, compression_ratio=2.0, drives_per_bus=2, bus_mb_s=60.0, stream_mb_s=20.0):
    """Rate one drive gets from the host, the limit that binds, and every limit. [MB/s]

    The least of the drive's rate at this compression (capped at its compressed maximum),
    its share of a bus that ``drives_per_bus`` drives stream on, and the disk-pool stream;
    on a tie the drive binds.
    """
    spec = catalog.drive_spec(drive)
    own = float(drives.compressed_rate(spec.native_rate_mb_s, compression_ratio,
                                       max_rate_mb_s=spec.compressed_max_rate_mb_s))  # fmt: skip
    on_bus = float(drives.scsi_bus_rate(own, drives_per_bus, bus_mb_s=bus_mb_s))
    limits = {"the drive": own, "the shared bus": on_bus, "the disk-pool stream": float(stream_mb_s)}
    binding = min(limits, key=lambda x: (limits[x], x != "the drive"))
    return limits[binding], binding, limits


def _family(drive: str) -> list[catalog.DriveSpec]:
    fam = catalog.drive_spec(drive).family
    return [s for s in catalog.drive_catalog().values() if s.family == fam]


_BARS = (("native (spec)", "native_rate"), ("compressed max (spec)", "compressed_max_rate"),
         ("observed", "observed_rate"))  # fmt: skip


def rates_base(drive: str) -> dict:
    """Spec and observed rates of ``drive``'s family, in order of generation (cited hover)."""
    fam = _family(drive)
    fig = new_figure(title=f"{dict(catalog.FAMILIES)[fam[0].family]}: spec vs observed vs this setting",
                     yaxis_title="rate [MB/s]", height=400)  # fmt: skip
    top = 0.0
    for i, (name, quantity) in enumerate(_BARS):
        provs = [s.provenance(quantity) for s in fam]
        y = [None if p is None else p.value for p in provs]
        if quantity == "observed_rate":  # the catalog's primary observation (the lowest, where several)
            y = [s.observed_rate_mb_s for s in fam]
        top = max([top, *(v for v in y if v is not None)])
        fig.add_bar(x=[_short(s) for s in fam], y=y, name=name, marker_color=COLORS[i],
                    hovertext=["" if p is None else html.escape(str(p)) for p in provs],
                    hovertemplate="%{x}: %{y:,.3~r} MB/s<br>%{hovertext}<extra>" + name + "</extra>")  # fmt: skip
    caps = [4.0 * s.native_rate_mb_s for s in fam if s.native_rate_mb_s and not s.compressed_max_rate_mb_s]
    fig.update_yaxes(range=[0, 1.08 * max([top, *caps])])
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0})
    return figure_json(fig)


def view_rates(rate_drive="LTO1", compression_ratio=2.0, drives_per_bus=2, bus_mb_s=60.0,
               stream_mb_s=20.0) -> View:  # fmt: skip
    """Panel 3: the drive's family, spec vs observed; this setting's host rate and what binds."""
    spec, fam = catalog.drive_spec(rate_drive), _family(rate_drive)
    args = (compression_ratio, drives_per_bus, bus_mb_s, stream_mb_s)
    rate, binding, limits = host_rate(rate_drive, *args)
    ys = [host_rate(s.name, *args)[0] if s.native_rate_mb_s else None for s in fam]
    bars = go.Bar(x=[_short(s) for s in fam], y=ys, name="this setting", marker_color=COLORS[3],
                  hovertemplate="%{x}: %{y:,.3~r} MB/s<extra>this setting</extra>")  # fmt: skip
    i = [s.name for s in fam].index(spec.name)
    box = {"type": "rect", "xref": "x", "yref": "paper", "x0": i - 0.5, "x1": i + 0.5, "y0": 0, "y1": 1,
           "fillcolor": "rgba(0,0,0,0.07)", "line": {"width": 0}, "opacity": 1, "layer": "below"}  # fmt: skip
    catalog.warn_streaming(rate_drive, rate, compression_ratio=compression_ratio)
    cmax, obs = spec.compressed_max_rate_mb_s, spec.observed_rate_mb_s
    name = _short(spec)
    return View(
        figures={"rates": Plot(rates_base, {"drive": spec.name}, traces=[bars], shapes=[box])},
        readouts={
            "native rate (spec)": f"{number(spec.native_rate_mb_s)} MB/s",
            "compressed max (spec)": "not stated" if cmax is None else f"{number(cmax)} MB/s",
            "observed": "not measured" if obs is None else f"{number(obs)} MB/s",
            "the drive at this compression": f"{number(limits['the drive'])} MB/s",
            "per drive on the bus": f"{number(bus_mb_s / drives_per_bus)} MB/s",
            "host rate, this setting": f"{number(rate)} MB/s",
            "share of the compressed max": "—" if cmax is None else percent(rate / cmax),
        },  # fmt: skip
        binding=f"{binding[0].upper()}{binding[1:]} binds the {name} at {number(rate)} MB/s.",
        citations=("lto_facts", "cern_facts", *sorted({x for s in fam for x in s.primary_sources})),
    )


def rates_panel(**values) -> Panel:
    """Panel 3: drive, compression, drives per bus, the bus and the disk-pool stream."""
    names = ("rate_drive", "compression_ratio", "drives_per_bus", "bus_mb_s", "stream_mb_s")
    return Panel({k: INPUTS[k] for k in names}, view_rates, values=values,
                 title="Spec vs observed, and the limits outside the drive", name="04_rates")  # fmt: skip


# --- the lesson contract and the notebook's tables and numbers -------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """Speed, mount cycle, efficiency, throughput and the feed's share of one scenario."""
    v = scenario_values(INPUTS, SCENARIO, values)
    spec = catalog.drive_spec(v["drive"])
    tm = float(drives.mount_cycle_s(robot_moves_per_hour=v["robot_moves_per_hour"], drive=v["drive"]))
    eff = float(drives.drive_efficiency(v["file_mb"], v["files_per_mount"], t_mount_s=tm,
                                        t_overhead_s=v["t_overhead_s"], speed_mb_s=spec.speed_mb_s))  # fmt: skip
    floor = spec.min_speed_matching_rate_mb_s
    return {
        "drive speed [MB/s]": spec.speed_mb_s, "mount cycle [s]": tm, "efficiency [-]": eff,
        "throughput [MB/s]": eff * spec.speed_mb_s,
        "the feed allows [-]": float(drives.stream_limited_efficiency(v["stream_mb_s"], spec.speed_mb_s)),
        "lowest speed-matching rate [MB/s]": math.nan if floor is None else floor,
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (block size and rates at their defaults)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    views = [
        compute(view_efficiency, v),
        compute(view_block_size, {}),
        compute(view_rates, {"stream_mb_s": v["stream_mb_s"]}),
    ]  # the models' warnings become notes
    return View(
        figures={k: f for view in views for k, f in view.figures.items()},
        readouts={k: r for view in views for k, r in view.readouts.items()},
        binding=views[0].binding, notes=tuple(dict.fromkeys(n for view in views for n in view.notes)),
        caption_values=views[0].caption_values,
        citations=tuple(dict.fromkeys(c for view in views for c in view.citations)),
    )  # fmt: skip


_COLUMNS = (("speed", "MB/s", "observed_rate"), ("native", "MB/s", "native_rate"),
            ("compressed max", "MB/s", "compressed_max_rate"), ("capacity", "GB", "native_capacity"),
            ("lowest speed matching", "MB/s", "min_speed_matching_rate"), ("load", "s", "load_time"),
            ("unload", "s", "unload_time"), ("rewind", "s", "rewind_time"), ("locate", "s", "locate_time"))  # fmt: skip


def _cell(spec: catalog.DriveSpec, quantity: str) -> str:
    if quantity == "observed_rate":  # the speed to size with: observed where measured, else native
        p = spec.provenance("observed_rate") or spec.provenance("native_rate")
        text = f"{number(spec.speed_mb_s)} ({spec.speed_basis})"
    else:
        p = spec.provenance(quantity)
        text = "–" if p is None else number(p.value)
    return f"<td title='{html.escape(str(p)) if p else ''}' style='text-align:right'>{text}</td>"


def catalog_html() -> str:
    """The drive catalog by family, in order of generation; hover a value for its row's source."""
    head = "".join(f"<th>{h} [{u}]</th>" for h, u, _ in _COLUMNS)
    body = []
    for g in catalog.drive_choices():
        body.append(f"<tr><th colspan='11' style='text-align:left'>{html.escape(g.label)}</th></tr>")
        for c in g.drives:
            s = catalog.drive_spec(c.key)
            body.append(f"<tr><td style='text-align:left'>{html.escape(c.label)}</td>"
                        f"{''.join(_cell(s, q) for _h, _u, q in _COLUMNS)}"
                        f"<td style='text-align:left'>{html.escape(', '.join(s.primary_sources))}</td></tr>")  # fmt: skip
    return (f"<table class='vtsmodel-sources'><thead><tr><th>drive</th>{head}<th>sources</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")  # fmt: skip


def key_numbers() -> str:
    """The lesson's numbers from the sources and the models, one labelled line each, with units."""
    speed, tm, to = _cern.value("plot_drive_speed"), _cern.value("tmount_total"), _cern.value("toverhead")
    alice, disk = _cern.value("alice_tape_stream_rate"), _cern.value("disk_server_stream_rate")
    lto1, lto9 = catalog.drive_spec("LTO1"), catalog.drive_spec("LTO9")
    lto = load("lto_facts")
    k, bus = int(lto.value("drives_per_scsi_bus")), lto.value("scsi_bus_rate_needed")
    rate, binding, _ = host_rate("LTO1", lto1.compression_ratio_spec, k, bus, 1000.0)
    lines = [
        f"mount cycle from CERN's parts, 160 robot moves/h: {number(float(drives.mount_cycle_s()), 4)} s "
        f"(printed: about {number(tm)} s)",
        f"mount cycle from CERN's parts, 240 robot moves/h: "
        f"{number(float(drives.mount_cycle_s(robot_moves_per_hour=240.0)), 4)} s",
        f"mount cycle of the LTO-9 from its own parts: {number(float(drives.mount_cycle_s(drive='LTO9')), 4)} s",
        f"overhead per file tOverhead: {number(to)} s",
        *(f"efficiency at {number(speed)} MB/s, tMount {number(tm)} s, 1,000 MB files, {n} per mount: "
          f"{percent(float(drives.drive_efficiency(1000.0, n, speed_mb_s=speed)))}"
          for n in CURVE_FILES_PER_MOUNT),
        *(f"a {number(alice)} MB/s stream feeds the {_short(s)} ({number(s.speed_mb_s)} MB/s) at "
          f"{percent(float(drives.stream_limited_efficiency(alice, s.speed_mb_s)))} of its speed"
          for s in map(catalog.drive_spec, ("STK9940B", "IBM3592A"))),
        f"LTO-1: {number(lto1.native_rate_mb_s)} MB/s native, {number(lto1.compressed_max_rate_mb_s)} MB/s "
        f"compressed max, {number(lto1.observed_rate_mb_s)} MB/s observed "
        f"({percent(lto1.observed_rate_mb_s / lto1.compressed_max_rate_mb_s)} of the max)",
        f"{k} LTO-1 drives at {number(rate)} MB/s each need {number(k * rate)} MB/s of bus ({binding} binds)",
        f"a {number(disk)} MB/s disk-server stream vs the LTO-9's lowest speed-matching rate "
        f"{number(lto9.min_speed_matching_rate_mb_s)} MB/s: "
        f"{'streams' if catalog.streaming_check('LTO9', disk).all_stream else 'cannot stream'}",
    ]  # fmt: skip
    for direction in drives.DIRECTIONS:
        fit = drives.transfer_rate_fit(direction)
        params = ", ".join(f"{name} {number(v)}" for name, v in fit.as_dict().items())
        lines.append(f"{direction} fit: {params}; rms residual {number(fit.rms)} MB/s")
    return "\n".join(lines)
