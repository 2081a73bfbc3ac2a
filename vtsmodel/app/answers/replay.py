"""Answer key of lesson 09 (replay your log), from vtsmodel.replay on the lesson's example log."""

from __future__ import annotations

from vtsmodel import replay as rp
from vtsmodel.app.lessons.replay import _LIBRARY_KEYS, INPUTS, example_source, replay_parts
from vtsmodel.app.text import number, percent

_D = {k: INPUTS[k].default for k in INPUTS}


def _replay(**changes) -> tuple[rp.Replay, rp.WaitParts]:
    v = _D | changes
    return replay_parts(example_source(), v["cache_gb"], v["cartridge_share"], v["dismount_after_s"],
                        **{k: v[k] for k in _LIBRARY_KEYS})  # fmt: skip


def _waits(rep: rp.Replay, parts: rp.WaitParts, q: float) -> str:
    a = rp.analytic_beside(rep, q, warn=False, simulate=False)
    return (f"the replay's p95 wait is {number(a.replay_q_s)} s, M/D/c says {number(a.mdc_q_s)} s and M/G/c "
            f"{number(a.mgc_q_s)} s; {percent(parts.share_contended)} of the tape requests waited for a cartridge "
            f"an earlier one held ({number(parts.mean_cartridge_s())} s on average), and the rest of the waits has a "
            f"p95 of {number(parts.other_quantile_s(q))} s")  # fmt: skip


def answers() -> list[str]:
    """The six answers of lesson 09, on the example log at the page's defaults (16 LTO-9 drives, 864 GB)."""
    q, drives = _D["q"], _D["drives"]
    (base, parts), (more, more_parts) = _replay(), _replay(drives=drives + 4)
    a = rp.analytic_beside(base, q, warn=False, simulate=True)  # the sample-fed simulation, seed 0
    robots = _D["robots"] + 1
    (two, two_parts) = _replay(robots=robots)
    held, _ = _replay(dismount_after_s=300.0)
    more_held, _ = _replay(drives=drives + 4, dismount_after_s=300.0)
    group, group_parts = _replay(policy="group")
    batch, _ = _replay(batch_requests=4, batch_wait_s=600.0)
    old, _ = _replay(drive="LTO5")
    lib, old_lib = base.library, old.library

    def mean_change(r0: rp.Replay, r1: rp.Replay) -> str:
        return f"{number(r0.mean_response_s)} s to {number(r1.mean_response_s)} s"

    def states(model_s: float) -> str:
        return "overstates" if model_s > a.sample_q_s else "understates"

    return [
        f"At {drives} drives (busy {percent(base.drive_utilisation)} of the time) {_waits(base, parts, q)}. The "
        f"service cv is {a.service_cv:.2f}: fed this very service sample with Poisson arrivals, a simulation's p95 "
        f"wait is {number(a.sample_q_s)} s: Allen-Cunneen's {number(a.mgc_q_s)} s {states(a.mgc_q_s)} it "
        f"{max(a.mgc_q_s, a.sample_q_s) / a.sample_q_s:.1f} times (where a cv over 2 is known to fail) and M/D/c "
        f"{states(a.mdc_q_s)} it. The replay's arrivals come in bursts (busiest hour {parts.peak_ratio:.1f}x the "
        f"mean) and share cartridges, which none of the three sees. At {drives + 4} drives "
        f"{_waits(more, more_parts, q)}: cartridges, the robot and unloads.",
        f"With {_D['robots']} robot, busy {percent(base.robot_utilisation)} of the time, the wait for a drive or robot "
        f"has a p95 of {number(parts.other_quantile_s(q))} s; with {robots} robots "
        f"({percent(two.robot_utilisation)} each) {number(two_parts.other_quantile_s(q))} s, and the p95 response goes from "
        f"{number(base.percentile(q))} s to {number(two.percentile(q))} s: robot contention, which the formulas "
        "leave out (they give every mount a robot at once).",
        f"A 300 s dismount delay saves {held.loads_saved - base.loads_saved:,} more loads ({number(held.mounts_per_hour)} "
        f"mounts an hour instead of {number(base.mounts_per_hour)}) and holds drives idle for "
        f"{number(held.drive_held_s / 3600)} drive hours; at {drives} drives the mean response goes from "
        f"{mean_change(base, held)}: a request that needs a mount may find every drive holding an idle cartridge and "
        f"wait for its unload. At {drives + 4} drives, with drives to spare, it goes from {mean_change(more, more_held)}"
        f" and saves {more_held.loads_saved - more.loads_saved:,} more loads.",
        f"Grouped by cartridge: {percent(group_parts.share_contended)} of the tape requests wait for their cartridge, "
        f"{number(group_parts.mean_cartridge_s())} s on average (FIFO: {percent(parts.share_contended)}, "
        f"{number(parts.mean_cartridge_s())} s); mean response {number(group.mean_response_s)} s and p95 "
        f"{number(group.percentile(q))} s against FIFO's {number(base.mean_response_s)} s and "
        f"{number(base.percentile(q))} s, with {group.mounts:,} mounts instead of {base.mounts:,}: a job's next file "
        "is read on the mount already there instead of waiting behind older requests for other cartridges.",
        f"Batches of 4 with up to 600 s of waiting: {number(batch.mounts_per_hour)} mounts an hour (FIFO: "
        f"{number(base.mounts_per_hour)}), and the p95 response is {number(batch.percentile(q))} s against "
        f"{number(base.percentile(q))} s: requests wait for their batch.",
        f"On LTO-5 the mean response is {number(old.mean_response_s)} s against {number(base.mean_response_s)} s "
        f"on LTO-9. The example's log gives each request's own drive time, which is replayed as it is: only the "
        f"mount's times change, load {number(old_lib.load_s)} s against {number(lib.load_s)} s, rewind and unload "
        f"{number(old_lib.rewind_unload_s)} s against {number(lib.rewind_unload_s)} s.",
    ]
