"""What the browser sends when a person picks a file in a page's file picker."""

from __future__ import annotations


def browser_upload(picker, name: str, data: bytes) -> None:
    """The message the picker's script sends for the file ``name`` (one within its limit).

    The script sends ``{"kind": "upload", "name": ..., "size": ...}`` with the file's bytes as
    its one buffer (:class:`vtsmodel.app.downloads.FilePicker`); the kernel gets it as ipywidgets
    hands on any custom message.
    """
    picker._handle_custom_msg({"kind": "upload", "name": name, "size": len(data)}, [memoryview(data)])
