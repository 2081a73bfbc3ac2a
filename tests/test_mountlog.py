"""Mount logs: the CSV format, validation messages, streaming, time order, the generator."""

from __future__ import annotations

import io
import os
import re
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vtsmodel import mountlog as ml
from vtsmodel.logs import synthetic

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "example_mount_log.csv"
HEADER = "time_s,volume,compressed_mb,access\n"


def _csv(*rows: str, header: str = HEADER) -> str:
    return header + "".join(r + "\n" for r in rows)


# --- the format ------------------------------------------------------------------------------
def test_reads_comments_blank_lines_and_the_size_basis():
    text = "# a comment\n\n" + _csv(
        "0,A,100,scratch_write", "# between", "", "10.5,B,50.25,read", "20,A,120,specific_write"
    )
    log = ml.read_mount_log(text)
    assert len(log) == 3 and log.size_basis == "compressed"
    assert log.time_s.tolist() == [0.0, 10.5, 20.0]
    assert log.volume_ids.tolist() == ["A", "B"] and log.volume.tolist() == [0, 1, 0]
    assert log.size_mb.tolist() == [100.0, 50.25, 120.0]
    assert [ml.ACCESS_TYPES[a] for a in log.access] == ["scratch_write", "read", "specific_write"]
    assert log.line.tolist() == [4, 7, 8]
    assert log.counts() == {"scratch_write": 1, "specific_write": 1, "read": 1}


def test_host_sizes_iso_times_and_any_column_order():
    text = "access,host_mb,volume,time\nread,10,V1,2026-03-01T08:00:00\nread,20,V2,2026-03-01 09:30:00.5\n"
    log = ml.read_mount_log(text)
    assert log.size_basis == "host"
    assert log.time_s.tolist() == [0.0, 5400.5]
    assert log.start == np.datetime64("2026-03-01T08:00:00")


def test_byte_streams_file_objects_and_a_bom_are_accepted(tmp_path):
    raw = ("\ufeff" + _csv("0,A,1,read")).encode()
    assert len(ml.read_mount_log(io.BytesIO(raw))) == 1
    assert len(ml.read_mount_log(io.StringIO(_csv("0,A,1,read")))) == 1
    path = tmp_path / "log.csv"
    path.write_bytes(raw)
    log = ml.read_mount_log(path)
    assert len(log) == 1 and log.source == "log.csv"


def test_windows_line_ends_and_spaces():
    log = ml.read_mount_log(HEADER.replace("\n", "\r\n") + "0, A ,1, read \r\n5,B,2,scratch_write\r\n")
    assert log.volume_ids.tolist() == ["A", "B"] and log.access.tolist() == [2, 0]


def test_a_short_line_and_a_long_line_are_not_paired_up():
    # five and three fields: eight in all, as two good lines would have; still line 3 is named
    with pytest.raises(ValueError, match=r"line 3: 5 fields, but the header \(line 1\) names 4"):
        ml.read_mount_log(_csv("0,A,1,read", "1,B,1,read,x", "2,C,1"))


def test_quoted_fields():
    log = ml.read_mount_log(_csv('0,"A,1",1,read'))
    assert log.volume_ids.tolist() == ["A,1"]


def test_cartridge_and_duration_columns_are_carried():
    text = "time_s,volume,host_mb,access,cartridge,duration_s\n0,A,1,read,T1,90\n5,B,2,read,T2,30.5\n9,C,1,read,T1,0\n"
    log = ml.read_mount_log(text)
    assert log.cartridge_ids.tolist() == ["T1", "T2"] and log.cartridge.tolist() == [0, 1, 0]
    assert log.n_cartridges == 2
    assert log.duration_s.tolist() == [90.0, 30.5, 0.0]
    assert log.sizes_given and log.access_given and log.time_at == "start"
    assert "cartridge=cartridge, duration=duration_s" in log.notes[0]
    first = next(log.chunks(2))
    assert first.cartridge.tolist() == ["T1", "T2"] and first.duration_s.tolist() == [90.0, 30.5]


