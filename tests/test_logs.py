"""The log reader (vtsmodel.logs): every shape real systems write gives the same MountLog.

Every log here is made by the project (vtsmodel.logs.synthetic, or written inline):
look-alikes of the shapes real systems write, never a copied log.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import json
import lzma
import re
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtsmodel import iter_mount_log, read_mount_log
from vtsmodel import mountlog as ml
from vtsmodel.logs import FORMATS, TIME_FORMS, LogFile, example_log, render_log, synthetic_mount_log
from vtsmodel.logs.synthetic import RENDER_ENCODINGS

DELIMITERS = (",", ";", "\t", "|", None)
COMPRESSIONS = (None, "gzip", "bz2", "xz", "zstd")
ENCODINGS = tuple(RENDER_ENCODINGS)


def _log(n=200, volumes=30, seed=2, whole_seconds=True):
    """A synthetic log with cartridges and durations (times in whole seconds for ctime)."""
    base = synthetic_mount_log(n, volumes, seed=seed, hours=6)
    t = np.round(base.time_s) if whole_seconds else base.time_s
    return ml.mount_log(
        t, base.volume_ids[base.volume], base.size_mb, base.access,
        cartridge=np.char.add("T", (base.volume % 7).astype(str)), duration_s=np.round(base.size_mb / 90, 3),
    )  # fmt: skip


def _same(got, want, *, sizes=True, access=True):
    """got equals want (times counted from each log's first)."""
    np.testing.assert_array_equal(got.time_s - got.time_s[0], want.time_s - want.time_s[0])
    assert got.volume_ids.tolist() == want.volume_ids.tolist()
    np.testing.assert_array_equal(got.volume, want.volume)
    if sizes:
        np.testing.assert_array_equal(got.size_mb, want.size_mb)
    if access:
        np.testing.assert_array_equal(got.access, want.access)
    assert got.cartridge_ids.tolist() == want.cartridge_ids.tolist()
    np.testing.assert_array_equal(got.cartridge, want.cartridge)
    np.testing.assert_array_equal(got.duration_s, want.duration_s)


# --- every shape gives the log the canonical CSV gives ---------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    delimiter=st.sampled_from(DELIMITERS),
    header=st.booleans(),
    form=st.sampled_from(sorted(TIME_FORMS)),
    zone=st.sampled_from([None, 0, 2, -5]),
    size_unit=st.sampled_from(["bytes", "mb", None]),
    access=st.booleans(),
    compression=st.sampled_from(COMPRESSIONS),
    encoding=st.sampled_from(ENCODINGS),
    seed=st.integers(0, 50),
)
def test_every_shape_reads_as_the_canonical_csv(
    delimiter, header, form, zone, size_unit, access, compression, encoding, seed
):
    # Done when: "for random logs written in every supported shape ... the reader returns the
    # same MountLog as from the canonical CSV"
    if form in ("seconds", "epoch_s", "epoch_ms", "epoch_us", "epoch_ns", "ctime", "mdy", "dmy", "excel"):
        zone = None
    several = form in ("ctime", "mdy", "dmy") or (
        form == "month_name" and zone is not None
    )  # fields a time spans
    if form == "epoch_ns" or (delimiter is None and several and header):
        form = "epoch_us"
    log = _log(60, 12, seed)
    want = read_mount_log(ml.mount_log_csv(log))
    data, spec = render_log(
        log, delimiter=delimiter, header=header, time_form=form, zone_hours=zone, size_unit=size_unit,
        access=access, compression=compression, encoding=encoding,
    )  # fmt: skip
    options = {} if header else {"columns": spec}
    if size_unit is None:
        options["object_mb"] = 7.0
    if form == "excel":  # a number: seconds unless named
        options["time_form"] = "excel"
    got = read_mount_log(data, **options)
    _same(got, want, sizes=size_unit is not None, access=access)
    assert got.sizes_given == (size_unit is not None) and got.access_given == access
    if size_unit is None:
        assert (got.size_mb == 7.0).all()
    if not access:
        assert (got.access == ml.READ).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    delimiter=st.sampled_from([",", ";", "\t"]),
    form=st.sampled_from(["iso", "month_name", "excel"]),
    grouped=st.booleans(),
    tail=st.sampled_from(["", "total", "end", "cut"]),
    crlf=st.booleans(),
    chunk_lines=st.sampled_from([1, 3, 16, 100_000]),
    seed=st.integers(0, 50),
)
def test_a_spreadsheets_or_reports_export_reads_as_the_canonical_csv(
    delimiter, form, grouped, tail, crlf, chunk_lines, seed
):
    # Digits grouped in threes, a total or an end line under the table, a last line cut short: the
    # same requests as the canonical CSV, in any chunking, and what was left out said once.
    log = _log(40, 9, seed)
    want = read_mount_log(ml.mount_log_csv(log))
    data, _ = render_log(log, delimiter=delimiter, time_form=form)
    head, *rows = data.decode().splitlines()
    b = next(i for i, name in enumerate(head.split(delimiter)) if name.endswith("bytes"))
    if grouped:  # quoted where a comma is the delimiter, as a spreadsheet writes it
        group = "," if delimiter == "," else "\u00a0"
        cells = [r.split(delimiter) for r in rows]
        for c in cells:
            c[b] = f"{int(c[b]):,}".replace(",", group)
            c[b] = f'"{c[b]}"' if delimiter == "," else c[b]
        rows = [delimiter.join(c) for c in cells]
    end = "\r\n" if crlf else "\n"
    text = end.join([head, *rows]) + end
    if tail == "total":
        text += delimiter.join(["Total", "", "1", *[""] * (len(head.split(delimiter)) - 3)]) + end
    elif tail == "end":
        text += end + "End of report" + end
    elif tail == "cut":  # a last request cut short as it was written: no line end
        text += rows[-1].split(delimiter)[0] + delimiter + "V"
    options = {"time_form": "excel"} if form == "excel" else {}
    chunks = list(iter_mount_log(text.encode(), chunk_lines=chunk_lines, **options))
    got = read_mount_log(text.encode(), **options)
    assert sum(len(c.time_s) for c in chunks) == len(want)
    _same(got, want)
    assert sum("after the last request left out" in n for n in got.notes) == (tail != "")


