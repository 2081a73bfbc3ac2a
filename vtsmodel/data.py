"""The digitized source data: load a table, read its provenance, cite its sources.

Every number that came from a source document is a row of a CSV table in ``data/``
(shipped inside the wheel as ``vtsmodel/_data``), described by ``datapackage.json``.

>>> from vtsmodel import data
>>> t4 = data.load("vts_ehpo_coefficients")
>>> t4.value(mode="sustained", coefficient="m", tvc_gb=1152)
6.23

Validate every table with ``python -m vtsmodel.data check``.
"""

import sys

from vtsmodel._tables import (
    COMMON_FIELDS,
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
    tables,
)

__all__ = [
    "COMMON_FIELDS",
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
    "load",
    "references",
    "sources",
    "tables",
]


def _main(argv: list[str]) -> int:
    if argv[:1] != ["check"]:
        print("usage: python -m vtsmodel.data check", file=sys.stderr)
        return 2
    problems = check()
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        n = sum(len(load(t)) for t in tables())
        print(f"{len(tables())} tables, {n} rows: all valid")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