def test_without_cartridges_or_durations_they_are_none():
    log = ml.read_mount_log(_csv("0,A,1,read"))
    assert log.cartridge is None and log.cartridge_ids is None and log.duration_s is None
    assert log.n_cartridges is None


def test_a_log_without_an_access_column_is_all_reads_and_says_so():
    log = ml.read_mount_log("time_s,volume,host_mb\n0,A,1\n5,B,2\n")
    assert log.access.tolist() == [ml.READ, ml.READ] and not log.access_given
    assert any("no access column" in n for n in log.notes)


def test_a_bad_duration_is_named():
    with pytest.raises(ValueError, match=r"line 3: duration_s='-1'.*\[0, 1e\+08\] s"):
        ml.read_mount_log("time_s,volume,host_mb,access,duration_s\n0,A,1,read,1\n1,A,1,read,-1\n")


def test_sort_keeps_cartridges_and_durations_with_their_rows():
    text = "time_s,volume,host_mb,access,cartridge,duration_s\n10,A,1,read,T1,1\n5,B,1,read,T2,2\n"
    log = ml.read_mount_log(text, sort=True)
    assert log.cartridge_ids[log.cartridge].tolist() == ["T2", "T1"] and log.duration_s.tolist() == [2.0, 1.0]


def test_an_empty_log_has_no_rows_but_a_basis():
    log = ml.read_mount_log("# nothing yet\ntime_s,volume,host_mb,access\n")
    assert len(log) == 0 and log.size_basis == "host" and log.hours == 0.0 and log.n_volumes == 0


# --- validation: every message names the line, the field, the value and the range ------------
@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("5,A,-3,read", ["line 3", "compressed_mb='-3'", "valid range [0, 1e+08] MB"]),
        ("5,A,nan,read", ["line 3", "compressed_mb='nan'", "not finite", "[0, 1e+08] MB"]),
        ("5,A,2e8,read", ["line 3", "compressed_mb='2e8'", "[0, 1e+08] MB"]),
        ("5,A,big,read", ["line 3", "compressed_mb='big'", "not a number", "[0, 1e+08] MB"]),
        ("x,A,1,read", ["line 3", "time_s='x'", "not a number", "[0, 1e+12] s"]),
        ("-1,A,1,read", ["line 3", "time_s='-1'", "[0, 1e+12] s"]),
        ("5,A,1,dance", ["line 3", "access='dance'", "scratch_write, specific_write, read", "access_map"]),
        ("5,,1,read", ["line 3", "volume=''", "1 to 4,096 characters"]),
        ("5," + "V" * 4097 + ",1,read", ["line 3", "volume=", "1 to 4,096 characters"]),
        ("5,A,1", ["line 3", "3 fields", "header (line 1) names 4"]),
    ],
)
def test_bad_lines_are_named(row, expected):
    with pytest.raises(ValueError) as err:
        ml.read_mount_log(_csv("0,A,1,read", row))
    for part in expected:
        assert part in str(err.value)


@pytest.mark.parametrize(
    "value", ["2026-13-01T00:00:00", "yesterday", "2026-03-01T08:00:00+25:00", "2026-03-01"]
)
def test_bad_iso_times_are_named(value):
    with pytest.raises(ValueError, match=rf"line 3: time='{re.escape(value)}'.*ISO 8601"):
        ml.read_mount_log(f"time,volume,host_mb,access\n2026-03-01T00:00:00,A,1,read\n{value},A,1,read\n")


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("time_s,volume,sise_mb,access", "'sise_mb' is not known; did you mean 'size_mb'"),
        ("time_s,volume,access", "no size column .* object_mb"),
        (
            "time_s,volume,host_mb,compressed_mb,access",
            "two size columns \\(host_mb and compressed_mb\\)",
        ),
        ("time_s,time,volume,host_mb,access", "two time columns"),
        ("time_s,volume,volume,host_mb,access", "two volume columns"),
        ("time_s,host_mb,access", "no column names the object or the tape"),
    ],
)
def test_bad_headers(header, message):
    with pytest.raises(ValueError, match=message):
        ml.read_mount_log(header + "\n")


