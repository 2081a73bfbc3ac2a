"""The shipped archive plan (examples/archive_plan.json: the CERN Tier-1 flows, five years, LTO-9) through the CLI."""

from pathlib import Path

import pytest

from vtsmodel import library_years, sizing
from vtsmodel.app.cli import main
from vtsmodel.plan import evaluate, load_plan

ARCHIVE = Path(__file__).resolve().parents[1] / "examples" / "archive_plan.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_example_is_the_cern_tier1_flows_for_five_years_on_lto9():
    p = load_plan(ARCHIVE)
    assert not p.vts and p.answers.years == 5 and p.answers.library_drive == "LTO9"
    cern = sizing.cern_example_flows()
    assert [
        f.flow for f in p.library_flows
    ] == cern  # the note's three flows, as cern_sizing_example holds them
    assert [f.writes for f in p.library_flows] == [True, False, False]  # T0 -> T1 writes; the others read
    lib = evaluate(p).library
    # the note's 50 drives of 40 MB/s are 50 x 40 / 400 = 5 drives of LTO-9 (400 MB/s)
    assert lib.drives == 5
    # T0 -> T1 all year: 100 MB/s x 365.25 x 86,400 s = 3,155.76 TB a year
    assert lib.over_years.archive.written_tb[1] == pytest.approx(
        library_years.cern_example_writes_tb_per_year()
    )
    # five years on 18 TB cartridges: ceil(15,778.8 / 18) = 877, in one basic SL8500 (1,448 slots less 5 free)
    assert lib.over_years.archive.cartridges[-1] == 877 and list(lib.over_years.years.units) == [1] * 6
    assert lib.over_years.usable_slots()[-1] == 1448 - 5


def test_vtsmodel_plan_prints_the_library_per_year_and_what_binds(capsys):
    code, out, err = run(capsys, "plan", str(ARCHIVE))
    assert code == 0 and err == ""
    lib = evaluate(load_plan(ARCHIVE)).library
    y = lib.over_years
    assert "a tape library alone (no VTS B18)" in out and lib.headline() in out
    assert "Oracle StorageTek SL8500" in out and "what binds: cartridge slots" in out
    table = out.split("\n\n")[1].splitlines()
    head = table[0].split()
    assert head[:2] == ["year", "stored"] and "modules" in head and "drives" in head and "robots" in head
    for row, year in zip(table[2:], y.rows(), strict=True):
        cells = row.split()
        # year, stored, cartridges, in the library, modules, drives, robots, mounts per hour, binds
        assert int(cells[0]) == year["year"] and int(cells[2]) == year["cartridges"]
        assert (
            int(cells[4]) == year["modules"]
            and int(cells[5]) == year["drives"]
            and int(cells[6]) == year["robots"]
        )
        assert " ".join(cells[8:]) == year["binds"]
    assert "Margins in year 5:" in out and "cartridges in the library" in out
    # the margins' counts keep every digit (1,448 slots less one per drive), the rates 3 digits
    margins = out.split("Margins in year 5:")[1].splitlines()
    assert "877  1,443   slots     566  yes" in margins[3] and "74.3    320     1/h     246" in margins[5]


def test_a_library_that_misses_a_margin_exits_3(capsys, tmp_path):
    # the same flows in one TS4300 (at most 7 modules of 40 slots): 877 cartridges need more than one library
    doc = ARCHIVE.read_text(encoding="utf-8").replace('"library": "SL8500"', '"library": "TS4300"')
    (tmp_path / "small.json").write_text(doc, encoding="utf-8")
    code, out, err = run(capsys, "plan", str(tmp_path / "small.json"))
    assert code == 3 and "misses a margin" in err
    assert "more than one IBM TS4300" in out


def test_vtsmodel_plan_writes_the_archive_report(capsys, tmp_path):
    target = tmp_path / "archive.html"
    code, out, err = run(capsys, "plan", str(ARCHIVE), "--report", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert (
        "<h1>CERN Tier-1 archive, five years on LTO-9</h1>" in text
        and "A tape library alone: the VTS answers are not used" in text
    )
    assert "The library over the years" in text and "What binds in year 5: cartridge slots" in text
    assert 'id="fig-capacity"' in text and "Margins in year 5" in text
    assert "Every configuration" not in text  # no VTS
    margins = text.split("Margins in year 5")[1].split("</table>")[0]
    assert ">1,443<" in margins and ">566<" in margins and ">74.3<" in margins and "74.336" not in margins


def test_the_reports_capacity_figure_is_the_plans_cartridges_and_slots():
    from vtsmodel.app.report import plan_figures

    result = evaluate(load_plan(ARCHIVE))
    fig = plan_figures(result)["capacity"]
    y = result.library.over_years
    bars = fig["data"][0]
    assert bars["type"] == "bar" and list(bars["y"]) == [float(c) for c in y.archive.cartridges_onsite]
    # one dashed line: one basic SL8500 module, 1,448 slots less one free per drive (5)
    (line,) = fig["data"][1:]
    assert line["y"] == [1443.0, 1443.0] and line["name"] == "1 module: 1,443 slots, holds every year"
    assert set(plan_figures(result)) == {"capacity"}  # a library alone: no VTS figures


def test_the_reports_empty_answers_say_what_they_then_are(tmp_path):
    from vtsmodel.app.report import write_report

    text = Path(write_report(evaluate(load_plan(ARCHIVE)), tmp_path / "r.html")).read_text(encoding="utf-8")
    answers = text.split("<h3>The answers</h3>")[1].split("</table>")[0]
    row = answers.split("price of a drive")[1].split("</tr>")[0]
    assert "not given" in row and "derived" not in row and "empty: not shown" in row  # no price: no cost
    row = answers.split(">robots<")[1].split("</tr>")[0]
    assert "derived" in row and "empty: as many as the mounts need" in row
