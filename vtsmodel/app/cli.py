"""The ``vtsmodel`` command: figures for proposals, drive sizing, references.

::

    vtsmodel figures OUTDIR [--format png,svg,pdf,html] [--scenarios FILE] [--overwrite]
                            [--style light|print] [--size slide|page] [--lessons 01,04]
    vtsmodel size [--flow NAME,RATE,FACTOR,EFFICIENCY ...] [--drive NAME | --drive-speed MB/s]
    vtsmodel cite [TABLE_OR_SOURCE ...]
    vtsmodel plan [PLAN_FILE] [--workload CSV] [--mount-log LOG.csv] [--report out.html|out.pdf]
                              [--overwrite] [--log-format F] [--columns SPEC] [--sort] ...
    vtsmodel plan [PLAN_FILE] --init NEW_PLAN.json [--overwrite]
    vtsmodel hits LOG [--log-format F] [--columns SPEC] [--object-gb GB] [--sort] ...
                      [--capacities 500GB,2TB | --auto N | --table3] [--format table|csv|json]
    vtsmodel replay LOG [--drives N] [--drive NAME] [--robots N] [--dismount-after S]
                        [--policy fifo|group] [--batch K --batch-wait S] [--cache-gb GB] ...
                        [--report out.html] [--overwrite]

Errors are one line on stderr and a non-zero exit (1 for a failure, 2 for a usage
error; ``plan`` exits 3 when no configuration meets every target); set ``VTSMODEL_DEBUG=1`` to see the traceback. Plotly is imported only by
``figures``, ``plan --report`` and ``replay --report``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import time
import warnings
from pathlib import Path

__all__ = ["main"]

PROG = "vtsmodel"


class _Usage(Exception):
    """A usage error: one line, exit code 2."""


#: The library's messages name its keywords; a command's name its flags.
_FLAG_WORDS = (
    ("pass overwrite=True to replace it", "pass --overwrite to replace it"),
    (" (or pass force=True to replace it anyway)", ""),
)


def _in_flags(message: str) -> str:
    """``message`` with the library's keywords replaced by the command's flags."""
    for library, command in _FLAG_WORDS:
        message = message.replace(library, command)
    return message


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of argparse's usage block
        raise _Usage(f"{self.prog}: {message} (see {self.prog} --help)")


# --- figures ---------------------------------------------------------------------------------
def _slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", text.strip()).strip("-.")
    return s[:60] or "scenario"


def _progress(done: int, total: int, label: str, *, width: int = 30, stream=None) -> None:
    """A progress bar on a terminal (stderr); to a file or a pipe, one line per step done."""
    stream = stream or sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        if done:
            stream.write(f"{done}/{total} {label}\n")
            stream.flush()
        return
    filled = int(width * done / total) if total else width
    bar = "#" * filled + "." * (width - filled)
    stream.write(f"\r[{bar}] {done}/{total} {label[:50]:<50}")
    if done == total:
        stream.write("\n")
    stream.flush()


def _formats(text: str) -> list[str]:
    from vtsmodel.app.export import FORMATS

    out = []
    for f in (x.strip().lower() for x in text.split(",")):
        if f not in FORMATS:
            raise _Usage(f"{PROG} figures: --format {f!r} is not valid; choose from {', '.join(FORMATS)}")
        if f not in out:
            out.append(f)
    return out


def _lesson_modules(wanted: list[str] | None, notes: list[str]):
    """The lesson modules that import and follow the contract; the others as notes."""
    from vtsmodel.app.lessons import LESSONS, lesson_module

    for number in wanted or list(LESSONS):
        try:
            module = lesson_module(number)
        except ValueError:
            raise
        except Exception as exc:  # noqa: BLE001 - a lesson being written must not stop the others
            notes.append(f"lesson {number} skipped: it does not import ({type(exc).__name__}: {exc})")
            continue
        missing = [a for a in ("INPUTS", "SCENARIO", "scenario_view") if not hasattr(module, a)]
        if missing:
            notes.append(f"lesson {number} skipped: it lacks {', '.join(missing)} (the lesson contract)")
            continue
        yield number, module


def _jobs(args, notes: list[str]):
    """(lesson number, module, scenario name or None, values) for every set of figures."""
    if args.scenarios:
        from vtsmodel.app.lessons import lesson_module
        from vtsmodel.app.scenarios import ScenarioSheet

        wanted = set(args.lessons or [])
        for path in args.scenarios:
            sheet = ScenarioSheet.from_file(path, lesson_module)
            if wanted and sheet.lesson_id not in wanted:
                notes.append(f"{path}: lesson {sheet.lesson_id} is not among --lessons; skipped")
                continue
            if not hasattr(sheet.lesson, "scenario_view"):
                notes.append(f"{path}: lesson {sheet.lesson_id} lacks scenario_view; skipped")
                continue
            for name, values in sheet.scenarios().items():
                yield sheet.lesson_id, sheet.lesson, name, values
    else:
        for number, module in _lesson_modules(args.lessons, notes):
            yield number, module, None, {}


def _cmd_figures(args) -> int:
    formats = _formats(args.format)
    outdir = Path(args.outdir)
    if outdir.exists() and not outdir.is_dir():
        raise ValueError(f"OUTDIR={str(outdir)!r} exists and is not a folder")
    if any(f != "html" for f in formats):
        # Start the export browser first: a missing, broken or stuck one (BROWSER_PATH
        # included) is one error line, in bounded time, before any figure is built.
        from vtsmodel.app import export
        from vtsmodel.app._browser import BrowserError

        try:
            export.start_browser()
        except BrowserError as exc:
            raise ValueError(f"PNG, SVG and PDF need a working Chromium browser: {exc}") from None
    notes: list[str] = []
    # Build every figure first (fast), then export them all with one browser.
    items: list[tuple[object, Path, str]] = []
    warned: list[str] = []  # the captions' notes (assumptions, extrapolations), with the figures they are on
    lessons_done: list[str] = []
    used: set[str] = set()
    jobs = list(_jobs(args, notes))
    for n, (number, module, scenario, values) in enumerate(jobs, start=1):
        _progress(
            n, len(jobs), f"building the figures of lesson {number}" + (f", {scenario}" if scenario else "")
        )
        from vtsmodel.app.figures import caption_text
        from vtsmodel.app.lessons import scenario_values
        from vtsmodel.app.panels import caption_values

        try:
            full = scenario_values(module.INPUTS, module.SCENARIO, values)
            view = module.scenario_view(**full)
        except Exception as exc:  # noqa: BLE001 - one lesson's failure is reported, not fatal
            notes.append(
                f"lesson {number}{f' {scenario!r}' if scenario else ''} skipped: {type(exc).__name__}: {exc}"
            )
            continue
        title = getattr(module, "TITLE", f"Lesson {number}")
        if scenario is not None:
            title = f"{title} (scenario: {scenario})"
        labelled = {
            **caption_values({k: module.INPUTS[k] for k in module.SCENARIO}, full),
            **view.caption_values,
        }
        captions = {k: caption_text(labelled, plot.citations or view.citations, title=title, notes=view.notes_of(k))
                    for k, plot in view.figures.items()}  # fmt: skip
        stem = number if scenario is None else f"{number}_{_slug(scenario)}"
        while stem in used:
            stem += "_"
        used.add(stem)
        if number not in lessons_done:
            lessons_done.append(number)
        for key, plot in view.figures.items():
            for fmt in formats:
                items.append((plot.spec(), outdir / f"{stem}_{_slug(key)}.{fmt}", captions[key]))
        by_note: dict[str, list[str]] = {}
        for key in view.figures:
            for note in view.notes_of(key):
                by_note.setdefault(note, []).append(f"{stem}_{_slug(key)}")
        warned += [f"{', '.join(names)}: {note}" for note, names in by_note.items()]
    if not items:
        for n in notes:
            print(f"note: {n}", file=sys.stderr)
        raise ValueError("no lesson produced figures; nothing was written")
    from vtsmodel.app import export

    written, skipped, failed = [], [], []
    start = time.perf_counter()
    _progress(0, len(items), "starting")
    from vtsmodel.app._browser import BrowserError

    try:
        results = export.export_many(
            items,
            size=args.size,
            style=args.style,
            overwrite=args.overwrite,
            progress=lambda done, total, path: _progress(done, total, Path(path).name),
        )
    except BrowserError as exc:
        sys.stderr.write("\n")
        raise ValueError(str(exc)) from None
    for path, res in results:
        if isinstance(res, FileExistsError):
            skipped.append(path)
        elif isinstance(res, Exception):
            failed.append(f"{path.name}: {type(res).__name__}: {_in_flags(str(res))}")
        else:
            written.append(path)
    elapsed = time.perf_counter() - start
    export.stop_browser()
    out = sys.stdout
    print(
        f"wrote {len(written)} file(s) to {outdir} in {elapsed:.1f} s "
        f"(lessons {', '.join(lessons_done) or 'none'}; formats {', '.join(formats)}; "
        f"style {args.style}; size {args.size})",
        file=out,
    )
    for path in written:
        print(f"  {path}", file=out)
    if skipped:
        print(f"kept {len(skipped)} existing file(s) (use --overwrite to replace them)", file=out)
    if warned:
        print(f"note: the captions carry {_count(len(warned), 'note')} (what a figure assumed, or a setting outside "
              "what a source validated):", file=out)  # fmt: skip
        for w in warned:
            print(f"  {w}", file=out)
    for n in notes:
        print(f"note: {n}", file=out)
    for f in failed:
        print(f"failed: {f}", file=sys.stderr)
    return 1 if failed else 0


# --- size ---------------------------------------------------------------------------------------
def _parse_flow(text: str):
    from vtsmodel.sizing import Flow

    parts = text.rsplit(",", 3)
    if len(parts) != 4 or not parts[0].strip():
        raise ValueError(f"--flow {text!r} must be NAME,RATE,FACTOR,EFFICIENCY, e.g. 'T0 to T1,100,2,0.5'")
    name, *nums = parts
    labels = ("RATE [MB/s]", "FACTOR [-]", "EFFICIENCY [-]")
    vals = []
    for label, raw in zip(labels, nums, strict=True):
        try:
            vals.append(float(raw))
        except ValueError:
            raise ValueError(f"--flow {text!r}: {label}={raw.strip()!r} is not a number") from None
    return Flow(name=name.strip(), rate_mb_s=vals[0], peak_factor=vals[1], efficiency=vals[2])


def _fmt_cell(v) -> str:
    import math
    import numbers

    from vtsmodel.app.text import count, count_or_number

    if v is None:
        return ""
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):  # numpy's too: 12,175 beside 3,652
        return count(v)
    if isinstance(v, float):
        # a whole number (slots, cartridges) keeps every digit; others 3 digits below 10^4, whole units above
        return count_or_number(v) if abs(v) < 1e4 or not math.isfinite(v) else f"{v:,.0f}"
    return str(v)


def _table(rows: list[dict], columns: list[str]) -> str:
    cells = [[_fmt_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    line = "  ".join(
        c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(columns, widths, strict=True))
    )
    out = [line, "  ".join("-" * w for w in widths)]
    for row in cells:
        out.append(
            "  ".join(
                v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return "\n".join(out)


#: The sizing's parameters as ``vtsmodel size`` names them.
_SIZE_FLAGS = {"drive_speed_mb_s": "--drive-speed", "rate_mb_s": "RATE", "peak_factor": "FACTOR",
               "efficiency": "EFFICIENCY"}  # fmt: skip


def _cmd_size(args) -> int:
    try:
        return _size(args)
    except ValueError as exc:  # a flow's field as --flow names it: FACTOR=0, not peak_factor=0
        raise ValueError(_named(str(exc), _SIZE_FLAGS)) from None


def _size(args) -> int:
    from vtsmodel import cite, sizing

    if args.drive and args.drive_speed is not None:
        raise _Usage(f"{PROG} size: give --drive or --drive-speed, not both")
    flows = [_parse_flow(f) for f in args.flow] if args.flow else sizing.cern_example_flows()
    spec = None
    if args.drive:
        from vtsmodel.catalog import drive_choices, drive_spec

        try:
            spec = drive_spec(args.drive)
        except KeyError:
            groups = "; ".join(f"{g.label}: {', '.join(c.key for c in g.drives)}" for g in drive_choices())
            raise ValueError(
                f"--drive {args.drive!r} is not in the catalog; choose one of {groups}"
            ) from None
        speed = float(spec.speed_mb_s)
        basis = f"for the {spec.label} [{spec.name}]: {speed:g} MB/s, {spec.speed_basis}"
    elif args.drive_speed is not None:
        speed, basis = args.drive_speed, f"{args.drive_speed:g} MB/s, given"
    else:
        speed = float(sizing.cern_example_drive_speed())
        basis = f"{speed:g} MB/s, the CERN sample calculation's drive"
    rows = sizing.sizing_table(flows, drive_speed_mb_s=speed)
    head = "the CERN sample calculation's flows" if not args.flow else _count(len(flows), "flow")
    print(f"Tape drives needed for {head}; drive speed {basis}")
    print("drives = rate · factor / efficiency / drive speed  (cern-tape-sizing-2005, Summary)")
    print()
    columns = ["flow", "rate [MB/s]", "factor [-]", "efficiency [-]", "drives [-]", "share [-]"]
    print(_table(rows, columns))
    print()
    print(f"drives to buy: {rows[-1]['drives to buy [-]']}")
    print()
    print(cite(sizing.drives_needed, *(spec.primary_sources if spec else ())))
    return 0


# --- cite ----------------------------------------------------------------------------------------
def _cmd_cite(args) -> int:
    from vtsmodel import cite

    try:
        text = cite(*args.items)
    except KeyError as exc:
        raise ValueError(exc.args[0] if exc.args else str(exc)) from None
    print(text)
    print()
    from vtsmodel import REFERENCE

    print(f"Cite the models as: {REFERENCE}")
    return 0


# --- plan ----------------------------------------------------------------------------------------
#: Exit code of ``vtsmodel plan`` when no VTS configuration meets every target (the plan
#: ran; its answer is "none": a script must not read it as a recommendation).
EXIT_NO_CONFIGURATION = 3


def _plan_value(check) -> str:
    """A check's value in words where it is not a number (a queue with no steady state, a backlog)."""
    import math

    if not math.isinf(check.value):
        return _fmt_cell(float(check.value))
    return "falls behind" if check.key == "copy" else "no steady state"


