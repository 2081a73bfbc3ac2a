"""The interactive panel every page uses: controls from inputs, live plots, readouts, export.

A page describes a panel with its inputs (:class:`~vtsmodel.Input` declarations: one
control each) and a :class:`Stage`: ``evaluate(**inputs) -> result``, pure, core calls only,
a typed result out; and ``view(result, **display) -> View``, pure: the plots
(:class:`~vtsmodel.app.figures.Plot`: a cached base and a moving part), the readouts, the
headline and the sentence naming the binding limit. :class:`Panel` builds the controls and,
on every change, evaluates once per distinct setting of the inputs ``evaluate`` reads
(:mod:`vtsmodel.app.cache`), views the result, and sends each plot's base only when it
changed and its moving part otherwise (:class:`PlotPane`); the browser redraws in place.
Everything else a page shows (a scenario sheet's row, a report, a table) reads the same
result (:attr:`Panel.result`, :meth:`Stage.result`).

Everything here is testable without a browser: :meth:`Panel.set` values, then read
:attr:`Panel.readout_values` and :meth:`Panel.figure`.

This module imports ipywidgets, anywidget and plotly; ``import vtsmodel`` does not.
"""

from __future__ import annotations

import asyncio
import functools
import html
import inspect
import os
import time
import traceback
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import anywidget
import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from vtsmodel import Input, VtsModelWarning
from vtsmodel.app import cache
from vtsmodel.app import export as _export
from vtsmodel.app.controls import CHOICE_BELOW, CONTROLS_CSS, control, shared
from vtsmodel.app.downloads import Downloader
from vtsmodel.app.figures import Plot, base_spec, caption_text, compose, template_json
from vtsmodel.app.text import in_words

__all__ = ["Panel", "PlotPane", "Stage", "View", "caption_values", "merge_views"]


@dataclass
class View:
    """What a page's view function returns for one setting of its inputs.

    Attributes
    ----------
    figures : dict of str to Plot
        The plots, by name; a panel keeps one :class:`PlotPane` per name.
    readouts : dict of str to str
        Label to formatted value with its unit, shown beside the plots.
    binding : str
        One sentence naming the binding limit, or empty.
    notes : tuple of str
        Sentences shown under the binding limit and written into the caption; the panel
        adds the extrapolation warnings the models raised for this setting.
    caption_values : dict
        Labelled values written into an export's caption besides the panel's inputs
        (a scenario's name, the other scenarios shown).
    citations : tuple
        Table names, source ids or model functions the plots draw on.
    figure_notes : dict of str to tuple of str
        Where several panels' views are merged (:func:`merge_views`): each figure's own
        notes; a figure not named here takes :attr:`notes`.
    headline : str
        The answer in a sentence or two, shown above the panel (a plan's recommendation), or empty.
    tables : dict of str to str
        HTML tables of the result shown under the panel, by name (each in a ``vtsmodel-table-<name>`` block).
    """

    figures: dict[str, Plot]
    readouts: dict[str, str] = field(default_factory=dict)
    binding: str = ""
    notes: tuple[str, ...] = ()
    caption_values: dict[str, object] = field(default_factory=dict)
    citations: tuple = ()
    figure_notes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def notes_of(self, figure: str) -> tuple[str, ...]:
        """The notes of figure ``figure``: those of the panel that drew it."""
        return self.figure_notes.get(figure, self.notes)

    headline: str = ""
    tables: dict[str, str] = field(default_factory=dict)


def merge_views(*views: View) -> View:
    """One view of several panels' views (a lesson's ``scenario_view``): every figure and readout.

    The binding sentences are joined; notes and citations kept once each, in order; each
    figure keeps the notes of its own view (:meth:`View.notes_of`).
    """
    return View(
        figures={k: f for v in views for k, f in v.figures.items()},
        readouts={k: r for v in views for k, r in v.readouts.items()},
        binding=" ".join(v.binding for v in views if v.binding),
        notes=tuple(dict.fromkeys(n for v in views for n in v.notes)),
        caption_values={k: x for v in views for k, x in v.caption_values.items()},
        citations=tuple(dict.fromkeys(c for v in views for c in v.citations)),
        figure_notes={k: v.notes_of(k) for v in views for k in v.figures},
        headline=" ".join(v.headline for v in views if v.headline),
        tables={k: t for v in views for k, t in v.tables.items()},
    )


