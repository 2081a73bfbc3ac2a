"""Lesson 04: drive efficiency vs file size, block size, and the LTO experience.

Three panels:

* :func:`efficiency_panel`: the CERN formula, efficiency vs file size for several
  files per mount (log axis) and a heatmap over file size × files per mount, with the
  drive and the mount and file overheads as controls;
* :func:`block_size_panel`: the StorageTek block-size tables with the fitted curves and
  the shared controller buffer as a control;
* :func:`lto_panel`: LTO-1 and LTO-2 spec vs observed, and the limits outside the drive
  (compression, the shared SCSI bus, the disk-pool stream).
"""

from __future__ import annotations

import copy
import functools
import math
import warnings

import numpy as np
import plotly.graph_objects as go

from vtsmodel import data
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
from vtsmodel.app.panels import Panel, View, dropdown, int_slider, log_slider, slider
from vtsmodel.catalog import drive_catalog, drive_names, drive_spec
from vtsmodel.drives import (
    compressed_rate,
    drive_efficiency,
    mount_cycle_s,
    scsi_bus_rate,
    stream_limited_efficiency,
    transfer_rate,
    transfer_rate_fit,
)

__all__ = [
    "NOTEBOOK",
    "SCENARIO_PARAMS",
    "TITLE",
    "block_size_figure",
    "block_size_panel",
    "efficiency_figure",
    "efficiency_panel",
    "heatmap_figure",
    "lto_figure",
    "lto_panel",
    "scenario_outputs",
    "scenario_view",
    "view_block_size",
    "view_efficiency",
    "view_lto",
]

LESSON_ID = "04"
TITLE = "Drive efficiency vs file size"
NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"

#: Files per mount of the efficiency curves. [-]
CURVE_FILES_PER_MOUNT = (1, 10, 100, 1000)
#: File sizes of the curves and the heatmap: 0.1 MB to 100 GB. [MB]
FILE_SIZES_MB = np.logspace(-1, 5, 181)
_FIGURE_HEIGHT = 400
_HEAT_FILES = np.logspace(-1, 5, 61)
_HEAT_N = np.logspace(0, 4, 41)

_cern = data.load("cern_facts")


@functools.cache
def _base_layout(xaxis_title: str, yaxis_title: str, height: int) -> dict:
    lay = new_figure(
        title="-", xaxis_title=xaxis_title, yaxis_title=yaxis_title, height=height
    ).to_plotly_json()
    lay = lay["layout"]
    lay.pop("template", None)
    return lay


def fast_figure(*, title="", xaxis_title="", yaxis_title="", height=_FIGURE_HEIGHT) -> go.Figure:
    """A figure styled as :func:`vtsmodel.app.figures.new_figure`, from a layout built once.

    Like every lesson figure it carries no template: the plot panes and the exports add it.
    """
    lay = copy.deepcopy(_base_layout(xaxis_title, yaxis_title, height))
    lay["title"]["text"] = title
    return go.Figure(layout=lay)


