"""Lesson 05, drives needed: each flow's drives on the chosen drive, and every catalog drive compared.

The CERN sizing rule (cern-tape-sizing-2005, Summary, sample calculation), ``rate · factor /
efficiency / drive speed`` per flow, summed per scenario: the figures, the view and the worked
example term by term. The flows table and the panel are in :mod:`vtsmodel.app.lessons.sizing`.
"""

from __future__ import annotations

import html
import itertools
import math
from dataclasses import dataclass

from vtsmodel.app import cache
from vtsmodel.app.figures import COLORS, Plot, new_layout
from vtsmodel.app.figures.axes import in_place, log_range, nice_ceiling
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import count, number, percent
from vtsmodel.catalog import drive_options, drive_spec
from vtsmodel.drives import drive_efficiency
from vtsmodel.sizing import Flow, cern_example_drive_speed, cern_example_flows, drives_needed

#: The catalog's drives, grouped by family in order of generation: (label, key).
DRIVES = tuple(drive_options())
#: The catalog drive of the worked example's "Tape drive maxspeed = 40 MB/s" (the 3592A).
DEFAULT_DRIVE = next(k for _l, k in DRIVES if drive_spec(k).speed_mb_s == cern_example_drive_speed())
EXAMPLE = "worked example"
#: The most rows the flows table holds.
MAX_ROWS = 100


def speed_of(drive: str) -> float:
    """The catalog drive's speed: measured where a source measured it, else its native rate. [MB/s]"""
    return drive_spec(drive).speed_mb_s


def label_of(drive: str) -> str:
    """The catalog drive's label."""
    return dict((k, label) for label, k in DRIVES)[drive]


def drives_text(n: float) -> str:
    """Drives needed to 3 digits, or to a tenth where the whole part has more (1,562.5, not 1,560, beside "buy 1,563")."""
    whole = len(str(int(abs(n)))) if math.isfinite(n) else 0
    return number(n, whole + 1 if whole > 3 else 3)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def example_table() -> tuple[tuple[str, Flow], ...]:
    """The worked example's flows as rows of the table: ``(scenario, Flow)``."""
    return tuple((EXAMPLE, f) for f in cern_example_flows())


def scenarios(table) -> dict[str, tuple[Flow, ...]]:
    """The table's flows by scenario, in order of first appearance; ``ValueError`` for a bad table."""
    out: dict[str, list] = {}
    for sc, f in table:
        if not isinstance(f, Flow):
            raise ValueError(f"flow={f!r:.60} is not a vtsmodel.sizing.Flow")
        if f.name in [g.name for g in out.get(sc, ())]:
            raise ValueError(f"flow={f.name!r} appears twice in scenario {sc!r}; each flow needs its own name")  # fmt: skip
        out.setdefault(sc, []).append(f)
    if not out or len(table) > MAX_ROWS:
        raise ValueError(f"the table holds {len(table)} flows; give 1 to {MAX_ROWS}")
    return {sc: tuple(fs) for sc, fs in out.items()}


# --- the evaluation ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Comparison:
    """A table's scenarios sized on every catalog drive (:data:`DRIVES`): ``sized[scenario][i]`` on drive ``i``."""

    table: tuple
    sized: dict


def compare_drives(table: tuple) -> Comparison:
    """Every scenario of ``table`` sized on every catalog drive at its own speed (kept per table: a drive's change reuses it)."""
    return Comparison(table, {sc: [drives_needed(flows, drive_speed_mb_s=speed_of(k)) for _l, k in DRIVES]
                              for sc, flows in scenarios(table).items()})  # fmt: skip


@dataclass(frozen=True, eq=False)
class SizingResult:
    """A table of flows sized on one drive, and on every catalog drive.

    Attributes
    ----------
    table : tuple of (str, Flow)
        The rows: each flow with its scenario.
    drive : str
        The chosen catalog drive.
    sized : dict of str to vtsmodel.sizing.Sizing
        Each scenario on the chosen drive (:func:`vtsmodel.sizing.drives_needed`).
    comparison : Comparison
        Each scenario on every catalog drive.
    """

    table: tuple
    drive: str
    sized: dict
    comparison: Comparison

    @property
    def spec(self):
        """The chosen drive's catalog entry."""
        return drive_spec(self.drive)


def evaluate_sizing(table=None, drive: str = DEFAULT_DRIVE) -> SizingResult:
    """A table of ``(scenario, Flow)`` rows (default the worked example) sized on ``drive`` and on every catalog drive."""
    table = tuple(example_table() if table is None else table)
    sized = {
        sc: drives_needed(flows, drive_speed_mb_s=speed_of(drive)) for sc, flows in scenarios(table).items()
    }
    return SizingResult(table, drive, sized, cache.cached(compare_drives, table=table))


# --- figures --------------------------------------------------------------------------------


