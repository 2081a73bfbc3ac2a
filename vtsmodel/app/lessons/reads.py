"""Lesson 01, reads: read hit and read recall vs CF, and the typical write/read mix.

The read panel (:func:`vtsmodel.app.lessons.write.read_panel`) shares the write panel's
inputs (CF, configuration, feature, block size, distance); the write fraction and the read
hit ratio are its own. Each figure is a cached base (curves, Table 1 and 2 as cited
markers) and the points CF moves. Source: ibm-vts-b18-2000, Tables 1 and 2, Fig. 9.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vtsmodel import b18
from vtsmodel import quantities as q
from vtsmodel import throughput as tp
from vtsmodel.app.figures import (
    COLORS,
    Plot,
    figure_json,
    frame_validated,
    new_figure,
    point_mark,
    source_markers,
    validated_curve,
)
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number
from vtsmodel.data import load

INPUTS = {
    "write_fraction": q.WRITE_FRACTION.but(step=0.05),
    "read_hit_ratio": q.READ_HIT.but(step=0.05),
}
#: CF axis of the lesson's curves: the validated 1 to 4, and on to 6 drawn as an extrapolation. [-]
CF_AXIS = np.round(np.linspace(1.0, 6.0, 101), 6)
#: The features' short names (``"PAF"``), by value.
FEATURE_NAMES = {v: label.split(" ")[0] for label, v in b18.FEATURE.options}
_READ_CF_VALID = (1.0, 2.66)  # Table 1 measured CF 1 and 2.66


def read_sources(block_kb: float):
    """Table 1's reads (and Table 2's 64 KB read hit): ``(CF, MB/s, provenance, "hit" or "recall")``."""
    t1 = load("vts_read_rates")
    pts = [(float(t1["cf"][i]), float(t1["value"][i]), t1.provenance(r), str(t1["operation"][i]))
           for i, r in enumerate(t1["id"])]  # fmt: skip
    if float(block_kb) == 64.0:
        t2 = load("vts_block_size")
        pts.append((2.66, t2.value("read_hit_64kb"), t2.provenance("read_hit_64kb"), "hit"))
    return pts


def reads_base(block_kb: float, escon_km: float) -> dict:
    """Read hit and read recall vs CF with Table 1 (and Table 2) as cited markers."""
    fig = new_figure(title="Read hit and read recall (8 ESCON, PAF)", xaxis_title="data compressibility CF [-]",
                     yaxis_title="host read rate [MB/s]", height=400)  # fmt: skip
    sources = read_sources(block_kb)
    for kind, color in (("hit", COLORS[2]), ("recall", COLORS[3])):
        y = tp.read_rate(CF_AXIS, kind=kind, block_kb=block_kb, escon_km=escon_km)
        fig.add_traces(validated_curve(CF_AXIS, y, name=f"read {kind}", color=color, valid=_READ_CF_VALID))
        x, yy, prov, _ = zip(*[s for s in sources if s[3] == kind], strict=True)
        fig.add_trace(source_markers(x, yy, prov, name=f"Table 1/2, {kind}", color=color))
    frame_validated(fig, CF_AXIS, _READ_CF_VALID)
    fig.update_yaxes(rangemode="tozero")
    return figure_json(fig)


def mix_base(tvc_config: str, feature: str, block_kb: float, escon_km: float, w: float, h: float) -> dict:
    """Total host rate of the write/read mix vs CF, one curve per feature (the Fig. 9 question)."""
    fig = new_figure(title="Typical mix: writes and reads together", xaxis_title="data compressibility CF [-]",
                     yaxis_title="host rate, total [MB/s]", height=400)  # fmt: skip
    kw = {"write_fraction": w, "read_hit_ratio": h, "block_kb": block_kb, "escon_km": escon_km}
    for i, f in enumerate(b18.FEATURES):
        y = tp.typical_mix_rate(CF_AXIS, feature=f, tvc_config=tvc_config, **kw)
        valid = _READ_CF_VALID if f == "paf" else tp.EQ3_CF_RANGE
        fig.add_traces(validated_curve(CF_AXIS, y, name=FEATURE_NAMES[f], color=COLORS[i], valid=valid,
                                       width=3.0 if f == feature else 1.5))  # fmt: skip
    frame_validated(fig, CF_AXIS, tp.EQ3_CF_RANGE)
    fig.update_yaxes(rangemode="tozero")
    return figure_json(fig)


@dataclass(frozen=True)
class ReadsResult:
    """Read hit, read recall and the typical mix at one CF.

    Attributes
    ----------
    cf, tvc_config, feature, block_kb, escon_km, write_fraction, read_hit_ratio
        The inputs.
    hit_mb_s, recall_mb_s : float
        Host read rates, read hit and read recall (Table 1's model). [MB/s]
    mix_mb_s : float
        The typical mix's total host rate (Fig. 9's question). [MB/s]
    """

    cf: float
    tvc_config: str
    feature: str
    block_kb: float
    escon_km: float
    write_fraction: float
    read_hit_ratio: float
    hit_mb_s: float
    recall_mb_s: float
    mix_mb_s: float


def evaluate_reads(cf=2.66, tvc_config="tvc_1728_36gb_paf", feature="paf", block_kb=32.0, escon_km=0.0,
                   write_fraction=0.6, read_hit_ratio=0.5) -> ReadsResult:  # fmt: skip
    """The read panel: read hit and recall at ``cf`` (ibm-vts-b18-2000, Table 1) and the typical mix."""
    kw = {"block_kb": block_kb, "escon_km": escon_km}
    hit, recall = (float(tp.read_rate(cf, kind=k, **kw)) for k in ("hit", "recall"))
    mix = float(tp.typical_mix_rate(cf, feature=feature, write_fraction=write_fraction, read_hit_ratio=read_hit_ratio,
                                    tvc_config=tvc_config, **kw))  # fmt: skip
    return ReadsResult(float(cf), tvc_config, feature, float(block_kb), float(escon_km), float(write_fraction),
                       float(read_hit_ratio), hit, recall, mix)  # fmt: skip


def view_reads(r: ReadsResult) -> View:
    """The read panel: the rates at this CF on the curves, the mix and what it is made of."""
    kw = {"block_kb": r.block_kb, "escon_km": r.escon_km}
    cf, hit, recall, mix, w, h = (
        r.cf,
        r.hit_mb_s,
        r.recall_mb_s,
        r.mix_mb_s,
        r.write_fraction,
        r.read_hit_ratio,
    )
    figures = {
        "reads": Plot(reads_base, kw, shapes=[point_mark(cf, hit, color=COLORS[2], name="hit at this CF"),
                                              point_mark(cf, recall, color=COLORS[3], name="recall at this CF")]),
        "mix": Plot(mix_base, {"tvc_config": r.tvc_config, "feature": r.feature, "w": w, "h": h, **kw},
                    shapes=[point_mark(cf, mix, name=f"{FEATURE_NAMES[r.feature]} at this CF")]),
    }  # fmt: skip
    binding = (
        f"The mix shares one machine: {w:.0%} of the bytes at the sustained write rate, {(1 - w) * h:.0%} at "
        f"the read hit rate and {(1 - w) * (1 - h):.0%} at the recall rate (a weighted harmonic mean); "
        "recalls are bound by the tape drives, hits by the channels."
    )
    readouts = {"read hit": f"{number(hit)} MB/s", "read recall": f"{number(recall)} MB/s",
                "typical mix, total": f"{number(mix)} MB/s", "of which writes": f"{number(w * mix)} MB/s",
                "of which reads": f"{number((1 - w) * mix)} MB/s"}  # fmt: skip
    return View(
        figures=figures, readouts=readouts, binding=binding, citations=(tp.read_rate, tp.typical_mix_rate)
    )


#: The read panel's stage.
READS = Stage(evaluate_reads, view_reads)


def read_numbers() -> str:
    """Table 1's reads from the fitted curves, and the typical mix at CF 2.66: labelled lines."""
    lines = [
        f"read {k} at CF {c:g}: {number(tp.read_rate(c, kind=k))} MB/s"
        for k in ("hit", "recall")
        for c in (1, 2.66)
    ]
    lines.append(f"typical mix (60/40, 50 % hits), PAF, CF 2.66: {number(tp.typical_mix_rate(2.66))} MB/s")
    return "\n".join(lines)
