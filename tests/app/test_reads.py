"""Lesson 01's reads (vtsmodel.app.lessons.reads) without a browser: the read panel follows the model."""

import numpy as np

from vtsmodel import load
from vtsmodel import throughput as tp
from vtsmodel.app.lessons import reads
from vtsmodel.app.lessons import write as L
from vtsmodel.app.text import number

from .test_write import E1152, curve, quiet


def test_read_panel_follows_the_model():
    p = L.read_panel()
    assert p.values["cf"] == 2.66 and not p.last_error
    r = p.readout_values
    assert r["read hit"] == "64 MB/s" and r["read recall"] == "38 MB/s"  # the Table 1 fit at CF 2.66
    p.set(cf=2.0, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9)
    mix = float(
        tp.typical_mix_rate(2.0, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9, tvc_config=E1152)
    )
    assert p.readout_values["typical mix, total"] == f"{number(mix)} MB/s"
    assert p.readout_values["of which writes"] == f"{number(0.8 * mix)} MB/s"
    x, y = curve(p.figure("reads"), "read recall")
    np.testing.assert_allclose(y, quiet(tp.read_rate, x, kind="recall"))
    x, y = curve(p.figure("mix"), "EHPO")
    np.testing.assert_allclose(
        y,
        quiet(
            tp.typical_mix_rate, x, feature="ehpo", write_fraction=0.8, read_hit_ratio=0.9, tvc_config=E1152
        ),
    )
    markers = [t for t in p.figure("reads")["data"] if (t.get("name") or "").startswith("Table 1")]
    assert sum(len(t["x"]) for t in markers) == len(load("vts_read_rates"))


def test_read_numbers_are_labelled():
    # Table 1 (ibm-vts-b18-2000) from the fitted curves: 64 and 38 MB/s at CF 2.66
    text = reads.read_numbers()
    assert "read hit at CF 2.66: 64 MB/s" in text and "read recall at CF 2.66: 38 MB/s" in text
    for line in text.splitlines():
        assert ": " in line and line.endswith("MB/s"), line


def test_read_sources_are_table_1_and_table_2_at_64_kb():
    assert len(reads.read_sources(32.0)) == len(load("vts_read_rates"))
    assert len(reads.read_sources(64.0)) == len(load("vts_read_rates")) + 1
