"""Whose kernel is whose in the app, and how many kernels it may run (pure; no tornado).

The app (:mod:`vtsmodel.app.serve`) is shared by everyone who holds its token: a class.
Each browser that logs in is a **session** (the login cookie names it). A lesson page
gets a kernel of its own, and that kernel belongs to the session that opened the page:
no other session can list it, connect to it, read or set its widgets, or stop it.
:class:`Sessions` keeps that record and the limits:

- **a cap on page kernels** (:func:`default_cap`, sized from the machine's memory): a
  page asked for beyond it gets "the app is full, try again", never a crash;
- **a cap per session**, so that one person's tabs cannot take the class's share;
- **a connect grace**: a page that was served but whose browser never connected to its
  kernel (a plain ``GET``, a script, a tab closed while loading) has its kernel stopped
  once :data:`CONNECT_GRACE_S` has passed since the page was sent.

Kernels kept ready for the next page (Voila's preheated pool, one per lesson) belong to
nobody until a page is given one; they are not counted in the cap.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = [
    "CONNECT_GRACE_S",
    "KERNEL_MB",
    "MEMORY_SHARE",
    "SESSION_KERNELS",
    "Claim",
    "Full",
    "Sessions",
    "Ticket",
    "available_memory_mb",
    "default_cap",
]

#: Resident memory of one lesson kernel once its page is drawn, the most measured [MB].
#: Measured with ``make app`` on this project's machine (2026-11-26): the nine preheated
#: lesson kernels held 78-246 MB each (lesson 08, with its mount-log tools, the most),
#: 1,408 MB together, the server 137 MB; with eleven notebooks, 74-225 MB each, 1,647 MB.
KERNEL_MB = 250
#: The share of the memory available at start that page kernels may take by default [-].
#: A modelling choice: the rest is left to the preheated kernels, the server and the system.
MEMORY_SHARE = 0.5
#: Page kernels one session may hold at once (lessons open in tabs of one browser).
SESSION_KERNELS = 5
#: How long a served page has to connect to its kernel before the kernel is stopped [s].
#: In the browser tests on this machine a page connected up to 12.8 s after its last byte
#: (the page's scripts loaded and started on two cores shared with other jobs, load 10);
#: the margin is for a slow laptop, or a class opening its pages at once.
CONNECT_GRACE_S = 60.0
#: Bounds of the default cap [kernels].
_CAP_RANGE = (2, 200)


def available_memory_mb(meminfo: str = "/proc/meminfo") -> float | None:
    """Memory available for new processes (Linux ``MemAvailable``) [MB]; None where unknown."""
    try:
        with open(meminfo, encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 / 1e6
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_cap(available_mb: float | None, ready_kernels: int = 0) -> int:
    """The default cap on page kernels for a machine with ``available_mb`` free [kernels].

    ``floor(MEMORY_SHARE * available_mb / KERNEL_MB) - ready_kernels``, within 2 to 200;
    20 where the memory is unknown.

    Parameters
    ----------
    available_mb : float or None
        Memory available when the app starts. [MB]
    ready_kernels : int
        Kernels the app keeps ready (the preheated pool), which use memory too. [kernels]
    """
    if available_mb is None or not math.isfinite(available_mb) or available_mb <= 0:
        return 20
    cap = math.floor(MEMORY_SHARE * available_mb / KERNEL_MB) - max(0, ready_kernels)
    return int(min(max(cap, _CAP_RANGE[0]), _CAP_RANGE[1]))


class Full(Exception):
    """A page asked for when the app, or the asking session, holds all the kernels it may.

    ``scope`` is ``"app"`` or ``"session"``; ``limit`` the cap that was reached.
    """

    def __init__(self, scope: str, limit: int):
        self.scope, self.limit = scope, limit
        super().__init__(f"{scope} cap of {limit} page kernels reached")


@dataclass
class Ticket:
    """A page's place under the caps, from the request until its kernel is known."""

    owner: str
    kernel_id: str | None = None
    done: bool = False


@dataclass
class Claim:
    """A page kernel: whose it is, and how far its page got."""

    owner: str
    served_at: float | None = None
    connected: bool = False


