"""08_read_hits_from_a_mount_log in Voila: pick a mount log in the page's file input, see
the curve, its Table 3 marks and the Table 3 rows match the package's numbers, move the
capacity slider, download a figure and the table; a bad log is named by line in the page;
a log larger than the page reads is refused in the browser, unsent, and the page works on.

The expected values come from the lesson's own page built in the test process, given the
same file and set to the same inputs as the browser: its views are what ``vtsmodel.hits``
computes for that log.
"""

from __future__ import annotations

import html

import pytest

from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, refusal
from vtsmodel.app.lessons import hit_curve as C
from vtsmodel.app.lessons import hits as L
from vtsmodel.app.lessons import recall_waits as R
from vtsmodel.logs._source import MAX_LINE_BYTES

from .helpers import (
    export_png_and_html,
    fits_width,
    move_and_check,
    open_lesson_with_plots,
    panel_as_shown,
    panel_locator,
    panel_plot_index,
    pick_file,
    traces_drawn,
    wait_for_panel,
    watch_traces_drawn,
)

pytestmark = pytest.mark.browser

NOTEBOOK = L.NOTEBOOK
TITLE = L.TITLE


def _status(page, text: str, kind: str = "done") -> str:
    """Wait until the page's log status says ``text``; return it."""
    status = page.locator(f".vtsmodel-hits-status .vtsmodel-hits-{kind}", has_text=text)
    status.wait_for(timeout=60_000)
    return status.inner_text()


def _upload(page, path) -> None:
    """Pick ``path`` in the file bar's picker, as the browser's file dialog would."""
    pick_file(page, "hits", "Upload log", str(path))


def _table_cells(page) -> list[str]:
    return page.eval_on_selector_all(
        ".vtsmodel-hits-table tbody td", "els => els.map(e => e.innerText.trim())"
    )


def _download_table(page, folder):
    """Click the file bar's table download; return the file saved."""
    button = page.locator("button.jupyter-button", has_text="Download table (CSV)")
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=60_000) as info:
        button.click()
    target = folder / info.value.suggested_filename
    info.value.save_as(target)
    return target


def _expected_cells(rows) -> list[str]:
    return [html.unescape(R.cell(k, v)) for r in rows for k, v in r.items()]