@settings(max_examples=30, deadline=None)
@given(
    delimiter=st.sampled_from(DELIMITERS),
    header=st.booleans(),
    form=st.sampled_from(["seconds", "epoch_ms", "iso", "iso_basic"]),
    bad_row=st.integers(0, 39),
    what=st.sampled_from(["time", "size"]),
)
def test_a_bad_value_is_named_by_its_line(delimiter, header, form, bad_row, what):
    log = _log(40, 8, 1)
    data, spec = render_log(log, delimiter=delimiter, header=header, time_form=form, compression=None)
    lines = data.decode().splitlines()
    k = bad_row + (1 if header else 0)
    sep = delimiter or "  "
    cells = lines[k].split(sep)
    cells[0 if what == "time" else 2] = "oops"
    lines[k] = sep.join(cells)
    options = {} if header else {"columns": spec}
    with pytest.raises(ValueError, match=rf"line {k + 1}: .*'oops'"):
        read_mount_log("\n".join(lines) + "\n", **options)


# --- compression --------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["gzip", "bz2", "xz", "zstd"])
def test_compression_is_known_by_its_first_bytes_not_its_name(how, tmp_path):
    log = _log(50, 9, 3)
    data, _ = render_log(log, compression=how)
    path = tmp_path / "log.txt"  # no telling suffix
    path.write_bytes(data)
    got = read_mount_log(path)
    _same(got, read_mount_log(ml.mount_log_csv(log)))
    assert f"{how}-compressed" in got.notes[0]


def test_a_damaged_or_archived_file_is_named(tmp_path):
    text = ml.mount_log_csv(_log(400, 20, 4)).encode()
    broken = gzip.compress(text)[:-200]
    with pytest.raises(ValueError, match="log.gz: is not a valid gzip stream"):
        (tmp_path / "log.gz").write_bytes(broken)
        read_mount_log(tmp_path / "log.gz")
    with pytest.raises(ValueError, match="is a zip archive, not a log; unpack"):
        read_mount_log(b"PK\x03\x04" + b"\0" * 40)


class _CountingRaw(io.RawIOBase):
    """A binary stream that counts the bytes taken from it."""

    def __init__(self, data: bytes):
        self.data = io.BytesIO(data)
        self.taken = 0

    def readable(self):
        return True

    def readinto(self, b):
        k = self.data.readinto(b)
        self.taken += k
        return k


_FAST = {
    "gzip": lambda b: gzip.compress(b, compresslevel=1),
    "bz2": lambda b: bz2.compress(b, compresslevel=1),  # 100 kB blocks
    "xz": lambda b: lzma.compress(b, preset=0),
}


@pytest.mark.parametrize("how", sorted(_FAST))
def test_a_compressed_log_is_streamed_not_unpacked_whole(how):
    text = "time_s,volume,bytes\n" + "".join(f"{i},V{i * 7919 % 100003},{i % 9973}\n" for i in range(400_000))
    packed = _FAST[how](text.encode())
    raw = _CountingRaw(packed)
    chunks = ml.iter_mount_log(raw, chunk_lines=1000)
    assert len(next(chunks)) == 1000
    assert raw.taken < len(packed) / 3  # what the first 1 MB block of text needs, not the whole
    assert sum(len(c) for c in chunks) == 399_000


def test_bytes_that_are_not_utf8_are_named_by_line_and_byte_even_compressed():
    text = b"time_s,volume,bytes\n0,A,1\n1,B\xff,2\n"
    with pytest.raises(ValueError, match=r"line 3, byte 4 of the line \(byte 30 of the decompressed text\)"):
        read_mount_log(gzip.compress(text))
    assert read_mount_log(text, encoding="latin-1").volume_ids.tolist() == ["A", "Bÿ"]


# --- wide encodings: UTF-16 and UTF-32 -------------------------------------------------------
def _wide_text(n: int) -> str:
    """A log's text whose ids hold characters of one, two, three and four UTF-8 bytes (a surrogate pair in UTF-16)."""
    names = ["A", "é", "磁带", "\U0001d11e"]
    rows = "".join(
        f"{i},V{i % 97}{names[i % 4]},{1000 + i},{'read' if i % 3 else 'write'}\n" for i in range(n)
    )
    return "time_s,volume,bytes,op\n" + rows


@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if e != "utf-8"])
@pytest.mark.parametrize("compression", [None, "gzip"])
def test_a_log_with_a_byte_order_mark_is_read_in_its_encoding(encoding, compression):
    # What a Windows tool or a spreadsheet's "Unicode text" export writes: UTF-16 with its mark,
    # here tab-separated with CRLF line ends, as such an export is.
    log = _log(80, 9, 4)
    want = read_mount_log(ml.mount_log_csv(log))
    data, _ = render_log(log, delimiter="\t", compression=compression, encoding=encoding)
    if encoding != "utf-8-sig":
        codec, bom = RENDER_ENCODINGS[encoding]
        text = data if compression is None else gzip.decompress(data)
        crlf = bom + text[len(bom) :].decode(codec).replace("\n", "\r\n").encode(codec)
        data = crlf if compression is None else gzip.compress(crlf)
    got = read_mount_log(data)
    _same(got, want)
    codec = RENDER_ENCODINGS[encoding][0]
    said = next(n for n in got.notes if n.startswith("read as"))
    assert (f"{codec.upper()} text" in said) == (codec != "utf-8"), said


