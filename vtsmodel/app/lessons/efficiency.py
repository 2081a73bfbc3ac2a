"""Lesson 04: drive efficiency vs file size, block size, and a drive's rates outside the lab.

Three panels: :func:`efficiency_panel` (the CERN formula, cern-tape-sizing-2005: efficiency
vs file size per files-per-mount and over the whole plane, with the drive's own mount cycle
and its feed checked against its lowest speed-matching rate: this module),
:func:`block_size_panel` (the StorageTek tables, stk-acs4400-cray, their fits and the
controller buffer share: :mod:`~vtsmodel.app.lessons.block_size`) and :func:`rates_panel` (a
drive family's spec and observed rates, and the limits outside the drive: compression, a
shared bus, the disk-pool stream; adsm-l-lto-2003: :mod:`~vtsmodel.app.lessons.drive_rates`).
This module holds the lesson's contract and the inputs its panels share. Each figure is a
cached base and the marks the sliders move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel import Input, catalog, drives
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, line_mark, new_figure, point_mark
from vtsmodel.app.lessons import block_size, drive_rates, scenario_values
from vtsmodel.app.lessons.block_size import BLOCK_SIZE
from vtsmodel.app.lessons.drive_rates import RATES, drive_options, short_name
from vtsmodel.app.panels import Panel, Stage, View, merge_views
from vtsmodel.app.text import duration, number, percent
from vtsmodel.data import load

LESSON_ID = "04"
TITLE = "Drive efficiency vs file size"
NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"

_CERN = "cern-tape-sizing-2005, Access pattern and tape drive efficiency"
#: Files per mount of the efficiency curves. [-]
CURVE_FILES_PER_MOUNT = (1, 10, 100, 1000)
#: File sizes of the curves, 0.1 MB to 100 GB, and of the heatmap's columns. [MB]
FILE_SIZES_MB = np.logspace(-1, 5, 181)
_HEAT_F, _HEAT_N = np.logspace(-1, 5, 61), np.logspace(0, 4, 41)
_cern = load("cern_facts")
_MEASURED = (_cern.value("toverhead_test_file_size_1"), _cern.value("toverhead_test_file_size_1000"))


INPUTS = {
    "drive": Input("drive", "", "STK9940B", choices=drive_options(), source="data/drive_catalog.csv",
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
    **block_size.INPUTS,
    **drive_rates.INPUTS,
}  # fmt: skip
SCENARIO = ("drive", "robot_moves_per_hour", "t_overhead_s", "file_mb", "files_per_mount", "stream_mb_s")
#: The CERN rows the notebook lists under "The source data".
SOURCE_ROWS = tuple(("cern_facts", r) for r in (
    "robot_moves_normal", "robot_moves_upgraded", "tmount_move", "tmount_mount", "tmount_positioning",
    "tmount_rewind_unload", "tmount_total", "toverhead", "toverhead_test_file_size_1",
    "toverhead_test_file_size_1000", "plot_drive_speed", "disk_server_stream_rate", "alice_tape_stream_rate",
    "alice_efficiency_9940b", "alice_efficiency_3592a"))  # fmt: skip


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


@dataclass(frozen=True, eq=False)
class EfficiencyResult:
    """The CERN formula at one access pattern on one drive, its mount cycle and its feed.

    Attributes
    ----------
    drive, robot_moves_per_hour, t_overhead_s, file_mb, files_per_mount, stream_mb_s
        The inputs.
    spec : vtsmodel.catalog.DriveSpec
        The drive's catalog entry (its speed tSpeed, where that comes from, its sources).
    parts_s : tuple of float
        The drive-side parts of the mount cycle: load, locate, rewind and unload. [s]
    parts_from : str
        Where those parts come from, in a phrase.
    t_mount_s : float
        The mount cycle tMount. [s]
    efficiency, feed : float
        The share of tSpeed this access pattern gets, and the share the stream allows. [-]
    streaming : vtsmodel.catalog.StreamingCheck
        The feed against the drive's lowest speed-matching rate.
    """

    drive: str
    robot_moves_per_hour: float
    t_overhead_s: float
    file_mb: float
    files_per_mount: float
    stream_mb_s: float
    spec: object
    parts_s: tuple[float, ...]
    parts_from: str
    t_mount_s: float
    efficiency: float
    feed: float
    streaming: object

    @property
    def name(self) -> str:
        """The drive's short name."""
        return short_name(self.spec)


def evaluate_efficiency(drive="STK9940B", robot_moves_per_hour=160.0, t_overhead_s=4.4, file_mb=1000.0,
                        files_per_mount=10.0, stream_mb_s=20.0) -> EfficiencyResult:  # fmt: skip
    """Panel 1: the efficiency of this access pattern (cern-tape-sizing-2005), the drive's mount cycle and feed."""
    spec = catalog.drive_spec(drive)
    tm = float(drives.mount_cycle_s(robot_moves_per_hour=robot_moves_per_hour, drive=drive))
    eff = float(drives.drive_efficiency(file_mb, files_per_mount, t_mount_s=tm, t_overhead_s=t_overhead_s,
                                        speed_mb_s=spec.speed_mb_s))  # fmt: skip
    feed = float(drives.stream_limited_efficiency(stream_mb_s, spec.speed_mb_s))
    check = catalog.warn_streaming(drive, stream_mb_s)  # too slow a feed: a note under the panel
    parts = tuple(float(p.seconds) for p in catalog.mount_parts(drive).values())
    return EfficiencyResult(drive, float(robot_moves_per_hour), float(t_overhead_s), float(file_mb),
                            float(files_per_mount), float(stream_mb_s), spec, parts,
                            _parts_from(drive, short_name(spec)), tm, eff, feed, check)  # fmt: skip