def _quiet(func, *args, **kwargs):
    """Call a model function, silencing its extrapolation warning (the figure marks it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)
        return func(*args, **kwargs)


def _drive_options():
    return [
        (f"{n} ({drive_spec(n).speed_mb_s:.3g} MB/s, {drive_spec(n).speed_basis})", n) for n in drive_names()
    ]


SCENARIO_PARAMS = {
    "drive": Param("drive", "", "STK9940B", choices=drive_names(), help="Catalog drive; its speed is tSpeed"),
    "t_mount_s": Param("tMount", "s", _cern.value("tmount_total"), 0.0, 600.0, help="Time per mount"),
    "t_overhead_s": Param("tOverhead", "s", _cern.value("toverhead"), 0.0, 30.0, help="Overhead per file"),
    "file_mb": Param("file size", "MB", 1000.0, 0.1, 1e5, help="Average file size"),
    "files_per_mount": Param("files per mount", "-", 10.0, 1.0, 1e4, help="Files in one mount"),
}


# --- figure builders ----------------------------------------------------------------------


def _efficiency_point(speed_mb_s, t_mount_s, t_overhead_s, file_mb, files_per_mount):
    kw = dict(t_mount_s=t_mount_s, t_overhead_s=t_overhead_s, speed_mb_s=speed_mb_s)
    e0 = float(_quiet(drive_efficiency, file_mb, files_per_mount, **kw))
    return operating_point(file_mb, e0, name="this setting")


def efficiency_figure(speed_mb_s, t_mount_s, t_overhead_s, file_mb=None, files_per_mount=None, *, drive=""):
    """Efficiency vs file size (log axis), one curve per files-per-mount, and the point.

    The point (``file_mb``, ``files_per_mount``) is left out when ``file_mb`` is None.
    """
    fig = fast_figure(
        title=f"Efficiency of {drive or 'a drive'} at {speed_mb_s:.3g} MB/s",
        xaxis_title="file size [MB]",
        yaxis_title="efficiency [-]",
        height=_FIGURE_HEIGHT,
    )
    kw = dict(t_mount_s=t_mount_s, t_overhead_s=t_overhead_s, speed_mb_s=speed_mb_s)
    eff = _quiet(
        drive_efficiency, FILE_SIZES_MB[None, :], np.array(CURVE_FILES_PER_MOUNT, float)[:, None], **kw
    )
    for i, n in enumerate(CURVE_FILES_PER_MOUNT):
        fig.add_trace(
            go.Scatter(
                x=FILE_SIZES_MB,
                y=eff[i],
                mode="lines",
                name=f"{n} file{'s' if n > 1 else ''}/mount",
                line={"color": COLORS[i]},
                hovertemplate="%{x:.3g} MB: %{y:.1%}<extra>" + f"{n} files/mount</extra>",
            )
        )
    if file_mb is not None:
        fig.add_trace(_efficiency_point(speed_mb_s, t_mount_s, t_overhead_s, file_mb, files_per_mount))
    lo, hi = _cern.value("toverhead_test_file_size_1"), _cern.value("toverhead_test_file_size_1000")
    fig.add_vrect(x0=lo, x1=hi, fillcolor="#999999", opacity=0.12, line_width=0)
    fig.add_annotation(x=np.log10(np.sqrt(lo * hi)), y=1.02, yref="y", text="tOverhead measured 1–1000 MB",
                       showarrow=False, font={"size": 11})  # fmt: skip
    fig.update_xaxes(type="log")
    fig.update_yaxes(range=[0, 1.06], tickformat=".0%")
    return fig


def _heatmap_point(file_mb, files_per_mount):
    # No legend entry: it would sit on the colour bar; the efficiency plot's legend names it.
    return operating_point(np.log10(file_mb), np.log10(files_per_mount), name="this setting").update(
        showlegend=False
    )


def heatmap_figure(speed_mb_s, t_mount_s, t_overhead_s, file_mb=None, files_per_mount=None):
    """Efficiency over file size × files per mount (both log), with the setting marked.

    The setting is left out when ``file_mb`` is None.
    """
    fig = fast_figure(
        title="Efficiency over file size × files per mount",
        xaxis_title="file size [MB]",
        yaxis_title="files per mount [-]",
        height=_FIGURE_HEIGHT,
    )
    z = _quiet(
        drive_efficiency, _HEAT_FILES[None, :], _HEAT_N[:, None],
        t_mount_s=t_mount_s, t_overhead_s=t_overhead_s, speed_mb_s=speed_mb_s,
    )  # fmt: skip
    fig.add_trace(
        go.Heatmap(
            x=np.log10(_HEAT_FILES),
            y=np.log10(_HEAT_N),
            z=z,
            zmin=0,
            zmax=1,
            colorscale="Viridis",
            colorbar={"title": {"text": "efficiency"}, "tickformat": ".0%"},
            customdata=np.stack(np.meshgrid(_HEAT_FILES, _HEAT_N), axis=-1),
            hovertemplate="%{customdata[0]:.3g} MB, %{customdata[1]:.3g} files: %{z:.1%}<extra></extra>",
            name="efficiency",
            showlegend=False,
        )
    )
    fig.add_trace(
        go.Contour(
            x=np.log10(_HEAT_FILES), y=np.log10(_HEAT_N), z=z, showscale=False,
            contours={"coloring": "none", "start": 0.1, "end": 0.9, "size": 0.2, "showlabels": True},
            line={"color": "white", "width": 1}, hoverinfo="skip", name="contours", showlegend=False,
        )
    )  # fmt: skip
    if file_mb is not None:
        fig.add_trace(_heatmap_point(file_mb, files_per_mount))
    ticks = {"tickmode": "array"}
    fig.update_xaxes(
        **ticks, tickvals=list(range(-1, 6)), ticktext=["0.1", "1", "10", "100", "1k", "10k", "100k"]
    )
    fig.update_yaxes(**ticks, tickvals=list(range(0, 5)), ticktext=["1", "10", "100", "1k", "10k"])
    return fig


_BLOCKS = np.logspace(np.log10(4), np.log10(128), 150)


def _block_point(controller_buffer_kb, drives_sharing, block_kb):
    w = float(
        transfer_rate(
            block_kb, "write", controller_buffer_kb=controller_buffer_kb, drives_sharing=drives_sharing
        )
    )
    return operating_point(block_kb, w, name="write at this block size")


def block_size_figure(controller_buffer_kb, drives_sharing, block_kb=None):
    """The StorageTek write and read tables, the fitted curves and the buffer share.

    The write rate at ``block_kb`` is marked unless it is None.
    """
    fig = fast_figure(
        title="Transfer rate vs block size (StorageTek 3480 on a Cray Y-MP EL)",
        xaxis_title="block size [KB]",
        yaxis_title="transfer rate [MB/s]",
        height=_FIGURE_HEIGHT,
    )
    t = data.load("stk_transfer_rates")
    for i, direction in enumerate(("write", "read")):
        rows = t.where(direction=direction)
        rate = transfer_rate(_BLOCKS, direction, controller_buffer_kb=controller_buffer_kb,
                             drives_sharing=drives_sharing)  # fmt: skip
        fig.add_trace(go.Scatter(x=_BLOCKS, y=rate, mode="lines", name=f"{direction}, fit",
                                 line={"color": COLORS[i]}))  # fmt: skip
        fig.add_trace(
            source_markers(
                rows["block_kb"], rows["value"], [t.provenance(r) for r in rows["id"]],
                name=f"{direction}, measured", color=COLORS[i],
            )
        )  # fmt: skip
    share = controller_buffer_kb / drives_sharing
    if share <= 128:
        fig.add_vline(x=share, line={"dash": "dot", "color": "#666666"})
        fig.add_annotation(x=np.log10(share), y=0.15, text=f"buffer share {share:.3g} KB", showarrow=False,
                           xanchor="right", font={"size": 11})  # fmt: skip
    if block_kb is not None:
        fig.add_trace(_block_point(controller_buffer_kb, drives_sharing, block_kb))
    fig.update_xaxes(type="log", tickvals=[4, 8, 16, 32, 64, 128])
    fig.update_yaxes(rangemode="tozero")
    return fig


@functools.cache
def _residuals_json() -> dict:
    return fixed_json(_residuals_figure())


def residuals_figure():
    """Residuals (measured − fitted) of both fits, per block size (built once)."""
    return figure_from_json(_residuals_json())


def _residuals_figure():
    """Residuals (measured − fitted) of both fits, per block size."""
    fig = fast_figure(title="Fit residuals", xaxis_title="block size [KB]", yaxis_title="measured − fit [MB/s]",
                     height=260)  # fmt: skip
    for i, direction in enumerate(("write", "read")):
        f = transfer_rate_fit(direction)
        fig.add_trace(
            go.Bar(x=[f"{b:g}" for b in f.x], y=f.residuals, name=direction, marker_color=COLORS[i])
        )
    fig.update_xaxes(type="category")
    return fig


def lto_figure(rows):
    """Grouped bars: spec, observed and this setting's modelled rate for LTO-1 and LTO-2."""
    fig = fast_figure(title="LTO: spec vs observed vs this setting", yaxis_title="rate [MB/s]",
                     height=_FIGURE_HEIGHT)  # fmt: skip
    drives = list(rows)
    for i, key in enumerate(("native max (spec)", "compressed max (spec)", "observed", "this setting")):
        fig.add_trace(
            go.Bar(
                x=drives,
                y=[rows[d][key] for d in drives],
                name=key,
                marker_color=COLORS[i],
                hovertext=[rows[d].get(f"{key} source", "") for d in drives],
                hovertemplate="%{x}: %{y:.3g} MB/s<br>%{hovertext}<extra>" + key + "</extra>",
            )
        )
    fig.update_layout(barmode="group")
    return fig


