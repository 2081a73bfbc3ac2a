"""Browser harness: the app launcher serving notebooks/ on 127.0.0.1, driven by Playwright + Chromium.

Every test runs against the server as ``make app`` starts it (``python -m
vtsmodel.app.serve``): token required, Host allow-list, XSRF on. Pages are opened with
``?token=`` as a user opens the printed URL; the browser keeps the login cookie.

No browser is downloaded: the tests use a Chromium that is already installed (see
``vtsmodel.app._browser``); with none, they fail with instructions, never skip.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from vtsmodel.app._browser import HOW_TO_GET, find_chromium

from .helpers import cut_labels

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
#: How long a lesson may take to render (kernel start plus running every cell).
RENDER_TIMEOUT_MS = 180_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status < 500:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url} within {timeout:.0f} s")


#: The token of every app server the tests start (new each session; given to the launcher
#: in its environment, as ``$VTSMODEL_APP_TOKEN``, never on a command line).
APP_TOKEN = secrets.token_urlsafe(32)


def app_command(port: int, *, preheat: bool = False, save_dir: Path | None = None, extra=()) -> list[str]:
    """The command that serves the lessons on 127.0.0.1 as ``make app`` does (the launcher)."""
    cmd = [
        sys.executable,
        "-m",
        "vtsmodel.app.serve",
        str(NOTEBOOKS),
        f"--port={port}",
        f"--pool-size={1 if preheat else 0}",
        "--show-tracebacks",
        "--log-level=WARN",
    ]
    if save_dir is not None:
        cmd.append(f"--save-dir={save_dir}")
    return cmd + list(extra)


def app_env(token: str = APP_TOKEN) -> dict[str, str]:
    """The environment of an app server: this session's token."""
    return {**os.environ, "VTSMODEL_APP_TOKEN": token}


def ready_url(base: str, token: str = APP_TOKEN) -> str:
    """A URL that answers 200 once the app serves and accepts ``token``."""
    return f"{base}/api/kernels?token={token}"


def with_token(url: str, token: str = APP_TOKEN) -> str:
    """``url`` with the token, as a user opens the printed start URL."""
    return f"{url}{'&' if '?' in url else '?'}token={token}"


# The names the page benchmark imports.
voila_command = app_command
voila_env = app_env


@contextlib.contextmanager
def served(name: str, cmd: list[str], ready_url: str, *, env: dict | None = None, cwd: Path = NOTEBOOKS):
    """Run a server command until the block ends; fail with its log if it never answers."""
    log = open(Path(os.environ["JUPYTER_RUNTIME_DIR"]).parent / f"{name}.log", "w+")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        try:
            _wait_http(ready_url, proc)
        except RuntimeError as exc:
            log.seek(0)
            pytest.fail(f"{name} did not start ({exc}): {log.read()[-3000:]}")
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        # The server's log, to read when a test of it failed.
        artifacts = ROOT / "test-artifacts"
        artifacts.mkdir(exist_ok=True)
        shutil.copyfile(log.name, artifacts / f"{name}.log")


@pytest.fixture(scope="session")
def save_dir() -> Path:
    """The folder the session's app server was started with (``--save-dir``)."""
    d = Path(os.environ["JUPYTER_RUNTIME_DIR"]).parent / "app-save-dir"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def voila_url(save_dir):
    """Base URL of the app server (the launcher) serving ``notebooks/``; stopped after the session."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with served("app", app_command(port, save_dir=save_dir), ready_url(url), env=app_env()):
        yield url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.fail(HOW_TO_GET)
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


class PageWatch:
    """What a page did: requests leaving the machine, console errors, page errors."""

    def __init__(self, page):
        self.page = page
        self.external: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        page.on("request", self._on_request)
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def _on_request(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL_HOSTS:
            self.external.append(request.url)

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def problems(self) -> list[str]:
        out = [f"request left 127.0.0.1: {u}" for u in self.external]
        out += [f"console error: {t}" for t in self.console_errors]
        out += [f"page error: {t}" for t in self.page_errors]
        return out


def wait_rendered(page, *, plots: bool = True, timeout: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the lesson's panel (and, if asked, a plot) is drawn."""
    page.wait_for_selector(".vtsmodel-panel", timeout=timeout)
    if plots:
        page.wait_for_selector(".vtsmodel-plot .js-plotly-plot .main-svg", timeout=timeout)