def view_efficiency(r: EfficiencyResult) -> View:
    """Panel 1: the efficiency on the curves and the plane, what binds, the drive's mount cycle and feed."""
    speed, name, tm = r.spec.speed_mb_s, r.name, r.t_mount_s
    f, n, to, eff, feed = r.file_mb, r.files_per_mount, r.t_overhead_s, r.efficiency, r.feed
    spent = {"the mount cycle": tm, "file overheads": n * to, "streaming": n * f / speed}
    total = sum(spent.values())
    most = max(spent, key=spent.get)
    if feed < eff:
        binding = (f"The feed: a {number(r.stream_mb_s)} MB/s stream keeps the {name} at {percent(feed)} of its "
                   f"{number(speed)} MB/s, below the {percent(eff)} this access pattern allows.")  # fmt: skip
    else:
        binding = (f"The access pattern: {most} takes {percent(spent[most] / total)} of each mount's "
                   f"{duration(total)} (mount cycle {number(tm, 4)} s, {number(n)} × {number(to)} s overhead, "
                   f"{duration(n * f / speed)} streaming).")  # fmt: skip
    line = line_mark(y=feed, color=COLORS[3], dash="dash", width=2, visible=feed < 1)
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
    floor = r.streaming.min_rate_mb_s
    return View(
        figures=figures,
        readouts={
            "drive speed tSpeed": f"{number(speed)} MB/s ({r.spec.speed_basis})",
            "mount cycle tMount": f"{number(tm, 4)} s",
            "robot move": f"{number(3600.0 / r.robot_moves_per_hour, 4)} s",
            "load + locate + rewind, unload": " + ".join(number(p, 4) for p in r.parts_s) + " s",
            "mount parts from": r.parts_from,
            "efficiency": percent(eff),
            "throughput": f"{number(eff * speed)} MB/s",
            "time per mount": duration(total),
            "the feed allows": percent(feed),
            "lowest speed-matching rate": "not in any document found" if floor is None else
                f"{number(floor)} MB/s: {'streams' if r.streaming.all_stream else 'cannot stream'}",
        },
        binding=binding,
        caption_values={"drive speed tSpeed [MB/s]": speed, "mount cycle tMount [s]": tm, "mount parts from": r.parts_from},
        citations=("cern_facts", *r.spec.primary_sources),
    )  # fmt: skip


#: Panel 1's stage.
EFFICIENCY = Stage(evaluate_efficiency, view_efficiency)


def efficiency_panel(**values) -> Panel:
    """Panel 1: drive, robot, tOverhead, file size, files per mount and the feed."""
    return Panel({k: INPUTS[k] for k in SCENARIO}, EFFICIENCY, values=values,
                 title="Drive efficiency (CERN formula)", name="04_efficiency")  # fmt: skip


def block_size_panel(**values) -> Panel:
    """Panel 2: the controller buffer, the drives sharing it and the block size."""
    names = ("controller_buffer_kb", "drives_sharing", "block_kb")
    return Panel({k: INPUTS[k] for k in names}, BLOCK_SIZE, values=values,
                 title="Block size (StorageTek tables)", name="04_block_size")  # fmt: skip


# --- panel 3: spec vs observed, and the limits outside the drive ------------------------------


def rates_panel(**values) -> Panel:
    """Panel 3: drive, compression, drives per bus, the bus and the disk-pool stream."""
    names = ("rate_drive", "compression_ratio", "drives_per_bus", "bus_mb_s", "stream_mb_s")
    return Panel({k: INPUTS[k] for k in names}, RATES, values=values,
                 title="Spec vs observed, and the limits outside the drive", name="04_rates")  # fmt: skip


# --- the lesson contract and the notebook's tables and numbers -------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """Speed, mount cycle, efficiency, throughput and the feed's share of one scenario (panel 1's evaluation)."""
    r = EFFICIENCY.result(scenario_values(INPUTS, SCENARIO, values))
    floor, speed = r.spec.min_speed_matching_rate_mb_s, r.spec.speed_mb_s
    return {
        "drive speed [MB/s]": speed, "mount cycle [s]": r.t_mount_s, "efficiency [-]": r.efficiency,
        "throughput [MB/s]": r.efficiency * speed, "the feed allows [-]": r.feed,
        "lowest speed-matching rate [MB/s]": math.nan if floor is None else floor,
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario (block size and rates at their defaults)."""
    v = scenario_values(INPUTS, SCENARIO, values)
    return merge_views(EFFICIENCY.show(v), BLOCK_SIZE.show({}), RATES.show({"stream_mb_s": v["stream_mb_s"]}))


def key_numbers() -> str:
    """The lesson's numbers from the sources and the models, one labelled line each, with units."""
    speed, tm, to = _cern.value("plot_drive_speed"), _cern.value("tmount_total"), _cern.value("toverhead")
    alice = _cern.value("alice_tape_stream_rate")
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
        *(f"a {number(alice)} MB/s stream feeds the {short_name(s)} ({number(s.speed_mb_s)} MB/s) at "
          f"{percent(float(drives.stream_limited_efficiency(alice, s.speed_mb_s)))} of its speed"
          for s in map(catalog.drive_spec, ("STK9940B", "IBM3592A"))),
]  # fmt: skip
    return "\n".join([*lines, drive_rates.rate_numbers(), block_size.fit_numbers()])
