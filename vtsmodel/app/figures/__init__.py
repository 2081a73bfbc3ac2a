"""Every lesson's figures: their look, their marks, the Plot (a cached base and a moving part), captions, tables.

Figure builders are pure functions: numbers in, figure JSON out; they never read a widget.
Each lesson module ``vtsmodel.app.lessons.<name>`` builds its own figures with these pieces:

- :mod:`~vtsmodel.app.figures.theme`: the palette, the styles, the plotly template, an empty styled figure;
- :mod:`~vtsmodel.app.figures.marks`: cited source points, validated curves, the marks a slider moves;
- :mod:`~vtsmodel.app.figures.plot`: :class:`Plot`, its base built once per arguments, JSON helpers;
- :mod:`~vtsmodel.app.figures.caption`: the caption under an exported figure;
- :mod:`~vtsmodel.app.figures.tables`: cited data rows, inputs and plain rows as HTML tables.

This package imports plotly; ``import vtsmodel`` does not import it.
"""

from vtsmodel.app.figures.caption import caption_text
from vtsmodel.app.figures.marks import (
    alert_note,
    frame_validated,
    line_mark,
    off_scale_note,
    padded,
    path_mark,
    point_mark,
    source_markers,
    trace_named,
    validated_curve,
)
from vtsmodel.app.figures.plot import Plot, base_spec, compose, figure_json, plain_json
from vtsmodel.app.figures.tables import STATUS_STYLE, html_table, inputs_table_html, source_table_html
from vtsmodel.app.figures.theme import (
    BASE_TEMPLATE,
    COLORS,
    STYLES,
    new_figure,
    new_layout,
    style_figure,
    template_json,
)

__all__ = [
    "BASE_TEMPLATE",
    "COLORS",
    "STATUS_STYLE",
    "STYLES",
    "Plot",
    "alert_note",
    "base_spec",
    "caption_text",
    "compose",
    "figure_json",
    "frame_validated",
    "html_table",
    "inputs_table_html",
    "line_mark",
    "new_figure",
    "new_layout",
    "off_scale_note",
    "padded",
    "path_mark",
    "plain_json",
    "point_mark",
    "source_markers",
    "source_table_html",
    "style_figure",
    "template_json",
    "trace_named",
    "validated_curve",
]
