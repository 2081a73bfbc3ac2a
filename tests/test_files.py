"""vtsmodel._files.atomic_write: permissions, symbolic links, missing folders, killed saves."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from vtsmodel import _files
from vtsmodel._files import atomic_write


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield 0o027
    os.umask(old)


def test_a_new_file_follows_the_umask(tmp_path, umask_027):
    # Before: 0600 whatever the umask (mkstemp's mode survived the rename).
    path = atomic_write(tmp_path / "s.json", "{}")
    plain = tmp_path / "plain.txt"
    plain.write_text("x")  # any other file the person writes
    assert _mode(path) == _mode(plain) == 0o640


def test_a_replaced_file_keeps_its_mode(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("old")
    path.chmod(0o604)
    atomic_write(path, "new", overwrite=True)
    assert path.read_text() == "new" and _mode(path) == 0o604


def test_overwrite_writes_through_a_symbolic_link(tmp_path):
    # Before: the link was replaced by a plain file and its target kept the old content.
    real = tmp_path / "shared" / "figure.svg"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "figure.svg"
    link.symlink_to(real)
    with pytest.raises(FileExistsError):
        atomic_write(link, "new")
    atomic_write(link, "new", overwrite=True)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["figure.svg"]  # no temp file left


def test_a_dangling_link_is_not_followed_unless_asked(tmp_path):
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "missing.json")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        atomic_write(link, "{}")
    atomic_write(link, "{}", overwrite=True)
    assert (tmp_path / "missing.json").read_text() == "{}" and link.is_symlink()


def test_a_missing_folder_is_refused_unless_asked(tmp_path):
    # Before: every missing folder on the way was created silently.
    target = tmp_path / "typo" / "deeper" / "s.json"
    with pytest.raises(FileNotFoundError, match=r"folder .*typo.deeper does not exist"):
        atomic_write(target, "{}")
    assert not (tmp_path / "typo").exists()
    assert atomic_write(target, "{}", parents=True).read_text() == "{}"


def test_a_folder_is_not_a_target(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a folder"):
        atomic_write(tmp_path, "{}", overwrite=True)


KILLED_SAVE = """
import os, sys, time
import vtsmodel._files as f
real_fsync = os.fsync
def stall(fd):
    real_fsync(fd)
    print("writing", flush=True)
    time.sleep(1000)  # killed here, mid-save
f.os.fsync = stall
f.atomic_write(sys.argv[1], "half", overwrite=True)
"""


def _killed_save(target) -> list[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_SAVE, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "writing"
    proc.kill()
    proc.wait()
    proc.stdout.close()
    return sorted(p.name for p in target.parent.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.slow
def test_the_next_save_removes_what_a_killed_save_left(tmp_path, monkeypatch):
    # Before: each SIGKILLed save left a .tmp file that no later save removed.
    target = tmp_path / "s.json"
    target.write_text("good")
    left = _killed_save(target)
    assert len(left) == 1 and left[0].startswith(".s.json.")
    assert target.read_text() == "good"  # the kill did not touch the target
    other = tmp_path / ".t.json.abcdefgh.tmp"  # another target's: never touched
    other.write_text("x")
    monkeypatch.setattr(_files, "STALE_AFTER_S", 0.0)
    atomic_write(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".t.json.abcdefgh.tmp", "s.json"]


def test_a_live_writers_temporary_file_is_left_alone(tmp_path, monkeypatch):
    # A temporary file locked by a running save is not stale, however old.
    import fcntl

    target = tmp_path / "s.json"
    busy = tmp_path / ".s.json.abcdefgh.tmp"
    busy.write_text("in progress")
    old = time.time() - 3600
    os.utime(busy, (old, old))
    monkeypatch.setattr(_files, "STALE_AFTER_S", 0.0)
    with open(busy, "rb") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        atomic_write(target, "{}")
        assert busy.exists()
    atomic_write(target, "{}", overwrite=True)
    assert not busy.exists()  # unlocked now: a dead writer's


# --- read_file: a regular file only, never blocking ------------------------------------------------
def test_read_file_reads_a_regular_file_up_to_a_size(tmp_path):
    from vtsmodel._files import read_file

    path = tmp_path / "a.json"
    path.write_bytes(b"12345")
    assert read_file(path, max_bytes=5) == b"12345"
    with pytest.raises(ValueError, match="is larger than 4 bytes; not a scenario file"):
        read_file(path, max_bytes=4, what="scenario file")
    with pytest.raises(ValueError, match="no such file"):
        read_file(tmp_path / "missing.json", max_bytes=5)
    with pytest.raises(ValueError, match="is a folder, not a file"):
        read_file(tmp_path, max_bytes=5)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_read_file_refuses_a_fifo_and_a_device_without_blocking(tmp_path):
    from vtsmodel._files import read_file

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a file"):
        read_file(fifo, max_bytes=10)
    if os.path.exists("/dev/zero"):
        with pytest.raises(ValueError, match="is a character device"):
            read_file("/dev/zero", max_bytes=10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_plan_or_workload_fifo_is_refused_without_blocking(tmp_path):
    # Before: load_plan and read_hourly_workload of a FIFO waited for ever for a writer.
    import vtsmodel

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a plan file"):
        vtsmodel.load_plan(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a workload file"):
        vtsmodel.read_hourly_workload(fifo)


def test_a_path_that_is_not_one_is_a_value_error():
    for path in (None, 3):
        with pytest.raises(ValueError, match=rf"path={path!r} is not a file name"):
            atomic_write(path, "{}")
