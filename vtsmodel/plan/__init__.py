"""Plan a system from a workload: every VTS B18 configuration evaluated, the smallest that meets the targets.

The VTS paper names the tools IBM's field staff used for this: Tape Magic, "answers to a
half-dozen or so simple questions about basic customer tape workload characteristics"
in, a configuration out (ibm-vts-b18-2000, Sec. 8.3), and Consul Batch Magic, hourly tape
activity from SMF records in, projected VTS configurations and cache statistics out
(Sec. 8.4). This package is an open one, built on the project's models:

:class:`Answers`
    The handful of answers (data written per day and its window, reads and their hit
    ratio, compressibility, recalls, volume size, the targets, the drives).
:class:`Plan`
    The answers and, optionally, an hourly workload (:mod:`vtsmodel.hourly`), saved and
    loaded as a JSON plan file (:func:`save_plan`, :func:`load_plan`).
:func:`vts_plan`
    Every configuration the paper offers (feature x Table 3 cache x 3590 drives, with the
    prerequisites it states) run through the day hour by hour
    (:func:`~vtsmodel.tvc_day.simulate_tvc`), recalls queued on the drives left after
    copying (:func:`~vtsmodel.recall.recall_drives`, :func:`~vtsmodel.queueing.wait_percentile`),
    the binding resource named (:func:`~vtsmodel.bottleneck.binding_resource`); the
    smallest configuration that meets every target, its margins, and what the next
    smaller one fails.
:func:`library_plan`
    Drives of any catalog drive for the same workload without a VTS: the CERN formula per
    flow (:func:`~vtsmodel.sizing.drives_needed`) and the drives recalls need to meet the
    wait target (:func:`~vtsmodel.queueing.recall_drives_needed`); the larger governs.
:func:`sensitivity`
    How far each answer moves when each input moves by a stated fraction (a tornado).
:func:`evaluate`
    All three at once, as :class:`PlanResult`.

Every result carries the model functions and data tables it used (``models``,
``tables``, ``rows``) for :func:`vtsmodel.cite`.

Modelling choices (each documented where it is made, and listed by :func:`assumptions`):
the order that makes one configuration "smaller" than another (cache, then feature, then
drives: the paper prices nothing); recall waits checked in the busiest hour; the copy's
drive count from the drive's rate and the efficiency of stacking volumes on a cartridge;
a day that repeats (un-copied data at its end is carried into a second pass).

The modules, each one concern (the names below are all imported here):

- :mod:`~vtsmodel.plan.answers`: the answers' declarations and :class:`Answers`;
- :mod:`~vtsmodel.plan.files`: :class:`Plan` and its JSON file;
- :mod:`~vtsmodel.plan.day`: the hours a plan evaluates, as the models take them;
- :mod:`~vtsmodel.plan.vts`: the VTS configurations, their checks and :func:`vts_plan`;
- :mod:`~vtsmodel.plan.library`: the tape-library plan;
- :mod:`~vtsmodel.plan.sensitivity`: the tornado;
- :mod:`~vtsmodel.plan.result`: :func:`evaluate`;
- :mod:`~vtsmodel.plan.provenance`: the models, tables and rows each result rests on, and
  :func:`assumptions`.
"""

from vtsmodel.plan.answers import ARCHIVE_ANSWERS, EMPTY_MEANS, YEARS_ONLY, Answers, answer_inputs
from vtsmodel.plan.day import MIN_RECALLS_PER_HOUR
from vtsmodel.plan.files import (
    MAX_PLAN_BYTES,
    PLAN_SCHEMA,
    PLAN_VERSION,
    LibraryFlow,
    Plan,
    load_plan,
    plan_from_bytes,
    plan_from_dict,
    plan_template,
    plan_to_dict,
    plan_to_json,
    save_plan,
    save_plan_template,
)
from vtsmodel.plan.library import LibraryPlan, LibraryYearsPlan, library_plan
from vtsmodel.plan.provenance import assumptions
from vtsmodel.plan.result import PlanResult, evaluate
from vtsmodel.plan.sensitivity import FRACTION, Sensitivity, SensitivityRow, sensitivity, sensitivity_steps
from vtsmodel.plan.vts import (
    FEATURE_ORDER,
    STEP,
    Check,
    ConfigResult,
    VtsConfiguration,
    VtsPlan,
    evaluate_configuration,
    vts_configurations,
    vts_plan,
)

__all__ = [
    "ARCHIVE_ANSWERS",
    "EMPTY_MEANS",
    "FEATURE_ORDER",
    "FRACTION",
    "MAX_PLAN_BYTES",
    "MIN_RECALLS_PER_HOUR",
    "PLAN_SCHEMA",
    "PLAN_VERSION",
    "STEP",
    "Answers",
    "Check",
    "ConfigResult",
    "LibraryFlow",
    "LibraryPlan",
    "LibraryYearsPlan",
    "Plan",
    "PlanResult",
    "Sensitivity",
    "SensitivityRow",
    "VtsConfiguration",
    "VtsPlan",
    "YEARS_ONLY",
    "answer_inputs",
    "assumptions",
    "evaluate",
    "evaluate_configuration",
    "library_plan",
    "load_plan",
    "plan_from_bytes",
    "plan_from_dict",
    "plan_to_dict",
    "plan_template",
    "plan_to_json",
    "save_plan",
    "save_plan_template",
    "sensitivity",
    "sensitivity_steps",
    "vts_configurations",
    "vts_plan",
]
