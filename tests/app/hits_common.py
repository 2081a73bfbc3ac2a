"""What the lesson 08 tests share: the core's numbers for a log, a named shape of a figure, edge logs."""

from __future__ import annotations

from vtsmodel import hits
from vtsmodel.app.panels import Stage


def core(log, *, cf=3.0, feature=None, warmup_hours=0.0):
    """The exact LRU curve of ``log`` and its Table 3 hits, as :mod:`vtsmodel.hits` computes them."""
    curve = hits.lru_hit_curve(log, warmup_hours=warmup_hours)
    return curve, hits.configuration_hits(curve, feature=feature, cf=cf)


def shape(spec, name):
    """The layout shape called ``name`` in figure JSON."""
    found = [s for s in spec["layout"].get("shapes", []) if s.get("name") == name]
    assert found, f"no shape {name!r}: {[s.get('name') for s in spec['layout'].get('shapes', [])]}"
    return found[0]


#: Logs at the model's edges and the note each gives (not an error): (CSV text, note).
EDGE_LOGS = [
    ("time_s,volume,compressed_mb,access\n", "no reads counted"),
    ("time_s,volume,compressed_mb,access\n0,A,1,scratch_write\n10,B,1,specific_write\n", "no reads counted"),
    ("time_s,volume,compressed_mb,access\n0,A,100000,scratch_write\n60,A,100000,read\n", "largest volume"),
]


def evaluated(**values):
    """The page's evaluation of ``values`` (the example log unless ``source`` is given)."""
    from vtsmodel.app.lessons.hits import HITS

    return HITS.result(values)


def shown(view, **values):
    """``view`` (one of the page's topics) of the page's evaluation of ``values``, the models' warnings as notes."""
    from vtsmodel.app.lessons.hits import evaluate_hits

    return Stage(evaluate_hits, view).show(values)
