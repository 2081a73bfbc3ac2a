"""Files that reach the person: browser downloads, and uploads the person picks.

A page never writes a file on the server for its user, nor reads one by a path typed into
the page: an export or a saved sheet is sent to the browser, which saves it where the
person says (its usual download flow), and a file to load is one the person picks in the
browser's file dialog (:func:`upload_control`), read in memory with a size limit.

:class:`Downloader` is a small widget with no visible area: :meth:`Downloader.send_file`
sends the bytes in one message, and its script in the page saves them through a link
with the ``download`` attribute, in JupyterLab and in Voila alike.
"""

from __future__ import annotations

import re

import anywidget
import ipywidgets as w
import traitlets

__all__ = ["MIME_TYPES", "Downloader", "safe_name", "upload_control", "uploaded_file"]

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