# --- view functions -----------------------------------------------------------------------


# The figures' fixed parts, cached per setting of the inputs other than the point's, so
# that moving the file size, files per mount or block size only adds the point.
@functools.lru_cache(maxsize=64)
def _efficiency_fixed(speed, tm, to, drive) -> dict:
    return fixed_json(efficiency_figure(speed, tm, to, drive=drive))


@functools.lru_cache(maxsize=64)
def _heatmap_fixed(speed, tm, to) -> dict:
    return fixed_json(heatmap_figure(speed, tm, to))


@functools.lru_cache(maxsize=64)
def _block_size_fixed(buf, k) -> dict:
    return fixed_json(block_size_figure(buf, k))


def view_efficiency(
    drive="STK9940B", t_mount_s=None, t_overhead_s=None, file_mb=1000.0, files_per_mount=10.0
):
    """The efficiency panel's view: curves, heatmap, throughput and the dominant cost."""
    spec = drive_spec(drive)
    speed = spec.speed_mb_s
    tm = _cern.value("tmount_total") if t_mount_s is None else float(t_mount_s)
    to = _cern.value("toverhead") if t_overhead_s is None else float(t_overhead_s)
    f, n = float(file_mb), float(files_per_mount)
    eff = float(_quiet(drive_efficiency, f, n, t_mount_s=tm, t_overhead_s=to, speed_mb_s=speed))
    parts = {"mount": tm, "file overheads": n * to, "streaming": n * f / speed}
    total = sum(parts.values())
    dominant = max(parts, key=parts.get)
    lo, hi = _cern.value("toverhead_test_file_size_1"), _cern.value("toverhead_test_file_size_1000")
    readouts = {
        "drive speed [MB/s]": f"{speed:.3g} ({spec.speed_basis})",
        "throughput [MB/s]": f"{eff * speed:.3g}",
        "efficiency [-]": f"{eff:.1%}",
        "time per mount [s]": f"{total:.4g}",
        "tMount from its parts [s]": f"{float(mount_cycle_s()):.4g}",
    }
    binding = (
        f"{dominant} takes {parts[dominant] / total:.0%} of each mount's {total:.4g} s "
        f"(mount {tm:.3g} s, {n:.3g} × {to:.3g} s overhead, {n * f / speed:.4g} s streaming)."
    )
    if not lo <= f <= hi:
        binding += f" File size outside the {lo:g}–{hi:g} MB tOverhead was measured with: extrapolated."
    return View(
        figures={
            "efficiency": figure_from_json(
                _efficiency_fixed(speed, tm, to, drive), [_efficiency_point(speed, tm, to, f, n)]
            ),
            "heatmap": figure_from_json(_heatmap_fixed(speed, tm, to), [_heatmap_point(f, n)]),
        },
        readouts=readouts,
        binding=binding,
        caption_values={
            "drive": drive,
            "speed [MB/s]": speed,
            "tMount [s]": tm,
            "tOverhead [s]": to,
            "file size [MB]": f,
            "files per mount [-]": n,
        },  # fmt: skip
        citations=("cern_facts", "drive_catalog"),
    )