def test_a_wide_log_over_many_blocks_reads_as_its_utf8_twin():
    # Over 1 MB a block: characters and line ends fall across the blocks' edges.
    text = _wide_text(60_000)
    assert len(text.encode("utf-16-le")) > 2 * (1 << 20)
    want = read_mount_log(text)
    for codec, bom in (("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                       ("utf-32-le", codecs.BOM_UTF32_LE)):  # fmt: skip
        data = bom + text.encode(codec)
        got = read_mount_log(data)
        assert (
            got.volume_ids.tolist() == want.volume_ids.tolist()
            and got.volume.tolist() == want.volume.tolist()
        )
        np.testing.assert_array_equal(got.time_s, want.time_s)
        np.testing.assert_array_equal(got.size_mb, want.size_mb)
        chunks = list(ml.iter_mount_log(io.BytesIO(data), chunk_lines=7_001))
        assert sum(len(c) for c in chunks) == 60_000


@pytest.mark.parametrize(
    ("codec", "named"),
    [("utf-16-le", "utf-16"), ("utf-16-be", "utf-16"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "utf_16_be"),
     ("utf-32-le", "utf-32"), ("utf-32-be", "utf-32")],
)  # fmt: skip
def test_a_wide_encoding_named_reads_a_log_without_a_mark(codec, named):
    text = _wide_text(50)
    assert (
        read_mount_log(text.encode(codec), encoding=named).volume_ids.tolist()
        == read_mount_log(text).volume_ids.tolist()
    )


def test_a_mark_does_not_override_another_encoding_named():
    # latin-1 named: the bytes of UTF-16's mark are two letters of it, and the file is read as named
    data = "ÿþA;0;5\nB;1;6\n".encode("latin-1")
    got = read_mount_log(data, encoding="latin-1", columns="volume,time_s,bytes")
    assert got.volume_ids.tolist() == ["ÿþA", "B"]
    wide = b"\xff\xfe" + "time_s,volume\n0,A\n".encode("utf-16-le")
    assert read_mount_log(wide, object_mb=1.0).volume_ids.tolist() == [
        "A"
    ]  # UTF-8, the default: the mark decides


def test_a_bad_wide_character_is_named_by_its_line_and_byte():
    # A lone low surrogate on line 50,002 (past the first 1 MB block) of a UTF-16 log.
    text = _wide_text(60_000)
    lines = text.encode("utf-16-le").split("\n".encode("utf-16-le"))
    at = 50_001  # 0-based: line 50,002
    lines[at] = lines[at][:4] + b"\x00\xdc" + lines[at][4:]
    data = codecs.BOM_UTF16_LE + "\n".encode("utf-16-le").join(lines)
    byte = len(codecs.BOM_UTF16_LE) + sum(len(x) + 2 for x in lines[:at]) + 4 + 1
    with pytest.raises(ValueError, match=r"line 50,002|line 50002") as caught:
        read_mount_log(data)
    assert f"line {at + 1} (byte {byte:,} of the file): is not utf-16-le text" in str(caught.value)


def test_a_stream_given_in_a_wide_encoding_stays_open():
    f = io.BytesIO(_wide_text(20).encode("utf-16"))
    assert len(read_mount_log(f)) == 20 and not f.closed


def test_render_log_refuses_an_encoding_it_does_not_write():
    with pytest.raises(ValueError, match="encoding='latin-1' is not valid; choose one of utf-8"):
        render_log(_log(5, 2, 1), encoding="latin-1")


# --- JSON Lines ---------------------------------------------------------------------------------
def _json_lines(log, **render) -> str:
    """The log as JSON Lines, an object a line as a monitoring tool exports it: numbers as numbers, keys reordered."""
    text, _ = render_log(log, delimiter=";", time_form="iso", zone_hours=0, **render)
    head, *rows = text.decode().splitlines()
    keys = head.split(";")
    out = []
    for i, row in enumerate(rows):
        obj = {}
        for k, v in zip(keys, row.split(";"), strict=True):
            obj[k] = v if k in ("timestamp", "volume", "op", "tape") else json.loads(v)
        if i % 2:  # another order of the keys, and one the log does not use
            obj = {"host": "lib-1", **dict(reversed(list(obj.items())))}
        out.append(json.dumps(obj))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("compression", "encoding"), [(None, "utf-8"), ("gzip", "utf-8"), (None, "utf-16")])
def test_json_lines_read_as_the_canonical_csv(compression, encoding):
    log = _log(120, 13, 7)
    want = read_mount_log(ml.mount_log_csv(log))
    data = _json_lines(log).encode(RENDER_ENCODINGS[encoding][0])
    data = RENDER_ENCODINGS[encoding][1] + data
    if compression:
        data = gzip.compress(data)
    got = read_mount_log(data)
    _same(got, want)
    assert got.notes[0].startswith("read as JSON Lines (an object a line)")
    assert "keys the first object has not, not read: host" in got.notes
    assert sum(len(c) for c in ml.iter_mount_log(data, chunk_lines=17)) == len(want)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("{not json}", "line 4: is not a JSON object"),
        ("[1, 2]", "line 4: is list JSON, not an object"),
        (
            '{"timestamp": "2026-01-05T00:00:09Z", "volume": ["V1"], "bytes": 1}',
            'line 4: volume=\\["V1"\\] is not one value',
        ),
        (
            '{"timestamp": "2026-01-05T00:00:09Z", "volume": "V1", "bytes": "lots"}',
            "line 4: bytes='lots' is not a number",
        ),
    ],
)
def test_a_bad_json_line_is_named(bad, words):
    good = [
        f'{{"timestamp": "2026-01-05T00:00:0{i}Z", "volume": "V{i}", "bytes": {i + 1}}}' for i in range(2)
    ]
    text = "# an export\n" + "\n".join(good) + "\n" + bad + "\n"
    with pytest.raises(ValueError, match=words):
        read_mount_log(text)
    assert len(read_mount_log("# an export\n" + "\n".join(good) + "\n")) == 2
    # a value is taken as the JSON gives it: a quote it begins with, a line end it holds (no CSV rules)
    odd = [g.replace('"V1"', '"\\"V1\\""').replace("}", ', "msg": "two\\nlines"}') for g in good]
    assert read_mount_log("\n".join(odd) + "\n").volume_ids.tolist() == ["V0", '"V1"']
    # an object or a list under a key the log does not use is no matter
    tagged = [g[:-1] + ', "tags": {"site": [1, 2]}}' for g in good]
    assert read_mount_log("\n".join(tagged) + "\n").volume_ids.tolist() == ["V0", "V1"]
    with pytest.raises(ValueError, match="line 1: the first object names nothing"):
        read_mount_log("{}\n" + good[0] + "\n")


# --- logs joined end to end, files cut short --------------------------------------------------
@pytest.mark.parametrize("chunk_lines", [1, 7, 100_000])
def test_logs_joined_end_to_end_read_as_one(chunk_lines):
    # Daily exports, each with its header, joined with cat: the second saved with CRLF and a
    # byte-order mark, as a spreadsheet saves it.
    log = _log(90, 11, 5)
    whole, _ = render_log(log, delimiter=";")
    lines = whole.decode().splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    second = "\ufeff" + "".join(rows[30:60]).replace("\n", "\r\n")
    joined = (
        head
        + "".join(rows[:30])
        + "\ufeff"
        + head.replace("\n", "\r\n")
        + second[1:]
        + head
        + "".join(rows[60:])
    )
    want = read_mount_log(whole)
    got = read_mount_log(joined, chunk_lines=chunk_lines)
    _same(got, want)
    assert "the header line again on 2 lines (logs joined end to end): left out" in got.notes
    assert sum(len(c) for c in ml.iter_mount_log(joined, chunk_lines=chunk_lines)) == len(want)


def test_a_reports_title_over_its_header_is_left_out_and_said():
    # A report export: a title and a date over the table's header, then the rows.
    rows = "time,tape,bytes\n2011-08-19T00:15:58,T1,100\n2011-08-19T00:16:58,T2,200\n2011-08-19T00:17:00,T1,300\n"
    want = read_mount_log(rows)
    got = read_mount_log("Mount report: library LIB1\nGenerated 2011-08-20, 06:00\n\n" + rows)
    _same(got, want)
    assert "2 lines over the header left out (a report's title)" in got.notes
    assert not any("title" in n for n in want.notes)
    # a first line over data with no header is not a title: it stays, and is named
    with pytest.raises(ValueError, match="line 1"):
        read_mount_log("Mount report\n2011-08-19T00:15:58,T1,100\n2011-08-19T00:16:58,T2,200\n")


