"""Lesson 04's block size (vtsmodel.app.lessons.block_size) without a browser: the StorageTek tables and fits."""

import numpy as np
import pytest

from vtsmodel import drives, load
from vtsmodel.app.figures import trace_named
from vtsmodel.app.lessons import block_size
from vtsmodel.app.lessons import efficiency as L
from vtsmodel.app.text import number

from .test_efficiency import shape

stk = load("stk_facts")


def test_block_size_fits_keep_the_tables_shape():
    # stk-acs4400-cray: writes "fastest when using a block size of 64KB"; reads fastest at
    # 128 KB. The write fit's overflow factor is calibrated to the 128 KB write point (the
    # one point past the buffer share), so the drop is the table's, not evidence of the fit.
    blocks = np.array([32.0, 64.0, 128.0])
    w, r = (np.asarray(drives.transfer_rate(blocks, d), float) for d in ("write", "read"))
    assert w[1] > max(w[0], w[2]) and blocks[np.argmax(w)] == stk.value("write_fastest_block")
    assert r[2] > r[1] > r[0] and blocks[np.argmax(r)] == stk.value("read_fastest_block")


def test_block_size_panel_buffer_share():
    # "shared equally among all drives configured": fewer drives, a bigger share, and the
    # 128 KB write no longer drops.
    p = L.block_size_panel()
    assert p.readout_values["fastest write block"] == "64 KB"
    assert p.readout_values["buffer share per drive"] == f"{number(stk.value('buffer_per_drive'))} KB"
    p.set(drives_sharing=4, block_kb=128.0)
    assert p.readout_values["fastest write block"] == "128 KB"
    buf = p.values["controller_buffer_kb"]
    w = float(drives.transfer_rate(128.0, "write", controller_buffer_kb=buf, drives_sharing=4))
    assert p.readout_values["write rate"] == f"{number(w)} MB/s"
    spec = p.figure("block_size")
    pt = shape(spec, "write at this block size")
    assert (pt["xanchor"], pt["yanchor"]) == pytest.approx((128.0, w))
    fit = trace_named(spec, "write, fit")
    np.testing.assert_allclose(fit["y"], drives.transfer_rate(np.asarray(fit["x"]), "write",
                                                              controller_buffer_kb=buf, drives_sharing=4))  # fmt: skip
    measured = trace_named(spec, "read, measured")
    assert list(measured["y"]) == list(load("stk_transfer_rates").where(direction="read")["value"])


def test_residuals_are_the_fits():
    spec = L.block_size_panel().figure("residuals")
    for d in ("write", "read"):
        np.testing.assert_allclose(trace_named(spec, d)["y"], drives.transfer_rate_fit(d).residuals)


def test_fit_numbers_are_labelled_with_units():
    text = block_size.fit_numbers()
    for d in drives.DIRECTIONS:
        fit = drives.transfer_rate_fit(d)
        assert f"{d} fit: " in text and f"rms residual {number(fit.rms)} MB/s" in text
