"""Lesson 04, block size: the StorageTek transfer-rate tables, their fits and the controller buffer.

The write and read rates of a StorageTek 3480 on a Cray Y-MP EL per block size (cited markers),
the curves fitted to them, the fits' residuals, and the share of the SCSI controller's buffer
each configured drive gets. The panel is :func:`vtsmodel.app.lessons.efficiency.block_size_panel`.
Source: stk-acs4400-cray, Test Results b. and c.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vtsmodel import Input, drives
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure, point_mark, source_markers
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number
from vtsmodel.data import load

_STK = "stk-acs4400-cray, Test Results b. and c."
INPUTS = {
    "block_kb": Input("block size", "KB", 64.0, lo=4.0, hi=128.0, scale="log", step=math.log10(2) / 4,
                      valid=(4.0, 128.0), source=_STK, help="Block size of the transfers (the tables: 4 to 128 KB)."),
    "controller_buffer_kb": Input("controller buffer", "KB", 1000.0, lo=250.0, hi=4000.0, step=50.0,
                                  source="stk-acs4400-cray (the Ciprico 4781: 1 MB); range: project assumption",
                                  help="Buffer of the SCSI controller, shared equally by the drives configured."),
    "drives_sharing": Input("drives sharing buffer", "-", 8, lo=1, hi=16, integer=True,
                            source="stk-acs4400-cray (eight drives)", help="Drives configured on the controller."),
}  # fmt: skip
_BLOCKS = np.geomspace(4.0, 128.0, 150)


def block_size_base(controller_buffer_kb: float, drives_sharing: int) -> dict:
    """The StorageTek write and read tables (cited markers), the fitted curves and the buffer share."""
    fig = new_figure(title="Transfer rate vs block size (StorageTek 3480 on a Cray Y-MP EL)",
                     xaxis_title="block size [KB]", yaxis_title="transfer rate [MB/s]", height=400)  # fmt: skip
    t = load("stk_transfer_rates")
    kw = {"controller_buffer_kb": controller_buffer_kb, "drives_sharing": drives_sharing}
    top = 0.0
    for i, direction in enumerate(drives.DIRECTIONS):
        rows = t.where(direction=direction)
        rate = drives.transfer_rate(_BLOCKS, direction, **kw)
        top = max(top, float(np.max(rate)), float(np.max(rows["value"])))
        fig.add_scatter(x=_BLOCKS, y=rate, mode="lines", name=f"{direction}, fit", line={"color": COLORS[i]},
                        hovertemplate=f"{direction}, fit<br>%{{x:.3~r}} KB: %{{y:.3~r}} MB/s<extra></extra>")  # fmt: skip
        fig.add_trace(source_markers(rows["block_kb"], rows["value"], [t.provenance(r) for r in rows["id"]],
                                     name=f"{direction}, measured", color=COLORS[i]))  # fmt: skip
    share = controller_buffer_kb / drives_sharing
    if share <= 128:
        fig.add_vline(x=share, line={"dash": "dot", "color": "#666666"})
        fig.add_annotation(x=math.log10(share), y=0.06, yref="paper", text=f"buffer share {number(share)} KB",
                           showarrow=False, xanchor="right", font={"size": 11})  # fmt: skip
    fig.update_xaxes(type="log", range=[math.log10(3.5), math.log10(146)], tickvals=[4, 8, 16, 32, 64, 128])
    fig.update_yaxes(range=[0, 1.1 * top])
    return figure_json(fig)


def residuals_base() -> dict:
    """Residuals (measured − fitted) of both fits, per block size of the tables."""
    fig = new_figure(title="Fit residuals", xaxis_title="block size [KB]", yaxis_title="measured − fit [MB/s]",
                     height=260)  # fmt: skip
    for i, direction in enumerate(drives.DIRECTIONS):
        fit = drives.transfer_rate_fit(direction)
        fig.add_bar(x=[f"{b:g}" for b in fit.x], y=fit.residuals, name=direction, marker_color=COLORS[i])
    fig.update_xaxes(type="category")
    return figure_json(fig)


@dataclass(frozen=True)
class BlockSizeResult:
    """The StorageTek rates at one block size and buffer share.

    Attributes
    ----------
    controller_buffer_kb, drives_sharing, block_kb
        The inputs.
    write_mb_s, read_mb_s : float
        The fitted write rate (with the buffer share) and read rate at ``block_kb``. [MB/s]
    best_write_kb : float
        The tables' block size with the fastest write at this buffer share. [KB]
    """

    controller_buffer_kb: float
    drives_sharing: int
    block_kb: float
    write_mb_s: float
    read_mb_s: float
    best_write_kb: float

    @property
    def share_kb(self) -> float:
        """Each drive's share of the controller's buffer. [KB]"""
        return self.controller_buffer_kb / self.drives_sharing


def evaluate_block_size(controller_buffer_kb=1000.0, drives_sharing=8, block_kb=64.0) -> BlockSizeResult:
    """Panel 2: write and read rates at a block size (stk-acs4400-cray fits), the fastest write block."""
    kw = {"controller_buffer_kb": controller_buffer_kb, "drives_sharing": drives_sharing}
    w, r = float(drives.transfer_rate(block_kb, "write", **kw)), float(drives.transfer_rate(block_kb, "read"))
    blocks = load("stk_transfer_rates").where(direction="write")["block_kb"]
    best = float(blocks[np.argmax(drives.transfer_rate(blocks, "write", **kw))])
    return BlockSizeResult(float(controller_buffer_kb), int(drives_sharing), float(block_kb), w, r, best)


def view_block_size(r: BlockSizeResult) -> View:
    """Panel 2: the rates at the block size on the fitted curves, the buffer share, the fastest write block."""
    b, share = r.block_kb, r.share_kb
    kw = {"controller_buffer_kb": r.controller_buffer_kb, "drives_sharing": r.drives_sharing}
    marks = [point_mark(b, r.write_mb_s, color=COLORS[0], name="write at this block size"),
             point_mark(b, r.read_mb_s, color=COLORS[1], name="read at this block size")]  # fmt: skip
    return View(
        figures={"block_size": Plot(block_size_base, kw, shapes=marks), "residuals": Plot(residuals_base)},
        readouts={"write rate": f"{number(r.write_mb_s)} MB/s", "read rate": f"{number(r.read_mb_s)} MB/s",
                  "buffer share per drive": f"{number(share)} KB", "fastest write block": f"{number(r.best_write_kb)} KB"},
        binding=f"A {number(b)} KB block {'does not fit' if b > share else 'fits'} in the {number(share)} KB "
                f"buffer share ({number(r.controller_buffer_kb)} KB / {r.drives_sharing} drives).",
        citations=("stk_transfer_rates", "stk_facts"),
    )  # fmt: skip


#: Panel 2's stage.
BLOCK_SIZE = Stage(evaluate_block_size, view_block_size)


def fit_numbers() -> str:
    """Both fits' parameters and rms residuals: labelled lines with units."""
    lines = []
    for direction in drives.DIRECTIONS:
        fit = drives.transfer_rate_fit(direction)
        params = ", ".join(f"{name} {number(v)}" for name, v in fit.as_dict().items())
        lines.append(f"{direction} fit: {params}; rms residual {number(fit.rms)} MB/s")
    return "\n".join(lines)
