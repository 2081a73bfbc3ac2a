"""Files the package writes: atomically, never over an existing file unless asked.

Used by the scenario sheets, plan files and exports (:mod:`vtsmodel.app.export`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


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
