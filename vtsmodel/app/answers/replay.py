"""Answer key of lesson 09 (replay your log), from vtsmodel.replay on the example log."""

from __future__ import annotations

from vtsmodel import catalog
from vtsmodel import replay as rp
from vtsmodel.app.lessons.hit_curve import example_source
from vtsmodel.app.lessons.replay import _LIBRARY_KEYS, INPUTS, replay_of
from vtsmodel.app.text import number, percent

_D = {k: INPUTS[k].default for k in INPUTS}


def _replay(**changes) -> rp.Replay:
    v = _D | changes
    return replay_of(example_source(), v["cache_gb"], v["cartridge_share"], v["dismount_after_s"],
                     **{k: v[k] for k in _LIBRARY_KEYS})  # fmt: skip


def answers() -> list[str]:
    """The six answers of lesson 09, on the example log at the page's defaults (16 LTO-9 drives, 864 GB)."""
    q = _D["q"]
    base = _replay()
    p95 = {n: _replay(drives=n).percentile(q) for n in range(_D["drives"], 0, -1)}
    grows = next((n for n, p in p95.items() if p > 1.01 * p95[_D["drives"]]), None)
    a = rp.analytic_beside(_replay(drives=grows or 1), q, warn=False, simulate=False)
    nocache = _replay(cache_gb=0.0)
    held = _replay(dismount_after_s=300.0)
    one, one_held = _replay(cartridge_share=1.0), _replay(cartridge_share=1.0, dismount_after_s=300.0)
    group = _replay(policy="group")
    batch = _replay(batch_requests=4, batch_wait_s=600.0)
    old = _replay(drive="LTO5")
    new_spec, old_spec = catalog.drive_spec(_D["drive"]), catalog.drive_spec("LTO5")

    def part(spec, name: str) -> str:
        value = getattr(spec, name)
        return "none stated" if value is None else f"{number(value)} s"

    few = {p: _replay(policy=p, drives=1) for p in ("fifo", "group")}
    saved = "more" if one_held.loads_saved > held.loads_saved else "no more"
    return [
        (
            f"The p95 response stays {number(p95[_D['drives']])} s down to {grows + 1} drives and grows at {grows}: "
            f"{number(p95[grows])} s. There the replay's p95 wait is {number(a.replay_q_s)} s, M/D/c says "
            f"{number(a.mdc_q_s)} s and M/G/c {number(a.mgc_q_s)} s, with a service cv of {a.service_cv:.2f}."
            if grows
            else f"The p95 response stays {number(p95[_D['drives']])} s down to one drive: the example's load "
            "is light."
        ),  # fmt: skip
        f"With no cache every request goes to tape: {number(nocache.mounts_per_hour)} mounts an hour instead of "
        f"{number(base.mounts_per_hour)}, drives busy {percent(nocache.drive_utilisation)} of the time instead of "
        f"{percent(base.drive_utilisation)}.",
        f"A 300 s dismount delay saves {held.loads_saved:,} loads ({number(held.mounts_per_hour)} mounts an hour "
        f"instead of {number(base.mounts_per_hour)}) and holds drives idle for {number(held.drive_held_s / 3600)} "
        f"drive hours. The mean response goes from {number(base.mean_response_s)} s to "
        f"{number(held.mean_response_s)} s: with drives to spare, a cartridge left mounted serves the next "
        "request without a load.",
        f"At the page's share of {_D['cartridge_share']:g} the tape requests use {base.cartridges:,} cartridges "
        f"({base.volumes_per_cartridge:,} volumes each). At 1 they use {one.cartridges:,} cartridge "
        f"({one.volumes_per_cartridge:,} volumes a cartridge), fewer than the drives: at most one drive serves at "
        f"once, as the note under the panel says. The mean response is {number(one.mean_response_s)} s there against "
        f"{number(base.mean_response_s)} s (drives busy {percent(base.drive_utilisation)} of the time: a light "
        f"log), and a 300 s dismount delay saves "
        f"{one_held.loads_saved:,} loads against {held.loads_saved:,} ({saved} requests find their one cartridge "
        f"still mounted). Grouped by cartridge at {_D['cartridge_share']:g}: mean response "
        f"{number(group.mean_response_s)} s, p95 {number(group.percentile(q))} s (FIFO: "
        f"{number(base.mean_response_s)} s and {number(base.percentile(q))} s). With {_D['drives']} drives this "
        f"idle a request rarely waits, so there is no queue to "
        f"reorder; with one drive grouping gives a mean of {number(few['group'].mean_response_s)} "
        f"s against FIFO's {number(few['fifo'].mean_response_s)} s.",
        f"Batches of 4 with up to 600 s of waiting: {number(batch.mounts_per_hour)} mounts an hour (FIFO: "
        f"{number(base.mounts_per_hour)}), but the p95 response is {number(batch.percentile(q))} s against "
        f"{number(base.percentile(q))} s: requests wait for their batch.",
        f"On LTO-5 the mean response is {number(old.mean_response_s)} s against {number(base.mean_response_s)} s "
        f"on LTO-9. Load {part(old_spec, 'load_s')} against {part(new_spec, 'load_s')}, "
        f"locate {part(old_spec, 'locate_s')} against {part(new_spec, 'locate_s')}, rate "
        f"{number(old_spec.speed_mb_s)} against {number(new_spec.speed_mb_s)} MB/s: the mount's times, not the "
        "rate, make most of a recall of a few hundred MB.",
    ]
