"""The benchmarks' machine reference (benchmarks/reference.py): what a report says of the machine's speed."""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import reference  # noqa: E402


def test_speed_times_both_workloads_and_says_them():
    s = reference.speed(repeat=1)
    assert s["python_ms"] > 0 and s["numpy_ms"] > 0 and s["cores"] >= 1
    text = reference.speed_text(s)
    assert re.search(r"Python \d+ ms and numpy \d+ ms$", text), text
    assert f"{s['cores']} cores" in text


def test_speed_refuses_no_runs():
    with pytest.raises(ValueError, match="repeat=0"):
        reference.speed(repeat=0)


def test_the_page_report_says_how_fast_the_machine_was_at_its_start_and_end():
    import bench_pages

    start = {"cores": 2, "load": 0.5, "python_ms": 90.0, "numpy_ms": 21.0}
    end = {"cores": 2, "load": 3.2, "python_ms": 150.0, "numpy_ms": 40.0}
    lines = bench_pages.report_lines(
        {"trees": {}, "pages": [], "tti": [], "machine": {"start": start, "end": end}}
    )
    said = [line for line in lines if line.startswith("The machine at the start:")]
    assert len(said) == 1
    assert "load average 0.5" in said[0] and "Python 90 ms" in said[0]
    assert "; at the end: 2 cores, load average 3.2" in said[0] and "Python 150 ms" in said[0]
    assert not any(
        line.startswith("The machine") for line in bench_pages.report_lines({"pages": [], "tti": []})
    )


def test_the_page_benchmark_waits_out_the_apps_refill_delay_between_visits():
    import bench_pages

    from vtsmodel.app import serve

    assert bench_pages.refilled_s() > serve.REFILL_DELAY_S


def test_the_page_benchmark_says_its_pace_and_refuses_a_bad_one():
    import argparse

    import bench_pages

    paced = " ".join(bench_pages.report_lines({"trees": {}, "pages": [], "tti": [], "pace_s": 0.3}))
    assert "a key press at most every 0.3 s" in paced
    at_once = " ".join(bench_pages.report_lines({"trees": {}, "pages": [], "tti": []}))
    assert "each key press once the move before has changed a plot" in at_once
    assert bench_pages._pace("0.35") == 0.35
    for bad in ("-1", "nan", "11", "fast"):
        with pytest.raises(
            argparse.ArgumentTypeError, match=rf"--pace='{bad}' must be a number of seconds in \[0, 10\]"
        ):
            bench_pages._pace(bad)
