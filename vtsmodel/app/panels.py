"""The interactive panel every lesson uses: controls, live figures, readouts, export.

A lesson describes its panel with a pure function ``view(**values) -> View``: the values
of the controls in, the figures (built by pure figure builders), the readouts, the line
naming the binding limit and the caption out. :class:`Panel` binds that function to
ipywidgets controls and plot panes (:class:`PlotPane`): on every change it calls the
function once and sends each figure whose JSON changed to the browser, where the plot is
redrawn in place.

Everything but the widgets themselves is testable without a kernel: set a control's
``value`` and read :attr:`Panel.readout_values` and the figure widgets' data.

This module imports ipywidgets, anywidget and plotly; ``import vtsmodel`` does not import it.
"""

from __future__ import annotations

import html
import os
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import anywidget
import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
import traitlets

from vtsmodel.app import export as _export
from vtsmodel.app.figures import caption_text

__all__ = ["Panel", "View", "checkbox", "dropdown", "int_slider", "log_slider", "slider"]

_LABEL_STYLE = {"description_width": "180px"}
_LAYOUT = w.Layout(width="400px")


@dataclass
class View:
    """What a lesson's view function returns for one setting of the controls.

    Attributes
    ----------
    figures : dict of str to plotly Figure
        The figures, by name; a panel keeps one :class:`PlotPane` per name.
    readouts : dict of str to str
        Label to formatted value (with units), shown beside the figures.
    binding : str
        One sentence naming the binding limit, or empty.
    caption_values : dict
        The labelled inputs written into an export's caption.
    citations : tuple
        Table names, source ids or model functions the figures draw on.
    """

    figures: dict[str, go.Figure]
    readouts: dict[str, str] = field(default_factory=dict)
    binding: str = ""
    caption_values: dict[str, object] = field(default_factory=dict)
    citations: tuple = ()


def _describe(label: str, unit: str) -> str:
    return f"{label} [{unit}]" if unit else label


def slider(
    label: str,
    value: float,
    min: float,
    max: float,
    step: float,
    *,
    unit: str = "",
    tooltip: str = "",
    readout_format: str = ".3g",
) -> w.FloatSlider:
    """A float slider whose label carries its unit and whose tooltip explains it."""
    return w.FloatSlider(
        value=value,
        min=min,
        max=max,
        step=step,
        description=_describe(label, unit),
        description_allow_html=False,
        tooltip=tooltip or label,
        readout_format=readout_format,
        continuous_update=True,
        style=_LABEL_STYLE,
        layout=_LAYOUT,
    )


def log_slider(
    label: str,
    value: float,
    min: float,
    max: float,
    *,
    unit: str = "",
    tooltip: str = "",
    steps_per_decade: int = 10,
    readout_format: str = ".3g",
) -> w.FloatLogSlider:
    """A logarithmic slider (base 10); ``min`` and ``max`` are values, not exponents."""
    import math

    return w.FloatLogSlider(
        value=value,
        base=10,
        min=math.log10(min),
        max=math.log10(max),
        step=1.0 / steps_per_decade,
        description=_describe(label, unit),
        tooltip=tooltip or label,
        readout_format=readout_format,
        continuous_update=True,
        style=_LABEL_STYLE,
        layout=_LAYOUT,
    )


def int_slider(
    label: str, value: int, min: int, max: int, step: int = 1, *, unit: str = "", tooltip: str = ""
) -> w.IntSlider:
    """An integer slider whose label carries its unit."""
    return w.IntSlider(
        value=value,
        min=min,
        max=max,
        step=step,
        description=_describe(label, unit),
        tooltip=tooltip or label,
        continuous_update=True,
        style=_LABEL_STYLE,
        layout=_LAYOUT,
    )


def dropdown(label: str, options, value=None, *, tooltip: str = "") -> w.Dropdown:
    """A dropdown; ``options`` as for ipywidgets (values or ``(label, value)`` pairs)."""
    dd = w.Dropdown(
        options=options,
        description=label,
        tooltip=tooltip or label,
        style=_LABEL_STYLE,
        layout=_LAYOUT,
    )
    if value is not None:
        dd.value = value
    return dd


def checkbox(label: str, value: bool = False, *, tooltip: str = "") -> w.Checkbox:
    """A checkbox with a tooltip."""
    return w.Checkbox(value=value, description=label, tooltip=tooltip or label, indent=False, layout=_LAYOUT)


#: plotly.js options of every plot shown in a panel (no plotly logo, no cloud links).
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "modeBarButtonsToRemove": ["sendDataToCloud"]}
_PLOTLY_MIME = "application/vnd.plotly.v1+json"


class _PlotView(anywidget.AnyWidget):
    """The widget of a :class:`PlotPane`: figure JSON in, drawn in place by ``_plotpane.js``."""

    _esm = Path(__file__).with_name("_plotpane.js")
    figure = traitlets.Dict().tag(sync=True)
    template = traitlets.Dict().tag(sync=True)
    config = traitlets.Dict().tag(sync=True)


