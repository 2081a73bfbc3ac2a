"""Lesson 08: read hits from a mount log, for every cache size, and the recalls they leave.

Sec. 4 of the VTS paper quantifies only the first gain of a larger tape volume cache (time
at peak); of the second, more read hits, it says it is "hard to use in quantifying the
general value of tape cache capacity except for the observation that more is better". With
a mount log the number can be computed (:mod:`vtsmodel.hits`): the read-hit ratio of an LRU
cache at every capacity from one pass, the Table 3 sizes marked, and the recall queue each
size leaves (:func:`vtsmodel.hits.recall_waits`).

The page (:class:`HitsPage`): a mount log picked in the browser (up to
:data:`~vtsmodel.app.downloads.MAX_UPLOAD_BYTES`; larger logs go through ``vtsmodel hits``) or
the example one, in a :class:`~vtsmodel.app.downloads.FileBar`; one panel with the curve by
count and by bytes (:mod:`~vtsmodel.app.lessons.hit_curve`: a cached base that depends on the
log, the warm-up, what the cache holds and CF; the capacity slider moves only marks), the
recalls and their waits vs capacity (:mod:`~vtsmodel.app.lessons.recall_waits`, with the Table 3
rows as a table and CSV), and libCacheSim's other policies at the Table 3 sizes and SHARDS
with its error against the exact curve (:mod:`~vtsmodel.app.lessons.replacement`). This module
holds the lesson's contract, the inputs its figures share, and the page.
"""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path

import ipywidgets as w

from vtsmodel import Input
from vtsmodel import quantities as q
from vtsmodel.app import cache
from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, FileBar
from vtsmodel.app.lessons import recall_waits, replacement, scenario_values
from vtsmodel.app.lessons.hit_curve import (
    VTS,
    HitsResult,
    LogSource,
    ReadingBoxes,
    capacities_choice,
    columns_html,
    curve_figure,
    curve_json,
    curve_of,
    example_source,
    factor,
    log_controls,
    read_upload,
    view_curve,
)
from vtsmodel.app.lessons.recall_waits import (
    example_numbers,
    rows_of,
    table3_csv,
    table3_html,
    view_recalls,
    waits,
)
from vtsmodel.app.panels import Panel, Stage, View, merge_views

__all__ = ["INPUTS", "LESSON_ID", "NOTEBOOK", "SCENARIO", "TITLE", "HitsPage", "columns_html", "curve_base",
           "example_numbers", "hits_page", "scenario_outputs", "scenario_view", "view_hits"]  # fmt: skip

LESSON_ID = "08"
TITLE = "Read hits from a mount log: what each cache size saves"
NOTEBOOK = "08_read_hits_from_a_mount_log.ipynb"

INPUTS = {
    "cf": q.CF.but(hi=6.0, step=0.1, help="Host bytes per byte stored: converts the log's sizes to what the cache holds, and sets a recall's read time."),
    "cache_rule": Input("feature (cache holds)", "", "all", choices=(
        ("EHPO or PAF: compressed", "all"), ("base: host-size volumes", "base"), ("EHPO: compressed", "ehpo"),
        ("PAF: compressed", "paf")), source=f"{VTS}, Sec. 2 and Table 3",
        help="The Table 3 sizes offered with the feature, and what its cache holds: with EHPO or PAF compressed "
             "data, in the base VTS host-size data (it compresses at the drive). EHPO or PAF: every Table 3 size."),
    "capacity_gb": q.TVC_GB.but(label="TVC capacity", default=864.0, lo=12.0, lo_open=False, hi=3456.0, step=12.0,
                                help="The physical cache capacity the marks and readouts show (Table 3: 72 to 1,728 GB)."),
    "warmup_hours": Input("warm-up left out", "h", 0.0, lo=0.0, hi=72.0, step=1.0, source="project assumption",
                          help="Mounts in the first hours fill the cache but are not counted: what the cache held "
                               "before the log began is unknown, so a volume's first mount is a miss."),
    **recall_waits.INPUTS,
    **replacement.INPUTS,
}  # fmt: skip
#: A scenario: the example log seen with these settings (the costly options are the page's).
SCENARIO = ("cf", "cache_rule", "capacity_gb", "warmup_hours", *recall_waits.INPUTS)


def curve_base(source: LogSource, cf: float, cache_rule: str, warmup_hours: float, policies: bool = False,
               shards: bool = False, max_volumes: int = 1024, capacities=None) -> dict:  # fmt: skip
    """The read-hit ratio vs capacity, with the sampled curve and the other policies when asked."""
    fig = curve_figure(source, cf, cache_rule, warmup_hours, capacities)
    fig.add_traces(
        replacement.traces(source, cf, cache_rule, warmup_hours, policies, shards, max_volumes, capacities)
    )
    return curve_json(fig)


