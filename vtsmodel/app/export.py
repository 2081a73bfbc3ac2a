"""Write figures (PNG, SVG, PDF, standalone HTML) and sheets (CSV) for proposals.

Every write is atomic: the bytes go to a temporary file in the target folder, which is
then renamed over the target, so a failure never leaves a half-written file or destroys
the previous one. An existing file is never overwritten unless ``overwrite=True``.

Static images go through kaleido with one browser per Python session, started on first
use and reused (about 0.2 s per image instead of 2.5 s). Nothing waits for ever on it:
the browser is checked before it starts, its start and every render have a time limit,
and a browser that is missing, broken or stuck ends the export with one
:class:`~vtsmodel.app._browser.BrowserError` (what was tried, how to fix it), its process
group killed and no file written. HTML embeds plotly.js, so the file works offline. A
missing folder is created (the path returned, and shown by the panel and the CLI, names
it); new files get the usual permissions (``0o666`` less the umask). See
:func:`vtsmodel.files.atomic_write`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import copy
import html
import io
import logging
import math
import os
import textwrap
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from vtsmodel.files import atomic_write

__all__ = [
    "FORMATS",
    "PAGE_SIZES",
    "atomic_write",
    "csv_text",
    "export_csv",
    "export_figure",
    "export_figures",
    "export_many",
    "export_spec",
    "figure_bytes",
    "render_static",
    "stop_browser",
]

FORMATS = ("png", "svg", "pdf", "html")

#: Export sizes in CSS pixels: a 16:9 slide and an A4/Letter page column.
PAGE_SIZES = {"slide": (1280, 720), "page": (960, 640), "screen": (1000, 560)}

#: Browser tabs the shared export browser renders in at once (a set of figures is drawn
#: this many at a time; one figure uses one tab).
EXPORT_TABS = 2

#: Seconds the export browser may take to start and open its tabs (about 1-7 s). [s]
START_TIMEOUT_S = 60.0
#: Seconds one figure may take to render (about 0.2 s). [s]
RENDER_TIMEOUT_S = 60.0


class _Renderer:
    """One headless browser for exports, driven by kaleido on its own event-loop thread.

    Every wait is bounded: the browser is checked first (:func:`~vtsmodel.app._browser.check_browser`),
    its start must finish within :data:`START_TIMEOUT_S` and each batch within
    :data:`RENDER_TIMEOUT_S` per figure; past a limit, or when the browser fails, its
    whole process group is killed and :class:`~vtsmodel.app._browser.BrowserError` says
    what was tried and how to fix it. The next export starts a new browser.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.kaleido = None
        self.path = ""

    @property
    def running(self) -> bool:
        return self.kaleido is not None

    def _call(self, coro, timeout: float):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        from vtsmodel.app._browser import BrowserError, check_browser

        if self.running:
            return
        path, version = check_browser()
        self.path = path
        for name in ("choreographer", "kaleido"):  # their failures reach the caller as one error
            if logging.getLogger(name).level == logging.NOTSET:
                logging.getLogger(name).setLevel(logging.CRITICAL)
        loop = asyncio.new_event_loop()
        self.loop = loop
        self.thread = threading.Thread(target=loop.run_forever, name="vtsmodel-export-browser", daemon=True)
        self.thread.start()
        holder: dict = {}

        async def open_browser():
            import kaleido

            # mathjax=False: kaleido would load MathJax from a CDN (the app runs offline).
            k = kaleido.Kaleido(n=EXPORT_TABS, timeout=RENDER_TIMEOUT_S, path=path, mathjax=False)
            holder["k"] = k
            try:
                await k.open()
            except Exception as exc:  # noqa: BLE001 - returned, so that no task exception goes unread
                return exc
            return k

        future = asyncio.run_coroutine_threadsafe(open_browser(), loop)
        try:
            opened = future.result(START_TIMEOUT_S)
            if isinstance(opened, Exception):
                raise opened
            self.kaleido = opened
        except concurrent.futures.TimeoutError:
            future.cancel()
            self._teardown(holder.get("k"))
            raise BrowserError(
                f"the browser {path!r} ({version}) did not start within {START_TIMEOUT_S:g} s and was "
                "stopped; check that it runs headless here (`chromium --headless --no-sandbox "
                "--dump-dom about:blank`), or point BROWSER_PATH at another Chromium"
            ) from None
        except BaseException as exc:
            self._teardown(holder.get("k"))
            if not isinstance(exc, Exception):
                raise  # KeyboardInterrupt: the browser is stopped, the interrupt goes on
            first = str(exc.args[0]) if exc.args else str(exc)
            raise BrowserError(
                f"the browser {path!r} ({version}) failed to start ({type(exc).__name__}: {first}); "
                "check that it runs headless here (`chromium --headless --no-sandbox --dump-dom "
                "about:blank`), or point BROWSER_PATH at another Chromium"
            ) from None

    def _teardown(self, k=None) -> None:
        """Kill the browser's process group, close kaleido's side and stop the loop thread."""
        from vtsmodel.app._browser import kill_group

        k = self.kaleido if k is None else k
        self.kaleido = None
        loop, thread = self.loop, self.thread
        self.loop = self.thread = None
        proc = getattr(k, "subprocess", None)
        if proc is not None:
            kill_group(proc)  # choreographer starts the browser in its own session
        if loop is None:
            return
        if k is not None:
            try:
                asyncio.run_coroutine_threadsafe(k.close(), loop).result(10)
            except BaseException:  # noqa: BLE001, S110 - the browser is already killed
                pass

        async def cancel_rest():
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in rest:
                t.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(cancel_rest(), loop).result(10)
        except BaseException:  # noqa: BLE001, S110 - stopping anyway
            pass
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(10)
        if not loop.is_running():
            loop.close()

    def stop(self) -> None:
        """Close the browser (killed if it does not close within 10 s)."""
        k, loop = self.kaleido, self.loop
        if k is not None and loop is not None:
            try:
                self._call(k.close(), 10)
            except BaseException:  # noqa: BLE001, S110 - the teardown kills it
                pass
        self._teardown(k)

    def render(self, jobs: Sequence[tuple[dict, str]], scale: float) -> list[bytes | Exception]:
        """``(spec, fmt)`` jobs rendered at once (kaleido spreads them over its tabs)."""
        from vtsmodel.app._browser import BrowserError

        self.start()
        k = self.kaleido

        async def batch():
            calls = (k.calc_fig(spec, opts=_opts(fmt, scale)) for spec, fmt in jobs)
            return await asyncio.gather(*calls, return_exceptions=True)

        limit = RENDER_TIMEOUT_S * math.ceil(len(jobs) / EXPORT_TABS) + 5.0
        future = asyncio.run_coroutine_threadsafe(batch(), self.loop)
        try:
            out = future.result(limit)
        except concurrent.futures.TimeoutError:
            future.cancel()
            self._teardown()
            raise BrowserError(
                f"the browser {self.path!r} did not render {len(jobs)} figure(s) within {limit:g} s and "
                "was stopped; try again (a new browser starts), or export as HTML"
            ) from None
        proc = getattr(k, "subprocess", None)
        died = proc is not None and proc.poll() is not None
        if died:  # start afresh next time
            self._teardown()
        results: list[bytes | Exception] = []
        for r in out:
            if died and isinstance(r, BaseException):
                r = BrowserError(
                    f"the browser {self.path!r} stopped while rendering ({type(r).__name__}); try again"
                )
            elif isinstance(r, BaseException) and not isinstance(r, Exception):  # cancelled
                r = RuntimeError(f"the figure was not rendered ({type(r).__name__})")
            results.append(r)
        return results


