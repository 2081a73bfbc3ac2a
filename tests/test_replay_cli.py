"""The ``vtsmodel replay`` command: a log streamed through the replay, its table, its report, its errors."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize(("args", "said"), [(["--drives", "0"], "--drives=0 is outside the valid range [1, 100000]"),
                                            (["--drive", "LTO-99"], "LTO-99"),
                                            (["--dismount-after", "-1"], "--dismount-after=-1.0 is outside"),
                                            (["--cartridge-share", "0"], "--cartridge-share=0.0 is outside"),
                                            (["--percentile", "95"], "--percentile=95.0 is outside the valid range (0, 1)"),
                                            (["--batch", "0"], "--batch=0 is outside"),
                                            (["--chunk-lines", "0"], "--chunk-lines=0 is outside")])  # fmt: skip
def test_bad_library_is_one_line_naming_the_flag(log_file, capsys, args, said):
    _, path = log_file
    assert main(["replay", str(path), *args]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and "(e.g." not in err and len(err.splitlines()) == 1


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


def test_every_answer_is_a_number_or_says_why_not(log_file, capsys):
    _, path = log_file
    assert main(["replay", str(path), "--drives", "3", "--chunk-lines", "700"]) == 0
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if line.startswith("M/G/c simulated with the sample")]
    mean, q = row.split()[-2:]  # streamed, the simulation draws from the drive times kept
    assert float(mean) >= 0 and float(q) >= float(mean)
    assert "nan" not in out.lower().split() and " inf" not in out
    # a request a second, each 10 GB, on one drive: the formulas have no steady state, in words
    busy = path.with_name("busy.csv")
    busy.write_text("time_s,volume,compressed_mb\n" + "".join(f"{i},v{i},10000\n" for i in range(200)))
    assert main(["replay", str(busy), "--drives", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^M/D/c \(Cosmetatos\) +no steady state +no steady state$", out, re.M)
    assert "nan" not in out.lower().split()


def test_a_report_that_could_not_be_written_is_refused_before_the_log_is_read(log_file, tmp_path, capsys):
    _, path = log_file
    pdf = tmp_path / "r.pdf"
    assert main(["replay", str(path), "--report", str(pdf)]) == 2  # the report is HTML, not a PDF named .pdf
    out, err = capsys.readouterr()
    assert out == "" and "name it .html" in err and not pdf.exists()
    mine = tmp_path / "r.html"
    mine.write_text("mine")
    assert main(["replay", str(path), "--report", str(mine)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "exists; pass --overwrite to replace it" in err and mine.read_text() == "mine"


def test_counts_are_said_in_the_singular_and_waiting_requests_with_their_unit(tmp_path, capsys):
    one = tmp_path / "one.csv"
    one.write_text("time_s,volume,compressed_mb\n5,a,100\n")
    assert main(["replay", str(one)]) == 0
    out = capsys.readouterr().out
    assert "1 request, 1 to tape (0 cache hits), 1 volume\n" in out
    assert re.search(r"at most \d+ requests? waiting at once", out)


def test_stacking_flags_a_log_with_its_own_cartridges_does_not_use_are_noted(tmp_path, capsys):
    log = tmp_path / "carts.csv"
    log.write_text(
        "time_s,volume,compressed_mb,cartridge\n"
        + "".join(f"{i * 60},f{i},500,C{i % 7}\n" for i in range(50))
    )
    assert main(["replay", str(log), "--volume-mb", "800", "--cartridge-share", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "note: --volume-mb and --cartridge-share not used: the log names each request's cartridge" in out
    assert main(["replay", str(log)]) == 0
    assert "not used" not in capsys.readouterr().out


def test_the_first_line_accounts_for_every_request_and_notes_name_flags(log_file, capsys):
    log, path = log_file
    assert main(["replay", str(path), "--drives", "4", "--cache-gb", "50"]) == 0
    out = capsys.readouterr().out
    rep = replay_log(log, replay_library(4, drive="LTO9"), cache_gb=50.0)
    writes = rep.requests - rep.tape_requests - rep.cache_hits  # scratch mounts: written to the cache
    assert writes > 0
    assert (f"3,000 requests, {rep.tape_requests:,} to tape ({rep.cache_hits:,} cache hits, {writes:,} writes "
            "to the cache)") in out  # fmt: skip
    assert "(--cartridge-share) to" in out and "(cartridge_share)" not in out


def test_an_unknown_flag_points_to_the_command_s_own_help(log_file, capsys):
    _, path = log_file
    assert main(["replay", str(path), "--drive-speed", "3"]) == 2
    assert "vtsmodel replay: unrecognized arguments: --drive-speed 3 (see vtsmodel replay --help)" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("args", "said", "unsaid"),
    [([], "--columns='time,volume,bytes,access', or", "(--columns)"),
     ([], "or give a format (--log-format='xferlog')", "(format="),
     (["--log-format", "nosuch"], "--log-format='nosuch' is not known", "error: format="),
     (["--log-format", "tape-requests"], "give every object's size: --object-mb=...", "--object-gb")],
)  # fmt: skip
def test_a_log_the_reader_cannot_take_is_told_in_replay_s_flags(tmp_path, capsys, args, said, unsaid):
    from vtsmodel.logs import example_log

    path = tmp_path / "requests.log"
    path.write_text(example_log("tape-requests", 50))
    assert main(["replay", str(path), *args]) == 1
    err = capsys.readouterr().err
    assert said in err and unsaid not in err


@pytest.mark.parametrize("args", [["--batch", "5"], ["--batch-wait", "60"]])
def test_half_a_batch_rule_is_refused_rather_than_ignored(log_file, capsys, args):
    # replay_library batches only with both (ibid.: "batching is off when either is at its default")
    _, path = log_file
    assert main(["replay", str(path), *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--batch K and --batch-wait S go together" in err


def test_a_log_out_of_order_is_told_to_be_sorted_without_another_command_s_flag(tmp_path, capsys):
    log = tmp_path / "unsorted.csv"
    log.write_text("time_s,volume,compressed_mb\n5,a,100\n3,b,100\n")
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "line 3" in err and err.rstrip().endswith("sort the file first") and "hits --sort" not in err


def test_the_percentile_is_labelled_as_given(log_file, capsys):
    _, path = log_file
    assert main(["replay", str(path), "--drives", "3", "--percentile", "0.999"]) == 0
    out = capsys.readouterr().out
    assert "p99.9 wait [s]" in out and ", p99.9 " in out and "p100" not in out


def test_the_report_says_why_an_answer_is_missing_and_how_the_log_was_read(tmp_path, capsys):
    busy = tmp_path / "busy.csv"
    busy.write_text("time_s,volume,compressed_mb\n" + "".join(f"{i},v{i},10000\n" for i in range(200)))
    page = tmp_path / "r.html"
    assert main(["replay", str(busy), "--drives", "1", "--report", str(page)]) == 0
    capsys.readouterr()
    html = page.read_text()
    assert "<td>M/D/c (Cosmetatos)</td><td>no steady state</td><td>no steady state</td>" in html
    assert "<li>read as comma-separated, with a header" in html and "<td>—</td>" not in html
