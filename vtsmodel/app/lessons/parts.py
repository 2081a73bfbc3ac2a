"""Lesson 03, the parts of one recall: robot, load, the rest of the mount cycle, search, read, rewind.

Each part's value comes from the drive where a source gives it (the 3494 VTS's paper, the
drive catalog) and is borrowed from CERN's 9940B figures otherwise; the figure's hover and
the readouts say which. Also the drive choices, their presets and sources, which the queue
and the arrivals panels share. The panel is :func:`vtsmodel.app.lessons.recall.parts_panel`.
Sources: ibm-vts-b18-2000, Secs. 3.4 and 7, Fig. 6; cern-tape-sizing-2005; the drive catalog.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from vtsmodel import Input, catalog, recall
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number, percent
from vtsmodel.data import load

_VTS = load("vts_facts")
#: Fig. 6's volume sizes. [MB]
FIG6_SIZES = tuple(_VTS.value(f"fig6_volume_mb_{k}") for k in ("small", "medium", "large"))
#: The paper's best case, "approximately two to three minutes" (Sec. 3.4). [s]
BEST_CASE_S = (_VTS.value("recall_mount_best_low"), _VTS.value("recall_mount_best_high"))
#: The paper's own settings (the 3494 VTS's presets of :func:`vtsmodel.recall.drive_preset`),
#: then every catalog drive, by family and generation.
DRIVE_CHOICES = (
    ("VTS B18, IBM 3590 B (Fig. 6)", "3590B"),
    ("VTS B18, IBM 3590 E", "3590E"),
    *catalog.drive_options(),
)
_VTS_DRIVES = ("3590B", "3590E")
_PARTS = {"robot": "robot fetch", "load": "load/thread", "overhead": "rest of mount cycle",
          "search": "search", "read": "read volume", "rewind_unload": "rewind/unload"}  # fmt: skip
PART_INPUTS = ("robot_s", "load_s", "overhead_s", "search_s", "rewind_unload_s")
_P = recall.drive_preset("3590B")


def _part(label: str, key: str, hi: float, step: float, source: str, help: str) -> Input:
    return Input(label, "s", round(_P[key], 6), lo=0.0, hi=hi, step=step, source=source, help=help)


_CERN = "cern-tape-sizing-2005, tMount (borrowed: 'for 9940 type drives')"
_EQUATIONS = tuple((f"{p.locator} ({t}), {p.printed} min", t) for t in recall.MOUNT_EQUATIONS
                   for p in [load("vts_import_export").provenance(f"{t}_per_mount")])  # fmt: skip
INPUTS = {
    "mount_equation": Input("3494 mount cycle", "", "export", choices=_EQUATIONS, source="ibm-vts-b18-2000, Sec. 7",
                            help="Whose per-mount term is one 3494 VTS mount cycle (the 3590 settings only)."),
    "robot_s": _part("robot fetch", "robot_s", 120.0, 0.5, _CERN, "Cartridge from its cell to the drive."),
    "load_s": _part("load/thread", "load_s", 120.0, 0.5, _CERN, "Load and thread to ready."),
    "overhead_s": _part("rest of mount cycle", "overhead_s", 200.0, 0.1,
                        "project assumption (ibm-vts-b18-2000, Eq. 1 per mount minus the borrowed parts)",
                        "The 3494 VTS's own mount cost not in the other parts."),
    "search_s": _part("search", "search_s", 120.0, 0.5, "ibm-vts-b18-2000, Sec. 7 (about 21 s)",
                      "Locate the volume on the stacked cartridge."),
    "rewind_unload_s": _part("rewind/unload", "rewind_unload_s", 120.0, 0.5, _CERN,
                             "After the read: the drive stays busy, the recall is already ready."),
}  # fmt: skip


def preset_parts(drive: str, mount_equation: str = "export") -> dict[str, float]:
    """The part inputs of ``drive``'s preset (:func:`vtsmodel.recall.drive_preset`), as the sliders take them."""
    p = recall.drive_preset(drive, mount_equation)
    return {k: round(float(p[k]), 6) for k in PART_INPUTS}