def error_outputs(page) -> list[str]:
    """Texts of error outputs in the rendered notebook (tracebacks, stderr)."""
    return page.eval_on_selector_all(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr'], .jp-OutputArea-executeResult .jp-mod-error, "
        ".voila-error, .jp-RenderedText .ansi-red-fg",
        "els => els.map(e => e.innerText)",
    )


#: Voila 0.5.13 asks for widget models before the kernel's states arrive; when the page is
#: busy for more than 2 s, @jupyter-widgets/base-manager gives up ("Error displaying widget:
#: model not found"). The project's template makes get_model wait for the restore
#: (vtsmodel/app/_jupyter/voila/templates/vtsmodel/index.html.j2); this text in the console
#: means that hook is missing or broken.
VOILA_MODEL_NOT_FOUND = "widget model not found"


def wait_widgets_rendered(page, timeout: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until every widget output of the page holds a rendered view (or an error)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll(
              ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.widget-view+json']")]
              .every(e => e.children.length > 0)""",
        timeout=timeout,
    )


def save_screenshots(page, stem: Path) -> None:
    """Save the whole lesson (``stem.png``) and each lesson panel (``stem-panelN.png``).

    Voila scrolls inside the page, so a screenshot shows one screen: the viewport is made
    as tall as the content first (same width), then put back.
    """
    size = page.viewport_size
    tall = page.evaluate(
        "() => Math.max(...[document.querySelector('#rendered_cells'), document.body, "
        "document.documentElement].filter(Boolean).map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": int(min(max(tall, size["height"]), 12_000))})
    try:
        page.wait_for_timeout(1500)  # plots follow the new size (a busy page redraws several)
        page.screenshot(path=f"{stem}.png", full_page=True)
        panels = page.locator(".vtsmodel-panel")
        for i in range(panels.count()):
            panels.nth(i).screenshot(path=f"{stem}-panel{i + 1}.png")
    finally:
        page.set_viewport_size(size)


@pytest.fixture
def open_lesson(browser, voila_url, request, artifacts_dir):
    """Open a lesson in Voila; fail at teardown on external requests or console errors.

    Returns a function ``open_lesson(notebook, *, plots=True) -> Page``. A screenshot of
    every opened page is saved in ``test-artifacts/``.
    """
    opened = []

    def _open(notebook: str, *, plots: bool = True, viewport=(1280, 800)):
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        watch = PageWatch(page)
        page.goto(with_token(f"{voila_url}/voila/render/{notebook}"), timeout=RENDER_TIMEOUT_MS)
        wait_rendered(page, plots=plots)
        wait_widgets_rendered(page)
        opened.append((notebook, context, page, watch))
        errors = error_outputs(page)
        assert not errors, f"{notebook} rendered with error output: {errors}"
        broken = page.locator("text=Error displaying widget").count()
        missing = [t for t in watch.console_errors if VOILA_MODEL_NOT_FOUND in t]
        assert not broken and not missing, (
            f"{notebook}: {broken} widget(s) not displayed, console: {missing[:2]} "
            "(see VOILA_MODEL_NOT_FOUND in tests/browser/conftest.py)"
        )
        cut = cut_labels(page)
        assert not cut, f"{notebook}: controls whose label is cut short: {cut}"
        return page

    yield _open
    problems = []
    for notebook, context, page, watch in opened:
        try:
            name = f"{request.node.name}-{Path(notebook).stem}".replace("/", "_")
            save_screenshots(page, artifacts_dir / name)
        except Exception as exc:  # noqa: BLE001 - a failed screenshot must not hide the real result
            problems.append(f"screenshot failed: {exc}")
        problems += [f"{notebook}: {p}" for p in watch.problems()]
        # Closed as a person closes the tab: the page's beacon stops its kernel (the app
        # caps the kernels of open pages; a context closed outright leaves them to the cull).
        with contextlib.suppress(Exception):
            with page.expect_event("close", timeout=10_000):
                page.close(run_before_unload=True)
        context.close()
    if problems:
        pytest.fail("\n".join(problems))