def caption_values(inputs: Mapping[str, Input], values: Mapping[str, object]) -> dict[str, str]:
    """The inputs' values as an export caption labels them: ``{"CF [-]": "3"}``."""
    return {inp.header: inp.format(values[k]) for k, inp in inputs.items() if k in values}


def _with_notes(make: Callable[[], View]) -> View:
    """``make()`` with the models' warnings collected into its :attr:`View.notes` (each once); others pass on."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = make()
    notes = list(result.notes)
    for wm in caught:
        if issubclass(wm.category, VtsModelWarning):
            text = in_words(str(wm.message))  # "compressibility CF = 3 is outside ...", not "cf=3"
            if text not in notes:
                notes.append(text)
        else:
            warnings.warn_explicit(wm.message, wm.category, wm.filename, wm.lineno)
    result.notes = tuple(notes)
    return result


def _names(fn: Callable) -> tuple[tuple[str, ...], dict[str, object], bool]:
    """``fn``'s keyword names, the defaults among them, and whether it takes any other (``**kwargs``)."""
    params = inspect.signature(fn).parameters.values()
    named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    defaults = {p.name: p.default for p in named if p.default is not p.empty}
    return tuple(p.name for p in named), defaults, any(p.kind is p.VAR_KEYWORD for p in params)


@dataclass(frozen=True)
class Stage:
    """A page's computation: its inputs evaluated into one typed result, and the view of that result.

    Attributes
    ----------
    evaluate : callable
        ``evaluate(**inputs) -> result``: pure, core calls only, a typed result (a dataclass)
        out. It is called through :mod:`vtsmodel.app.cache` with the inputs it reads, so it
        runs once per distinct setting of those: a panel, its scenario sheet and a report
        asking for the same setting share one evaluation.
    view : callable
        ``view(result, **display) -> View``: pure; ``display`` are the inputs it names
        besides the result (what only changes how the result is shown).
    reads : tuple of str, optional
        The inputs ``evaluate`` reads, where it takes them as ``**inputs``; default its
        parameters' names.
    lead : callable, optional
        ``lead(**inputs) -> dict of str to Plot``: the figures a panel shows first, each from a
        part of the evaluation that ``evaluate`` keeps in :mod:`vtsmodel.app.cache` (so the
        evaluation that follows finds it there, and the view's figure is the same). A page whose
        first figure needs a fraction of its evaluation (the planner's configurations, before
        the library) sends it that much sooner. It reads the same inputs as ``evaluate``.
    """

    evaluate: Callable
    view: Callable[..., View]
    reads: tuple[str, ...] | None = None
    lead: Callable[..., dict[str, Plot]] | None = None

    @functools.cached_property
    def _evaluate_args(self) -> tuple[tuple[str, ...], dict[str, object]]:
        names, defaults, _any = _names(self.evaluate)
        return (tuple(self.reads) if self.reads is not None else names), defaults

    @functools.cached_property
    def _view_args(self) -> tuple[tuple[str, ...], bool]:
        names, _defaults, any_ = _names(self.view)
        return names[1:], any_

    def result(self, values: Mapping[str, object]):
        """The evaluation of ``values`` (the entries ``evaluate`` reads), once per distinct setting."""
        reads, defaults = self._evaluate_args
        args = {k: values[k] for k in reads if k in values}
        args.update({k: v for k, v in defaults.items() if k not in args})
        return cache.cached(self.evaluate, **args)

    def lead_figures(self, values: Mapping[str, object]) -> dict[str, Plot]:
        """The :attr:`lead` figures of ``values`` ({} without a lead); the models' warnings left to the evaluation.

        The project's warnings are not raised here: the part of the evaluation that raised them
        is kept with them, and the evaluation raises them again (as the view's notes).
        """
        if self.lead is None:
            return {}
        reads, _defaults = self._evaluate_args
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", VtsModelWarning)
            return self.lead(**{k: values[k] for k in reads if k in values})

    def show(self, values: Mapping[str, object]) -> View:
        """The view of ``values``'s evaluation, the models' warnings (kept with the evaluation) as notes."""
        return self.evaluated(values)[1]

    def evaluated(self, values: Mapping[str, object]) -> tuple[object, View]:
        """The evaluation of ``values`` and its view (:meth:`show`)."""
        names, any_ = self._view_args
        display = dict(values) if any_ else {k: values[k] for k in names if k in values}
        out = []

        def make() -> View:
            out.append(self.result(values))
            return self.view(out[0], **display)

        view = _with_notes(make)
        return out[0], view