def test_unknown_header_columns_are_left_out_and_said():
    log = ml.read_mount_log("time_s,volume,host_mb,access,drive,host\n0,A,1,read,D1,h\n")
    assert len(log) == 1 and any("columns not used: drive, host" in n for n in log.notes)


def test_no_header_and_not_utf8(tmp_path):
    with pytest.raises(ValueError, match="no lines but comments and blank lines"):
        ml.read_mount_log("# only a comment\n\n")
    with pytest.raises(ValueError, match="line 1: no header line; say what each column holds.*columns="):
        ml.read_mount_log("0,A,1,read\n1,B,1,read\n")
    bad = tmp_path / "latin1.csv"
    bad.write_bytes(HEADER.encode() + b"0,\xe9t\xe9,1,read\n")
    with pytest.raises(
        ValueError,
        match=r"latin1.csv, line 2, byte 3 of the line \(byte 38 of the file\): b'\\xe9' is not utf-8",
    ):
        ml.read_mount_log(bad)
    assert ml.read_mount_log(bad, encoding="latin-1").volume_ids.tolist() == ["été"]


# --- time order --------------------------------------------------------------------------------
def test_out_of_order_times_are_rejected_naming_both_lines():
    with pytest.raises(ValueError) as err:
        ml.read_mount_log(_csv("0,A,1,read", "10,B,1,read", "5,C,1,read"))
    msg = str(err.value)
    assert "line 4: time_s='5'" in msg and "line 3" in msg and "sort=True" in msg


def test_out_of_order_across_a_chunk_boundary_is_rejected():
    text = _csv(*(f"{t},A,1,read" for t in (0, 1, 2, 3, 2.5)))
    with pytest.raises(ValueError, match="line 6: time_s='2.5'.*line 5"):
        list(ml.iter_mount_log(text, chunk_lines=4))


def test_sort_true_sorts_stably():
    log = ml.read_mount_log(_csv("10,A,1,read", "5,B,1,read", "10,C,1,read", "5,D,1,read"), sort=True)
    assert log.time_s.tolist() == [5, 5, 10, 10]
    assert log.volume_ids[log.volume].tolist() == ["B", "D", "A", "C"]  # ties keep the file's order
    assert log.line.tolist() == [3, 5, 2, 4]


def test_sort_true_with_iso_times_counts_from_the_earliest():
    text = "time,volume,host_mb,access\n2026-03-01T10:00:00,A,1,read\n2026-03-01T09:00:00,B,1,read\n"
    log = ml.read_mount_log(text, sort=True)
    assert log.time_s.tolist() == [0.0, 3600.0]
    assert log.start == np.datetime64("2026-03-01T09:00:00")


def test_equal_times_are_in_order():
    assert len(ml.read_mount_log(_csv("5,A,1,read", "5,B,1,read"))) == 2


# --- streaming ---------------------------------------------------------------------------------
class _CountingStream(io.RawIOBase):
    """A binary stream that counts the bytes taken from it."""

    name = "counted.csv"

    def __init__(self, n):
        self.data = io.BytesIO((HEADER + "".join(f"{i},V{i % 7},1,read\n" for i in range(n))).encode())
        self.taken = 0

    def readable(self):
        return True

    def readinto(self, b):
        k = self.data.readinto(b)
        self.taken += k
        return k


def test_streaming_reads_one_block_at_a_time():
    stream = _CountingStream(200_000)
    total = len(stream.data.getvalue())
    chunks = ml.iter_mount_log(stream, chunk_lines=100)
    first = next(chunks)
    assert len(first) == 100
    assert stream.taken <= 2 * 2**20 < total  # a block or two, not the whole stream
    rest = sum(len(c) for c in chunks)
    assert rest == 199_900


