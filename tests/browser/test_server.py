"""The app server (``python -m vtsmodel.app.serve``, what ``make app`` runs), as a client sees it.

- Without the token, or with a ``Host`` that is not the served one, every request is
  refused (raw HTTP requests, so the browser's own rules do not hide anything).
- A page's kernel stops when the page closes (the page's shutdown beacon carries the
  ``_xsrf`` cookie the launcher sets); 20 visits leave only the preheated pool running.
- Kernels with no page connected are culled; the kernel of an open page is not.
- The page gives the server no path: no control of a lesson page writes or probes a file
  outside the save folder the server was started with.
"""

from __future__ import annotations

import datetime
import http.client
import json
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from .conftest import (
    APP_TOKEN,
    NOTEBOOKS,
    RENDER_TIMEOUT_MS,
    PageWatch,
    app_command,
    app_env,
    free_port,
    ready_url,
    served,
    wait_rendered,
    with_token,
)

pytestmark = pytest.mark.browser

LESSON = "01_sustained_vs_peak_write.ipynb"
START = "00_start_here.ipynb"


def _request(base: str, path: str, *, method="GET", host=None, headers=None, body=None):
    """One raw HTTP request (no redirects followed): status, headers, body."""
    u = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
    h = dict(headers or {})
    if host is not None:
        h["Host"] = host
    try:
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def _kernels(base: str, token: str = APP_TOKEN) -> list[dict]:
    status, _, body = _request(base, f"/api/kernels?token={token}")
    assert status == 200, (status, body[:200])
    return json.loads(body)


def _kernel_id(page) -> str:
    return page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )


def _wait_kernels(base: str, predicate, timeout_s: float, what: str) -> list[dict]:
    deadline = time.monotonic() + timeout_s
    while True:
        ks = _kernels(base)
        if predicate(ks):
            return ks
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout_s:.0f} s; kernels: {ks}")
        time.sleep(0.5)


# --- token ---------------------------------------------------------------------------
def test_requests_without_the_token_are_refused(voila_url):
    port = urllib.parse.urlparse(voila_url).port
    before = {k["id"] for k in _kernels(voila_url)}
    fake = str(uuid.uuid4())
    for token in (None, "wrong-" + APP_TOKEN[6:], APP_TOKEN[:-1]):
        q = f"?token={token}" if token else ""
        # Pages: sent to the login page, which shows no lesson.
        for path in ("/", f"/voila/render/{LESSON}", "/voila/tree"):
            status, headers, _ = _request(voila_url, path + q)
            assert status == 302, (path, token, status)
            assert urllib.parse.urlparse(headers["Location"]).path == "/login", headers["Location"]
        # APIs and the kernel channels: 403.
        for method, path in (
            ("GET", "/api/kernels"),
            ("GET", f"/api/kernels/{fake}"),
            ("DELETE", f"/api/kernels/{fake}"),
            ("POST", f"/voila/api/shutdown/{fake}"),
            ("GET", f"/api/kernels/{fake}/channels"),
        ):
            status, _, body = _request(voila_url, path + q, method=method)
            assert status == 403, (method, path, token, status, body[:200])
    status, _, body = _request(voila_url, "/login", host=f"127.0.0.1:{port}")
    assert status == 200 and b"needs its token" in body and b"Lesson" not in body
    assert {k["id"] for k in _kernels(voila_url)} == before, "a request without the token started a kernel"


def test_login_page_takes_the_token_and_nothing_else(browser, voila_url):
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page)
    try:
        page.goto(f"{voila_url}/voila/render/{START}")
        assert urllib.parse.urlparse(page.url).path == "/login"
        page.fill("input[name=password]", "not-the-token-" + "x" * 30)
        page.click("button[type=submit]")
        page.wait_for_selector("text=That is not this app's token")
        page.fill("input[name=password]", APP_TOKEN)
        page.click("button[type=submit]")
        wait_rendered(page, plots=False)  # back to the page asked for
        assert urllib.parse.urlparse(page.url).path == f"/voila/render/{START}"
        # The 401 of the wrong token is the one console error; nothing else.
        assert all("401" in e for e in watch.console_errors), watch.console_errors
        assert not watch.external and not watch.page_errors
    finally:
        context.close()