def _plan_margin(check) -> str:
    import math

    return "none" if math.isinf(check.margin) else _fmt_cell(float(check.margin))


def _cmd_plan(args) -> int:
    import dataclasses

    from vtsmodel.hourly import read_hourly_workload
    from vtsmodel.plan import Answers, Plan, evaluate, load_plan

    if args.init:
        return _plan_init(args)
    if args.report:
        from vtsmodel.app.report import FORMATS

        _report_path(args, "plan", FORMATS)
    from vtsmodel.app.hits_cli import reading_options

    reading = reading_options(args)
    if not args.mount_log and (args.sort or set(reading) - {"encoding"} or reading["encoding"] != "utf-8"):
        raise _Usage(f"{PROG} plan: the flags that say how to read a mount log (--columns, --log-format, "
                     "--delimiter, ...) need --mount-log LOG")  # fmt: skip
    if args.plan_file is None and not args.workload:
        raise _Usage(
            f"{PROG} plan: give a plan file, --workload CSV (the default answers for the rest), "
            "or --init FILE (write a commented plan file to start from)"
        )
    if args.plan_file is not None:  # a file given here replaces the plan's own reference, unread
        given = ("workload",) * bool(args.workload) + ("mount_log",) * bool(args.mount_log)
        plan = load_plan(args.plan_file, without=given)
    else:
        plan = Plan(Answers(), name=Path(args.workload).stem)
    if args.workload:
        plan = dataclasses.replace(
            plan, workload=read_hourly_workload(args.workload), workload_file=args.workload
        )
    if args.mount_log:
        from vtsmodel.hits import lru_hit_curve
        from vtsmodel.mountlog import read_mount_log

        log = read_mount_log(args.mount_log, sort=args.sort, **reading)
        said = {k: v for k, v in reading.items() if (k, v) != ("encoding", "utf-8")} | (
            {"sort": True} if args.sort else {}
        )
        plan = dataclasses.replace(plan, hits=lru_hit_curve(log), mount_log_file=args.mount_log,
                                   mount_log_reading=said, log=log)  # fmt: skip
    result = evaluate(plan, fraction=0.2 if args.report else None)
    if result.vts is None:
        return _library_only(args, result)
    c = result.vts.closest
    print(f"Plan {plan.name!r}: {result.vts.headline()}")
    if args.plan_file is None:
        print(f"No plan file: the workload is {Path(args.workload).name}; every other answer is its default:")
        print("  " + "; ".join(_default_answers(plan)))
    if plan.hits is not None:
        print(
            f"Read hits from the mount log {Path(plan.mount_log_file).name}: each configuration its own "
            f"(by bytes, LRU); {c.config.label}: {c.read_hit:.3f}"
        )
    print()
    rows = [{"target": ch.label, "value": _plan_value(ch), "target ": ch.limit, "unit": ch.unit,
             "margin": _plan_margin(ch), "met": "yes" if ch.ok else "NO"} for ch in c.checks]  # fmt: skip
    print(_table(rows, ["target", "value", "target ", "unit", "margin", "met"]))
    print()
    print(result.library.headline())
    _library_years(result.library)
    if args.report:
        from vtsmodel.app.report import write_report

        path = write_report(result, args.report, overwrite=args.overwrite)
        print(f"report: {path}")
    if result.vts.recommended is None:
        print(
            f"{PROG} plan: no VTS configuration meets every target (exit {EXIT_NO_CONFIGURATION})",
            file=sys.stderr,
        )
        return EXIT_NO_CONFIGURATION
    return 0