_renderer = _Renderer()
atexit.register(lambda: _renderer.stop())


def start_browser() -> None:
    """Start the shared export browser now (it starts on first use otherwise).

    Raises
    ------
    vtsmodel.app._browser.BrowserError
        No working browser; the message says what was tried and how to fix it.
    """
    with _renderer.lock:
        _renderer.start()


def _render(jobs: Sequence[tuple[dict, str]], scale: float) -> list[bytes | Exception]:
    with _renderer.lock:
        return _renderer.render(jobs, scale)


def stop_browser() -> None:
    """Stop the shared export browser, if one was started."""
    with _renderer.lock:
        _renderer.stop()


def _merge(base: dict, extra: Mapping) -> dict:
    """Update ``base`` with ``extra`` in place, nested dicts merged (as ``update_layout`` does)."""
    for key, val in extra.items():
        if isinstance(val, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], val)
        else:
            base[key] = copy.deepcopy(val)
    return base


#: Caption font size in exports: at least 9 pt where one CSS pixel prints as 0.75 pt. [px]
CAPTION_FONT_PX = 13
_CAPTION_LINE_PX = 17
#: Average glyph width of the caption font, a fraction of its size (Arial). [-]
_GLYPH = 0.52


def _split_long(line: str, chars: int) -> list[str]:
    """A line longer than ``chars`` (a long URL) cut after its last ``/``, ``?``, ``&`` or ``.`` that fits, as a reference list breaks a URL."""
    out = []
    while len(line) > chars:
        cut = max(line.rfind(c, 0, chars) for c in "/?&.") + 1
        cut = cut if cut > chars // 3 else chars
        out.append(line[:cut])
        line = line[cut:]
    return [*out, line]


