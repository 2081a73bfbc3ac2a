"""vtsmodel: an open modeling workbench for tape storage performance.

The package holds the digitized data of five source documents, each number with its
citation (:mod:`vtsmodel.data`), and the models fitted to them. Model functions are pure:
floats or numpy arrays in, numpy values out, in the units their names and docstrings give
(MB = 10^6 bytes, MB/s, GB, seconds; hours only where a name says so).

Importing vtsmodel does not import plotly or ipywidgets; the figure and widget layers
live in :mod:`vtsmodel.app`, which imports them; the core never imports the app.
"""

from vtsmodel._inputs import Input, declare, declared_inputs, number
from vtsmodel._tables import DataError, cite, load, references, sources, tables
from vtsmodel._validation import ExtrapolationWarning, VtsModelWarning
from vtsmodel.archive import (
    ArchiveYears,
    CompressionWarning,
    archive_years,
    cartridge_tb,
    fill_year,
    migration,
)
from vtsmodel.b18 import Configuration, LayoutWarning
from vtsmodel.bottleneck import binding_resource, bottleneck_rate, write_capacities
from vtsmodel.catalog import StreamingWarning, drive_catalog, drive_choices, drive_spec, streaming_check
from vtsmodel.drives import drive_efficiency, drive_throughput, mount_cycle_s
from vtsmodel.ds8000 import background_copy_response_ms, disk_response_ms, ride_through_s, staging_modes
from vtsmodel.hits import (
    CapacityHits,
    ConfigurationHits,
    HitCurve,
    configuration_hits,
    lru_hit_curve,
    shards_hit_curve,
    simulate_policy,
)
from vtsmodel.hourly import HourlyWorkload, read_hourly_workload
from vtsmodel.import_export import export_minutes, import_minutes
from vtsmodel.library import LibraryModel, library_binding, library_model, robot_wait_s, units_needed
from vtsmodel.logs import LogFile, synthetic_mount_log
from vtsmodel.mountlog import (
    MountLog,
    iter_mount_log,
    mount_log,
    read_mount_log,
    write_mount_log,
)
from vtsmodel.plan import (
    Answers,
    Plan,
    VtsConfiguration,
    evaluate,
    library_plan,
    load_plan,
    save_plan,
    sensitivity,
    vts_configurations,
    vts_plan,
)
from vtsmodel.queueing import (
    erlang_c,
    recall_drives_needed,
    simulate_recalls,
    wait_mdc,
    wait_mgc,
    wait_mmc,
    wait_percentile,
)
from vtsmodel.recall import recall_drives, recall_ready_s, recall_response_s, recall_service_s
from vtsmodel.replay import (
    AnalyticBeside,
    ApproximationWarning,
    DrivesByReplay,
    PreparedRequests,
    Replay,
    ReplayLibrary,
    analytic_beside,
    prepare_log,
    prepare_requests,
    replay_chunks,
    replay_drives_needed,
    replay_library,
    replay_log,
    replay_prepared,
    replay_requests,
)
from vtsmodel.robot import mount_response_s
from vtsmodel.sizing import Flow, drives_needed, sizing_table
from vtsmodel.throughput import escon_distance_factor, read_rate, scsi_rate, typical_mix_rate, write_rate
from vtsmodel.tvc import hours_at_peak, tvc_needed
from vtsmodel.tvc_day import TvcRun, simulate_tvc
from vtsmodel.workload import Profile, make_profile, read_profile_csv

__version__ = "0.1.0"
#: How to cite vtsmodel itself, beside the sources of the numbers used (README, "How to cite").
REFERENCE = f"vtsmodel: an open modeling workbench for tape storage performance, version {__version__}."

__all__ = [
    "REFERENCE",
    "AnalyticBeside",
    "ApproximationWarning",
    "DrivesByReplay",
    "PreparedRequests",
    "Replay",
    "ReplayLibrary",
    "analytic_beside",
    "prepare_log",
    "prepare_requests",
    "replay_log",
    "replay_chunks",
    "replay_drives_needed",
    "replay_library",
    "replay_prepared",
    "replay_requests",
    "ArchiveYears",
    "CompressionWarning",
    "LibraryModel",
    "archive_years",
    "cartridge_tb",
    "fill_year",
    "library_binding",
    "library_model",
    "migration",
    "robot_wait_s",
    "units_needed",
    "Answers",
    "Configuration",
    "HourlyWorkload",
    "LayoutWarning",
    "Plan",
    "evaluate",
    "library_plan",
    "load_plan",
    "read_hourly_workload",
    "save_plan",
    "sensitivity",
    "VtsConfiguration",
    "vts_configurations",
    "vts_plan",
    "CapacityHits",
    "ConfigurationHits",
    "HitCurve",
    "LogFile",
    "MountLog",
    "configuration_hits",
    "iter_mount_log",
    "lru_hit_curve",
    "mount_log",
    "read_mount_log",
    "shards_hit_curve",
    "simulate_policy",
    "synthetic_mount_log",
    "write_mount_log",
    "Input",
    "declare",
    "declared_inputs",
    "number",
    "Profile",
    "TvcRun",
    "bottleneck_rate",
    "make_profile",
    "read_profile_csv",
    "DataError",
    "Flow",
    "ExtrapolationWarning",
    "VtsModelWarning",
    "background_copy_response_ms",
    "cite",
    "disk_response_ms",
    "StreamingWarning",
    "drive_catalog",
    "drive_choices",
    "drive_efficiency",
    "drive_spec",
    "streaming_check",
    "drive_throughput",
    "drives_needed",
    "hours_at_peak",
    "load",
    "mount_cycle_s",
    "references",
    "ride_through_s",
    "simulate_tvc",
    "sizing_table",
    "sources",
    "staging_modes",
    "tables",
    "tvc_needed",
    "erlang_c",
    "recall_response_s",
    "recall_drives",
    "recall_drives_needed",
    "recall_ready_s",
    "recall_service_s",
    "mount_response_s",
    "simulate_recalls",
    "wait_mdc",
    "wait_mgc",
    "wait_mmc",
    "wait_percentile",
    "write_rate",
    "binding_resource",
    "escon_distance_factor",
    "export_minutes",
    "import_minutes",
    "read_rate",
    "scsi_rate",
    "typical_mix_rate",
    "write_capacities",
]