def _library_years(lib) -> None:
    """Print the library year by year, the last year's margins and the notes (nothing without years)."""
    from vtsmodel import number

    y = lib.over_years
    if y is not None:
        unit = f"{y.unit}s"
        cols = ["year", "stored [TB]", "cartridges", "in the library", unit, "drives", "robots", "mounts per hour",
                "recall ready at percentile [s]", "binds"]  # fmt: skip
        rows = [{**r, "stored [TB]": number(r["stored [TB]"], 4), "mounts per hour": number(r["mounts per hour"]),
                 "recall ready at percentile [s]": _plan_ready(r["recall ready at percentile [s]"])}
                for r in y.rows()]  # fmt: skip
        print()
        print(_table(rows, [c for c in cols if any(r.get(c) not in (None, "", "—") for r in rows)]))
        checks = y.checks()
        print(f"\nMargins in year {int(y.year[-1])}:")
        print(_table([{"margin of": ch.label, "value": _plan_value(ch), "limit": _fmt_cell(float(ch.limit)), "unit": ch.unit,
                       "margin": _plan_margin(ch), "met": "yes" if ch.ok else "NO"} for ch in checks],
                     ["margin of", "value", "limit", "unit", "margin", "met"]))  # fmt: skip
        if y.cost is not None:
            print(f"Cost from your prices ({', '.join(y.cost['items'])}): " + "; ".join(
                f"year {int(k)} {_fmt_cell(float(v))}" for k, v in zip(y.year, y.cost["per_year"], strict=True)))  # fmt: skip
    if lib.replay is not None:
        r = lib.replay
        print(f"Recall target checked by replay of the mount log: {r.drives} drives meet "
              f"{r.target_s:g} s at the {r.q * 100:g}th percentile (replayed {number(r.tried[r.drives])} s); "
              f"the analytic count of the log (M/G/c): {r.analytic_drives if r.analytic_drives is not None else 'none'}")  # fmt: skip
    for n in lib.notes:
        print(f"note: {n}")


