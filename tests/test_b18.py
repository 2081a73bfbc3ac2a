"""Tests of vtsmodel.b18: the product's features, Table 3's configurations, Table 4's columns, drives."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import vtsmodel
from vtsmodel import ExtrapolationWarning, LayoutWarning, b18, load
from vtsmodel import throughput as tp

PACKAGE = Path(vtsmodel.__file__).resolve().parent


def test_configurations_are_table3():
    configs = b18.configurations()
    assert [c.id for c in configs] == list(load("vts_tvc_configs")["id"])
    assert {c.tvc_gb for c in b18.configurations("paf")} == {216.0, 432.0, 864.0, 1728.0}
    assert b18.configuration("tvc_144_9gb_base_ehpo").label == "144 GB, 9 GB HDDs, 8(2+P)"
    assert b18.table4_column("tvc_144_9gb_base_ehpo") == 576.0
    assert b18.table4_column("tvc_144_36gb_base_ehpo") == 288.0
    assert b18.table4_column("tvc_864_36gb_paf") is None
    with pytest.raises(ValueError, match="tvc_config='x'"):
        b18.configuration("x")
    assert b18.tvc_range() == (72.0, 1728.0)  # Table 3's first and last rows
    assert (b18.default_tvc_gb("paf"), b18.default_tvc_gb("ehpo"), b18.default_tvc_gb("base")) == (
        1728.0,
        1152.0,
        1152.0,
    )


@pytest.mark.parametrize(("tvc", "printed"), [(144, 16.73), (216, 18.36), (288, 19.51)])
def test_ehpo_capacity_alone_reads_the_table4_column_of_its_table3_layout(tvc, printed):
    # ibm-vts-b18-2000, Table 3: 144, 216 and 288 GB (base/EHPO) are 8, 12 and 16 groups of 2+P
    # on 9 GB HDDs; Table 4 (data notes, ambiguity 1) gives 8 groups the "576 /144" column and 16
    # the "1152 /288" one; 12 groups lie between them, like 864 GB on the 36 GB-HDD axis. Eq. 3 at
    # CF 3, rounded as Table 4 prints: Table 4's arithmetic, not an independent statement. Read on
    # the 36 GB-HDD axis (the capacity as the "≤288" column) all three were 13.31 MB/s.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LayoutWarning)
        got = float(tp.write_rate(3, tvc, feature="ehpo"))
    assert round(got, 2) == printed
    assert round(float(tp.write_rate(3, tvc_config="tvc_288_36gb_base_ehpo", feature="ehpo")), 2) == 13.31
    chosen = b18.capacity_configuration(tvc, "ehpo")
    assert chosen.hdd_gb == 9.0 and tp.write_rate(3, tvc_config=chosen.id, feature="ehpo") == got


@pytest.mark.parametrize(("tvc", "other"), [(144, "tvc_144_36gb_base_ehpo"), (288, "tvc_288_36gb_base_ehpo")])
@pytest.mark.parametrize("feature", ["base", "ehpo"])
def test_a_capacity_with_two_layouts_warns_and_names_the_other(tvc, other, feature):
    # Table 3 lists 144 and 288 GB both on 9 GB HDDs (8, 16 groups) and on 36 GB HDDs (4(2+P)).
    with pytest.warns(LayoutWarning, match=rf"taken as {tvc} GB, 9 GB HDDs.*tvc_config='{other}'"):
        tp.write_rate(3, np.array([72.0, tvc]), feature=feature)


@pytest.mark.parametrize("tvc", [72, 216, 576, 1152])
def test_a_capacity_with_one_layout_does_not_warn(tvc):
    # 72 GB: 4(2+P) on 9 GB and on 36 GB HDDs, one layout and so one Table 4 column.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for feature in b18.FEATURES:
            tp.write_rate(3, tvc, feature=feature)


def test_paf_and_configurations_given_by_id_do_not_warn_of_layouts():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tp.write_rate(3, 288, feature="paf")  # the PAF curves do not depend on the layout
        tp.write_rate(3, tvc_config="tvc_288_36gb_base_ehpo", feature="ehpo")


def test_capacity_configuration():
    cc = b18.capacity_configuration
    assert cc(72, "ehpo").id == "tvc_72_9gb_base_ehpo"  # one layout: Table 3's first row of it
    assert cc(144, "base").id == "tvc_144_9gb_base_ehpo"
    assert cc(216, "ehpo").id == "tvc_216_9gb_base_ehpo"
    assert cc(216, "paf").id == "tvc_216_36gb_paf"
    assert cc(288, "ehpo").id == "tvc_288_9gb_base_ehpo"
    assert cc(1152, "ehpo").id == "tvc_1152_36gb_base_ehpo"
    # Table 3, "*": "In earlier shipments these configurations were available with PAF"
    assert cc(144, "paf").id == "tvc_144_9gb_base_ehpo" and cc(288, "paf").earlier_paf
    assert cc(400, "ehpo") is None and cc(576, "paf") is None and cc(864, "ehpo") is None
    # the other layout of a capacity, where it reads another Table 4 column
    assert [c.id for c in b18.other_layouts(144, "ehpo")] == ["tvc_144_36gb_base_ehpo"]
    assert [c.id for c in b18.other_layouts(288, "base")] == ["tvc_288_36gb_base_ehpo"]
    assert (
        b18.other_layouts(72, "ehpo") == b18.other_layouts(288, "paf") == b18.other_layouts(400, "ehpo") == ()
    )
    with pytest.raises(ValueError, match="tvc_gb must be a single number"):
        cc(np.array([72.0, 144.0]), "ehpo")


def test_more_parity_groups_never_write_slower():
    # Sec. 3.5.1: with EHPO alone the throughput "is determined by the size of the tape cache;
    # i.e., the number of HDDs available". Along Table 4's columns, more 2+P groups never give
    # less (a property of Table 4 as read, ambiguity 1): 288 GB on 9 GB HDDs outruns 576 GB.
    configs = sorted(b18.configurations("ehpo"), key=lambda c: c.raid_groups)
    cf = np.linspace(1.0, 4.0, 13)
    for mode in ("sustained", "peak"):
        rates = [tp.write_rate(cf, tvc_config=c.id, feature="ehpo", mode=mode) for c in configs]
        assert all(np.all(b >= a - 1e-12) for a, b in zip(rates, rates[1:], strict=False))


def test_resolve_tvc():
    tvc, axis = b18.resolve_tvc(None, "tvc_144_36gb_base_ehpo", "ehpo")
    assert (float(tvc), float(axis)) == (144.0, 288.0)
    tvc, axis = b18.resolve_tvc(np.array([72.0, 216.0, 576.0, 400.0]), None, "ehpo")
    assert axis.tolist() == [288.0, 864.0, 576.0, 400.0]  # 400 GB: no layout, the 36 GB-HDD axis
    tvc, axis = b18.resolve_tvc(None, None, "paf")
    assert float(tvc) == float(axis) == 1728.0
    with pytest.warns(ExtrapolationWarning, match="1728 GB is not offered with ehpo"):
        b18.resolve_tvc(1728.0, None, "ehpo")
    with pytest.raises(ValueError, match="does not match tvc_config"):
        b18.resolve_tvc(288.0, "tvc_144_9gb_base_ehpo", "ehpo")


def test_drives_follow_sec_2():
    # "a choice in the number of 3590 tape drives from three to six (four to six with the
    # Performance Accelerator)"; "With the EHPO feature and a minimum of 144 GB of cache, 64
    # virtual drives"; the base model presents 32.
    f = load("vts_facts")
    assert (
        b18.physical_drives("base")
        == b18.physical_drives("ehpo")
        == range(int(f.value("physical_drives_low")), int(f.value("physical_drives_high")) + 1)
    )
    assert list(b18.physical_drives("paf")) == [4, 5, 6]
    assert [
        b18.virtual_drives(72, "ehpo"),
        b18.virtual_drives(144, "ehpo"),
        b18.virtual_drives(1152, "base"),
    ] == [
        32,
        64,
        32,
    ]
    assert b18.virtual_drives(216, "paf") == 64


def test_features_are_declared_in_order():
    assert b18.FEATURE.values == b18.FEATURES == ("base", "ehpo", "paf")
    assert [b18.FEATURE.label_of(f) for f in b18.FEATURES] == ["base", "EHPO", "PAF (with EHPO)"]


def _sources():
    return {p: p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_product_is_read_in_one_place():
    # The feature list and Table 3 live in vtsmodel/b18.py; every other module imports them.
    features = re.compile(r"""\(\s*["']base["'],\s*["']ehpo["'],\s*["']paf["']\s*,?\s*\)""")
    table3 = re.compile(r"""load\(\s*["']vts_tvc_configs["']""")
    found = [
        f"{p.relative_to(PACKAGE)}: {what}"
        for p, text in _sources().items()
        if p.name != "b18.py"
        for what, pattern in (("the feature tuple", features), ("Table 3 read", table3))
        if pattern.search(text)
    ]
    assert not found, found
