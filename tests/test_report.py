"""The plan report: its sections, its figures equal the plan's numbers, offline HTML, PDF via Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from vtsmodel._tables import cite
from vtsmodel.app import report
from vtsmodel.app._browser import find_chromium
from vtsmodel.hourly import read_hourly_workload
from vtsmodel.plan import Answers, Plan, answer_inputs, assumptions, evaluate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "example_hourly_workload.csv"


@pytest.fixture(scope="module")
def result():
    plan = Plan(
        Answers(), workload=read_hourly_workload(EXAMPLE), workload_file=EXAMPLE.name, name="example <day>"
    )
    return evaluate(plan, fraction=0.2)


@pytest.fixture(scope="module")
def page(result):
    return report.report_bytes(result, "html", generated="2026-01-01").decode("utf-8")


def test_the_report_holds_every_section(page):
    for heading in ("Recommendation", "Figures", "Inputs", "Every configuration", "Tape-library plan",
                    "Assumptions", "What each number rests on", "References"):  # fmt: skip
        assert f"<h2>{heading}</h2>" in page, heading
    assert "Plan: example &lt;day&gt;" in page  # names are escaped


def test_the_report_says_what_the_plan_says(result, page):
    import html

    assert html.escape(result.vts.headline()) in page
    assert html.escape(result.library.headline()) in page
    for ch in result.vts.closest.checks:
        assert html.escape(ch.text) in page
    for inp in answer_inputs().values():
        assert html.escape(inp.label) in page
    for a in assumptions():
        assert html.escape(a["assumption"]) in page
    for name in result.models:
        assert name in page
    for ref in cite(*result.sources).splitlines():
        assert html.escape(ref) in page
    for r in result.vts.results:
        assert html.escape(r.config.label) in page
    assert "Illustrative" in page  # the workload's own note


def test_the_statements_behind_the_plan_are_listed_with_their_status(result, page):
    from vtsmodel.data import statements, statements_for

    rows = report.ledger_rows(result)
    ids = {r["id"] for r in rows}
    # every ledger statement about a model the plan used, and about a data row it read
    assert {r["id"] for r in statements() if r["model"] in result.models} <= ids
    for table, row_id in result.rows:
        assert {r["id"] for r in statements_for(f"{table}:{row_id}")} <= ids
    assert {"vts_ehpo_19_5", "cern_tmount_120"} <= ids  # Eq. 3's 19.5 MB/s; the 120 s tMount
    for r in rows:
        assert f"<td class=''>{r['id']}<br>" in page and r["status"] in page
    assert "calibrated" in page and "contradicted" in page


def test_the_html_works_offline(page):
    assert "Plotly.newPlot" in page and "plotly.js" in page.lower()
    assert page.count("<script type='text/javascript'>") == 1  # plotly.js once, for every figure
    start = page.index("<script type='text/javascript'>")
    ours = page[:start] + page[page.index("</script>", start) :]  # the page without plotly.js's own code
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", ours, re.I)  # nothing fetched
    assert "<script src" not in ours.replace(" ", "")


def test_figures_show_the_plan_numbers(result):
    figs = report.plan_figures(result)
    assert set(figs) == {
        "day",
        "configurations",
        "tornado",
        "capacity",
    }  # capacity: the library over the years
    run = result.vts.closest.run
    figs = {k: go.Figure(spec) for k, spec in figs.items()}  # JSON plotly accepts, every property checked
    accepted = next(t for t in figs["day"].data if t.name.startswith("host writes accepted"))
    assert np.allclose(np.asarray(accepted.y)[::2], run.accepted_mb_s)
    uncopied = next(t for t in figs["day"].data if t.name.startswith("un-copied"))
    assert np.allclose(uncopied.y, run.uncopied_gb)
    thr = next(t for t in figs["configurations"].data if t.name == "throttled [h]")
    firsts = {}
    for r in result.vts.results:
        firsts.setdefault(r.config.label.rsplit(", ", 1)[0], r.hours_throttled)
    assert list(thr.x) == list(firsts) and np.allclose(thr.y, list(firsts.values()))
    out = "recall ready at percentile [s]"
    rows = result.sensitivity.tornado(out)[::-1]
    bars = [t for t in figs["tornado"].data if t.name.startswith("input +") and t.xaxis == "x3"]
    assert bars and list(bars[0].y) == [r.driver for r in rows]
    assert np.allclose([x for x in bars[0].x], [r.high - r.base for r in rows])


def test_report_bytes_takes_a_plan_and_rejects_other_formats():
    small = Plan(Answers(write_gb_per_day=500, read_gb_per_day=100), name="small")
    text = report.report_bytes(small, "html").decode()
    assert "Plan: small" in text
    with pytest.raises(ValueError, match="fmt='docx'"):
        report.report_bytes(small, "docx")
    with pytest.raises(ValueError, match="must be a Plan"):
        report.report_bytes({"answers": {}}, "html")


def test_write_report_is_atomic_and_keeps_existing_files(tmp_path, result):
    path = tmp_path / "plan.html"
    report.write_report(result, path)
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(FileExistsError):
        report.write_report(result, path)
    with pytest.raises(ValueError, match="format"):
        report.write_report(result, tmp_path / "plan.docx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.html"]


def test_pdf_without_a_browser_says_how_to_get_one(monkeypatch):
    monkeypatch.setattr("vtsmodel.app.report.find_chromium", lambda: None)
    with pytest.raises(RuntimeError, match="Chromium"):
        report.html_to_pdf("<p>x</p>")


@pytest.mark.slow
def test_a_browser_that_prints_nothing_is_an_error(monkeypatch, tmp_path):
    fake = tmp_path / "browser"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr("vtsmodel.app.report.find_chromium", lambda: str(fake))
    with pytest.raises(RuntimeError, match="exit 3"):
        report.html_to_pdf("<p>x</p>")
    hang = tmp_path / "hang"
    hang.write_text("#!/bin/sh\nexec sleep 30\n")
    hang.chmod(0o755)
    monkeypatch.setattr("vtsmodel.app.report.find_chromium", lambda: str(hang))
    with pytest.raises(RuntimeError, match="longer than"):
        report.html_to_pdf("<p>x</p>", timeout_s=1)


@pytest.mark.slow
@pytest.mark.skipif(find_chromium() is None, reason="needs Chromium")
def test_the_pdf_is_the_html_printed(tmp_path, result):
    path = report.write_report(result, tmp_path / "plan.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 50_000
    assert data.count(b"/Type /Page") >= 5 or data.count(b"/Type/Page") >= 5
