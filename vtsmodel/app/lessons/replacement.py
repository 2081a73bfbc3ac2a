"""Lesson 08, the curve compared: other replacement policies, and the curve from a sample of volumes.

The page's curve is LRU's, exact, from one pass. Two comparisons, each at a cost the page
asks for: libCacheSim's other policies (FIFO, LFU, ARC, …) at the Table 3 sizes, one
simulation per policy and size (:func:`vtsmodel.hits.simulate_policy`), drawn as marks and
listed in a table; and SHARDS (Waldspurger et al., FAST 2015), the curve from a hashed sample
of volumes whose memory does not grow with the log (:func:`vtsmodel.hits.shards_hit_curve`),
drawn over the exact curve with its largest error at the Table 3 sizes. The page is
:class:`vtsmodel.app.lessons.hits.HitsPage`.
"""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

from vtsmodel import Input, hits
from vtsmodel.app import cache
from vtsmodel.app.figures import COLORS
from vtsmodel.app.lessons.hit_curve import LogSource, numbers_table, pct, scale_of
from vtsmodel.app.panels import View
from vtsmodel.app.text import number

_SHARDS = "Waldspurger et al., FAST 2015"
INPUTS = {
    "policies": Input("other policies (libCacheSim)", "", False, source="libCacheSim",
                      help="FIFO, LFU, ARC, … at the Table 3 sizes: one simulation per policy and size."),
    "shards": Input("sampled curve (SHARDS)", "", False, source=_SHARDS,
                    help="The curve from a hashed sample of volumes, and its error against the exact one."),
    "max_volumes": Input("SHARDS sample", "", 1024, choices=tuple((f"{n:,} volumes", n) for n in (256, 1024, 4096, 16384, 65536)),
                         source=_SHARDS, help="Most volumes the sample tracks at once: its memory, whatever the log's length."),
}  # fmt: skip
#: Largest log the page runs the other policies on: each costs one libCacheSim run per Table 3
#: size (the example log, 8,000 mounts: 7 to 11 s for 10 policies × 9 sizes on a shared 2-core machine). [mounts]
MAX_POLICY_MOUNTS = 20_000
#: Marker symbol and colour of each policy of :data:`vtsmodel.hits.POLICIES`, in its order.
_POLICY_MARKS = tuple(zip(
    ("x", "triangle-up", "square", "diamond", "star", "cross", "triangle-down", "pentagon", "hexagon", "hourglass"),
    ("#555555", COLORS[5], COLORS[7], COLORS[0], COLORS[1], COLORS[2], COLORS[3], COLORS[4], "#8C564B", "#7F3C8D"),
    strict=True,
))  # fmt: skip


@cache.kept(keep=8)
def sampled_curve_of(source: LogSource, warmup_hours: float, max_volumes: int) -> hits.HitCurve:
    """The SHARDS curve of the log."""
    return hits.shards_hit_curve(source.log, max_volumes=max_volumes, warmup_hours=warmup_hours)


@cache.kept(keep=4)
def policies_of(source: LogSource, capacities: tuple, warmup_hours: float) -> dict[str, hits.CapacityHits]:
    """Every libCacheSim policy at ``capacities`` (in the log's basis): one run per policy and size."""
    return {p: hits.simulate_policy(source.log, capacities, policy=p, warmup_hours=warmup_hours)
            for p in hits.POLICIES}  # fmt: skip


def runs(source: LogSource, cf, cache_rule, warmup_hours, capacities=None):
    """The marked capacities (Table 3's or the chosen) and each policy's hits there; None above the page's limit."""
    if len(source.log) > MAX_POLICY_MOUNTS:
        return None
    sc = scale_of(source, cf, cache_rule, warmup_hours, capacities)
    return sc, policies_of(source, tuple(sc.marks_log), warmup_hours)