def part_sources(drive: str, mount_equation: str = "export") -> dict[str, tuple[str, str]]:
    """Where each part of a recall on ``drive`` comes from: ``part -> (basis, text)``.

    ``basis`` is ``"own"`` (the drive's or the paper's own figure), ``"borrowed"`` (CERN's
    9940B figures), ``"assumption"`` or ``"none"``.
    """
    cern = ("borrowed", "borrowed: CERN's figure for 9940 type drives (cern-tape-sizing-2005)")
    move = load("cern_facts").provenance("tmount_move")
    robot_move = ("borrowed", f"borrowed: CERN's robot move, {move.printed} ({move.source}): the library's")
    if drive in _VTS_DRIVES:
        eq1 = load("vts_import_export").provenance(f"{mount_equation}_per_mount")
        rate = catalog.drive_spec(f"IBM{drive}").provenance("native_rate")
        return {"robot": robot_move, "load": cern,
                "overhead": ("assumption", f"assumption: {eq1.source} {eq1.locator}'s {eq1.printed} min per "
                             "mount minus the borrowed robot, load and rewind/unload"),
                "search": ("own", "the VTS paper: 'about 21 seconds' (ibm-vts-b18-2000, Sec. 7)"),
                "read": ("own", f"the drive's rate: {rate.source}, {rate.locator}"), "rewind_unload": cern}  # fmt: skip
    spec = catalog.drive_spec(drive)
    rate = spec.provenance("native_rate") or spec.provenance("observed_rate")
    read = ("own", f"the drive's rate: {rate.source}, {rate.locator}")
    if drive == "STK3480":
        single = load("stk_facts").provenance("mount_time_single_session")
        return {"robot": ("own", f"StorageTek's single-session mount, {single.printed}: robot and load ({single.source})"),
                "load": ("none", "none: inside the single-session mount"), "overhead": ("none", "none"),
                "search": ("assumption", "assumption: none, files read from the start of the tape"),
                "read": read, "rewind_unload": cern}  # fmt: skip
    mp = catalog.mount_parts(drive)

    def own_or_cern(part):
        m = mp[part]
        srcs = ", ".join(sorted({p.source for p in m.provenance}))
        return ("own", f"the drive's own: {srcs}") if m.basis == "drive" else cern

    return {"robot": robot_move, "load": own_or_cern("load"), "search": own_or_cern("locate"),
            "overhead": ("none", "none: the 3494 VTS's mount-cycle remainder applies only inside it"),
            "read": read, "rewind_unload": own_or_cern("rewind_unload")}  # fmt: skip


def parts_with(basis: dict, kind: str) -> str:
    """The parts of :func:`part_sources` whose basis is ``kind``, named shortly (``"robot, load"``), or "none"."""
    return (
        ", ".join(k.split("_")[0] if k != "overhead" else "rest" for k, (b, _) in basis.items() if b == kind)
        or "none"
    )


def drive_citations(drive: str) -> tuple:
    """What a recall on ``drive`` cites: CERN's figures, the paper's tables for its drives, the drive's own sources."""
    key = f"IBM{drive}" if drive in _VTS_DRIVES else drive
    extra = {"3590B": ("vts_facts", "vts_import_export"), "3590E": ("vts_facts", "vts_import_export"),
             "STK3480": ("stk_facts",)}.get(drive, ())  # fmt: skip
    return ("cern_facts", *extra, *catalog.drive_spec(key).primary_sources)


# --- the figure, the view and the notebook's numbers ---------------------------------------------


def parts_base(
    drive, mount_equation, volume_mb, cf, robot_s, load_s, overhead_s, search_s, rewind_unload_s
) -> dict:
    """Stacked bars: the parts of one recall for the Fig. 6 sizes and ``volume_mb``; hover says each part's source."""
    kw = dict(robot_s=robot_s, load_s=load_s, overhead_s=overhead_s, search_s=search_s,
              rewind_unload_s=rewind_unload_s)  # fmt: skip
    sizes = np.array(list(dict.fromkeys((*FIG6_SIZES, volume_mb))))
    parts = recall.recall_parts(sizes, cf=cf, drive=drive, **kw)
    preset, sources = preset_parts(drive, mount_equation), part_sources(drive, mount_equation)
    labels = [f"{number(v)} MB" + (" (this volume)" if v == volume_mb else "") for v in sizes]
    fig = new_figure(
        title="Where a recall's time goes", xaxis_title="time [s]", yaxis_title="volume size", height=400
    )
    for i, key in enumerate(recall.RECALL_PARTS):
        text = sources[key][1]
        if f"{key}_s" in kw and kw[f"{key}_s"] != preset[f"{key}_s"]:
            text = f"set by you (the drive's preset: {number(preset[f'{key}_s'])} s, {text})"
        fig.add_trace(go.Bar(x=np.asarray(parts[key]), y=labels, orientation="h", name=_PARTS[key],
                             marker_color=COLORS[i % len(COLORS)], opacity=0.55 if key == "rewind_unload" else 1.0,
                             hovertemplate=f"{_PARTS[key]}: %{{x:.1f}} s<br>{text}<extra>%{{y}}</extra>"))  # fmt: skip
    fig.add_vrect(x0=BEST_CASE_S[0], x1=BEST_CASE_S[1], fillcolor=COLORS[2], opacity=0.12, line_width=0)
    fig.add_annotation(x=sum(BEST_CASE_S) / 2, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                       text="3494 VTS best case, 2–3 min (Sec. 3.4)", font={"size": 12})  # fmt: skip
    total = float(np.max(sum(np.asarray(p) for p in parts.values())))
    fig.update_xaxes(range=[0, max(300.0, 1.05 * total)])
    fig.update_yaxes(autorange="reversed")  # the Fig. 6 sizes from the top, this volume last
    fig.update_layout(barmode="stack", legend={"orientation": "h", "y": -0.2, "traceorder": "normal"})
    return figure_json(fig)