def view_block_size(controller_buffer_kb=None, drives_sharing=None, block_kb=64.0):
    """The block-size panel's view: tables, fits, the buffer share and the rates at a block."""
    stk = data.load("stk_facts")
    buf = (
        stk.value("controller_buffer") * 1000.0
        if controller_buffer_kb is None
        else float(controller_buffer_kb)
    )
    k = int(stk.value("tested_drives") if drives_sharing is None else drives_sharing)
    b = float(block_kb)
    w = float(transfer_rate(b, "write", controller_buffer_kb=buf, drives_sharing=k))
    r = float(transfer_rate(b, "read"))
    share = buf / k
    blocks = data.load("stk_transfer_rates").where(direction="write")["block_kb"]
    best = float(
        blocks[np.argmax(transfer_rate(blocks, "write", controller_buffer_kb=buf, drives_sharing=k))]
    )
    readouts = {
        "write rate [MB/s]": f"{w:.3g}",
        "read rate [MB/s]": f"{r:.3g}",
        "buffer share per drive [KB]": f"{share:.4g}",
        "fastest write block [KB]": f"{best:g}",
    }
    binding = (
        f"A {b:g} KB block {'does not fit' if b > share else 'fits'} in the {share:.4g} KB buffer share "
        f"({buf:g} KB / {k} drives)."
    )
    return View(
        figures={
            "block_size": figure_from_json(_block_size_fixed(buf, k), [_block_point(buf, k, b)]),
            "residuals": residuals_figure(),
        },
        readouts=readouts,
        binding=binding,
        caption_values={"controller buffer [KB]": buf, "drives sharing [-]": k, "block size [KB]": b},
        citations=("stk_transfer_rates", "stk_facts"),
    )


