"""Browser caching of the app's versioned static files: fetched once, kept until their version changes.

A page of the app loads the installed JupyterLab extensions' bundles (plotly.js, the widget
manager, anywidget: about 150 files, 12 MB when every extension loaded). Jupyter server serves them ``no-cache``: every
visit asks again for each (a round trip each, 150 on a warm visit). A bundle whose URL
names its version (a content hash in the file name, ``568.ca3cef0d68ed10611ed4.js``, or a
``?v=`` argument, as the page asks for the extensions' chunks) cannot change under that
URL: it is served ``immutable`` for a year, and a second visit loads it from the browser's
cache without asking. Files without a version in their URL keep the server's revalidation.

plotly.js is served with V8's compile hint at its top (:data:`COMPILE_HINT`, :class:`CompileHint`).
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from jupyter_server.base.handlers import FileFindHandler

__all__ = [
    "COMPILE_HINT",
    "IMMUTABLE",
    "CompileHint",
    "Immutable",
    "VersionedFileHandler",
    "hinted",
    "is_versioned",
]

#: The cache header of a versioned file: a year, never revalidated.
IMMUTABLE = "public, max-age=31536000, immutable"
#: A content hash in a file name, as webpack writes it (``remoteEntry.e01ddc1715812041a9e5.js``).
_HASHED = re.compile(r"[/.\-][0-9a-f]{8,}\.[a-z0-9]+$")


def is_versioned(path: str, arguments: dict) -> bool:
    """Whether a static file's URL names its version: ``?v=`` given, or a content hash in its name."""
    return any(arguments.get("v", ())) or bool(_HASHED.search(path))


class Immutable:
    """A tornado static file handler's mixin: every file it serves is :data:`IMMUTABLE` (its URL names its version)."""

    def set_extra_headers(self, path: str) -> None:
        """The ``Cache-Control`` of every file: :data:`IMMUTABLE`."""
        self.set_header("Cache-Control", IMMUTABLE)


#: V8's explicit compile hint (Chromium 136 and later): a script that starts with it has all its
#: functions compiled as it streams in, on a background thread; without it, V8 compiles each
#: function on the page's main thread when it is first called. plotly.js runs most of its
#: functions as the page loads and draws its first figures: with the hint its own main-thread
#: time on a page's load fell from 1.0-1.4 s to 0.6-0.95 s (lessons 01, 04, 07; BENCHMARKS.md).
COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"


@functools.lru_cache(maxsize=2)
def _hinted(path: str, mtime_ns: int, size: int) -> bytes:
    return COMPILE_HINT + Path(path).read_bytes()


def hinted(path: str) -> bytes:
    """The script at ``path`` with :data:`COMPILE_HINT` before it (read once per version of the file)."""
    st = os.stat(path)
    return _hinted(path, st.st_mtime_ns, st.st_size)


class CompileHint:
    """A tornado static file handler's mixin: each script it serves starts with :data:`COMPILE_HINT`.

    The content, its size (``Content-Length``, ranges) and its version (``Etag``) are those of
    the hinted script (:func:`hinted`).
    """

    @classmethod
    def get_content(cls, abspath: str, start: int | None = None, end: int | None = None) -> bytes:
        """The hinted script's bytes from ``start`` to ``end`` (exclusive), as tornado asks for them."""
        return hinted(abspath)[start:end]

    def get_content_size(self) -> int:
        """The hinted script's size [bytes]."""
        return len(hinted(self.absolute_path))


class VersionedFileHandler(FileFindHandler):
    """Jupyter server's handler of the extensions' files, with versioned files cached as :data:`IMMUTABLE`."""

    def set_headers(self) -> None:
        """The server's headers; a versioned file's ``Cache-Control`` is :data:`IMMUTABLE`."""
        super().set_headers()
        if is_versioned(self.request.path, self.request.arguments):
            self.set_header("Cache-Control", IMMUTABLE)
