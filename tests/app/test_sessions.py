"""The app's page-kernel record (vtsmodel/app/sessions.py): ownership, caps, connect grace.

The server that uses it, as browsers see it, is tested in tests/browser/test_server.py.
"""

from __future__ import annotations

import pytest

from vtsmodel.app import sessions
from vtsmodel.app.sessions import Full, Sessions


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _record(cap=3, per_session=2, grace=10.0):
    clock = Clock()
    return Sessions(cap=cap, per_session=per_session, connect_grace_s=grace, clock=clock), clock


def _open(record, owner, kernel_id):
    ticket = record.admit(owner)
    record.claim(ticket, kernel_id)
    return ticket


def test_a_kernel_belongs_to_the_session_whose_page_got_it():
    record, _ = _record()
    _open(record, "alice", "k1")
    _open(record, "bob", "k2")
    assert record.owns("alice", "k1") and not record.owns("bob", "k1")
    assert record.owns("bob", "k2") and not record.owns("alice", "k2")
    assert record.kernels_of("alice") == ["k1"] and record.kernels_of("bob") == ["k2"]
    # Nobody owns what no page was given (a kernel kept ready), and no session is None.
    assert not record.owns("alice", "pool-kernel") and record.kernels_of("carol") == []
    assert not record.owns(None, "k1") and record.kernels_of(None) == []


def test_the_app_cap_counts_pages_on_their_way_to_a_kernel_too():
    record, _ = _record(cap=3, per_session=3)
    waiting = [record.admit(f"s{i}") for i in range(3)]  # three pages starting their kernels
    with pytest.raises(Full) as full:
        record.admit("s9")
    assert full.value.scope == "app" and full.value.limit == 3
    record.release(waiting[0])  # a request that ended without a kernel frees its place
    record.claim(record.admit("s9"), "k9")
    with pytest.raises(Full):
        record.admit("s10")
    assert record.in_use() == 3


def test_one_session_is_held_to_its_share():
    record, _ = _record(cap=10, per_session=2)
    _open(record, "alice", "k1")
    record.admit("alice")  # a second page on its way
    with pytest.raises(Full) as full:
        record.admit("alice")
    assert full.value.scope == "session" and full.value.limit == 2
    _open(record, "bob", "k3")  # the others are not
    record.forget("k1")
    record.admit("alice")


def test_stopped_kernels_leave_the_record():
    record, _ = _record(cap=2)
    _open(record, "alice", "k1")
    _open(record, "bob", "k2")
    with pytest.raises(Full):
        record.admit("carol")
    record.prune(["k2", "pool-kernel"])  # k1 was culled, or died
    assert not record.owns("alice", "k1")
    _open(record, "carol", "k3")
    assert record.forget("k3") and not record.forget("k3")


def test_release_after_claim_changes_nothing():
    record, _ = _record()
    ticket = _open(record, "alice", "k1")
    record.release(ticket)
    record.release(ticket)
    assert record.in_use() == 1 and record.owns("alice", "k1")


def test_a_served_page_that_never_connects_is_overdue_after_the_grace():
    record, clock = _record(grace=10.0)
    _open(record, "alice", "k1")  # still being sent: never overdue
    _open(record, "bob", "k2")
    _open(record, "carol", "k3")
    clock.now += 100
    assert record.overdue() == []
    record.served("k1")
    record.served("k2")
    record.connected("k2")
    clock.now += 9.9
    assert record.overdue() == []
    clock.now += 0.1
    assert record.overdue() == ["k1"], "only the served page that did not connect"
    record.served("k1")  # a second end of the same request does not restart the grace
    assert record.overdue() == ["k1"]


def test_a_page_kernel_is_the_graces_until_its_page_connects_then_the_culls():
    """Issue 28: a preheated kernel handed to a page was culled before the page connected."""
    record, clock = _record(grace=10.0)
    _open(record, "alice", "k1")
    assert record.awaiting_connect("k1")  # being sent
    record.served("k1")
    clock.now += 5
    assert record.awaiting_connect("k1")
    clock.now += 5
    assert not record.awaiting_connect("k1"), "past the grace: the cull may take it too"
    _open(record, "bob", "k2")
    record.connected("k2")
    assert not record.awaiting_connect("k2")
    assert not record.awaiting_connect("pool-kernel")


def test_status_gives_counts_and_no_ids():
    record, _ = _record(cap=5, per_session=2, grace=7.0)
    _open(record, "alice", "kernel-id-1")
    _open(record, "alice", "kernel-id-2")
    record.admit("bob")
    st = record.status()
    assert st == {
        "page_kernels": 2,
        "starting": 1,
        "cap": 5,
        "per_session": 2,
        "connect_grace_s": 7.0,
        "sessions": 1,
    }
    assert "kernel-id" not in repr(st)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cap": 0}, "cap=0"),
        ({"cap": 2.5}, "cap=2.5"),
        ({"cap": True}, "cap=True"),
        ({"cap": 3, "per_session": 0}, "per_session=0"),
        ({"cap": 3, "connect_grace_s": 0}, "connect_grace_s=0"),
        ({"cap": 3, "connect_grace_s": float("nan")}, "connect_grace_s=nan"),
    ],
)
def test_bad_limits_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Sessions(**kwargs)


def test_default_cap_is_half_the_available_memory_less_the_ready_kernels():
    # 20 GB available, 250 MB a page: half is 40 pages, less 9 kernels kept ready.
    assert sessions.default_cap(20_000, ready_kernels=9) == 31
    assert sessions.default_cap(20_000) == 40
    assert sessions.default_cap(1_000, ready_kernels=9) == 2, "never below 2"
    assert sessions.default_cap(10**7) == 200, "never above 200"
    assert sessions.default_cap(None) == 20 and sessions.default_cap(float("nan")) == 20


def test_available_memory_is_read_from_meminfo(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n")
    assert sessions.available_memory_mb(str(meminfo)) == pytest.approx(20_480.0)
    assert sessions.available_memory_mb(str(tmp_path / "missing")) is None
    meminfo.write_text("MemAvailable: lots\n")
    assert sessions.available_memory_mb(str(meminfo)) is None
