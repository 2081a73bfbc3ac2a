"""The lessons' figure builders, view functions and panels (imports plotly and ipywidgets).

Each lesson module ``vtsmodel.app.lessons.lessonNN`` follows one contract, which the scenario
sheet and the ``vtsmodel figures`` command rely on:

``TITLE``
    The lesson's title.
``NOTEBOOK``
    The notebook's file name in ``notebooks/``.
``SCENARIO_PARAMS``
    ``dict[str, Param]``: the inputs a scenario sets, by keyword name, in display order.
``scenario_outputs(**values) -> dict[str, float]``
    The computed columns of a scenario, keys ``"Label [unit]"``; pure and fast.
``scenario_view(**values) -> vtsmodel.app.panels.View``
    Every figure of the lesson for one scenario, with caption values and citations;
    used for export. ``values`` are ``SCENARIO_PARAMS`` keywords; missing ones take
    their defaults.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

__all__ = ["LESSONS", "Param", "lesson_module", "scenario_values"]

#: Lesson number to module name, in teaching order.
LESSONS = {
    "01": "write",
    "02": "time_at_peak",
    "03": "recall",
    "04": "efficiency",
    "05": "sizing",
    "06": "disk_cache",
}


@dataclass(frozen=True)
class Param:
    """One scenario input: label, unit, default and valid range (or choices)."""

    label: str
    unit: str
    default: object
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    help: str = ""

    @property
    def header(self) -> str:
        """Column header with the unit, e.g. ``"CF [-]"``."""
        return f"{self.label} [{self.unit}]" if self.unit else self.label

    def coerce(self, name: str, value):
        """Return ``value`` converted and checked, or raise ``ValueError`` naming ``name``."""
        if self.choices:
            if value not in self.choices:
                raise ValueError(
                    f"{name}={value!r} is not valid; choose one of {', '.join(map(repr, self.choices))}"
                )
            return value
        if isinstance(value, bool):
            raise ValueError(f"{name}={value!r} must be a number in [{self.lo}, {self.hi}]")
        try:
            num = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name}={value!r} must be a number in [{self.lo}, {self.hi}]") from None
        if num != num or (self.lo is not None and num < self.lo) or (self.hi is not None and num > self.hi):
            raise ValueError(f"{name}={value!r} is outside the valid range [{self.lo}, {self.hi}]")
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            if num != int(num):
                raise ValueError(f"{name}={value!r} must be a whole number in [{self.lo}, {self.hi}]")
            return int(num)
        return num


def lesson_module(number: str):
    """Import and return the module of lesson ``number`` (``"01"`` ... ``"06"``)."""
    if number not in LESSONS:
        raise ValueError(f"lesson={number!r} is not valid; choose one of {', '.join(LESSONS)}")
    return importlib.import_module(f"vtsmodel.app.lessons.{LESSONS[number]}")


def scenario_values(params: dict[str, Param], values: dict) -> dict:
    """Every scenario input: the given ``values`` checked by their ``Param``, the rest defaults.

    Raises ``ValueError`` for an unknown name or a value its ``Param`` rejects.
    """
    unknown = set(values) - set(params)
    if unknown:
        raise ValueError(
            f"unknown scenario input(s) {', '.join(sorted(unknown))}; inputs: {', '.join(params)}"
        )
    return {k: (p.coerce(k, values[k]) if k in values else p.default) for k, p in params.items()}