def _plan_ready(v: float) -> str:
    import math

    from vtsmodel import number

    return "—" if math.isnan(v) else ("no steady state" if math.isinf(v) else number(float(v)))


def _library_only(args, result) -> int:
    """``vtsmodel plan`` of a tape library alone: the library per year; exit 3 when a margin is missed."""
    lib = result.library
    print(f"Plan {result.plan.name!r}: a tape library alone (no VTS B18).")
    print(lib.headline())
    _library_years(lib)
    if args.report:
        from vtsmodel.app.report import write_report

        print(f"report: {write_report(result, args.report, overwrite=args.overwrite)}")
    if lib.over_years is not None and not lib.over_years.meets:
        print(
            f"{PROG} plan: the library misses a margin in some year (exit {EXIT_NO_CONFIGURATION})",
            file=sys.stderr,
        )
        return EXIT_NO_CONFIGURATION
    return 0


def _plan_init(args) -> int:
    """Write a commented plan file: the defaults, or the answers of the plan file given."""
    from vtsmodel.plan import Plan, load_plan, save_plan_template

    if args.workload or args.mount_log or args.report:
        raise _Usage(f"{PROG} plan --init FILE writes a plan file; run the plan with it afterwards")
    plan = load_plan(args.plan_file) if args.plan_file else Plan(name=Path(args.init).stem)
    try:
        path = save_plan_template(plan, args.init, overwrite=args.overwrite)
    except FileExistsError:
        raise _Usage(f"{PROG} plan: {args.init} exists; add --overwrite to replace it") from None
    print(f"plan file: {path} (the answers with their units, ranges and sources as // comments)")
    print(f"edit the answers, then: {PROG} plan {args.init} --report plan.pdf")
    return 0


