"""Files that reach the person: browser downloads, and uploads the person picks.

A page never writes a file on the server for its user, nor reads one by a path typed into
the page: an export or a saved sheet is sent to the browser, which saves it where the
person says (its usual download flow), and a file to load is one the person picks in the
browser's file dialog (:class:`FilePicker`), read in memory with a size limit.

:class:`Downloader` is a small widget with no visible area: :meth:`Downloader.send_file`
sends the bytes in one message, and its script in the page saves them through a link
with the ``download`` attribute, in JupyterLab and in Voila alike. :class:`FilePicker` is the
reverse: a file input in the page whose script checks the picked file's size against the
kernel's limit and sends it in one message, or says in the page why not. :class:`FileBar` is
the row of file buttons a page shows (Save, Load…, Export CSV, reports) with one status line
that names each file sent or read, or says why not.
"""

from __future__ import annotations

import html
import re
import traceback
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

import anywidget
import ipywidgets as w
import traitlets

__all__ = [
    "MAX_UPLOAD_BYTES",
    "MIME_TYPES",
    "Downloader",
    "FileBar",
    "FilePicker",
    "refusal",
    "safe_name",
    "size_text",
]

#: Media types of the files the app offers.
MIME_TYPES = {
    "png": "image/png",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "html": "text/html",
    "csv": "text/csv",
    "json": "application/json",
}

_ESM = """
export default {
  render({ model, el }) {
    el.style.display = "none";
    const onMessage = (msg, buffers) => {
      if (!msg || msg.kind !== "download" || !buffers || !buffers.length) return;
      const blob = new Blob([buffers[0]], { type: msg.mime || "application/octet-stream" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = msg.name;
      a.rel = "noopener";
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      model.set("delivered", (model.get("delivered") || 0) + 1);
      model.save_changes();
    };
    model.on("msg:custom", onMessage);
    return () => model.off("msg:custom", onMessage);
  },
};
"""


class Downloader(anywidget.AnyWidget):
    """An invisible widget that makes the browser download the files it is sent.

    Display it once on the page (a panel and a sheet each carry one); it must be on
    screen for its script to receive the files.
    """

    _esm = _ESM
    #: Files the page has handed to the browser so far (counted by the page's script).
    delivered = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(layout=w.Layout(width="0px", height="0px", overflow="hidden"), **kwargs)
        self.add_class("vtsmodel-downloader")

    def send_file(self, name: str, data: bytes | str, fmt: str) -> str:
        """Send ``data`` to the browser as the file ``name``; return the name used."""
        clean = safe_name(name)
        payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        self.send({"kind": "download", "name": clean, "mime": MIME_TYPES.get(fmt, "application/octet-stream")},
                  [payload])  # fmt: skip
        return clean


_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


def safe_name(name: str) -> str:
    """A file name a browser saves as is: letters, digits, ``. _ -`` and spaces; no folders."""
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    clean = _UNSAFE.sub("_", base).strip(" .") or "vtsmodel"
    return clean[:120]


#: Largest file a page reads. A picked file travels to the kernel as one binary buffer in one
#: message of the page's websocket, and the Jupyter server (tornado's ``websocket_max_message_size``,
#: left at its default) drops the connection on a message over 10 MiB = 10,485,760 bytes: the
#: page reconnects and the file is lost without a word. The message's envelope (the Jupyter
#: header, parent header, metadata and content as JSON, the frame's offsets) is about 1 KB plus
#: the file's name. 8 MB (8 × 10^6 bytes) leaves 2.49 MB for it: a margin that does not hang on
#: the envelope's exact size (a long name, a newer protocol), and a round figure to tell a person. [bytes]
MAX_UPLOAD_BYTES = 8_000_000

_UNITS = ((1e9, "GB"), (1e6, "MB"), (1e3, "kB"))


