"""Answer key of lesson 10 (the library over the years), from vtsmodel's library models."""

from __future__ import annotations

import math
import warnings

from vtsmodel import VtsModelWarning
from vtsmodel.app.lessons.library import INPUTS, _model
from vtsmodel.app.text import number

_D = {k: INPUTS[k].default for k in INPUTS if k != "years"} | {"years": INPUTS["years"].default}


def _years(**changes):
    v = _D | changes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VtsModelWarning)  # the page shows them as notes
        return _model(v["years"], v["ingest_growth"], v["library"], v["drive"], v["copies"], v["compression"],
                      v["robot_move_s"])  # fmt: skip


def _units(r) -> str:
    return (
        "more than one library" if math.isinf(r.final_units) else f"{int(r.final_units)} {r.library.unit}(s)"
    )


def answers() -> list[str]:
    """The five answers of lesson 10, at the page's defaults (CERN's writes, SL8500, LTO-9, one copy)."""
    flat, grown = _years(), _years(ingest_growth=0.3)
    fast = _years(ingest_growth=0.3, robot_move_s=3.0)
    small = _years(library="TS4300")
    rated, plain = _years(compression=2.5), _years(compression=1.0)
    lto5 = _years(drive="LTO5")
    slots = flat.library.slots_base
    return [
        f"With no growth year 5 holds {int(flat.archive.cartridges_onsite[-1]):,} cartridges in "
        f"{slots:,.0f} slots of one basic module. At 30 % a year it holds "
        f"{int(grown.archive.cartridges_onsite[-1]):,}, and what binds in year 5 is the {grown.binding[-1]}: "
        f"{number(grown.mounts_per_hour[-1])} mounts an hour at {number(grown.robot_move_s)} s a move keep the "
        f"robots busy {number(100 * grown.robot_utilisation[-1])} %, while the library still has room to add slots.",
        f"At 3 s a move (and 30 % growth) year 5 binds on the {fast.binding[-1]}: the robots keep up, "
        f"{_units(fast)} hold the archive.",
        f"The TS4300 binds on the {small.binding[0]} in year 0: the CERN flows need {int(max(small.drives))} "
        f"LTO-9 drives and each {small.library.unit} takes {number(small.library.drives_base)}, so "
        f"{_units(small)} before any cartridge is stored.",
        f"At 2.5:1 year 5 needs {int(rated.archive.cartridges_onsite[-1]):,} cartridges and {_units(rated)}; at "
        f"1:1, {int(plain.archive.cartridges_onsite[-1]):,} and {_units(plain)}. The rated ratio assumes data "
        "that compresses as the vendor's test data: archives of compressed or encrypted files do not.",
        f"LTO-5: {int(max(lto5.drives))} drives (LTO-9: {int(max(flat.drives))}), "
        f"{int(lto5.archive.cartridges_onsite[-1]):,} cartridges ({int(flat.archive.cartridges_onsite[-1]):,}), "
        f"{lto5.robots} robots needed ({flat.robots}); what binds: {lto5.binding[-1]}. The cartridges change "
        f"most, {number(lto5.archive.cartridges_onsite[-1] / flat.archive.cartridges_onsite[-1])} times as many.",
    ]