def lto_rates(drive, compression_ratio, drives_per_bus, bus_mb_s, stream_mb_s):
    """Modelled host rate of one LTO drive and the limit that binds. [MB/s]"""
    spec = drive_spec(drive)
    drive_rate = float(
        _quiet(
            compressed_rate,
            spec.native_rate_mb_s,
            compression_ratio,
            max_rate_mb_s=spec.compressed_max_rate_mb_s,
        )
    )
    on_bus = float(scsi_bus_rate(drive_rate, drives_per_bus, bus_mb_s=bus_mb_s))
    limits = {"drive (compression)": drive_rate, "SCSI bus": on_bus, "disk-pool stream": float(stream_mb_s)}
    binding = min(limits, key=lambda k: (limits[k], k != "drive (compression)"))
    return limits[binding], binding, limits


def view_lto(compression_ratio=2.0, drives_per_bus=2, bus_mb_s=None, stream_mb_s=None):
    """The LTO panel's view: spec and observed rows, and this setting's modelled rates."""
    lto = data.load("lto_facts")
    bus = lto.value("scsi_bus_rate_needed") if bus_mb_s is None else float(bus_mb_s)
    stream = _cern.value("alice_tape_stream_rate") if stream_mb_s is None else float(stream_mb_s)
    rows, readouts, bind_text = {}, {}, []
    for d in ("LTO1", "LTO2"):
        spec = drive_spec(d)
        rate, binding, _ = lto_rates(d, compression_ratio, drives_per_bus, bus, stream)
        obs = [p for p in spec.rows.values() if p.id.endswith("observed_rate")]
        rows[d] = {
            "native max (spec)": spec.native_rate_mb_s,
            "compressed max (spec)": spec.compressed_max_rate_mb_s,
            "observed": spec.observed_rate_mb_s,
            "this setting": rate,
            "observed source": f"{obs[0].source}, {obs[0].locator}: {obs[0].printed}" if obs else "",
        }
        readouts[f"{d} rate [MB/s]"] = f"{rate:.3g}"
        readouts[f"{d} share of compressed max [-]"] = f"{rate / spec.compressed_max_rate_mb_s:.0%}"
        bind_text.append(f"{d}: {binding}")
    readouts["stream efficiency, 9940B [-]"] = (
        f"{float(stream_limited_efficiency(stream, drive_spec('STK9940B').speed_mb_s)):.0%}"
    )
    readouts["stream efficiency, 3592A [-]"] = (
        f"{float(stream_limited_efficiency(stream, drive_spec('IBM3592A').speed_mb_s)):.0%}"
    )
    return View(
        figures={"lto": lto_figure(rows)},
        readouts=readouts,
        binding="; ".join(bind_text) + ".",
        caption_values={
            "compression ratio [-]": compression_ratio,
            "drives per bus [-]": drives_per_bus,
            "bus [MB/s]": bus,
            "disk stream [MB/s]": stream,
        },  # fmt: skip
        citations=("drive_catalog", "lto_facts", "cern_facts"),
    )