def test_upload_a_log_move_the_capacity_and_download(open_lesson, tmp_path):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    mine = L.HitsPage()
    panel_as_shown(page, TITLE, mine.panel)
    assert "synthetic, illustrative" in _status(page, "showing example_mount_log.csv")

    # the person picks a file in the browser's dialog: a copy of the example under another name
    log = tmp_path / "my_mount_log.csv"
    log.write_bytes(C.EXAMPLE_LOG.read_bytes())
    _upload(page, log)
    _status(page, "showing my_mount_log.csv")
    mine.load_bytes(log.read_bytes(), log.name)
    wait_for_panel(page, TITLE, mine.panel.view)  # the curve, its Table 3 marks, the readouts
    page.wait_for_function(
        "n => document.querySelectorAll('.vtsmodel-hits-table tbody td').length === n",
        arg=len(mine.rows) * len(R.COLUMNS),
    )
    assert _table_cells(page) == _expected_cells(mine.rows)

    # the capacity slider moves the marks (the benchmark's main slider)
    move_and_check(page, mine.panel, TITLE, "capacity_gb", "TVC capacity", -6)
    assert mine.panel.values["capacity_gb"] == 792.0
    assert "read hits at 792 GB" in mine.panel.readout_values
    # a move changes only the marks at the capacity (move_and_check: where the panel puts them): both plots
    # redraw them and leave the curves as drawn (the pane passes equal tick arrays and meta again: fresh
    # copies redrew each whole plot)
    plots = [panel_plot_index(page, TITLE, n) for n in range(2)]
    watch_traces_drawn(page, *plots)
    move_and_check(page, mine.panel, TITLE, "capacity_gb", "TVC capacity", 1)
    for i in plots:
        assert traces_drawn(page, i) == 0, f"plot {i} redrew its traces for a move of its marks"

    # a slow input: the base VTS holds host-size volumes
    panel_locator(page, TITLE).locator(".widget-dropdown", has_text="cache holds").locator(
        "select"
    ).select_option(label=L.INPUTS["cache_rule"].label_of("base"))
    mine.set(cache_rule="base")
    wait_for_panel(page, TITLE, mine.panel.view)
    page.wait_for_function(
        "([first]) => document.querySelector('.vtsmodel-hits-table tbody td:nth-child(3)').innerText.trim() === first",
        arg=[html.unescape(R.cell("compared [GB]", mine.rows[0]["compared [GB]"]))],
    )
    assert _table_cells(page) == _expected_cells(mine.rows)

    # the sampled curve and its measured error; the other policies at the Table 3 sizes
    for label in ("sampled curve (SHARDS)", "other policies (libCacheSim)"):
        panel_locator(page, TITLE).locator(".widget-checkbox", has_text=label).locator("input").click()
    mine.set(shards=True, policies=True)
    wait_for_panel(page, TITLE, mine.panel.view, timeout_s=120.0)
    assert "expected about" in mine.panel.readout_values["SHARDS error at Table 3 sizes"]
    page.locator(".vtsmodel-policies", has_text="FIFO (libCacheSim)").wait_for(timeout=60_000)

    # downloads: a figure (PNG and offline HTML), and the table as CSV
    export_png_and_html(page, TITLE, mine.panel, tmp_path)
    target = _download_table(page, tmp_path)
    assert target.name == "08_hits_my_mount_log.csv"
    assert target.read_text(encoding="utf-8") == R.table3_csv(mine.rows, mine.source)

    # a bad log: the page names the line, the field, the value and the range, and keeps the log
    bad = tmp_path / "bad_log.csv"
    bad.write_text("time_s,volume,compressed_mb,access\n0,A,100,scratch_write\n60,A,-5,read\n")
    _upload(page, bad)
    said = _status(page, "bad_log.csv not loaded: line 3", "failed")
    assert "line 3" in said and "compressed_mb='-5'" in said and "valid range [0, 1e+08] MB" in said
    wait_for_panel(page, TITLE, mine.panel.view)  # still my_mount_log.csv
    assert fits_width(page)


