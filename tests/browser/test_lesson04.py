"""04_drive_efficiency_vs_file_size in Voila: each panel's main controls move its plots and
readouts to the package's numbers; export downloads PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process and set
to the same inputs as the browser: their views are what ``vtsmodel.drives`` and
``vtsmodel.catalog`` compute (the CERN formula with the drive's mount cycle, the
StorageTek block-size fits, the limits outside the drive) for those inputs. A plot in the
page is its base's traces, then its moving traces; the operating points are layout shapes.
"""

import pytest

from vtsmodel.app.lessons import efficiency as lesson04
from vtsmodel.catalog import drive_spec
from vtsmodel.drives import drive_efficiency, mount_cycle_s

from .helpers import (
    export_png_and_html,
    fits_width,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    panel_locator,
    select_panel_dropdown,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"
EFFICIENCY = "Drive efficiency (CERN formula)"
BLOCK = "Block size (StorageTek tables)"
RATES = "Spec vs observed, and the limits outside the drive"


def _option_label(control, value):
    return next(label for label, v in control.options if v == value)


def test_controls_move_plots_and_readouts_then_export(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 5)

    eff = panel_as_shown(page, EFFICIENCY, lesson04.efficiency_panel())
    # file size three steps left, still inside the 1-1000 MB tOverhead was measured with
    file_mb = move_and_check(page, eff, EFFICIENCY, "file_mb", "file size", -3)
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
    wait_for_panel(page, EFFICIENCY, eff.view)
    assert "backhitch" in panel_note_text(page, EFFICIENCY)

    block = panel_as_shown(page, BLOCK, lesson04.block_size_panel())
    move_and_check(page, block, BLOCK, "block_kb", "block size", -2)
    move_and_check(page, block, BLOCK, "controller_buffer_kb", "controller buffer", 4)

    rates = panel_as_shown(page, RATES, lesson04.rates_panel())
    move_and_check(page, rates, RATES, "compression_ratio", "compression ratio", -10)
    select_panel_dropdown(page, RATES, "drive", _option_label(rates.controls["rate_drive"], "IBM3592E08"))
    rates.set(rate_drive="IBM3592E08")
    wait_for_panel(page, RATES, rates.view)

    export_png_and_html(page, EFFICIENCY, eff, tmp_path)
    assert fits_width(page)


def panel_note_text(page, title: str) -> str:
    """The notes under a panel (the models' warnings), as one text."""
    return " ".join(panel_locator(page, title).locator(".vtsmodel-note").all_inner_texts())
