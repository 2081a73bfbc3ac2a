"""09_replay_your_log in Voila: pick a mount log, see the replay's plots and readouts match the
package's, move the drives and dismount-delay sliders, export a figure; a bad log is named by line.

The expected values come from the lesson's own page built in the test process, given the same
file and set to the same inputs as the browser.
"""

from __future__ import annotations

import pytest

from vtsmodel import mountlog
from vtsmodel.app.lessons import replay as L

from .helpers import (
    drawn_unlike_a_new_plot,
    export_png_and_html,
    fits_width,
    in_place_draws,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    panel_plot_index,
    panel_readouts,
    pick_file,
    wait_for_panel,
    watch_in_place,
)

pytestmark = pytest.mark.browser

TITLE = L.TITLE


def _status(page, text: str, kind: str = "done") -> str:
    status = page.locator(f".vtsmodel-replay-status .vtsmodel-replay-{kind}", has_text=text)
    status.wait_for(timeout=60_000)
    return status.inner_text()


def test_upload_a_log_move_the_sliders_and_export(open_lesson, tmp_path, artifacts_dir):
    page = open_lesson_with_plots(open_lesson, L.NOTEBOOK, 3)
    mine = panel_as_shown(page, TITLE, L.ReplayPage().panel)
    assert "synthetic, illustrative" in _status(page, f"showing {L.EXAMPLE_LOG.name}")

    log = tmp_path / "my_requests.csv"
    mountlog.write_mount_log(mountlog.synthetic_mount_log(3000, 400, seed=11, hours=48), log)
    pick_file(page, "replay", "Upload mount log", str(log))
    _status(page, "showing my_requests.csv")
    theirs = L.ReplayPage()
    theirs.load_bytes(log.read_bytes(), log.name)
    mine = theirs.panel
    wait_for_panel(page, TITLE, mine.view, timeout_s=60.0)
    assert panel_readouts(page, TITLE)["mount log"] == "my_requests.csv"

    # fewer drives, then a dismount delay: the plots and readouts follow the package's replay
    move_and_check(page, mine, TITLE, "drives", "drives", -12)
    assert mine.values["drives"] == 4
    # one drive more: the response curves, the hourly and the loads' bars move under axes that stay put,
    # redrawn alone (in_place); every plot draws what a new plot of it draws
    plots = [panel_plot_index(page, TITLE, n) for n in range(3)]
    watch_in_place(page, *plots)
    move_and_check(page, mine, TITLE, "drives", "drives", 1)
    assert sum(in_place_draws(page, i) for i in plots) >= 2, "no plot took the traces-only path"
    for i in plots:
        assert drawn_unlike_a_new_plot(page, i) == ""
    move_and_check(page, mine, TITLE, "drives", "drives", -1)
    move_and_check(page, mine, TITLE, "dismount_after_s", "dismount delay", 10)
    assert mine.values["dismount_after_s"] == 300.0
    shown = panel_readouts(page, TITLE)
    assert shown["mounts per hour"] == mine.readout_values["mounts per hour"]
    page.screenshot(path=str(artifacts_dir / "replay-page.png"), full_page=True)

    export_png_and_html(page, TITLE, mine, tmp_path)

    bad = tmp_path / "bad_log.csv"
    bad.write_text("time_s,volume,compressed_mb,access\n0,A,100,read\n60,A,-5,read\n")
    pick_file(page, "replay", "Upload mount log", str(bad))
    said = _status(page, "bad_log.csv not loaded: line 3", "failed")
    assert "compressed_mb='-5'" in said
    wait_for_panel(page, TITLE, mine.view)  # still my_requests.csv
    assert fits_width(page)