def _wrap_caption(caption: str, width_px: float) -> list[str]:
    """The caption's lines wrapped to ``width_px`` at :data:`CAPTION_FONT_PX`, never mid-word (a URL wider than that cut after a ``/``)."""
    chars = max(40, int(width_px / (_GLYPH * CAPTION_FONT_PX)))
    out = []
    for line in caption.splitlines():
        for part in textwrap.wrap(line, chars, break_long_words=False, break_on_hyphens=False) or [""]:
            out += _split_long(part, chars)
    return out


#: Room a subplot's title takes above its plot area. [CSS px]
_SUBPLOT_TITLE_PX = 26


def _category_margin(data, layout: Mapping) -> int:
    """The left margin [px] the y axis's category labels (and its title) take, as plotly's automargin gives it.

    Estimated at 0.6 of the font size a character; one level per row of a multi-level axis; an axis's
    own ``ticktext`` (numbers placed, names shown) is its one level.
    """
    axis = layout.get("yaxis") or {}
    ticks = axis.get("ticktext")
    levels: list[list[str]] = [[str(v) for v in ticks]] if ticks else []
    for ys in (t["y"] for t in data if not ticks and t.get("y") and isinstance(t["y"][0], str | list)):
        if all(isinstance(v, list) for v in ys):  # a multi-level axis: a list of labels per level
            for i, level in enumerate(ys):
                levels += [[] for _ in range(i + 1 - len(levels))]
                levels[i] += [str(v) for v in level]
        elif all(isinstance(v, str) for v in ys):
            levels = levels or [[]]
            levels[-1] += list(ys)
    if not levels:
        return 0
    size = (axis.get("tickfont") or {}).get("size") or (layout.get("font") or {}).get("size") or 14
    width = sum(max((len(v) for v in level), default=0) for level in levels) * 0.6 * size + 12 * len(levels)
    title = axis.get("title") or {}
    if title.get("text") if isinstance(title, Mapping) else title:
        width += 1.8 * size
    return int(width) + 16


def _on_top_edge(annotation: Mapping) -> bool:
    """Whether an annotation sits on the plot area's top edge, above it (a subplot's title)."""
    return (annotation.get("yref") == "paper" and annotation.get("yanchor") == "bottom"
            and (annotation.get("y") or 0) >= 0.98 and not annotation.get("showarrow", True))  # fmt: skip


