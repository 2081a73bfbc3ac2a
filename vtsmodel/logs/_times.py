"""Time forms of a log line: detected from the first value, parsed a block at a time (private).

Every form becomes seconds after the first line's time; the forms that name a date and time
(all but ``seconds``) also give that first time as a ``numpy.datetime64`` (UTC when the log
gives a zone, as written when it does not).
"""

from __future__ import annotations

import re
import warnings

import numpy as np

#: The time forms the reader knows, with what each looks like.
TIME_FORMS = {
    "seconds": "seconds from any origin, kept as they are (12.5)",
    "epoch_s": "seconds since 1970-01-01 UTC (1314000000)",
    "epoch_ms": "milliseconds since 1970-01-01 UTC (1314000000123)",
    "epoch_us": "microseconds since 1970-01-01 UTC (1314000000123456)",
    "epoch_ns": "nanoseconds since 1970-01-01 UTC",
    "iso": "ISO 8601 extended, T or space, zone optional (2011-08-19T00:15:58, 2011-08-19 00:15:58+02:00, ... UTC)",
    "iso_basic": "ISO 8601 basic, zone optional (20110819T001558, 20110819T001558Z)",
    "ctime": "C's ctime, as xferlog writes it (Fri Aug 19 00:15:58 2011)",
    "mdy": "month/day/year and a time, 12- or 24-hour, as US-English tools write (8/19/2011 12:15:58 AM)",
    "dmy": "day.month.year or day/month/year and a time (19.08.2011 00:15:58)",
    "month_name": "a date with its month's English name, as web servers, databases and Java write, zone optional "
    "(19/Aug/2011:00:15:58 +0200, 19-Aug-2011 00:15:58, 19-AUG-11 12.15.58.000000 AM, Aug 19, 2011 12:15:58 AM, "
    "Fri, 19 Aug 2011 00:15:58 GMT; a year of two digits 69-99 is of the 1900s, 00-68 of the 2000s)",
    "excel": "a spreadsheet's date and time as a number: days since 1899-12-30 (40774.0110879), to the millisecond",
}
#: The forms that write a date and time without a zone: taken as written.
UNZONED = ("iso", "iso_basic", "ctime", "mdy", "dmy", "month_name", "excel")
_EPOCH_US = {"epoch_s": 1e6, "epoch_ms": 1e3, "epoch_us": 1.0, "epoch_ns": 1e-3}
#: A number this large or larger is read as epoch seconds, milliseconds, ... when the form
#: is not given (1973-03-03, 1973 in ms, ...): a log in seconds from its own start rarely
#: runs 3 years, and a 1970s epoch time is rarely in a tape log. [s, ms, us, ns]
_EPOCH_FROM = (("epoch_ns", 1e17), ("epoch_us", 1e14), ("epoch_ms", 1e11), ("epoch_s", 1e8))
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_ISO = re.compile(r"\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}")
_BASIC = re.compile(r"\d{8}T\d{4}")
_CTIME = re.compile(r"[A-Za-z]{3} +[A-Za-z]{3} +\d{1,2} +\d{1,2}:\d{2}:\d{2} +\d{4}$")
#: A date written day or month first (``8/19/2011 12:15:58 AM``, ``19.08.2011 00:15``): the two
#: numbers before the year, the separator, the year, hour, minute, second, its fraction, AM or PM.
_DATE_FIRST = re.compile(
    r"(\d{1,2})([./-])(\d{1,2})\2(\d{4})[ T]+(\d{1,2}):(\d{2})(?::(\d{2})([.,]\d+)?)?(?:\s*([AaPp])\.?[Mm]\.?)?$"
)
#: A date with its month's name: an optional weekday, then day month year (19/Aug/2011, 19-Aug-2011,
#: 19 Aug 2011, Oracle's 19-AUG-11) or month day year (Aug 19, 2011), the time (after a colon in
#: web servers' logs; dots between its parts as Oracle writes it), AM or PM, a zone; web servers'
#: brackets around it.
_NAMED_MONTH = re.compile(
    r"\[?(?:[A-Za-z]{3,9}\.?,?\s+)?"
    r"(?:(\d{1,2})[-/ ]([A-Za-z]{3,9})\.?[-/ ](\d{4}|\d{2})|([A-Za-z]{3,9})\.?[- ](\d{1,2}),?[- ](\d{4}|\d{2}))"
    r"[:T ]\s*(\d{1,2})[:.](\d{2})(?:[:.](\d{2})([.,]\d+)?)?(?:\s*([AaPp])\.?[Mm]\.?)?"
    r"(\s*(?:[Zz]|[A-Za-z]{3,5}|[+-]\d{2}(?::?\d{2})?))?\]?$"
)
_MONTH_NAMES = "january february march april may june july august september october november december".split()
#: Days from 1899-12-30 (a spreadsheet's day 0, past its phantom 1900-02-29) to 1970-01-01.
_EXCEL_1970 = 25569.0
#: Spreadsheet days accepted: 1900-03-01 (before it, a spreadsheet's days are a day off) to 9999-12-31.
_EXCEL_DAYS = (61.0, 2958465.99999)
#: What :func:`detect` says of a date written day or month first whose order it alone does not tell.
DATE_ORDER_UNSURE = "mdy or dmy"
#: Largest time of the ``seconds`` form accepted (about 31,700 years). [s]
MAX_SECONDS = 1e12


