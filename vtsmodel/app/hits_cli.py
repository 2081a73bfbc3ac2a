"""``vtsmodel hits``: read-hit ratios and recalls per hour of any cache capacities, from a log.

::

    vtsmodel hits LOG [--log-format vtsmodel|xferlog|tape-requests] [--columns SPEC]
                      [--delimiter D] [--time-form F] [--object-gb GB] [--access-map W=KIND,...]
                      [--size-basis compressed|host] [--encoding E] [--sort]
                      [--capacities 500GB,2TB,10TB | --auto N | --table3 [--feature F] [--cf CF]]
                      [--shards MAX_VOLUMES] [--warmup-hours H] [--format table|csv|json]

Without ``--capacities`` or ``--auto``, a VTS mount log (sizes in ``compressed_mb`` or
``host_mb``) gets Table 3's capacities and any other log 20 capacities spaced in log scale
over its working set.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

from vtsmodel import VtsModelWarning

__all__ = ["add_parser", "add_reading_arguments", "reading_options"]

#: Capacities ``--auto`` gives when neither it nor ``--capacities`` is given (not a VTS log). [count]
DEFAULT_AUTO = 20
#: The model's parameters as the flags that set them.
_FLAGS = {"max_volumes": "--shards", "warmup_hours": "--warmup-hours", "n": "--auto"}
_DELIMITERS = {"tab": "\t", "space": None, "spaces": None, "comma": ",", "semicolon": ";", "bar": "|"}


def add_parser(sub, positive_float) -> None:
    """Add the ``hits`` command to the command line's subparsers."""
    from vtsmodel.b18 import FEATURES

    h = sub.add_parser(
        "hits",
        help="read-hit ratios and recalls per hour of any cache capacities, from a mount or request log",
        description=(
            "Read a log (vtsmodel's mount log, or a real system's: any delimiter, header or not, epoch or "
            "ISO times, gzip/bz2/xz/zstd; see vtsmodel.logs) and print, for each cache capacity, the "
            "read-hit ratio of an LRU cache (by count and by bytes) and the recalls per hour. A VTS mount "
            "log gets Table 3's capacities unless --capacities or --auto says otherwise; any other log "
            f"{DEFAULT_AUTO} capacities over its working set."
        ),
    )
    h.add_argument("log", metavar="LOG", help="the log (a file, plain or compressed)")
    add_reading_arguments(h, positive_float)
    c = h.add_argument_group("capacities")
    which = c.add_mutually_exclusive_group()
    which.add_argument("--capacities", metavar="LIST", help="e.g. 500GB,2TB,10TB (a number alone is GB)")
    which.add_argument("--auto", type=int, metavar="N", help="N capacities in log scale over the working set")
    which.add_argument("--table3", action="store_true", help="Table 3's TVC capacities (the VTS log default)")
    c.add_argument("--feature", choices=FEATURES, help="Table 3: only this feature's capacities")
    c.add_argument("--cf", type=positive_float, default=1.0, help="Table 3: data compressibility (default 1)")
    h.add_argument("--warmup-hours", type=float, default=0.0, metavar="H", help="leave the first H hours out")
    h.add_argument(
        "--shards", type=int, metavar="MAX_VOLUMES",
        help="a sampled curve (SHARDS) tracking at most MAX_VOLUMES volumes, for huge logs (default: the exact curve)",
    )  # fmt: skip
    h.add_argument(
        "--format", choices=("table", "csv", "json"), default="table", help="output (default table)"
    )
    h.set_defaults(func=run)


def add_reading_arguments(
    parser, positive_float, title: str = "reading the log (each detected when not given)"
) -> None:
    """Add the flags that say how to read a log (:func:`reading_options`): ``hits``' log, ``plan``'s mount log."""
    from vtsmodel.logs import FORMATS, TIME_FORMS

    r = parser.add_argument_group(title)
    r.add_argument("--log-format", choices=sorted(FORMATS), help="a named format")
    r.add_argument(
        "--columns", metavar="SPEC",
        help="what each field holds, by position from 1: 'time,volume,,bytes,op' or 'time=1,tape=2,bytes=5'",
    )  # fmt: skip
    r.add_argument("--delimiter", metavar="D", help="one character, or tab, space, comma, semicolon, bar")
    r.add_argument("--time-form", choices=sorted(TIME_FORMS), help="the times' form")
    r.add_argument(
        "--object-gb", type=positive_float, metavar="GB", help="the size of every object (no size column)"
    )
    r.add_argument("--size-basis", choices=("compressed", "host"), help="what the sizes measure")
    r.add_argument(
        "--access-map", metavar="W=KIND,...", help="the log's access words: R=read,W=scratch_write,D=skip"
    )
    r.add_argument(
        "--encoding",
        default="utf-8",
        help="the text encoding (default utf-8; UTF-16 and UTF-32 are known by their byte-order marks)",
    )
    r.add_argument("--sort", action="store_true", help="sort the lines by time (default: reject disorder)")


