"""Answer key of lesson 07 (plan a system), from the planner as the page evaluates it."""

from __future__ import annotations

import warnings

from vtsmodel import ExtrapolationWarning, catalog, plan, read_hourly_workload
from vtsmodel.app.lessons import configurations as cfg
from vtsmodel.app.lessons import planner as page
from vtsmodel.app.text import number

_D = {k: page.INPUTS[k].default for k in page.INPUTS}


def _plan(workload=None, **changes):
    """The page's plan at its defaults with ``changes``: (plan, VTS plan, library plan)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExtrapolationWarning)  # the page shows these as notes
        e = cfg.evaluate(page.answers_of(_D | changes), workload)
    return e.plan, e.vts, e.library


def _choice(vts) -> str:
    return vts.recommended.config.label if vts.recommended else "none"


def _first(test, lo: float, hi: float, step: float) -> float | None:
    """The least multiple of ``step`` in ``[lo, hi]`` where ``test`` holds (it holds from there on), by bisection."""
    a, b = round(lo / step), round(hi / step)
    if not test(b * step):
        return None
    while b - a > 1:
        m = (a + b) // 2
        a, b = (a, m) if test(m * step) else (m, b)
    return b * step


def answers() -> list[str]:
    """The six answers of lesson 07, at the page's default answers (2,000 GB in 6 h at CF 2.5)."""
    _p, base, lib = _plan()
    relax, relaxed = next(((h, v) for h in range(1, 25)
                           if (v := _plan(throttle_hours_allowed=float(h), delay_hours_allowed=float(h))[1]).recommended
                           and v.recommended.config != base.recommended.config), (None, base))  # fmt: skip
    _p, wide, _l = _plan(write_window_hours=10.0)
    p1, cf1, _l = _plan(cf=1.0)
    sens = plan.sensitivity(p1, configuration=cf1.closest.config)
    out = "longest write delay [h]"
    top = sens.tornado(out)[0]
    _p, tight, tight_lib = _plan(recall_target_s=300.0)
    p9, _v, lib9 = _plan(library_drive="LTO9")
    feed = cfg.write_feed_mb_s(p9, lib9)
    check = catalog.streaming_check("LTO9", feed, compression_ratio=_D["cf"]) if feed else None
    example = read_hourly_workload(page.EXAMPLE_WORKLOAD)
    vols = {v: _plan(example, volume_mb=v)[2] for v in (200.0, 800.0, 3200.0)}
    channels = {n: _plan(escon_channels=n)[1] for n in (4, 2)}
    read = page.INPUTS["read_gb_per_day"]
    unserved = _first(
        lambda gb: "leaves" in _plan(read_gb_per_day=gb)[1].headline(), read.default, read.hi, read.step
    )
    passes = _first(
        lambda gb: _plan(read_gb_per_day=gb)[1].recommended is None, read.default, read.hi, read.step
    )
    return [
        (
            f"At the defaults: {_choice(base)}. A smaller configuration is enough once {relax} h of throttling and "
            f"{relax} h of write delay are allowed: {_choice(relaxed)}. {cfg.binding_sentence(relaxed)}"
            if relax
            else f"At the defaults: {_choice(base)}; no relaxing up to 24 h makes a smaller one enough."
        ),
        f"With a 6 h window: {_choice(base)}; with 10 h: {_choice(wide)}. The same data over more hours needs "
        "a lower rate, so the cache and feature the peak requires can shrink.",
        f"At CF 1: {cf1.headline()} The tornado for the {cf1.closest.config.label} puts {top.driver} first for "
        f"the {out.split(' [')[0]} (a swing of {number(top.swing)} h).",
        f"With recalls ready within 300 s: {_choice(tight)} (at the defaults {_choice(base)}): more drives left "
        f"for recalls. The library needs {tight_lib.drives} drives ({lib.drives} at the defaults); the "
        f"{tight_lib.governs} governs.",
        (
            f"Each LTO-9 that writes is fed about {number(feed)} MB/s in the busiest hour; its lowest speed-matching "
            f"rate is {number(check.min_rate_mb_s)} MB/s (at CF {number(_D['cf'])}), so it "
            f"{'streams' if check.all_stream else 'cannot stream: it stops, reverses and restarts (backhitch)'}. "
            f"It would need at least {number(check.min_rate_mb_s * _D['cf'])} host MB/s at this compression."
            if check
            else "No drive writes in this plan, so no feed is checked."
        ),  # fmt: skip
        "With the example workload, the library's drives by volume size: "
        + "; ".join(f"{number(v)} MB, {lb.drives} drives ({lb.governs} governs)" for v, lb in vols.items())
        + ". Larger volumes mean fewer recalls for the same reads, but each keeps a drive longer.",
        "; ".join(
            f"{'With' if i == 0 else 'with'} {n} ESCON channels, {_choice(v)} recommended: the closest "
            f"({v.closest.config.label}) bound by the {v.closest.binding_resource}"
            for i, (n, v) in enumerate(channels.items())
        )
        + ". The headline says the writes offered exceed every configuration's peak: fewer channels lower the "
        "peak further.",
        (
            f"From about {number(passes)} GB read a day no configuration passes"
            + (
                f", and from {number(unserved)} GB the planner names the MB/s of recalls the VTS cannot serve"
                if unserved
                else ""
            )
            + f": the reading PAF takes is below {number(passes)} GB a day at the other default answers."
            if passes
            else "No reading up to the slider's end stops every configuration."
        ),
        _growth_answer(),
        _compression_answer(),
        _price_answer(),
    ]


def _growth_answer() -> str:
    """Item 9: writes growing 30 % a year for 10 years, in the default library and in a TS4300."""
    parts = []
    for name in (_D["library"], "TS4300"):
        y = _plan(ingest_growth=0.3, years=10, library=name)[2].over_years.years
        most = max(y.fill_years)
        full = y.fill_years[most]
        parts.append(
            f"the {y.library.label} binds on the {y.binding[1]} in year 1 and holds "
            f"{int(y.archive.cartridges_onsite[-1]):,} cartridges in year 10; "
            + (f"even {most} {y.library.unit}s are not enough from year {full}" if full is not None
               else f"{int(y.units[-1])} {y.library.unit}(s) hold all ten years")
        )  # fmt: skip
    return "With the writes growing 30 % a year for 10 years: " + "; ".join(parts) + "."


def _compression_answer() -> str:
    """Item 10: the rated 2.5:1 against 1:1 in the last year."""
    rated, plain = (_plan(library_compression=c)[2].over_years.years for c in (2.5, 1.0))
    return (
        f"In year {_D['years']}: {int(rated.archive.cartridges_onsite[-1]):,} cartridges at 2.5:1 against "
        f"{int(plain.archive.cartridges_onsite[-1]):,} at 1:1 ({number(rated.units[-1])} and "
        f"{number(plain.units[-1])} {plain.library.unit}(s)): the rated ratio assumes data that compresses like "
        "the vendor's test data, which archives of compressed or encrypted files do not."
    )


def _price_answer() -> str:
    """Item 11: a cartridge price of 100 (an example, not a market price) against none."""
    none = _plan()[2].over_years.cost
    cost = _plan(price_cartridge_given=True, price_cartridge=100.0)[2].over_years.cost
    return (
        f"At 100 a cartridge (an example price): {number(cost['per_year'][1])} in year 1, "
        f"{number(cost['cumulative'][-1])} over {_D['years']} years, {number(cost['per_tb'][-1])} per TB stored in "
        "the last year. " + ("Without a price the page shows no cost." if none is None else "")
    )