def test_lines_of_nul_bytes_are_left_out_and_said():
    # A log cut short by a crash, or written ahead by its writer: NUL bytes where lines were to come.
    text = "time_s,volume,bytes\n0,A,1\n" + "\x00" * 40 + "\n1,B,2\n" + "\x00" * 4096
    got = read_mount_log(text)
    assert got.volume_ids.tolist() == ["A", "B"]
    assert "2 lines of NUL bytes alone left out (a file cut short, or written ahead)" in got.notes
    assert not any("NUL" in n for n in read_mount_log("time_s,volume,bytes\n0,A,1\n").notes)
    # NUL bytes beside data are an error naming the line, not data dropped
    with pytest.raises(ValueError, match=r"line 3: .*bytes"):
        read_mount_log("time_s,volume,bytes\n0,A,1\n1,B,2\x00\x00\n")


def test_a_log_without_a_header_keeps_every_line():
    # no header: a line like any other is data, whatever it repeats
    text = "0;A;1\n1;A;1\n0;A;1\n"
    got = read_mount_log(text, columns="time_s,volume,bytes", sort=True)
    assert len(got) == 3 and not any("header line again" in n for n in got.notes)


# --- delimiters, headers, columns -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "delimiter"),
    [
        ("time_s;volume;size_mb\n0;A;1,5\n1;B;2,25\n", ";"),  # decimal commas
        ("time_s\tvolume\tsize_mb\n0\tA\t1.5\n1\tB\t2.25\n", "\t"),
        ("time_s|volume|size_mb\n0|A|1.5\n1|B|2.25\n", "|"),
        ("  time_s   volume size_mb\n0  A   1.5\n 1 B 2.25  \n", None),
    ],
)
def test_the_delimiter_is_detected(text, delimiter):
    log = read_mount_log(text)
    assert log.size_mb.tolist() == [1.5, 2.25] and log.volume_ids.tolist() == ["A", "B"]


def test_an_undetectable_delimiter_is_named():
    with pytest.raises(ValueError, match="cannot tell the delimiter.*delimiter="):
        read_mount_log("abc\ndef\n")


def test_columns_by_position_name_and_a_time_in_two_fields():
    text = "2011-08-19;00:15:58;T1;read;5000\n2011-08-19;00:16:08;T2;write;6000\n"
    log = read_mount_log(text, columns="time=1+2,tape=3,op=4,bytes=5")
    assert log.time_s.tolist() == [0.0, 10.0] and log.start == np.datetime64("2011-08-19T00:15:58")
    assert log.cartridge_ids.tolist() == ["T1", "T2"] and log.volume_ids.tolist() == ["T1", "T2"]
    assert log.access.tolist() == [ml.READ, ml.SCRATCH_WRITE] and log.size_mb.tolist() == [0.005, 0.006]
    by_name = read_mount_log(
        "when,VOLSER,Size (bytes)\n5,A,10\n", columns={"time_s": "when", "volume": "VOLSER", "bytes": 3}
    )
    assert by_name.time_s.tolist() == [5.0] and by_name.size_mb.tolist() == [1e-5]
    with pytest.raises(
        ValueError, match="'cartrige' is not a column vtsmodel knows; did you mean 'cartridge'"
    ):
        read_mount_log(text, columns="time=1+2,cartrige=3")
    with pytest.raises(ValueError, match="columns name field 9, but the line has 5"):
        read_mount_log(text, columns="time=1+2,tape=9", object_mb=1)


def test_aliases_in_a_header_and_what_is_not_used_is_said():
    text = "Timestamp,Tape,File Path,Bytes,Operation,Host\n2026-03-01T08:00:00Z,T1,/a/b,10,GET,h1\n"
    log = read_mount_log(text)
    assert log.volume_ids.tolist() == ["/a/b"] and log.cartridge_ids.tolist() == ["T1"]
    assert log.access.tolist() == [ml.READ] and log.start == np.datetime64("2026-03-01T08:00:00")
    assert any("columns not used: Host" in n for n in log.notes)


def test_quoted_fields_may_hold_delimiters_quotes_and_line_ends():
    text = 'time_s,volume,bytes\n0,"a,b",1\n1,"say ""hi""",2\n2,"two\nlines",3\n3,d,4\n'
    log = read_mount_log(text)
    assert log.volume_ids.tolist() == ["a,b", 'say "hi"', "two\nlines", "d"]
    assert log.line.tolist() == [2, 3, 4, 6]
    with pytest.raises(ValueError, match="line 2: a quoted field is not closed"):
        read_mount_log('time_s,volume,bytes\n0,"open,1\n')


def test_ids_up_to_4096_characters():
    path = "/" + "d/" * 2046 + "f"  # 4,094 characters
    log = read_mount_log(f"time_s,path,bytes\n0,{path},1\n1,{path}x,1\n")
    assert log.volume_ids.tolist() == [path, path + "x"] and log.volume_ids.dtype == object
    with pytest.raises(ValueError, match="line 2: path='.*' must be 1 to 4,096 characters"):
        read_mount_log(f"time_s,path,bytes\n0,{'p' * 4097},1\n")


