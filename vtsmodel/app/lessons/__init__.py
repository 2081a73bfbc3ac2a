"""The lessons: each a module of inputs, figure builders and views, named by topic.

Every lesson module follows one contract, which the scenario sheet, the export and the
``vtsmodel figures`` command rely on:

``LESSON_ID``, ``TITLE``, ``NOTEBOOK``
    Its number (``"01"``), title and notebook file in ``notebooks/``.
``INPUTS``
    ``dict[str, Input]``: every input of the lesson, declared once (the controls, the
    scenario sheet's columns, the captions and the documentation come from it).
``SCENARIO``
    The names of ``INPUTS`` a scenario sets, in display order (the sheet's columns).
``scenario_outputs(**values) -> dict[str, float]``
    The computed columns of a scenario, keys ``"Label [unit]"``; pure and fast.
``scenario_view(**values) -> View``
    Every figure of the lesson for one scenario (for export).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping

from vtsmodel import Input

__all__ = ["LESSONS", "lesson_module", "scenario_values"]

#: Lesson number to module name, in teaching order.
LESSONS = {
    "01": "write",
    "02": "time_at_peak",
    "03": "recall",
    "04": "efficiency",
    "05": "sizing",
    "06": "disk_cache",
    "07": "planner",
    "08": "hits",
    "09": "replay",
    "10": "library",
}


def lesson_module(number: str):
    """Import and return the module of lesson ``number`` (``"01"`` ... ``"08"``); ``ValueError`` naming the valid ones."""
    if number not in LESSONS:
        raise ValueError(f"lesson={number!r} is not valid; choose one of {', '.join(LESSONS)}")
    return importlib.import_module(f"vtsmodel.app.lessons.{LESSONS[number]}")


def scenario_values(inputs: Mapping[str, Input], names: Iterable[str], values: Mapping) -> dict:
    """The values of inputs ``names``: those given, parsed and checked by their input; the rest defaults.

    Raises ``ValueError`` naming an unknown input, or the value, the input and its range.
    """
    names = tuple(names)
    unknown = set(values) - set(names)
    if unknown:
        raise ValueError(
            f"unknown scenario input(s) {', '.join(sorted(unknown))}; inputs: {', '.join(names)}"
        )
    return {k: (inputs[k].parse(k, values[k]) if k in values else inputs[k].default) for k in names}