def traces(
    source: LogSource,
    cf,
    cache_rule,
    warmup_hours,
    policies=False,
    shards=False,
    max_volumes=1024,
    capacities=None,
) -> list:
    """What the curve's figure draws on request: the sampled curve with its error band, the other policies' marks."""
    out = []
    sc = scale_of(source, cf, cache_rule, warmup_hours, capacities)
    if shards:
        s = sampled_curve_of(source, warmup_hours, max_volumes)
        y = s.read_hit_ratio(sc.grid_log)
        # 2 standard errors alone held the exact ratio at only 61-85 % of capacities (BENCHMARKS.md):
        # the band is the wider of them and the error a sample this size had on the benchmark's logs
        band = np.maximum(2 * s.read_hit_error(sc.grid_log), s.expected_error)
        out.append(go.Scatter(x=np.concatenate([sc.grid, sc.grid[::-1]]), y=np.concatenate([y + band, (y - band)[::-1]]),
                              fill="toself", mode="lines", line={"width": 0}, fillcolor="rgba(214,39,40,0.12)",
                              name="SHARDS ± its likely error", hoverinfo="skip"))  # fmt: skip
        out.append(go.Scatter(x=sc.grid, y=y, mode="lines", name=f"SHARDS, by count ({max_volumes:,} volumes)",
                              line={"color": COLORS[3], "dash": "dot", "width": 2.5}))  # fmt: skip
    found = runs(source, cf, cache_rule, warmup_hours, capacities) if policies else None
    if found:
        sc, by_policy = found
        for (name, h), (symbol, color) in zip(by_policy.items(), _POLICY_MARKS, strict=False):
            out.append(go.Scatter(x=sc.marks, y=h.read_hit_ratio, mode="markers", name=f"{name} (libCacheSim)",
                                  marker={"size": 8, "symbol": symbol, "color": color},
                                  hovertemplate=f"{name}<br>%{{x:,.4g}} GB: %{{y:.3f}}<extra></extra>"))  # fmt: skip
    return out


def policies_html(r) -> str:
    """Each libCacheSim policy's read-hit ratio at the marked capacities, as an HTML table ('' when not run).

    ``r``: a :class:`~.hit_curve.HitsResult`.
    """
    from vtsmodel.app.text import size

    if not r.policy_hits:
        return ""
    sc = r.recalls.scale
    rows = [("LRU, one pass (this page's curve)", r.recalls.marked.read_hit_ratio)] + [
        (f"{p} (libCacheSim)", h.read_hit_ratio) for p, h in r.policy_hits.items()
    ]
    head = [f"{g:,.0f} GB" for g in sc.marks] if sc.table3 else [size(g) for g in sc.marks]
    table = numbers_table(["policy", *head], [[html.escape(name)] + [pct(float(x)) for x in row] for name, row in rows],
                          "vtsmodel-policies", label_first=True)  # fmt: skip
    return f"<p><b>Read hits (by count) of other replacement policies at the {sc.mark_name}</b></p>{table}"


def view_compared(r) -> View:
    """The sampled curve's error at the marked capacities; a note where the policies do not run.

    ``r``: a :class:`~.hit_curve.HitsResult`. Its traces are drawn in the curve's base
    (:func:`traces`): no figure of its own.
    """
    readouts, notes = {}, ()
    if r.sampled is not None:
        sc, s = r.recalls.scale, r.sampled
        err = np.abs(s.read_hit_ratio(sc.marks_log) - r.recalls.marked.read_hit_ratio)
        readouts[f"SHARDS error at {'Table 3 sizes' if sc.table3 else 'the chosen capacities'}"] = (
            f"{number(float(np.nanmax(err)), 2)} at most (sampling rate {number(s.sampling_rate)}); expected "
            f"about {number(s.expected_error, 2)} for a sample this size (measured), ± 2 standard errors "
            f"{number(float(np.nanmax(2 * s.read_hit_error(sc.marks_log))), 2)} at most"
        )
    if r.policies and len(r.source.log) > MAX_POLICY_MOUNTS:
        notes = (f"the other policies run on logs of up to {MAX_POLICY_MOUNTS:,} mounts in the page "
                 "(one simulation per policy and size); for this log use vtsmodel.hits.simulate_policy",)  # fmt: skip
    return View(figures={}, readouts=readouts, notes=notes)
