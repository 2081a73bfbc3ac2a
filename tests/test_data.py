"""The data package: every table loads and is cited; malformed files give located errors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from source_quotes import SourceQuotes

import vtsmodel
import vtsmodel._tables as tables_mod
from vtsmodel import data

ROOT = Path(__file__).resolve().parents[1]
ALL = data.tables()


@pytest.fixture(scope="module")
def quotes() -> SourceQuotes:
    """Whether a quote is verbatim in its founding source (the texts where present, else their fingerprints)."""
    return SourceQuotes()


def test_every_table_loads_and_validates():
    assert data.check() == []
    assert len(ALL) >= 14
    for name in ALL:
        assert len(data.load(name)) > 0


@pytest.mark.parametrize("name", ALL)
def test_every_row_is_cited(name):
    t = data.load(name)
    known = set(data.sources())
    for r in t.records():
        assert r["source"] in known
        assert r["locator"].strip(), r["id"]
        if r["kind"] in ("table", "text", "equation"):
            assert r["printed"].strip(), f"{name}:{r['id']} has no printed value"
        if r["kind"] in ("text", "derived"):
            assert r["quote"].strip(), f"{name}:{r['id']} has no sentence"


FOUNDING = set(data.sources("founding"))
SUPPLEMENTARY = data.sources("supplementary")
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip


@pytest.mark.parametrize("name", ALL)
def test_text_rows_quote_their_source_verbatim(name, quotes):
    # The five founding documents' texts or fingerprints (tests/source_quotes.py); supplementary
    # sources have no local copy (their rows' structure is checked below instead).
    t = data.load(name)
    missing = [
        r["id"]
        for r in t.records()
        if r["source"] in FOUNDING
        and r["kind"] in ("text", "derived")
        and not quotes.verbatim(r["source"], r["quote"])
    ]
    assert not missing, f"{name}: quotes not found verbatim in their source: {missing}"


def test_source_groups_five_founding_documents_apart_from_the_supplementary():
    assert len(FOUNDING) == 5
    assert SUPPLEMENTARY and not FOUNDING & set(SUPPLEMENTARY)
    assert {s["group"] for s in data.sources().values()} == {"founding", "supplementary"}
    with pytest.raises(ValueError, match="group='other'"):
        data.sources("other")


def test_supplementary_sources_are_fully_cited():
    # No local copy: the record must name the document (title, publisher, date, URL,
    # date read, what it supplied), and every one must be used by some row.
    assert tables_mod.check_sources() == []
    used = {r["source"] for name in ALL for r in data.load(name).records()}
    for sid, s in SUPPLEMENTARY.items():
        for f in tables_mod.SUPPLEMENTARY_FIELDS:
            assert s[f].strip(), (sid, f)
        assert s["url"].startswith(("http://", "https://")), sid
        assert re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?|undated", s["date"]), sid
        assert s["url"] in s["citation"] and s["title"] in s["citation"], sid
        assert sid in used, f"{sid} supplies no row"


@pytest.mark.parametrize("name", ALL)
def test_supplementary_rows_carry_locator_printed_and_quote(name):
    for r in data.load(name).records():
        if r["source"] in SUPPLEMENTARY:
            assert r["locator"].strip() and r["quote"].strip(), r["id"]
            if r["kind"] != "derived":
                assert r["printed"].strip(), r["id"]


def test_supplementary_citations_read_as_a_reference_list():
    # A proposal's reader gets the URL and the date it was read, as a reference list gives them.
    for sid, s in SUPPLEMENTARY.items():
        day, month, year = s["citation"].rsplit("Accessed ", 1)[1].rstrip(".").split()
        assert f"{year}-{MONTHS.index(month) + 1:02d}-{int(day):02d}" == s["accessed"], sid
        assert "search index" not in s["citation"] and not re.search(r"//[\d.]+[:/]", s["url"]), sid


def test_readme_lists_every_supplementary_source():
    table = [
        line
        for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `")
    ]
    listed = {re.match(r"\| `([^`]+)`", line).group(1): line for line in table}
    for sid, s in SUPPLEMENTARY.items():
        assert sid in listed and f"<{s['url']}>" in listed[sid], (
            f"README.md: {sid} missing or without its URL"
        )


def test_cite_formats_supplementary_sources_like_the_others():
    text = data.cite("drive_catalog")
    assert "[cern-tape-sizing-2005]" in text and "[ibm-dtl-lto-perf] IBM." in text
    assert "https://www.ibm.com/docs/en/dtl/2.12.3?topic=performance-lto-specifications" in text


def test_supplementary_source_problems_are_reported(scratch_data):
    pkg_path = scratch_data / "datapackage.json"
    pkg = json.loads(pkg_path.read_text())
    pkg["supplementarySources"][0]["url"] = "www.example.com"
    pkg["supplementarySources"][1]["date"] = "May 2020"
    pkg["supplementarySources"][2]["name"] = "cern-tape-sizing-2005"
    del pkg["supplementarySources"][3]["supplied"]
    pkg["supplementarySources"][4]["url"] = "http://38.142.81.21:8001/manual/page-88.html"
    pkg["supplementarySources"][5]["citation"] += " (read 2026-11-23 as stored by the project's search index)"
    pkg_path.write_text(json.dumps(pkg))
    problems = "\n".join(tables_mod.check_sources())
    assert "is a bare IP address" in problems
    assert "citation must end with the URL and the access date" in problems
    assert "is not an http(s) address" in problems
    assert "'May 2020' is not YYYY" in problems
    assert "'cern-tape-sizing-2005' is listed more than once" in problems
    assert "field 'supplied' missing or empty" in problems


def test_supplementary_row_without_quote_is_an_error(scratch_data):
    path = scratch_data / "drive_catalog.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    i = next(k for k, line in enumerate(lines) if line.startswith("lto9_native_rate,"))
    import csv as _csv

    rows = list(_csv.reader(lines))
    rows[i][header.index("quote")] = ""
    with path.open("w", encoding="utf-8", newline="") as fh:
        _csv.writer(fh, lineterminator="\n").writerows(rows)
    with pytest.raises(data.DataError, match=f"row {i + 1} .*supplementary source needs the text"):
        data.load("drive_catalog")


@pytest.mark.parametrize("name", ALL)
def test_table_rows_store_the_printed_number(name):
    # A number read from a printed table is kept as printed: no conversion happened.
    t = data.load(name)
    for r in t.records():
        printed = r["printed"].replace(",", "")
        if r["kind"] == "table" and re.fullmatch(r"-?\d+(\.\d+)?", printed):
            assert r["value"] == pytest.approx(float(printed)), r["id"]


def test_units_are_declared():
    for name in ALL:
        assert set(data.load(name)["unit"]) <= data.UNITS


def test_table4_reproduces_the_base_intercepts():
    # ibm-vts-b18-2000, Table 4 with Eq. 3 at CF = 1: Sec. 3.1.1 "between 8 and 10 MB per
    # second" (peak) and Sec. 3.1.2 "between 5.5 and 7 MB per second" (sustained).
    t4 = data.load("vts_ehpo_coefficients")
    sus = [
        t4.value(mode="sustained", coefficient="m", tvc_gb=c)
        + t4.value(mode="sustained", coefficient="b", tvc_gb=c)
        for c in (288, 576, 1152)
    ]
    peak = [
        t4.value(mode="peak", coefficient="m", tvc_gb=c) + t4.value(mode="peak", coefficient="b", tvc_gb=c)
        for c in (288, 576, 1152)
    ]
    assert sus == pytest.approx([5.49, 6.05, 7.05])
    assert peak == pytest.approx([8.00, 9.01, 10.00])


def test_table_api_value_where_provenance():
    t4 = data.load("vts_ehpo_coefficients")
    assert t4.value(mode="sustained", coefficient="m", tvc_gb=1152) == pytest.approx(6.23)
    assert len(t4.where(mode="peak")) == 6
    p = t4.provenance(mode="peak", coefficient="b", tvc_gb=1152)
    assert (p.source, p.locator, p.kind, p.printed) == ("ibm-vts-b18-2000", "Table 4", "table", "-0.54")
    assert "Table 4" in str(p)
    with pytest.raises(KeyError, match="6 rows"):
        t4.value(mode="peak")
    with pytest.raises(KeyError, match="no row"):
        t4.value("nonexistent_id")
    with pytest.raises(KeyError, match="no column"):
        t4["nope"]
    with pytest.raises(ValueError):
        t4["value"][0] = 1.0  # columns are read-only
    assert t4.units["tvc_gb"] == "GB"
    assert isinstance(t4["value"], np.ndarray)


def test_unknown_table_lists_the_known_ones():
    with pytest.raises(KeyError, match="vts_facts"):
        data.load("no_such_table")


def test_cite_tables_sources_and_functions():
    text = vtsmodel.cite("vts_ehpo_coefficients")
    assert text.startswith("[ibm-vts-b18-2000] IBM Corporation.")
    assert "Panzer-Steindel" in vtsmodel.cite("cern-tape-sizing-2005")
    # every source, the five founding documents first, then the supplementary ones
    lines = vtsmodel.cite().splitlines()
    assert len(lines) == len(data.sources()) == 5 + len(data.sources("supplementary"))
    assert lines[4].startswith("[cern-tape-sizing-2005]")

    @data.cites("stk_transfer_rates", "lto_facts")
    def model():
        return 0

    refs = [r["name"] for r in data.references(model)]
    assert refs == ["stk-acs4400-cray", "adsm-l-lto-2003"]
    with pytest.raises(KeyError, match="neither a table nor a source"):
        vtsmodel.cite("nonsense")


def test_catalogue_covers_every_row_and_filters():
    rows = data.catalogue()
    assert len(rows) == sum(len(data.load(t)) for t in ALL)
    hits = data.filter_catalogue(rows, "Table 4")
    assert 12 <= len(hits) < len(rows)
    for r in hits:
        hay = " ".join((r["table"], r["id"], r["locator"], r["printed"], r["quote"], r["note"])).lower()
        assert "table" in hay and "4" in hay
    assert all(
        r["source"] == "adsm-l-lto-2003" for r in data.filter_catalogue(rows, source="adsm-l-lto-2003")
    )


# --- malformed files -------------------------------------------------------------------


@pytest.fixture
def scratch_data(tmp_path, monkeypatch):
    """A copy of data/ that the loader reads instead of the real one."""
    copy = tmp_path / "data"
    shutil.copytree(data.data_dir(), copy)
    monkeypatch.setattr(tables_mod, "data_dir", lambda: copy)
    _clear_caches()
    yield copy
    _clear_caches()


def _clear_caches():
    tables_mod._package.cache_clear()
    tables_mod.load.cache_clear()
    tables_mod._ledger.cache_clear()


def _edit_csv(path: Path, line_no: int, old: str, new: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert old in lines[line_no - 1], lines[line_no - 1]
    lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    path.write_text("".join(lines), encoding="utf-8")


def test_bad_number_names_file_row_and_field(scratch_data):
    path = scratch_data / "vts_read_rates.csv"
    _edit_csv(path, 3, ",64,MB/s", ",sixty-four,MB/s")
    with pytest.raises(
        data.DataError,
        match=r"vts_read_rates\.csv, row 3 \(id '.*'\), field 'value': 'sixty-four' is not a number",
    ):
        data.load("vts_read_rates")


def test_duplicate_id_is_an_error(scratch_data):
    path = scratch_data / "vts_read_rates.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines + [lines[1]]))
    with pytest.raises(data.DataError, match="duplicate id"):
        data.load("vts_read_rates")


def test_unknown_source_and_unit_are_errors(scratch_data):
    path = scratch_data / "vts_read_rates.csv"
    _edit_csv(path, 2, "ibm-vts-b18-2000", "ibm-vts-b99")
    with pytest.raises(data.DataError, match=r"row 2 .*field 'source': 'ibm-vts-b99' is not one of"):
        data.load("vts_read_rates")
    tables_mod.load.cache_clear()
    _edit_csv(path, 2, "ibm-vts-b99", "ibm-vts-b18-2000")
    _edit_csv(path, 2, ",MB/s,", ",furlongs,")
    with pytest.raises(data.DataError, match="unknown unit 'furlongs'"):
        data.load("vts_read_rates")


def test_enum_header_and_field_count_errors(scratch_data):
    path = scratch_data / "vts_read_rates.csv"
    original = path.read_text()
    _edit_csv(path, 2, ",hit,", ",hits,")
    with pytest.raises(data.DataError, match="field 'operation': 'hits' is not one of hit, recall"):
        data.load("vts_read_rates")
    tables_mod.load.cache_clear()
    path.write_text(original.replace("operation", "op", 1))
    with pytest.raises(data.DataError, match=r"row 1 \(header\)"):
        data.load("vts_read_rates")
    tables_mod.load.cache_clear()
    lines = original.splitlines(keepends=True)
    path.write_text(lines[0] + "extra,field\n")
    with pytest.raises(data.DataError, match="row 2 .*2 fields, expected"):
        data.load("vts_read_rates")


def test_text_row_without_its_sentence_is_an_error(scratch_data):
    import csv
    import io

    path = scratch_data / "lto_facts.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    header = rows[0]
    i = next(k for k, r in enumerate(rows[1:], start=1) if r[header.index("kind")] == "text")
    rows[i][header.index("quote")] = ""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    with pytest.raises(data.DataError, match=f"row {i + 1} .*field 'quote': a text row needs its sentence"):
        data.load("lto_facts")


def test_broken_datapackage_json_is_a_located_error(scratch_data):
    (scratch_data / "datapackage.json").write_text('{"resources": [')
    with pytest.raises(data.DataError, match="datapackage.json: not valid JSON"):
        data.tables()


def test_missing_csv_is_a_located_error(scratch_data):
    (scratch_data / "lto_facts.csv").unlink()
    with pytest.raises(data.DataError, match="lto_facts.csv: file not found"):
        data.load("lto_facts")
    assert any("lto_facts.csv" in p for p in data.check())


def test_every_resource_in_the_package_has_a_file():
    pkg = json.loads((data.data_dir() / "datapackage.json").read_text())
    listed = {r["path"] for r in pkg["resources"]}
    on_disk = {p.name for p in data.data_dir().glob("*.csv")}
    assert listed == on_disk


# --- the statement ledger ----------------------------------------------------------------


def test_ledger_is_not_a_data_table():
    assert "statements" not in data.tables()
    with pytest.raises(KeyError, match="statement ledger"):
        data.load("statements")


def test_statements_filter_by_status_source_and_text():
    rows = data.statements()
    assert len(rows) > 150
    assert {r["status"] for r in rows} <= set(data.STATUSES)
    cern = data.statements(source="cern-tape-sizing-2005")
    assert cern and all(r["source"] == "cern-tape-sizing-2005" for r in cern)
    both = data.statements(status=["contradicted", "source-inconsistent"])
    assert both and {r["status"] for r in both} <= {"contradicted", "source-inconsistent"}
    assert [r["id"] for r in data.statements(text="Number of needed tape drives")] == ["cern_sizing_50"]
    r = next(r for r in rows if r["id"] == "cern_sizing_50")
    assert isinstance(r["data_rows"], tuple) and "cern_sizing_example:drives_needed_total" in r["data_rows"]
    assert r["expected"] == 50.0 and isinstance(r["tolerance"], float)
    with pytest.raises(ValueError, match="status='proven' is not valid"):
        data.statements(status="proven")
    with pytest.raises(ValueError, match="source='nature' is not valid"):
        data.statements(source="nature")


def test_statement_status_of_a_data_row():
    assert data.statement_status("cern_sizing_example:drives_needed_total") == "by-construction"
    assert data.statement_status("vts_facts:ehpo_sustained_cf3_max_tvc") == "reproduced"
    assert data.statement_status("vts_ehpo_coefficients:sustained_m_288") == "calibrated"
    assert data.statement_status("vts_facts:escon2_saturated_write") == "contradicted"
    # Linked by a calibrated and a source-inconsistent statement: the more cautious wins.
    ids = {r["status"] for r in data.statements_for("vts_facts:paf_sustained_cf1")}
    assert ids == {"calibrated", "source-inconsistent"}
    assert data.statement_status("vts_facts:paf_sustained_cf1") == "source-inconsistent"
    with pytest.raises(KeyError, match="table:id"):
        data.statement_status("paf_sustained_cf1")
    with pytest.raises(KeyError, match="no row"):
        data.statement_status("vts_facts:no_such_row")


def test_statement_counts_add_up():
    counts = data.statement_counts()
    assert set(counts) == set(data.sources("founding"))
    assert sum(sum(c.values()) for c in counts.values()) == len(data.statements())


def test_statements_cli_prints_counts(capsys):
    assert data._main(["statements"]) == 0
    out = capsys.readouterr().out
    assert "reproduced" in out and "source-inconsistent" in out
    total = out.splitlines()[-1].split()
    assert total[0] == "total" and int(total[-1]) == len(data.statements())
    assert data._main(["statements", "--status", "contradicted"]) == 0
    assert "vts_two_escon_16" in capsys.readouterr().out
    assert data._main(["check"]) == 0
    assert "statements: all valid" in capsys.readouterr().out
    assert data._main(["nonsense"]) == 2


def test_malformed_ledger_rows_are_located_errors(scratch_data):
    path = scratch_data / "statements.csv"
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace(",reproduced,", ",proven,", 1), encoding="utf-8")
    with pytest.raises(
        data.DataError, match=r"statements\.csv, row \d+ .*field 'status': 'proven' is not one of"
    ):
        data.statements()
    _clear_caches()
    path.write_text(original.replace("cern_sizing_example:drives_needed_total", "cern_sizing_example:nope"),
                    encoding="utf-8")  # fmt: skip
    with pytest.raises(data.DataError, match="field 'data_rows': no data row 'cern_sizing_example:nope'"):
        data.statements()
    assert any("statements.csv" in p for p in data.check())


# --- what the data check missed before ---------------------------------------------------------------
def _row_of(path: Path, row_id: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith(row_id + ","):
            return n
    raise AssertionError(row_id)


def test_a_locator_of_only_whitespace_is_an_error(scratch_data):
    path = scratch_data / "vts_facts.csv"
    n = _row_of(path, "search_time_avg")
    _edit_csv(path, n, ",Sec. 7,", ",   ,")
    with pytest.raises(
        data.DataError,
        match=r"vts_facts\.csv, row \d+ \(id 'search_time_avg'\), field 'locator': only whitespace",
    ):
        data.load("vts_facts")


@pytest.mark.parametrize("written", ["2_1", " 21", "21 ", "inf", "nan", "0x15", "2,1"])
def test_a_number_must_be_written_plainly(scratch_data, written):
    # Before: float() took "2_1" as 21 (and " 21", "inf", "nan" reached other checks).
    path = scratch_data / "vts_facts.csv"
    n = _row_of(path, "search_time_avg")
    cell = f'"{written}"' if "," in written else written
    _edit_csv(path, n, ",21,s,", f",{cell},s,")
    with pytest.raises(data.DataError, match=r"row \d+ \(id 'search_time_avg'\), field 'value': .* is not"):
        data.load("vts_facts")


def test_ids_that_differ_only_in_case_are_an_error(scratch_data):
    path = scratch_data / "vts_read_rates.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(
        "".join(lines + [lines[1].replace(lines[1].split(",")[0], lines[1].split(",")[0].upper(), 1)])
    )
    with pytest.raises(data.DataError, match=r"field 'id': id '.*' differs only in case from"):
        data.load("vts_read_rates")


@pytest.mark.parametrize(
    ("table", "row_id", "old", "new", "match"),
    [
        # Before: a -21 s search time loaded, then surfaced as the user's error,
        # "search_s=-21.0 is outside ...".
        ("vts_facts", "search_time_avg", ",21,s,", ",-21,s,", r"field 'value': -21 is below the minimum 0"),
        (
            "cern_facts",
            "toverhead",
            ",4.4,s,",
            ",0,s,",
            r"field 'value': 0 is not above the exclusive minimum 0",
        ),
        ("vts_read_rates", None, ",2.66,", ",0.5,", r"field 'cf': 0.5 is below the minimum 1"),
    ],
)
def test_quantities_that_cannot_be_negative_or_zero_are_refused(scratch_data, table, row_id, old, new, match):
    path = scratch_data / f"{table}.csv"
    n = (
        _row_of(path, row_id)
        if row_id
        else next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if old in line)
    )
    _edit_csv(path, n, old, new)
    with pytest.raises(data.DataError, match=rf"{table}\.csv, row {n} .*{match}"):
        data.load(table)
