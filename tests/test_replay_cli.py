"""The ``vtsmodel replay`` command: a log streamed through the replay, its table, its report, its errors."""

from __future__ import annotations

import pytest

from vtsmodel import mountlog, replay_library, replay_log
from vtsmodel.app.cli import main


@pytest.fixture
def log_file(tmp_path):
    log = mountlog.synthetic_mount_log(3000, 300, seed=5)
    path = tmp_path / "log.csv"
    mountlog.write_mount_log(log, path)
    return log, path


def test_replay_prints_the_streamed_answer_of_the_in_memory_replay(log_file, capsys, tmp_path):
    log, path = log_file
    code = main(["replay", str(path), "--drives", "3", "--drive", "LTO-9", "--dismount-after", "300",
                 "--cache-gb", "50", "--chunk-lines", "700", "--report", str(tmp_path / "r.html")])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    rep = replay_log(log, replay_library(3, drive="LTO9", dismount_after_s=300), cache_gb=50.0)
    assert f"{rep.tape_requests:,} to tape" in out
    assert f"loads saved {rep.loads_saved:,}" in out
    assert "M/D/c (Cosmetatos)" in out and "ibm-dtl-lto-perf" in out
    page = (tmp_path / "r.html").read_text()
    assert "Response time: replay vs the formulas" in page and "cern-tape-sizing-2005" in page
    assert "<script src=" not in page  # offline: plotly.js inline


@pytest.mark.parametrize(("args", "said"), [(["--drives", "0"], "drives=0"), (["--drive", "LTO-99"], "LTO-99"),
                                            (["--dismount-after", "-1"], "dismount_after_s"),
                                            (["--cartridge-share", "0"], "cartridge_share")])  # fmt: skip
def test_bad_library_is_one_line_naming_the_parameter(log_file, capsys, args, said):
    _, path = log_file
    assert main(["replay", str(path), *args]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_the_log_s_share_of_a_cartridge_spreads_its_volumes_and_the_note_says_when_too_few(log_file, capsys):
    log, path = log_file
    assert main(["replay", str(path), "--drives", "4"]) == 0
    out = capsys.readouterr().out
    assert "note: the tape requests use 1 cartridge, fewer than the 4 drives" in out
    assert main(["replay", str(path), "--drives", "4", "--cartridge-share", "0.0001"]) == 0
    out = capsys.readouterr().out
    rep = replay_log(log, replay_library(4, drive="LTO9"), cartridge_share=1e-4)
    assert rep.cartridges >= 4 and "fewer than the 4 drives" not in out
    assert f"loads saved {rep.loads_saved:,}" in out


def test_a_report_is_not_overwritten_unless_asked(log_file, tmp_path, capsys):
    _, path = log_file
    target = tmp_path / "r.html"
    target.write_text("mine")
    assert main(["replay", str(path), "--report", str(target)]) == 1
    assert target.read_text() == "mine"


def test_a_tape_library_request_log_in_its_own_format(tmp_path, capsys):
    from vtsmodel.logs import example_log

    path = tmp_path / "requests.log"
    path.write_text(example_log("tape-requests", 400))
    code = main(
        ["replay", str(path), "--log-format", "tape-requests", "--object-mb", "2000", "--drives", "4"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "400 requests, 400 to tape" in out and "format tape-requests" in out