# --- times ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("values", "seconds", "start"),
    [
        (["1314000000", "1314000001.5"], [0, 1.5], "2011-08-22T08:00:00"),
        (["1314000000000", "1314000001500"], [0, 1.5], "2011-08-22T08:00:00"),
        (["1314000000000000", "1314000001500000"], [0, 1.5], "2011-08-22T08:00:00"),
        (["1314000000000000000", "1314000001500000000"], [0, 1.5], "2011-08-22T08:00:00"),
        (["12.5", "14"], [12.5, 14], None),
        (["2011-08-19T00:15:58", "2011-08-19 00:16:00.25"], [0, 2.25], "2011-08-19T00:15:58"),
        (["2011-08-19T02:15:58+02:00", "2011-08-19T00:16:00Z"], [0, 2], "2011-08-19T00:15:58"),
        (["2011/08/19 00:15:58", "2011-08-18T19:16:00-0500"], [0, 2], "2011-08-19T00:15:58"),
        (["20110819T001558", "20110819T021600+02"], [0, 2], "2011-08-19T00:15:58"),
        (["20110819T001558.5Z", "20110819T001600"], [0, 1.5], "2011-08-19T00:15:58.5"),
        (["Fri Aug 19 00:15:58 2011", "Fri Aug 19 00:16:00 2011"], [0, 2], "2011-08-19T00:15:58"),
        # a zone named UTC or GMT (date -u), an offset after a space (%Y-%m-%d %H:%M:%S %z), PostgreSQL's +00
        (["2011-08-19 00:15:58 UTC", "2011-08-19 00:16:00 GMT", "2011-08-19T00:16:01UTC"], [0, 2, 3],
         "2011-08-19T00:15:58"),
        (["2011-08-19 02:15:58 +0200", "2011-08-18 19:16:00 -05:00", "2011-08-19 00:16:01.5+00"], [0, 2, 3.5],
         "2011-08-19T00:15:58"),
        # US-English tools: month first, a 12-hour clock (12 AM is midnight, 12 PM noon)
        (["8/19/2011 12:15:58 AM", "8/19/2011 12:00:00 PM", "08/19/2011 1:00:00.5 pm"], [0, 42242, 45842.5],
         "2011-08-19T00:15:58"),
        (["08/09/2011 00:15:58", "08/13/2011 00:15:58"], [0, 4 * 86400], "2011-08-09T00:15:58"),  # 13: a day
        # European tools: day first, dots or slashes, a decimal comma
        (["19.08.2011 00:15:58", "19.08.2011 00:16:00,25"], [0, 2.25], "2011-08-19T00:15:58"),
        (["09/08/2011 00:15", "13/08/2011 00:15"], [0, 4 * 86400], "2011-08-09T00:15:00"),  # 13: a day
        # a month by its name: web servers (brackets, a colon after the year, an offset), databases, Java, RFC 2822
        (["19/Aug/2011:02:15:58 +0200", "[19/Aug/2011:00:16:00 +0000]"], [0, 2], "2011-08-19T00:15:58"),
        (["19-Aug-2011 00:15:58", "19-AUG-2011 00:16:00.5"], [0, 2.5], "2011-08-19T00:15:58"),
        (["Aug 19, 2011 12:15:58 AM", "August 19, 2011 12:00:00 PM"], [0, 42242], "2011-08-19T00:15:58"),
        (["Fri, 19 Aug 2011 00:15:58 GMT", "Saturday, 20 Aug 2011 00:15:58 Z"], [0, 86400], "2011-08-19T00:15:58"),
        (["19 Sept 2011 10:00", "1 Oct 2011 10:00:00,25"], [0, 12 * 86400 + 0.25], "2011-09-19T10:00:00"),
        # Oracle's default: a year of two digits, dots in the time, nine decimals (to the microsecond)
        (["19-AUG-11 12.15.58.000000000 AM", "19-AUG-11 12.15.59.123456789 PM"], [0, 43201.123456],
         "2011-08-19T00:15:58"),
        (["31-DEC-69 23:59:59", "01-JAN-68 00:00:00"], [0, 3092601601], "1969-12-31T23:59:59"),
    ],
)  # fmt: skip
def test_time_forms(values, seconds, start):
    delimiter = ";"
    text = "".join(f"{v}{delimiter}A{delimiter}1\n" for v in values)
    log = read_mount_log(text, columns="time,volume,bytes")
    assert log.time_s.tolist() == seconds
    assert log.start == (None if start is None else np.datetime64(start))


def test_a_time_form_can_be_named_and_a_bad_time_names_it():
    log = read_mount_log("5,A,1\n6,B,1\n", columns="time,volume,bytes", time_form="epoch_s")
    assert log.start == np.datetime64("1970-01-01T00:00:05")
    with pytest.raises(
        ValueError, match=r"line 2: time='2011-13-01T00:00:00' is not a valid date and time; .*iso"
    ):
        read_mount_log("2011-08-19T00:00:00,A,1\n2011-13-01T00:00:00,A,1\n", columns="time,volume,bytes")
    with pytest.raises(ValueError, match="time='soon' is not a time vtsmodel reads"):
        read_mount_log("soon,A,1\n", columns="time,volume,bytes")


@pytest.mark.parametrize(
    ("values", "sliced"),
    [
        (["19/Aug/2011:00:15:58 +0200", "01/Sep/2011:23:59:59 -0500", "31/Dec/2011:12:00:00 +0000"], True),
        (["[19/Aug/2011:00:15:58 +0200]", "[19/aug/2011:00:16:00 +0200]"], True),
        (["19-AUG-11 00.15.58.123456789", "20-SEP-69 10.15.58.000000001"], True),
        (["Aug 19, 2011 00:15:58", "Sep 09, 2011 23:15:58"], True),
        (["19 Aug 2011 00:15", "20 Sep 2011 10:15"], True),
        (["19-AUG-11 12.15.58.000000 AM", "19-AUG-11 12.15.58.000000 PM"], False),  # a 12-hour clock
        (["Fri, 19 Aug 2011 00:15:58 GMT", "Sat, 20 Aug 2011 00:15:58 GMT"], False),  # weekdays differ
        (["19 Sept 2011 10:00", "19 Oct 2011 10:00"], False),  # a month of four letters
        (["19/Aug/2011:00:15:58", "19/Aug/2011:00:15:58.5"], False),  # widths differ
    ],
)  # fmt: skip
def test_times_of_one_width_read_by_slices_give_what_value_by_value_gives(values, sliced):
    from vtsmodel.logs import _times

    each = [_times._named_month_to_iso(v, i) for i, v in enumerate(values)]
    block = _times._named_month_block(values)
    assert (block is not None) == sliced and block in (None, each)


def test_a_bad_time_among_times_of_one_width_is_named_by_its_line():
    good = "".join(f"19/Aug/2011:00:15:{s:02d} +0200,V{s},1\n" for s in range(5))
    for bad, why in (("19/Aug/2011:00:15:5x +0200", "is not a time of the log's form"),
                     ("19/Foo/2011:00:15:58 +0200", "is not a time of the log's form"),
                     ("19/Aug/2011:00:15:58 +2500", "has a zone that is not"),
                     ("31/Feb/2011:00:15:58 +0200", "is not a valid date and time")):  # fmt: skip
        with pytest.raises(ValueError, match=rf"line 4: time='{re.escape(bad)}' {why}"):
            read_mount_log("time,volume,bytes\n" + good.replace("19/Aug/2011:00:15:02 +0200", bad))