def export_spec(fig, caption: str = "", *, size: tuple[int, int] | None = None, style: str | None = "light"):
    """The figure JSON an export draws: ``fig`` styled, sized and captioned, nothing overlapping.

    The title sits over the plot area's left edge; a legend placed under the plot moves
    above it (where it cannot cover the caption); the caption goes under the axis title, in
    :data:`CAPTION_FONT_PX` px grey (9.75 pt at print size), wrapped to the plot's width,
    and the figure grows by its height. Built on the figure's JSON, not a new ``Figure``:
    plotly would check every property again, a tenth of an export's time.

    Parameters
    ----------
    fig : plotly Figure, FigureWidget, figure dict or :class:`vtsmodel.app.figures.Plot`
    caption : str
        Lines placed under the plot (wrapped here).
    size : (width, height), optional
        The width of the export; the height where the figure sets none. [CSS px]
    style : {"light", "print"}, optional
        See :data:`vtsmodel.app.figures.STYLES`; None keeps the figure's own.
    """
    from plotly.basedatatypes import BaseFigure

    from vtsmodel.app.figures.theme import check_style, style_layout, template_json

    if not isinstance(fig, Mapping | BaseFigure) and callable(getattr(fig, "spec", None)):
        fig = fig.spec()  # a lesson's Plot: its figure JSON
    if not isinstance(fig, Mapping | BaseFigure):
        raise ValueError(
            f"fig={_short(fig)} is not a figure; give a plotly Figure, FigureWidget, figure dict or Plot"
        )
    spec = copy.deepcopy(dict(fig)) if isinstance(fig, Mapping) else fig.to_dict()
    layout = spec.setdefault("layout", {})
    if style:
        check_style(style)
        layout["template"] = template_json()
        _merge(layout, style_layout(style))
    if size:
        # the page's width; a figure keeps its own height (a tall tornado stays tall)
        layout["width"] = size[0]
        layout["height"] = layout.get("height") or size[1]
    width, height = layout.get("width") or 960, layout.get("height") or 450
    margin = layout.setdefault("margin", {})
    left, right, bottom = margin.get("l", 70), margin.get("r", 20), margin.get("b", 60)
    title = layout.get("title")
    if isinstance(title, str):
        title = layout["title"] = {"text": title}
    if isinstance(title, dict) and title.get("text"):
        title.update(x=0, xref="paper", xanchor="left")
        margin["t"] = max(margin.get("t", 50), 50)
    legend = layout.setdefault("legend", {})
    if legend.get("orientation") == "h" and (legend.get("y", 1.02) or 0) < 0.5:
        # above the plot, under the title (two rows of entries fit between them), and above the
        # top subplot's title where there is one (an annotation on the plot area's top edge)
        lift = _SUBPLOT_TITLE_PX if any(_on_top_edge(a) for a in layout.get("annotations", ())) else 0
        has_title = isinstance(title, dict) and bool(title.get("text"))
        margin["t"] = max(margin.get("t", 50), 120 if has_title else 70) + lift
        plot_h = max(height - margin["t"] - bottom, 1)
        legend.update(y=1.02 + lift / plot_h, yanchor="bottom", x=0, xanchor="left")
        if isinstance(title, dict):
            title.update(y=0.99, yref="container", yanchor="top")
    if caption:
        # the caption starts at the plot area's left edge: where long category labels push it
        left = max(left, _category_margin(spec["data"], layout))
        lines = _wrap_caption(caption, width - left - right)
        extra = _CAPTION_LINE_PX * len(lines) + 20
        margin.update(l=left, r=right, b=bottom + extra)
        layout["height"] = height + extra
        layout.setdefault("annotations", []).append({
            "text": "<br>".join(html.escape(line) for line in lines), "xref": "paper", "yref": "paper",
            "x": 0, "y": 0, "yshift": -(bottom - 4), "xanchor": "left", "yanchor": "top", "align": "left",
            "showarrow": False, "font": {"size": CAPTION_FONT_PX, "color": "#333"},
        })  # fmt: skip
    return spec


def _title_of(spec: Mapping) -> str:
    title = spec.get("layout", {}).get("title")
    text = title.get("text", "") if isinstance(title, Mapping) else str(title or "")
    return text or "vtsmodel figure"


