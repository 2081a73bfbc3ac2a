"""04_drive_efficiency_vs_file_size in Voila: each panel's main controls move its plots and
readouts to the package's numbers; export writes PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process and set
to the same inputs as the browser: their views are what ``vtsmodel.drives`` and
``vtsmodel.catalog`` compute (the CERN formula with the drive's mount cycle, the
StorageTek block-size fits, the limits outside the drive) for those inputs. A plot in the
page is its base's traces, then its moving traces; the operating points are layout shapes.
"""

import time

import pytest

from vtsmodel.app.lessons import efficiency as lesson04
from vtsmodel.catalog import drive_spec
from vtsmodel.drives import drive_efficiency, mount_cycle_s

from .helpers import (
    export_png_and_html,
    fits_width,
    move_panel_slider,
    open_lesson_with_plots,
    panel_plot_index,
    panel_readouts,
    plot_locator,
    plot_traces,
    select_panel_dropdown,
    snap_like_browser,
    traces_mismatch,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"
EFFICIENCY = "Drive efficiency (CERN formula)"
BLOCK = "Block size (StorageTek tables)"
RATES = "Spec vs observed, and the limits outside the drive"

_READ_SHAPES = """(el) => (el.layout.shapes || []).map(s => ({
  name: s.name ?? null, x: s.xanchor ?? s.x0 ?? null, y: s.yanchor ?? s.y0 ?? null, visible: s.visible !== false}))"""


def _shapes_mismatch(shown: list[dict], spec: dict) -> str:
    want = [{"name": s.get("name"), "x": s.get("xanchor", s.get("x0")), "y": s.get("yanchor", s.get("y0")),
             "visible": s.get("visible", True) is not False} for s in spec["layout"].get("shapes", [])]  # fmt: skip
    if len(shown) != len(want):
        return f"{len(shown)} shapes != {len(want)}"
    for got, exp in zip(shown, want, strict=True):
        same = got["name"] == exp["name"] and got["visible"] == exp["visible"]
        for axis in ("x", "y"):
            a, b = got[axis], exp[axis]
            if isinstance(b, int | float) and isinstance(a, int | float):
                same = same and a == pytest.approx(b, rel=1e-9, abs=1e-12)
            else:
                same = same and a == b
        if not same:
            return f"shape {got} != {exp}"
    return ""


def wait_for_view(page, title: str, panel, timeout_s: float = 30.0) -> None:
    """Wait until the page's panel ``title`` shows ``panel``'s plots (traces and shapes) and readouts."""
    end = time.monotonic() + timeout_s
    while True:
        why = ""
        for n, (key, plot) in enumerate(panel.view.figures.items()):
            index = panel_plot_index(page, title, n)
            why = traces_mismatch(plot_traces(page, index), plot.figure()) or _shapes_mismatch(
                plot_locator(page, index).evaluate(_READ_SHAPES), panel.figure(key)
            )
            if why:
                why = f"plot {key}: {why}"
                break
        if not why:
            shown = panel_readouts(page, title)
            if shown != panel.readout_values:
                why = f"readouts {shown} != {panel.readout_values}"
        if not why:
            return
        if time.monotonic() > end:
            raise AssertionError(f"panel {title!r} does not show the package's view: {why}")
        page.wait_for_timeout(100)


def as_shown(page, title: str, panel):
    assert not snap_like_browser(panel), "a default is off its slider's grid"
    wait_for_view(page, title, panel)
    return panel


def move_and_check(page, panel, title: str, key: str, label: str, times: int) -> float:
    value = move_panel_slider(page, panel, title, key, label, times)
    wait_for_view(page, title, panel)
    return value


def _option_label(control, value):
    return next(label for label, v in control.options if v == value)


def test_controls_move_plots_and_readouts_then_export(open_lesson, export_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 5)

    eff = as_shown(page, EFFICIENCY, lesson04.efficiency_panel())
    file_mb = move_and_check(
        page, eff, EFFICIENCY, "file_mb", "file size", -3
    )  # inside the 1-1000 MB measured
    # the operating point is the CERN formula's efficiency at the new file size, with the
    # drive's mount cycle
    point = next(s for s in eff.figure("efficiency")["layout"]["shapes"] if s.get("name") == "this setting")
    v = eff.values
    expect = drive_efficiency(
        file_mb,
        v["files_per_mount"],
        t_mount_s=mount_cycle_s(robot_moves_per_hour=v["robot_moves_per_hour"], drive=v["drive"]),
        t_overhead_s=v["t_overhead_s"],
        speed_mb_s=drive_spec(v["drive"]).speed_mb_s,
    )
    assert point["xanchor"] == pytest.approx(file_mb) and point["yanchor"] == pytest.approx(float(expect))
    move_and_check(page, eff, EFFICIENCY, "robot_moves_per_hour", "robot moves", -4)
    select_panel_dropdown(page, EFFICIENCY, "drive", _option_label(eff.controls["drive"], "LTO9"))
    eff.set(drive="LTO9")  # its own mount times; a 20 MB/s feed is below its 177 MB/s floor
    wait_for_view(page, EFFICIENCY, eff)
    assert "backhitch" in panel_note_text(page, EFFICIENCY)

    block = as_shown(page, BLOCK, lesson04.block_size_panel())
    move_and_check(page, block, BLOCK, "block_kb", "block size", -2)
    move_and_check(page, block, BLOCK, "controller_buffer_kb", "controller buffer", 4)

    rates = as_shown(page, RATES, lesson04.rates_panel())
    move_and_check(page, rates, RATES, "compression_ratio", "compression ratio", -10)
    select_panel_dropdown(page, RATES, "drive", _option_label(rates.controls["rate_drive"], "IBM3592E08"))
    rates.set(rate_drive="IBM3592E08")
    wait_for_view(page, RATES, rates)

    export_png_and_html(page, EFFICIENCY, eff, export_dir)
    assert fits_width(page)


def panel_note_text(page, title: str) -> str:
    """The notes under a panel (the models' warnings), as one text."""
    from .helpers import panel_locator

    return " ".join(panel_locator(page, title).locator(".vtsmodel-note").all_inner_texts())
