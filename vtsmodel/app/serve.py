"""Serve the lessons as a Voila app that only its user can open (what ``make app`` runs).

``python -m vtsmodel.app.serve [NOTEBOOKS] [--port 8866] [--save-dir DIR] [--pool-size 1]``

Voila 0.5.13 on its own serves without a token, lets any ``Host`` header through (its
application sets ``allow_remote_access``), leaves a kernel behind for every page closed
that was opened directly (the page's shutdown beacon sends the ``_xsrf`` cookie, which
only Voila's file list sets; without it the beacon gets 403) and opens on a file list
that fails in the browser. This launcher runs Voila in
this process (the token never appears on a command line) with:

- a token, new each start (:func:`secrets.token_urlsafe`) unless ``$VTSMODEL_APP_TOKEN``
  gives one, printed in the start URL (``http://127.0.0.1:8866/?token=...``) as JupyterLab
  does; after the first request the browser holds a login cookie and the token leaves the
  address bar (a redirect drops it);
- a ``Host`` allow-list checked before any handler runs (the served ``ip:port`` and
  ``localhost:port``): a DNS-rebinding page or a proxy with another name gets 403;
- the ``_xsrf`` cookie set on every page, so the page's shutdown beacon passes Voila's
  XSRF check and its kernel stops when the page closes (XSRF stays on everywhere), and
  idle kernels with no page connected culled as a backstop (:data:`CULL_IDLE_S`);
- the app's own start page: the lessons in order with their questions, linking to each;
- no path from the page: the one server-side folder is ``--save-dir`` (default none),
  handed to the kernels as ``$VTSMODEL_SAVE_DIR`` (see :mod:`vtsmodel.app.savedir`);
- per-person sessions (:mod:`vtsmodel.app.sessions`): a page's kernel belongs to the
  browser that opened it; the kernels API, the kernel channels and the shutdown call
  answer only for the caller's own kernels (404 otherwise). Page kernels are capped
  (``--max-kernels``, default from the machine's memory; ``--session-kernels`` per
  browser): beyond the cap a page says the app is full. A page whose browser never
  connects to its kernel has it stopped after ``--connect-grace`` seconds;
- a kernel handed to a page is never culled before its page could connect (a preheated
  kernel idle longer than the cull timeout was culled seconds after a page got it, and
  the page hung without its panels);
- kernels reached over local sockets in a private folder (ZeroMQ's ``ipc`` transport),
  not TCP ports any local user could connect to; the log keeps what matters (not nine
  "not trusted" lines, which say nothing for an app that runs only its own lessons);
- the port asked for, or the next free one when another app holds it.
"""

from __future__ import annotations

import argparse
import errno
import html
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlencode

from vtsmodel.app import activity, kernelgc, page_assets, savedir, sessions

__all__ = [
    "CULL_IDLE_S",
    "CULL_INTERVAL_S",
    "TOKEN_ENV",
    "Lesson",
    "Options",
    "PORT_TRIES",
    "allowed_hosts",
    "connection_root",
    "cull_interval",
    "free_port_from",
    "full_html",
    "host_allowed",
    "index_html",
    "ipc_fits",
    "login_html",
    "lessons",
    "main",
    "make_token",
    "parse_args",
    "start_url",
    "voila_config",
]

#: Where the project's Voila template lives (``voila/templates/vtsmodel``).
TEMPLATES = Path(__file__).resolve().parent / "_jupyter"
#: The environment variable that fixes the token (otherwise a new one each start).
TOKEN_ENV = "VTSMODEL_APP_TOKEN"
#: A kernel with no page connected is shut down after this long without activity [s].
#: Kernels of open pages are never culled (``cull_connected`` off): a student may read a
#: lesson for an hour. A page's own kernel stops when it closes; this catches the rest (a
#: crashed browser, a killed tab, a page that never finished loading) within ~11 minutes,
#: so leaked kernels stay bounded by what a class opens in that time.
CULL_IDLE_S = 600
#: How often idle kernels are looked for, at most [s] (see :func:`cull_interval`).
CULL_INTERVAL_S = 60
#: Seconds after a page takes a lesson's preheated kernel before the pool starts the next
#: (Voila's ``fill_delay``, 1 s by default). Preheating runs the lesson's notebook, seconds of
#: a core, which then ran beside the page loading in the browser: one visit at a time on a
#: 2-core machine, the page took 5.7 s to interactive with 1 s and 4.4 s with 10 s (median of
#: six, lessons 01, 04 and 07; BENCHMARKS.md). The cost: the same lesson opened again within
#: about this time starts its kernel on demand.
REFILL_DELAY_S = 10.0
#: Ports tried from the one asked for when it is taken (another ``make app``).
PORT_TRIES = 20
#: How long a page refused for a full app asks the browser to wait [s].
RETRY_AFTER_S = 30
#: Log lines that are expected and say nothing to the person running the app: their formats.
_QUIET = ("Notebook %s is not trusted",)
#: ... and the beginnings of such lines. jupyter_server gives its kernel websockets ping settings
#: in milliseconds, which tornado 6.5 reads as seconds, and tornado says once that the timeout
#: (90000) exceeds the interval (30000); jupyter_server pings on its own millisecond timer
#: (jupyter-server/jupyter_server#1612).
_QUIET_START = ("The websocket_ping_timeout (",)
_CSS = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}"
    "ul{list-style:none;padding:0}li{margin:0 0 1.1rem}li p{margin:.2rem 0 0;color:#444}"
    "a{font-weight:600}.error{color:#B00020}"
)
_TOKEN = re.compile(r"[A-Za-z0-9_\-]{22,}")
_NOTEBOOK = re.compile(r"\d\d_[A-Za-z0-9_\-]+\.ipynb")


