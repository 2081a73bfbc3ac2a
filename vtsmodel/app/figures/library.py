"""The library over the years: cartridges against the slots of each configuration (capacity over time).

Used by lesson 10 (:mod:`vtsmodel.app.lessons.library`), the planner page
(:mod:`vtsmodel.app.lessons.planner`) and the report (:mod:`vtsmodel.app.report`). The base
is empty (axes, title, legend); the bars and the slot lines are moving traces, so a slider
redraws without rebuilding a figure. Sources: the library's rows in
``data/library_models.csv`` (slots per unit), the archive's answers.
"""

from __future__ import annotations

from vtsmodel.app.figures.axes import in_place, nice_ceiling, year_range
from vtsmodel.app.figures.plot import Plot, figure_json
from vtsmodel.app.figures.theme import COLORS, new_figure

__all__ = ["capacity_base", "capacity_plot"]

#: The largest configurations drawn as slot lines (the ones that matter; the rest crowd the legend).
SHOWN = 6


def capacity_base(unit: str, frames: bool = True) -> dict:
    """Axes of the capacity figure: cartridges per year, against the usable slots of each configuration."""
    title = (f"Cartridges in the library and the usable slots of 1, 2, ... {unit}s" if frames
             else "Cartridges per year")  # fmt: skip
    fig = new_figure(title=title, xaxis_title="year", yaxis_title="cartridges [-]", height=480)
    # transition: a move that changes only the bars is drawn by redrawing them alone (_plotpane.js)
    fig.update_layout(legend={"orientation": "h", "y": -0.18, "yanchor": "top", "x": 0}, barmode="overlay",
                      margin={"t": 50, "b": 130}, transition=in_place())  # fmt: skip
    fig.update_xaxes(
        tickangle=0
    )  # whole years, one a tick: never rotated (plotly measures each label to decide)
    return figure_json(fig)


def capacity_plot(r, citations: tuple = (), band: int = 5) -> Plot:
    """Cartridges per year against the slots of each configuration of the library (its fill-up year in the legend).

    Parameters
    ----------
    r : vtsmodel.library_years.LibraryYears or None
        The library year by year; without frames (no family, or one whose documents lack
        a value) the cartridges alone, every copy beside those in the library; None: an
        empty figure that says why.
    citations : tuple
        The plot's citations (tables, functions).
    band : int
        The year axis ends in steps of this many years (:func:`~.axes.year_range`): a page's
        years slider then redraws the bars alone within a band; a report passes 1. The bars and
        slot lines end at the last year planned.
    """
    if r is None:
        note = {"text": "No plan over the years: the drive has no cartridge capacity in the catalog",
                "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.5, "showarrow": False}  # fmt: skip
        return Plot(
            capacity_base, {"unit": "frame", "frames": False}, annotations=[note], citations=citations
        )
    years = [int(y) for y in r.year]
    onsite = [float(c) for c in r.archive.cartridges_onsite]
    traces = [{"type": "bar", "x": years, "y": onsite, "name": "cartridges in the library",
               "marker": {"color": COLORS[0]}, "hovertemplate": "year %{x}: %{y:,} cartridges<extra></extra>"}]  # fmt: skip
    top = max(onsite + [1.0])
    lib = r.library if r.has_frames else None
    if r.archive.offsite_copies:
        every = [float(c) for c in r.archive.cartridges]
        traces.insert(0, {"type": "bar", "x": years, "y": every, "name": "cartridges, every copy",
                          "marker": {"color": "#BBBBBB"},
                          "hovertemplate": "year %{x}: %{y:,} cartridges, every copy<extra></extra>"})  # fmt: skip
        top = max(top, *every)
    if lib is not None:
        drives = float(max(r.drives))
        for i, n in enumerate(sorted(r.fill_years)[-SHOWN:]):
            slots = float(lib.usable_slots(n, drives))
            fill = r.fill_years[n]
            when = "holds every year" if fill is None else f"full in year {fill}"
            traces.append({"type": "scatter", "mode": "lines", "x": [years[0] - 0.5, years[-1] + 0.5],
                           "y": [slots, slots], "name": f"{n} {lib.unit}{'s' if n > 1 else ''}: {slots:,.0f} slots, {when}",
                           "line": {"color": COLORS[(i + 1) % len(COLORS)], "dash": "dash", "width": 2},
                           "hovertemplate": f"{n} {lib.unit}(s): %{{y:,}} usable slots<extra></extra>"})  # fmt: skip
            top = max(top, slots)
    xr = year_range(years[0], years[-1], band)
    unit = r.library.unit if r.library is not None else "frame"
    return Plot(capacity_base, {"unit": unit, "frames": lib is not None}, traces=traces,
                layout={"xaxis": {"range": xr, "dtick": 1}, "yaxis": {"range": [0, nice_ceiling(1.08 * top)]}},
                citations=citations)  # fmt: skip