@dataclass
class Sessions:
    """The page kernels of the app, by session, and its caps.

    Parameters
    ----------
    cap : int
        Most page kernels at once, all sessions together. [kernels]
    per_session : int
        Most page kernels one session may hold. [kernels]
    connect_grace_s : float
        Time a served page has to connect to its kernel. [s]
    clock : callable
        Monotonic time [s] (injected in tests).
    """

    cap: int
    per_session: int = SESSION_KERNELS
    connect_grace_s: float = CONNECT_GRACE_S
    clock: Callable[[], float] = time.monotonic
    claims: dict[str, Claim] = field(default_factory=dict)
    tickets: list[Ticket] = field(default_factory=list)

    def __post_init__(self):
        for name, value, lo in (("cap", self.cap, 1), ("per_session", self.per_session, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < lo:
                raise ValueError(f"{name}={value!r} is outside [{lo}, inf) kernels")
        if not (math.isfinite(self.connect_grace_s) and self.connect_grace_s > 0):
            raise ValueError(f"connect_grace_s={self.connect_grace_s!r} is outside (0, inf) s")

    # --- counting ----------------------------------------------------------------------
    def _pending(self, owner: str | None = None) -> int:
        return sum(1 for t in self.tickets if owner is None or t.owner == owner)

    def in_use(self, owner: str | None = None) -> int:
        """Page kernels held, and pages on their way to one (all, or ``owner``'s)."""
        held = sum(1 for c in self.claims.values() if owner is None or c.owner == owner)
        return held + self._pending(owner)

    def prune(self, live: Iterable[str]) -> None:
        """Forget the claims of kernels no longer among ``live`` (stopped, culled, died)."""
        alive = set(live)
        for kernel_id in [k for k in self.claims if k not in alive]:
            del self.claims[kernel_id]

    # --- a page's way ------------------------------------------------------------------
    def admit(self, owner: str) -> Ticket:
        """A place for one more page of ``owner``; ``Full`` when a cap is reached."""
        if self.in_use() >= self.cap:
            raise Full("app", self.cap)
        if self.in_use(owner) >= self.per_session:
            raise Full("session", self.per_session)
        ticket = Ticket(owner)
        self.tickets.append(ticket)
        return ticket

    def claim(self, ticket: Ticket, kernel_id: str) -> None:
        """The page of ``ticket`` was given ``kernel_id``: it is now its session's."""
        self._drop(ticket)
        ticket.kernel_id = kernel_id
        self.claims[kernel_id] = Claim(ticket.owner)

    def release(self, ticket: Ticket) -> None:
        """The request of ``ticket`` ended; its place is freed if it got no kernel."""
        self._drop(ticket)

    def _drop(self, ticket: Ticket) -> None:
        if not ticket.done:
            ticket.done = True
            self.tickets.remove(ticket)

    def served(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` was sent (or its request ended): the grace starts."""
        claim = self.claims.get(kernel_id)
        if claim is not None and claim.served_at is None:
            claim.served_at = self.clock()

    def connected(self, kernel_id: str) -> None:
        """The page's browser connected to ``kernel_id``."""
        if kernel_id in self.claims:
            self.claims[kernel_id].connected = True

    def forget(self, kernel_id: str) -> bool:
        """``kernel_id`` stopped (or is being stopped); False if it was not a page kernel."""
        return self.claims.pop(kernel_id, None) is not None

    # --- questions ---------------------------------------------------------------------
    def owns(self, owner: str | None, kernel_id: str) -> bool:
        """Whether ``kernel_id`` is a page kernel of session ``owner``."""
        claim = self.claims.get(kernel_id)
        return owner is not None and claim is not None and claim.owner == owner

    def kernels_of(self, owner: str | None) -> list[str]:
        """The page kernels of session ``owner``."""
        return [k for k, c in self.claims.items() if owner is not None and c.owner == owner]

    def awaiting_connect(self, kernel_id: str) -> bool:
        """Whether ``kernel_id`` is a page kernel whose page may still connect.

        True while the page is being sent and for the grace after: such a kernel is the
        connect grace's to stop, not the idle cull's (a preheated kernel may have been idle
        for longer than the cull timeout when a page is given it).
        """
        claim = self.claims.get(kernel_id)
        if claim is None or claim.connected:
            return False
        return claim.served_at is None or self.clock() - claim.served_at < self.connect_grace_s

    def overdue(self) -> list[str]:
        """Page kernels whose page was served more than the grace ago and never connected."""
        now = self.clock()
        return [
            k
            for k, c in self.claims.items()
            if not c.connected and c.served_at is not None and now - c.served_at >= self.connect_grace_s
        ]

    def status(self) -> dict:
        """Counts for the operator: page kernels, pages starting, caps, sessions (no ids)."""
        return {
            "page_kernels": len(self.claims),
            "starting": self._pending(),
            "cap": self.cap,
            "per_session": self.per_session,
            "connect_grace_s": self.connect_grace_s,
            "sessions": len({c.owner for c in self.claims.values()}),
        }
