"""Files the package writes (atomically, never over an existing file unless asked) and reads.

Used by the scenario sheets, plan files and exports (:mod:`vtsmodel.app.export`).

The rules :func:`atomic_write` keeps:

- **Atomic.** The bytes go to a temporary file beside the target (``.NAME.XXXXXXXX.tmp``),
  flushed to disk, then linked or renamed onto the target: a failure, even a kill, never
  leaves a half-written target or destroys the previous one.
- **Permissions as any other file.** A new file gets ``0o666`` less the umask, as
  ``open(path, "w")`` gives; a replaced file keeps its mode.
- **A read-only file is not replaced** unless ``force=True``: with ``overwrite=True``
  alone, a file whose mode gives no one write permission (``0o444``), or that this
  process may not write, is refused with ``PermissionError``. (Replacing it needs only
  write permission on the folder, so the file's own mode would be ignored silently.)
- **Hard links are split.** The new content is a new file put in the target's place:
  the target's other names (hard links made with ``ln``) keep the old content. This is
  what makes the save atomic, and what most editors do; to change every name at once,
  write through a symbolic link instead.
- **Symbolic links are written through**, as ``open(path, "w")`` does: with
  ``overwrite=True`` the file the link points at is replaced (atomically, in its own
  folder) and the link stays a link. Replacing the link by a plain file would silently
  cut whatever shares the target; refusing would break a folder linked on purpose.
- **Missing folders are refused** unless ``parents=True``: a typing error in a folder
  name then fails instead of writing the file somewhere unexpected. The exports pass
  ``parents=True`` and return the path written, which the panel and the CLI show.
- **Reading never blocks**: :func:`read_file` refuses anything but a regular file (a
  FIFO, a device, a socket, a folder) before it reads, and reads at most a given size.
- **Temporary files a killed save left** (``SIGKILL`` cannot be caught) are removed by
  the next save of any file in the same folder: only files of exactly the temporary
  name pattern (``.NAME.XXXXXXXX.tmp``), regular, owned by this user, at least
  :data:`STALE_AFTER_S` old, and not locked by a live writer (each writer holds an
  ``flock`` on its temporary file while it writes; the kernel drops it when the writer
  dies).
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

try:  # POSIX: a writer locks its temporary file; a dead writer's lock is gone
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = [
    "STALE_AFTER_S",
    "WIDE_BOMS",
    "atomic_write",
    "check_regular_file",
    "decode_utf8",
    "example_file",
    "not_utf8",
    "open_regular",
    "parse_json_bytes",
    "read_file",
]

#: A temporary file of the same target this old (and unlocked) is a killed save's. [s]
STALE_AFTER_S = 5.0


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # no getter elsewhere: read it by setting it, then restore
    os.umask(mask)
    return mask


#: The temporary files of :func:`atomic_write` (tempfile.mkstemp: prefix ``.NAME.``, 8
#: characters of ``[a-z0-9_]``, suffix ``.tmp``), whatever the target's name.
_STALE = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def _remove_stale(folder: Path) -> list[Path]:
    """Remove the temporary files killed saves left in ``folder``; return them."""
    pattern = _STALE
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_AFTER_S:
            continue  # not ours, or perhaps a writer that has just started
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # a live writer holds it
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def atomic_write(
    path: str | os.PathLike,
    data: bytes | str | Iterable[bytes | str],
    *,
    overwrite: bool = False,
    parents: bool = False,
    force: bool = False,
) -> Path:
    """Write ``data`` to ``path`` atomically; refuse to replace a file unless asked.

    See the module docstring for the rules (permissions, read-only files, hard and
    symbolic links, folders, temporary files left by a killed save).

    Parameters
    ----------
    path : path-like
        The target file; a symbolic link is written through.
    data : bytes, str, or an iterable of them
        The content (text is written as UTF-8); an iterable is written piece by piece, so a
        large file need not be held in memory (a failure while it is drawn leaves no file).
    overwrite : bool
        Replace an existing file.
    parents : bool
        Create missing folders; otherwise a missing folder is an error.
    force : bool
        With ``overwrite``, replace a read-only file too (it keeps its read-only mode).

    Returns
    -------
    pathlib.Path
        ``path`` as given.

    Raises
    ------
    FileExistsError
        When ``path`` exists and ``overwrite`` is false.
    FileNotFoundError
        When the folder does not exist and ``parents`` is false.
    PermissionError
        When ``path`` is read-only (or not writable by this process) and ``force`` is false.
    IsADirectoryError
        When ``path`` is a folder.
    """
    if not isinstance(path, str | os.PathLike) or not os.fspath(path):
        raise ValueError(f"path={path!r} is not a file name; give a path such as 'scenarios.json'")
    given = Path(path)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if target.is_dir():
        raise IsADirectoryError(f"{given} is a folder; give a file name")
    if not overwrite and (target.exists() or given.is_symlink()):
        raise FileExistsError(f"{given} exists; pass overwrite=True to replace it")
    if overwrite and not force and _read_only(target):
        raise PermissionError(
            f"{given} is read-only; make it writable to replace it (or pass force=True to replace it anyway)"
        )
    folder = target.parent
    if not folder.is_dir():
        if not parents:
            raise FileNotFoundError(
                f"folder {folder} does not exist; create it first (or pass parents=True) to write {given.name}"
            )
        folder.mkdir(parents=True, exist_ok=True)
    _remove_stale(folder)
    pieces = (data,) if isinstance(data, str | bytes | bytearray | memoryview) else data
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode) if overwrite else None
    except FileNotFoundError:
        mode = None
    if mode is None:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # released when closed, or when we die
            for piece in pieces:
                fh.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
            fh.flush()
            os.chmod(tmp, mode)
            os.fsync(fh.fileno())
        if not overwrite:
            # os.link fails if the target appeared meanwhile: no silent replacement.
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise FileExistsError(f"{given} exists; pass overwrite=True to replace it") from None
            except OSError:
                if target.exists():
                    raise FileExistsError(f"{given} exists; pass overwrite=True to replace it") from None
                os.replace(tmp, target)
        else:
            os.replace(tmp, target)
        _sync_folder(folder)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return given


def _read_only(path: Path) -> bool:
    """Whether existing ``path`` gives no one write permission, or this process none."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # missing: nothing to protect
    return not mode & 0o222 or not os.access(path, os.W_OK)


