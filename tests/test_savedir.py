"""The save folder: a file name from the page resolves inside it, or is refused."""

from __future__ import annotations

import os
import threading

import pytest

from vtsmodel._files import atomic_write
from vtsmodel.app import savedir

GOOD = ["scenarios.json", "My plan (v2).json", "a", "site-7_b+c.csv", "x" * savedir.MAX_NAME, "v1.2.json"]
ESCAPES = [
    "../x.json",
    "..",
    ".",
    "a/b.json",
    "/etc/passwd",
    "a\\b.json",
    "..\\x.json",
    "C:x.json",
    "~/x.json",
    "$HOME",
    ".hidden.json",
    "x.json\x00.png",
    "a\nb",
    "name.",
    "name ",
    " name",
    "",
    "x" * (savedir.MAX_NAME + 1),
    "CON",
    "nul.json",
    "Com1.csv",
    "é.json",  # letters outside ASCII: refused rather than normalised
    "a\u2215b.json",  # DIVISION SLASH, looks like '/'
]


@pytest.mark.parametrize("name", GOOD)
def test_plain_names_are_accepted(name):
    assert savedir.check_name(name) == name


@pytest.mark.parametrize("name", ESCAPES)
def test_names_that_could_leave_the_folder_or_hide_are_refused(name):
    with pytest.raises(ValueError, match=r"^name="):
        savedir.check_name(name)


@pytest.mark.parametrize("name", [None, 3, b"x.json", ["x"]])
def test_non_text_names_are_refused(name):
    with pytest.raises(ValueError, match="must be a file name"):
        savedir.check_name(name)


def test_suffix_is_added_when_missing():
    assert savedir.check_name("plan", suffix=".json") == "plan.json"
    assert savedir.check_name("plan.JSON", suffix=".json") == "plan.JSON"
    with pytest.raises(ValueError):
        savedir.check_name("../plan", suffix=".json")


def test_resolve_stays_in_the_folder(tmp_path):
    path = savedir.resolve("plan", folder=tmp_path, suffix=".json")
    assert path == tmp_path.resolve() / "plan.json"
    atomic_write(path, "{}")
    assert savedir.resolve("plan.json", folder=tmp_path) == path  # an existing regular file


def test_without_a_save_folder_nothing_resolves(monkeypatch):
    monkeypatch.delenv(savedir.ENV_VAR, raising=False)
    assert savedir.save_dir() is None
    with pytest.raises(ValueError, match="no save folder"):
        savedir.resolve("plan.json")


def test_the_folder_comes_from_the_launcher(monkeypatch, tmp_path):
    monkeypatch.setenv(savedir.ENV_VAR, str(tmp_path))
    assert savedir.save_dir() == tmp_path
    assert savedir.resolve("a.json") == tmp_path.resolve() / "a.json"


def test_a_folder_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(ValueError, match="folder="):
        savedir.resolve("a.json", folder=tmp_path / "missing")
    (tmp_path / "f").write_text("")
    with pytest.raises(ValueError, match="not a folder"):
        savedir.resolve("a.json", folder=tmp_path / "f")


def test_symlinks_in_the_folder_are_not_followed(tmp_path):
    folder, outside = tmp_path / "save", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (outside / "secret.json").write_text("{}")
    (folder / "link.json").symlink_to(outside / "secret.json")
    (folder / "dangling.json").symlink_to(outside / "new.json")
    (folder / "dir").symlink_to(outside, target_is_directory=True)
    for name in ("link.json", "dangling.json"):
        with pytest.raises(ValueError, match="symbolic link"):
            savedir.resolve(name, folder=folder)
        with pytest.raises(ValueError, match="symbolic link"):
            savedir.read_bytes(name, folder=folder)
    with pytest.raises(ValueError):
        savedir.resolve("dir/secret.json", folder=folder)
    assert not (outside / "new.json").exists()


def test_a_save_folder_given_through_a_symlink_is_used_resolved(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    assert savedir.resolve("a.json", folder=tmp_path / "alias") == real.resolve() / "a.json"


def test_special_files_are_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "sub.json").mkdir()
    for name in ("fifo.json", "sub.json"):
        with pytest.raises(ValueError, match="not a regular file"):
            savedir.resolve(name, folder=tmp_path)


def test_hard_links_are_refused(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    os.link(tmp_path / "a.json", tmp_path / "b.json")
    with pytest.raises(ValueError, match="hard links"):
        savedir.resolve("b.json", folder=tmp_path)


def test_read_bytes_reads_a_file_and_names_a_missing_one(tmp_path):
    (tmp_path / "a.json").write_bytes(b'{"x": 1}')
    assert savedir.read_bytes("a", folder=tmp_path, suffix=".json") == b'{"x": 1}'
    with pytest.raises(FileNotFoundError, match="no file named 'b.json'"):
        savedir.read_bytes("b.json", folder=tmp_path)
    with pytest.raises(ValueError, match="limit"):
        savedir.read_bytes("a.json", folder=tmp_path, limit=3)


def test_read_bytes_never_blocks_on_a_fifo_swapped_in(tmp_path, monkeypatch):
    """A FIFO put in place after the check: the read fails at once instead of waiting."""
    os.mkfifo(tmp_path / "late.json")
    monkeypatch.setattr(savedir, "resolve", lambda name, **kw: tmp_path / "late.json")
    result = {}

    def read():
        try:
            savedir.read_bytes("late.json", folder=tmp_path)
        except ValueError as exc:
            result["error"] = str(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "reading a FIFO blocked"
    assert "not a regular file" in result["error"]


def test_atomic_write_to_a_resolved_name_replaces_nothing_outside(tmp_path):
    folder, outside = tmp_path / "save", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    target = savedir.resolve("plan.json", folder=folder)
    atomic_write(target, "{}")
    assert sorted(p.name for p in folder.iterdir()) == ["plan.json"]
    assert list(outside.iterdir()) == []
