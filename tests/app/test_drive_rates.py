"""Lesson 04's drive rates (vtsmodel.app.lessons.drive_rates) without a browser: spec vs observed, the limits."""

import html

import pytest

from vtsmodel import catalog, load
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import drive_rates
from vtsmodel.app.lessons import efficiency as L
from vtsmodel.app.text import number

lto = load("lto_facts")


def test_lto1_rates_and_the_shared_bus():
    # adsm-l-lto-2003: "LTO-1 max uncompressed is 15 MB/sec, max compressed is 30 MB/sec";
    # "22.5 MB/sec sustained", 75 % of the max; two drives at 30 MB/s need "2x30 = 60 MB/sec".
    s = catalog.drive_spec("LTO1")
    assert s.native_rate_mb_s == lto.value("lto1_native_max_rate")
    assert s.compressed_max_rate_mb_s == lto.value("lto1_compressed_max_rate")
    assert s.observed_rate_mb_s == lto.value("lto1_sustained_compressed_rate")
    share = s.observed_rate_mb_s / s.compressed_max_rate_mb_s
    assert share == pytest.approx(lto.value("lto1_sustained_fraction_of_compressed_max"))
    k, bus = int(lto.value("drives_per_scsi_bus")), lto.value("scsi_bus_rate_needed")
    rate, binding, limits = drive_rates.host_rate("LTO1", s.compression_ratio_spec, k, bus, 1000.0)
    assert rate == lto.value("drive_peak_compressed_rate") and binding == "the drive"
    assert k * limits["the shared bus"] == bus


def test_rates_panel_shows_the_family_and_this_setting():
    p = L.rates_panel()
    spec = p.figure("rates")
    fam = [s for s in catalog.drive_catalog().values() if s.family == "LTO"]
    assert trace_named(spec, "native (spec)")["x"] == [s.label.split(" (")[0] for s in fam]
    assert trace_named(spec, "native (spec)")["y"] == [s.native_rate_mb_s for s in fam]
    assert trace_named(spec, "observed")["y"][:2] == [22.5, 20.0]  # adsm-l-lto-2003; CERN's LTO-2
    mine = trace_named(spec, "this setting")["y"]
    assert mine == pytest.approx([drive_rates.host_rate(s.name, 2.0, 2, 60.0, 20.0)[0] for s in fam])
    box = spec["layout"]["shapes"][-1]
    assert (box["x0"], box["x1"]) == (-0.5, 0.5)  # LTO-1 highlighted
    assert p.readout_values["observed"] == "22.5 MB/s"
    assert p.view.binding == "The disk-pool stream binds the LTO-1 at 20 MB/s."
    # a fast disk pool and a third drive on the bus: the bus binds LTO-1 at 60 / 3 = 20 MB/s
    p.set(stream_mb_s=200.0, drives_per_bus=3)
    assert (
        p.readout_values["host rate, this setting"] == f"{number(lto.value('scsi_bus_rate_needed') / 3)} MB/s"
    )
    assert "shared bus binds" in p.view.binding


def test_rates_panel_offers_the_new_drives():
    p = L.rates_panel(rate_drive="IBM3592_70F", bus_mb_s=2000.0, drives_per_bus=1, stream_mb_s=2000.0)
    spec = p.figure("rates")
    assert "3592" in spec["layout"]["title"]["text"]
    names = trace_named(spec, "native (spec)")["x"]
    assert names[0] == "IBM 3592 J1A" and names[-1] == "IBM TS1170"
    s = catalog.drive_spec("IBM3592_70F")
    assert p.readout_values["compressed max (spec)"] == "not stated"
    assert p.readout_values["host rate, this setting"] == f"{number(s.native_rate_mb_s * 2.0)} MB/s"
    assert max(trace_named(spec, "this setting")["y"]) <= spec["layout"]["yaxis"]["range"][1]
    p.set(rate_drive="LTO9", stream_mb_s=20.0)
    assert any("LTO9" in n and "backhitch" in n for n in p.view.notes)


def test_catalog_table_groups_the_drives_and_cites_each_drives_own_sources():
    table = drive_rates.catalog_html()
    positions = [
        table.index(f">{html.escape(c.label)}</td>") for g in catalog.drive_choices() for c in g.drives
    ]
    assert positions == sorted(positions)
    for g in catalog.drive_choices():
        assert f">{g.label}</th>" in table
    row = table[table.index(">LTO-9 (Ultrium 9)</td>") :].split("</tr>")[0]
    assert ", ".join(catalog.drive_spec("LTO9").primary_sources) in row
    assert "ibm-dtl-lto-perf" in row and "stk-acs4400-cray" not in row


def test_rate_numbers_are_labelled_with_units():
    text = drive_rates.rate_numbers()
    assert "22.5 MB/s observed (75 % of the max)" in text and "need 60 MB/s of bus" in text
    assert "177 MB/s: cannot stream" in text
