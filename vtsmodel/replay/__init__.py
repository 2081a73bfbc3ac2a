"""Replay a log through a cache and a tape library: the recall answer from the user's own requests.

- :func:`replay_library`: drives of a catalog drive, robots, dismount delay, policy, batching.
- :func:`replay_log` (a :class:`~vtsmodel.MountLog`), :func:`replay_requests` (arrays),
  :func:`replay_chunks` (a log in chunks, bounded memory): each request's response time,
  mounts, drive and robot utilisation, per hour; :func:`prepare_log` /
  :func:`prepare_requests` then :func:`replay_prepared` to replay one log through many
  libraries without its cache pass and stacking each time.
- :func:`analytic_beside`: the M/D/c and M/G/c answers for the same log and library;
  :func:`wait_parts`: the replay's waits split into cartridge contention and the rest.
- :func:`vtsmodel.replay.synthetic.synthetic_request_log`: an illustrative request log
  (bursty jobs, files clustered on cartridges, heavy-tailed durations), lesson 09's example.
- :func:`replay_drives_needed`: drives added until the replay's percentile meets a target,
  with the analytic count beside.
"""

from vtsmodel.replay.analytic import (
    AnalyticBeside,
    ApproximationWarning,
    DrivesByReplay,
    WaitParts,
    analytic_beside,
    replay_drives_needed,
    wait_parts,
)
from vtsmodel.replay.library import POLICIES, ReplayLibrary, replay_library
from vtsmodel.replay.run import (
    SERVICES,
    PreparedRequests,
    Replay,
    prepare_log,
    prepare_requests,
    replay_chunks,
    replay_log,
    replay_prepared,
    replay_requests,
)

__all__ = [
    "POLICIES",
    "SERVICES",
    "AnalyticBeside",
    "ApproximationWarning",
    "DrivesByReplay",
    "PreparedRequests",
    "Replay",
    "ReplayLibrary",
    "WaitParts",
    "analytic_beside",
    "prepare_log",
    "prepare_requests",
    "replay_log",
    "replay_chunks",
    "replay_drives_needed",
    "replay_library",
    "replay_prepared",
    "replay_requests",
    "wait_parts",
]