@pytest.mark.timeout(20)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    result = {}

    def read():
        try:
            ml.read_mount_log(fifo)
        except ValueError as exc:
            result["error"] = str(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "reading a FIFO blocked"
    assert "is a FIFO (named pipe), not a mount log" in result["error"]


def test_a_file_without_line_ends_is_not_read_whole(tmp_path):
    path = tmp_path / "blob.csv"
    path.write_text(HEADER + "0,A,1,read\n" + "x" * 1_000_000)
    with pytest.raises(ValueError, match="line 3: longer than 65,536 bytes"):
        ml.read_mount_log(path)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(ValueError, match="is a folder, not a mount log"):
        ml.read_mount_log(tmp_path)


# --- from arrays, to CSV ----------------------------------------------------------------------
def test_mount_log_from_arrays_validates_by_index():
    good = ml.mount_log([0, 1], ["A", "B"], [1, 2], ["read", "scratch_write"])
    assert good.access.tolist() == [2, 0]
    with pytest.raises(ValueError, match=r"size_mb\[1\]=-2.0 is outside the valid range \[0, 1e\+08\] MB"):
        ml.mount_log([0, 1], ["A", "B"], [1, -2], [2, 2])
    with pytest.raises(ValueError, match=r"time_s\[1\]=0.5 is earlier than time_s\[0\]=1.0"):
        ml.mount_log([1, 0.5], ["A", "B"], [1, 2], [2, 2])
    with pytest.raises(ValueError, match=r"access\[0\]='write' is not valid"):
        ml.mount_log([0], ["A"], [1], ["write"])
    with pytest.raises(ValueError, match=r"access\[0\]=3"):
        ml.mount_log([0], ["A"], [1], [3])
    with pytest.raises(ValueError, match="volume has 1 elements but time_s has 2"):
        ml.mount_log([0, 1], ["A"], [1, 2], [2, 2])
    with pytest.raises(ValueError, match="size_basis='gzip' is not valid"):
        ml.mount_log([0], ["A"], [1], [2], size_basis="gzip")


def test_mount_log_from_arrays_with_cartridges_durations_and_defaults():
    log = ml.mount_log(
        [0, 1, 2], ["A", "B", "A"], cartridge=["T9", "T8", "T9"], duration_s=[5, 6, 7], object_mb=300
    )
    assert log.size_mb.tolist() == [300.0] * 3 and not log.sizes_given and not log.access_given
    assert log.access.tolist() == [ml.READ] * 3
    assert log.cartridge.tolist() == [0, 1, 0] and log.cartridge_ids.tolist() == ["T9", "T8"]
    assert log.duration_s.tolist() == [5.0, 6.0, 7.0]
    assert any("300 MB" in n for n in log.notes) and any("read" in n for n in log.notes)
    with pytest.raises(ValueError, match="object_mb"):
        ml.mount_log([0], ["A"])
    with pytest.raises(ValueError, match=r"duration_s\[1\]=-1.0 is outside the valid range"):
        ml.mount_log([0, 1], ["A", "B"], [1, 1], duration_s=[1, -1])
    with pytest.raises(ValueError, match="cartridge has 1 elements but time_s has 2"):
        ml.mount_log([0, 1], ["A", "B"], [1, 1], cartridge=["T"])
    with pytest.raises(ValueError, match=r"cartridge\[0\]=''"):
        ml.mount_log([0], ["A"], [1], cartridge=[""])
    with pytest.raises(ValueError, match="time_at='middle' is not valid"):
        ml.mount_log([0], ["A"], [1], time_at="middle")


def test_csv_round_trip_with_cartridges_and_durations():
    log = ml.mount_log([0, 1.5], ["A", "B"], [1, 2], cartridge=["T1", "T2"], duration_s=[3.25, 4])
    back = ml.read_mount_log(ml.mount_log_csv(log))
    assert back.cartridge_ids[back.cartridge].tolist() == ["T1", "T2"]
    assert back.duration_s.tolist() == [3.25, 4.0] and not back.access_given


def test_csv_round_trip():
    log = ml.synthetic_mount_log(500, 60, seed=4)
    back = ml.read_mount_log(ml.mount_log_csv(log, comments=["made in a test"]))
    np.testing.assert_allclose(back.time_s, log.time_s, atol=5e-4)
    np.testing.assert_allclose(back.size_mb, log.size_mb, atol=5e-4)
    assert back.volume_ids[back.volume].tolist() == log.volume_ids[log.volume].tolist()
    assert back.access.tolist() == log.access.tolist()


def test_write_mount_log_is_atomic_and_does_not_overwrite(tmp_path):
    log = ml.synthetic_mount_log(20, 5, seed=1)
    path = tmp_path / "m.csv"
    ml.write_mount_log(log, path, comments=["x"])
    assert path.read_text().startswith("# x\ntime_s,volume,compressed_mb,access\n")
    with pytest.raises(FileExistsError):
        ml.write_mount_log(log, path)
    ml.write_mount_log(log, path, overwrite=True)
    assert [p.name for p in tmp_path.iterdir()] == ["m.csv"]


# --- the generator and the example log -------------------------------------------------------
def test_the_generator_is_seeded_and_labelled_illustrative():
    a = ml.synthetic_mount_log(300, 40, seed=7)
    b = ml.synthetic_mount_log(300, 40, seed=7)
    c = ml.synthetic_mount_log(300, 40, seed=8)
    assert np.array_equal(a.size_mb, b.size_mb) and np.array_equal(
        a.volume_ids[a.volume], b.volume_ids[b.volume]
    )
    assert not np.array_equal(a.size_mb, c.size_mb)
    assert "illustrative" in a.source
    assert "ILLUSTRATIVE" in ml.synthetic_mount_log.__doc__
    assert np.all(np.diff(a.time_s) >= 0) and a.hours <= 168.0


def test_generator_parameters_shape_the_log():
    n = 20_000
    log = ml.synthetic_mount_log(n, 500, seed=1, read_fraction=0.5, specific_write_fraction=0.2)
    counts = log.counts()
    # shares of each type, within 5 binomial standard deviations
    for name, p in (("read", 0.5), ("specific_write", 0.2), ("scratch_write", 0.3)):
        assert abs(counts[name] / n - p) < 5 * np.sqrt(p * (1 - p) / n)
    # without resizing every mount of a volume carries one size
    fixed = ml.synthetic_mount_log(2000, 100, seed=2, resize_on_write=False)
    for v in range(fixed.n_volumes):
        assert np.unique(fixed.size_mb[fixed.volume == v]).size == 1
    # with resizing, a read carries the size of the volume's latest write
    moved = ml.synthetic_mount_log(2000, 100, seed=2)
    for v in range(10):
        idx = np.flatnonzero(moved.volume == v)
        for i, j in zip(idx[:-1], idx[1:], strict=True):
            if moved.access[j] == ml.READ:
                assert moved.size_mb[j] == moved.size_mb[i]
    # more popularity skew, fewer distinct volumes
    flat = ml.synthetic_mount_log(5000, 5000, seed=3, popularity=0.0, reaccess=0.0)
    steep = ml.synthetic_mount_log(5000, 5000, seed=3, popularity=1.5, reaccess=0.0)
    assert steep.n_volumes < flat.n_volumes
    # re-access brings volumes back: fewer distinct volumes again
    again = ml.synthetic_mount_log(5000, 5000, seed=3, popularity=0.0, reaccess=0.8)
    assert again.n_volumes < flat.n_volumes


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_mounts": -1}, "n_mounts=-1"),
        ({"n_volumes": 0}, "n_volumes=0"),
        ({"popularity": 4}, "popularity=4"),
        ({"reaccess": 1.5}, "reaccess=1.5"),
        ({"read_fraction": 0.7, "specific_write_fraction": 0.5}, "specific_write_fraction=0.5"),
        ({"hours": 0}, "hours=0"),
        ({"size_basis": "raw"}, "size_basis='raw'"),
    ],
)
def test_generator_rejects_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ml.synthetic_mount_log(**kwargs)


