"""Opening a log and reading it as text, a block of lines at a time (private).

A source is a path, the bytes of a file, CSV text (a str holding a newline) or an open
stream. Compressed input is recognised by its first bytes (gzip, bz2, xz, zstd) and
decompressed as it is read, never unpacked to disk; the text is decoded a block at a time,
so a byte that is not of the encoding is named by its line and its place in the line. Text
in UTF-16 or UTF-32 (what Windows tools and a spreadsheet's "Unicode text" export write) is
recognised by its byte-order mark, or read as such where ``encoding`` names it.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vtsmodel._files import WIDE_BOMS, open_regular

#: Compressions recognised by their first bytes (their "magic numbers").
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
#: Archives that hold files rather than one stream: named, not read.
_ARCHIVES = ((b"PK\x03\x04", "a zip archive"), (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"))
#: The wide encodings: their lines end in more than one byte, so they are decoded before they are split.
_WIDE = {"utf-16": 2, "utf-16-le": 2, "utf-16-be": 2, "utf-32": 4, "utf-32-le": 4, "utf-32-be": 4}
#: Bytes decompressed and decoded at a time. [bytes]
BLOCK_BYTES = 1 << 20
#: Longest line read: an id may be 4,096 characters (4 bytes each in UTF-8 at most) and a
#: line holds a few; a longer line is not a log line (a binary file, say). [bytes]
MAX_LINE_BYTES = 1 << 16


def label_of(source) -> str:
    """A short name of the source for messages and results."""
    if isinstance(source, str) and "\n" in source:
        return "mount log"
    if isinstance(source, bytes | bytearray | memoryview):
        return "mount log"
    if hasattr(source, "read"):
        return Path(str(getattr(source, "name", None) or "mount log")).name
    return Path(os.fspath(source)).name


class Source:
    """An opened log: ``blocks()`` yields ``(text, lines, first line number)``.

    ``text`` is the decoded block (whole lines, with their ends); ``lines`` the same split at
    line feeds (a carriage return before one kept). ``compression`` names the compression found (or None);
    ``unended`` is true once the last line is read without a line end.
    """

    unended = False

    def __init__(self, source, *, encoding: str = "utf-8"):
        if not isinstance(source, str | bytes | bytearray | memoryview | os.PathLike) and not hasattr(
            source, "read"
        ):
            raise ValueError(f"source={source!r} must be a path, an open file, bytes or CSV text"[:300])
        self.label = label_of(source)
        self.encoding = codecs.lookup(encoding).name
        self.compression = None
        self._close = []
        if isinstance(source, str) and "\n" in source:
            self._text = io.StringIO(source)
            self._binary = None
            return
        self._text = None
        if isinstance(source, bytes | bytearray | memoryview):
            raw = io.BytesIO(bytes(source))
        elif hasattr(source, "read"):
            if isinstance(source, io.TextIOBase) or "b" not in getattr(source, "mode", "b"):
                self._text, self._binary = source, None
                return
            raw = source
        else:
            path = Path(os.fspath(source))
            fd = open_regular(path, what="mount log")  # a FIFO would wait for a writer for ever
            try:
                raw = open(fd, "rb", closefd=True)  # noqa: SIM115 - closed in close()
            except BaseException:
                os.close(fd)
                raise
            self._close.append(raw)
        self._binary = self._decompressed(raw)

    def _decompressed(self, raw):
        if not hasattr(raw, "peek"):
            raw = io.BufferedReader(raw) if isinstance(raw, io.RawIOBase) else _Peekable(raw)
        head = raw.peek(8)[:8]
        for magic, what in _ARCHIVES:
            if head.startswith(magic):
                raise ValueError(f"{self.label}: is {what}, not a log; unpack the log from it first")
        for magic, name in MAGIC:
            if head.startswith(magic):
                self.compression = name
                break
        if self.compression is None:
            return raw
        if self.compression == "gzip":
            stream = gzip.GzipFile(fileobj=raw, mode="rb")
        elif self.compression == "bz2":
            stream = bz2.BZ2File(raw, mode="rb")
        elif self.compression == "xz":
            stream = lzma.LZMAFile(raw, mode="rb")
        else:
            try:
                import zstandard
            except ImportError:
                raise ValueError(
                    f"{self.label}: is zstd-compressed; reading it needs the zstandard package "
                    "(pip install zstandard), or decompress it first (zstd -d)"
                ) from None
            stream = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        self._close.insert(0, stream)
        return stream

    def close(self) -> None:
        """Close what the source opened (a stream it was given stays open)."""
        for f in self._close:
            f.close()
        self._close = []

    def _read(self, n: int) -> bytes:
        try:
            return self._binary.read(n)
        except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
            raise ValueError(f"{self.label}: is not a valid {self.compression} stream ({exc})") from None
        except Exception as exc:  # zstandard.ZstdError
            if type(exc).__name__ == "ZstdError":
                raise ValueError(f"{self.label}: is not a valid zstd stream ({exc})") from None
            raise

    def blocks(self) -> Iterator[tuple[str, list[str], int]]:
        """Blocks of whole lines, decoded."""
        if self._binary is None:
            stream = self._text
            read = getattr(stream, "read", None)
            yield from self._text_blocks(
                iter(lambda: read(BLOCK_BYTES), "") if read is not None else _grouped(stream)
            )
            return
        data = self._read(BLOCK_BYTES)
        codec, bom = self._wide(data)
        if codec is None:
            yield from self._binary_blocks(data)
        else:
            self.encoding = codec
            yield from self._text_blocks(self._wide_pieces(data, len(bom)))

    def _wide(self, data: bytes) -> tuple[str | None, bytes]:
        """The wide codec of text that starts with ``data`` (None: another) and its byte-order mark.

        A UTF-16 or UTF-32 mark names its encoding when UTF-8 (the default) or a wide one is asked
        for: such a mark is never UTF-8. Another encoding named (latin-1) is taken as it is. A wide
        encoding named without its byte order, and no mark, is read in the order its first
        character's zero bytes show (ASCII text: the zeros after the character, little-endian).
        """
        named = self.encoding
        if named != "utf-8" and named not in _WIDE:
            return None, b""
        for bom, codec in WIDE_BOMS:
            if data.startswith(bom) and (named == "utf-8" or named[:6] == codec[:6]):
                return codec, bom
        if named in ("utf-16", "utf-32"):
            width = _WIDE[named]
            big = len(data) >= width and data[0] == 0 and data[width - 1] != 0
            return f"{named}-{'be' if big else 'le'}", b""
        return (named, b"") if named in _WIDE else (None, b"")

    def _wide_pieces(self, data: bytes, skip: int) -> Iterator[str]:
        """Text of a wide encoding, a block at a time (the first, ``data``, read already; its first ``skip`` bytes a byte-order mark)."""
        decoder = codecs.getincrementaldecoder(self.encoding)()
        offset, lines, data = skip, 0, data[skip:]
        while True:
            final = not data
            try:
                text = decoder.decode(data, final=final)
            except UnicodeDecodeError as exc:
                pending = len(exc.object) - len(data)  # bytes of a character the last block began
                good = exc.object[: exc.start].decode(self.encoding, "replace")
                raise ValueError(
                    f"{self.label}, line {lines + good.count(chr(10)) + 1} (byte {offset - pending + exc.start + 1:,} "
                    f"of the {'decompressed text' if self.compression else 'file'}): is not {self.encoding} text "
                    f"({exc.reason}); if the log is in another encoding, name it (encoding='utf-8', --encoding utf-8)"
                ) from None
            if text:
                lines += text.count("\n")
                yield text
            if final:
                return
            offset += len(data)
            data = self._read(BLOCK_BYTES)

    def _text_blocks(self, pieces: Iterator[str]):
        first = 1
        carry = ""
        start = True
        try:
            for piece in pieces:
                if start:
                    piece = piece.removeprefix("\ufeff")
                    start = False
                buf = carry + piece if carry else piece
                cut = buf.rfind("\n")
                if cut < 0:
                    carry = buf
                    self._check_carry(len(carry), first)
                    continue
                text, carry = buf[: cut + 1], buf[cut + 1 :]
                lines = text.split("\n")
                lines.pop()
                lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
                long = np.flatnonzero(lengths > MAX_LINE_BYTES)
                if long.size:
                    self._too_long(first + int(long[0]))
                self._check_carry(len(carry), first + len(lines))
                yield text, lines, first
                first += len(lines)
        except UnicodeDecodeError as exc:
            raise ValueError(f"{self.label}: is not {self.encoding} text ({exc.reason})") from None
        if carry:
            self.unended = True
            yield carry, [carry], first

    def _binary_blocks(self, data: bytes):
        """Blocks of an encoding whose line feed is the byte 10 (UTF-8, latin-1...); ``data`` the first block, read already."""
        first = 1
        offset = 0
        carry = b""
        if self.encoding == "utf-8" and data.startswith(codecs.BOM_UTF8):
            data = data[3:]
            offset = 3
        while data:
            buf = carry + data if carry else data
            cut = buf.rfind(b"\n")
            if cut < 0:
                carry = buf
                self._check_carry(len(carry), first)
            else:
                body, carry = buf[: cut + 1], buf[cut + 1 :]
                nl = self._check_lengths(body, first)
                self._check_carry(len(carry), first + nl)
                text = self._decode(body, first, offset)
                lines = text.split("\n")
                lines.pop()
                yield text, lines, first
                first += nl
                offset += len(body)
            data = self._read(BLOCK_BYTES)
        if carry:
            self.unended = True
            text = self._decode(carry, first, offset)
            yield text, [text], first

    def _check_lengths(self, body: bytes, first: int) -> int:
        """The number of lines of ``body``; a line over MAX_LINE_BYTES is an error naming it."""
        ends = np.flatnonzero(np.frombuffer(body, dtype=np.uint8) == 10)
        long = np.flatnonzero(np.diff(ends, prepend=-1) - 1 > MAX_LINE_BYTES)
        if long.size:
            self._too_long(first + int(long[0]))
        return int(ends.size)

    def _check_carry(self, nbytes: int, line: int) -> None:
        if nbytes > MAX_LINE_BYTES:
            self._too_long(line)

    def _too_long(self, line: int):
        raise ValueError(
            f"{self.label}, line {line}: longer than {MAX_LINE_BYTES:,} bytes; a log line is a few fields "
            "(is this a log? a binary file, or one without line ends, is not read)"
        )

    def _decode(self, body: bytes, first: int, offset: int) -> str:
        try:
            return body.decode(self.encoding)
        except UnicodeDecodeError as exc:
            pos = exc.start
            line = first + body.count(b"\n", 0, pos)
            col = pos - (body.rfind(b"\n", 0, pos) + 1)
            where = "decompressed text" if self.compression else "file"
            raise ValueError(
                f"{self.label}, line {line}, byte {col + 1} of the line (byte {offset + pos + 1:,} of the {where}): "
                f"{body[pos : pos + 1]!r} is not {self.encoding} text ({exc.reason}); if the log is in "
                "another encoding, name it (encoding='latin-1', --encoding latin-1)"
            ) from None


class _Peekable:
    """A binary stream without ``peek`` (a plain file-like object), given one."""

    def __init__(self, raw):
        self._raw = raw
        self._head = b""

    def peek(self, n: int) -> bytes:
        while len(self._head) < n:
            more = self._raw.read(n - len(self._head))
            if not more:
                break
            self._head += more
        return self._head

    def read(self, n: int = -1) -> bytes:
        if self._head:
            out, self._head = self._head[:n] if n >= 0 else self._head, self._head[n:] if n >= 0 else b""
            if n < 0 or len(out) < n:
                out += self._raw.read(-1 if n < 0 else n - len(out))
            return out
        return self._raw.read(n)

    def readable(self) -> bool:
        return True

    def close(self) -> None:  # the caller's stream stays open
        pass


def _grouped(lines, size: int = 4096):
    """Text pieces of ``size`` lines from an iterable of lines."""
    group = []
    for line in lines:
        group.append(line)
        if len(group) >= size:
            yield "".join(group)
            group = []
    if group:
        yield "".join(group)