def plotly_loader() -> w.Output:
    """A hidden, empty plotly output: showing it makes the page load plotly.js.

    The plot panes draw with the ``window.Plotly`` that the jupyterlab-plotly extension
    (shipped with plotly, in JupyterLab and Voila) loads when it first renders a plotly
    output; every panel carries one such output so that its plots never wait for another.
    """
    out = w.Output(layout=w.Layout(height="0px", overflow="hidden", visibility="hidden", margin="0"))
    out.add_class("vtsmodel-plotly-loader")
    bundle = {_PLOTLY_MIME: {"data": [], "layout": {"height": 10}, "config": {"staticPlot": True}}}
    out.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)
    return out


class PlotPane:
    """One plotly figure on screen, redrawn in place when the figure changes.

    The figure's JSON goes to a small widget (:class:`_PlotView`) whose script calls
    ``Plotly.react`` on the same plot, so a slider move redraws only what changed; a
    figure whose JSON did not change is not sent at all. Unlike a ``FigureWidget`` it
    sends no 5 MB JavaScript bundle per figure. The project's template
    (:func:`vtsmodel.app.figures.template_json`) is sent once per pane, not with every update,
    so figure builders need not build it.

    Attributes
    ----------
    widget : ipywidgets widget
        What a panel shows.
    figure : plotly.graph_objects.Figure
        The figure last shown; ``data`` and ``layout`` are its traces and layout.
    """

    def __init__(self, fig: go.Figure) -> None:
        from vtsmodel.app.figures import template_json

        self.widget = _PlotView(template=template_json(), config=PLOT_CONFIG, layout=w.Layout(width="100%"))
        self.widget.add_class("vtsmodel-plot")
        self.figure = fig
        self._last_spec: dict | None = None
        self.show(fig)

    @property
    def data(self):
        """Traces of the figure last shown."""
        return self.figure.data

    @property
    def layout(self):
        """Layout of the figure last shown."""
        return self.figure.layout

    @staticmethod
    def spec(fig: go.Figure) -> dict:
        """The data and layout of ``fig`` as JSON, without its template."""
        spec = fig.to_plotly_json()
        spec["layout"] = {k: v for k, v in spec.get("layout", {}).items() if k != "template"}
        return spec

    def show(self, fig: go.Figure) -> bool:
        """Show ``fig``; return whether anything was sent (False when it is unchanged)."""
        self.figure = fig
        spec = self.spec(fig)
        if self._last_spec is not None and _same(self._last_spec, spec):
            return False
        self._last_spec = spec
        self.widget.figure = {"data": spec["data"], "layout": spec["layout"]}
        return True


