"""What a plan file may reference (vtsmodel/plan/files.py): files in its own folder only,
and a fault in one reported by where it is, never by what the file holds (issue 27).

A hostile plan file (from a colleague, a ticket, a download) could name any file the
reader can read: ``../../etc/passwd``, ``/proc/self/environ``; the error then echoed the
file's first line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from replay_logs import SITE_READING as READING
from replay_logs import site_log

from vtsmodel.app import cli
from vtsmodel.plan import Plan, load_plan, plan_from_bytes, plan_to_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "example_hourly_workload.csv"
LOG = ROOT / "examples" / "example_mount_log.csv"
SECRET = "SECRET-7f3a9c-do-not-print"


def _plan_file(folder: Path, **refs) -> Path:
    doc = plan_to_dict(Plan(name="refs"))
    doc.update({key: {"file": ref} for key, ref in refs.items()})
    path = folder / "plan.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file outside the plan's folder whose first line is a secret, as /etc/shadow or an
    environment would be."""
    outside = tmp_path / "outside"
    outside.mkdir()
    path = outside / "secret.csv"
    path.write_text(f"{SECRET},host_write_mb,host_read_mb\n0,1,1\n")
    return path


def _refused(plan: Path, words: str) -> str:
    with pytest.raises(ValueError) as exc:
        load_plan(plan)
    message = str(exc.value)
    assert words in message, message
    assert SECRET not in message
    return message


@pytest.mark.parametrize("key", ["workload", "mount_log"])
def test_a_reference_out_of_the_plan_folder_is_refused(tmp_path, secret, key):
    folder = tmp_path / "plans"
    folder.mkdir()
    (folder / "escape").symlink_to(secret.parent, target_is_directory=True)
    (folder / "link.csv").symlink_to(secret)
    flag = "--workload" if key == "workload" else "--mount-log"
    for ref in (
        str(secret),  # absolute
        "../outside/secret.csv",  # .. out
        "sub/../../outside/secret.csv",
        "escape/secret.csv",  # a folder link leading out
        "link.csv",  # a file link leading out
        "/proc/self/environ",
        "../" * 20 + "etc/passwd",
    ):
        message = _refused(_plan_file(folder, **{key: ref}), "references only files in its own folder")
        assert f"vtsmodel plan PLAN {flag} FILE" in message, message


def test_a_reference_inside_the_folder_is_read_even_through_a_link_that_stays_inside(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "day.csv").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "today.csv").symlink_to(tmp_path / "data" / "day.csv")
    (tmp_path / "log.csv").write_bytes(LOG.read_bytes())
    for ref in ("data/day.csv", "today.csv", "./data/day.csv"):
        plan = load_plan(_plan_file(tmp_path, workload=ref, mount_log="log.csv"))
        assert plan.workload is not None and plan.workload_file == ref and plan.hits is not None


def test_a_bad_file_in_the_folder_is_named_by_line_not_content(tmp_path):
    (tmp_path / "day.csv").write_text(f"hour,host_write_mb,host_read_mb\n0,1,1\n1,{SECRET},1\n")
    message = _refused(
        _plan_file(tmp_path, workload="day.csv"), "workload file day.csv (line 3) is not a valid"
    )
    assert "vtsmodel plan PLAN --workload day.csv" in message, "says how to see the whole message"
    (tmp_path / "log.csv").write_text(f"{SECRET}\n")
    _refused(_plan_file(tmp_path, mount_log="log.csv"), "mount log file log.csv")
    os.mkfifo(tmp_path / "fifo.csv")  # the path's faults are named: they hold no content
    _refused(_plan_file(tmp_path, workload="fifo.csv"), "FIFO")
    _refused(_plan_file(tmp_path, workload="missing.csv"), "workload file missing.csv: no such file")


def test_an_uploaded_plan_reads_no_referenced_file(tmp_path):
    (tmp_path / "day.csv").write_bytes(EXAMPLE.read_bytes())
    raw = _plan_file(tmp_path, workload="day.csv").read_bytes()
    with pytest.raises(ValueError, match="references the workload 'day.csv'.*reads no file"):
        plan_from_bytes(raw)


def test_a_file_given_on_the_command_line_is_read_wherever_it_is(tmp_path, secret, capsys):
    """The person typed it: it is read, with full messages; the plan's own reference of
    that kind is then not read at all."""
    (tmp_path / "plans").mkdir()
    plan = _plan_file(tmp_path / "plans", workload="/proc/self/environ")
    day = tmp_path / "elsewhere" / "day.csv"
    day.parent.mkdir()
    day.write_bytes(EXAMPLE.read_bytes())
    assert cli.main(["plan", str(plan), "--workload", str(day)]) == 0
    assert "Plan 'refs'" in capsys.readouterr().out
    assert cli.main(["plan", str(plan)]) == 1
    assert "references only files in its own folder" in capsys.readouterr().err
    # The file given on the command line is the person's: its faults are told in full.
    assert cli.main(["plan", str(plan), "--workload", str(secret)]) == 1
    assert "unknown column" in capsys.readouterr().err.lower()


