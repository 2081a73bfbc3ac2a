"""Lesson 10: today's tape library over the years, as the CERN example's archive grows.

One panel: the CERN sizing note's flows (cern-tape-sizing-2005, Summary) written to tape
for N years on a catalog drive, in a library family from the vendors' documents
(``data/library_models.csv``): cartridges against the slots of each configuration (the
year it fills), and the shares of slots, drive bays and robot capacity each year (what
binds, and when). The model is :func:`vtsmodel.library_years.library_years`; the figures
are an empty base (axes, titles) and moving traces, so a slider redraws without
rebuilding a figure (the capacity figure is the planner's too, :mod:`vtsmodel.app.figures.library`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vtsmodel import Input
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure
from vtsmodel.app.figures.axes import in_place, nice_ceiling
from vtsmodel.app.figures.library import capacity_plot
from vtsmodel.app.lessons import scenario_values
from vtsmodel.app.panels import Panel, Stage, View
from vtsmodel.app.text import number, percent
from vtsmodel.archive import archive_years, cartridge_tb
from vtsmodel.catalog import drive_choices, drive_spec
from vtsmodel.library import library_model
from vtsmodel.library_years import cern_example_writes_tb_per_year, library_years
from vtsmodel.sizing import cern_example_flows

LESSON_ID = "10"
TITLE = "The library over the years"
NOTEBOOK = "10_library_over_the_years.ipynb"

#: Library families whose documents give every count a frame plan needs (the TS4500 and
#: SL4000 need slots per frame or module the documents found do not give).
LIBRARY_CHOICES = (
    ("Oracle StorageTek SL8500", "SL8500"),
    ("IBM TS4300", "TS4300"),
    ("IBM Diamondback", "Diamondback"),
)
_LTO = tuple(
    (c.label, c.key)
    for g in drive_choices(having=("native_capacity",))
    for c in g.drives
    if g.family == "LTO"
)
_STAND_IN = "cern-tape-sizing-2005 (160 robot arm movements per hour: 22.5 s a move), a stand-in"

INPUTS = {
    "years": Input("years", "years", 5, lo=1, hi=10, integer=True, step=1, source="issue 29 (five years)",
                   help="Years the archive is planned for."),
    "ingest_growth": Input("growth of the writes", "-", 0.0, lo=0.0, hi=1.0, step=0.05, source="your archive",
                           help="How much more is written each year than the year before (0.3: 30%)."),
    "library": Input("library", "", "SL8500", choices=LIBRARY_CHOICES, source="data/library_models.csv",
                     help="A library family whose documents give its slots and drive bays per unit."),
    "drive": Input("drive", "", "LTO9", choices=_LTO, source="data/drive_catalog.csv",
                   help="An LTO drive of the catalog: its speed sizes the drives, its capacity the cartridges."),
    "copies": Input("copies in the library", "-", 1, lo=1, hi=3, integer=True, step=1, source="your archive",
                    help="Copies of each byte kept in this library."),
    "compression": Input("expected compression", "-", 1.0, lo=0.5, hi=2.5, step=0.1, source="your archive",
                         help="Host bytes per byte on tape; 1: none (real archives compress less than rated)."),
    "robot_move_s": Input("robot time per move", "s", 22.5, lo=1.0, hi=60.0, step=0.5, source=_STAND_IN,
                          help="One cartridge move; no document found gives these libraries' move times."),
}  # fmt: skip
SCENARIO = tuple(INPUTS)


def _model(years, ingest_growth, library, drive, copies, compression, robot_move_s):
    cart = float(cartridge_tb(drive, compression=compression))
    a = archive_years(years, stored_now_tb=0.0, growth_tb_per_year=cern_example_writes_tb_per_year(),
                      ingest_growth=ingest_growth, copies=copies, cartridge_tb=cart)  # fmt: skip
    return library_years(a, cern_example_flows(), drive=drive, library=library_model(library),
                         robot_move_s=robot_move_s)  # fmt: skip


# --- figures: empty bases, moving traces ---------------------------------------------------------


def shares_base() -> dict:
    """Axes of the shares figure: each resource's share of what the configuration holds."""
    fig = new_figure(title="How full each resource is, in the last year's configuration (or the largest)",
                     xaxis_title="year", yaxis_title="share used [-]", height=380)  # fmt: skip
    fig.update_yaxes(tickformat=".0%")
    fig.update_xaxes(tickangle=0)  # whole years: never rotated (plotly measures each label to decide)
    # its axes stay put within a band of years and a step of the share axis: a move redraws the lines alone
    fig.update_layout(
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0}, transition=in_place()
    )
    return figure_json(fig)