#: How long a kernel pauses after a move's lead figures are sent, before it evaluates the rest [s]
#: (:attr:`Panel.lead_pause_s`). Meanwhile the browser draws them with the CPU to itself: on
#: this project's 2-core machines, the kernel evaluating the rest and the server forwarding it
#: slowed that draw. The planner's data-per-day slider, interleaved A/B against no pause
#: (BENCHMARKS.md): the configurations' first change p50 5.6 ms sooner with 10 ms, 6.6-7.0 with
#: 20 ms and 6.7 with 35 ms; a pause of 1 ms gained nothing. The kernel sleeps (it stays busy):
#: letting it go idle and evaluating the rest from its event loop instead gained 2.4-2.9 ms less.
LEAD_PAUSE_S = 0.01

#: plotly.js options of every plot in a panel (no plotly logo, no cloud links).
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "modeBarButtonsToRemove": ["sendDataToCloud"]}
_PLOTLY_MIME = "application/vnd.plotly.v1+json"


class _PlotView(anywidget.AnyWidget):
    """The widget of a :class:`PlotPane`: a base and a moving part, drawn by ``_plotpane.js``."""

    _esm = Path(__file__).with_name("_plotpane.js")
    base = traitlets.Dict().tag(sync=True)
    moving = traitlets.Dict().tag(sync=True)
    template = traitlets.Dict().tag(sync=True)
    config = traitlets.Dict().tag(sync=True)


def _html(value: str = "", **layout) -> w.HTML:
    """An HTML widget of a panel: its layout (``layout`` traits) and style shared (:func:`~vtsmodel.app.controls.shared`)."""
    return w.HTML(value, layout=shared(w.Layout, **layout), style=shared(HTMLStyle))


