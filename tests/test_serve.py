"""The app launcher's pure parts: options, Host allow-list, start URL, start page, configuration.

The server itself, as a client sees it, is tested in tests/browser/test_server.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vtsmodel.app import serve

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


# --- options ---------------------------------------------------------------------------
def test_defaults_serve_on_loopback_with_no_save_folder(tmp_path):
    opts = serve.parse_args([str(tmp_path)])
    assert opts.ip == "127.0.0.1" and opts.port == 8866
    assert opts.save_dir is None, "a server-side folder must be chosen, never a default"
    assert opts.pool_size == 1 and opts.cull_idle_s == serve.CULL_IDLE_S
    assert opts.show_tracebacks is False
    assert opts.max_kernels is None, "sized from the machine's memory at start"
    assert opts.session_kernels == 5 and opts.connect_grace_s == 60
    assert opts.refill_delay_s == serve.REFILL_DELAY_S == 10.0


def test_save_dir_must_be_an_existing_folder(tmp_path):
    assert serve.parse_args([str(tmp_path), "--save-dir", str(tmp_path)]).save_dir == tmp_path.resolve()
    with pytest.raises(ValueError, match="--save-dir=.*not an existing folder"):
        serve.parse_args([str(tmp_path), "--save-dir", str(tmp_path / "missing")])
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="--save-dir="):
        serve.parse_args([str(tmp_path), "--save-dir", str(tmp_path / "file")])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port=0"),
        (["--port", "70000"], "--port=70000"),
        (["--pool-size", "-1"], "--pool-size=-1"),
        (["--pool-size", "9"], "--pool-size=9"),
        (["--ip", "example.org"], "--ip='example.org'"),
        (["--cull-idle-timeout", "0"], "--cull-idle-timeout=0"),
        (["--allow-host", "evil/x"], "--allow-host='evil/x'"),
        (["--max-kernels", "0"], "--max-kernels=0"),
        (["--session-kernels", "0"], "--session-kernels=0"),
        (["--connect-grace", "0"], "--connect-grace=0.0"),
        (["--connect-grace", "nan"], "--connect-grace=nan"),
        (["--refill-delay", "-1"], "--refill-delay=-1.0"),
        (["--refill-delay", "601"], "--refill-delay=601.0"),
        (["--refill-delay", "nan"], "--refill-delay=nan"),
    ],
)
def test_bad_options_are_named_as_typed(tmp_path, args, message):
    """The launcher is a command: its messages name its flags, not Python names."""
    with pytest.raises(ValueError, match=re.escape(message)):
        serve.parse_args([str(tmp_path), *args])


def test_missing_notebooks_folder_is_named(tmp_path):
    with pytest.raises(ValueError, match="NOTEBOOKS .*not a folder"):
        serve.parse_args([str(tmp_path / "nope")])


def test_main_refuses_bad_options_and_weak_tokens_before_serving(tmp_path, monkeypatch, capsys):
    assert serve.main([str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
    for weak in ("short", "x" * 21, "has space in it and is long enough", "tok/with/slashes/long-enough"):
        monkeypatch.setenv(serve.TOKEN_ENV, weak)
        assert serve.main([str(tmp_path)]) == 2
        assert serve.TOKEN_ENV in capsys.readouterr().err


# --- token, Host, URL ------------------------------------------------------------------
def test_tokens_are_new_long_and_url_safe():
    tokens = {serve.make_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(re.fullmatch(r"[A-Za-z0-9_\-]{43}", t) for t in tokens)


def test_start_url_carries_the_token_like_jupyterlab():
    assert serve.start_url("127.0.0.1", 8866, "abc_-1") == "http://127.0.0.1:8866/?token=abc_-1"
    assert serve.start_url("::1", 8866, "t") == "http://[::1]:8866/?token=t"


def test_allowed_hosts_are_the_served_name_and_port_only():
    hosts = serve.allowed_hosts("127.0.0.1", 8866)
    assert hosts == {"127.0.0.1:8866", "localhost:8866"}
    for good in ("127.0.0.1:8866", "localhost:8866", "LOCALHOST:8866"):
        assert serve.host_allowed(good, hosts), good
    for bad in (
        "evil.example:8866",  # DNS rebinding
        "evil.example",
        "127.0.0.1",  # no port: not the served one
        "127.0.0.1:8867",
        "localhost.evil.example:8866",
        "127.0.0.1.nip.io:8866",
        "[::1]:8866",
        "",
        None,
    ):
        assert not serve.host_allowed(bad, hosts), bad


def test_allowed_hosts_for_another_address_and_extra_names():
    assert serve.allowed_hosts("192.0.2.7", 80) == {"192.0.2.7:80"}  # no localhost off loopback
    assert serve.allowed_hosts("192.0.2.7", 80, ("Lab.Example",)) == {"192.0.2.7:80", "lab.example:80"}
    assert serve.allowed_hosts("::1", 8866) == {"[::1]:8866", "localhost:8866"}


def test_cull_interval_is_a_tenth_of_the_timeout_within_1_to_60_s():
    assert serve.cull_interval(serve.CULL_IDLE_S) == 60
    assert serve.cull_interval(4) == 1
    assert serve.cull_interval(200) == 20
    assert serve.cull_interval(86_400) == 60


# --- Voila configuration ---------------------------------------------------------------
def test_voila_config_requires_the_token_and_checks_hosts_and_xsrf(tmp_path):
    opts = serve.parse_args([str(tmp_path)])
    c = serve.voila_config(opts, "T" * 43)
    assert c.Voila.token == "T" * 43
    assert c.Voila.ip == "127.0.0.1" and c.Voila.port == 8866 and c.Voila.port_retries == serve.PORT_TRIES
    assert c.Voila.config_file_paths == [], "a voila.json in the working folder could loosen this"
    settings = c.Voila.tornado_settings
    assert settings["allow_remote_access"] is False
    assert settings["local_hostnames"] == ["localhost"]
    assert settings["xsrf_cookies"] is True  # XSRF stays on
    assert "disable_check_xsrf" not in settings
    assert c.PasswordIdentityProvider.allow_password_change is False
    assert c.VoilaConfiguration.template == "vtsmodel"
    assert c.VoilaConfiguration.preheat_kernel is True and c.VoilaConfiguration.default_pool_size == 1


def test_the_pool_replaces_a_taken_kernel_after_the_refill_delay(tmp_path):
    """Voila's kernel manager takes the launcher's delay (its own default, 1 s, preheated the
    next kernel beside the page still loading)."""
    import traitlets
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    cls = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    for argv, delay in (([], 10.0), (["--refill-delay", "2.5"], 2.5), (["--refill-delay", "0"], 0.0)):
        c = serve.voila_config(serve.parse_args([str(tmp_path), *argv]), "T" * 43)
        km = cls.__new__(cls)  # its __init__ needs the running app; the config is read here
        traitlets.config.Configurable.__init__(km, config=c)
        assert km.fill_delay == delay, argv


def test_the_kernel_websocket_sends_each_message_at_once(tmp_path, monkeypatch):
    """With Nagle's algorithm on, a slider's reply waited up to 40 ms for a delayed ACK."""
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
    from traitlets.utils.importstring import import_item

    c = serve.voila_config(serve.parse_args([str(tmp_path)]), "T" * 43)
    cls = import_item(c.Voila.kernel_websocket_connection_class)
    assert issubclass(cls, ZMQChannelsWebsocketConnection)

    calls = []

    class Handler:
        def set_nodelay(self, value):
            calls.append(("nodelay", value))

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: calls.append(("connect",)))
    conn = cls.__new__(cls)
    conn._trait_values["websocket_handler"] = Handler()
    conn.connect()
    assert calls == [("nodelay", True), ("connect",)]


def test_voila_config_culls_idle_kernels_with_no_page_only(tmp_path):
    c = serve.voila_config(serve.parse_args([str(tmp_path), "--pool-size", "0"]), "T" * 43)
    mkm = c.MappingKernelManager
    assert mkm.cull_idle_timeout == serve.CULL_IDLE_S == 600
    assert mkm.cull_interval == 60
    assert mkm.cull_connected is False, "an open page's kernel must never be culled"
    assert mkm.cull_busy is False
    assert c.VoilaConfiguration.preheat_kernel is False


# --- the start page --------------------------------------------------------------------
def _notebook(path: Path, first_cell: str) -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": first_cell.splitlines(keepends=True)}]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


def test_lessons_are_listed_in_order_with_title_and_question(tmp_path):
    _notebook(
        tmp_path / "02_b.ipynb", "# Lesson 02: *second*\n\n**The question.** How `big`\nis **it**?\n\nMore."
    )
    _notebook(tmp_path / "01_a.ipynb", "# Lesson 01: first\n\nNo question here.")
    (tmp_path / "03_broken.ipynb").write_text("{not json")
    (tmp_path / "notes.ipynb").write_text("{}")  # not NN_name: not a lesson
    (tmp_path / "04_x.txt").write_text("")
    got = serve.lessons(tmp_path)
    assert got == [
        serve.Lesson("01_a.ipynb", "Lesson 01: first", ""),
        serve.Lesson("02_b.ipynb", "Lesson 02: second", "How big is it?"),
        serve.Lesson("03_broken.ipynb", "03_broken", ""),
    ]


def test_every_lesson_notebook_gives_the_start_page_its_question():
    got = serve.lessons(NOTEBOOKS)
    assert [e.notebook for e in got] == sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert got[0].notebook == "00_start_here.ipynb"
    for e in got[1:]:
        assert e.title.startswith(f"Lesson {e.notebook[:2]}"), e
        assert e.question.endswith("?") or "?" in e.question, e


def test_index_html_escapes_and_links_each_lesson():
    entries = [serve.Lesson("01_a.ipynb", "A <b>&</b>", "Why <script>?"), serve.Lesson("02_b.ipynb", "B", "")]
    page = serve.index_html(entries, "/base/")
    assert "<script>" not in page and "A &lt;b&gt;&amp;&lt;/b&gt;" in page and "Why &lt;script&gt;?" in page
    assert page.count("class='vtsmodel-lesson'") == 2
    assert 'href="/base/voila/render/01_a.ipynb"' in page
    assert "<script" not in page.lower() and "http" not in page, "nothing to fetch, nothing to fail"


def test_login_html_sends_the_token_back_to_the_page_asked_for():
    page = serve.login_html("/voila/render/01_a.ipynb", "<input type='hidden' name='_xsrf' value='x'>")
    assert "action='?next=%2Fvoila%2Frender%2F01_a.ipynb'" in page
    assert "name='_xsrf'" in page and "name='password'" in page
    assert "not this app's token" not in page
    assert "That is not this app's token" in serve.login_html("/", "", failed=True)
    hostile = serve.login_html("'><script>alert(1)</script>", "")
    assert "<script>" not in hostile


# --- sessions, caps and the full page ----------------------------------------------------
def test_cap_options_are_taken(tmp_path):
    opts = serve.parse_args(
        [str(tmp_path), "--max-kernels", "12", "--session-kernels", "3", "--connect-grace", "20"]
    )
    assert (opts.max_kernels, opts.session_kernels, opts.connect_grace_s) == (12, 3, 20.0)


def test_full_page_says_what_happened_and_what_to_do():
    app = serve.full_html("app", 40, "/voila/render/01_a.ipynb", "/")
    assert "The app is full, try again" in app and "40 lesson pages are open" in app
    assert 'href="/voila/render/01_a.ipynb"' in app and 'href="/"' in app
    mine = serve.full_html("session", 5, "/voila/render/01_a.ipynb")
    assert "This browser already has 5 lesson pages open" in mine and "Close a lesson tab" in mine
    hostile = serve.full_html("app", 1, '/x"><script>alert(1)</script>')
    assert "<script>" not in hostile
    assert "<script" not in app.lower() and "http" not in app, "nothing to fetch, nothing to fail"


def test_a_taken_port_gives_the_next_free_one():
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        got = serve.free_port_from("127.0.0.1", port, tries=20)
        assert port < got < port + 20


def test_no_free_port_is_a_message_that_says_what_to_do(monkeypatch, tmp_path, capsys):
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        with pytest.raises(ValueError, match=rf"ports {port} to {port} on 127.0.0.1 are all in use.*--port"):
            serve.free_port_from("127.0.0.1", port, tries=1)
        monkeypatch.setattr(serve, "PORT_TRIES", 1)
        assert serve.main([str(tmp_path), f"--port={port}"]) == 2
        assert "are all in use" in capsys.readouterr().err


def test_kernels_are_reached_over_private_unix_sockets(tmp_path):
    """Not TCP ports any local user could reach: and no "running over TCP without
    encryption" warning for each kernel (nine at each start)."""
    c = serve.voila_config(serve.parse_args([str(tmp_path)]), "T" * 43)
    assert c.KernelManager.transport == "ipc"
    assert serve.ipc_fits(c.Voila.connection_dir_root)