class TimeError(ValueError):
    """A value that is not a time of the form: ``index`` is its place in the block."""

    def __init__(self, index: int, problem: str):
        super().__init__(problem)
        self.index = index
        self.problem = problem


def detect(value: str, *, seconds_named: bool = False) -> str | None:
    """The form of one time value (None when no form fits).

    A number is ``seconds`` below 10^8 (or always, for a column named ``time_s``) and an
    epoch form above (its magnitude says which: :data:`_EPOCH_FROM`).
    """
    v = value.strip()
    if _NUMBER.match(v):
        if seconds_named:
            return "seconds"
        x = abs(float(v))
        return next((form for form, lo in _EPOCH_FROM if x >= lo), "seconds")
    if _ISO.match(v):
        return "iso"
    if _BASIC.match(v):
        return "iso_basic"
    if _CTIME.match(v):
        return "ctime"
    m = _DATE_FIRST.match(v)
    if m:
        return _order(m) or DATE_ORDER_UNSURE
    m = _NAMED_MONTH.match(v)
    if m and _month(m[2] or m[4]):
        return "month_name"
    return None


def _month(name: str) -> int:
    """The month (1-12) an English name or its abbreviation gives (Aug, August, Sept); 0 if none."""
    low = name.lower()
    if low == "sept":
        return 9
    return next((i + 1 for i, full in enumerate(_MONTH_NAMES) if len(low) >= 3 and full.startswith(low)), 0)


def _order(m: re.Match) -> str | None:
    """``mdy`` or ``dmy`` where one date written day or month first tells (None where it does not).

    A first number over 12 is a day; a second over 12 is a day after the month; a 12-hour clock
    (AM, PM) is US usage, month first; dots between the parts (19.08.2011) are European usage,
    day first.
    """
    if int(m[1]) > 12:
        return "dmy"
    if int(m[3]) > 12 or m[9]:
        return "mdy"
    return "dmy" if m[2] == "." else None


def date_order(values: list[str]) -> str | None:
    """``mdy`` or ``dmy``, told by the first of ``values`` whose date says which (:func:`_order`); None when none does."""
    for v in values:
        m = _DATE_FIRST.match(v.strip())
        order = _order(m) if m else None
        if order:
            return order
    return None


