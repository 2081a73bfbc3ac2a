"""What a reading of a log found and decided (:class:`ReadInfo`), and the sentences that say it."""

from __future__ import annotations

from dataclasses import dataclass, field

from vtsmodel._validation import VtsModelWarning
from vtsmodel.logs import _columns, _times


class ReadingWarning(VtsModelWarning):
    """A log read one way that may hold another (the log's notes say it too)."""


#: What to do where a log's numbers may be a spreadsheet's days (:class:`ReadingWarning`).
EXCEL_ADVICE = "name the form: time_form='excel' (--time-form excel)"


@dataclass
class ReadInfo:
    """What the reader found and decided, filled in as it reads (one per reading).

    ``vts_sizes`` is true for a log whose sizes are in vtsmodel's ``compressed_mb`` or
    ``host_mb`` column: a VTS mount log, whose natural capacities are Table 3's.
    """

    label: str
    format: str = "delimited"
    compression: str | None = None
    encoding: str = "utf-8"
    delimiter: str | None = None
    header: bool = False
    columns: dict = field(default_factory=dict)
    time_form: str = ""
    zoned: bool = False
    sizes_given: bool = True
    vts_sizes: bool = False
    access_given: bool = True
    objects_are_cartridges: bool = False
    object_mb: float | None = None
    size_basis: str = "host"
    time_at: str = "start"
    ignored: tuple[str, ...] = ()
    unread_keys: tuple[str, ...] = ()  # JSON Lines: keys the first object has not
    title_lines: int = 0  # lines a report puts over its header
    footer: tuple[str, ...] = ()  # lines under the last request that are no request
    skipped: int = 0
    headers_again: int = 0  # the header line again, where logs were joined end to end
    nul_lines: int = 0  # lines of NUL bytes alone (a file cut short, or written ahead)
    maybe_days: bool = False  # times read as seconds that look like a spreadsheet's days

    def notes(self) -> tuple[str, ...]:
        """Sentences a result should carry about how the log was read."""
        out = []
        how = [] if self.format == "delimited" else [f"format {self.format}"]
        if self.delimiter == _columns.UNQUOTED:
            how.append("JSON Lines (an object a line)")
        else:
            how.append(f"{_columns.DELIMITER_NAMES[self.delimiter]}-separated")
            how.append("with a header" if self.header else "no header")
        if self.compression:
            how.append(f"{self.compression}-compressed")
        if self.encoding != "utf-8":
            how.append(f"{self.encoding.upper()} text")
        out.append("read as " + ", ".join(how) + "; columns " + _cols_text(self.columns))
        if self.time_form:
            zone = (
                "; zones converted to UTC" if self.zoned else ("; no zone: taken as written" if self.time_form in
                _times.UNZONED else "")
            )  # fmt: skip
            out.append(f"times: {_times.TIME_FORMS[self.time_form]}{zone}")
        if self.maybe_days:
            out.append(
                f"the times may be a spreadsheet's dates (days since 1899-12-30): if so, {EXCEL_ADVICE}"
            )
        if self.time_at == "end":
            out.append("a line's time is when its request ended (the log writes it then)")
        if not self.access_given:
            out.append("the log has no access column: every request counted as a read")
        if not self.sizes_given:
            out.append(f"the log has no sizes: every object counted as {self.object_mb:,.10g} MB")
        if self.objects_are_cartridges:
            out.append("the log names no object but the cartridge: each cartridge is one object")
        if self.ignored:
            out.append("columns not used: " + ", ".join(self.ignored))
        if self.unread_keys:
            out.append("keys the first object has not, not read: " + ", ".join(self.unread_keys))
        if self.skipped:
            out.append(f"{self.skipped:,} lines left out (deletions)")
        if self.title_lines:
            out.append(f"{_count(self.title_lines, 'line')} over the header left out (a report's title)")
        if self.footer:
            out.append(
                f"{_count(len(self.footer), 'line')} after the last request left out (a report's footer, or a "
                f"line cut short): {self.footer[0][:80]!r}"
            )
        if self.headers_again:
            out.append(
                f"the header line again on {_count(self.headers_again, 'line')} (logs joined end to end): left out"
            )
        if self.nul_lines:
            out.append(
                f"{_count(self.nul_lines, 'line')} of NUL bytes alone left out (a file cut short, or written ahead)"
            )
        return tuple(out)


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")


def _cols_text(columns: dict) -> str:
    return ", ".join(f"{role}={'+'.join(where)}" for role, where in columns.items())