def test_the_example_log_is_what_its_header_says():
    text = EXAMPLE.read_text()
    assert "ILLUSTRATIVE" in text.splitlines()[0]
    assert "synthetic_mount_log(n_mounts=8000, n_volumes=4000, seed=19, popularity=0.6)" in text
    shipped = ml.read_mount_log(EXAMPLE)
    made = ml.synthetic_mount_log(**synthetic._EXAMPLE)
    assert len(shipped) == 8000 and shipped.size_basis == "compressed"
    # written with 0.001 resolution
    np.testing.assert_allclose(shipped.time_s, made.time_s, atol=5e-4)
    np.testing.assert_allclose(shipped.size_mb, made.size_mb, atol=5e-4)
    assert shipped.volume_ids[shipped.volume].tolist() == made.volume_ids[made.volume].tolist()
    assert np.array_equal(shipped.access, made.access)


def test_the_example_log_command_writes_the_same_file(tmp_path):
    out = tmp_path / "example.csv"
    assert synthetic._main([str(out)]) == 0
    assert out.read_text() == EXAMPLE.read_text()


# --- the generator's practical limits (issue 16) -------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"n_mounts": ml.MAX_SYNTHETIC_MOUNTS + 1},
            r"n_mounts=10000001 is outside the valid range \[0, 1e\+07\]",
        ),
        ({"n_volumes": 10**9}, r"n_volumes=1000000000 is outside the valid range \[1, 1e\+07\]"),
        ({"seed": -1}, r"seed=-1 is outside the valid range"),
        ({"seed": 1.5}, r"seed=1.5 must be a whole number"),
        ({"n_mounts": [10, 20]}, r"n_mounts must be a single number"),
    ],
)
def test_generator_limits_are_errors_naming_the_parameter(kwargs, message):
    # A billion mounts would exhaust the memory instead of finishing: beyond the measured
    # practical limit (10^7: about 5 to 7 s and up to 1.8 GB) the generator refuses at once.
    with pytest.raises(ValueError, match=message):
        ml.synthetic_mount_log(**kwargs)


