"""The page-load profile (benchmarks/page_profile.py): a notebook it cannot find is refused at once."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import page_profile  # noqa: E402


def test_a_notebook_that_is_not_there_is_named_before_any_browser_starts(monkeypatch, capsys):
    """It once waited five minutes for a page its server could not render (a path, not a name)."""
    monkeypatch.setattr(sys, "argv", ["page_profile.py", "notebooks/no_such_lesson.ipynb"])
    monkeypatch.setattr(page_profile, "run", lambda *a: pytest.fail("a browser was started"))
    with pytest.raises(SystemExit) as stop:
        page_profile.main()
    assert stop.value.code == 2
    assert "no_such_lesson.ipynb" in capsys.readouterr().err


def test_a_notebooks_path_is_taken_as_its_name(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "argv", ["page_profile.py", "notebooks/04_drive_efficiency_vs_file_size.ipynb"])
    monkeypatch.setattr(page_profile, "run", lambda notebooks, *a: seen.append(notebooks) or {})
    page_profile.main()
    assert seen == [["04_drive_efficiency_vs_file_size.ipynb"]]