def size_text(n: int) -> str:
    """A file size as a person reads it: three significant digits in kB, MB or GB (10^3, 10^6, 10^9 bytes).

    The same text as the picker's script writes (``Number(x.toPrecision(3))``: halves round up).
    """
    for unit, name in _UNITS:
        if n >= unit:
            x = Decimal(n / unit)  # the double's exact value, as toPrecision rounds it
            x = x.quantize(Decimal(1).scaleb(x.adjusted() - 2), rounding=ROUND_HALF_UP)
            return f"{float(x):g} {name}"
    return f"{n:,} bytes"


def refusal(name: str, size: int, max_bytes: int, larger: str = "") -> str:
    """Why a file of ``size`` bytes is not read: ``"a.csv is 14.2 MB; this page reads files up to 8 MB"``.

    ``larger`` says what to do instead (appended after a colon). Where both sizes read the same
    at three digits, both are given in bytes. Plain text; the picker's script writes the same.
    """
    got, top = size_text(size), size_text(max_bytes)
    if got == top:
        got, top = f"{size:,} bytes", f"{max_bytes:,} bytes"
    return f"{name} is {got}; this page reads files up to {top}" + (f": {larger}" if larger else "")


_PICKER_ESM = """
const UNITS = [[1e9, "GB"], [1e6, "MB"], [1e3, "kB"]];
const sizeText = (n) => {
  for (const [unit, name] of UNITS) if (n >= unit) return `${Number((n / unit).toPrecision(3))} ${name}`;
  return `${n.toLocaleString("en-US")} bytes`;
};
export default {
  render({ model, el }) {
    el.classList.add("vtsmodel-upload");
    Object.assign(el.style, { display: "inline-flex", alignItems: "center", gap: "6px", flexWrap: "wrap" });
    const input = document.createElement("input");
    input.type = "file";
    input.className = "vtsmodel-upload-input";
    input.style.display = "none";  // the button opens its dialog
    const button = document.createElement("button");
    button.type = "button";
    button.className = "jupyter-button widget-button widget-upload";
    button.addEventListener("click", () => input.click());
    const note = document.createElement("span");
    note.className = "vtsmodel-upload-note";
    const say = (kind, name, text) => {
      note.className = kind ? `vtsmodel-upload-note vtsmodel-upload-${kind}` : "vtsmodel-upload-note";
      note.style.color = kind === "refused" ? "#B00020" : "#555";
      note.replaceChildren();
      if (!kind) return;
      const b = document.createElement("b");
      b.textContent = name;
      note.append(kind === "refused" ? "\\u26a0 " : "", b, text);
    };
    const sync = () => {
      input.accept = model.get("accept");
      button.textContent = model.get("description");
      button.title = model.get("tooltip");
      button.disabled = input.disabled = model.get("disabled");
    };
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      const limit = model.get("max_bytes");
      try {
        if (file.size > limit) {
          // never sent: a message over the server's limit would drop the page's connection
          let got = sizeText(file.size), top = sizeText(limit);
          if (got === top) [got, top] = [`${file.size.toLocaleString("en-US")} bytes`, `${limit.toLocaleString("en-US")} bytes`];
          const larger = model.get("larger");
          say("refused", file.name, ` is ${got}; this page reads files up to ${top}` + (larger ? `: ${larger}` : ""));
          return;
        }
        say("sending", file.name, ` (${sizeText(file.size)}): sending…`);
        const buffer = await file.arrayBuffer();
        model.send({ kind: "upload", name: file.name, size: file.size }, undefined, [buffer]);
      } catch (err) {
        say("refused", file.name, ` could not be read: ${err}`);
      } finally {
        input.value = "";  // the same file can be picked again
      }
    });
    const received = () => say("", "", "");
    sync();
    el.replaceChildren(button, input, note);
    for (const key of ["accept", "description", "tooltip", "disabled"]) model.on(`change:${key}`, sync);
    model.on("change:received", received);
    return () => {
      for (const key of ["accept", "description", "tooltip", "disabled"]) model.off(`change:${key}`, sync);
      model.off("change:received", received);
    };
  },
};
"""