def test_generator_shares_above_one_are_a_constraint_naming_both():
    from vtsmodel._validation import ConstraintError

    with pytest.raises(ConstraintError, match=r"read_fraction=0.7 and specific_write_fraction=0.5"):
        ml.synthetic_mount_log(read_fraction=0.7, specific_write_fraction=0.5)


def test_generator_edge_sizes():
    empty = ml.synthetic_mount_log(0, 1)
    assert len(empty) == 0 and empty.n_volumes == 0
    # a whole number given as a float is the same seed
    a, b = ml.synthetic_mount_log(50, 10, seed=3), ml.synthetic_mount_log(50, 10, seed=3.0)
    assert np.array_equal(a.time_s, b.time_s) and a.volume_ids.tolist() == b.volume_ids.tolist()


def test_chunk_lines_is_checked_when_called():
    # before any line is read (the generator is not started)
    with pytest.raises(ValueError, match=r"chunk_lines=0 is outside the valid range \[1, 1e\+06\]"):
        ml.iter_mount_log("time_s,volume,compressed_mb,access\n", chunk_lines=0)
    with pytest.raises(ValueError, match=r"chunk_lines=2000000 is outside the valid range \[1, 1e\+06\]"):
        ml.read_mount_log("time_s,volume,compressed_mb,access\n", chunk_lines=2_000_000)