def evaluate_hits(source: LogSource | None = None, cf=3.0, cache_rule="all", capacity_gb=864.0, warmup_hours=0.0,
                  policies=False, shards=False, max_volumes=1024, recall_specific_writes=True, total_drives=6,
                  copy_drives=2, vts_drive="3590B", percentile=0.95, busiest_hour=False, capacities=None) -> HitsResult:  # fmt: skip
    """A mount log (default the example) at one setting: the curve, the hits and the recall queue at the capacity.

    What depends only on the log and the slow inputs (the curve, the recalls at every
    capacity, the sampled curve, the other policies) is kept per those: a capacity's move
    computes the marks' numbers only. ``capacities``: None for Table 3's sizes on the
    physical axis, else capacities in the log's sizes
    (:func:`~vtsmodel.app.lessons.hit_curve.capacities_choice`).
    """
    source = source or example_source()
    queue = {"recall_specific_writes": bool(recall_specific_writes), "total_drives": int(total_drives),
             "copy_drives": int(copy_drives), "vts_drive": vts_drive, "percentile": float(percentile),
             "busiest_hour": bool(busiest_hour)}  # fmt: skip
    slow = {"source": source, "cf": float(cf), "cache_rule": cache_rule, "warmup_hours": float(warmup_hours)}
    curve, k = curve_of(source, slow["warmup_hours"]), factor(source, cf, cache_rule)
    caps = None if capacities is None else tuple(float(c) for c in capacities)
    recalls = cache.cached(recall_waits.recall_curves, **slow, **queue, capacities=caps)
    sampled = replacement.sampled_curve_of(source, slow["warmup_hours"], int(max_volumes)) if shards else None
    found = replacement.runs(**slow, capacities=caps) if policies else None
    here = (
        [max(caps)] if caps else [capacity_gb]
    )  # the largest chosen capacity (the log's sizes), or the slider's
    return HitsResult(source, slow["cf"], cache_rule, float(capacity_gb), slow["warmup_hours"], queue, bool(policies),
                      bool(shards), int(max_volumes), curve, k, curve.at(float(capacity_gb) * k), recalls.table3,
                      recalls, waits(here, **slow, **queue, in_log_sizes=caps is not None), sampled,
                      found and found[1], caps)  # fmt: skip


def view_hits(r: HitsResult) -> View:
    """The page for one log and one setting: the curve, the recalls, the readouts at the capacity, the tables."""
    curve, recalls = view_curve(r), view_recalls(r)
    shown = {"policies": r.policies, "shards": r.shards, "max_volumes": r.max_volumes}
    plot = dataclasses.replace(curve.figures["curve"], base=curve_base, args={**r.slow, **shown})
    view = merge_views(
        dataclasses.replace(curve, figures={"curve": plot}), recalls, replacement.view_compared(r)
    )
    what = ("<b>Each Table 3 size</b>" if r.capacities is None
            else "<b>Each chosen capacity</b>, in the log's own sizes")  # fmt: skip
    at = " (the recall columns at the drives, percentile and rate set above)" if r.recalls.queued else ""
    tables = {"hits-rows": f"{what}{at}"
                           + table3_html(rows_of(r.recalls), r.queue["percentile"]),
              "policies": replacement.policies_html(r)}  # fmt: skip
    # a queue without a steady state is what binds; else where the curve stands
    return dataclasses.replace(view, binding=recalls.binding or curve.binding, tables=tables)


#: The page's stage: a log (the page's) and the settings evaluated, viewed.
HITS = Stage(evaluate_hits, view_hits)


# --- the page ------------------------------------------------------------------------------------


#: The capacities the table and the figures' marks show.
CAPACITY_CHOICES = (("Table 3's TVC sizes (a VTS B18)", "table3"),
                    ("12 over the log's working set", "auto"), ("typed (the log's sizes)", "typed"))  # fmt: skip