@dataclass(frozen=True)
class Options:
    """What the launcher was asked for (see :func:`parse_args`)."""

    notebooks: Path
    ip: str = "127.0.0.1"
    port: int = 8866
    save_dir: Path | None = None
    pool_size: int = 1
    extra_hosts: tuple[str, ...] = ()
    cull_idle_s: int = CULL_IDLE_S
    show_tracebacks: bool = False
    log_level: str = "INFO"
    max_kernels: int | None = None
    session_kernels: int = sessions.SESSION_KERNELS
    connect_grace_s: float = sessions.CONNECT_GRACE_S
    refill_delay_s: float = REFILL_DELAY_S


def cull_interval(idle_s: int) -> int:
    """How often to look for idle kernels [s]: a tenth of the idle timeout, 1 to 60 s."""
    return max(1, min(CULL_INTERVAL_S, idle_s // 10))


def make_token() -> str:
    """A new random token: 32 bytes, URL-safe text (43 characters)."""
    return secrets.token_urlsafe(32)


def _check_token(token: str) -> str:
    if not _TOKEN.fullmatch(token):
        raise ValueError(
            f"{TOKEN_ENV} must be at least 22 characters of letters, digits, '_' and '-' "
            f"(got {len(token)} characters); unset it to get a new random token"
        )
    return token


def parse_args(argv: list[str] | None = None) -> Options:
    """Options from the command line; ``ValueError`` names a bad one."""
    p = argparse.ArgumentParser(
        prog="python -m vtsmodel.app.serve",
        description="Serve the vtsmodel lessons as a Voila app on 127.0.0.1, with a token.",
    )
    p.add_argument("notebooks", nargs="?", default="notebooks", help="folder of the lesson notebooks")
    p.add_argument("--port", type=int, default=8866, help="port to serve on (default 8866)")
    p.add_argument("--ip", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--save-dir",
        default=None,
        help="the one server-side folder the app may save files into (default: none; "
        "the page saves through browser downloads)",
    )
    p.add_argument(
        "--pool-size",
        type=int,
        default=1,
        help="preheated kernels kept ready per lesson (default 1; 0 starts each on demand)",
    )
    p.add_argument(
        "--refill-delay",
        type=float,
        default=REFILL_DELAY_S,
        metavar="S",
        help="seconds after a page takes a lesson's preheated kernel before the next one is "
        f"started, so that it does not slow the page's loading (default {REFILL_DELAY_S:g})",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the app is reached by (its Host header); repeatable",
    )
    p.add_argument(
        "--cull-idle-timeout",
        type=int,
        default=CULL_IDLE_S,
        metavar="S",
        help=f"stop a kernel with no page connected after S seconds idle (default {CULL_IDLE_S})",
    )
    p.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        metavar="N",
        help="most lesson pages open at once, all browsers together (default: from the memory "
        f"available at start, {sessions.KERNEL_MB} MB a page; kernels kept ready not counted)",
    )
    p.add_argument(
        "--session-kernels",
        type=int,
        default=sessions.SESSION_KERNELS,
        metavar="N",
        help=f"most lesson pages one browser may have open at once (default {sessions.SESSION_KERNELS})",
    )
    p.add_argument(
        "--connect-grace",
        type=float,
        default=sessions.CONNECT_GRACE_S,
        metavar="S",
        help="stop a page's kernel when its browser has not connected S seconds after the page "
        f"was sent (default {sessions.CONNECT_GRACE_S:g})",
    )
    p.add_argument("--show-tracebacks", action="store_true", help="show errors' tracebacks in the pages")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARN", "ERROR"])
    a = p.parse_args(argv)
    notebooks = Path(a.notebooks).resolve()
    if not notebooks.is_dir():
        raise ValueError(
            f"NOTEBOOKS {a.notebooks!r} is not a folder; give the folder of the lesson notebooks"
        )
    if not 0 < a.port < 65536:
        raise ValueError(f"--port={a.port} is outside [1, 65535]")
    if not 0 <= a.pool_size <= 8:
        raise ValueError(f"--pool-size={a.pool_size} is outside [0, 8]")
    if not 0 <= a.refill_delay <= 600:  # also refuses NaN
        raise ValueError(f"--refill-delay={a.refill_delay} is outside [0, 600] s")
    if not 1 <= a.cull_idle_timeout <= 86_400:
        raise ValueError(f"--cull-idle-timeout={a.cull_idle_timeout} is outside [1, 86400] s")
    if a.max_kernels is not None and not 1 <= a.max_kernels <= 10_000:
        raise ValueError(f"--max-kernels={a.max_kernels} is outside [1, 10000]")
    if not 1 <= a.session_kernels <= 1_000:
        raise ValueError(f"--session-kernels={a.session_kernels} is outside [1, 1000]")
    if not 1 <= a.connect_grace <= 3_600:  # also refuses NaN
        raise ValueError(f"--connect-grace={a.connect_grace} is outside [1, 3600] s")
    try:
        ipaddress.ip_address(a.ip)
    except ValueError:
        raise ValueError(f"--ip={a.ip!r} is not an IP address (such as 127.0.0.1)") from None
    save = None
    if a.save_dir is not None:
        save = Path(a.save_dir).expanduser()
        if not save.is_dir():
            raise ValueError(f"--save-dir={a.save_dir!r} is not an existing folder; create it first")
        save = save.resolve()
    for name in a.allow_host:
        if not re.fullmatch(r"[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]", name):
            raise ValueError(f"--allow-host={name!r} is not a host name")
    return Options(
        notebooks=notebooks,
        ip=a.ip,
        port=a.port,
        save_dir=save,
        pool_size=a.pool_size,
        refill_delay_s=a.refill_delay,
        extra_hosts=tuple(n.lower() for n in a.allow_host),
        cull_idle_s=a.cull_idle_timeout,
        show_tracebacks=a.show_tracebacks,
        log_level=a.log_level,
        max_kernels=a.max_kernels,
        session_kernels=a.session_kernels,
        connect_grace_s=a.connect_grace,
    )


def allowed_hosts(ip: str, port: int, extra: tuple[str, ...] | list[str] = ()) -> frozenset[str]:
    """The ``Host`` header values the app answers: ``ip:port``, ``localhost:port`` and ``extra``.

    ``localhost`` is kept for a loopback ``ip``: browsers use it, and so do kernels that
    ask Voila for their request.
    """
    host = f"[{ip}]" if ":" in ip else ip
    names = {host, *extra}
    if ipaddress.ip_address(ip).is_loopback:
        names.add("localhost")
    return frozenset(f"{n.lower()}:{port}" for n in names)


def host_allowed(host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Host`` header is one the app serves (exact name and port)."""
    return bool(host) and host.lower() in allowed


def start_url(ip: str, port: int, token: str, path: str = "/") -> str:
    """The URL to open: ``http://127.0.0.1:8866/?token=...``."""
    host = f"[{ip}]" if ":" in ip else ip
    return f"http://{host}:{port}{path}?{urlencode({'token': token})}"


@dataclass(frozen=True)
class Lesson:
    """One entry of the start page: notebook file, title and the question it answers."""

    notebook: str
    title: str
    question: str


def _plain(markdown: str) -> str:
    """Markdown emphasis and code marks dropped: the text as read."""
    return " ".join(re.sub(r"(\*\*|\*|`)", "", markdown).split())


def lessons(notebooks: Path) -> list[Lesson]:
    """The lessons of ``notebooks`` (``NN_name.ipynb``) in order, from their first cell.

    The title is the first ``#`` heading; the question is the paragraph that starts
    "**The question.**" (empty when there is none); a notebook that cannot be read is
    listed by its file name.
    """
    out = []
    for path in sorted(notebooks.iterdir()):
        if not _NOTEBOOK.fullmatch(path.name) or not path.is_file():
            continue
        title, question = path.stem, ""
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
            cell = next(c for c in nb["cells"] if c.get("cell_type") == "markdown")
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        except (OSError, ValueError, KeyError, TypeError, StopIteration):
            text = ""
        for para in re.split(r"\n\s*\n", text):
            para = para.strip()
            if para.startswith("# ") and title == path.stem:
                title = _plain(para.splitlines()[0][2:])
            elif para.startswith("**The question.**") and not question:
                question = _plain(para[len("**The question.**") :])
        out.append(Lesson(path.name, title, question))
    return out


def index_html(entries: list[Lesson], base_url: str = "/") -> str:
    """The app's start page: the lessons in order, each a link with its question.

    Self-contained (no script, no request for anything but the lesson links), so the
    browser has nothing to fail on.
    """
    items = []
    for e in entries:
        href = html.escape(f"{base_url}voila/render/{e.notebook}", quote=True)
        question = f"<p>{html.escape(e.question)}</p>" if e.question else ""
        items.append(
            f"<li class='vtsmodel-lesson'><a href=\"{href}\">{html.escape(e.title)}</a>{question}</li>"
        )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<link rel='icon' href='data:,'><title>vtsmodel lessons</title><style>{_CSS}</style></head><body>"
        "<h1>vtsmodel: the lessons</h1>"
        "<p>Tape storage performance, from five published documents. Each lesson opens as an app "
        "with its own kernel, which stops when you close the page.</p>"
        f"<ul class='vtsmodel-lessons'>{''.join(items)}</ul></body></html>"
    )


def login_html(next_url: str, xsrf_form_html: str, *, failed: bool = False) -> str:
    """The page a request without the token gets: where the token is, and a box for it."""
    error = "<p class='error'>That is not this app's token.</p>" if failed else ""
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<link rel='icon' href='data:,'><title>vtsmodel: token needed</title><style>{_CSS}</style></head>"
        "<body><h1>This app needs its token</h1>"
        "<p>Open the address printed where the app was started (<code>make app</code>), "
        "<code>http://127.0.0.1:8866/?token=...</code>, or paste its token here.</p>"
        f"{error}<form method='post' action='{html.escape('?' + urlencode({'next': next_url}), quote=True)}'>"
        f"{xsrf_form_html}<label>Token <input type='password' name='password' autocomplete='off' "
        "size='48'></label> <button type='submit'>Open</button></form></body></html>"
    )


