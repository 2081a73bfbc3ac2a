"""Browser caching of the app's versioned static files: fetched once, kept until their version changes.

A page of the app loads the installed JupyterLab extensions' bundles (plotly.js, the widget
manager, anywidget: about 150 files, 12 MB when every extension loaded). Jupyter server serves them ``no-cache``: every
visit asks again for each (a round trip each, 150 on a warm visit). A bundle whose URL
names its version (a content hash in the file name, ``568.ca3cef0d68ed10611ed4.js``, or a
``?v=`` argument, as the page asks for the extensions' chunks) cannot change under that
URL: it is served ``immutable`` for a year, and a second visit loads it from the browser's
cache without asking. Files without a version in their URL keep the server's revalidation.
"""

from __future__ import annotations

import re

from jupyter_server.base.handlers import FileFindHandler

__all__ = ["IMMUTABLE", "Immutable", "VersionedFileHandler", "is_versioned"]

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


class VersionedFileHandler(FileFindHandler):
    """Jupyter server's handler of the extensions' files, with versioned files cached as :data:`IMMUTABLE`."""

    def set_headers(self) -> None:
        """The server's headers; a versioned file's ``Cache-Control`` is :data:`IMMUTABLE`."""
        super().set_headers()
        if is_versioned(self.request.path, self.request.arguments):
            self.set_header("Cache-Control", IMMUTABLE)