def _span(counts) -> str:
    """``"4"`` when a count stays, ``"2 → 4"`` when it grows over the years."""
    first, last = int(counts[0]), int(counts[-1])
    return f"{first}" if first == last else f"{first} → {last}"


def _shares(r) -> dict[str, list[float]]:
    lib = r.library
    n = r.final_units if math.isfinite(r.final_units) else float(lib.units_max or 1)
    usable = float(lib.usable_slots(n, float(max(r.drives))))
    bays = float(lib.drive_bays(n))
    cap = 3600.0 / (2.0 * r.robot_move_s) * r.robots  # each year's robots
    return {
        "cartridge slots": [float(c) / usable for c in r.archive.cartridges_onsite],
        "drive bays": [float(d) / bays for d in r.drives],
        "robot mounts per hour": [float(m) / c for m, c in zip(r.mounts_per_hour, cap, strict=True)],
    }


# --- the view ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ArchiveResult:
    """The CERN flows written for some years into one library family on one drive.

    Attributes
    ----------
    years : int
        Years planned. [years]
    drive : str
        The catalog drive.
    plan : object
        The library year by year (:func:`vtsmodel.library_years.library_years`).
    """

    years: int
    drive: str
    plan: object


def evaluate_library(years=5, ingest_growth=0.0, library="SL8500", drive="LTO9", copies=1, compression=1.0,
                     robot_move_s=22.5) -> ArchiveResult:  # fmt: skip
    """The CERN flows (cern-tape-sizing-2005) over ``years`` years in ``library`` on ``drive``."""
    return ArchiveResult(int(years), drive, _model(years, ingest_growth, library, drive, copies, compression,
                                                   robot_move_s))  # fmt: skip


def view_library(e: ArchiveResult) -> View:
    """Cartridges against each configuration's slots, each resource's share year by year, what binds."""
    r, years, drive = e.plan, e.years, e.drive
    lib = r.library
    capacity = capacity_plot(r)
    xr = capacity.layout["xaxis"]["range"]
    shares = _shares(r)
    share_traces = [
        {"type": "scatter", "mode": "lines+markers", "x": [int(y) for y in r.year], "y": v, "name": k,
         "line": {"color": COLORS[i]}, "hovertemplate": f"year %{{x}}: %{{y:.0%}} of the {k}<extra></extra>"}
        for i, (k, v) in enumerate(shares.items())
    ]  # fmt: skip
    top_share = max(max(v) for v in shares.values())
    full = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": 1, "y1": 1,
            "line": {"color": "#B00", "width": 1, "dash": "dot"}}  # fmt: skip
    units = "more than one library" if math.isinf(r.final_units) else f"{int(r.final_units)} {lib.unit}(s)"
    final_bind = r.binding[-1]
    first = r.fill_years.get(1)
    readouts = {
        "library": f"{lib.label}, {units} in year {years}",
        "drives": f"{int(max(r.drives))} × {dict((k, v) for v, k in _LTO)[drive]} (CERN formula, {number(r.speed_mb_s)} MB/s)",
        "robots": f"{_span(r.robots)}, {percent(float(max(r.robot_utilisation)))} busy at most",
        "robot wait, 95th percentile": f"{number(float(max(r.robot_wait_p95_s)))} s",
        "cartridges, year 0 to last": " · ".join(str(int(c)) for c in r.archive.cartridges_onsite),
        "data per cartridge": f"{number(r.archive.cartridge_tb)} TB",
        f"one {lib.unit} fills": "never within the years"
        if first is None
        else ("too small from the start" if first == 0 else f"in year {first}"),
    }
    why = {"cartridge slots": "the cartridges outgrow the slots first",
           "drive bays": "the drives need more bays than the slots need units",
           "robot mounts per hour": "the robots' mounts per hour run out before the slots"}  # fmt: skip
    if final_bind in why:
        binding = f"In year {years} the {final_bind} bind: {why[final_bind]}."
    else:
        binding = f"In year {years} one {lib.label} is too small: it needs more {lib.unit}s or drive bays than it may have."
    notes = ()
    if lib.robot_move_s is None:
        notes = (
            f"No document found gives the {lib.label}'s robot move time: {number(r.robot_move_s)} s stands in.",
        )
    return View(
        figures={
            "capacity": capacity,
            "shares": Plot(shares_base, {}, traces=share_traces, shapes=[full],
                           layout={"xaxis": {"range": xr, "dtick": 1}, "yaxis": {"range": [0, max(1.1, nice_ceiling(1.08 * top_share))]}}),
        },
        readouts=readouts, binding=binding, notes=notes,
        caption_values={"flows": "cern-tape-sizing-2005 sample calculation, T0 → T1 written all year",
                        "robot move basis": r.robot_move_basis},
        # the rows used: the chosen library's and drive's documents and CERN's flows (not every
        # source of the library and drive tables)
        citations=("cern_sizing_example", "cern_facts", *lib.sources, *drive_spec(drive).primary_sources),
    )  # fmt: skip