def _rule(y: float) -> dict:
    """A dotted line across the plot between two groups of rows, at data ``y`` (``add_hline``'s shape).

    Given to the figure in one ``update_layout``: plotly's ``add_hline`` took 2-3 ms a line;
    with the three between the catalog's families, a grid edit's kernel time went 25 -> 19 ms.
    """
    return {"type": "line", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": y, "y1": y,
            "line": {"color": "#999", "width": 1, "dash": "dot"}}  # fmt: skip


def split_base(r: SizingResult) -> dict:
    """Drives each flow needs on the chosen drive, labelled with share and efficiency: a colour per scenario.

    The flows' names are the axis labels; each scenario's total is its legend entry above the plot (a
    scenario level on the axis took a third of the width). Written as figure JSON: building it
    through plotly's validated objects was most of a table edit's kernel time.
    """
    n = sum(len(s.names) for s in r.sized.values())
    layout = new_layout(title=f"Drives per flow on {_esc(label_of(r.drive))}, {number(speed_of(r.drive))} MB/s",
                        xaxis_title="drives needed [-]", height=150 + 24 * len(r.sized) + 34 * n)  # fmt: skip
    data, rows, names, top = [], [], [], 0.0
    for j, (sc, s) in enumerate(r.sized.items()):
        y = list(range(len(rows), len(rows) + len(s.names)))
        text = [f"{number(d)} ({percent(sh)}) at efficiency {number(e)}"
                for d, sh, e in zip(s.drives, s.shares, s.efficiencies, strict=True)]  # fmt: skip
        data.append({"type": "bar", "y": y, "x": [float(d) for d in s.drives], "orientation": "h", "text": text,
                     "textposition": "auto", "marker": {"color": COLORS[j % len(COLORS)]},
                     "name": f"{_esc(sc)}: {drives_text(s.total)} drives, buy {count(s.whole_drives)}", "hoverinfo": "text",
                     "hovertext": [f"{_esc(sc)} · {_esc(f)}: {t}" for f, t in zip(s.names, text, strict=True)]})  # fmt: skip
        rows += y
        names += [_esc(f) for f in s.names]
        top = max(top, *(float(d) for d in s.drives), 0.0)
    starts = [0, *itertools.accumulate(len(s.names) for s in r.sized.values())][1:-1]  # between two scenarios
    if starts:
        layout["shapes"] = [_rule(k - 0.5) for k in starts]
    layout["xaxis"]["range"] = [0.0, nice_ceiling(top * 1.08)]  # put while an edit moves the bars (in_place)
    layout["yaxis"].update(tickmode="array", tickvals=rows, ticktext=names, autorange="reversed", automargin=True,
                           showgrid=False, zeroline=False)  # fmt: skip
    # a scenario a row between the title and the plot, however long its name
    layout["legend"].update(orientation="v", x=0.0, y=1.0, xanchor="left", yanchor="bottom")
    layout.update(showlegend=True, margin={"t": 56 + 24 * len(r.sized), "r": 20, "b": 55, "l": 20},
                  transition=in_place())  # fmt: skip
    return {"data": data, "layout": layout}


def compare_base(c: Comparison) -> dict:
    """Drives needed on every catalog drive: a dot per scenario (log axis: positions, not lengths).

    The dots of a single scenario carry their numbers; with several, the hover does (labels would
    overlap). Written as figure JSON, as :func:`split_base`.
    """
    rows = [f"{_esc(label)}, {number(speed_of(k))} MB/s" for label, k in DRIVES]
    layout = new_layout(title="Drives needed on each catalog drive", height=170 + 21 * len(DRIVES),
                        xaxis_title="drives needed [-] (log scale)")  # fmt: skip
    data, values = [], []
    for j, (sc, sizes) in enumerate(c.sized.items()):
        x = [s.total if s.total > 0 else None for s in sizes]
        values += [v for v in x if v]
        hover = [
            f"{r}<br>{_esc(sc)}: {drives_text(s.total)} drives, buy {count(s.whole_drives)}"
            for r, s in zip(rows, sizes, strict=True)
        ]
        data.append({"type": "scatter", "x": x, "y": rows, "mode": "markers+text" if len(c.sized) == 1 else "markers",
                     "name": _esc(sc), "hoverinfo": "text", "text": [drives_text(s.total) for s in sizes],
                     "textposition": "middle right", "textfont": {"size": 10},
                     "marker": {"color": COLORS[j % len(COLORS)], "size": 10, "symbol": "diamond" if j else "circle",
                                "line": {"width": 1, "color": "white"}}, "hovertext": hover, "cliponaxis": False})  # fmt: skip
    family = [drive_spec(k).family for _l, k in DRIVES]
    layout["shapes"] = [_rule(i - 0.5) for i in range(1, len(DRIVES)) if family[i] != family[i - 1]]
    lo, hi = (min(values), max(values)) if values else (1.0, 10.0)
    # 0.15 decades of room to the left, 0.3 to the right for the labels, out to the 1, 2, 5 values around
    # them: the range stays put while an edit moves the dots (in_place)
    layout["xaxis"].update(type="log", range=log_range(lo * 10**-0.15, hi * 10**0.3, (), pad=0.0))
    layout["yaxis"].update(type="category", autorange="reversed", automargin=True, tickfont={"size": 11})
    layout["legend"].update(orientation="h", x=0.0, y=1.0, xanchor="left", yanchor="bottom")
    layout.update(showlegend=True, margin={"t": 80, "r": 75, "b": 55, "l": 20}, transition=in_place())
    return {"data": data, "layout": layout}