class HitsPage:
    """The page: a log (picked in the browser, or the example), its panel, the rows at the chosen capacities and their CSV.

    Parameters
    ----------
    source : LogSource, optional
        The log shown first (default: the example).
    **values
        Starting values of :data:`INPUTS`.
    """

    def __init__(self, source: LogSource | None = None, **values) -> None:
        self.source = source or example_source()
        self.capacities = None  # Table 3's sizes
        small = {"style": {"description_width": "initial"}}
        self.which = w.Dropdown(options=list(CAPACITY_CHOICES), value="table3", description="capacities",
                                layout=w.Layout(width="330px"), **small)  # fmt: skip
        self.typed = w.Text(value="500GB, 2TB, 10TB", description="", layout=w.Layout(width="220px"))
        self.panel = Panel(INPUTS, HITS, state=lambda: {"source": self.source, "capacities": self.capacities},
                           values=values, title=TITLE, name="08_hits")  # fmt: skip
        self.files = f = FileBar("hits")
        f.add(w.HTML("<b>Log</b>&nbsp;"))
        self.upload = log_controls(f, self.load_bytes, self.use_example)
        f.add(w.HTML(f"<span style='color:#555'>up to {MAX_UPLOAD_BYTES / 1e6:g} MB, plain or compressed; larger "
                     "logs: <code>vtsmodel hits LOG</code></span>&nbsp;&nbsp;<b>Table</b>&nbsp;"))  # fmt: skip
        f.button("Download table (CSV)", self.download_table, "The rows under the panel, as CSV")
        self.status = f.status
        self.reading = ReadingBoxes()
        self.log_format, self.columns, self.object_size = (
            self.reading.log_format,
            self.reading.columns,
            self.reading.object_size,
        )
        self.which.add_class("vtsmodel-capacities")
        self.typed.add_class("vtsmodel-typed-capacities")
        self.which.observe(self._capacities, names="value")
        self.typed.observe(self._capacities, names="value")
        self.widget = w.VBox([f.widget, self.reading.widget, w.HBox([self.which, self.typed]), self.panel.widget],
                             layout=w.Layout(width="100%", max_width="1240px"))  # fmt: skip
        self.panel.controls["shards"].observe(self._enable, names="value")
        self._enable()
        f.say(self._showing())

    def _enable(self, _change=None) -> None:
        """The SHARDS sample size with the sampled curve only; the TVC slider with Table 3's sizes only."""
        self.panel.controls["max_volumes"].disabled = not self.panel.controls["shards"].value
        self.panel.controls["capacity_gb"].disabled = self.capacities is not None
        self.typed.disabled = self.which.value != "typed"

    def _capacities(self, _change=None) -> None:
        """Follow the capacities chosen; a typed list that is not sizes is said, and changes nothing."""
        try:
            self.capacities = capacities_choice(self.source, self.panel.values["warmup_hours"], self.which.value,
                                                self.typed.value)  # fmt: skip
        except ValueError as exc:
            self.files.say(html.escape(str(exc)), "failed")
            return
        self._enable()
        self.panel.update()

    @property
    def rows(self) -> list[dict]:
        """The rows shown under the panel (the panel's evaluation): Table 3's sizes, or the chosen capacities."""
        return rows_of(self.panel.result.recalls)

    def _showing(self) -> str:
        what = " (synthetic, illustrative: not measured)" if self.source.example else ""
        return f"showing <b>{html.escape(self.source.name)}</b>{what}: {len(self.source.log):,} mounts"

    def set(self, **values) -> None:
        """Set inputs (checked by their declarations); the panel and the table follow."""
        self.panel.set(**values)

    def show(self, source: LogSource) -> None:
        """Show ``source`` (a log already read); capacities over the working set follow it."""
        self.source = source
        if self.which.value == "auto":
            self.capacities = capacities_choice(source, self.panel.values["warmup_hours"], "auto")
        self.panel.update()
        self.files.say(self._showing())

    def reading_options(self) -> dict:
        """How the page reads an upload (:class:`vtsmodel.logs.LogFile`), from its reading boxes."""
        return self.reading.options()

    def load_bytes(self, data: bytes, name: str) -> str:
        """Read a picked log and show it; say what it shows. A bad log raises ``ValueError`` and changes nothing."""
        self.show(read_upload(data, name, **self.reading_options()))
        return self._showing()

    def use_example(self) -> None:
        """Show the example log."""
        self.show(example_source())

    def download_table(self) -> str:
        """Download the rows as CSV; return the file name ("" if it failed, said in the status)."""
        name = f"08_hits_{Path(self.source.name).stem}.csv"
        return self.files.deliver("the table", lambda: (name, table3_csv(self.rows, self.source)))

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def hits_page(**values) -> HitsPage:
    """The page with the example log (or ``values``)."""
    return HitsPage(**values)


# --- the lesson contract ---------------------------------------------------------------------------


def scenario_outputs(**values) -> dict[str, float]:
    """The example log at one setting: hits, recalls and the recall ready time at the capacity (the page's evaluation)."""
    r = HITS.result(scenario_values(INPUTS, SCENARIO, values))
    return {
        "read hit ratio [-]": float(r.here.read_hit_ratio[0]),
        "read hit ratio, bytes [-]": float(r.here.read_byte_hit_ratio[0]),
        "recalls per hour [1/h]": float(r.waits_here.recalls_per_hour[0]),
        "recall ready at percentile [s]": float(r.waits_here.response_s[0]),
    }


def scenario_view(**values) -> View:
    """Both figures for one scenario, on the example log."""
    return HITS.show(scenario_values(INPUTS, SCENARIO, values))
