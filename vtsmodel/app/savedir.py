"""The one server-side folder the app may save into, and file names checked inside it.

The page never gives the server a path. Where the app keeps files on the server at all,
it keeps them in one folder that the person starting it chose (``python -m
vtsmodel.app.serve --save-dir DIR``; default: none), and the page gives only a file name,
which :func:`resolve` checks: no folder separators, no ``..``, no hidden or reserved names,
and no symbolic link or special file (a FIFO, a device, a folder) at that name.
The launcher hands the folder to the kernels in the environment variable
``VTSMODEL_SAVE_DIR``.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

__all__ = ["ENV_VAR", "MAX_NAME", "check_name", "read_bytes", "resolve", "save_dir"]

#: The environment variable that carries the save folder from the launcher to the kernels.
ENV_VAR = "VTSMODEL_SAVE_DIR"
#: Longest file name accepted [characters].
MAX_NAME = 100
#: Letters, digits, space and ``_ . ( ) + -``; first a letter or digit.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.()+\-]*")
#: Names Windows reserves whatever the extension.
_RESERVED = {
    "CON",
    "PRN",
    "AUX",
    "NUL",
    *(f"COM{i}" for i in range(1, 10)),
    *(f"LPT{i}" for i in range(1, 10)),
}


def save_dir() -> Path | None:
    """The save folder the app was started with (``$VTSMODEL_SAVE_DIR``), or None."""
    value = os.environ.get(ENV_VAR, "")
    return Path(value) if value else None


def check_name(name: object, *, suffix: str | None = None) -> str:
    """Return ``name`` as a plain file name (``suffix`` added if missing), or raise ``ValueError``.

    Pure: looks at the text only. A valid name is 1 to :data:`MAX_NAME` characters of
    letters, digits, space and ``_ . ( ) + -``, starts with a letter or digit, does not end
    with a dot or a space, and is not a name Windows reserves (``CON``, ``NUL``, ``COM1``
    ...). So it holds no folder separator, no ``..`` and no hidden name.

    Parameters
    ----------
    name : str
        The file name the person typed.
    suffix : str, optional
        The extension the file must have, e.g. ``".json"``; appended when missing
        (compared without regard to case).
    """
    if not isinstance(name, str):
        raise ValueError(f"name={name!r} must be a file name (text), not {type(name).__name__}")
    if suffix and not name.lower().endswith(suffix.lower()):
        name = name + suffix
    if not 0 < len(name) <= MAX_NAME:
        raise ValueError(f"name={name!r} must be 1 to {MAX_NAME} characters long")
    if not _NAME.fullmatch(name) or name.endswith((".", " ")):
        raise ValueError(
            f"name={name!r} is not a plain file name: use letters, digits, space and _ . ( ) + -, "
            "starting with a letter or digit (no folders, no '..')"
        )
    if name.split(".", 1)[0].strip().upper() in _RESERVED:
        raise ValueError(f"name={name!r} is a reserved device name; choose another")
    return name


def resolve(name: object, *, folder: str | os.PathLike | None = None, suffix: str | None = None) -> Path:
    """The path of file ``name`` inside the save folder, checked; raise ``ValueError`` if unsafe.

    Parameters
    ----------
    name : str
        The file name the person typed (see :func:`check_name`).
    folder : path-like, optional
        The save folder; default :func:`save_dir`. With none, saving on the server is off.
    suffix : str, optional
        The extension the file must have (see :func:`check_name`).

    Returns
    -------
    Path
        ``folder / name`` with ``folder`` resolved. The file may not exist yet; if it
        exists it is a regular file with one link (not a symbolic link, FIFO, device,
        folder or hard link), so writing it with :func:`vtsmodel.files.atomic_write`
        (a new file renamed over it) stays inside the folder.
    """
    name = check_name(name, suffix=suffix)
    root = Path(folder) if folder is not None else save_dir()
    if root is None:
        raise ValueError(
            f"no save folder: files are not kept on the server (start the app with --save-dir DIR "
            f"to keep them in DIR); name={name!r}"
        )
    try:
        root = root.resolve(strict=True)
    except OSError as exc:
        raise ValueError(f"folder={str(root)!r} is not usable as the save folder: {exc.strerror}") from None
    if not root.is_dir():
        raise ValueError(f"folder={str(root)!r} is not a folder")
    path = root / name
    if path.parent != root:  # cannot happen for a checked name; kept as the invariant
        raise ValueError(f"name={name!r} leaves the save folder")
    try:
        st = path.lstat()
    except FileNotFoundError:
        return path
    if stat.S_ISLNK(st.st_mode):
        raise ValueError(f"name={name!r} is a symbolic link in the save folder; it is not followed")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"name={name!r} is not a regular file in the save folder")
    if st.st_nlink > 1:
        raise ValueError(f"name={name!r} has other hard links; it is not used")
    return path


def read_bytes(
    name: object,
    *,
    folder: str | os.PathLike | None = None,
    suffix: str | None = None,
    limit: int = 10_000_000,
) -> bytes:
    """Read file ``name`` of the save folder: never through a link, never blocking on a FIFO.

    Parameters
    ----------
    name, folder, suffix
        As for :func:`resolve`.
    limit : int
        Largest file read [bytes]; a larger file raises ``ValueError``.

    Raises
    ------
    ValueError
        For an unsafe name or file (see :func:`resolve`) or a file over ``limit``.
    FileNotFoundError
        When the folder holds no file of that name.
    """
    path = resolve(name, folder=folder, suffix=suffix)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileNotFoundError(f"the save folder holds no file named {path.name!r}") from None
    except OSError as exc:  # a link swapped in after resolve (ELOOP), or no permission
        raise ValueError(f"name={path.name!r} cannot be read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"name={path.name!r} is not a regular file in the save folder")
        if st.st_size > limit:
            raise ValueError(f"name={path.name!r} is {st.st_size} bytes; the limit is {limit} bytes")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"name={path.name!r} is over {limit} bytes; the limit is {limit} bytes")
    return data