def spreadsheet_days(values: list[str]) -> bool:
    """Whether numbers detected as seconds look like a spreadsheet's dates (days since 1899-12-30) instead.

    All lie between 1970 and 2100 as such days, some have a fraction, and either one has 5 or more
    decimals (a spreadsheet writes 10 or more; seconds rarely come to 10 microseconds) or all lie
    within one unit (a second of a tape log holds few requests; a day, many).
    """
    values = [v for v in values if _NUMBER.match(v.strip())]  # a footer's words aside
    x = np.array([float(v) for v in values])
    if not x.size or not ((x >= _EXCEL_1970) & (x < 73051.0)).all() or not (x % 1).any():
        return False
    decimals = max(len(v.strip().partition(".")[2]) for v in values)
    return decimals >= 5 or (x.size > 1 and np.ptp(x) < 1.0)


class TimeParser:
    """Parse blocks of time values of one form into seconds after the first time.

    Parameters
    ----------
    form : str
        One of :data:`TIME_FORMS`.
    """

    def __init__(self, form: str):
        self.form = form
        self.origin = None  # datetime64[us] of the first time (or seconds, for "seconds")
        self.zoned = False  # some value gave a zone

    @property
    def start(self) -> np.datetime64 | None:
        """Date and time of second 0 (None for the ``seconds`` form)."""
        return None if self.form == "seconds" else self.origin

    def absolute(self, values: list[str]) -> np.ndarray:
        """The times as given: datetime64[us] (UTC where zoned), or seconds for ``seconds``.

        Raises
        ------
        TimeError
            Naming the first value that is not of the form.
        """
        if self.form == "seconds":
            return _numbers(values, 0.0, MAX_SECONDS) if values else np.zeros(0)
        if not values:
            return np.zeros(0, dtype="datetime64[us]")
        if self.form in _EPOCH_US:
            return _epoch_us(values, _EPOCH_US[self.form]).astype("datetime64[us]")
        if self.form == "ctime":
            return _iso([_ctime_to_iso(v, i) for i, v in enumerate(values)])
        if self.form in ("mdy", "dmy"):
            return _iso([_date_first_to_iso(v, i, self.form) for i, v in enumerate(values)])
        if self.form == "excel":
            days = _numbers(values, *_EXCEL_DAYS, unit="days")
            return (np.rint((days - _EXCEL_1970) * 86_400_000).astype(np.int64) * 1000).astype(
                "datetime64[us]"
            )
        if self.form == "month_name":
            values = _named_month_block(values) or [_named_month_to_iso(v, i) for i, v in enumerate(values)]
        dt, zoned = _iso_zoned(values, basic=self.form == "iso_basic")
        self.zoned |= zoned
        return dt

    def seconds(self, absolute: np.ndarray) -> np.ndarray:
        """Seconds after the log's first time (the first call fixes it). [s]"""
        if self.form == "seconds":
            return absolute
        if self.origin is None and absolute.size:
            self.origin = absolute[0]
        if not absolute.size:
            return np.zeros(0)
        return (absolute - self.origin).astype(np.float64) / 1e6

    def __call__(self, values: list[str]) -> np.ndarray:
        """Seconds after the first time of the log, one per value. [s]"""
        return self.seconds(self.absolute(values))


def _numbers(values: list[str], lo: float, hi: float, unit: str = "s") -> np.ndarray:
    try:
        t = np.array(values, dtype=np.float64)
    except ValueError:
        t = None
    if t is None:
        for i, v in enumerate(values):
            try:
                float(v)
            except ValueError:
                raise TimeError(i, f"is not a number; valid range [{lo:g}, {hi:g}] {unit}") from None
    bad = ~np.isfinite(t) | (t < lo) | (t > hi)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise TimeError(i, f"is outside the valid range [{lo:g}, {hi:g}] {unit}")
    return t


def _epoch_us(values: list[str], per_unit_us: float) -> np.ndarray:
    """Microseconds since 1970 (int64) from epoch numbers in any unit."""
    try:
        ints = np.array(values, dtype=np.int64)  # exact for nanoseconds, which float64 is not
        return ints // 1000 if per_unit_us < 1 else ints * int(per_unit_us)
    except (ValueError, OverflowError):
        pass
    # 0 to 10^11 s (year 5138): beyond, not a time a tape log holds
    t = _numbers(values, 0.0, 1e11 * 1e6 / per_unit_us)
    return np.rint(t * per_unit_us).astype(np.int64)