def test_a_word_where_a_time_should_be_is_named_as_no_time_not_as_a_zone():
    # a subtotal ("Total") among ISO times: its letters are no zone
    text = "time,volume,bytes\n2011-08-19 00:15:58,A,1\n2011-08-19 00:16:00,B,2\nTotal,,3\n2011-08-19 00:17:00,B,2\n"
    with pytest.raises(ValueError, match=r"line 4: time='Total' is not a time of the log's form; the log's times "
                       r"are ISO 8601 extended.*\(time_form='iso'\)$"):  # fmt: skip
        read_mount_log(text)
    with pytest.raises(ValueError, match=r"line 3: time='19 Foo 2011 00:16:00' is not a time of the log's form; "
                       r"the log's times are a date with its month's English name"):  # fmt: skip
        read_mount_log("time;tape\n19 Aug 2011 00:15:58;T1\n19 Foo 2011 00:16:00;T2\n", object_mb=1)
    with pytest.raises(
        ValueError, match=r"line 3: time='19/Aug/2011:00:16:00 CEST' has a zone named by letters"
    ):
        read_mount_log("time;tape\n19/Aug/2011:00:15:58 UTC;T1\n19/Aug/2011:00:16:00 CEST;T2\n", object_mb=1)


def test_a_spreadsheets_days_are_read_where_named_and_a_warning_where_they_look_like_seconds():
    # Days since 1899-12-30, as a spreadsheet stores a date and time (40774 is 2011-08-19), to the ms
    text = "time,volume,bytes\n40774.0110879630,A,1\n40774.0112268519,B,2\n40775.25,C,3\n"
    log = read_mount_log(text, time_form="excel")
    assert log.start == np.datetime64("2011-08-19T00:15:58") and log.time_s.tolist() == [0, 12, 86400 + 20642]
    assert "times: a spreadsheet's date and time as a number" in " ".join(log.notes)
    # not named: a number is seconds, and these look like days (10 decimals): a warning and a note
    with pytest.warns(UserWarning, match=r"line 2: times such as '40774.0110879630' were read as seconds .*"
                      r"time_form='excel' \(--time-form excel\)"):  # fmt: skip
        log = read_mount_log(text)
    assert log.start is None and any("may be a spreadsheet's dates" in n for n in log.notes)
    # seconds that do not look like days: no word (fractions of 3 decimals over more than one unit;
    # whole numbers; numbers outside 1970-2100 as days)
    for seconds in (["40000.125", "40002.5"], ["40000", "40001"], ["12.5", "13.5"]):
        body = "".join(f"{t},A,1\n" for t in seconds)
        assert not any("spreadsheet" in n for n in read_mount_log("time,volume,bytes\n" + body).notes)
    # seconds within one unit of each other in the range: the warning, as for days (a second of a
    # tape log holds few requests, a day many)
    with pytest.warns(UserWarning, match="spreadsheet's dates"):
        read_mount_log("time,volume,bytes\n40000.125,A,1\n40000.5,B,1\n")
    with pytest.raises(
        ValueError, match=r"line 3: time='60' is outside the valid range \[61, 2\.95847e\+06\] days"
    ):
        read_mount_log("time,volume,bytes\n40774.5,A,1\n60,B,1\n", time_form="excel")


def test_digits_grouped_in_threes_are_read_and_other_groupings_refused():
    # Spreadsheets write 1,234,567 (a comma-separated export quotes it), 1 234 567 (French, a no-break
    # space), 1'234'567 (Swiss); in a comma-separated log a comma in a number can only group digits.
    text = 'time_s,volume,bytes\n0,A,"1,234,567"\n1,B,"2,000,000.5"\n2,C,7\n'
    assert read_mount_log(text).size_mb.tolist() == [1.234567, 2.0000005, 7e-6]
    text = "time_s;volume;bytes\n0;A;1 234 567\n1;B;1\u00a0000\n2;C;1'234'567,5\n3;D;12,5\n"
    assert read_mount_log(text).size_mb.tolist() == [1.234567, 1e-3, 1.2345675, 1.25e-5]
    # a point between groups (1.234 alone would be a thousand or a fraction), groups not of three
    for bad in ("1.234.567", "1 23 456", "1,234,567"):
        with pytest.raises(ValueError, match=rf"line 2: bytes='{bad}' is not a number"):
            read_mount_log(f"time_s;volume;bytes\n0;A;{bad}\n")


@pytest.mark.parametrize("chunk_lines", [1, 2, 7, 100_000])
@pytest.mark.parametrize(
    ("tail", "said"),
    [
        ("Total,,80000,\n", "1 line after the last request left out (a report's footer, or a line cut short): "
                            "'Total,,80000,'"),
        ("\nEnd of report\n\n", "'End of report'"),  # blank lines around it
        ("Sum,,80000,\r\nRequests,19,,\r\nEnd of report\r\n", "3 lines after the last request"),
        ('Total,,"80,000",,\n', "'Total,,\"80,000\",,'"),  # a field more than the header's
        ("2011-08-19 00:16:19,V00019,10", "'2011-08-19 00:16:19,V00019,10'"),  # a live log copied mid-write
    ],
)  # fmt: skip
def test_lines_under_the_last_request_that_are_no_request_are_left_out_and_said(tail, said, chunk_lines):
    rows = "".join(f"2011-08-19 00:15:{i:02d},V{i % 7:05d},{1000 + i},read\n" for i in range(19))
    text = "time,volume,bytes,access\n" + rows + tail
    got = list(iter_mount_log(text, chunk_lines=chunk_lines))
    assert sum(len(c.time_s) for c in got) == 19
    log = read_mount_log(text)
    assert len(log) == 19 and log.time_s[-1] == 18 and sum(said in n for n in log.notes) == 1


def test_more_than_three_lines_that_are_no_request_or_one_above_a_request_are_errors():
    rows = "".join(f"2011-08-19 00:15:{i:02d},V{i},1,read\n" for i in range(5))
    head = "time,volume,bytes,access\n"
    with pytest.raises(ValueError, match=r"line 7: time='a' is not a time of the log's form"):
        read_mount_log(head + rows + "a,,,\nb,,,\nc,,,\nd,,,\n")
    with pytest.raises(ValueError, match=r"line 4: time='Total' is not a time"):
        lines = rows.splitlines(keepends=True)
        read_mount_log(head + "".join(lines[:2]) + "Total,,1,\n" + "".join(lines[2:]))
    with pytest.raises(ValueError, match=r"line 2: time='Total' is not a time"):  # no request at all
        read_mount_log(head + "Total,,1,\n")
    # a last line that is a request in every way but its value: named, not left out
    with pytest.raises(ValueError, match=r"line 7: bytes='x' is not a number"):
        read_mount_log(head + rows + "2011-08-19 00:15:09,V9,x,read\n")
    # a word in the time, every field given (a request's bad value, not a total); a last line with
    # too few fields that ends as lines do (not cut short): named, not left out
    with pytest.raises(ValueError, match=r"line 7: time='yesterday' is not a time of the log's form"):
        read_mount_log(head + rows + "yesterday,V9,1,read\n")
    with pytest.raises(ValueError, match=r"line 7: 3 fields, but the header \(line 1\) names 4"):
        read_mount_log(head + rows + "2011-08-19 00:16:19,V9,10\n")
    # a field too many, or too few above the last line: named, not left out
    with pytest.raises(ValueError, match=r"line 7: 5 fields, but the header \(line 1\) names 4"):
        read_mount_log(head + rows + "2011-08-19 00:15:09,V9,1,read,x\n")
    with pytest.raises(ValueError, match=r"line 6: 3 fields, but the header \(line 1\) names 4"):
        read_mount_log(
            head + rows[: rows.rindex("\n", 0, -1) + 1] + "2011-08-19 00:15:08,V8,1\n" + "Total,,5,\n"
        )