def full_html(scope: str, limit: int, page_url: str, base_url: str = "/") -> str:
    """The page a lesson request gets beyond a cap: what happened and what to do.

    ``scope`` is ``"app"`` (all browsers together hold ``limit`` pages) or ``"session"``
    (the asking browser does).
    """
    if scope == "session":
        title = "You have the most lessons open that one browser may"
        what = (
            f"This browser already has {limit} lesson pages open, the most this app gives one "
            "person at once. Close a lesson tab you no longer read, then try again."
        )
    else:
        title = "The app is full, try again"
        what = (
            f"{limit} lesson pages are open, the most this app serves at once on its machine. "
            "A place frees when someone closes a lesson; try again in a minute."
        )
    again = html.escape(page_url, quote=True)
    start = html.escape(base_url, quote=True)
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<link rel='icon' href='data:,'><title>vtsmodel: {html.escape(title)}</title><style>{_CSS}</style>"
        f"</head><body class='vtsmodel-full'><h1>{html.escape(title)}</h1><p>{html.escape(what)}</p>"
        f'<p><a href="{again}">Try again</a> &middot; <a href="{start}">The lessons</a></p></body></html>'
    )


def free_port_from(ip: str, port: int, tries: int = PORT_TRIES) -> int:
    """The first port from ``port`` on that ``ip`` can listen on (``port`` itself when free).

    ``ValueError`` when the ``tries`` ports from ``port`` are all taken: it names them and
    says what to do.
    """
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    last = min(port + tries - 1, 65535)
    for candidate in range(port, last + 1):
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado listens
            try:
                s.bind((ip, candidate))
            except OSError as exc:
                if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                    continue
                raise ValueError(f"--ip={ip!r} cannot be listened on: {exc.strerror or exc}") from None
            return candidate
    raise ValueError(
        f"ports {port} to {last} on {ip} are all in use (other apps running?); stop one "
        "(Ctrl+C where it was started) or pass --port with another number"
    )