def _ctime_to_iso(value: str, i: int) -> str:
    parts = value.split()
    try:
        _dow, mon, day, hms, year = parts
        month = _month(mon) if len(mon) == 3 else 0
        if not month:
            raise ValueError
        return f"{year}-{month:02d}-{int(day):02d}T{hms:0>8}"
    except ValueError:
        raise TimeError(i, "is not a time of the log's form") from None


def _date_first_to_iso(value: str, i: int, form: str) -> str:
    m = _DATE_FIRST.match(value.strip())
    if m is None:
        raise TimeError(i, "is not a time of the log's form")
    a, b, hour = int(m[1]), int(m[3]), _hour(m[5], m[9], i)
    month, day = (a, b) if form == "mdy" else (b, a)
    return f"{m[4]}-{month:02d}-{day:02d}T{hour:02d}:{m[6]}:{m[7] or '00'}{(m[8] or '').replace(',', '.')}"


def _hour(hour: str, am_pm: str | None, i: int) -> int:
    """The hour of a 24-hour clock; of a 12-hour one where ``am_pm`` ("A" or "P") is given (12 AM is midnight)."""
    h = int(hour)
    if not am_pm:
        return h
    if not 1 <= h <= 12:
        raise TimeError(i, "has an hour outside 1 to 12 beside AM or PM")
    return h % 12 + (12 if am_pm in "Pp" else 0)


def _named_month_to_iso(value: str, i: int) -> str:
    """ISO 8601 extended (its zone, if any, after a space) of a date with its month's name."""
    m = _NAMED_MONTH.match(value.strip())
    month = _month(m[2] or m[4]) if m else 0
    if not month:
        raise TimeError(i, "is not a time of the log's form")
    day, year = (m[1], m[3]) if m[1] else (m[5], m[6])
    if len(year) == 2:  # as POSIX's %y: 69-99 the 1900s, 00-68 the 2000s
        year = f"{1900 + int(year) if int(year) >= 69 else 2000 + int(year)}"
    hour = _hour(m[7], m[11], i)
    zone = (" " + m[12].strip()) if m[12] else ""
    return f"{year}-{month:02d}-{int(day):02d}T{hour:02d}:{m[8]}:{m[9] or '00'}{(m[10] or '').replace(',', '.')}{zone}"


def _named_month_block(values: list[str]) -> list[str] | None:
    """:func:`_named_month_to_iso` of a block whose values all have the first one's layout, by slicing.

    A web server or a database writes every time in one width: the digits, a month of three
    letters and the zone vary, every other character is the first value's. None where the block
    is not so (the value by value path then names a bad value).
    """
    v0 = values[0]
    m = _NAMED_MONTH.match(v0)
    mon = 2 if m and m[1] else 4
    if m is None or m[11] or v0 != v0.strip() or m.end(mon) - m.start(mon) != 3:
        return None
    arr = np.asarray(values, dtype=str)
    n, w = arr.size, len(v0)
    if arr.dtype.itemsize != 4 * w or (np.char.str_len(arr) != w).any():
        return None
    ch = arr.view("U1").reshape(n, w)

    def cols(a: int, b: int) -> np.ndarray:  # characters a to b - 1 of every value, as one string each
        return np.ascontiguousarray(ch[:, a:b]).view(f"U{b - a}").ravel()

    day_g, year_g = (1, 3) if m[1] else (5, 6)
    groups = {g: m.span(g) for g in (day_g, year_g, 7, 8, 9, 10, 12) if m[g] is not None}
    digits = [i for g in (day_g, year_g, 7, 8, 9) if g in groups for i in range(*groups[g])]
    digits += list(range(groups[10][0] + 1, groups[10][1])) if 10 in groups else []  # after the point
    varies = {*digits, *range(*m.span(mon)), *(range(*groups[12]) if 12 in groups else ())}
    fixed = [i for i in range(w) if i not in varies]
    if not (ch[:, fixed] == ch[0, fixed]).all() or not np.char.isdigit(ch[:, digits]).all():
        return None
    names, where = np.unique(np.char.lower(cols(*m.span(mon))), return_inverse=True)
    month = np.array([_month(c) for c in names.tolist()])[where]
    if not month.all():
        return None
    year = cols(*groups[year_g])
    if groups[year_g][1] - groups[year_g][0] == 2:  # as POSIX's %y
        yy = year.astype(int)
        year = np.where(yy >= 69, 1900 + yy, 2000 + yy).astype(str)
    parts = [year, "-", np.char.zfill(month.astype(str), 2), "-", np.char.zfill(cols(*groups[day_g]), 2), "T",
             np.char.zfill(cols(*groups[7]), 2), ":", cols(*groups[8]), ":",
             cols(*groups[9]) if 9 in groups else "00"]  # fmt: skip
    if 10 in groups:
        parts += [".", cols(groups[10][0] + 1, groups[10][1])]
    if 12 in groups:
        parts += [" ", np.char.strip(cols(*groups[12]))]
    out = parts[0]
    for part in parts[1:]:
        out = np.char.add(out, part)
    return out.tolist()