def _pdf_with_title(data: bytes, title: str, subject: str) -> bytes:
    """The PDF with its document title set (kaleido leaves its own page's name there)."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(data))
    writer = PdfWriter(clone_from=reader)
    writer.add_metadata(
        {"/Title": title, "/Subject": subject, "/Creator": "vtsmodel", "/Producer": "vtsmodel"}
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _path(path) -> Path:
    if not isinstance(path, str | os.PathLike) or not os.fspath(path):
        raise ValueError(f"path={_short(path)} is not valid; give a file name such as 'figure.png'")
    return Path(path)


def _size(size):
    if isinstance(size, str):
        if size not in PAGE_SIZES:
            raise ValueError(f"size={size!r} is not valid; choose one of {', '.join(PAGE_SIZES)} or (w, h)")
        return PAGE_SIZES[size]
    return size


def _opts(fmt: str, scale: float) -> dict:
    return {"format": fmt, "scale": scale if fmt == "png" else 1}


def figure_bytes(
    fig,
    fmt: str,
    *,
    caption: str = "",
    size: str | tuple[int, int] | None = "page",
    style: str | None = "light",
    scale: float = 2.0,
) -> bytes:
    """Render ``fig`` with its caption to PNG, SVG, PDF or standalone HTML bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"fmt={fmt!r} is not valid; choose one of {', '.join(FORMATS)}")
    if fmt == "html":
        # The caption goes under the plot as text (selectable, wrapping with the window), once.
        spec = export_spec(fig, "", size=_size(size), style=style)
        return _html_page(spec, caption).encode("utf-8")
    spec = export_spec(fig, caption, size=_size(size), style=style)
    data = _render([(spec, fmt)], scale)[0]
    if isinstance(data, Exception):
        raise data
    if fmt == "pdf":
        data = _pdf_with_title(data, _title_of(spec), caption.splitlines()[0] if caption else "")
    return data


def _html_page(spec: Mapping, caption: str) -> str:
    """A standalone, offline HTML page of the figure (plotly.js inline) with its caption under it."""
    import plotly.io as pio

    text = pio.to_html(
        spec, include_plotlyjs=True, full_html=True, config={"displaylogo": False}, validate=False
    )
    title = html.escape(_title_of(spec))
    text = text.replace("<head>", f"<head><title>{title}</title>", 1)
    if caption:
        block = ("<pre class='vtsmodel-caption' style='font:13px Arial, sans-serif;white-space:pre-wrap;"
                 "max-width:960px;color:#333'>" + html.escape(caption) + "</pre>")  # fmt: skip
        text = text.replace("</body>", block + "\n</body>", 1)
    return text


def export_figure(
    fig,
    path: str | os.PathLike,
    *,
    fmt: str | None = None,
    caption: str = "",
    size: str | tuple[int, int] | None = "page",
    style: str | None = "light",
    overwrite: bool = False,
) -> Path:
    """Export one figure; the format comes from ``fmt`` or the file's suffix.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or FigureWidget
    path : path-like
        The target file.
    fmt : {"png", "svg", "pdf", "html"}, optional
    caption : str
        Text placed under the figure: the settings and the data's citations
        (see :func:`vtsmodel.app.figures.caption_text`).
    size : {"slide", "page", "screen"} or (width, height), optional
    style : {"light", "print"}, optional
    overwrite : bool
        Replace an existing file.
    """
    path = _path(path)
    fmt = fmt or path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise ValueError(f"fmt={fmt!r} is not valid; choose one of {', '.join(FORMATS)}")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
    data = figure_bytes(fig, fmt, caption=caption, size=size, style=style)
    return atomic_write(path, data, overwrite=overwrite, parents=True)


def render_static(jobs: Sequence[tuple[dict, str]], *, scale: float = 2.0):
    """Render ``(export_spec, fmt)`` jobs to image bytes, a few at a time in the shared browser.

    Yields ``(index, bytes)`` in order, or ``(index, exception)`` for a job that failed;
    the others go on. A browser that is missing, broken or stuck raises
    :class:`~vtsmodel.app._browser.BrowserError` (within bounded time) instead.
    """
    chunk = 2 * EXPORT_TABS
    for start in range(0, len(jobs), chunk):
        batch = list(jobs[start : start + chunk])
        yield from enumerate(_render(batch, scale), start=start)