def _same(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b)))
        except (TypeError, ValueError):
            return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class Panel:
    """Controls bound to a view function, live figures, readouts and an export control.

    Parameters
    ----------
    controls : mapping of str to ipywidgets widget
        Keyword name (as the view function takes it) to control.
    view : callable
        ``view(**values) -> View``, pure: it builds figures from numbers.
    title : str
        Heading shown above the panel.
    name : str
        Base of exported file names, e.g. ``"01_write_rate"``.
    export_dir : path-like, optional
        Folder the export control writes to; default ``$VTSMODEL_EXPORT_DIR`` or
        ``exports`` beside the notebook.
    decorate : callable, optional
        ``decorate(View) -> View``, applied to every new view before the figures are
        updated (the scenario sheet uses it to overlay the other scenarios).
    """

    def __init__(
        self,
        controls: Mapping[str, w.Widget],
        view: Callable[..., View],
        *,
        title: str = "",
        name: str = "figure",
        export_dir: str | Path | None = None,
        decorate: Callable[[View], View] | None = None,
    ) -> None:
        self.controls = dict(controls)
        self._view_fn = view
        self.title = title
        self.name = name
        self.export_dir = Path(export_dir or os.environ.get("VTSMODEL_EXPORT_DIR", "exports"))
        self.last_error = ""
        self.decorate = decorate
        self.view: View = self._compute()
        self.plots: dict[str, PlotPane] = {key: PlotPane(fig) for key, fig in self.view.figures.items()}
        self._readouts = w.HTML(layout=w.Layout(width="400px"))
        self._binding = w.HTML(layout=w.Layout(width="100%"))
        self._error = w.HTML()
        self._render_text()
        for ctl in self.controls.values():
            ctl.observe(self._on_change, names="value")
        self._build_export()
        figs = [pane.widget for pane in self.plots.values()]
        left = w.VBox(
            [*self.controls.values(), self._readouts],
            layout=w.Layout(width="420px", flex="0 0 420px"),
        )
        right = w.VBox(figs, layout=w.Layout(flex="1 1 auto", min_width="0", overflow="hidden"))
        head = [w.HTML(f"<h3 style='margin:4px 0'>{html.escape(title)}</h3>")] if title else []
        self.widget = w.VBox(
            [
                *head,
                w.HBox([left, right], layout=w.Layout(width="100%", flex_flow="row wrap")),
                self._binding,
                self._error,
                self._export_box,
                plotly_loader(),
            ],
            layout=w.Layout(width="100%", max_width="1240px"),
        )
        self.widget.add_class("vtsmodel-panel")

    @property
    def figure_widgets(self) -> dict[str, PlotPane]:
        """The plot panes by figure name (same as :attr:`plots`)."""
        return self.plots

    # --- state ---------------------------------------------------------------------
    @property
    def values(self) -> dict[str, object]:
        """Current control values by keyword name."""
        return {k: c.value for k, c in self.controls.items()}

    @property
    def readout_values(self) -> dict[str, str]:
        """The readouts of the current setting (label to formatted value)."""
        return dict(self.view.readouts)

    def set(self, **values) -> None:
        """Set several controls, then update once."""
        unknown = set(values) - set(self.controls)
        if unknown:
            raise KeyError(
                f"no control named {', '.join(sorted(unknown))}; controls: {', '.join(self.controls)}"
            )
        self._hold = True
        try:
            for k, v in values.items():
                self.controls[k].value = v
        finally:
            self._hold = False
        self.update()

    _hold = False

    def _on_change(self, _change) -> None:
        if not self._hold:
            self.update()

    def update(self) -> None:
        """Recompute the view and push it into the figures and readouts."""
        try:
            view = self._compute()
        except ValueError as exc:
            # Invalid combination of inputs: keep the last good view, say why.
            self.last_error = str(exc)
            self._error.value = f"<span style='color:#B00020'>⚠ {html.escape(str(exc))}</span>"
            return
        self.last_error = ""
        self._error.value = ""
        self.view = view
        for key, fig in view.figures.items():
            if key in self.plots:
                self.plots[key].show(fig)
        self._render_text()

    def _compute(self) -> View:
        view = self._view_fn(**self.values)
        return self.decorate(view) if self.decorate is not None else view

    def _render_text(self) -> None:
        rows = "".join(
            f"<tr><td style='padding:1px 8px 1px 0'>{html.escape(k)}</td>"
            f"<td class='vtsmodel-readout' data-label='{html.escape(k)}' style='text-align:right'>"
            f"<b>{html.escape(v)}</b></td></tr>"
            for k, v in self.view.readouts.items()
        )
        self._readouts.value = f"<table class='vtsmodel-readouts'>{rows}</table>"
        self._binding.value = (
            f"<div class='vtsmodel-binding' style='white-space:normal;line-height:1.4'>"
            f"<b>Binding limit:</b> {html.escape(self.view.binding)}</div>"
            if self.view.binding
            else ""
        )

    # --- export --------------------------------------------------------------------
    def caption(self) -> str:
        """The caption of the current setting: values and citations."""
        return caption_text(self.view.caption_values, self.view.citations, title=self.title)

    def export(
        self, fmt: str = "png", *, figure: str | None = None, path: str | Path | None = None, overwrite=False
    ) -> Path:
        """Export one figure of the current setting with its caption; return the path."""
        key = figure or next(iter(self.view.figures))
        if key not in self.view.figures:
            raise KeyError(f"no figure named {key!r}; figures: {', '.join(self.view.figures)}")
        target = Path(path) if path else self.export_dir / f"{self.name}_{key}.{fmt}"
        return _export.export_figure(
            self.view.figures[key], target, fmt=fmt, caption=self.caption(), overwrite=overwrite
        )

    def _build_export(self) -> None:
        self._fmt = w.Dropdown(
            options=[("PNG", "png"), ("SVG", "svg"), ("PDF", "pdf"), ("HTML (offline)", "html")],
            value="png",
            description="Format",
            tooltip="File format of the exported figure",
            layout=w.Layout(width="200px"),
        )
        self._which = w.Dropdown(
            options=list(self.plots),
            description="Figure",
            tooltip="Which figure to export",
            layout=w.Layout(width="240px"),
        )
        self._overwrite = w.Checkbox(value=False, description="replace existing", indent=False)
        self._button = w.Button(
            description="Export", icon="", tooltip="Write the figure with its caption", button_style=""
        )
        self._status = w.HTML()
        self._button.on_click(self._on_export)
        self._export_box = w.HBox(
            [self._which, self._fmt, self._overwrite, self._button, self._status],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        self._export_box.add_class("vtsmodel-export")

    def _on_export(self, _button=None) -> None:
        self._status.value = "writing…"
        try:
            path = self.export(self._fmt.value, figure=self._which.value, overwrite=self._overwrite.value)
        except FileExistsError as exc:
            self._status.value = f"<span style='color:#B00020'>{html.escape(str(exc))}</span>"
        except Exception as exc:  # noqa: BLE001 - shown to the user, never swallowed silently
            self._status.value = (
                f"<span style='color:#B00020'>export failed: {html.escape(repr(exc))}</span>"
                f"<!-- {html.escape(traceback.format_exc())} -->"
            )
        else:
            self._status.value = (
                f"<span class='vtsmodel-export-done'>wrote <code>{html.escape(str(path))}</code></span>"
            )

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
