"""Checking that a quote is verbatim in its founding source, with or without the source texts.

The five founding documents are not redistributed with the project. What the tests need of
them, whether a quote occurs word for word, ships as a fingerprint of each text
(``tests/source_fingerprints.json``): the text's tokens (words and punctuation marks, with
whitespace collapsed as the data rows' quotes are) as 16-bit hashes, in order. A quote is
verbatim where its tokens' hashes occur as one run in its source's; a quote with a changed
word passes by chance with probability 2^-16 per changed token. The file holds no text.

Where the texts are at hand (``VTSMODEL_SOURCES``, or ``shared/sources`` beside the
checkout), the tests match quotes against the texts themselves as well and check that the
shipped fingerprints are theirs. After a source text changes, record the fingerprints again:
``python tests/source_quotes.py --record``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FINGERPRINTS = Path(__file__).with_name("source_fingerprints.json")
SOURCES_DIR = Path(os.environ.get("VTSMODEL_SOURCES", ROOT.parent / "shared" / "sources"))

_TOKEN = re.compile(r"\w+|[^\w\s]")


def collapse(text: str) -> str:
    """``text`` with each run of whitespace as one space, stripped."""
    return re.sub(r"\s+", " ", text).strip()


def tokens(text: str) -> list[str]:
    """Words and punctuation marks of ``text``, in order."""
    return _TOKEN.findall(text)


def token_hashes(text: str) -> np.ndarray:
    """The 16-bit hash of each token of ``text`` (BLAKE2b, 2-byte digest), as ``uint16``."""
    return np.array(
        [
            int.from_bytes(hashlib.blake2b(t.encode("utf-8"), digest_size=2).digest(), "big")
            for t in tokens(text)
        ],
        dtype=np.uint16,
    )


def read_source_texts() -> dict[str, str] | None:
    """Source id to its text (whitespace collapsed), from ``SOURCES_DIR``; None where they are not there."""
    readme = SOURCES_DIR / "README.md"
    if not readme.is_file():
        return None
    out = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(\S+\.txt)\s*\|\s*(\S+)\s*\|", line)
        if m:
            out[m.group(2)] = collapse((SOURCES_DIR / m.group(1)).read_text(encoding="utf-8"))
    return out


def fingerprint(text: str) -> dict:
    """The fingerprint of one source text: its SHA-256, its token count and its token hashes (base64)."""
    hashes = token_hashes(text)
    return {
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "tokens": int(hashes.size),
        "hashes": base64.b64encode(hashes.astype(">u2").tobytes()).decode("ascii"),
    }


def load_fingerprints(path: Path = FINGERPRINTS) -> dict[str, np.ndarray]:
    """Source id to its token hashes, from the shipped file."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for source, fp in raw["sources"].items():
        hashes = np.frombuffer(base64.b64decode(fp["hashes"]), dtype=">u2").astype(np.uint16)
        if hashes.size != fp["tokens"]:
            raise ValueError(f"{path.name}: {source} holds {hashes.size} hashes, not {fp['tokens']}")
        out[source] = hashes
    return out


def occurs(needle: np.ndarray, haystack: np.ndarray) -> bool:
    """Whether ``needle`` occurs as one contiguous run in ``haystack``."""
    n = needle.size
    if n == 0 or n > haystack.size:
        return n == 0
    starts = np.flatnonzero(haystack[: haystack.size - n + 1] == needle[0])
    for k in range(1, n):
        if starts.size == 0:
            return False
        starts = starts[haystack[starts + k] == needle[k]]
    return starts.size > 0


class SourceQuotes:
    """Whether a quote is verbatim in its founding source: by the texts where present, else by the fingerprints."""

    def __init__(self) -> None:
        self.texts = read_source_texts()
        self.fingerprints = load_fingerprints()
        for source, text in (self.texts or {}).items():
            if not np.array_equal(token_hashes(text), self.fingerprints[source]):
                raise ValueError(
                    f"{FINGERPRINTS.name}: the fingerprint of {source} is not that of its text in {SOURCES_DIR}; "
                    "record them again: python tests/source_quotes.py --record"
                )

    def verbatim(self, source: str, quote: str) -> bool:
        """Whether ``quote`` occurs word for word (whitespace collapsed) in source ``source``."""
        q = collapse(quote)
        by_hash = occurs(token_hashes(q), self.fingerprints[source])
        if self.texts is None:
            return by_hash
        return by_hash and q in self.texts[source]


def _record() -> int:
    texts = read_source_texts()
    if texts is None:
        print(f"source texts not found at {SOURCES_DIR} (set VTSMODEL_SOURCES)", file=sys.stderr)
        return 1
    doc = {
        "about": "16-bit BLAKE2b hashes of each token of the five founding source texts "
        "(whitespace collapsed), to check quotes are verbatim; see tests/source_quotes.py.",
        "sources": {k: fingerprint(v) for k, v in sorted(texts.items())},
    }
    FINGERPRINTS.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FINGERPRINTS} ({len(texts)} sources)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        print("usage: python tests/source_quotes.py --record", file=sys.stderr)
        sys.exit(2)
    sys.exit(_record())
