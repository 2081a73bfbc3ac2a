"""vtsmodel: an open modeling workbench for tape storage performance.

The package holds the digitized data of five source documents, each number with its
citation (:mod:`vtsmodel.data`), and the models fitted to them. Model functions are pure:
floats or numpy arrays in, numpy values out, in the units their names and docstrings give
(MB = 10^6 bytes, MB/s, GB, seconds; hours only where a name says so).

Importing vtsmodel does not import plotly or ipywidgets; the figure and widget layers
(:mod:`vtsmodel.figures`, :mod:`vtsmodel.ui`) import them when used.
"""

from vtsmodel._tables import DataError, cite, load, references, sources, tables
from vtsmodel._validation import ExtrapolationWarning, VtsModelWarning
from vtsmodel.cache import hours_at_peak, simulate_cache, tvc_needed
from vtsmodel.diskcache import background_copy_response_ms, disk_response_ms, ride_through_s, staging_modes
from vtsmodel.drives import drive_catalog, drive_efficiency, drive_spec, drive_throughput, mount_time_s
from vtsmodel.import_export import export_minutes, import_minutes
from vtsmodel.queueing import (
    erlang_c,
    recall_drives_needed,
    simulate_recalls,
    wait_mdc,
    wait_mgc,
    wait_mmc,
    wait_percentile,
)
from vtsmodel.recall import mount_time_vs_queue, recall_drives, recall_ready_s, recall_service_s
from vtsmodel.robot import robot_mount_time_s
from vtsmodel.scenarios import ScenarioSheet
from vtsmodel.sizing import Flow, drives_needed, sizing_table
from vtsmodel.throughput import (
    binding_resource,
    escon_distance_factor,
    read_rate,
    scsi_rate,
    typical_mix_rate,
    write_capacities,
    write_rate,
)

__version__ = "0.1.0"

__all__ = [
    "ScenarioSheet",
    "DataError",
    "Flow",
    "ExtrapolationWarning",
    "VtsModelWarning",
    "background_copy_response_ms",
    "cite",
    "disk_response_ms",
    "drive_catalog",
    "drive_efficiency",
    "drive_spec",
    "drive_throughput",
    "drives_needed",
    "hours_at_peak",
    "load",
    "mount_time_s",
    "references",
    "ride_through_s",
    "simulate_cache",
    "sizing_table",
    "sources",
    "staging_modes",
    "tables",
    "tvc_needed",
    "erlang_c",
    "mount_time_vs_queue",
    "recall_drives",
    "recall_drives_needed",
    "recall_ready_s",
    "recall_service_s",
    "robot_mount_time_s",
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
