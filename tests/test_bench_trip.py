"""The hop-by-hop diagnostic (benchmarks/trip.py): each hop's time from the page's, server's and kernel's stamps."""

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import trip  # noqa: E402

T0 = 1_795_000_000.0  # a key press, seconds since the epoch


def _date(ms_after: float) -> str:
    """A kernel header's date, ``ms_after`` the key press."""
    return datetime.fromtimestamp(T0 + ms_after / 1000, UTC).isoformat().replace("+00:00", "Z")


def test_each_hop_is_the_difference_of_two_stamps_along_the_plots_message():
    ms = lambda x: T0 * 1000 + x  # noqa: E731 - the page's clock [ms]
    page = [
        ["key", ms(0.0)],
        ["send", ms(1.0), "comm_msg"],
        ["recv", ms(12.0), "status", _date(5.0)],
        ["recv", ms(13.0), "comm_msg", _date(6.0)],  # the slider's echo
        ["recv", ms(20.0), "comm_msg", _date(8.0)],  # the plot's message: the last before the change
        ["plot", ms(35.0)],
        ["recv", ms(40.0), "comm_msg", _date(9.0)],  # after the change: not the plot's
    ]
    server = [["in", T0 + 0.002], ["out", T0 + 0.0100, _date(5.0)], ["out", T0 + 0.0160, _date(8.0)]]
    kernel = [["iopub", T0 + 0.0095, "status", _date(5.0)], ["iopub", T0 + 0.0110, "comm_msg", _date(8.0)]]
    (row,) = trip._hops(page, server, kernel)
    want = {
        "key press -> message sent": 1.0,
        "sent -> server": 1.0,
        "server -> kernel busy": 3.0,
        "busy -> plot message made": 3.0,
        "made -> IOPub thread sends": 3.0,
        "IOPub thread -> server": 5.0,
        "server -> page": 4.0,
        "plot message -> plot changed": 15.0,
        "key press -> plot changed": 35.0,
    }
    assert row == pytest.approx(want, abs=1e-3)


def test_a_move_without_a_plot_change_is_left_out():
    page = [
        ["key", T0 * 1000],
        ["send", T0 * 1000 + 1, "comm_msg"],
        ["recv", T0 * 1000 + 9, "status", _date(5.0)],
    ]
    assert trip._hops(page, [["in", T0 + 0.002]], []) == []


def test_cpu_per_move_sums_each_kind_of_process_over_its_ticks():
    names = {1: "kernel", 2: "chromium renderer", 3: "chromium renderer", 4: "server"}
    before = {1: 100, 2: 50, 3: 10, 4: 7}
    after = {1: 120, 2: 90, 3: 30, 5: 99}  # 4 gone, 5 new: neither is counted
    names[5] = "chromium utility"
    cpu = trip._per_move(before, after, names, tick_ms=10.0, moves=4)
    assert cpu == {"kernel": 50.0, "chromium renderer": 150.0, "chromium utility": 0.0}
