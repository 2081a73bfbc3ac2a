"""Controls built from input declarations: one :class:`~vtsmodel.Input`, one widget.

A number becomes a slider (linear or logarithmic, whole numbers an integer slider), a
choice a dropdown showing its labels, a flag a checkbox. The slider's range is exactly
the input's range, so a control accepts what the input's scenario column accepts; the
label carries the unit; the tooltip carries the help and the range a source validated.
"""

from __future__ import annotations

import math

import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_description import DescriptionStyle

from vtsmodel import Input

__all__ = ["CHOICE_BELOW", "CONTROLS_CSS", "FITS_BESIDE", "LABEL_WIDTH", "control", "shared", "tooltip"]

#: Width of a control's label. [CSS px]
LABEL_WIDTH = "190px"
_WIDTH = "410px"
#: The longest choice label a dropdown shows whole beside its label [characters]; a choice
#: with a longer one (Table 3's configurations) puts its dropdown under its label, the
#: control's whole width (:data:`CHOICE_BELOW`).
FITS_BESIDE = 26
#: The class of a dropdown shown under its label, and its rules (a panel's stylesheet carries them).
CHOICE_BELOW = "vtsmodel-choice-below"
CONTROLS_CSS = f"""
.widget-dropdown.{CHOICE_BELOW} {{ flex-direction: column; align-items: stretch; height: auto; }}
.widget-dropdown.{CHOICE_BELOW} > select {{ flex: 0 0 var(--jp-widgets-inline-height); }}
"""
#: A control's style by its input's kind, else a slider's (a flag's label sits beside its box).
_STYLES = {"choice": (DescriptionStyle, {"description_width": LABEL_WIDTH}), "flag": (CheckboxStyle, {})}

_SHARED: dict = {}


def _unchanged(change) -> None:
    raise RuntimeError(
        f"a shared {type(change['owner']).__name__} changed ({change['name']}={change['new']!r}): it "
        "would change every widget that shows it; give the widget its own (vtsmodel.app.controls.shared)"
    )


def shared(cls: type, **traits) -> w.Widget:
    """One ``cls(**traits)`` (a ``Layout`` or a style) per kernel, shown by every widget that asks for it.

    Each widget's layout and style is a model the page creates from the kernel's state before
    it draws the widget, and a page's widgets repeat a few: lesson 07 had 99 layouts of 15
    kinds and 38 identical slider styles, 174 of its 277 models. Shared, they are one model
    each. A shared one must not change (it raises ``RuntimeError``): a widget whose layout or
    style changes gets its own.
    """
    key = (cls, tuple(sorted(traits.items())))
    got = _SHARED.get(key)
    if got is None or got.comm is None:  # first asked, or closed since
        got = _SHARED[key] = cls(**traits)
        got.observe(_unchanged, names=[n for n in got.keys if not n.startswith("_")])
    return got


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
    kind = inp.kind
    style, traits = _STYLES.get(kind, (w.SliderStyle, {"description_width": LABEL_WIDTH}))
    common = {"description": inp.header, "tooltip": tooltip(inp), "style": shared(style, **traits),
              "layout": shared(w.Layout, width=_WIDTH)}  # fmt: skip
    if kind == "choice":
        out = w.Dropdown(options=list(inp.options), value=value, **common)
        if max(len(label) for label, _v in inp.options) > FITS_BESIDE:
            out.add_class(CHOICE_BELOW)
        return out
    if kind == "flag":
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