def reading_options(args) -> dict:
    """What the reading flags (:func:`add_reading_arguments`) say, as :class:`vtsmodel.logs.LogFile` takes it."""
    opts = {"encoding": args.encoding}
    if args.log_format:
        opts["format"] = args.log_format
    if args.columns:
        opts["columns"] = args.columns
    if args.delimiter is not None:
        opts["delimiter"] = _DELIMITERS.get(args.delimiter.lower(), args.delimiter)
    if args.time_form:
        opts["time_form"] = args.time_form
    if args.object_gb is not None:
        opts["object_mb"] = args.object_gb * 1e3
    if args.size_basis:
        opts["size_basis"] = args.size_basis
    if args.access_map:
        from vtsmodel.app.text import parse_access_map

        opts["access_map"] = parse_access_map(args.access_map)
    return opts


def run(args) -> int:
    """Compute and print the table (or CSV, or JSON)."""
    from vtsmodel import hits, mountlog
    from vtsmodel.app.text import parse_sizes_gb
    from vtsmodel.logs import LogFile, ReadingWarning

    spec = LogFile(args.log, **reading_options(args))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReadingWarning)  # the log's notes say it
        first = next(mountlog.iter_mount_log(spec, chunk_lines=1))  # the reader's findings, before the pass
        log = mountlog.read_mount_log(spec, sort=True) if args.sort else spec
    vts = first.info.vts_sizes
    with warnings.catch_warnings(record=True) as caught:  # said once each, as notes
        warnings.simplefilter("always", VtsModelWarning)
        warnings.simplefilter("ignore", ReadingWarning)  # said in the log's notes
        try:
            curve = (
                hits.lru_hit_curve(log, warmup_hours=args.warmup_hours)
                if args.shards is None
                else hits.shards_hit_curve(log, max_volumes=args.shards, warmup_hours=args.warmup_hours)
            )
        except ValueError as exc:  # the parameter as the flag that set it: --shards=0, not max_volumes=0
            raise ValueError(_in_flags(exc)) from None
        _refuse_nothing_counted(curve, args)
        table3 = args.table3 or (vts and args.capacities is None and args.auto is None)
        if table3:
            t = hits.configuration_hits(curve, feature=args.feature, cf=args.cf)
            caps, extra = t.capacity_gb, {"tvc_gb": t.tvc_gb, "offered_with": t.offered_with}
        else:
            caps = (
                parse_sizes_gb(args.capacities, name="--capacities")
                if args.capacities
                else _flagged(hits.auto_capacities, curve, DEFAULT_AUTO if args.auto is None else args.auto)
            )
            t, extra = curve.at(caps), {}
        err = curve.read_hit_error(t.capacity_gb)
    warned = _warned(caught)
    rows = _rows(t, err, extra)
    name = Path(str(args.log)).name
    if args.format == "csv":
        from vtsmodel.files import csv_text

        cols = list(rows[0]) if rows else []
        print(csv_text([cols, *([r[c] for c in cols] for r in rows)]), end="")
    elif args.format == "json":
        doc = {
            "log": name, "method": curve.method, "sampling_rate": curve.sampling_rate,
            "size_basis": curve.size_basis, "capacities": "table3" if table3 else "chosen", "mounts": curve.mounts,
            "volumes": curve.volumes, "hours": curve.hours, "expected_error": curve.expected_error,
            "notes": [*curve.notes, *warned], "rows": rows,
        }  # fmt: skip
        print(json.dumps(_nulls(doc), indent=1))
    else:
        _print_table(name, curve, rows, table3, args)
    if args.format != "json":  # on stderr: the CSV or the table stays as it is
        for w in warned:
            print(f"note: {w}", file=sys.stderr)
    return 0


def _in_flags(exc: ValueError) -> str:
    """The model's message with its parameters named as the command's flags."""
    from vtsmodel.app.cli import _named

    return _named(str(exc), _FLAGS)


def _flagged(func, *a):
    """``func(*a)``, its errors naming the command's flags."""
    try:
        return func(*a)
    except ValueError as exc:
        raise ValueError(_in_flags(exc)) from None