# --- Host ----------------------------------------------------------------------------
def test_requests_with_a_foreign_host_are_refused(voila_url):
    port = urllib.parse.urlparse(voila_url).port
    static = "/voila/templates/vtsmodel/static/index.css"
    paths = [("GET", f"/?token={APP_TOKEN}"), ("GET", f"/api/kernels?token={APP_TOKEN}"),
             ("GET", f"/voila/render/{START}?token={APP_TOKEN}"), ("GET", "/login"), ("GET", static),
             ("POST", f"/voila/api/shutdown/{uuid.uuid4()}?token={APP_TOKEN}")]  # fmt: skip
    # The served names pass (so a 403 below is the Host's doing).
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        assert _request(voila_url, f"/api/kernels?token={APP_TOKEN}", host=host)[0] == 200, host
        assert _request(voila_url, static, host=host)[0] == 200, host
    foreign = [
        f"evil.example:{port}",  # DNS rebinding: a name the attacker controls, resolving to 127.0.0.1
        "evil.example",
        f"127.0.0.1.nip.io:{port}",
        f"localhost.evil.example:{port}",
        f"127.0.0.1:{port + 1}",
        "127.0.0.1",
        f"[::1]:{port}",
        "",
    ]
    before = {k["id"] for k in _kernels(voila_url)}
    for host in foreign:
        for method, path in paths:
            status, _, body = _request(voila_url, path, method=method, host=host)
            assert status == 403, (host, method, path, status)
            assert b"vtsmodel" not in body and b"token" not in body.lower()
    # The websocket handshake of a kernel channel, too.
    ws = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://evil.example"}  # fmt: skip
    status, _, _ = _request(
        voila_url, f"/api/kernels/{uuid.uuid4()}/channels?token={APP_TOKEN}", host=foreign[0], headers=ws
    )
    assert status == 403
    assert {k["id"] for k in _kernels(voila_url)} == before, "a foreign-Host request started a kernel"


# --- XSRF and the page's kernel --------------------------------------------------------
def _login_cookies(base: str) -> dict[str, str]:
    """Cookies a browser holds after opening the start URL and one lesson page."""
    jar: dict[str, str] = {}

    def keep(headers):
        for raw in headers.get_all("Set-Cookie") or []:
            name, _, rest = raw.partition("=")
            jar[name] = rest.split(";", 1)[0]

    status, headers, _ = _request(base, f"/?token={APP_TOKEN}")
    assert status == 302 and headers["Location"] == "/"
    keep(headers)
    cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
    status, headers, body = _request(base, f"/voila/render/{START}", headers={"Cookie": cookie})
    assert status == 200, body[:300]
    keep(headers)
    assert "_xsrf" in jar, "the lesson page did not set the _xsrf cookie its shutdown beacon sends"
    page_config = body.split(b'id="jupyter-config-data" type="application/json">', 1)[1]
    jar["kernel"] = json.loads(page_config.split(b"</script>", 1)[0])["kernelId"]
    return jar


def test_page_kernel_shutdown_needs_the_xsrf_token(voila_url):
    """What the page's beacon sends (cookie login, ``_xsrf`` form field) stops its kernel;
    without the field, or with another value, it is refused, as before the fix."""
    port = urllib.parse.urlparse(voila_url).port
    jar = _login_cookies(voila_url)
    kernel = jar.pop("kernel")
    assert kernel in {k["id"] for k in _kernels(voila_url)}
    cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
    form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Origin": voila_url}
    for body in ("", "_xsrf=", "_xsrf=2|00000000|00000000000000000000000000000000|0"):
        status, _, reply = _request(
            voila_url, f"/voila/api/shutdown/{kernel}", method="POST", headers=form, body=body
        )
        assert status == 403, (body, status, reply[:200])
    assert kernel in {k["id"] for k in _kernels(voila_url)}
    # Cross-origin, even with the right token in the form: refused.
    xsrf = urllib.parse.unquote(jar["_xsrf"].strip('"'))
    good = urllib.parse.urlencode({"_xsrf": xsrf})
    status, _, _ = _request(
        voila_url,
        f"/voila/api/shutdown/{kernel}",
        method="POST",
        headers={**form, "Origin": "http://evil.example"},
        body=good,
        host=f"127.0.0.1:{port}",
    )
    assert status in (403, 404)
    status, _, reply = _request(
        voila_url, f"/voila/api/shutdown/{kernel}", method="POST", headers=form, body=good
    )
    assert status == 204, reply[:200]
    _wait_kernels(voila_url, lambda ks: kernel not in {k["id"] for k in ks}, 30, "the kernel stops")