#: What a kernel's Unix socket adds to its connection folder: ``/kernel-<uuid>-ipc-NN``
#: (jupyter_client names each socket after the kernel's connection file) [characters].
_IPC_NAME = len("/kernel-") + 36 + len("-ipc-") + 2


def ipc_fits(folder: str, *, prefix: int = len("/voila_xxxxxxxx")) -> bool:
    """Whether kernels' Unix sockets fit under ``folder`` (ZeroMQ's path limit, 107 on Linux).

    ``prefix`` is what the server adds to ``folder`` before the kernels' names (Voila's
    private ``voila_XXXXXXXX`` folder). Where they do not fit (a long temporary folder, a
    long home), kernels are reached over TCP on 127.0.0.1 instead.
    """
    try:
        import zmq

        limit = zmq.IPC_PATH_MAX_LEN
    except (ImportError, AttributeError):
        limit = 103  # the smaller of Linux's and macOS's
    return os.name == "posix" and len(os.path.abspath(folder)) + prefix + _IPC_NAME <= limit


def connection_root() -> str:
    """The folder that holds the app's private connection folder.

    The temporary folder, or ``/tmp`` where that is too long for the kernels' sockets
    (macOS's is).
    """
    import tempfile

    root = tempfile.gettempdir()
    return root if ipc_fits(root) or not os.path.isdir("/tmp") else "/tmp"