# --- how to read the mount log, said in the plan file ---------------------------------------------


def test_a_plan_file_says_how_to_read_its_mount_log_and_is_read_so_again(tmp_path):
    from vtsmodel import read_mount_log
    from vtsmodel.hits import lru_hit_curve
    from vtsmodel.plan import save_plan, vts_plan

    (tmp_path / "site.log.gz").write_bytes(site_log())
    log = read_mount_log(tmp_path / "site.log.gz", **READING)
    p = Plan(
        name="site", hits=lru_hit_curve(log), mount_log_file="site.log.gz", mount_log_reading=READING, log=log
    )
    path = save_plan(p, tmp_path / "plan.json")
    doc = json.loads(path.read_text())
    assert doc["mount_log"] == {"file": "site.log.gz", "reading": READING}
    back = load_plan(path)
    assert back.mount_log_reading == READING and len(back.log) == len(log) == 3000
    assert vts_plan(back).closest.read_hit == vts_plan(p).closest.read_hit
    # The same file without the reading: the log cannot be read (no header, an unknown word).
    del doc["mount_log"]["reading"]
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="mount log file site.log.gz .*is not a valid mount log"):
        load_plan(path)
    # and a plan without a mount log says nothing of reading one
    assert "reading" not in json.dumps(plan_to_dict(Plan(name="none")))


@pytest.mark.parametrize(
    ("reading", "message"),
    [
        ({"bogus": 1}, "mount_log reading: unknown key(s) 'bogus'; it holds format, columns"),
        ({"delimiter": "ab"}, "mount_log reading: delimiter='ab' is not valid"),
        ({"sort": "yes"}, "mount_log reading: sort='yes' must be true or false"),
        ({"object_mb": -5}, "mount_log reading: object_mb=-5"),
        ({"format": "mine"}, "mount_log reading: format='mine' is not known"),
        ({"access_map": {"U": "borrow"}}, "mount_log reading: access_map"),
        ("columns=1", "mount_log reading='columns=1' must be an object"),
    ],
)
def test_a_bad_reading_is_refused_naming_it(tmp_path, reading, message):
    (tmp_path / "site.log.gz").write_bytes(site_log(50))
    doc = plan_to_dict(Plan(name="site"))
    doc["mount_log"] = {"file": "site.log.gz", "reading": reading}
    (tmp_path / "plan.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError) as exc:
        load_plan(tmp_path / "plan.json")
    assert message in str(exc.value)
    with pytest.raises(ValueError) as exc:
        Plan(mount_log_reading=reading)
    assert message in str(exc.value)
    doc["mount_log"] = {"file": "site.log.gz", "how": {}}
    with pytest.raises(ValueError, match="mount_log must be {'file': NAME} naming a mount log file"):
        plan_from_bytes(json.dumps(doc).encode(), base_dir=tmp_path)


def test_the_command_line_reads_the_plan_files_mount_log_as_it_says(tmp_path, capsys, monkeypatch):
    import vtsmodel.plan

    planned, evaluate = [], vtsmodel.plan.evaluate
    monkeypatch.setattr(vtsmodel.plan, "evaluate", lambda p, **kw: planned.append(p) or evaluate(p, **kw))
    (tmp_path / "site.log.gz").write_bytes(site_log())
    doc = plan_to_dict(Plan(name="site"))
    doc["mount_log"] = {"file": "site.log.gz", "reading": READING}
    (tmp_path / "plan.json").write_text(json.dumps(doc))
    assert cli.main(["plan", str(tmp_path / "plan.json")]) == 0
    assert "Read hits from the mount log site.log.gz" in capsys.readouterr().out
    # A log given on the command line is read as its flags say, not as the plan's own log is.
    assert cli.main(["plan", str(tmp_path / "plan.json"), "--mount-log", str(LOG)]) == 0
    assert f"Read hits from the mount log {LOG.name}" in capsys.readouterr().out
    assert (
        cli.main(["plan", str(tmp_path / "plan.json"), "--mount-log", str(LOG), "--delimiter", ",", "--sort"])
        == 0
    )
    # What the plan records of each log's reading: the file's, none given, then the flags given.
    assert [p.mount_log_reading for p in planned] == [READING, {}, {"delimiter": ",", "sort": True}]