def library_panel(**values) -> Panel:
    """The lesson's panel: years, growth, library, drive, copies, compression, robot move."""
    return Panel(dict(INPUTS), LIBRARY, values=values, title="The CERN archive over the years",
                 name="10_library")  # fmt: skip


#: The panel's stage.
LIBRARY = Stage(evaluate_library, view_library)


# --- the lesson contract and the notebook's numbers --------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """Units, drives, robots and cartridges of the last year, and the year one unit fills."""
    r = LIBRARY.result(scenario_values(INPUTS, SCENARIO, values)).plan
    first = r.fill_years.get(1)
    return {
        "frames or modules [-]": r.final_units, "drives [-]": float(max(r.drives)), "robots [-]": float(r.robots[-1]),
        "cartridges, last year [-]": float(r.archive.cartridges_onsite[-1]),
        "one unit fills in year [-]": math.nan if first is None else float(first),
    }  # fmt: skip


def scenario_view(**values) -> View:
    """Every figure of the lesson for one scenario."""
    return LIBRARY.show(scenario_values(INPUTS, SCENARIO, values))


#: The rows the lesson's source table shows.
SOURCE_ROWS = (
    ("cern_sizing_example", "t0_to_t1_rate"), ("cern_facts", "robot_moves_normal"),
    ("library_models", "sl8500_slots_base"), ("library_models", "sl8500_slots_per_expansion"),
    ("library_models", "sl8500_units_max"), ("library_models", "sl8500_drives_base"),
    ("library_models", "sl8500_robots_standard"), ("library_models", "sl8500_free_slots_per_drive"),
    ("library_models", "ts4300_slots_base"), ("library_models", "ts4300_drives_base"),
    ("library_models", "ts4300_units_max"), ("library_models", "diamondback_slots_base"),
    ("library_models", "ts4500_robot_move_time"), ("library_models", "ts4500_slot_fill_limit"),
)  # fmt: skip


def key_numbers() -> str:
    """The example's numbers, one labelled line each, with units."""
    w = cern_example_writes_tb_per_year()
    lines = [f"T0 → T1 written all year: {number(w, 6)} TB a year (100 MB/s x 365.25 days)"]
    for lib in ("SL8500", "TS4300"):
        for growth in (0.0, 0.3):
            r = _model(5, growth, lib, "LTO9", 1, 1.0, 22.5)
            units = (
                "more than one library"
                if math.isinf(r.final_units)
                else f"{int(r.final_units)} {r.library.unit}(s)"
            )
            lines.append(
                f"{r.library.label}, LTO-9, writes growing {percent(growth)} a year: year 5 needs {units}, "
                f"{int(max(r.drives))} drives, {int(r.robots[-1])} robot(s); cartridges "
                f"{', '.join(str(int(c)) for c in r.archive.cartridges_onsite)}; binds: {r.binding[-1]}"
            )  # fmt: skip
    return "\n".join(lines)