def _default_answers(plan) -> list[str]:
    """The answers a plan without a file takes by default, as 'label: value unit' (the workload's own left out).

    An answer left empty says what it then is (:data:`vtsmodel.plan.EMPTY_MEANS`): 'robots: as many as the
    mounts need'; a value that names itself is said alone ('8 ESCON channels').
    """
    from vtsmodel.plan import EMPTY_MEANS, answer_inputs

    from_workload = {"write_gb_per_day", "write_window_hours", "write_start_hour", "read_gb_per_day",
                     "read_window_hours", "read_start_hour"}  # fmt: skip
    w = plan.workload
    if w is not None and w.read_hit_by_mounts() is not None:
        from_workload.add("read_hit")
    if w is not None and w.has("recall_mounts"):
        from_workload.add("recalls_per_hour")
    out = []
    for key, inp in answer_inputs().items():
        if key in from_workload:
            continue
        value = getattr(plan.answers, key)
        if value is None:
            out.append(f"{inp.label}: {EMPTY_MEANS[key]}")
            continue
        text = inp.format(value) + (f" {inp.unit}" if inp.unit not in ("", "-") else "")
        out.append(text if text.endswith(inp.label) else f"{inp.label}: {text}")
    return out


# --- replay --------------------------------------------------------------------------------------
def _count_lines(path: str) -> int:
    """Lines of a file, counted in 1 MB blocks (the progress bar's total)."""
    n = 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            n += block.count(b"\n")
    return n


def _codes(ids, known: dict):
    """Integer codes of ids (str), the same code for the same id across chunks."""
    import numpy as np

    uniq, inv = np.unique(ids, return_inverse=True)
    return np.array([known.setdefault(v, len(known)) for v in uniq.tolist()], dtype=np.int64)[inv]


def _log_chunks(path: str, codes: dict, carts: dict, chunk_lines: int, options: dict, read_notes: list):
    """The log's chunks as the replay takes them: volume and cartridge ids coded in order of first use."""
    from vtsmodel.logs import ReadingWarning
    from vtsmodel.mountlog import iter_mount_log

    chunks = iter_mount_log(path, chunk_lines=chunk_lines, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReadingWarning)  # said in the read notes, printed
        first = list(itertools.islice(chunks, 1))  # the reader decides how to read on the first
    for ch in itertools.chain(first, chunks):
        if ch.info is not None:
            read_notes[:] = list(ch.info.notes())
        yield {
            "time_s": ch.time_s, "obj": _codes(ch.volume, codes), "size_mb": ch.size_mb, "access": ch.access,
            "cartridge": None if ch.cartridge is None else _codes(ch.cartridge, carts), "duration_s": ch.duration_s,
        }  # fmt: skip


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


#: The replay library's parameters as ``vtsmodel replay``'s flags name them.
_REPLAY_FLAGS = {"dismount_after_s": "--dismount-after", "batch_requests": "--batch", "batch_wait_s": "--batch-wait",
                 "cache_gb": "--cache-gb", "q": "--percentile", "chunk_lines": "--chunk-lines",
                 "object_mb": "--object-mb", "volume_mb": "--volume-mb", "cartridge_share": "--cartridge-share",
                 "drives": "--drives", "robots": "--robots", "service": "--service", "format": "--log-format",
                 "columns": "--columns"}  # fmt: skip