def _iso(values) -> np.ndarray:
    """datetime64[us] of extended ISO strings without a zone; TimeError naming the first bad one."""
    arr = np.asarray(values, dtype=str)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            dt = arr.astype("datetime64[us]")
        if not np.isnat(dt).any():
            return dt
    except (ValueError, TypeError, Warning):
        pass
    for i, v in enumerate(arr.tolist()):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                t = np.datetime64(v, "us")
            if np.isnat(t):
                raise ValueError
        except (ValueError, TypeError, Warning):
            raise TimeError(i, "is not a valid date and time") from None
    raise AssertionError("numpy parsed the block as a whole but not value by value")  # pragma: no cover


def _iso_zoned(values: list[str], *, basic: bool) -> tuple[np.ndarray, bool]:
    """datetime64[us] (UTC where a zone is given) of ISO 8601 values, extended or basic."""
    arr = np.asarray(values, dtype=str)
    n = arr.size
    w = arr.dtype.itemsize // 4
    ch = arr.view("U1").reshape(n, w).copy()
    length = np.char.str_len(arr)
    idx = np.arange(n)

    def at(k):  # the character length + k (k < 0) of each value; "" where out of range
        pos = length + k
        ok = pos >= 0
        out = np.full(n, "", dtype="U1")
        out[ok] = ch[idx[ok], pos[ok]]
        return out

    short_min = 13  # YYYY-MM-DDTHH, YYYYMMDDTHHMM: a zone follows at least an hour
    c3, c2, c1 = at(-3), at(-2), at(-1)
    z = np.isin(c1, ("Z", "z"))
    # UTC or GMT named (2011-08-19 00:15:58 UTC, as date -u and many exports write it)
    utc = (((c3 == "U") & (c2 == "T") & (c1 == "C")) | ((c3 == "G") & (c2 == "M") & (c1 == "T"))) & (
        length - 3 >= short_min
    )
    hhmm_colon = np.isin(at(-6), ("+", "-")) & (c3 == ":") & (length - 6 >= short_min)
    hhmm = np.isin(at(-5), ("+", "-")) & ~hhmm_colon & (length - 5 >= short_min)
    hh = np.isin(c3, ("+", "-")) & ~hhmm_colon & ~hhmm & (length - 3 >= short_min)
    cut = np.select([z, utc, hhmm_colon, hhmm, hh], [1, 3, 6, 5, 3], 0)
    numeric = (cut > 1) & ~utc
    # CEST, EST after a date and time: not one offset (a word such as "Total" is no time at all)
    t_at = 8 if basic else 10
    dated = (length - 3 >= short_min) & (np.isin(ch[:, t_at], ("T", "t", " ")) if w > t_at else False)
    named = (cut == 0) & np.char.isalpha(c2) & np.char.isalpha(c1) & dated
    if named.any():
        raise TimeError(
            int(np.flatnonzero(named)[0]),
            "has a zone named by letters: of those only UTC and GMT say one offset (EST is American or "
            "Australian); write the offset (+02:00), or no zone and the times are taken as written",
        )
    offset_s = np.zeros(n, dtype=np.int64)
    body_len = length
    zoned = bool(cut.any())
    if zoned:
        sign = np.where(at(-cut) == "-", -1, 1)
        hours = _digits(ch, idx, length - cut + 1, 2)
        minutes = np.where(
            hhmm_colon, _digits(ch, idx, length - 2, 2), np.where(hhmm, _digits(ch, idx, length - 2, 2), 0)
        )
        bad = (hours < 0) | (minutes < 0) | (hours > 23) | (minutes > 59)
        bad &= numeric
        if bad.any():
            raise TimeError(
                int(np.flatnonzero(bad)[0]), "has a zone that is not +HH:MM, +HHMM, +HH, Z, UTC or GMT"
            )
        offset_s = np.where(numeric, sign * (hours * 3600 + minutes * 60), 0)
        before = length - cut - 1  # a space between the time and its zone (00:15:58 +0200) goes with the zone
        spaced = (cut > 0) & (before >= 0) & (ch[idx, np.clip(before, 0, w - 1)] == " ")
        body_len = length - cut - spaced
        ch[np.arange(w)[None, :] >= body_len[:, None]] = ""
    if basic:
        ok = (body_len >= 13) & (ch[:, 8] == "T") if w > 8 else np.zeros(n, dtype=bool)
        if not ok.all():
            raise TimeError(int(np.flatnonzero(~ok)[0]), "is not a time of the log's form")
        ext = np.full((n, w + 4), "", dtype="U1")
        ext[:, 0:4] = ch[:, 0:4]
        ext[:, 4] = "-"
        ext[:, 5:7] = ch[:, 4:6]
        ext[:, 7] = "-"
        ext[:, 8:10] = ch[:, 6:8]
        ext[:, 10] = "T"
        ext[:, 11:13] = ch[:, 9:11]
        has_min = body_len >= 13
        ext[:, 13] = np.where(has_min, ":", "")
        ext[:, 14:16] = ch[:, 11:13]
        has_s = body_len >= 15
        ext[:, 16] = np.where(has_s, ":", "")
        ext[:, 17 : w + 4] = ch[:, 13:w]
        ch = ext
    else:
        ok = (body_len >= 13) & np.isin(ch[:, 10], ("T", "t", " ")) if w > 10 else np.zeros(n, dtype=bool)
        if not ok.all():
            raise TimeError(int(np.flatnonzero(~ok)[0]), "is not a time of the log's form")
        ch[:, 10] = "T"
        for k in (4, 7):  # 2011/08/19 as 2011-08-19
            ch[:, k] = np.where(ch[:, k] == "/", "-", ch[:, k])
    ch = np.where(ch == ",", ".", ch)  # ISO 8601 allows a decimal comma
    body = np.ascontiguousarray(ch).view(f"U{ch.shape[1]}").ravel()
    dt = _iso(body)
    if zoned:
        dt = dt - offset_s.astype("timedelta64[s]")
    return dt, zoned


def _digits(ch: np.ndarray, idx: np.ndarray, start: np.ndarray, k: int) -> np.ndarray:
    """The k-digit number at ``start`` of each row (-1 where it is not digits)."""
    out = np.zeros(idx.size, dtype=np.int64)
    ok = np.ones(idx.size, dtype=bool)
    for j in range(k):
        pos = np.clip(start + j, 0, ch.shape[1] - 1)
        code = np.ascontiguousarray(ch[idx, pos]).view(np.uint32).astype(np.int64) - 48
        ok &= (code >= 0) & (code <= 9)
        out = out * 10 + code.clip(0, 9)
    return np.where(ok, out, -1)
