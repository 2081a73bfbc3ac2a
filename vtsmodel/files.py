"""Files the package writes and reads safely: atomically, regular files only, bounded in size.

The public face of the package's file handling (the rules are in ``vtsmodel._files``):
:func:`atomic_write` (a temporary file, then a rename: a failure never leaves a half-written
file or destroys the previous one), :func:`read_file` and :func:`parse_json_bytes` (regular
files only, at most a given size, errors that name the file), and :func:`example_file` (the
examples shipped with the package); :func:`csv_row` and :func:`csv_text` (CSV that a
spreadsheet opens safely: RFC 4180 quoting, text that would start a formula guarded,
numbers written as they are; the rules are in ``vtsmodel._csv``).
"""

from vtsmodel._csv import csv_row, csv_text
from vtsmodel._files import atomic_write, example_file, parse_json_bytes, read_file

__all__ = ["atomic_write", "csv_row", "csv_text", "example_file", "parse_json_bytes", "read_file"]