class FilePicker(anywidget.AnyWidget):
    """A button that opens the browser's file dialog; the file picked reaches the kernel in one message.

    The page holds a real ``<input type=file accept=...>`` (hidden; the button opens it). Its
    script checks the file's size against :attr:`max_bytes` in the browser: a larger file is
    never sent (a message over the server's limit would drop the page's connection, see
    :data:`MAX_UPLOAD_BYTES`), and the picker says so beside its button (:func:`refusal`'s
    text, with :attr:`larger`); a file within it is sent as one binary buffer, and each
    function given to :meth:`on_pick` gets ``(name, data)``. :class:`FileBar` checks the size
    again in the kernel.

    Parameters
    ----------
    accept : str
        The file types the dialog offers (``".csv"``, ``".json,.txt"``).
    description, tooltip : str
        The button's text and its tooltip.
    max_bytes : int
        Largest file sent, at most :data:`MAX_UPLOAD_BYTES`. [bytes]
    larger : str
        What to do with a larger file, said after the refusal (``"use the command line …"``).
    """

    _esm = _PICKER_ESM
    accept = traitlets.Unicode("").tag(sync=True)
    description = traitlets.Unicode("Load…").tag(sync=True)
    tooltip = traitlets.Unicode("").tag(sync=True)
    max_bytes = traitlets.Int(MAX_UPLOAD_BYTES).tag(sync=True)
    larger = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    #: Files the kernel has handled (the script clears its "sending…" note when it moves).
    received = traitlets.Int(0).tag(sync=True)

    def __init__(self, accept: str = "", *, description: str = "Load…", tooltip: str = "",
                 max_bytes: int = MAX_UPLOAD_BYTES, larger: str = "", **kwargs) -> None:  # fmt: skip
        if not 1 <= max_bytes <= MAX_UPLOAD_BYTES:
            raise ValueError(
                f"max_bytes={max_bytes} is outside the valid range [1, {MAX_UPLOAD_BYTES}] bytes "
                "(a larger message would drop the page's connection)"
            )
        super().__init__(accept=accept, description=description, tooltip=tooltip, max_bytes=int(max_bytes),
                         larger=larger, layout=w.Layout(width="auto"), **kwargs)  # fmt: skip
        self._picked: list[Callable[[str, bytes], object]] = []
        self.on_msg(self._message)

    def on_pick(self, fn: Callable[[str, bytes], object]) -> None:
        """Call ``fn(name, data)`` with each file the browser sends."""
        self._picked.append(fn)

    def _message(self, _widget, content, buffers) -> None:
        if not isinstance(content, dict) or content.get("kind") != "upload":
            return
        name = str(content.get("name") or "upload")
        data = bytes(buffers[0]) if buffers else b""
        try:
            for fn in self._picked:
                fn(name, data)
        finally:
            self.received += 1