@dataclass(frozen=True)
class PartsResult:
    """One recall on a free drive, part by part.

    Attributes
    ----------
    drive, mount_equation, volume_mb, cf
        The inputs.
    settings : dict of str to float
        The part inputs used (:data:`PART_INPUTS`: those given, else the drive's preset). [s]
    parts : dict of str to float
        Each part of the recall (:data:`vtsmodel.recall.RECALL_PARTS`). [s]
    ready_s, service_s : float
        Until the volume is ready, and the drive's time per recall. [s]
    """

    drive: str
    mount_equation: str
    volume_mb: float
    cf: float
    settings: dict
    parts: dict
    ready_s: float
    service_s: float


def evaluate_parts(drive="3590B", mount_equation="export", volume_mb=250.0, cf=3.0, robot_s=None, load_s=None,
                   overhead_s=None, search_s=None, rewind_unload_s=None) -> PartsResult:  # fmt: skip
    """The parts of one recall; a part not given takes the drive's preset (:func:`preset_parts`)."""
    volume_mb = round(float(volume_mb), 6)  # a slider's float step is this size, not a second bar
    given = {"robot_s": robot_s, "load_s": load_s, "overhead_s": overhead_s, "search_s": search_s,
             "rewind_unload_s": rewind_unload_s}  # fmt: skip
    kw = {**preset_parts(drive, mount_equation), **{k: v for k, v in given.items() if v is not None}}
    p = {k: float(v) for k, v in recall.recall_parts(volume_mb, cf=cf, drive=drive, **kw).items()}
    ready = float(recall.recall_ready_s(volume_mb, cf=cf, drive=drive, **kw))
    service = float(recall.recall_service_s(volume_mb, cf=cf, drive=drive, **kw))
    return PartsResult(drive, mount_equation, volume_mb, float(cf), kw, p, ready, service)


def view_parts(r: PartsResult) -> View:
    """The parts of one recall; which are the drive's own and which borrowed."""
    p, ready, basis = r.parts, r.ready_s, part_sources(r.drive, r.mount_equation)
    lo, hi = BEST_CASE_S
    mount = ready - p["read"]
    binding = (f"The mount cycle, not the read, dominates a recall: {number(mount)} s of the {number(ready)} s "
               "until ready." if mount >= p["read"] else
               f"The read dominates this recall: {number(p['read'])} s of the {number(ready)} s until ready.")  # fmt: skip
    readouts = {
        "recall ready, free drive": f"{number(ready)} s ({number(ready / 60.0)} min)",
        "drive busy per recall": f"{number(r.service_s)} s ({number(r.service_s / 60.0)} min)",
        "read share of ready": percent(p["read"] / ready),
        "in the paper's 2–3 min": "yes" if lo <= ready <= hi else ("no, faster" if ready < lo else "no, slower"),
        "the drive's own": parts_with(basis, "own"),
        "CERN's (borrowed)": parts_with(basis, "borrowed"),
    }  # fmt: skip
    plot = Plot(parts_base, {"drive": r.drive, "mount_equation": r.mount_equation, "volume_mb": r.volume_mb,
                             "cf": r.cf, **r.settings})  # fmt: skip
    return View(
        figures={"parts": plot}, readouts=readouts, binding=binding, citations=drive_citations(r.drive)
    )


#: The parts panel's stage.
PARTS = Stage(evaluate_parts, view_parts)


def best_case_numbers() -> str:
    """The best case (ready on a free drive) for the Fig. 6 sizes at CF 3, 3590B and 3590E: labelled lines."""
    lines = [f"{number(v)} MB at CF 3, ready on a free drive: 3590B {number(recall.recall_ready_s(v), 4)} s, "
             f"3590E {number(recall.recall_ready_s(v, drive='3590E'), 4)} s" for v in FIG6_SIZES]  # fmt: skip
    lines.append(f"the paper's best case (Sec. 3.4): {number(BEST_CASE_S[0])} to {number(BEST_CASE_S[1])} s")
    return "\n".join(lines)


def drive_numbers(volume_mb: float = 250.0, drives=("3590B", "STK9940B", "IBM3592_60F", "LTO9")) -> str:
    """Recall ready on a free drive for a few drives, and which of their parts are borrowed: labelled lines."""
    lines = []
    for d in drives:
        borrowed = ", ".join(_PARTS[k] for k, (b, _) in part_sources(d).items() if b == "borrowed") or "none"
        lines.append(f"{dict((v, k) for k, v in DRIVE_CHOICES)[d]}, {number(volume_mb)} MB at CF 3: ready after "
                     f"{number(recall.recall_ready_s(volume_mb, drive=d), 4)} s; borrowed from CERN's tMount: "
                     f"{borrowed}")  # fmt: skip
    return "\n".join(lines)