def efficiency_panel() -> Panel:
    """Efficiency vs file size and files per mount, for a catalog drive."""
    p = SCENARIO_PARAMS
    controls = {
        "drive": dropdown("drive", _drive_options(), p["drive"].default, tooltip="Catalog drive; its speed is tSpeed"),
        "t_mount_s": slider("tMount", p["t_mount_s"].default, 0, 600, 2.5, unit="s",
                            tooltip="Time per mount: robot move, load, position, rewind and unload"),
        "t_overhead_s": slider("tOverhead", p["t_overhead_s"].default, 0, 30, 0.1, unit="s",
                               tooltip="Overhead per file (tape marks)"),
        "file_mb": log_slider("file size", p["file_mb"].default, 0.1, 1e5, unit="MB"),
        "files_per_mount": log_slider("files per mount", p["files_per_mount"].default, 1, 1e4, unit="-"),
    }  # fmt: skip
    return Panel(
        controls,
        view_efficiency,
        title="Drive efficiency (CERN formula)",
        name="04_efficiency",
    )


def block_size_panel() -> Panel:
    """Transfer rate vs block size, with the controller buffer share as a control."""
    stk = data.load("stk_facts")
    controls = {
        "controller_buffer_kb": slider("controller buffer", stk.value("controller_buffer") * 1000, 250, 4000, 50,
                                       unit="KB", tooltip="Buffer shared equally by the drives"),
        "drives_sharing": int_slider("drives sharing buffer", int(stk.value("tested_drives")), 1, 16, unit="-"),
        "block_kb": log_slider("block size", 64.0, 4, 128, unit="KB", steps_per_decade=20),
    }  # fmt: skip
    return Panel(
        controls,
        view_block_size,
        title="Block size (StorageTek tables)",
        name="04_block_size",
    )


def lto_panel() -> Panel:
    """LTO spec vs observed, and the limits outside the drive."""
    lto = data.load("lto_facts")
    controls = {
        "compression_ratio": slider("compression ratio", lto.value("assumed_compression_ratio"), 1, 4, 0.01,
                                    unit="-", tooltip="Data compressibility"),
        "drives_per_bus": int_slider("drives per SCSI bus", int(lto.value("drives_per_scsi_bus")), 1, 8, unit="-"),
        "bus_mb_s": slider("SCSI bus", lto.value("scsi_bus_rate_needed"), 10, 320, 5, unit="MB/s"),
        "stream_mb_s": slider("disk-pool stream", _cern.value("alice_tape_stream_rate"), 1, 100, 1, unit="MB/s"),
    }  # fmt: skip
    return Panel(controls, view_lto, title="LTO in the real world", name="04_lto")


# --- lesson contract ----------------------------------------------------------------------


def _values(values: dict) -> dict:
    return scenario_values(SCENARIO_PARAMS, values)


def scenario_outputs(**values) -> dict[str, float]:
    """Throughput and efficiency of one scenario."""
    v = _values(values)
    speed = drive_spec(v["drive"]).speed_mb_s
    eff = float(
        _quiet(drive_efficiency, v["file_mb"], v["files_per_mount"], t_mount_s=v["t_mount_s"],
               t_overhead_s=v["t_overhead_s"], speed_mb_s=speed)
    )  # fmt: skip
    return {"drive speed [MB/s]": speed, "throughput [MB/s]": eff * speed, "efficiency [-]": eff}


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (block size and LTO at their defaults)."""
    v = _values(values)
    eff = view_efficiency(**v)
    blk, lto = view_block_size(), view_lto()
    return View(
        figures={**eff.figures, **blk.figures, **lto.figures},
        readouts={**eff.readouts, **blk.readouts, **lto.readouts},
        binding=eff.binding,
        caption_values=eff.caption_values,
        citations=tuple(dict.fromkeys(eff.citations + blk.citations + lto.citations)),
    )


def catalog_rows() -> list[dict]:
    """The drive catalog as rows to show: speed, basis, and the rows' sources."""
    return [
        {"drive": n, "speed [MB/s]": s.speed_mb_s, "basis": s.speed_basis,
         "native [MB/s]": s.native_rate_mb_s, "compressed max [MB/s]": s.compressed_max_rate_mb_s,
         "capacity [GB]": s.native_capacity_gb, "sources": ", ".join(s.sources)}
        for n, s in drive_catalog().items()
    ]  # fmt: skip