#: The page is loaded and Voila's widget manager is active: it registers, in the same
#: step, the ``beforeunload`` handler that sends the kernel's shutdown beacon.
_PAGE_ACTIVE = (
    "() => document.readyState === 'complete' && !!(window.jupyterapp && window.jupyterapp.widgetManager)"
)


def _visit(page, base: str, notebook: str) -> str:
    """Open a lesson; return its kernel's id once the page can close it."""
    page.goto(f"{base}/voila/render/{notebook}", timeout=RENDER_TIMEOUT_MS)
    try:
        page.wait_for_function(_PAGE_ACTIVE, timeout=RENDER_TIMEOUT_MS)
    except Exception as exc:  # noqa: BLE001 - name the lesson that did not load
        pytest.fail(f"{notebook} did not finish loading: {exc}")
    return _kernel_id(page)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_twenty_visits_leave_only_the_preheated_pool(browser, tmp_path, artifacts_dir):
    """Open and close lessons 20 times (closing the tab, or leaving for the start page):
    afterwards the live kernels are the preheated pool again, one per notebook."""
    notebooks = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = app_command(port, preheat=True)
    with served("app-preheated", cmd, ready_url(base), env=app_env()):
        pool = _wait_kernels(base, lambda ks: len(ks) >= len(notebooks), 600, "the pool fills")
        assert len(pool) == len(notebooks)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.new_page().goto(with_token(f"{base}/"))  # logs in, as the printed URL does
        visited, counts = [], []
        for i in range(20):
            page = context.new_page()
            visited.append(_visit(page, base, notebooks[i % len(notebooks)]))
            if i % 2:
                page.close(run_before_unload=True)  # the tab is closed
            else:
                page.goto(f"{base}/")  # the reader goes back to the start page
                page.close(run_before_unload=True)
            counts.append(len(_kernels(base)))
        final = _wait_kernels(
            base,
            lambda ks: len(ks) == len(notebooks) and not {k["id"] for k in ks} & set(visited),
            300,
            "the visits' kernels stop and the pool refills",
        )
        context.close()
    (artifacts_dir / "server-kernels-20-visits.txt").write_text(
        f"pool {len(pool)}; live kernels after each visit closed: {counts}; at the end: {len(final)}\n"
    )
    assert len(set(visited)) == 20, "two visits shared a kernel"


@pytest.mark.slow
def test_idle_kernels_without_a_page_are_culled_and_open_pages_kept(browser):
    # Every wait is on the server's own record (its kernels and their last activity), never
    # on a fixed time: a loaded machine only makes the waits longer.
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    idle_s = 4
    cmd = app_command(port, extra=[f"--cull-idle-timeout={idle_s}"])
    with served("app-cull", cmd, ready_url(base), env=app_env()):
        kept = browser.new_context()
        page = kept.new_page()
        page.goto(with_token(f"{base}/"))
        open_kernel = _visit(page, base, START)
        lost = browser.new_context()
        lost_page = lost.new_page()
        lost_page.goto(with_token(f"{base}/"))
        orphan = _visit(lost_page, base, START)
        lost.close()  # like a browser that crashed: no beforeunload, no shutdown beacon
        # the orphan is culled, and not before it had been idle for the timeout: its last
        # activity as the server last reported it, against the first poll that finds it gone
        last = {}

        def orphan_gone(ks):
            k = next((k for k in ks if k["id"] == orphan), None)
            if k is not None:
                last["activity"] = _utc(k["last_activity"])
            return k is None

        _wait_kernels(base, orphan_gone, 120, "the orphaned kernel is culled")
        idle_for = (_now() - last["activity"]).total_seconds()
        assert idle_for >= idle_s - 0.5, f"culled after {idle_for:.1f} s idle (timeout {idle_s} s)"

        # the open page's kernel stays, though idle for several timeouts: connected kernels are kept
        def open_kept_while_idle(ks):
            k = {k["id"]: k for k in ks}.get(open_kernel)
            assert k is not None, "the kernel of an open page was culled"
            assert k["connections"] >= 1, k
            return (_now() - _utc(k["last_activity"])).total_seconds() >= 3 * idle_s

        _wait_kernels(base, open_kept_while_idle, 180, "the open page's kernel idle for 3 timeouts")
        kept.close()