def _sync_folder(folder: Path) -> None:
    """Flush the folder entry of the rename to disk (POSIX; a no-op where unsupported)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_a_file(path, mode: int, what: str) -> ValueError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return ValueError(f"{path} is {kind}, not a {what}; give the path of a file")


def check_regular_file(path: str | os.PathLike, *, what: str = "file") -> os.stat_result:
    """``os.stat(path)`` of a regular file; ``ValueError`` for a missing path, a folder, a FIFO, a device.

    Call it before opening a file a person named: opening a FIFO waits for ever for a writer.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise _not_a_file(path, st.st_mode, what)
    return st


def open_regular(path: str | os.PathLike, *, what: str = "file") -> int:
    """A descriptor of regular file ``path`` opened for reading; ``ValueError`` for anything else.

    Opened non-blocking, then checked on the open file, so neither a FIFO nor one swapped
    in after a check can block; the descriptor is made blocking again before it is
    returned. The caller closes it.
    """
    flags = (
        os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_a_file(path, mode, what)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_file(path: str | os.PathLike, *, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file, at most ``max_bytes``; ``ValueError`` for anything else.

    The file type is checked before the file is opened, and again on the open file
    (:func:`open_regular`): a FIFO would wait for ever for a writer, a device could stream
    without end.

    Raises
    ------
    ValueError
        Missing, not a regular file, unreadable, or larger than ``max_bytes``; the
        message names the path and ``what`` it should have been.
    """
    check_regular_file(path, what=what)
    fd = open_regular(path, what=what)
    chunks, size = [], 0
    try:
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise ValueError(f"{path} is larger than {max_bytes} bytes; not a {what}")
    return b"".join(chunks)


#: Byte-order marks of the wide Unicode encodings and the codec each names, UTF-32's first (its
#: little-endian mark begins with UTF-16's): what Windows tools and a spreadsheet's "Unicode
#: text" export put before UTF-16.
WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_utf8(raw: bytes, where: str, *, what: str, line: int = 1, offset: int = 0) -> str:
    """The text of UTF-8 bytes a person gave; ``ValueError`` naming where they are not UTF-8.

    ``raw`` is a whole file, or its part that starts at ``line`` and byte ``offset`` (a
    line read on its own). A byte-order mark at the start of a file is dropped. The
    message names ``where``, the line, the byte and its offset in the file (counted from
    0), and says to save the ``what`` as UTF-8.
    """
    raw = bytes(raw)
    skip = len(codecs.BOM_UTF8) if offset == 0 and raw.startswith(codecs.BOM_UTF8) else 0
    try:
        return raw[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        wide = next((codec for bom, codec in WIDE_BOMS if offset == 0 and raw.startswith(bom)), None)
        if wide is not None:
            raise ValueError(
                f"{where}: is {wide[:6].upper()} text (it begins with {wide[:6].upper()}'s byte-order mark); "
                f"save the {what} as UTF-8"
            ) from None
        at = skip + exc.start
        n = line + raw.count(b"\n", 0, at)
        raise ValueError(
            f"{where}: line {n} is not UTF-8 text (byte 0x{raw[at]:02x} at byte offset {offset + at}); "
            f"save the {what} as UTF-8"
        ) from None


def not_utf8(handle, where: str, *, what: str, max_bytes: int) -> ValueError:
    """The ``ValueError`` for a text file object whose bytes are not UTF-8.

    A text file object's decoder knows neither the line nor the offset in the file: where
    the object has a file name, the file is read again as bytes (at most ``max_bytes``)
    to name them (:func:`decode_utf8`).
    """
    name = getattr(handle, "name", None)
    if isinstance(name, str | os.PathLike) and os.path.isfile(name):
        try:
            decode_utf8(read_file(name, max_bytes=max_bytes, what=what), where, what=what)
        except ValueError as exc:
            return exc
    return ValueError(f"{where} is not UTF-8 text; save the {what} as UTF-8")


def parse_json_bytes(raw: bytes, where: str, *, max_bytes: int, what: str):
    """Strict JSON from the bytes of a file a person gave: size-limited, UTF-8, no NaN or infinities.

    ``where`` names the file and ``what`` what it should be ("plan file") in the
    ``ValueError`` every fault raises: too large, not UTF-8, not JSON (truncated or
    corrupt), nested too deeply, ``NaN``/``Infinity``, an integer too long. Only
    :func:`json.loads` reads it: nothing in a file is run.
    """
    if len(raw) > max_bytes:
        raise ValueError(f"{where} is larger than {max_bytes} bytes; not a {what}")
    text = decode_utf8(raw, where, what=what)

    def reject(token: str):
        raise ValueError(f"{token} is not allowed in a {what} (values must be finite numbers)")

    try:
        return json.loads(text, parse_constant=reject)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{where} is not valid JSON (truncated or corrupt): {exc.msg} at line {exc.lineno}"
        ) from None
    except RecursionError:
        raise ValueError(f"{where} is nested too deeply; not a {what}") from None
    except ValueError as exc:  # NaN/Infinity, or an integer too long to convert
        raise ValueError(f"{where}: {exc}") from None


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