def voila_config(opts: Options, token: str):
    """The traitlets configuration of the Voila app (token, Host check, XSRF, culling)."""
    from traitlets.config import Config

    c = Config()
    c.Voila.ip = opts.ip
    c.Voila.port = opts.port
    # main() found a free port; should another app take it meanwhile, Voila tries the next
    # (the printed URL and the Host allow-list follow the port it listens on).
    c.Voila.port_retries = PORT_TRIES
    c.Voila.open_browser = False
    c.Voila.token = token
    c.Voila.config_file_paths = []  # no voila.json from the working folder can loosen this
    c.Voila.log_level = opts.log_level
    # Each kernel message sent at once: with Nagle's algorithm on, a slider's reply waited
    # up to 40 ms for a delayed ACK (vtsmodel/app/_wsnodelay.py).
    c.Voila.kernel_websocket_connection_class = "vtsmodel.app._wsnodelay.NoDelayConnection"
    c.Voila.tornado_settings = {
        # jupyter_server's own Host check, on top of the launcher's exact allow-list.
        "allow_remote_access": False,
        "local_hostnames": ["localhost", *opts.extra_hosts],
        "xsrf_cookies": True,
        "xsrf_cookie_kwargs": {"samesite": "Strict"},
    }
    c.PasswordIdentityProvider.allow_password_change = False  # it would write a config file
    c.PasswordIdentityProvider.cookie_options = {"samesite": "Strict"}
    c.VoilaConfiguration.template = "vtsmodel"
    # A page loads the extensions its notebook names, and Voila's bundles from a versioned URL.
    c.VoilaConfiguration.page_config_hook = page_assets.page_config_hook(opts.notebooks)
    c.VoilaConfiguration.show_tracebacks = opts.show_tracebacks
    c.VoilaConfiguration.preheat_kernel = opts.pool_size > 0
    c.VoilaConfiguration.default_pool_size = opts.pool_size
    c.VoilaKernelManager.fill_delay = opts.refill_delay_s  # the pool's next kernel after the page loads
    c.MappingKernelManager.cull_idle_timeout = opts.cull_idle_s
    c.MappingKernelManager.cull_interval = cull_interval(opts.cull_idle_s)
    c.MappingKernelManager.cull_connected = False
    c.MappingKernelManager.cull_busy = False
    # Kernels on Unix sockets in the app's private connection folder (mode 0700): no TCP
    # port that another user of the machine could reach, and no "running over TCP
    # without encryption" warning for each kernel.
    root = connection_root()
    c.Voila.connection_dir_root = root
    if ipc_fits(root):
        c.KernelManager.transport = "ipc"
    return c


