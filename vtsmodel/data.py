"""The digitized source data: load a table, read its provenance, cite its sources.

Every number that came from a source document is a row of a CSV table in ``data/``
(shipped inside the wheel as ``vtsmodel/_data``), described by ``datapackage.json``.

>>> from vtsmodel import data
>>> t4 = data.load("vts_ehpo_coefficients")
>>> t4.value(mode="sustained", coefficient="m", tvc_gb=1152)
6.23

Validate every table with ``python -m vtsmodel.data check``. The statement ledger
(``data/statements.csv``) says, for every checkable statement of the sources, whether a
model reproduces it, takes it as an input (calibrated), disagrees with it, or nothing
models it: :func:`statements`, :func:`statement_status`; its counts with
``python -m vtsmodel.data statements``.
"""

import argparse
import sys

from vtsmodel._tables import (
    COMMON_FIELDS,
    LEDGER,
    STATUSES,
    UNITS,
    DataError,
    Provenance,
    Table,
    catalogue,
    check,
    cite,
    cites,
    data_dir,
    filter_catalogue,
    load,
    references,
    sources,
    statement_counts,
    statement_status,
    statements,
    statements_for,
    tables,
)

__all__ = [
    "COMMON_FIELDS",
    "LEDGER",
    "STATUSES",
    "UNITS",
    "DataError",
    "Provenance",
    "Table",
    "check",
    "catalogue",
    "cite",
    "cites",
    "data_dir",
    "filter_catalogue",
    "format_counts",
    "load",
    "references",
    "sources",
    "statement_counts",
    "statement_status",
    "statements",
    "statements_for",
    "tables",
]


def format_counts(rows: list[dict]) -> str:
    """A plain-text table of ledger rows counted by source (rows) and status (columns)."""
    names = list(sources("founding"))
    width = max(len("source"), *(len(n) for n in names))
    head = f"{'source':<{width}}  " + "  ".join(f"{s:>{max(len(s), 5)}}" for s in STATUSES) + "  total"
    lines = [head, "-" * len(head)]
    for name in [*names, "total"]:
        mine = rows if name == "total" else [r for r in rows if r["source"] == name]
        cells = "  ".join(f"{sum(r['status'] == s for r in mine):>{max(len(s), 5)}}" for s in STATUSES)
        lines.append(f"{name:<{width}}  {cells}  {len(mine):>5}")
    return "\n".join(lines)


def _main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vtsmodel.data")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="validate every table and the statement ledger")
    st = sub.add_parser("statements", help="the statement ledger's counts by status and source")
    st.add_argument("--status", choices=STATUSES, help="list the statements of this status")
    st.add_argument("--source", choices=list(sources("founding")), help="only this source")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command == "statements":
        rows = statements(source=args.source)
        print(f"statement ledger ({LEDGER}.csv): {len(rows)} statements")
        print(format_counts(rows))
        if args.status:
            print()
            for r in statements(status=args.status, source=args.source):
                print(f"{r['id']}  [{r['source']}, {r['locator']}]  {r['claim']}")
        return 0
    problems = check()
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        n = sum(len(load(t)) for t in tables())
        print(f"{len(tables())} tables, {n} rows, {len(statements())} statements: all valid")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