class FileBar:
    """A row of file buttons and one status line that names every file sent or read.

    The page adds its buttons: :meth:`button` (Save, Export CSV, a report: a function that
    calls :meth:`deliver`), :meth:`upload` (Load…: a :class:`FilePicker`, the picked file read
    within a byte limit by the page's own reader, which checks it like any file of its kind)
    and :meth:`add` (labels). The status line says ``downloaded <b>name</b> (N bytes)``,
    ``loaded <b>name</b>`` or ``⚠ <b>name</b> not loaded: why``; a failed file changes nothing
    on the page. A file over the limit is refused in the browser, beside its button.

    Parameters
    ----------
    name : str
        The CSS classes' middle: ``vtsmodel-<name>-files`` (the row), ``vtsmodel-<name>-status``
        (the line), ``vtsmodel-<name>-done`` and ``vtsmodel-<name>-failed`` (its message).

    Attributes
    ----------
    controls : dict of str to widget
        The buttons and upload controls by their label.
    status : ipywidgets.HTML
    downloader : Downloader
    widget : ipywidgets.VBox
        The row, the status line and the (invisible) downloader.
    """

    def __init__(self, name: str = "files") -> None:
        self.name = name
        self.controls: dict[str, w.Widget] = {}
        self.downloader = Downloader()
        self.status = w.HTML()
        self.status.add_class(f"vtsmodel-{name}-status")
        self.row = w.HBox([], layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.row.add_class(f"vtsmodel-{name}-files")
        self.widget = w.VBox([self.row, self.status, self.downloader])

    def say(self, text: str, kind: str = "done") -> None:
        """Show ``text`` (HTML: escape what a person typed) as ``"done"`` or ``"failed"`` (red, with a sign)."""
        color, sign = ("#B00020", "⚠ ") if kind == "failed" else ("#222", "")
        self.status.value = (
            f"<span class='vtsmodel-{self.name}-{kind}' style='color:{color}'>{sign}{text}</span>"
        )

    def add(self, *widgets: w.Widget) -> None:
        """Append widgets (a label, a control of the page's own) to the row."""
        self.row.children = (*self.row.children, *widgets)

    def button(self, label: str, fn: Callable[[], object], tooltip: str = "") -> w.Button:
        """A button that calls ``fn()`` (which says what it did: :meth:`deliver`, :meth:`say`)."""
        b = w.Button(description=label, tooltip=tooltip, layout=w.Layout(width="auto"))
        b.on_click(lambda _b: fn())
        self.controls[label] = b
        self.add(b)
        return b

    def upload(self, label: str, read: Callable[[bytes, str], str | None], *, accept: str, max_bytes: int,
               tooltip: str = "", larger: str = "") -> FilePicker:  # fmt: skip
        """A Load… control: the picked file, at most ``max_bytes``, goes to ``read`` (:meth:`load`).

        A larger file is refused in the browser (said beside the button, with ``larger``: what
        to do instead) and again here should one arrive.
        """
        up = FilePicker(accept, description=label, tooltip=tooltip, max_bytes=max_bytes, larger=larger)

        def picked(name: str, data: bytes) -> None:
            if len(data) > max_bytes:
                why = refusal(name, len(data), max_bytes, larger).removeprefix(name)
                self.say(f"<b>{html.escape(name)}</b>{html.escape(why)}", "failed")
            else:
                self.load(name, data, read)

        up.on_pick(picked)
        self.controls[label] = up
        self.add(up)
        return up

    def load(self, name: str, data: bytes, read: Callable[[bytes, str], str | None]) -> bool:
        """``read(data, name)``, which checks the file and applies it, or raises ``ValueError`` having changed nothing.

        The status shows what ``read`` returns (HTML), else ``loaded <b>name</b>``; a
        rejection names the file and the reason. Returns whether the file was read.
        """
        try:
            done = read(data, name)
        except ValueError as exc:
            why = str(exc)
            for lead in (f"{name}, ", f"{name}: "):  # "a.csv, line 3: ..." names the file once
                why = why.removeprefix(lead)
            self.say(f"<b>{html.escape(name)}</b> not loaded: {html.escape(why)}", "failed")
            return False
        self.say(done or f"loaded <b>{html.escape(name)}</b>")
        return True

    def send(self, name: str, data: bytes | str) -> str:
        """Download ``data`` as the file ``name`` (its type from the extension); say so; return the name used."""
        payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        sent = self.downloader.send_file(name, payload, name.rsplit(".", 1)[-1].lower())
        self.say(
            f"downloaded <b>{html.escape(sent)}</b> ({len(payload):,} bytes): see your browser's downloads"
        )
        return sent

    def deliver(self, what: str, make: Callable[[], tuple[str, bytes | str]], *, preparing: str = "") -> str:
        """Download the file ``make()`` returns as ``(name, data)``; return its name, or "" with the failure said.

        Any error while the file is made is shown (``"<what> failed: ..."``, the traceback in an
        HTML comment): a person gets no file and is told why, never silence.
        """
        if preparing:
            self.say(html.escape(preparing))
        try:
            return self.send(*make())
        except Exception as exc:  # noqa: BLE001 - shown to the user, never swallowed silently
            self.say(f"{html.escape(what)} failed: {html.escape(str(exc) or type(exc).__name__)}"
                     f"<!-- {html.escape(traceback.format_exc())} -->", "failed")  # fmt: skip
            return ""

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