def _app_class():
    """The Voila application with the launcher's handlers (imports Voila and tornado)."""
    import tornado.web
    from jupyter_core.utils import ensure_async
    from jupyter_server._tz import utcnow
    from jupyter_server.base.handlers import APIHandler, FileFindHandler, JupyterHandler
    from jupyter_server.services.kernels.handlers import KernelHandler
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from tornado.ioloop import IOLoop
    from voila.app import Voila
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import MultiStaticFileHandler
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler
    from voila.voila_identity_provider import VoilaLoginHandler

    from vtsmodel.app.static_cache import CompileHint, Immutable, VersionedFileHandler

    def drop_token(handler) -> bool:
        """Redirect a token-authenticated GET to the same URL without the token."""
        if handler.get_query_argument("token", None) is None or not handler.current_user:
            return False
        args = [
            (k, v.decode()) for k, vs in handler.request.query_arguments.items() if k != "token" for v in vs
        ]
        handler.redirect(handler.request.path + (f"?{urlencode(args)}" if args else ""))
        return True

    def session_of(handler) -> str | None:
        """The browser session of a request: the user its login cookie names."""
        return getattr(handler.current_user, "username", None)

    class SessionKernelManager(AsyncMappingKernelManager):
        """Kernels, with the app's page-kernel record (:class:`sessions.Sessions`).

        Voila's preheating builds on this class (``multi_kernel_manager_class``): its pool
        kernels are never culled; a page kernel is culled only once its page has connected
        and left, or by the connect grace.
        """

        sessions: sessions.Sessions | None = None

        def start_watching_activity(self, kernel_id):
            activity.watch(self, kernel_id)  # the two headers read alone (vtsmodel/app/activity.py)

        def touch(self, kernel_id: str) -> None:
            """Restart ``kernel_id``'s idle clock (a page was just given it)."""
            self.get_kernel(kernel_id).last_activity = utcnow()

        async def cull_kernel_if_idle(self, kernel_id):
            if self.sessions is not None and self.sessions.awaiting_connect(kernel_id):
                return  # its page may still connect: the connect grace decides
            return await super().cull_kernel_if_idle(kernel_id)

        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            try:
                return await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))
            finally:
                if self.sessions is not None:
                    self.sessions.forget(kernel_id)

        async def stop_unconnected(self) -> None:
            """Stop the page kernels whose page has not connected within the grace."""
            for kernel_id in self.sessions.overdue():
                if not self.sessions.forget(kernel_id):
                    continue  # another pass is stopping it
                self.log.info(
                    "Stopping kernel %s: its page did not connect within %g s",
                    kernel_id,
                    self.sessions.connect_grace_s,
                )
                if kernel_id in self:
                    await ensure_async(self.shutdown_kernel(kernel_id))

    class PageKernels:
        """The kernel manager as a page sees it: the kernel a page is given becomes its session's."""

        def __init__(self, km, on_kernel):
            self._km, self._on_kernel = km, on_kernel

        def __getattr__(self, name):
            return getattr(self._km, name)

        async def get_rendered_notebook(self, *args, **kwargs):
            task, rendered, kernel_id = await self._km.get_rendered_notebook(*args, **kwargs)
            self._on_kernel(kernel_id)
            return task, rendered, kernel_id

        async def start_kernel(self, *args, **kwargs):
            kernel_id = await ensure_async(self._km.start_kernel(*args, **kwargs))
            self._on_kernel(kernel_id)
            return kernel_id

    class VersionedVoilaStatic(Immutable, MultiStaticFileHandler):
        """Voila's bundles under ``voila/static/v-KEY/`` (:mod:`page_assets`): cached for good."""

    class PlotlyScript(Immutable, CompileHint, tornado.web.StaticFileHandler):
        """plotly.js at a URL naming its version (:func:`page_assets.plotly_url`): cached for good, compiled as it streams in."""

    class ForbiddenHost(tornado.web.RequestHandler):
        def prepare(self):
            raise tornado.web.HTTPError(403, "Host %s is not served here", self.request.host)

    class HostCheckedApplication(tornado.web.Application):
        """Refuses any request whose Host is not in ``settings["vtsmodel_hosts"]``."""

        def find_handler(self, request, **kwargs):
            if not host_allowed(request.host, self.settings["vtsmodel_hosts"]):
                return self.get_handler_delegate(request, ForbiddenHost)
            return super().find_handler(request, **kwargs)

    class IndexHandler(JupyterHandler):
        @tornado.web.authenticated
        def get(self, path=None):
            if drop_token(self):
                return
            self.set_header("Cache-Control", "no-store")
            self.finish(index_html(lessons(Path(self.settings["vtsmodel_notebooks"])), self.base_url))

    class ToIndex(JupyterHandler):
        @tornado.web.authenticated
        def get(self, path=None):
            self.redirect(self.base_url)

    class PageHandler(TornadoVoilaHandler):
        """A lesson page: admitted under the caps, given a kernel that becomes its session's."""

        _ticket: sessions.Ticket | None = None
        _sent = False

        @property
        def kernel_manager(self):
            km = self.settings["kernel_manager"]
            return PageKernels(km, self._claim) if self._ticket is not None else km

        def _claim(self, kernel_id: str) -> None:
            self.settings["vtsmodel_sessions"].claim(self._ticket, kernel_id)
            self.settings["kernel_manager"].touch(kernel_id)

        @tornado.web.authenticated
        async def get(self, path=None):
            if drop_token(self):
                return
            record, km = self.settings["vtsmodel_sessions"], self.settings["kernel_manager"]
            record.prune(km.list_kernel_ids())
            try:
                self._ticket = record.admit(session_of(self))
            except sessions.Full as full:
                self.set_status(429 if full.scope == "session" else 503)
                self.set_header("Retry-After", str(RETRY_AFTER_S))
                self.set_header("Cache-Control", "no-store")
                self.log.warning("Refused %s: %s", self.request.path, full)
                self.finish(full_html(full.scope, full.limit, self.request.path, self.base_url))
                return
            # Voila's page closes its kernel with a beacon carrying the _xsrf cookie, which
            # only Voila's file list set: opened directly, the beacon got 403 and the kernel stayed.
            self.xsrf_token  # noqa: B018 - reading it sets the cookie
            try:
                await super().get(path)
            finally:
                # Voila keeps each preheated page's request for the /voila/query socket, which
                # this app does not serve: drop it rather than keep one per visit for ever.
                RequestInfoSocketHandler._cache.clear()
                self._page_sent()

        def on_connection_close(self):
            self._page_sent()  # the browser left while the page was sent
            super().on_connection_close()

        def _page_sent(self) -> None:
            """The page went out (or its browser left): its kernel's connect grace starts."""
            ticket = self._ticket
            if ticket is None or self._sent:
                return
            self._sent = True
            record = self.settings["vtsmodel_sessions"]
            record.release(ticket)
            if ticket.kernel_id is not None:
                record.served(ticket.kernel_id)
                km = self.settings["kernel_manager"]
                IOLoop.current().call_later(record.connect_grace_s + 0.1, km.stop_unconnected)

    class PageChannels(VoilaKernelWebsocketHandler):
        """A kernel's channels (widgets, output): only for the session whose page it is."""

        async def pre_get(self):
            record = self.settings["vtsmodel_sessions"]
            if not record.owns(session_of(self), self.kernel_id):
                raise tornado.web.HTTPError(404, "No kernel %s in this session", self.kernel_id)
            await super().pre_get()
            record.connected(self.kernel_id)

        def write_error(self, status_code, **kwargs):
            # Jupyter's HTML error page needs a static path this app does not have: a
            # refused handshake logged a traceback. The status is the answer.
            self.finish(f"{status_code} {self._reason}")

    class OwnKernel(KernelHandler):
        """``GET``/``DELETE /api/kernels/<id>``: the caller's own page kernels only (404 otherwise)."""

        def _own(self, kernel_id):
            if not self.settings["vtsmodel_sessions"].owns(session_of(self), kernel_id):
                raise tornado.web.HTTPError(404, "No kernel %s in this session", kernel_id)

        @tornado.web.authenticated
        async def get(self, kernel_id):
            self._own(kernel_id)
            await super().get(kernel_id)

        @tornado.web.authenticated
        async def delete(self, kernel_id):
            self._own(kernel_id)
            await super().delete(kernel_id)

    class OwnShutdown(VoilaShutdownKernelHandler):
        """The page's shutdown beacon: stops the caller's own page kernel only (404 otherwise)."""

        @tornado.web.authenticated
        async def post(self, kernel_id):
            if not self.settings["vtsmodel_sessions"].owns(session_of(self), kernel_id):
                raise tornado.web.HTTPError(404, "No kernel %s in this session", kernel_id)
            await super().post(kernel_id)

    class LoginPage(VoilaLoginHandler):
        def _render(self, message=None):
            self.set_header("Cache-Control", "no-store")
            next_url = self.get_argument("next", default=self.base_url)
            self.write(login_html(next_url, self.xsrf_form_html(), failed=bool(message)))

    class KernelList(APIHandler):
        """``GET /api/kernels``: the caller's own page kernels (read-only; none is started here)."""

        @tornado.web.authenticated
        def get(self):
            km, out = self.kernel_manager, []
            for kernel_id in self.settings["vtsmodel_sessions"].kernels_of(session_of(self)):
                try:
                    out.append(km.kernel_model(kernel_id))
                except Exception:  # noqa: BLE001 - stopped meanwhile, or still starting
                    continue
            self.finish(json.dumps(out, default=str))

    class Status(APIHandler):
        """``GET /api/vtsmodel/status``: how full the app is, in counts (no kernel ids)."""

        @tornado.web.authenticated
        def get(self):
            record, km = self.settings["vtsmodel_sessions"], self.kernel_manager
            record.prune(km.list_kernel_ids())
            live = len(km.list_kernel_ids())
            self.set_header("Cache-Control", "no-store")
            self.finish(json.dumps({**record.status(), "kernels": live, "ready": live - len(record.claims)}))

    replaced = {
        TornadoVoilaHandler: PageHandler,
        VoilaLoginHandler: LoginPage,
        VoilaKernelWebsocketHandler: PageChannels,
        KernelHandler: OwnKernel,
        VoilaShutdownKernelHandler: OwnShutdown,
    }

    class SecuredVoila(Voila):
        notebooks_dir = ""
        extra_hosts: tuple[str, ...] = ()
        sessions: sessions.Sessions | None = None

        def init_handlers(self):
            out = []
            for rule in super().init_handlers():
                pattern, cls = rule[0], rule[1]
                if cls is TornadoVoilaTreeHandler:
                    out.append((pattern, IndexHandler if pattern == self.server_url else ToIndex))
                elif cls is RequestInfoSocketHandler:
                    continue  # unauthenticated; only for notebooks that wait for their request
                elif cls is FileFindHandler:  # the extensions' bundles: versioned ones cached (static_cache)
                    out.append((pattern, VersionedFileHandler, *rule[2:]))
                else:
                    out.append((pattern, replaced.get(cls, cls), *rule[2:]))
            # What a page loads (page_assets): Voila's bundles at a versioned URL, and plotly.js.
            versioned = page_assets.static_prefix(self.voila_configuration.template)
            bundles = {"paths": self.static_paths, "default_filename": None}
            out.insert(0, (f"{self.server_url}voila/static/{versioned}/(.*)", VersionedVoilaStatic, bundles))
            bundle = page_assets.plotly_bundle()
            (self.log.info if bundle.partial else self.log.warning)(bundle.note)
            out.insert(
                0, (page_assets.plotly_route(self.server_url), PlotlyScript, {"path": str(bundle.folder)})
            )
            out.insert(0, (f"{self.server_url}api/kernels/?", KernelList))
            out.insert(0, (f"{self.server_url}api/vtsmodel/status/?", Status))
            return out

        def start(self):
            # Voila.start with the Host-checked application (Voila 0.5.13, app.py).
            import tempfile

            self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
            settings = self.init_settings()
            self.kernel_manager.sessions = self.sessions
            settings["vtsmodel_hosts"] = allowed_hosts(self.ip, self.port, self.extra_hosts)
            settings["vtsmodel_notebooks"] = self.notebooks_dir
            settings["vtsmodel_sessions"] = self.sessions
            self.app = HostCheckedApplication(**settings)
            self.app.settings.update(self.tornado_settings)
            self.app.add_handlers(".*$", self.init_handlers())
            IOLoop.current().add_callback(self._announce)
            self.listen()

        def _announce(self):
            # The first callback once listening: the port is the one Voila took.
            self.app.settings["vtsmodel_hosts"] = allowed_hosts(self.ip, self.port, self.extra_hosts)
            url = start_url(self.ip, self.port, self.identity_provider.token)
            record = self.sessions
            print(
                f"\nvtsmodel app: open\n\n    {url}\n\n"
                "The token in it is the key to this app: share it only with those who may use it.\n"
                f"Each browser that opens it gets its own lesson kernels: at most {record.cap} lesson "
                f"pages open at once, {record.per_session} per browser (--max-kernels, --session-kernels).\n"
                + (
                    f"Files saved on the server go to {os.environ[savedir.ENV_VAR]}.\n"
                    if os.environ.get(savedir.ENV_VAR)
                    else ""
                )
                + "Stop with Ctrl+C.\n",
                flush=True,
            )

    return SecuredVoila, SessionKernelManager


