"""vtsmodel._files.atomic_write: permissions, symbolic links, missing folders, killed saves."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

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
    monkeypatch.setattr(_files, "STALE_AFTER_S", 0.0)
    atomic_write(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


@pytest.mark.slow
def test_the_next_save_of_any_name_cleans_the_folder(tmp_path, monkeypatch):
    """Issue 27: a killed save of a 145 MB report stayed until that same report was saved
    again. Now the next save of any file in the folder removes it; nothing that is not
    one of these temporary files is touched."""
    big = tmp_path / "report.pdf"
    left = _killed_save(big)
    assert len(left) == 1
    keep = [".notes.tmp", "plain.abcdefgh.tmp", ".x.ABCDEFGH.tmp", ".x.abcdefgh.tmp.bak"]
    for name in keep:
        (tmp_path / name).write_text("not ours")
    (tmp_path / ".d.abcdefgh.tmp").mkdir()  # a folder of that name: not a file we wrote
    (tmp_path / ".l.abcdefgh.tmp").symlink_to(tmp_path / "plain.abcdefgh.tmp")
    fresh = tmp_path / ".s.json.abcdefgh.tmp"  # a save that has just begun
    fresh.write_text("in progress")
    old = time.time() - 3600
    os.utime(tmp_path / left[0], (old, old))
    atomic_write(tmp_path / "plan.json", "{}")  # another name, same folder
    names = sorted(p.name for p in tmp_path.iterdir())
    assert left[0] not in names, "the killed save's temporary file is still there"
    assert set(keep) | {".d.abcdefgh.tmp", ".l.abcdefgh.tmp", fresh.name, "plan.json"} == set(names)


def test_a_read_only_file_is_replaced_only_with_force(tmp_path):
    """Issue 27: ``overwrite=True`` (every ``--overwrite``) silently replaced a 0444 file."""
    path = tmp_path / "report.html"
    path.write_text("kept")
    path.chmod(0o444)
    with pytest.raises(PermissionError, match=r"report.html is read-only; make it writable .*force=True"):
        atomic_write(path, "new", overwrite=True)
    assert path.read_text() == "kept"
    with pytest.raises(FileExistsError):  # without overwrite, the usual refusal comes first
        atomic_write(path, "new", force=True)
    atomic_write(path, "new", overwrite=True, force=True)
    assert path.read_text() == "new" and _mode(path) == 0o444, "replaced, still read-only"
    writable = tmp_path / "w.html"
    writable.write_text("old")
    writable.chmod(0o644)
    atomic_write(writable, "new", overwrite=True)
    assert writable.read_text() == "new"


def test_a_read_only_file_behind_a_symbolic_link_is_refused_too(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("kept")
    real.chmod(0o400)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with pytest.raises(PermissionError, match="read-only"):
        atomic_write(link, "new", overwrite=True)
    assert real.read_text() == "kept"


def test_saving_over_a_hard_link_splits_it_as_documented(tmp_path):
    """The new content is a new file in the target's place: the target's other names keep
    the old content (the module docstring says so, and says to use a symbolic link to
    change every name)."""
    target = tmp_path / "plan.json"
    target.write_text("old")
    other = tmp_path / "copy-of-plan.json"
    os.link(target, other)
    atomic_write(target, "new", overwrite=True)
    assert target.read_text() == "new" and other.read_text() == "old"
    assert os.stat(target).st_nlink == 1 and os.stat(other).st_nlink == 1
    assert "Hard links are split" in _files.__doc__


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


# --- text a person gave that is not UTF-8: the line and the byte offset ----------------------
def test_decode_utf8_names_the_line_and_byte_offset():
    raw = b"a,b\nc,d\nok,\xe9t\xe9\n"  # Latin-1 "ete" on line 3
    with pytest.raises(ValueError) as exc:
        _files.decode_utf8(raw, "day.csv", what="workload file")
    assert str(exc.value) == (
        "day.csv: line 3 is not UTF-8 text (byte 0xe9 at byte offset 11); save the workload file as UTF-8"
    )
    # A byte-order mark is dropped, and counted in the offset.
    assert _files.decode_utf8(b"\xef\xbb\xbfa\n", "f", what="file") == "a\n"
    with pytest.raises(ValueError, match=r"line 1 .*byte 0xff at byte offset 4\)"):
        _files.decode_utf8(b"\xef\xbb\xbfa\xff\n", "f", what="file")
    # A part read on its own: its first line and offset in the file given.
    with pytest.raises(ValueError, match=r"line 7 .*byte 0xff at byte offset 102\)"):
        _files.decode_utf8(b"ab\xff", "f", what="file", line=7, offset=100)


#: Text with a byte that is never UTF-8 on line 3, at byte offset 20 of the file.
BAD_HOURLY = b"# made up\n#  a  day\n\xff0,1,1\n"
BAD_JSON = b'{\n"version": 1,    \n\xff}'
BAD_PROFILE = b"start_hours,rate_m\n\n\xff,1\n"


def _on_disk(tmp_path, name: str, raw: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


def _from_text_file(tmp_path, name: str, raw: bytes, read):
    with open(_on_disk(tmp_path, name, raw), encoding="utf-8") as fh:  # as a caller opens it
        return read(fh)


def _readers():
    """Every reader of a file a person gives (the mount-log reader has its own): what it is
    called with, and the name its message gives the file."""
    from vtsmodel import load_plan, read_hourly_workload
    from vtsmodel.app.scenarios import parse_scenario_bytes, read_scenario_file
    from vtsmodel.plan import plan_from_bytes
    from vtsmodel.workload import read_profile_csv

    return {
        "hourly workload, a path": (lambda t: read_hourly_workload(_on_disk(t, "day.csv", BAD_HOURLY)), "day.csv"),
        "hourly workload, uploaded bytes": (lambda t: read_hourly_workload(BAD_HOURLY), "the workload"),
        "hourly workload, a text file": (lambda t: _from_text_file(t, "t.csv", BAD_HOURLY, read_hourly_workload), "t.csv"),
        "plan file": (lambda t: load_plan(_on_disk(t, "p.json", BAD_JSON)), "p.json"),
        "plan file, uploaded": (lambda t: plan_from_bytes(BAD_JSON, where="up.json"), "up.json"),
        "scenario file": (lambda t: read_scenario_file(_on_disk(t, "s.json", BAD_JSON)), "s.json"),
        "scenario file, uploaded": (lambda t: parse_scenario_bytes(BAD_JSON, "up.json"), "up.json"),
        "profile CSV": (lambda t: read_profile_csv(_on_disk(t, "prof.csv", BAD_PROFILE)), "prof.csv"),
        "profile CSV, a text file": (lambda t: _from_text_file(t, "q.csv", BAD_PROFILE, read_profile_csv), "profile"),
    }  # fmt: skip


@pytest.mark.parametrize("reader", list(_readers()))
def test_every_reader_names_the_line_and_byte_offset_of_a_byte_not_utf8(tmp_path, reader):
    """Issue 27: a non-UTF-8 byte in an uploaded file was reported without its line."""
    for raw in (BAD_HOURLY, BAD_JSON, BAD_PROFILE):
        assert raw.index(b"\xff") == 20 and raw[:20].count(b"\n") == 2
    call, where = _readers()[reader]
    with pytest.raises(ValueError) as exc:
        call(tmp_path)
    message = str(exc.value)
    assert where in message and "line 3 is not UTF-8 text (byte 0xff at byte offset 20)" in message, message


def test_a_data_table_not_utf8_names_the_line_and_byte_offset(tmp_path, monkeypatch):
    """The project's own data files too (an edited catalog row, say)."""
    import shutil

    from vtsmodel import _tables, data

    copy = tmp_path / "data"
    shutil.copytree(data.data_dir(), copy)
    path = copy / "vts_read_rates.csv"
    raw = path.read_bytes()
    second = raw.index(b"\n", raw.index(b"\n") + 1) + 1  # line 3 starts here
    path.write_bytes(raw[:second] + b"\xe9" + raw[second:])
    monkeypatch.setattr(_tables, "data_dir", lambda: copy)
    _tables.load.cache_clear()
    try:
        with pytest.raises(data.DataError, match=rf"vts_read_rates.csv: line 3 .*byte offset {second}\)"):
            data.load("vts_read_rates")
    finally:
        _tables.load.cache_clear()
