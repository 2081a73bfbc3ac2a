"""04_drive_efficiency_vs_file_size in Voila: each panel's main controls move its plots and
readouts to the package's numbers; export writes PNG and offline HTML; 1280 px fit.

The expected values come from the lesson's own panels built in the test process and set
to the same inputs as the browser: their views are what ``vtsmodel.drives`` computes
(the CERN formula, the StorageTek block-size fits, the LTO limits) for those inputs.
"""

import pytest

from vtsmodel.app.lessons import efficiency as lesson04
from vtsmodel.catalog import drive_spec
from vtsmodel.drives import drive_efficiency

from .helpers import (
    export_png_and_html,
    fits_width,
    move_and_check,
    move_panel_slider,
    open_lesson_with_plots,
    panel_as_shown,
    select_panel_dropdown,
    snap_like_browser,
    wait_for_panel,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "04_drive_efficiency_vs_file_size.ipynb"
EFFICIENCY = "Drive efficiency (CERN formula)"
BLOCK = "Block size (StorageTek tables)"
LTO = "LTO in the real world"


def _option_label(control, value):
    return next(label for label, v in control.options if v == value)


def test_controls_move_plots_and_readouts_then_export(open_lesson, export_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 5)

    eff = panel_as_shown(page, EFFICIENCY, lesson04.efficiency_panel())
    file_mb = move_panel_slider(
        page, eff, EFFICIENCY, "file_mb", "file size", -3
    )  # inside the 1-1000 MB measured
    wait_for_panel(page, EFFICIENCY, eff.view)
    # the operating point is the CERN formula's efficiency at the new file size
    point = next(t for t in eff.view.figures["efficiency"].data if t.name == "this setting")
    speed = drive_spec(eff.values["drive"]).speed_mb_s
    expect = drive_efficiency(
        file_mb,
        eff.values["files_per_mount"],
        t_mount_s=eff.values["t_mount_s"],
        t_overhead_s=eff.values["t_overhead_s"],
        speed_mb_s=speed,
    )
    assert point.y[0] == pytest.approx(float(expect), rel=1e-9)
    move_and_check(page, eff, EFFICIENCY, "t_mount_s", "tMount", -4)
    drive = next(v for _label, v in eff.controls["drive"].options if v != eff.values["drive"])
    select_panel_dropdown(page, EFFICIENCY, "drive", _option_label(eff.controls["drive"], drive))
    eff.set(drive=drive)
    wait_for_panel(page, EFFICIENCY, eff.view)

    block = lesson04.block_size_panel()
    snap_like_browser(block)  # the 64 KB default is off the log slider's grid
    wait_for_panel(page, BLOCK, block.view)
    move_and_check(page, block, BLOCK, "block_kb", "block size", -2)
    move_and_check(page, block, BLOCK, "controller_buffer_kb", "controller buffer", 4)

    lto = panel_as_shown(page, LTO, lesson04.lto_panel())
    move_and_check(page, lto, LTO, "compression_ratio", "compression ratio", 10)

    export_png_and_html(page, EFFICIENCY, eff, export_dir)
    assert fits_width(page)