def _in_a_kernel() -> bool:
    """Whether an event loop runs here (a kernel handling a change), where a browser may be drawing."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def plotly_loader() -> w.Output:
    """A hidden, empty plotly output: showing it makes the page load plotly.js.

    The plot panes draw with the ``window.Plotly`` that the jupyterlab-plotly extension
    (shipped with plotly, in JupyterLab and Voila) loads when it first renders a plotly
    output; every panel carries one such output so that its plots never wait for another.
    """
    out = w.Output(layout=shared(w.Layout, height="0px", overflow="hidden", visibility="hidden", margin="0"))
    out.add_class("vtsmodel-plotly-loader")
    bundle = {_PLOTLY_MIME: {"data": [], "layout": {"height": 10}, "config": {"staticPlot": True}}}
    out.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)
    return out


class PlotPane:
    """One plot on screen: its base sent when it changes, its moving part on every change.

    The base (:func:`~vtsmodel.app.figures.base_spec`, cached by the slow inputs) is the
    same object while those inputs stay put, so a slider move sends only the moving part
    (a few hundred bytes); the page's script keeps the base's traces and redraws the
    moved shapes. Nothing is sent when nothing changed. The project's template goes once
    per pane.

    Attributes
    ----------
    widget : ipywidgets widget
        What a panel shows.
    plot : Plot
        The plot last shown.
    """

    def __init__(self, plot: Plot) -> None:
        self.widget = _PlotView(
            template=template_json(), config=PLOT_CONFIG, layout=shared(w.Layout, width="100%")
        )
        self.widget.add_class("vtsmodel-plot")
        self._base: dict | None = None
        self._moving: dict | None = None
        self.plot = plot
        self.show(plot)

    def show(self, plot: Plot) -> bool:
        """Show ``plot``; return whether anything was sent."""
        self.plot = plot
        base = base_spec(plot)
        moving = plot.moving()
        new_base, new_moving = base is not self._base, moving != self._moving
        if not (new_base or new_moving):
            return False
        with self.widget.hold_sync():
            if new_base:
                self._base = base
                self.widget.base = base
            if new_moving or new_base:
                self._moving = moving
                self.widget.moving = moving
        return True

    @property
    def spec(self) -> dict:
        """The figure as shown: base and moving part composed, as JSON."""
        return compose(self._base or {}, self._moving or {})


class Panel:
    """Controls built from inputs, bound to a stage; live plots, readouts, export.

    Parameters
    ----------
    inputs : mapping of str to Input
        Keyword name (as the stage takes it) to declaration; each becomes a control, in order.
    stage : Stage
        What the panel shows: its inputs evaluated (kept per setting) and viewed.
    state : callable, optional
        ``state() -> dict``: what the page holds besides its controls (an uploaded workload,
        a mount log, an edited table), passed to the stage with the controls' values;
        objects are told apart by identity, so a page replaces them, never changes them.
    values : mapping, optional
        Starting values (checked by their inputs); the rest take their defaults.
    title : str
        Heading shown above the panel, and the first line of its captions.
    name : str
        Base of exported file names, e.g. ``"01_write"``.
    export_dir : path-like, optional
        Folder the export writes to (``$VTSMODEL_EXPORT_DIR`` or ``exports``).
    decorate : callable, optional
        ``decorate(View) -> View``, applied to every new view (the scenario sheet overlays
        the other scenarios with it).
    lead_pause_s : float
        Where the stage's lead sent a figure and an event loop runs (a kernel), the panel sleeps
        this long before it evaluates the rest [s] (:data:`LEAD_PAUSE_S`): the browser draws the
        lead first. 0: no pause.
    """

    def __init__(
        self,
        inputs: Mapping[str, Input],
        stage: Stage,
        *,
        state: Callable[[], Mapping] | None = None,
        values: Mapping | None = None,
        title: str = "",
        name: str = "figure",
        export_dir: str | Path | None = None,
        decorate: Callable[[View], View] | None = None,
        lead_pause_s: float = LEAD_PAUSE_S,
    ) -> None:
        if not (isinstance(lead_pause_s, (int, float)) and 0 <= lead_pause_s <= 1):
            raise ValueError(f"lead_pause_s={lead_pause_s!r} is not a pause in [0, 1] s")
        self.inputs = dict(inputs)
        values = dict(values or {})
        unknown = set(values) - set(self.inputs)
        if unknown:
            raise ValueError(f"no input named {', '.join(sorted(unknown))}; inputs: {', '.join(self.inputs)}")
        if not isinstance(stage, Stage):
            raise TypeError(
                f"stage={stage!r} is not a Stage (an evaluate and its view: vtsmodel.app.panels.Stage)"
            )
        self.controls = {k: control(inp, values.get(k)) for k, inp in self.inputs.items()}
        self.stage = stage
        self.state = state
        self.lead_pause_s = float(lead_pause_s)
        self.result = None
        self.title = title
        self.name = name
        self.export_dir = Path(export_dir or os.environ.get("VTSMODEL_EXPORT_DIR", "exports"))
        self.decorate = decorate
        self.last_error = ""
        self.view: View = self._compute()
        self.plots: dict[str, PlotPane] = {key: PlotPane(plot) for key, plot in self.view.figures.items()}
        self._headline = _html(width="100%")
        self._readouts = _html(width="410px")
        self._readouts.add_class("vtsmodel-readouts")
        self._binding = _html(width="100%")
        self._error = _html()
        self._tables = _html(width="100%")
        self._text: tuple = ()
        self._render_text()
        for ctl in self.controls.values():
            ctl.observe(self._on_change, names="value")
        self._build_export()
        left = w.VBox(
            [*self.controls.values(), self._readouts],
            layout=shared(w.Layout, width="420px", flex="0 0 420px"),
        )
        right = w.VBox(
            [pane.widget for pane in self.plots.values()],
            layout=shared(w.Layout, flex="1 1 auto", min_width="0", overflow="hidden"),
        )
        head = [_html(f"<h3 style='margin:4px 0'>{html.escape(title)}</h3>")] if title else []
        if any(CHOICE_BELOW in c._dom_classes for c in self.controls.values()):
            head.append(_html(f"<style>{CONTROLS_CSS}</style>", display="none"))  # the controls' own rules
        self.widget = w.VBox(
            [*head, self._headline, w.HBox([left, right], layout=shared(w.Layout, width="100%", flex_flow="row wrap")),
             self._binding, self._error, self._tables, self._export_box, plotly_loader()],
            layout=shared(w.Layout, width="100%", max_width="1240px"),
        )  # fmt: skip
        self.widget.add_class("vtsmodel-panel")

    # --- state ---------------------------------------------------------------------------
    @property
    def values(self) -> dict[str, object]:
        """Current values by keyword name."""
        return {k: c.value for k, c in self.controls.items()}

    @property
    def readout_values(self) -> dict[str, str]:
        """The readouts of the current setting (label to formatted value)."""
        return dict(self.view.readouts)

    def figure(self, key: str | None = None) -> dict:
        """The figure JSON of plot ``key`` (default the first) as the panel shows it."""
        key = key or next(iter(self.plots))
        return self.plots[key].spec

    def set(self, **values) -> None:
        """Set several inputs, then update once; ``ValueError`` (naming the range) for a bad value.

        Every value is checked by its input first, so a control never receives a value it
        cannot show and the panel never goes stale.
        """
        unknown = set(values) - set(self.controls)
        if unknown:
            raise ValueError(
                f"no input named {', '.join(sorted(unknown))}; inputs: {', '.join(self.controls)}"
            )
        parsed = {k: self.inputs[k].parse(k, v) for k, v in values.items()}
        self._hold = True
        try:
            for k, v in parsed.items():
                self.controls[k].value = v
        finally:
            self._hold = False
        self.update()

    _hold = False

    def _on_change(self, _change) -> None:
        if not self._hold:
            self.update()

    def update(self) -> None:
        """Recompute the view; send what changed to the plots and the text.

        The stage's lead figures (:attr:`Stage.lead`) are sent first, before the rest is evaluated;
        where they changed and an event loop runs (a kernel), after a pause of :attr:`lead_pause_s`.
        """
        led, sent = self._show_lead()
        if sent and self.lead_pause_s > 0 and _in_a_kernel():
            time.sleep(self.lead_pause_s)
        try:
            view = self._compute()
        except ValueError as exc:
            # An invalid combination of inputs: keep the last good view and say why.
            for key in led:
                self.plots[key].show(self.view.figures[key])
            self.last_error = str(exc)
            self._error.value = (
                f"<span class='vtsmodel-error' style='color:#B00020'>⚠ {html.escape(str(exc))}</span>"
            )
            return
        if self.last_error:
            self.last_error = ""
            self._error.value = ""
        self.view = view
        for key, plot in view.figures.items():
            if key in self.plots:
                self.plots[key].show(plot)
        self._render_text()

    def _show_lead(self) -> tuple[tuple[str, ...], bool]:
        """Send the stage's lead figures: the names of those shown (none with a decorator, or on an error), and whether any changed."""
        if self.stage.lead is None or self.decorate is not None:
            return (), False
        try:
            figures = self.stage.lead_figures({**self.values, **(self.state() if self.state else {})})
        except ValueError:
            return (), False  # the evaluation says why
        shown = tuple(k for k in figures if k in self.plots)
        sent = [self.plots[key].show(figures[key]) for key in shown]
        return shown, any(sent)

    def _evaluated(self, values: Mapping[str, object]) -> tuple[object, View]:
        return self.stage.evaluated({**values, **(self.state() if self.state else {})})

    def view_of(self, values: Mapping[str, object]) -> View:
        """The view of ``values`` (the page's state added), as the panel would show it undecorated."""
        return self._evaluated(values)[1]

    def _compute(self) -> View:
        result, view = self._evaluated(self.values)
        self.result = result
        return self.decorate(view) if self.decorate is not None else view

    def _render_text(self) -> None:
        v = self.view
        text = (tuple(v.readouts.items()), v.binding, v.notes, v.headline, tuple(v.tables.items()))
        if text == self._text:
            return
        self._text = text
        tables = "".join(
            f"<div class='vtsmodel-table vtsmodel-table-{html.escape(k)}'>{t}</div>"
            for k, t in v.tables.items()
            if t
        )
        if self._tables.value != tables:
            self._tables.value = tables
        self._headline.value = (
            "<div class='vtsmodel-headline' style='background:#F5F8FC;border-left:4px solid #0072B2;"
            f"padding:6px 10px;margin:4px 0;white-space:pre-line'>{html.escape(v.headline)}</div>"
            if v.headline
            else ""
        )
        rows = "".join(
            f"<tr><td style='padding:1px 8px 1px 0'>{html.escape(k)}</td>"
            f"<td class='vtsmodel-readout' data-label='{html.escape(k)}' style='text-align:right'>"
            f"<b>{html.escape(val)}</b></td></tr>"
            for k, val in v.readouts.items()
        )
        self._readouts.value = f"<table class='vtsmodel-readouts'>{rows}</table>"
        parts = []
        if v.binding:
            parts.append(
                f"<div class='vtsmodel-binding'><b>Binding limit:</b> {html.escape(v.binding)}</div>"
            )
        parts += [f"<div class='vtsmodel-note'>⚠ {html.escape(n)}</div>" for n in v.notes]
        self._binding.value = (
            f"<div style='white-space:normal;line-height:1.4'>{''.join(parts)}</div>" if parts else ""
        )

    # --- export ----------------------------------------------------------------------------
    def caption(self, figure: str | None = None) -> str:
        """The caption of the current setting: inputs, notes, and the citations of ``figure`` (or the view's)."""
        values = {**caption_values(self.inputs, self.values), **self.view.caption_values}
        plot = self.view.figures.get(figure) if figure else None
        citations = (plot.citations if plot is not None else ()) or self.view.citations
        return caption_text(values, citations, title=self.title, notes=self.view.notes)

    def export(
        self, fmt: str = "png", *, figure: str | None = None, path: str | Path | None = None, overwrite=False
    ) -> Path:
        """Export one figure of the current setting with its caption; return the path."""
        key = figure or next(iter(self.view.figures))
        if key not in self.view.figures:
            raise KeyError(f"no figure named {key!r}; figures: {', '.join(self.view.figures)}")
        target = Path(path) if path else self.export_dir / f"{self.name}_{key}.{fmt}"
        return _export.export_figure(
            self.view.figures[key].spec(), target, fmt=fmt, caption=self.caption(key), overwrite=overwrite
        )

    def export_bytes(self, fmt: str = "png", *, figure: str | None = None) -> tuple[str, bytes]:
        """One figure of the current setting, with its caption, as a file: ``(name, bytes)``."""
        key = figure or next(iter(self.view.figures))
        if key not in self.view.figures:
            raise KeyError(f"no figure named {key!r}; figures: {', '.join(self.view.figures)}")
        data = _export.figure_bytes(self.view.figures[key].spec(), fmt, caption=self.caption(key))
        return f"{self.name}_{key}.{fmt}", data

    def _build_export(self) -> None:
        self._fmt = w.Dropdown(
            options=[("PNG", "png"), ("SVG", "svg"), ("PDF", "pdf"), ("HTML (offline)", "html")],
            value="png", description="Format", tooltip="File format of the exported figure",
            layout=shared(w.Layout, width="216px"), style=shared(DescriptionStyle),
        )  # fmt: skip
        self._which = w.Dropdown(
            options=list(self.plots), description="Figure", tooltip="Which figure to export",
            layout=shared(w.Layout, width="240px"), style=shared(DescriptionStyle),
        )  # fmt: skip
        self._button = w.Button(
            description="Export", tooltip="Download the figure with its caption and sources",
            layout=shared(w.Layout), style=shared(w.ButtonStyle),
        )  # fmt: skip
        self._status = _html()
        self.downloader = Downloader()
        self._button.on_click(self._on_export)
        self._export_box = w.HBox(
            [self._which, self._fmt, self._button, self._status, self.downloader],
            layout=shared(w.Layout, flex_flow="row wrap", align_items="center"),
        )
        self._export_box.add_class("vtsmodel-export")

    def _on_export(self, _button=None) -> None:
        self._status.value = "preparing…"
        try:
            name, data = self.export_bytes(self._fmt.value, figure=self._which.value)
            name = self.downloader.send_file(name, data, self._fmt.value)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never swallowed silently
            self._status.value = (
                f"<span class='vtsmodel-export-failed' style='color:#B00020'>⚠ export failed: "
                f"{html.escape(str(exc) or type(exc).__name__)}</span>"
                f"<!-- {html.escape(traceback.format_exc())} -->"
            )
        else:
            self._status.value = (
                f"<span class='vtsmodel-export-done'>downloaded <b>{html.escape(name)}</b> "
                f"({len(data):,} bytes): see your browser's downloads</span>"
            )

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