def _report_path(args, command: str, formats: tuple[str, ...]) -> None:
    """Refuse a --report the command could not write, before its work (a large log takes minutes)."""
    if not args.report:
        return
    path = Path(args.report)
    if path.suffix.lower().lstrip(".") not in formats:
        raise _Usage(f"{PROG} {command}: --report {args.report!r}: the report is written as "
                     f"{' or '.join(f.upper() for f in formats)}; name it {' or '.join('.' + f for f in formats)}")  # fmt: skip
    if path.exists() and not args.overwrite:
        raise ValueError(f"{args.report} exists; pass --overwrite to replace it")


def _wait_cell(v: float, a) -> str:
    """A wait [s], or in words why an answer has none (the notes say more)."""
    import math

    from vtsmodel import number

    return number(v, 4) if math.isfinite(v) else a.missing


def _cmd_replay(args) -> int:
    try:
        return _replay(args)
    except ValueError as exc:  # the library's parameter as the flag that set it: --drives=0, not drives=0
        raise ValueError(_replay_flags(str(exc))) from None


def _replay_flags(message: str) -> str:
    """``message`` with the replay's parameters named as the flags that set them."""
    # another command's flag; an in-memory reader's sorting (replay streams the log in its order)
    drop = r" \(--[\w-]+ on the command line\)| \(--columns\)|, or let the reader sort it \(.*?\)$"
    return _named(re.sub(drop, "", message), _REPLAY_FLAGS)


def _named(message: str, names: dict[str, str]) -> str:
    """``message`` with each parameter ``name=`` (or ``(name)``) said as ``names[name]``."""
    for name, flag in names.items():
        message = re.sub(rf"(?<![\w-]){name}(?=[=)])", flag, message)
    return message


def _replay(args) -> int:
    import itertools

    from vtsmodel import number
    from vtsmodel.replay import analytic_beside, replay_chunks, replay_library

    _report_path(args, "replay", ("html",))
    if (args.batch > 1) != (args.batch_wait > 0):  # the library batches only with both
        raise _Usage(f"{PROG} replay: --batch K and --batch-wait S go together (a cartridge is mounted when K "
                     "requests wait for it, or its oldest waited S seconds); with one alone nothing is batched")  # fmt: skip
    lib = replay_library(
        args.drives, drive=args.drive, robots=args.robots, dismount_after_s=args.dismount_after, policy=args.policy,
        batch_requests=args.batch, batch_wait_s=args.batch_wait,
    )  # fmt: skip
    total = _count_lines(args.log) if sys.stderr.isatty() else 0
    codes: dict = {}
    options = {k: v for k, v in (("format", args.log_format), ("columns", args.columns), ("object_mb", args.object_mb))
               if v is not None}  # fmt: skip
    read_notes: list = []
    chunks = _log_chunks(args.log, codes, {}, args.chunk_lines, options, read_notes)
    first = next(chunks, None)
    if first is None:
        raise ValueError(f"{args.log}: the log holds no requests")
    service = args.service or ("log" if first["duration_s"] is not None else "drive")
    said = []  # what the flags given did not do
    if first["cartridge"] is not None:
        unused = [
            f
            for f, v in (("--volume-mb", args.volume_mb), ("--cartridge-share", args.cartridge_share != 1.0))
            if v
        ]
        if unused:
            said.append(f"{' and '.join(unused)} not used: the log names each request's cartridge")
    rep = replay_chunks(
        itertools.chain([first], chunks), lib, cache_gb=args.cache_gb, volume_mb=args.volume_mb, service=service,
        cartridge_share=args.cartridge_share,
        progress=lambda done: _progress(min(done, total), total, "requests replayed") if total else None,
    )  # fmt: skip
    if total:
        _progress(total, total, "requests replayed")
    a = analytic_beside(rep, args.percentile, warn=False)
    pct = f"p{100 * args.percentile:g}"  # p99.9, not p100
    writes = rep.requests - rep.tape_requests - rep.cache_hits  # mounts the cache takes without a recall
    print(f"Replay of {Path(args.log).name}: {_count(rep.requests, 'request')}, {rep.tape_requests:,} to tape "
          f"({_count(rep.cache_hits, 'cache hit')}" + (f", {_count(writes, 'write')} to the cache" if writes else "")
          + f"), {_count(len(codes), 'volume')}")  # fmt: skip
    own = "the log's durations" if service == "log" else "locate and read at the drive's rate"
    print(f"Each request's drive time: {own}, plus robot move, load and unload for a mount")
    print(f"Library: {lib.drives} x {lib.drive or 'drive'}, {lib.robots} robot(s), dismount after "
          f"{lib.dismount_after_s:g} s, {lib.policy}" + (f", batches of {lib.batch_requests}" if lib.batch_requests > 1 else ""))  # fmt: skip
    print()
    rows = [
        {"answer": name, "mean wait [s]": _wait_cell(m, a), f"{pct} wait [s]": _wait_cell(x, a)}
        for name, m, x in a.rows()
    ]
    print(_table(rows, list(rows[0])))
    print()
    print(f"response: mean {number(rep.mean_response_s, 4)} s, {pct} {number(rep.percentile(args.percentile), 4)} s "
          f"(from histograms, 1.2% bins)")  # fmt: skip
    print(f"mounts per hour {number(rep.mounts_per_hour, 4)}; loads saved {rep.loads_saved:,}; drive utilisation "
          f"{rep.drive_utilisation:.3f}; robot utilisation {rep.robot_utilisation:.3f}; at most "
          f"{_count(rep.max_waiting, 'request')} waiting at once")  # fmt: skip
    if any("ended" in n for n in read_notes):
        read_notes.append("streamed, the requests are replayed as arriving at their ends (the log's times)")
    for note in (*read_notes, *said, *rep.notes, *a.notes):
        print(f"note: {_replay_flags(note)}")
    print()
    print("sources: " + "; ".join(lib.sources))
    if args.report:
        from vtsmodel.app.lessons.replay import write_report

        notes = [_replay_flags(n) for n in (*read_notes, *said)]
        print(f"report: {write_report(rep, a, args.report, name=Path(args.log).name, overwrite=args.overwrite, read_notes=notes)}")  # fmt: skip
    return 0


