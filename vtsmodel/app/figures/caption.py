"""The caption exported under a figure: its settings, notes and the citations of what it draws on."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping

import numpy as np

from vtsmodel import REFERENCE, number
from vtsmodel.data import cite

__all__ = ["caption_text"]


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float | int | np.floating | np.integer):
        return number(v, 4)
    return str(v)


def caption_text(
    values: Mapping[str, object],
    citations: Iterable,
    *,
    title: str = "",
    notes: Iterable[str] = (),
    width: int | None = None,
) -> str:
    """The caption exported under a figure: the settings, any extrapolation, the citations.

    Parameters
    ----------
    values : mapping
        Labelled inputs of the figure, e.g. ``{"CF [-]": 3.0, "TVC [GB]": 1728}``.
    citations : iterable
        Table names, source ids or model functions whose sources the figure uses.
    title : str
        A first line, e.g. the panel's title or the scenario's name.
    notes : iterable of str
        Sentences that qualify the figure (an input outside the range a source validated).
    width : int, optional
        Line width in characters to wrap at; default: one line per paragraph (an export
        wraps the caption to the figure's width).
    """

    def wrap(text: str) -> list[str]:
        return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) if width else [text]

    settings = "; ".join(f"{k} = {_fmt(v)}" for k, v in values.items())
    lines = [title] if title else []
    if settings:
        lines.extend(wrap(f"Settings: {settings}."))
    for note in notes:
        lines.extend(wrap(f"Note: {note}"))
    refs = cite(*citations) if citations else ""
    if refs:
        lines.append("Sources:")
        for ref in refs.splitlines():
            lines.extend(wrap(ref))
    lines.append(f"Made with {REFERENCE}")
    return "\n".join(lines)