@pytest.mark.parametrize(
    ("name", "mb"),
    [("Size (KiB)", 1.5 * 1024 / 1e6), ("size_mib", 1.5 * 2**20 / 1e6), ("GiB", 1.5 * 2**30 / 1e6),
     ("tebibytes", 1.5 * 2**40 / 1e6), ("Size [TB]", 1.5e6), ("size_kb", 1.5e-3)],
)  # fmt: skip
def test_a_size_columns_unit_is_read_from_its_name_binary_units_as_powers_of_1024(name, mb):
    # IEC 80000-13: KiB, MiB, GiB, TiB are 2^10, 2^20, 2^30, 2^40 bytes; kB, MB, GB, TB powers of 1,000
    log = read_mount_log(f"time_s,volume,{name}\n0,A,1.5\n1,B,20\n")
    assert log.size_mb[0] == pytest.approx(mb, rel=1e-15) and log.size_mb[1] == pytest.approx(mb / 1.5 * 20)
    unit = {"Size (KiB)": "KiB", "tebibytes": "TiB", "Size [TB]": "TB"}.get(name)
    if unit:
        with pytest.raises(
            ValueError, match=rf"line 2: {re.escape(name)}='-1' is outside the valid range .* {unit}$"
        ):
            read_mount_log(f"time_s,volume,{name}\n0,A,-1\n")


def test_a_delimiter_at_each_lines_end_leaves_a_column_without_a_name_said_so():
    log = read_mount_log("time_s,volume,bytes,\n0,A,1,\n1,B,2,\n")
    assert log.volume_ids.tolist() == ["A", "B"] and "columns not used: field 4 (no name)" in log.notes


def test_a_zone_named_by_letters_other_than_utc_is_refused_with_the_way_out():
    # CEST is one offset, EST two (American, Australian): a name is not read as an offset
    with pytest.raises(ValueError, match=r"line 3: time='2011-08-19 00:16:00 CEST' has a zone named by letters: .*"
                       r"write the offset \(\+02:00\)"):  # fmt: skip
        read_mount_log("time;tape\n2011-08-19 00:15:58 UTC;T1\n2011-08-19 00:16:00 CEST;T2\n", object_mb=1)


def test_a_date_whose_order_no_line_tells_must_be_named():
    # 08/09/2011: 9 August or 8 September. No first line tells (no day over 12, no AM or PM, no dots):
    # the reader does not guess a month, it asks.
    text = "time,volume,bytes\n08/09/2011 00:15:58,A,1\n08/10/2011 13:02:03,B,2\n"
    with pytest.raises(ValueError, match=r"line 2: time='08/09/2011 00:15:58' may be month/day/year or "
                       r"day/month/year.*time_form='mdy' or time_form='dmy'"):  # fmt: skip
        read_mount_log(text)
    us, eu = read_mount_log(text, time_form="mdy"), read_mount_log(text, time_form="dmy")
    assert us.start == np.datetime64("2011-08-09T00:15:58") and us.time_s[1] == 86400 + 45965
    assert eu.start == np.datetime64("2011-09-08T00:15:58") and eu.time_s[1] == 30 * 86400 + 45965
    with pytest.raises(ValueError, match=r"line 2: time='13/13/2011 00:15:58' is not a valid date and time"):
        read_mount_log("time,volume,bytes\n13/13/2011 00:15:58,A,1\n", time_form="mdy")
    with pytest.raises(ValueError, match=r"line 2: time='8/19/2011 13:00:00 PM' has an hour outside 1 to 12"):
        read_mount_log("time,volume,bytes\n8/19/2011 13:00:00 PM,A,1\n")


def test_an_end_column_gives_durations():
    text = "start,end,tape\n2026-01-01T00:00:00,2026-01-01T00:01:30,T1\n2026-01-01T00:00:10,2026-01-01T00:00:40,T2\n"
    log = read_mount_log(text, object_mb=1)
    assert log.duration_s.tolist() == [90.0, 30.0] and log.time_at == "start"
    with pytest.raises(ValueError, match="line 2: end='2025-12-31T00:00:00' is before the start"):
        read_mount_log("start,end,tape\n2026-01-01T00:00:00,2025-12-31T00:00:00,T1\n", object_mb=1)


# --- access kinds ---------------------------------------------------------------------------
def test_access_words_a_map_a_default_and_deletions():
    text = "time_s,volume,bytes,op\n0,A,1,TAKE\n1,B,1,GIVE\n2,A,1,DROP\n3,B,1,PEEK\n4,A,1,Get\n"
    amap = {"TAKE": "read", "GIVE": "scratch_write", "DROP": None, "*": "specific_write"}
    log = read_mount_log(text, access_map=amap)
    assert log.access.tolist() == [ml.READ, ml.SCRATCH_WRITE, ml.SPECIFIC_WRITE, ml.READ]
    assert log.line.tolist() == [2, 3, 5, 6]
    assert any("1 lines left out (deletions)" in n for n in log.notes)
    with pytest.raises(
        ValueError, match=r"line 2: op='TAKE' is not an access kind.*access_map=\{'TAKE': 'read'\}"
    ):
        read_mount_log(text)
    with pytest.raises(ValueError, match=r"access_map\['R'\]='reed' is not valid"):
        LogFile(text, access_map={"R": "reed"})


# --- named formats and their examples ----------------------------------------------------------
def test_xferlog_example():
    text = example_log("xferlog", 8)
    log = read_mount_log(text, format="xferlog")
    assert log.time_at == "end" and log.duration_s is not None and len(log) == 8
    assert log.volume_ids[0].startswith("/archive/") and set(log.access.tolist()) <= {
        ml.READ,
        ml.SCRATCH_WRITE,
    }
    first = text.splitlines()[0].split()
    assert log.size_mb[0] == int(first[7]) / 1e6 and log.duration_s[0] == float(first[5])
    ragged = text.replace(" c\n", "\n", 1)  # wu-ftpd writes no completion status: 17 fields
    assert len(read_mount_log(ragged, format="xferlog")) == 8