def test_a_log_too_large_is_refused_unsent_and_the_page_works_on(open_lesson, tmp_path, artifacts_dir):
    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    mine = panel_as_shown(page, TITLE, L.HitsPage().panel)
    _status(page, "showing example_mount_log.csv")

    # 14.2 MB: over the page's limit (and the server's 10 MiB message limit): the browser refuses it
    huge = tmp_path / "huge_mount_log.csv"
    huge.write_bytes(b"#" * 14_200_000)
    _upload(page, huge)
    note = page.locator(".vtsmodel-hits-files .vtsmodel-upload-refused")
    note.wait_for(timeout=30_000)
    said = refusal(huge.name, 14_200_000, MAX_UPLOAD_BYTES, C.LARGER)
    assert said == (
        "huge_mount_log.csv is 14.2 MB; this page reads files up to 8 MB: use the command line "
        "(vtsmodel hits LOG.csv) for larger ones"
    )
    assert note.inner_text() == f"⚠ {said}"
    page.locator(".vtsmodel-hits-files").locator("xpath=..").screenshot(
        path=str(artifacts_dir / "hits-file-bar-refused.png")
    )

    # nothing was sent: the connection stays, the page still shows the example and follows its slider
    _status(page, "showing example_mount_log.csv")
    move_and_check(page, mine, TITLE, "capacity_gb", "TVC capacity", 3)

    # a file of exactly the limit travels in one message and reaches the kernel (which finds it no log)
    edge = tmp_path / "edge_log.csv"
    head = b"time_s,volume,compressed_mb,access\n"
    edge.write_bytes(head + b"9" * (MAX_UPLOAD_BYTES - len(head) - 1) + b"\n")
    assert edge.stat().st_size == MAX_UPLOAD_BYTES
    _upload(page, edge)
    said = _status(page, "edge_log.csv not loaded: line 2: longer than", "failed")
    # the reader's own words: the line, the limit, and what such a file likely is
    assert f"line 2: longer than {MAX_LINE_BYTES:,} bytes; a log line is a few fields" in said
    assert said.endswith("(is this a log? a binary file, or one without line ends, is not read)")
    page.locator(".vtsmodel-hits-files").locator("xpath=..").screenshot(
        path=str(artifacts_dir / "hits-file-bar-at-the-limit.png")
    )
    assert (
        page.locator(".vtsmodel-hits-files .vtsmodel-upload-refused").count() == 0
    )  # the next pick clears the note

    # and a log within it is read and shown
    small = tmp_path / "small_mount_log.csv"
    small.write_bytes(C.EXAMPLE_LOG.read_bytes())
    _upload(page, small)
    _status(page, "showing small_mount_log.csv")
    theirs = L.HitsPage(C.read_upload(small.read_bytes(), small.name), capacity_gb=mine.values["capacity_gb"])
    wait_for_panel(page, TITLE, theirs.panel.view)
    page.wait_for_function(  # the kernel has it: the picker's "sending…" note is cleared
        "() => document.querySelector('.vtsmodel-hits-files .vtsmodel-upload-note').innerText === ''"
    )


def test_a_compressed_request_log_at_capacities_over_its_working_set(open_lesson, tmp_path, artifacts_dir):
    import gzip

    from vtsmodel.logs import example_log

    page = open_lesson_with_plots(open_lesson, NOTEBOOK, 2)
    mine = L.HitsPage()
    panel_as_shown(page, TITLE, mine.panel)
    _status(page, "showing example_mount_log.csv")

    # a tape library's request log: semicolon-separated, no header, basic ISO times, no sizes, saved
    # by a Windows tool (UTF-16 with its byte-order mark, CRLF line ends) and gzip'd
    text = example_log("tape-requests", 400, seed=6)
    log = tmp_path / "robot_requests.log.gz"
    log.write_bytes(gzip.compress(text.replace("\n", "\r\n").encode("utf-16")))
    page.locator(".vtsmodel-read-option", has_text="format").locator("select").select_option(
        label="tape requests (;, no header)"
    )
    box = page.locator(".vtsmodel-read-option", has_text="size of every object").locator("input")
    box.fill("18TB")
    box.press("Enter")
    mine.log_format.value, mine.object_size.value = "tape-requests", "18TB"
    _upload(page, log)
    _status(page, "showing robot_requests.log.gz")
    mine.load_bytes(log.read_bytes(), log.name)
    wait_for_panel(page, TITLE, mine.panel.view)

    # the capacities over its working set: the axis, the marks and the rows in the log's sizes
    page.locator(".vtsmodel-capacities select").select_option(label=L.CAPACITY_CHOICES[1][0])
    mine.which.value = "auto"
    wait_for_panel(page, TITLE, mine.panel.view)
    page.wait_for_function(
        "n => document.querySelectorAll('.vtsmodel-hits-table tbody td').length === n",
        arg=len(mine.rows) * len(mine.rows[0]),  # no queue columns: whole cartridges
    )
    assert _table_cells(page) == _expected_cells(mine.rows)
    page.locator(".vtsmodel-table-hits-rows").screenshot(
        path=str(artifacts_dir / "hits-rows-working-set.png")
    )
    target = _download_table(page, tmp_path)
    assert target.read_text(encoding="utf-8") == R.table3_csv(mine.rows, mine.source)
    assert fits_width(page)
