"""Lesson 04, a drive's rates outside the lab: spec vs observed, and the limits outside the drive.

A drive family's native and compressed maximum rates (the makers' specs) beside what was
observed, and the rate one drive gets from the host: the least of its rate at this compression,
its share of a bus other drives stream on, and the disk-pool stream. Also the drive catalog as a
table (every value with its source). The panel is :func:`vtsmodel.app.lessons.efficiency.rates_panel`.
Sources: adsm-l-lto-2003, cern-tape-sizing-2005, the drive catalog.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import plotly.graph_objects as go

from vtsmodel import Input, catalog, drives
from vtsmodel import quantities as q
from vtsmodel.app.figures import COLORS, Plot, figure_json, new_figure
from vtsmodel.app.panels import Stage, View
from vtsmodel.app.text import number, percent
from vtsmodel.data import load

_ADSM = "adsm-l-lto-2003"


def drive_options(**having) -> tuple:
    """The catalog's drives (:func:`vtsmodel.catalog.drive_options`) labelled with their speed: ``(label, key)``."""
    return tuple(
        (f"{label}, {number(catalog.drive_spec(key).speed_mb_s)} MB/s", key)
        for label, key in catalog.drive_options(**having)
    )


def short_name(spec: catalog.DriveSpec) -> str:
    """A drive's label without its bracketed model number."""
    return spec.label.split(" (")[0]


INPUTS = {
    "rate_drive": Input("drive", "", "LTO1", choices=drive_options(having=("native_rate",)),
                        source="data/drive_catalog.csv", help="A catalog drive with a native rate; the chart "
                        "shows its family in order of generation."),
    "compression_ratio": q.COMPRESSION_RATIO.but(hi=4.0, step=0.01),
    "drives_per_bus": Input("drives per bus", "-", 2, lo=1, hi=8, integer=True, source=_ADSM,
                            help="Drives streaming at once on one shared bus (the site keeps two per SCSI bus)."),
    "bus_mb_s": Input("shared bus", "MB/s", 60.0, lo=10.0, hi=2000.0, step=10.0,
                      source=f"{_ADSM} (\"2x30 = 60 MB/sec\"); range: project assumption",
                      help="Bandwidth of the bus the drives share."),
}  # fmt: skip


def host_rate(drive, compression_ratio=2.0, drives_per_bus=2, bus_mb_s=60.0, stream_mb_s=20.0):
    """Rate one drive gets from the host, the limit that binds, and every limit. [MB/s]

    The least of the drive's rate at this compression (capped at its compressed maximum),
    its share of a bus that ``drives_per_bus`` drives stream on, and the disk-pool stream;
    on a tie the drive binds.
    """
    spec = catalog.drive_spec(drive)
    own = float(drives.compressed_rate(spec.native_rate_mb_s, compression_ratio,
                                       max_rate_mb_s=spec.compressed_max_rate_mb_s))  # fmt: skip
    on_bus = float(drives.scsi_bus_rate(own, drives_per_bus, bus_mb_s=bus_mb_s))
    limits = {"the drive": own, "the shared bus": on_bus, "the disk-pool stream": float(stream_mb_s)}
    binding = min(limits, key=lambda x: (limits[x], x != "the drive"))
    return limits[binding], binding, limits


def _family(drive: str) -> list[catalog.DriveSpec]:
    fam = catalog.drive_spec(drive).family
    return [s for s in catalog.drive_catalog().values() if s.family == fam]


_BARS = (("native (spec)", "native_rate"), ("compressed max (spec)", "compressed_max_rate"),
         ("observed", "observed_rate"))  # fmt: skip