# --- main -----------------------------------------------------------------------------------------
def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (v > 0 and v < float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number > 0")
    return v


def _lesson_list(text: str) -> list[str]:
    from vtsmodel.app.lessons import LESSONS

    out = []
    for item in (x.strip() for x in text.split(",")):
        num = f"{int(item):02d}" if item.isdigit() else item
        if num not in LESSONS:
            raise argparse.ArgumentTypeError(
                f"lesson {item!r} is not valid; choose from {', '.join(LESSONS)}"
            )
        out.append(num)
    return out


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``vtsmodel`` command."""
    p = _Parser(prog=PROG, description="vtsmodel: figures for proposals, drive sizing and references.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    f = sub.add_parser(
        "figures",
        help="regenerate every lesson's figures",
        description=(
            "Regenerate every lesson's figures with their captions (settings and citations). "
            "Without --scenarios, one set per lesson at its default settings; with a scenario "
            "file (saved from a lesson's scenario sheet), one set per scenario."
        ),
    )
    f.add_argument("outdir", metavar="OUTDIR", help="folder to write into (created if missing)")
    f.add_argument(
        "--format", default="png", help="comma-separated formats: png, svg, pdf, html (default: png)"
    )
    f.add_argument("--scenarios", action="append", metavar="FILE", help="a scenario file (JSON); may repeat")
    f.add_argument("--lessons", type=_lesson_list, metavar="NN,NN", help="only these lessons, e.g. 01,04")
    f.add_argument("--overwrite", action="store_true", help="replace existing files (default: keep them)")
    f.add_argument(
        "--style", choices=("light", "print"), default="light", help="figure style (default: light)"
    )
    f.add_argument("--size", choices=("slide", "page"), default="page", help="figure size (default: page)")
    f.set_defaults(func=_cmd_figures)

    s = sub.add_parser(
        "size",
        help="print the tape drive sizing table (lesson 05)",
        description=(
            "Print the drives needed per data flow: rate · factor / efficiency / drive speed "
            "(cern-tape-sizing-2005). With no --flow, the CERN sample calculation."
        ),
    )
    s.add_argument(
        "--flow",
        action="append",
        metavar="NAME,RATE,FACTOR,EFFICIENCY",
        help="a data flow: name, rate [MB/s], peak factor [-], efficiency (0, 1]; may repeat",
    )
    s.add_argument(
        "--drive",
        metavar="NAME",
        help="a drive of the catalog, e.g. LTO9, LTO-10, TS1160, T10000C (its speed is used)",
    )
    s.add_argument("--drive-speed", type=_positive_float, metavar="MB/s", help="the drive speed [MB/s]")
    s.set_defaults(func=_cmd_size)

    c = sub.add_parser(
        "cite",
        help="print references",
        description="Print the references of tables or source ids; with none, every source.",
    )
    c.add_argument("items", nargs="*", metavar="TABLE_OR_SOURCE", help="a table name or a source id")
    c.set_defaults(func=_cmd_cite)

    pl = sub.add_parser(
        "plan",
        help="plan a VTS and a tape library from a plan file; write the report",
        description=(
            "Evaluate every VTS B18 configuration and a tape library against a plan file "
            "(answers and an optional hourly workload, saved as JSON) or an hourly workload file "
            "alone; print the recommendation and its margins; with --report, write the report "
            "(HTML, or PDF through Chromium). Exit 0 with a recommendation, 3 when no configuration "
            "meets every target, 1 on an error, 2 on a usage error. Start from "
            "examples/example_plan.json."
        ),
    )
    pl.add_argument(
        "plan_file",
        metavar="PLAN_FILE",
        nargs="?",
        help="a plan file (JSON); omit it to plan --workload alone",
    )
    pl.add_argument(
        "--workload",
        metavar="CSV",
        help="an hourly workload file replacing the plan's; without a plan file, the default answers for the rest",
    )
    pl.add_argument(
        "--mount-log",
        metavar="LOG.csv",
        help="a mount log: each configuration's own read-hit ratio replaces the answered one",
    )
    pl.add_argument("--report", metavar="FILE", help="write the report to FILE (.html or .pdf)")
    pl.add_argument(
        "--init",
        metavar="FILE",
        help="write a plan file to start from, each answer with its unit, range and source as a "
        "comment (the defaults, or PLAN_FILE's answers); nothing is evaluated",
    )
    pl.add_argument("--overwrite", action="store_true", help="replace an existing report or --init file")
    from vtsmodel.app import hits_cli

    hits_cli.add_reading_arguments(
        pl, _positive_float, "reading the mount log (each detected when not given)"
    )
    pl.set_defaults(func=_cmd_plan)

    hits_cli.add_parser(sub, _positive_float)

    r = sub.add_parser(
        "replay",
        help="replay a mount log through a cache and a tape library; the queueing formulas beside it",
        description=(
            "Replay every request of a mount log (the format of 'hits'), in order and at its time, through "
            "an LRU cache and a tape library of catalog drives and robots (vtsmodel.replay), streamed in "
            "bounded memory; print the waits beside the M/D/c and M/G/c answers, mounts per hour and "
            "utilisation; with --report, an offline HTML report with its figures."
        ),
    )
    r.add_argument("log", metavar="LOG.csv", help="the mount log")
    r.add_argument("--drives", type=int, default=16, help="tape drives (default 16)")
    r.add_argument("--drive", default="LTO9", help="catalog drive (default LTO9; e.g. LTO-9, TS1160)")
    r.add_argument("--robots", type=int, default=1, help="robots (default 1)")
    r.add_argument(
        "--dismount-after", type=float, default=0.0, metavar="S", help="dismount delay [s] (default 0)"
    )
    r.add_argument("--policy", choices=("fifo", "group"), default="fifo", help="queue policy (default fifo)")
    r.add_argument(
        "--batch",
        type=int,
        default=1,
        metavar="K",
        help="mount a cartridge when K requests wait for it (default 1: no batching; with --batch-wait)",
    )
    r.add_argument(
        "--batch-wait",
        type=float,
        default=0.0,
        metavar="S",
        help="... or its oldest request waited S seconds [s] (with --batch)",
    )
    r.add_argument(
        "--cache-gb", type=float, default=None, metavar="GB", help="LRU cache in front (default none)"
    )
    r.add_argument("--log-format", metavar="NAME", help="the log's format (vtsmodel, xferlog, tape-requests; "
                   "default: detected)")  # fmt: skip
    r.add_argument(
        "--columns", metavar="SPEC", help="what each column holds, e.g. 'time=1,tape=3' (no header)"
    )
    r.add_argument(
        "--object-mb", type=float, metavar="MB", help="every object's size, for a log without sizes"
    )
    r.add_argument("--service", choices=("drive", "log"), default=None,
                   help="a request's drive time: the drive's locate and read ('drive'), or the log's duration "
                        "('log'); default: 'log' when the log gives durations")  # fmt: skip
    r.add_argument("--volume-mb", type=float, default=None, metavar="MB", help="volume size for stacking")
    r.add_argument("--cartridge-share", type=float, default=1.0, metavar="S",
                   help="share of each cartridge holding the log's volumes, for stacking (default 1: they fill "
                        "their cartridges)")  # fmt: skip
    r.add_argument(
        "--percentile", type=float, default=0.95, metavar="Q", help="quantile compared (default 0.95)"
    )
    r.add_argument("--chunk-lines", type=int, default=100_000, metavar="N", help="lines read at once")
    r.add_argument("--report", metavar="FILE.html", help="write an offline HTML report")
    r.add_argument("--overwrite", action="store_true", help="replace an existing report")
    r.set_defaults(func=_cmd_replay)
    return p


def _run(args) -> int:
    """Run a command with the day simulation's loop in plain Python (``tvc_day.COMPILED_STEPS``).

    A command simulates a few hundred days at most, 0.2 ms each in plain Python: less than
    numba's start (0.6-0.75 s) would cost it (BENCHMARKS.md).
    """
    from vtsmodel import tvc_day

    before, tvc_day.COMPILED_STEPS = tvc_day.COMPILED_STEPS, False
    try:
        return int(args.func(args) or 0)
    finally:
        tvc_day.COMPILED_STEPS = before


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if not getattr(args, "command", None):
            if extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            parser.print_help()
            return 2
        if extra:  # named with the command's help, where its flags are
            raise _Usage(f"{PROG} {args.command}: unrecognized arguments: {' '.join(extra)} "
                         f"(see {PROG} {args.command} --help)")  # fmt: skip
        return _run(args)
    except _Usage as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped (| head): no message; nothing more to flush to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, OSError, KeyError, RuntimeError) as exc:
        if os.environ.get("VTSMODEL_DEBUG"):
            raise
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"{PROG}: error: {_in_flags(msg)}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback, for the user
        if os.environ.get("VTSMODEL_DEBUG"):
            raise
        print(
            f"{PROG}: error: {type(exc).__name__}: {exc} (set VTSMODEL_DEBUG=1 for details)", file=sys.stderr
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