def export_many(
    items: Iterable[tuple[object, str | os.PathLike, str]],
    *,
    size: str | tuple[int, int] | None = "page",
    style: str | None = "light",
    overwrite: bool = False,
    progress=None,
) -> list[tuple[Path, Path | Exception]]:
    """Export many ``(figure, path, caption)`` items; one item's failure does not stop the rest.

    Static images are drawn :data:`EXPORT_TABS` at a time in the one shared browser; each
    file is written atomically. A target that exists is kept (its result is a
    ``FileExistsError``) unless ``overwrite``. ``progress(done, total, path)`` is called
    after each item. Returns ``(path, result)`` per item, in order: the written path or
    the exception.
    """
    items = [(fig, Path(path), caption) for fig, path, caption in items]
    size = _size(size)
    results: list[Path | Exception | None] = [None] * len(items)
    static: list[tuple[int, dict, str]] = []
    done = 0

    def finish(i: int, result) -> None:
        nonlocal done
        results[i] = result
        done += 1
        if progress is not None:
            progress(done, len(items), items[i][1])

    for i, (fig, path, caption) in enumerate(items):
        fmt = path.suffix.lstrip(".").lower()
        try:
            if fmt not in FORMATS:
                raise ValueError(f"fmt={fmt!r} is not valid; choose one of {', '.join(FORMATS)}")
            if path.exists() and not overwrite:
                raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
            if fmt == "html":
                data = figure_bytes(fig, fmt, caption=caption, size=size, style=style)
                finish(i, atomic_write(path, data, overwrite=overwrite, parents=True))
            else:
                static.append((i, export_spec(fig, caption, size=size, style=style), fmt))
        except Exception as exc:  # noqa: BLE001 - returned for this item; the others go on
            finish(i, exc)
    if static:
        rendered = render_static([(spec, fmt) for _i, spec, fmt in static])
        for (i, spec, fmt), (_j, data) in zip(static, rendered, strict=True):
            try:
                if isinstance(data, Exception):
                    raise data
                if fmt == "pdf":
                    caption = items[i][2]
                    data = _pdf_with_title(data, _title_of(spec), caption.splitlines()[0] if caption else "")
                finish(i, atomic_write(items[i][1], data, overwrite=overwrite, parents=True))
            except Exception as exc:  # noqa: BLE001 - returned for this item; the others go on
                finish(i, exc)
    return [(path, res) for (_fig, path, _caption), res in zip(items, results, strict=True)]


def export_figures(
    items: Iterable[tuple[object, str | os.PathLike, str]],
    *,
    size: str | tuple[int, int] | None = "page",
    style: str | None = "light",
    overwrite: bool = False,
) -> list[Path]:
    """Export many ``(figure, path, caption)`` items with one shared browser; return the paths.

    Raises the first item's error (after the others were written), e.g. ``FileExistsError``.
    """
    out = export_many(items, size=size, style=style, overwrite=overwrite)
    for _path, res in out:
        if isinstance(res, Exception):
            raise res
    return [res for _path, res in out]


def csv_text(
    rows: Sequence[Mapping[str, object]], *, columns: Sequence[str] | None = None, caption: str = ""
) -> str:
    """Rows (mappings) as CSV text, with the caption as ``#`` comment lines at the end.

    Cells are quoted per RFC 4180 and a text cell a spreadsheet would run as a formula gets
    a leading ``'`` (numbers unchanged): :func:`vtsmodel.files.csv_row`.
    """
    from vtsmodel.files import csv_row

    if not rows and not columns:
        raise ValueError("rows is empty and no columns were given: nothing to write")
    cols = list(columns or rows[0].keys())
    buf = io.StringIO()
    buf.write(csv_row(cols))
    for row in rows:
        buf.write(csv_row(row.get(c) for c in cols))
    if caption:
        for line in caption.splitlines():
            buf.write(f"# {line}\n")
    return buf.getvalue()


def export_csv(
    rows: Sequence[Mapping[str, object]],
    path: str | os.PathLike,
    *,
    columns: Sequence[str] | None = None,
    caption: str = "",
    overwrite: bool = False,
) -> Path:
    """Write rows (mappings) as CSV (:func:`csv_text`), atomically."""
    return atomic_write(
        path, csv_text(rows, columns=columns, caption=caption), overwrite=overwrite, parents=True
    )