def _html_table(rows: list[dict]) -> str:
    import html as _html

    def fmt(v):
        if v is None:
            return "–"
        return f"{v:.4g}" if isinstance(v, float) else _html.escape(str(v))

    head = "".join(f"<th>{_html.escape(k)}</th>" for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{fmt(v)}</td>" for v in r.values()) + "</tr>" for r in rows)
    return f"<table class='vtsmodel-table'><tr>{head}</tr>{body}</table>"


def catalog_html() -> str:
    """The drive catalog as an HTML table with each drive's sources."""
    return _html_table(catalog_rows())


def key_numbers() -> str:
    """The lesson's key numbers as plain text (for the notebook's checked cell)."""
    from vtsmodel.drives import transfer_rate_fit

    speed = _cern.value("plot_drive_speed")
    stream = _cern.value("alice_tape_stream_rate")
    s9940, s3592 = drive_spec("STK9940B").speed_mb_s, drive_spec("IBM3592A").speed_mb_s
    lines = [
        f"tMount from its parts: {float(mount_cycle_s()):.1f} s (printed: about {_cern.value('tmount_total'):g} s)",
        f"tOverhead: {_cern.value('toverhead'):g} s per file",
        f"efficiency at {speed:g} MB/s, tMount {_cern.value('tmount_total'):g} s, 1000 MB files: "
        + ", ".join(
            f"{n} files/mount {float(drive_efficiency(1000.0, n, speed_mb_s=speed)):.3f}"
            for n in CURVE_FILES_PER_MOUNT
        ),
        f"ALICE stream {stream:g} MB/s: 9940B {float(stream_limited_efficiency(stream, s9940)):.3f}, "
        f"3592A {float(stream_limited_efficiency(stream, s3592)):.3f}",
    ]
    for direction in ("write", "read"):
        f = transfer_rate_fit(direction)
        params = ", ".join(f"{k} {v:.3g}" for k, v in f.as_dict().items())
        lines.append(f"{direction} fit: {params}; rms residual {f.rms:.3f} MB/s")
    return "\n".join(lines)


def _expect(ok: bool, what: str, table: str, row: str) -> None:
    """Raise AssertionError naming the source statement ``table``/``row`` when ``ok`` is false."""
    if not ok:
        p = data.load(table).provenance(row)
        raise AssertionError(
            f'{what}; source: {p.source}, {p.locator}: "{p.quote or p.printed}" ({table}/{row})'
        )


def _close(value: float, table: str, row: str, tol: float, what: str) -> None:
    expected = data.load(table).value(row)
    _expect(
        abs(value - expected) <= tol, f"{what} = {value:.6g}, expected {expected:g} ± {tol:g}", table, row
    )


def _formula_efficiency(f, n, t_mount, t_overhead, speed):
    """The note's formula written out: n·f / (tMount + n·tOverhead + n·f / tSpeed) / tSpeed."""
    return n * f / (t_mount + n * t_overhead + n * f / speed) / speed


def check_key_numbers() -> str:
    """:func:`key_numbers`, checked against the sources; raises AssertionError naming the statement.

    Checks, each within the printed precision: tMount's parts (3600 / 160 moves per hour =
    22.5 s; their sum 127.5 s; with the upgraded 240 moves/h, the printed "about 120s");
    the model's default tOverhead and tMount are the note's; ``drive_efficiency`` equals the
    note's formula written out; the ALICE stream efficiencies (66% of a 9940B, 50% of a
    3592A); LTO-1's spec and observed rates, the observed share of the compressed maximum
    (0.75), and two drives at 30 MB/s filling the 60 MB/s SCSI bus; the block-size fits
    keep the tables' shape (write fastest at 64 KB, read still rising to 128 KB).

    Returns
    -------
    str
        The lines to print (those of :func:`key_numbers`).
    """
    c = "cern_facts"
    _close(3600.0 / _cern.value("robot_moves_normal"), c, "tmount_move", 0.05, "3600 / robot moves per hour")
    _close(float(mount_cycle_s()), c, "tmount_components_sum", 0.05, "mount_cycle_s()")
    upgraded = float(mount_cycle_s(robot_moves_per_hour=_cern.value("robot_moves_upgraded")))
    _close(upgraded, c, "tmount_total", 0.5, "mount_cycle_s at 240 moves/h")
    speed, tm, to = _cern.value("plot_drive_speed"), _cern.value("tmount_total"), _cern.value("toverhead")
    for n in CURVE_FILES_PER_MOUNT:
        e = float(drive_efficiency(1000.0, n, speed_mb_s=speed))
        _expect(
            abs(e - _formula_efficiency(1000.0, n, tm, to, speed)) <= 5e-4,
            f"drive_efficiency(1000 MB, {n}) = {e:.4f} is not the note's formula with tMount {tm:g} s, "
            f"tOverhead {to:g} s",
            c,
            "tmount_total",
        )
    stream = _cern.value("alice_tape_stream_rate")
    for drive, row in (("STK9940B", "alice_efficiency_9940b"), ("IBM3592A", "alice_efficiency_3592a")):
        e = float(stream_limited_efficiency(stream, drive_spec(drive).speed_mb_s))
        _close(e, c, row, 0.01, f"{drive} efficiency at a {stream:g} MB/s stream")  # printed in whole %
    lto, lto1 = "lto_facts", drive_spec("LTO1")
    _close(lto1.native_rate_mb_s, lto, "lto1_native_max_rate", 0.05, "LTO-1 native max")
    _close(lto1.compressed_max_rate_mb_s, lto, "lto1_compressed_max_rate", 0.05, "LTO-1 compressed max")
    _close(lto1.observed_rate_mb_s, lto, "lto1_sustained_compressed_rate", 0.05, "LTO-1 observed")
    share = lto1.observed_rate_mb_s / lto1.compressed_max_rate_mb_s
    _close(share, lto, "lto1_sustained_fraction_of_compressed_max", 0.005, "LTO-1 observed / compressed max")
    k, bus = data.load(lto).value("drives_per_scsi_bus"), data.load(lto).value("scsi_bus_rate_needed")
    rate, _, limits = lto_rates("LTO1", lto1.compression_ratio_spec, int(k), bus, math.inf)
    _close(k * limits["SCSI bus"], lto, "scsi_bus_rate_needed", 0.05, f"{k:g} LTO-1 drives on the bus")
    _close(rate, lto, "drive_peak_compressed_rate", 0.05, "LTO-1 at 2:1 on a shared bus")
    blocks = np.array([32.0, 64.0, 128.0])
    w, r = (np.asarray(transfer_rate(blocks, direction=d), dtype=float) for d in ("write", "read"))
    _expect(
        w[1] > max(w[0], w[2]),
        f"write fit {w} MB/s at 32/64/128 KB: not fastest at 64 KB",
        "stk_transfer_rates",
        "write_128kb",
    )
    _expect(
        r[2] > r[1] > r[0],
        f"read fit {r} MB/s at 32/64/128 KB: not rising to 128 KB",
        "drive_catalog",
        "stk3480_observed_read_rate",
    )
    extra = [
        f"tMount with {_cern.value('robot_moves_upgraded'):g} robot moves per hour: {upgraded:.1f} s",
        f"LTO-1: {lto1.native_rate_mb_s:g} MB/s native, {lto1.compressed_max_rate_mb_s:g} MB/s compressed max, "
        f"{lto1.observed_rate_mb_s:g} MB/s observed ({share:.0%} of the max); "
        f"{k:g} drives at {rate:g} MB/s need {k * rate:g} MB/s of bus",
    ]
    return "\n".join([key_numbers(), *extra])
