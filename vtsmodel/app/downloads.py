"""Files that reach the person: browser downloads, and uploads the person picks.

A page never writes a file on the server for its user, nor reads one by a path typed into
the page: an export or a saved sheet is sent to the browser, which saves it where the
person says (its usual download flow), and a file to load is one the person picks in the
browser's file dialog (:func:`upload_control`), read in memory with a size limit.

:class:`Downloader` is a small widget with no visible area: :meth:`Downloader.send_file`
sends the bytes in one message, and its script in the page saves them through a link
with the ``download`` attribute, in JupyterLab and in Voila alike. :class:`FileBar` is the row of
file buttons a page shows (Save, Load…, Export CSV, reports) with one status line that names
each file sent or read, or says why not.
"""

from __future__ import annotations

import html
import re
import traceback
from collections.abc import Callable

import anywidget
import ipywidgets as w
import traitlets

__all__ = ["MIME_TYPES", "Downloader", "FileBar", "safe_name", "upload_control", "uploaded_file"]

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


def upload_control(accept: str, *, description: str = "Load…", tooltip: str = "") -> w.FileUpload:
    """A button that opens the browser's file dialog for one file of the ``accept`` types."""
    return w.FileUpload(accept=accept, multiple=False, description=description, tooltip=tooltip,
                        layout=w.Layout(width="auto"))  # fmt: skip


def uploaded_file(control: w.FileUpload, *, max_bytes: int) -> tuple[str, bytes] | None:
    """The name and bytes of the file picked in ``control``, or None; ``ValueError`` if too large."""
    files = control.value
    if not files:
        return None
    item = files[0]
    name = str(item.get("name", "upload"))
    size = int(item.get("size", 0) or 0)
    content = item.get("content", b"")
    if size > max_bytes or len(content) > max_bytes:
        raise ValueError(f"{name} is larger than {max_bytes:,} bytes; not a file this page reads")
    return name, bytes(content)


class FileBar:
    """A row of file buttons and one status line that names every file sent or read.

    The page adds its buttons: :meth:`button` (Save, Export CSV, a report: a function that
    calls :meth:`deliver`), :meth:`upload` (Load…: the picked file read within a byte limit
    by the page's own reader, which checks it like any file of its kind) and :meth:`add`
    (labels). The status line says ``downloaded <b>name</b> (N bytes)``, ``loaded <b>name</b>``
    or ``⚠ <b>name</b> not loaded: why``; a failed file changes nothing on the page.

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
               tooltip: str = "") -> w.FileUpload:  # fmt: skip
        """A Load… control: the picked file, at most ``max_bytes``, goes to ``read`` (:meth:`load`)."""
        up = upload_control(accept, description=label, tooltip=tooltip)

        def picked(_change) -> None:
            if not up.value:
                return
            name = str(up.value[0].get("name", "upload"))
            try:
                got = uploaded_file(up, max_bytes=max_bytes)
            except ValueError as exc:
                self.say(f"<b>{html.escape(name)}</b> not loaded: {html.escape(str(exc))}", "failed")
            else:
                self.load(*got, read)
            finally:
                up.value = ()  # the same file can be picked again

        up.observe(picked, names="value")
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
            self.say(f"<b>{html.escape(name)}</b> not loaded: {html.escape(str(exc))}", "failed")
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