def _refuse_nothing_counted(curve, args) -> None:
    """Refuse a log with no request, or a warm-up that leaves none to count: every ratio would be n/a."""
    if curve.mounts == 0:
        raise ValueError(f"{args.log}: the log holds no requests: nothing to count")
    if args.warmup_hours > 0 and curve.hours == 0:
        raise ValueError(
            f"--warmup-hours={args.warmup_hours:g} leaves no hour of {args.log} to count: its "
            f"{curve.mounts:,} requests end by then (give fewer hours)"
        )


def _warned(caught) -> list[str]:
    """The model's warnings, each once and in order; any other warning is shown as Python shows it."""
    out = []
    for w in caught:
        if issubclass(w.category, VtsModelWarning):
            out.append(str(w.message))
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    return list(dict.fromkeys(out))


def _rows(t, err, extra) -> list[dict]:
    out = []
    for i, cap in enumerate(t.capacity_gb.tolist()):
        row = {}
        if extra:
            row["tvc_gb"] = float(extra["tvc_gb"][i])
            row["offered_with"] = extra["offered_with"][i]
        row |= {
            "capacity_gb": cap,
            "read_hit_ratio": float(t.read_hit_ratio[i]),
            "read_hit_error": float(err[i]),
            "read_byte_hit_ratio": float(t.read_byte_hit_ratio[i]),
            "recalls_per_hour": float(t.recalls_per_hour[i]),
            "peak_hour_recalls": float(t.peak_hour_recalls[i]),
            "recall_mb_per_hour": float(t.recall_mb_per_hour[i]),
            "mean_recall_mb": float(t.mean_recall_mb[i]),
        }
        out.append(row)
    return out


def _nulls(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _nulls(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_nulls(v) for v in x]
    return x


def _print_table(name: str, curve, rows: list[dict], table3: bool, args) -> None:
    from vtsmodel import cite, hits
    from vtsmodel.app.cli import _table
    from vtsmodel.app.text import size

    def pct(x, e=None):
        if math.isnan(x):
            return "n/a"
        return f"{100 * x:.1f}" + (f" ± {200 * e:.1f}" if e and curve.method == "shards" else "")

    def num(x, fmt):
        return "n/a" if math.isnan(x) else format(x, fmt)

    method = "exact one-pass LRU" if curve.method == "exact" else (
        f"SHARDS sample of {curve.sampled_volumes:,} volumes, rate {curve.sampling_rate:.3g}: a sample this "
        f"size erred by up to {100 * curve.expected_error:.1f} points on the benchmark's logs (median); "
        "± per row is twice the replicate samples' standard error"
    )  # fmt: skip
    what = "Table 3 cache size" if table3 else "cache capacity"
    print(f"Read hits by {what}: {name}")
    print(
        f"{curve.mounts:,} requests, {curve.volumes:,} objects{' sampled' if curve.method == 'shards' else ''}, "
        f"{curve.hours:.1f} h counted; {curve.reads:,.0f} "
        f"reads, {curve.specific_writes:,.0f} specific writes; sizes {curve.size_basis}; {method}"
    )
    for note in curve.notes:
        print(f"  {note}")
    if table3:
        holds = "host-size volumes (base)" if args.feature == "base" else "compressed volumes (EHPO or PAF)"
        print(f"The cache holds {holds}; CF {args.cf:g}; 'compared' is the capacity in the log's sizes.")
    print()
    table = []
    for r in rows:
        row = {}
        if table3:
            row |= {"TVC [GB]": f"{r['tvc_gb']:g}", "offered with": r["offered_with"]}
            row["compared [GB]"] = f"{r['capacity_gb']:.4g}"
        else:
            row["capacity"] = size(r["capacity_gb"])
        row |= {
            "read hits [%]": pct(r["read_hit_ratio"], r["read_hit_error"]),
            "read hits, bytes [%]": pct(r["read_byte_hit_ratio"]),
            "recalls [1/h]": num(r["recalls_per_hour"], ".2f"),
            "peak hour [recalls]": num(r["peak_hour_recalls"], ".0f"),
            "mean recall [MB]": num(r["mean_recall_mb"], ".0f"),
        }
        table.append(row)
    print(_table(table, list(table[0])))
    print()
    print(
        "Recalls: read misses and specific-mount write misses (ibm-vts-b18-2000, Sec. 3.4). The first "
        "request of each object in the log is a miss."
    )
    if rows and curve.largest_volume_gb > min(r["capacity_gb"] for r in rows):
        print(
            f"Note: the largest object ({size(curve.largest_volume_gb)}) exceeds the smallest capacity "
            "compared (module notes of vtsmodel.hits)."
        )
    if table3:
        print()
        print(cite(hits.configuration_hits))