def test_tape_requests_example_and_every_format_documented():
    log = read_mount_log(example_log("tape-requests", 10), format="tape-requests", object_mb=18e6)
    assert log.cartridge_ids[0].startswith("T") and not log.sizes_given and not log.access_given
    assert any("each cartridge is one object" in n for n in log.notes)
    for name, fmt in FORMATS.items():
        assert fmt.reference and fmt.notes and fmt.title
        assert len(read_mount_log(example_log(name), format=name, object_mb=1.0)) > 0


def test_bad_options_are_named():
    for kwargs, message in [
        ({"format": "syslog"}, "format='syslog' is not known"),
        ({"delimiter": "ab"}, "delimiter='ab' is not valid"),
        ({"time_form": "julian"}, "time_form='julian' is not known"),
        ({"object_mb": -1}, "object_mb"),
        ({"encoding": "klingon"}, "encoding='klingon'"),
        ({"columns": "time=1,volume"}, "has no '='"),
    ]:
        with pytest.raises(ValueError, match=message):
            LogFile("x\n", **kwargs)


def test_corrupt_deflate_inside_gzip_is_a_value_error():
    good = gzip.compress(b"time_s,volume,bytes\n" + b"0,A,1\n" * 1000)
    bad = good[:20] + bytes(b ^ 0xFF for b in good[20:40]) + good[40:]
    with pytest.raises(ValueError, match="not a valid gzip stream"):
        read_mount_log(bad)
    assert zlib  # the error zlib raises is what becomes the ValueError


# --- the exact curve equals libCacheSim's LRU on every shape (Done when, issue 23) -----------------
@pytest.mark.slow
@pytest.mark.parametrize("delimiter", DELIMITERS)
@pytest.mark.parametrize("compression", COMPRESSIONS)
def test_the_exact_curve_equals_libcachesims_lru_in_every_shape(delimiter, compression):
    pytest.importorskip("libcachesim")
    from vtsmodel import hits

    form = {",": "iso", ";": "iso_basic", "\t": "epoch_ms", "|": "seconds", None: "ctime"}[delimiter]
    base = synthetic_mount_log(600, 80, seed=7, hours=12, resize_on_write=False)
    log = ml.mount_log(np.round(base.time_s), base.volume_ids[base.volume], base.size_mb, base.access)
    data, spec = render_log(log, delimiter=delimiter, header=False, time_form=form, compression=compression)
    got = read_mount_log(data, columns=spec)
    curve = hits.lru_hit_curve(got)
    # 24 capacities from the largest volume (below it the two differ by design: vtsmodel.hits) to all [GB]
    caps = np.geomspace(
        curve.largest_volume_gb, max(2 * curve.working_set_gb, 2 * curve.largest_volume_gb), 24
    )
    theirs = hits.simulate_policy(got, caps, policy="LRU")
    ours = curve.at(caps)
    assert 0 < ours.read_hit_ratio[0] < ours.read_hit_ratio[-1]  # the capacities span the curve
    np.testing.assert_allclose(ours.read_hit_ratio, theirs.read_hit_ratio, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.read_byte_hit_ratio, theirs.read_byte_hit_ratio, rtol=0, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["windows report", "json lines", "us export", "web server", "spreadsheet"])
def test_the_exact_curve_equals_libcachesims_lru_on_logs_as_tools_save_them(shape):
    # The shapes this reader learnt, each against libCacheSim's LRU on the log it read, and the
    # log itself against the same requests written as plain CSV.
    pytest.importorskip("libcachesim")
    from vtsmodel import hits

    base = synthetic_mount_log(600, 80, seed=11, hours=12, resize_on_write=False)
    log = ml.mount_log(np.round(base.time_s), base.volume_ids[base.volume], base.size_mb, base.access)
    want = read_mount_log(ml.mount_log_csv(log))
    if shape == "windows report":  # UTF-16, CRLF, a title, two exports joined, NUL bytes after
        text, _ = render_log(log, delimiter="\t", time_form="iso", zone_hours=1)
        head, *rows = text.decode().splitlines()
        body = "\r\n".join([head, *rows[:300], head, *rows[300:]])
        data = ("Mounts, library LIB1\r\n" + body + "\r\n" + "\x00" * 64).encode("utf-16")
    elif shape == "json lines":
        data = _json_lines(log).encode()
    elif shape == "us export":  # a US-English tool's export: month first, a 12-hour clock, semicolons
        data, _ = render_log(log, delimiter=";", time_form="mdy")
    elif shape == "web server":  # the month by name, a colon after the year, an offset
        data, _ = render_log(log, delimiter="\t", time_form="month_name", zone_hours=2)
    else:  # dates saved as days since 1899-12-30, sizes grouped in threes, a total under the table
        text, _ = render_log(log, delimiter=",", time_form="excel")
        head, *rows = text.decode().splitlines()
        cells = [r.split(",") for r in rows]
        rows = [",".join([t, v, f'"{int(b):,}"', *rest]) for t, v, b, *rest in cells]
        total = sum(int(c[2]) for c in cells)
        data = "\r\n".join([head, *rows, f'Total,,"{total:,}",', ""]).encode("utf-8-sig")
    got = read_mount_log(data, **({"time_form": "excel"} if shape == "spreadsheet" else {}))
    np.testing.assert_array_equal(got.time_s - got.time_s[0], want.time_s - want.time_s[0])
    assert got.volume_ids.tolist() == want.volume_ids.tolist() and got.volume.tolist() == want.volume.tolist()
    np.testing.assert_array_equal(got.size_mb, want.size_mb)
    np.testing.assert_array_equal(got.access, want.access)
    assert (shape == "spreadsheet") == any("a report's footer" in n for n in got.notes)
    curve = hits.lru_hit_curve(got)
    caps = np.geomspace(
        curve.largest_volume_gb, max(2 * curve.working_set_gb, 2 * curve.largest_volume_gb), 24
    )
    theirs, ours = hits.simulate_policy(got, caps, policy="LRU"), curve.at(caps)
    assert 0 < ours.read_hit_ratio[0] < ours.read_hit_ratio[-1]
    np.testing.assert_allclose(ours.read_hit_ratio, theirs.read_hit_ratio, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.read_byte_hit_ratio, theirs.read_byte_hit_ratio, rtol=0, atol=1e-12)