def rates_base(drive: str) -> dict:
    """Spec and observed rates of ``drive``'s family, in order of generation (cited hover)."""
    fam = _family(drive)
    fig = new_figure(title=f"{dict(catalog.FAMILIES)[fam[0].family]}: spec vs observed vs this setting",
                     yaxis_title="rate [MB/s]", height=400)  # fmt: skip
    top = 0.0
    for i, (name, quantity) in enumerate(_BARS):
        provs = [s.provenance(quantity) for s in fam]
        y = [None if p is None else p.value for p in provs]
        if quantity == "observed_rate":  # the catalog's primary observation (the lowest, where several)
            y = [s.observed_rate_mb_s for s in fam]
        top = max([top, *(v for v in y if v is not None)])
        fig.add_bar(x=[short_name(s) for s in fam], y=y, name=name, marker_color=COLORS[i],
                    hovertext=["" if p is None else html.escape(str(p)) for p in provs],
                    hovertemplate="%{x}: %{y:,.3~r} MB/s<br>%{hovertext}<extra>" + name + "</extra>")  # fmt: skip
    caps = [4.0 * s.native_rate_mb_s for s in fam if s.native_rate_mb_s and not s.compressed_max_rate_mb_s]
    fig.update_yaxes(range=[0, 1.08 * max([top, *caps])])
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0})
    return figure_json(fig)


@dataclass(frozen=True, eq=False)
class RatesResult:
    """One drive's rate from the host at one setting, and its family's at the same setting.

    Attributes
    ----------
    spec : vtsmodel.catalog.DriveSpec
        The drive.
    family : list of vtsmodel.catalog.DriveSpec
        Its family, in order of generation.
    compression_ratio, drives_per_bus, bus_mb_s, stream_mb_s
        The inputs.
    rate_mb_s : float
        The host rate of the drive (:func:`host_rate`). [MB/s]
    binding : str
        What limits it.
    limits : dict of str to float
        Every limit. [MB/s]
    family_rates : list of float or None
        Each family member's host rate at this setting (None without a native rate). [MB/s]
    """

    spec: object
    family: list
    compression_ratio: float
    drives_per_bus: int
    bus_mb_s: float
    stream_mb_s: float
    rate_mb_s: float
    binding: str
    limits: dict
    family_rates: list


def evaluate_rates(rate_drive="LTO1", compression_ratio=2.0, drives_per_bus=2, bus_mb_s=60.0,
                   stream_mb_s=20.0) -> RatesResult:  # fmt: skip
    """Panel 3: the drive's host rate at this setting, what binds it, and its family's rates."""
    spec, fam = catalog.drive_spec(rate_drive), _family(rate_drive)
    args = (compression_ratio, drives_per_bus, bus_mb_s, stream_mb_s)
    rate, binding, limits = host_rate(rate_drive, *args)
    ys = [host_rate(s.name, *args)[0] if s.native_rate_mb_s else None for s in fam]
    catalog.warn_streaming(rate_drive, rate, compression_ratio=compression_ratio)
    return RatesResult(spec, fam, float(compression_ratio), int(drives_per_bus), float(bus_mb_s), float(stream_mb_s),
                       rate, binding, limits, ys)  # fmt: skip


def view_rates(r: RatesResult) -> View:
    """Panel 3: the drive's family, spec vs observed, this setting's host rates; what binds."""
    spec, fam = r.spec, r.family
    bars = go.Bar(x=[short_name(s) for s in fam], y=r.family_rates, name="this setting", marker_color=COLORS[3],
                  hovertemplate="%{x}: %{y:,.3~r} MB/s<extra>this setting</extra>")  # fmt: skip
    i = [s.name for s in fam].index(spec.name)
    box = {"type": "rect", "xref": "x", "yref": "paper", "x0": i - 0.5, "x1": i + 0.5, "y0": 0, "y1": 1,
           "fillcolor": "rgba(0,0,0,0.07)", "line": {"width": 0}, "opacity": 1, "layer": "below"}  # fmt: skip
    cmax, obs, rate = spec.compressed_max_rate_mb_s, spec.observed_rate_mb_s, r.rate_mb_s
    return View(
        figures={"rates": Plot(rates_base, {"drive": spec.name}, traces=[bars], shapes=[box])},
        readouts={
            "native rate (spec)": f"{number(spec.native_rate_mb_s)} MB/s",
            "compressed max (spec)": "not stated" if cmax is None else f"{number(cmax)} MB/s",
            "observed": "not measured" if obs is None else f"{number(obs)} MB/s",
            "the drive at this compression": f"{number(r.limits['the drive'])} MB/s",
            "per drive on the bus": f"{number(r.bus_mb_s / r.drives_per_bus)} MB/s",
            "host rate, this setting": f"{number(rate)} MB/s",
            "share of the compressed max": "—" if cmax is None else percent(rate / cmax),
        },  # fmt: skip
        binding=f"{r.binding[0].upper()}{r.binding[1:]} binds the {short_name(spec)} at {number(rate)} MB/s.",
        citations=("lto_facts", "cern_facts", *sorted({x for s in fam for x in s.primary_sources})),
    )