def test_unix_sockets_only_where_their_paths_fit(monkeypatch):
    """ZeroMQ refuses a socket path over 107 characters (Linux): a long temporary folder
    (macOS's /var/folders/...) would leave every kernel unable to start."""
    assert serve.ipc_fits("/tmp") and serve.ipc_fits("/home/alice/.local/share/jupyter/runtime", prefix=0)
    assert not serve.ipc_fits("/var/folders/" + "x" * 40 + "/T")
    monkeypatch.setattr("tempfile.gettempdir", lambda: "/var/folders/" + "x" * 40 + "/T")
    assert serve.connection_root() == "/tmp", "a short folder instead of the long one"
    monkeypatch.setattr(serve, "ipc_fits", lambda folder, **kw: False)
    c = serve.voila_config(serve.parse_args(["/tmp"]), "T" * 43)
    assert "transport" not in c.KernelManager, "TCP on 127.0.0.1 where no socket path fits"


def test_expected_log_lines_are_quiet_and_the_rest_kept():
    import logging

    quiet = serve._Quiet()

    def record(msg, *args, level=logging.WARNING):
        return logging.LogRecord("SecuredVoila", level, __file__, 1, msg, args, None)

    assert not quiet.filter(record("Notebook %s is not trusted", "01_a.ipynb"))
    # tornado's line as it formats it (tornado.websocket.WebSocketProtocol13.ping_timeout)
    ping = (
        "The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval (30000)."
        "\nSetting websocket_ping_timeout=30000"
    )
    assert not quiet.filter(record(ping))
    assert quiet.filter(record("WebSocket ping timeout after %i ms.", 95000)), "a real ping timeout is kept"
    assert quiet.filter(record("Culling '%s' kernel '%s' (%s)", "idle", "python3", "x"))
    assert quiet.filter(record("Refused %s: %s", "/voila/render/01_a.ipynb", "app cap"))


def test_the_app_quiets_its_own_log_and_tornados(monkeypatch):
    import logging

    app_log, general = logging.getLogger("vtsmodel-test-app"), logging.getLogger("tornado.general")
    monkeypatch.setattr(app_log, "filters", [])
    monkeypatch.setattr(general, "filters", [])
    serve.quiet_logs(app_log)
    serve.quiet_logs(app_log)  # once each, however often it is called
    for log in (app_log, general):
        assert [type(f) for f in log.filters] == [serve._Quiet], log.name


def test_the_kernel_websocket_still_gives_its_ping_settings_in_ms():
    """What :data:`~vtsmodel.app.serve._QUIET_START` quiets: the kernel websocket's ping settings are
    jupyter_server's, in ms, where tornado reads its own (seconds). Fails once that changes upstream."""
    from jupyter_server.base.websocket import WebSocketMixin
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

    assert KernelWebsocketHandler.ping_interval is WebSocketMixin.ping_interval
    assert KernelWebsocketHandler.ping_timeout is WebSocketMixin.ping_timeout

    class Handler(WebSocketMixin):
        settings: dict = {}

    h = Handler()
    assert (h.ping_interval, h.ping_timeout) == (30000, 90000), "ms, where tornado's are seconds"
