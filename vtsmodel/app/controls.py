"""Controls built from input declarations: one :class:`~vtsmodel.Input`, one widget.

A number becomes a slider (linear or logarithmic, whole numbers an integer slider), a
choice a dropdown showing its labels, a flag a checkbox. The slider's range is exactly
the input's range, so a control accepts what the input's scenario column accepts; the
label carries the unit; the tooltip carries the help and the range a source validated.
"""

from __future__ import annotations

import math

import ipywidgets as w

from vtsmodel import Input

__all__ = ["LABEL_WIDTH", "control", "tooltip"]

#: Width of a control's label. [CSS px]
LABEL_WIDTH = "190px"
_STYLE = {"description_width": LABEL_WIDTH}
_WIDTH = "410px"


def tooltip(inp: Input) -> str:
    """What hovering a control tells: its help, its range, and what a source validated."""
    parts = [inp.help or inp.label]
    if inp.kind in ("number", "int"):
        parts.append(f"Range {inp.range_text()}.")
    if inp.valid:
        parts.append(f"Validated: {inp.valid_text()}.")
    elif inp.source:
        parts.append(f"Source: {inp.source}.")
    return " ".join(parts)


def _d3_format(inp: Input) -> str:
    """The slider's readout format (d3) in plain digits, never ``2.3e+3``.

    Whole numbers with thousands separators; a linear slider with as many decimals as its
    step has; a logarithmic one to three significant digits.
    """
    if inp.integer:
        return ",d"
    if inp.scale == "log":
        return ",.3r"
    decimals = max(0, -math.floor(math.log10(_step(inp)) + 1e-9))
    return f",.{decimals}f"


def _step(inp: Input) -> float:
    if inp.step is not None:
        return float(inp.step)
    if inp.integer:
        return 1.0
    lo, hi = float(inp.lo), float(inp.hi)
    raw = (hi - lo) / 100.0
    return 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0


def control(inp: Input, value=None) -> w.Widget:
    """The widget of ``inp`` at ``value`` (default: the input's default).

    Raises ``ValueError`` when a number input has no finite range (a slider needs both
    ends) or ``value`` is not one the input accepts.
    """
    value = inp.default if value is None else inp.parse(inp.label, value)
    common = {"description": inp.header, "tooltip": tooltip(inp), "style": _STYLE,
              "layout": w.Layout(width=_WIDTH)}  # fmt: skip
    kind = inp.kind
    if kind == "choice":
        return w.Dropdown(options=list(inp.options), value=value, **common)
    if kind == "flag":
        common.pop("style")
        return w.Checkbox(value=bool(value), indent=False, **common)
    if inp.lo is None or inp.hi is None or inp.lo_open or inp.hi_open:
        raise ValueError(f"input {inp.label!r} needs a closed finite range [lo, hi] to be a slider")
    if kind == "int":
        return w.IntSlider(
            value=int(value), min=int(inp.lo), max=int(inp.hi), step=int(_step(inp)), continuous_update=True,
            readout_format=_d3_format(inp), **common,
        )  # fmt: skip
    if inp.scale == "log":
        step = inp.step if inp.step is not None else 0.05
        return w.FloatLogSlider(
            value=float(value), base=10, min=math.log10(inp.lo), max=math.log10(inp.hi), step=step,
            continuous_update=True, readout_format=_d3_format(inp), **common,
        )  # fmt: skip
    return w.FloatSlider(
        value=float(value), min=float(inp.lo), max=float(inp.hi), step=_step(inp), continuous_update=True,
        readout_format=_d3_format(inp), **common,
    )  # fmt: skip
