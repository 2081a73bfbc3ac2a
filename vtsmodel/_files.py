"""Files the package writes: atomically, never over an existing file unless asked.

Used by the scenario sheets, plan files and exports (:mod:`vtsmodel.app.export`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write", "example_file"]


def atomic_write(path: str | os.PathLike, data: bytes | str, *, overwrite: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically; refuse to replace a file unless asked.

    Raises
    ------
    FileExistsError
        When ``path`` exists and ``overwrite`` is false.
    """
    path = Path(path)
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if not overwrite:
            # os.link fails if the target appeared meanwhile: no silent replacement.
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise FileExistsError(f"{path} exists; pass overwrite=True to replace it") from None
            except OSError:
                if path.exists():
                    raise FileExistsError(f"{path} exists; pass overwrite=True to replace it") from None
                os.replace(tmp, path)
        else:
            os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def example_file(name: str) -> Path:
    """An illustrative example file (``examples/`` in a checkout, ``vtsmodel/_examples`` in a wheel).

    Raises ``FileNotFoundError`` naming both places when it is in neither.
    """
    here = Path(__file__).resolve().parent
    places = (here / "_examples" / name, here.parent / "examples" / name)
    for place in places:
        if place.is_file():
            return place
    raise FileNotFoundError(
        f"no example {name!r} in {places[0].parent} or {places[1].parent}; reinstall vtsmodel"
    )
