"""benchmarks/bench_logs.py: every shape it writes reads back whole, and its options are checked."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_logs  # noqa: E402


def test_every_shape_reads_back_whole_and_the_reference_is_one():
    rows = bench_logs.run(lines=400, rounds=1)
    assert [r["shape"] for r in rows] == list(bench_logs.shapes(10))
    assert rows[0]["ratio"] == 1.0 and all(r["s"] > 0 and r["lines_per_s"] > 0 for r in rows)


def test_a_bad_option_is_refused(capsys):
    with pytest.raises(SystemExit):
        bench_logs.main(["--lines", "0"])
    assert "must be a whole number in [1, 10000000]" in capsys.readouterr().err