# --- round trip and spreadsheet safety -----------------------------------------------------
_HOSTILE = (
    st.text(alphabet=st.sampled_from(list("=+-@'\"\t\r\n,; |#AZaz09éß€\u2028\x0b")), min_size=1, max_size=12)
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=80, deadline=None)
@given(
    ids=st.lists(_HOSTILE, min_size=1, max_size=25),
    carts=st.booleans(),
    durations=st.booleans(),
    data=st.data(),
)
def test_read_of_write_is_the_log_for_hostile_ids(ids, carts, durations, data, tmp_path_factory):
    # Done when: "read(write(log)) == log on hypothesis-generated logs with hostile ids"
    n = len(ids)
    times = np.cumsum(data.draw(st.lists(st.floats(0, 1e5), min_size=n, max_size=n)))
    sizes = data.draw(st.lists(st.floats(0, 1e8), min_size=n, max_size=n))
    kinds = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    log = ml.mount_log(
        times, ids, sizes, kinds,
        cartridge=ids[::-1] if carts else None,
        duration_s=data.draw(st.lists(st.floats(0, 1e8), min_size=n, max_size=n)) if durations else None,
    )  # fmt: skip
    path = tmp_path_factory.mktemp("rt") / "log.csv"
    ml.write_mount_log(log, path, chunk_lines=7)
    back = ml.read_mount_log(path)
    assert back.time_s.tolist() == log.time_s.tolist() and back.size_mb.tolist() == log.size_mb.tolist()
    assert back.volume_ids.tolist() == log.volume_ids.tolist() and back.volume.tolist() == log.volume.tolist()
    assert back.access.tolist() == log.access.tolist()
    if carts:
        assert back.cartridge_ids.tolist() == log.cartridge_ids.tolist()
        assert back.cartridge.tolist() == log.cartridge.tolist()
    if durations:
        assert back.duration_s.tolist() == log.duration_s.tolist()
    assert ml.mount_log_csv(log) == path.read_bytes().decode()


@pytest.mark.parametrize("ids", [[";;;", ";;;"], ["|||", "|||", "|||"], ["a\tb", "a\tb"], [";;;;"] * 3])
def test_ids_that_hold_another_delimiter_on_every_line_read_back(ids):
    # hypothesis found ids=[';;;', ';;;']: the semicolon split each data line into as many
    # fields as the comma did, and won the tie; the comma, which splits the header too, wins now
    log = ml.mount_log(np.arange(len(ids)) * 1.0, ids, [1.0] * len(ids), ["read"] * len(ids), cartridge=ids)
    back = ml.read_mount_log(ml.mount_log_csv(log))
    assert back.volume_ids.tolist() == log.volume_ids.tolist() and back.volume.tolist() == log.volume.tolist()
    assert back.cartridge_ids.tolist() == log.cartridge_ids.tolist()
    assert back.notes[0].startswith("read as comma-separated, with a header")


def test_no_written_cell_starts_a_formula_and_numbers_are_unchanged():
    ids = ['=HYPERLINK("http://x","y")', "+1+1", "-2-2", "@SUM(A1)", "'quoted", "plain", "-3.5"]
    log = ml.mount_log(np.arange(len(ids)) * 1.5, ids, [0.5] * len(ids), ["read"] * len(ids))
    text = ml.mount_log_csv(log)
    import csv

    rows = list(csv.reader(io.StringIO(text)))[1:]
    for row in rows:
        assert not row[1].startswith(("=", "+", "-", "@", "\t", "\r")) or row[1] == "-3.5"
    assert [r[1] for r in rows] == [
        '\'=HYPERLINK("http://x","y")',
        "'+1+1",
        "'-2-2",
        "'@SUM(A1)",
        "''quoted",
        "plain",
        "-3.5",
    ]
    assert [float(r[0]) for r in rows] == (np.arange(len(ids)) * 1.5).tolist()


def test_write_streams_and_a_failure_leaves_no_file(tmp_path, monkeypatch):
    log = ml.synthetic_mount_log(5000, 100, seed=2)
    from vtsmodel import _mountlog  # where the writer lives (vtsmodel.mountlog re-exports it)

    pieces = list(_mountlog._csv_pieces(log, (), 1000))
    assert len(pieces) == 1 + 5  # the header, then a piece per 1,000 rows
    path = tmp_path / "m.csv"

    def broken(*_args):
        yield "time_s,volume,compressed_mb,access\n"
        raise RuntimeError("disk full")

    monkeypatch.setattr(_mountlog, "_csv_pieces", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        ml.write_mount_log(log, path)
    assert not path.exists() and list(tmp_path.iterdir()) == []