# --- the view -------------------------------------------------------------------------------


def _term(f: Flow, e: float, d: float, speed: float) -> str:
    """One flow's term as the note writes it: ``100 MB/s × 2 / 0.5 (efficiency) / 40 MB/s = 10 drives``."""
    how = "" if f.efficiency is not None else f" from {number(f.file_mb)} MB files, {number(f.files_per_mount)} per mount"  # fmt: skip
    return (f"{number(f.rate_mb_s)} MB/s × {number(f.peak_factor)} / {number(e)} (efficiency{how}) / "
            f"{number(speed)} MB/s = {number(d)} drives")  # fmt: skip


def speed_sources() -> tuple[str, ...]:
    """Source ids of the speed each catalog drive is compared at (its observed rate, else its native rate)."""
    rows = (drive_spec(key).speed_provenance for _label, key in DRIVES)
    return tuple(sorted({row.source for row in rows if row is not None}))


def view_sizing(r: SizingResult) -> View:
    """The workbench's figures, readouts and terms for a sized table."""
    spec, groups = r.spec, scenarios(r.table)
    row = [k for _l, k in DRIVES].index(r.drive)
    band = {"type": "rect", "xref": "paper", "x0": 0.0, "x1": 1.0, "yref": "y", "y0": row - 0.5, "y1": row + 0.5,
            "fillcolor": "rgba(213,94,0,0.18)", "line": {"width": 0}, "layer": "below", "name": "chosen drive"}  # fmt: skip
    mark = {"xref": "paper", "x": 1.0, "xanchor": "left", "xshift": 4, "yref": "y", "y": row, "text": "◀ chosen",
            "showarrow": False, "font": {"size": 11, "color": COLORS[1]}}  # fmt: skip
    readouts = {"drive speed": f"{number(spec.speed_mb_s)} MB/s ({spec.speed_basis})"}
    binding, terms = [], {}
    for sc, s in r.sized.items():
        readouts[f"{sc}: drives"] = f"{drives_text(s.total)} needed, buy {count(s.whole_drives)}"
        i = int(s.drives.argmax())
        binding.append(f"{sc}: {s.names[i]} needs the most drives, {drives_text(s.drives[i])} of {drives_text(s.total)} "
                       f"({percent(s.shares[i])}), at efficiency {number(s.efficiencies[i])}.")  # fmt: skip
        terms |= {f"{sc} · {f.name}": _term(f, e, d, spec.speed_mb_s)
                  for f, e, d in zip(groups[sc], s.efficiencies, s.drives, strict=True)}  # fmt: skip
        terms[f"{sc}: drives needed"] = f"{drives_text(s.total)}, buy {count(s.whole_drives)}"
    patterns = (drive_efficiency,) if any(f.efficiency is None for _sc, f in r.table) else ()
    return View(
        figures={"split": Plot(split_base, {"r": r}),
                 "compare": Plot(compare_base, {"c": r.comparison}, shapes=[band], annotations=[mark],
                                 citations=(drives_needed, *patterns, *spec.primary_sources, *speed_sources()))},
        readouts=readouts, binding=" ".join(binding),
        caption_values={"drive speed [MB/s]": f"{number(spec.speed_mb_s)} ({spec.speed_basis})", **terms,
                        "compared drives": f"the catalog's {len(DRIVES)}, each at its own speed (data/drive_catalog.csv)"},
        citations=(drives_needed, *patterns, *spec.primary_sources),
    )  # fmt: skip


#: The workbench's stage: a table (the page's) sized on the chosen drive.
SIZING = Stage(evaluate_sizing, view_sizing)


def key_numbers() -> str:
    """The worked example term by term, and its flows on every catalog drive: labelled lines with units."""
    speed, flows = cern_example_drive_speed(), cern_example_flows()
    s = drives_needed(flows, drive_speed_mb_s=speed)
    lines = [
        f"worked example at {number(speed)} MB/s: {drives_text(s.total)} drives needed, buy {count(s.whole_drives)}"
    ]
    lines += [f"  {f.name}: {_term(f, e, d, speed)} ({percent(sh)})"
              for f, e, d, sh in zip(flows, s.efficiencies, s.drives, s.shares, strict=True)]  # fmt: skip
    lines.append("the same flows on each catalog drive:")
    for label, k in DRIVES:
        c = drives_needed(flows, drive_speed_mb_s=speed_of(k))
        lines.append(f"  {label}, {number(speed_of(k))} MB/s: {drives_text(c.total)} drives needed, buy {count(c.whole_drives)}")  # fmt: skip
    return "\n".join(lines)