#: Panel 3's stage.
RATES = Stage(evaluate_rates, view_rates)


def rate_numbers() -> str:
    """LTO-1's spec and observed rates, two drives on a SCSI bus, a disk-server stream vs LTO-9: labelled lines."""
    disk = load("cern_facts").value("disk_server_stream_rate")
    lto1, lto9 = catalog.drive_spec("LTO1"), catalog.drive_spec("LTO9")
    lto = load("lto_facts")
    k, bus = int(lto.value("drives_per_scsi_bus")), lto.value("scsi_bus_rate_needed")
    rate, binding, _ = host_rate("LTO1", lto1.compression_ratio_spec, k, bus, 1000.0)
    return "\n".join([
        f"LTO-1: {number(lto1.native_rate_mb_s)} MB/s native, {number(lto1.compressed_max_rate_mb_s)} MB/s "
        f"compressed max, {number(lto1.observed_rate_mb_s)} MB/s observed "
        f"({percent(lto1.observed_rate_mb_s / lto1.compressed_max_rate_mb_s)} of the max)",
        f"{k} LTO-1 drives at {number(rate)} MB/s each need {number(k * rate)} MB/s of bus ({binding} binds)",
        f"a {number(disk)} MB/s disk-server stream vs the LTO-9's lowest speed-matching rate "
        f"{number(lto9.min_speed_matching_rate_mb_s)} MB/s: "
        f"{'streams' if catalog.streaming_check('LTO9', disk).all_stream else 'cannot stream'}",
    ])  # fmt: skip


# --- the drive catalog as a table --------------------------------------------------------------

_COLUMNS = (("speed", "MB/s", "observed_rate"), ("native", "MB/s", "native_rate"),
            ("compressed max", "MB/s", "compressed_max_rate"), ("capacity", "GB", "native_capacity"),
            ("lowest speed matching", "MB/s", "min_speed_matching_rate"), ("load", "s", "load_time"),
            ("unload", "s", "unload_time"), ("rewind", "s", "rewind_time"), ("locate", "s", "locate_time"))  # fmt: skip


def _cell(spec: catalog.DriveSpec, quantity: str) -> str:
    if quantity == "observed_rate":  # the speed to size with: observed where measured, else native
        p = spec.provenance("observed_rate") or spec.provenance("native_rate")
        text = f"{number(spec.speed_mb_s)} ({spec.speed_basis})"
    else:
        p = spec.provenance(quantity)
        text = "–" if p is None else number(p.value)
    return f"<td title='{html.escape(str(p)) if p else ''}' style='text-align:right'>{text}</td>"


def catalog_html() -> str:
    """The drive catalog by family, in order of generation; hover a value for its row's source."""
    head = "".join(f"<th style='text-align:right'>{h} [{u}]</th>" for h, u, _ in _COLUMNS)
    body = []
    for g in catalog.drive_choices():
        body.append(f"<tr><th colspan='11' style='text-align:left'>{html.escape(g.label)}</th></tr>")
        for c in g.drives:
            s = catalog.drive_spec(c.key)
            body.append(f"<tr><td style='text-align:left'>{html.escape(c.label)}</td>"
                        f"{''.join(_cell(s, q) for _h, _u, q in _COLUMNS)}"
                        f"<td style='text-align:left'>{html.escape(', '.join(s.primary_sources))}</td></tr>")  # fmt: skip
    left = "style='text-align:left'"
    return (f"<table class='vtsmodel-sources'><thead><tr><th {left}>drive</th>{head}<th {left}>sources</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")  # fmt: skip