class _Quiet(logging.Filter):
    """Drops the log records that are expected (:data:`_QUIET`, :data:`_QUIET_START`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.msg
        return not (msg in _QUIET or (isinstance(msg, str) and msg.startswith(_QUIET_START)))


def quiet_logs(app_log: logging.Logger | None = None) -> None:
    """Drop the expected log lines (:class:`_Quiet`) from tornado's general log and the app's log (if given).

    A class's servers under JupyterHub call it without an app log (``deploy/jupyterhub``).
    """
    quiet = _Quiet()
    for log in (logging.getLogger("tornado.general"), *([app_log] if app_log is not None else [])):
        if not any(isinstance(f, _Quiet) for f in log.filters):
            log.addFilter(quiet)


def kernel_environment(save_dir: Path | None) -> None:
    """Set what the kernels the app starts inherit.

    The app's mark (:mod:`vtsmodel.app.kernelgc`), the save folder (the launcher's, or none)
    and the page templates.
    """
    os.environ[kernelgc.ENV_VAR] = "1"
    if save_dir is not None:
        os.environ[savedir.ENV_VAR] = str(save_dir)
    else:
        os.environ.pop(savedir.ENV_VAR, None)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p
    )


def main(argv: list[str] | None = None) -> int:
    """Start the app; return the exit status (2 for bad options or no free port)."""
    try:
        opts = parse_args(argv)
        token = _check_token(os.environ.pop(TOKEN_ENV, "") or make_token())
        port = free_port_from(opts.ip, opts.port, PORT_TRIES)
    except ValueError as exc:
        print(f"vtsmodel app: {exc}", file=sys.stderr)
        return 2
    if port != opts.port:
        print(
            f"vtsmodel app: port {opts.port} is in use (another app running?); serving on port {port}.",
            file=sys.stderr,
        )
    ready = opts.pool_size * len(lessons(opts.notebooks))
    cap = opts.max_kernels or sessions.default_cap(sessions.available_memory_mb(), ready)
    kernel_environment(opts.save_dir)
    app_class, kernel_manager_class = _app_class()
    config = voila_config(replace(opts, port=port), token)
    config.VoilaConfiguration.multi_kernel_manager_class = kernel_manager_class
    app = app_class(config=config)
    app.notebooks_dir = str(opts.notebooks)
    app.extra_hosts = opts.extra_hosts
    app.sessions = sessions.Sessions(
        cap=cap, per_session=min(opts.session_kernels, cap), connect_grace_s=opts.connect_grace_s
    )
    quiet_logs(app.log)
    os.chdir(opts.notebooks)  # kernels start here, as the lessons expect
    app.initialize([str(opts.notebooks)])
    app.start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
