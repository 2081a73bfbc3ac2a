"""Lesson 01's import/export calculator (vtsmodel.app.lessons.import_export) without a browser."""

import numpy as np
import pytest

from vtsmodel import import_export as ie
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import import_export
from vtsmodel.app.lessons import write as L
from vtsmodel.app.text import number

from .test_write import mark, quiet


def test_import_export_panel_follows_eqs_1_2():
    p = L.import_export_panel()
    p.set(mb=2300.0, mounts=13, searches=2, interference="peak_write")
    e = float(ie.export_minutes(2300.0, 13, 2, interference="peak_write"))
    i = float(ie.import_minutes(2300.0, 13, 2, interference="peak_write"))
    assert (
        p.readout_values["export"] == f"{number(e)} min" and p.readout_values["import"] == f"{number(i)} min"
    )
    bars = p.figure("task_parts")["data"]
    assert sum(t["x"][0] for t in bars) == pytest.approx(e)  # the parts add up to the task time
    assert sum(t["x"][1] for t in bars) == pytest.approx(i)
    ex = trace_named(p.figure("task_time"), "export (Eq. 1)")
    np.testing.assert_allclose(
        ex["y"], quiet(ie.export_minutes, np.array(ex["x"]), 13, 2, interference="peak_write")
    )
    assert mark(p.figure("task_time"), "export, this task") == (2300.0, pytest.approx(e))


def test_task_numbers_are_eqs_1_and_2_at_the_fig_14_sizes():
    text = import_export.task_numbers()
    for task, func, mounts in (("export", ie.export_minutes, 13), ("import", ie.import_minutes, 6)):
        assert (
            f"{task} of 2,300 MB with {mounts} mounts, other work none: {number(func(2300.0, mounts))} min"
            in text
        )
    for line in text.splitlines():
        assert ": " in line and line.endswith(" min"), line