def _utc(text: str) -> datetime.datetime:
    """A time the Jupyter server reports (ISO 8601, UTC)."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


# --- no path from the page -------------------------------------------------------------
#: Every box a user can type text into.
TEXT_BOXES = (
    "input:not([type=range]):not([type=checkbox]):not([type=radio]):not([type=button])"
    ":not([type=file]):not([type=hidden]), textarea"
)
#: Buttons that could read or write a file (a download or an upload reads none on the server).
FILE_BUTTONS = ("save", "load", "export csv", "open", "write", "upload")


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _page_text(page) -> str:
    return page.evaluate("() => (document.querySelector('#rendered_cells') || document.body).innerText")


@pytest.mark.timeout(900)
def test_no_control_takes_a_server_path(open_lesson, save_dir, tmp_path, artifacts_dir):
    """Lesson 01 with its scenario sheet (the one sheet widget every lesson uses): every
    text box given paths outside the save folder the server was started with (absolute,
    ``..``, a symlink in the save folder pointing out), and every file button pressed after
    each: nothing is written outside, the outside file is never read, and the page says
    the same whether the outside file exists or not. With no text box at all, the page
    has no control that could take a path; the helper that names files inside the save
    folder is tested in tests/test_savedir.py."""
    outside = tmp_path / "outside"
    outside.mkdir()
    marker = f"OUTSIDE-{uuid.uuid4().hex}"
    (outside / "exists.json").write_text(
        json.dumps({"version": 1, "lesson": "01", "scenarios": [{"name": marker}]})
    )
    link = save_dir / "escape"
    link.unlink(missing_ok=True)
    link.symlink_to(outside, target_is_directory=True)
    before = _tree(outside)
    targets = [
        str(outside / "written.json"),
        str(outside / "new" / "deep" / "written.json"),
        f"{save_dir}/../{outside.name}/written.json",
        "../" * 12 + str(outside / "written.json").lstrip("/"),
        "escape/written.json",
    ]
    probes = [str(outside / "exists.json"), str(outside / "missing.json")]
    served_files = set(NOTEBOOKS.rglob("*"))  # the kernels' working folder
    page = open_lesson(LESSON)
    tried: list[str] = []
    try:
        for i in range(page.locator(TEXT_BOXES).count()):
            box = page.locator(TEXT_BOXES).nth(i)
            if not (box.is_visible() and box.is_editable()):
                continue
            label = box.evaluate(
                "e => (e.closest('.widget-inline-hbox, .widget-text, .widget-textarea')?.innerText"
                " || e.placeholder || e.name || '').trim()"
            )
            replies = {}
            for text in targets + probes:
                box.fill(text)
                box.press("Enter")
                buttons = page.locator("button.jupyter-button")
                pressed = []
                for j in range(buttons.count()):
                    b = buttons.nth(j)
                    if b.is_visible() and b.inner_text().strip().lower() in FILE_BUTTONS:
                        b.click()
                        pressed.append(b.inner_text().strip())
                        page.wait_for_timeout(500)
                tried.append(f"box {i} ({label!r}) <- {text!r}; pressed {pressed}")
                if text in probes:
                    replies[text] = (
                        _page_text(page).replace(text, "<path>").replace(Path(text).name, "<name>")
                    )
            assert replies[probes[0]] == replies[probes[1]], (
                f"box {i} ({label!r}): the page tells whether a file outside the save folder exists"
            )
        assert _tree(outside) == before, f"the page wrote outside the save folder: {sorted(_tree(outside))}"
        assert marker not in _page_text(page), "the page read a file outside the save folder"
        new = sorted(str(p.relative_to(NOTEBOOKS)) for p in set(NOTEBOOKS.rglob("*")) - served_files)
        assert not new, f"the page wrote into the served notebooks folder: {new}"
    finally:
        link.unlink()
        for p in sorted(
            set(NOTEBOOKS.rglob("*")) - served_files, reverse=True
        ):  # leave the checkout as it was
            p.rmdir() if p.is_dir() and not p.is_symlink() else p.unlink()
        (artifacts_dir / "server-no-path-controls.txt").write_text(
            "\n".join(tried or ["no text box on the page: no control can take a path"]) + "\n"
        )
