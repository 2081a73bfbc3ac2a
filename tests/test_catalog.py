"""Tests of vtsmodel.catalog: the drive catalog, its choices, mount parts and the streaming check."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from vtsmodel import data
from vtsmodel.catalog import (
    BACKHITCH_TEXT,
    FAMILIES,
    QUANTITIES,
    StreamingWarning,
    catalog_rows,
    drive_catalog,
    drive_choices,
    drive_names,
    drive_options,
    drive_spec,
    mount_parts,
    resolve_drive,
    streaming_check,
    warn_streaming,
)

cat_table = data.load("drive_catalog")
cern = data.load("cern_facts")


def row(id_):
    return cat_table.provenance(id_)


# --- the table's structure ---------------------------------------------------------------------


def test_one_primary_row_per_drive_quantity_and_basis():
    # Where documents disagree every row is kept; the models use the one marked primary.
    # Observed rates may be several (the 3480's write and read tables): the lowest is used.
    seen = {}
    for r in cat_table.records():
        if r["role"] == "primary" and r["quantity"] != "observed_rate":
            key = (r["drive"], r["quantity"], r["basis"])
            assert key not in seen, f"{r['id']} and {seen[key]} are both primary for {key}"
            seen[key] = r["id"]
    groups = {(r["drive"], r["quantity"], r["basis"]) for r in cat_table.records()}
    missing = [g for g in groups if g not in seen and g[1] != "observed_rate" and g[2] != "roadmap"]
    assert not missing, f"no primary row for {missing}"


def test_roadmap_rows_are_never_primary():
    assert all(r["role"] == "alternative" for r in cat_table.records() if r["basis"] == "roadmap")


def test_units_match_quantities():
    unit = {
        "native_rate": "MB/s", "compressed_max_rate": "MB/s", "observed_rate": "MB/s",
        "native_capacity": "GB", "compression_ratio": "1", "min_speed_matching_rate": "MB/s",
        "load_time": "s", "unload_time": "s", "rewind_time": "s", "locate_time": "s",
    }  # fmt: skip
    assert set(unit) == set(QUANTITIES)
    for r in cat_table.records():
        assert r["unit"] == unit[r["quantity"]], r["id"]
        assert r["value"] > 0, r["id"]


def test_every_drive_has_a_speed_and_a_family():
    # Lessons size with every drive: each needs a speed (observed or native).
    for name, spec in drive_catalog().items():
        assert spec.speed_mb_s is not None and spec.speed_mb_s > 0, name
        assert spec.family in dict(FAMILIES) and spec.label, name


# --- moved from test_drives: the founding rows ---------------------------------------------------


def test_every_row_is_cited():
    known = set(data.sources())
    for spec in drive_catalog().values():
        assert spec.rows
        for p in spec.rows.values():
            assert p.source in known and p.locator
            if p.kind == "text":
                assert p.quote


def test_catalog_keeps_spec_and_observed_apart_lto1_adsm_l():
    # "LTO-1 max uncompressed is 15 MB/sec, max compressed is 30 MB/sec" (spec) vs
    # "22.5 MB/sec sustained in compressed mode" with "2.24:1" (observed).
    lto1 = drive_spec("LTO1")
    lto = data.load("lto_facts")
    assert lto1.native_rate_mb_s == lto.value("lto1_native_max_rate")
    assert lto1.compressed_max_rate_mb_s == lto.value("lto1_compressed_max_rate")
    assert lto1.observed_rate_mb_s == lto.value("lto1_sustained_compressed_rate")
    assert lto1.compression_ratio_observed == lto.value("avg_compression_ratio")
    assert lto1.compression_ratio_spec == lto.value("assumed_compression_ratio")


def test_catalog_speed_is_cern_maxspeed_for_measured_drives():
    # "LTO-2 = 20 MB/s, STK 9940B = 30 MB/s, IBM 3592A = 40 MB/s" (measured Maxspeed).
    assert drive_spec("LTO2").speed_mb_s == cern.value("maxspeed_lto2")
    assert drive_spec("STK9940B").speed_mb_s == cern.value("maxspeed_9940b")
    assert drive_spec("IBM3592A").speed_mb_s == cern.value("maxspeed_3592a")
    assert drive_spec("LTO2").native_rate_mb_s == data.load("lto_facts").value("lto2_native_max_rate")
    assert drive_spec("IBM3590E").speed_basis == "spec"
    assert drive_spec("STK3480").observed_rate_mb_s == row("stk3480_observed_write_rate").value  # the lower


# --- the drives the issue names ------------------------------------------------------------------


def test_catalog_holds_lto1_to_lto10_and_the_3592_family():
    names = set(drive_names())
    assert {f"LTO{i}" for i in range(1, 11)} <= names
    assert {"IBM3592A", "IBM3592E05", "IBM3592E06", "IBM3592E07", "IBM3592E08",
            "IBM3592_55F", "IBM3592_60F", "IBM3592_70F"} <= names  # fmt: skip
    for name in names:
        spec = drive_spec(name)
        if spec.family in ("LTO", "IBM3592"):
            assert spec.native_rate_mb_s and spec.native_capacity_gb, name
            assert spec.compression_ratio_spec, name


def test_lto9_values_ibm_documentation():
    # ibm-ts4500-drives: "LTO 9 ... 400 MB/s 18 TB"; ibm-dtl-lto-perf: load 17 s, unload
    # 30 s, space record 45 s, rewind 55 s; ibm-ts4300-speed-matching: lowest 177 MB/s.
    s = drive_spec("LTO9")
    assert (s.native_rate_mb_s, s.native_capacity_gb) == (400.0, 18000.0)
    assert (s.load_s, s.unload_s, s.locate_s, s.rewind_s) == (17.0, 30.0, 45.0, 55.0)
    assert s.min_speed_matching_rate_mb_s == 177.0
    assert s.compression_ratio_spec == 2.5
    assert s.compressed_max_rate_mb_s == row("lto9_compressed_max_rate").value == 750.0
    assert s.provenance("native_rate").source == "ibm-ts4500-drives"


def test_lto10_uses_the_shipped_30tb_not_the_roadmap_36tb_bf_2025():
    s = drive_spec("LTO10")
    assert s.native_capacity_gb == 30000.0
    assert row("lto10_native_capacity_roadmap").value == 36000.0
    assert row("lto10_native_capacity_40tb").value == 40000.0
    # IBM dtl page 1000 MB/s is used, the TS4300 page's 1200 MB/s kept as an alternative.
    assert s.compressed_max_rate_mb_s == 1000.0
    assert row("lto10_compressed_max_rate_ts4300").value == 1200.0


def test_founding_values_unchanged():
    # cern-tape-sizing-2005: "LTO-2 = 20 MB/s, STK 9940B = 30 MB/s, IBM 3592A = 40 MB/s".
    assert drive_spec("LTO2").speed_mb_s == cern.value("maxspeed_lto2")
    assert drive_spec("IBM3592A").speed_mb_s == cern.value("maxspeed_3592a")
    assert drive_spec("IBM3592A").native_rate_mb_s == 40.0  # the J1A's rating, as the note reads 3592A


def test_alternative_rows_do_not_change_the_primary_value():
    # The Dell glossary's LTO-2 35 MB/s corroborates the ADSM-L figure; LTO-3's HP 27 MB/s
    # floor disagrees with IBM's 40 MB/s and is not used.
    assert drive_spec("LTO2").provenance("native_rate").source == "adsm-l-lto-2003"
    assert drive_spec("LTO3").min_speed_matching_rate_mb_s == 40.0
    assert "lto3_min_speed_matching_rate_hp" in drive_spec("LTO3").rows


# --- names, choices ------------------------------------------------------------------------------


def test_drive_choices_grouped_by_family_in_order_of_generation():
    groups = drive_choices()
    assert [g.family for g in groups] == [f for f, _ in FAMILIES]
    lto = [c.key for c in groups[0].drives]
    assert lto == [f"LTO{i}" for i in range(1, 11)]
    ibm3592 = [c.key for c in groups[1].drives]
    assert ibm3592[0] == "IBM3592A" and ibm3592[-1] == "IBM3592_70F"
    flat = [c.key for g in groups for c in g.drives]
    assert flat == list(drive_names()) and len(set(flat)) == len(flat)
    assert drive_options()[0] == ("LTO-1 (Ultrium 1)", "LTO1")


def test_drive_choices_having_filters_and_validates():
    with_floor = [c.key for g in drive_choices(having=("min_speed_matching_rate",)) for c in g.drives]
    assert with_floor == ["LTO2", "LTO3", "LTO7", "LTO8", "LTO9", "LTO10"]
    with pytest.raises(ValueError, match="having='speed'"):
        drive_choices(having=("speed",))


@pytest.mark.parametrize(
    ("alias", "key"),
    [("LTO-9", "LTO9"), ("lto 10", "LTO10"), ("TS1160", "IBM3592_60F"), ("3592-70F", "IBM3592_70F"),
     ("j1a", "IBM3592A"), ("T10000C", "STKT10000C"), ("IBM3590B", "IBM3590B")],
)  # fmt: skip
def test_resolve_drive_aliases(alias, key):
    assert resolve_drive(alias) == key
    assert drive_spec(alias).name == key


def test_unknown_drive_lists_the_names_by_family():
    with pytest.raises(KeyError, match=r"LTO Ultrium: LTO1, .*LTO10; IBM 3592 \(TS1100\): IBM3592A"):
        drive_spec("LTO11")


def test_primary_sources_are_what_one_drives_numbers_come_from():
    # LTO-3's HP floor is an alternative row: hp-ultrium3-specs is among its sources but
    # not among the sources of the values the models use.
    s = drive_spec("LTO3")
    assert "hp-ultrium3-specs" in s.sources and "hp-ultrium3-specs" not in s.primary_sources
    assert set(s.primary_sources) == {p.source for p in s.primary.values()}
    assert len(data.cite(*drive_spec("LTO9").primary_sources).splitlines()) < len(
        data.cite("drive_catalog").splitlines()
    )


def test_catalog_rows_follow_the_choices():
    rows = catalog_rows()
    assert [r["drive"] for r in rows] == list(drive_names())
    lto9 = next(r for r in rows if r["drive"] == "LTO9")
    assert lto9["locate [s]"] == 45.0 and "ibm-dtl-lto-perf" in lto9["sources"]


def test_rate_at_compression_capped_lto9():
    # 400 MB/s native x 2.5 = 1000, capped at the FC sustained 750 MB/s (ibm-dtl-lto-perf).
    s = drive_spec("LTO9")
    assert s.rate_mb_s(1.0) == 400.0
    assert s.rate_mb_s(2.5) == 750.0
    assert np.allclose(s.rate_mb_s(np.array([1.0, 1.5])), [400.0, 600.0])
    with pytest.raises(ValueError, match="compression_ratio"):
        s.rate_mb_s(0.4)


# --- mount parts --------------------------------------------------------------------------------


def test_mount_parts_default_are_cerns():
    # cern-tape-sizing-2005: mount 15 s, positioning 45 s, rewind and unload 45 s.
    p = mount_parts()
    assert p["load"].seconds == cern.value("tmount_mount")
    assert p["locate"].seconds == cern.value("tmount_positioning")
    assert p["rewind_unload"].seconds == cern.value("tmount_rewind_unload")
    assert {x.basis for x in p.values()} == {"borrowed"}


def test_mount_parts_lto9_are_its_own_ibm_dtl():
    p = mount_parts("LTO9")
    assert p["load"].seconds == 17.0 and p["locate"].seconds == 45.0
    assert p["rewind_unload"].seconds == 55.0 + 30.0
    assert {x.basis for x in p.values()} == {"drive"}
    assert {pr.source for pr in p["rewind_unload"].provenance} == {"ibm-dtl-lto-perf"}


def test_mount_parts_borrow_where_the_catalog_has_no_time():
    # LTO-7: its own load (15 s), CERN's positioning and rewind/unload (no rewind time found).
    p = mount_parts("LTO7")
    assert (p["load"].seconds, p["load"].basis) == (15.0, "drive")
    assert (p["locate"].seconds, p["locate"].basis) == (45.0, "borrowed")
    assert p["rewind_unload"].basis == "borrowed"
    assert {x.basis for x in mount_parts("IBM3592_60F").values()} == {"borrowed"}
    assert "borrowed" in str(p["locate"])


# --- streaming --------------------------------------------------------------------------------


def test_cern_disk_stream_cannot_feed_lto9():
    # cern-tape-sizing-2005: "each of them equally only at 2 MB/s"; LTO-9's lowest
    # speed-matching rate is 177 MB/s (ibm-ts4300-speed-matching).
    feed = cern.value("disk_server_stream_rate")
    c = streaming_check("LTO9", feed)
    assert c.known and not c.all_stream and c.min_rate_mb_s == 177.0
    assert "backhitch" in c.consequence and BACKHITCH_TEXT in c.consequence
    assert "177" in c.message() and "ibm-ts4300-speed-matching" in c.message()


def test_streaming_check_compares_native_feed():
    # 60 MB/s at 2:1 is a 30 MB/s native feed: above LTO-2's 17.5, below LTO-3's 40.
    assert streaming_check("LTO2", 60.0, compression_ratio=2.0).all_stream
    c = streaming_check("LTO3", 60.0, compression_ratio=2.0)
    assert c.native_feed_mb_s == 30.0 and not c.all_stream
    arr = streaming_check("LTO3", np.array([30.0, 40.0, 80.0]))
    assert arr.streams.tolist() == [False, True, True]
    assert "calculates the appropriate data rate" in streaming_check("LTO3", 80.0).consequence


def test_streaming_check_unknown_floor_says_so():
    c = streaming_check("IBM3592_60F", 2.0)
    assert not c.known and c.streams is None and c.all_stream is None
    assert "not known" in c.message()


def test_streaming_check_bad_input():
    with pytest.raises(ValueError, match="feed_mb_s"):
        streaming_check("LTO9", 0.0)
    with pytest.raises(ValueError, match="compression_ratio"):
        streaming_check("LTO9", 10.0, compression_ratio=0.4)
    with pytest.raises(KeyError, match="LTO10"):
        streaming_check("LTO99", 10.0)


def test_warn_streaming_warns_only_below_the_floor():
    with pytest.warns(StreamingWarning, match="LTO9.*177"):
        warn_streaming("LTO9", 2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert warn_streaming("LTO9", 400.0).all_stream
        assert warn_streaming("IBM3592_60F", 2.0).streams is None


def test_the_data_notes_list_every_borrowed_mount_timing():
    # notes/drive_catalog.md says, for every drive, which mount parts are its own and which
    # still borrow CERN's 9940B figures; the table must be what mount_parts does.
    text = (Path(data.data_dir()) / "notes" / "drive_catalog.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\S+) \| ((?:(?:own|\*\*borrowed\*\* \(9940B\)) \|? ?){3})$", text, re.M))
    for drive in drive_names():
        parts = mount_parts(drive)
        said = ["own" if c.strip() == "own" else "borrowed" for c in rows[drive].strip(" |").split(" | ")]
        done = [
            "own" if parts[k].basis == "drive" else "borrowed" for k in ("load", "locate", "rewind_unload")
        ]
        assert said == done, f"notes/drive_catalog.md says {drive} {said}; mount_parts gives {done}"
    assert set(rows) == set(drive_names())


def test_the_speed_s_row_states_the_speed_each_drive_is_sized_at():
    # speed_provenance is the row a caption cites for speed_mb_s: it must state that very value
    derived = []
    for name, spec in drive_catalog().items():
        row = spec.speed_provenance
        if row is None:
            assert spec.speed_basis == "derived", name  # only a derived rate has no row of its own
            derived.append(name)
        else:
            assert row.value == spec.speed_mb_s, name
    assert drive_spec("LTO9").speed_provenance.source == "ibm-ts4500-drives"
    # measured: CERN's Maxspeed
    assert drive_spec("STK9940B").speed_provenance.source == "cern-tape-sizing-2005"
    assert len(derived) < 3


def test_the_streaming_message_gives_the_feed_to_three_digits():
    # the planner's note read "fed 6.17284 MB/s"; a feed is a modelled rate, not a six-digit figure
    assert streaming_check("LTO10", 6.17284).message().startswith("LTO10: fed 6.17 MB/s (native), ")
    assert "fed 6.17 to 1,230 MB/s (native)" in streaming_check("LTO10", [6.17284, 1234.5]).message()
