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
import os
import re
import shutil
import signal
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest
from plotly.offline import get_plotlyjs_version

from vtsmodel.app import page_assets
from vtsmodel.app.static_cache import COMPILE_HINT, IMMUTABLE

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


def _status(base: str) -> dict:
    """How full the app is: live kernels, page kernels, the caps (counts only)."""
    status, _, body = _request(base, f"/api/vtsmodel/status?token={APP_TOKEN}")
    assert status == 200, (status, body[:200])
    return json.loads(body)


def _cookie(context) -> str:
    """The Cookie header a browser context sends (its login and ``_xsrf`` cookies)."""
    return "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())


def _kernels(base: str, cookie: str) -> list[dict]:
    """The page kernels of the session that ``cookie`` logs in."""
    status, _, body = _request(base, "/api/kernels", headers={"Cookie": cookie})
    assert status == 200, (status, body[:200])
    return json.loads(body)


def _kernel_id(page) -> str:
    return page.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
    )


def _wait_kernels(base: str, cookie: str, predicate, timeout_s: float, what: str) -> list[dict]:
    """Poll a session's page kernels until ``predicate`` holds."""
    deadline = time.monotonic() + timeout_s
    while True:
        ks = _kernels(base, cookie)
        if predicate(ks):
            return ks
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout_s:.0f} s; kernels: {ks}")
        time.sleep(0.5)


def _wait_status(base: str, predicate, timeout_s: float, what: str) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        st = _status(base)
        if predicate(st):
            return st
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout_s:.0f} s; status: {st}")
        time.sleep(0.5)


# --- token ---------------------------------------------------------------------------
def test_requests_without_the_token_are_refused(voila_url):
    port = urllib.parse.urlparse(voila_url).port
    before = _status(voila_url)["kernels"]
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
            ("GET", "/api/vtsmodel/status"),
            ("GET", f"/api/kernels/{fake}"),
            ("DELETE", f"/api/kernels/{fake}"),
            ("POST", f"/voila/api/shutdown/{fake}"),
            ("GET", f"/api/kernels/{fake}/channels"),
        ):
            status, _, body = _request(voila_url, path + q, method=method)
            assert status == 403, (method, path, token, status, body[:200])
    status, _, body = _request(voila_url, "/login", host=f"127.0.0.1:{port}")
    assert status == 200 and b"needs its token" in body and b"Lesson" not in body
    assert _status(voila_url)["kernels"] == before, "a request without the token started a kernel"


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
    before = _status(voila_url)["kernels"]
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
    assert _status(voila_url)["kernels"] == before, "a foreign-Host request started a kernel"


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
    cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
    assert kernel in {k["id"] for k in _kernels(voila_url, cookie)}
    form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Origin": voila_url}
    for body in ("", "_xsrf=", "_xsrf=2|00000000|00000000000000000000000000000000|0"):
        status, _, reply = _request(
            voila_url, f"/voila/api/shutdown/{kernel}", method="POST", headers=form, body=body
        )
        assert status == 403, (body, status, reply[:200])
    assert kernel in {k["id"] for k in _kernels(voila_url, cookie)}
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
    assert kernel not in {k["id"] for k in _kernels(voila_url, cookie)}, "the kernel did not stop"


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
        pool = _wait_status(base, lambda st: st["ready"] >= len(notebooks), 600, "the pool fills")
        assert pool["kernels"] == pool["ready"] == len(notebooks) and pool["page_kernels"] == 0
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
            counts.append(_status(base)["kernels"])
        final = _wait_status(
            base,
            lambda st: st["page_kernels"] == 0 and st["kernels"] == len(notebooks),
            300,
            "the visits' kernels stop and the pool refills",
        )
        assert not _kernels(base, _cookie(context)), "a visit's kernel is still the session's"
        context.close()
    (artifacts_dir / "server-kernels-20-visits.txt").write_text(
        f"pool {pool['ready']}; live kernels after each visit closed: {counts}; at the end: {final['kernels']}\n"
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
        lost_cookie = _cookie(lost)
        lost.close()  # like a browser that crashed: no beforeunload, no shutdown beacon
        # the orphan is culled, and not before it had been idle for the timeout: its last
        # activity as the server last reported it (to its own session), against the first
        # poll that finds it gone
        last = {}

        def orphan_gone(ks):
            k = next((k for k in ks if k["id"] == orphan), None)
            if k is not None:
                last["activity"] = _utc(k["last_activity"])
            return k is None

        _wait_kernels(base, lost_cookie, orphan_gone, 120, "the orphaned kernel is culled")
        idle_for = (_now() - last["activity"]).total_seconds()
        assert idle_for >= idle_s - 0.5, f"culled after {idle_for:.1f} s idle (timeout {idle_s} s)"

        # the open page's kernel stays, though idle for several timeouts: connected kernels are kept
        def open_kept_while_idle(ks):
            k = {k["id"]: k for k in ks}.get(open_kernel)
            assert k is not None, "the kernel of an open page was culled"
            assert k["connections"] >= 1, k
            return (_now() - _utc(k["last_activity"])).total_seconds() >= 3 * idle_s

        _wait_kernels(
            base, _cookie(kept), open_kept_while_idle, 180, "the open page's kernel idle for 3 timeouts"
        )
        kept.close()


def _utc(text: str) -> datetime.datetime:
    """A time the Jupyter server reports (ISO 8601, UTC)."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _page_answers(page) -> None:
    """The page's kernel answers: a slider of its first panel moved, a readout follows."""
    panel = page.locator(".vtsmodel-panel").first
    before = panel.locator("td.vtsmodel-readout[data-label]").evaluate_all("els => els.map(e => e.innerText)")
    handle = panel.locator(".widget-slider .noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(3):
        handle.press("ArrowLeft")
    panel.locator("td.vtsmodel-readout[data-label]").first.wait_for()
    page.wait_for_function(
        "([before]) => { const p = document.querySelector('.vtsmodel-panel');"
        " const now = [...p.querySelectorAll('td.vtsmodel-readout[data-label]')].map(e => e.innerText);"
        " return JSON.stringify(now) !== before; }",
        arg=[json.dumps(before)],
        timeout=30_000,
    )


# --- per-person sessions ------------------------------------------------------------------
#: What a second browser tries against a first browser's kernel, from its own page.
_TRY_OTHERS_KERNEL = """
async (id) => {
  const xsrf = decodeURIComponent((document.cookie.match(/(?:^|; )_xsrf=([^;]*)/) || [])[1] || '');
  const h = {'X-XSRFToken': xsrf};
  const list = await (await fetch('/api/kernels')).json();
  const model = (await fetch(`/api/kernels/${id}`)).status;
  const del = (await fetch(`/api/kernels/${id}`, {method: 'DELETE', headers: h})).status;
  const body = new URLSearchParams({_xsrf: xsrf});
  const shutdown = (await fetch(`/voila/api/shutdown/${id}`, {method: 'POST', body})).status;
  const channels = await new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/api/kernels/${id}/channels?session_id=intruder`);
    ws.onopen = () => { resolve('open'); ws.close(); };
    ws.onclose = (e) => resolve(`closed ${e.code}`);
    setTimeout(() => resolve('no answer'), 20000);
  });
  return {listed: list.map(k => k.id), model, del, shutdown, channels};
}
"""


def test_each_browser_reaches_only_its_own_kernel(browser, voila_url, artifacts_dir):
    """Two browsers hold the one token, each logged in with its own cookie. The second
    cannot list the first's kernel, read its model, connect to its channels (where the
    widgets' states are read and set), delete it or shut it down: 404 each, as for a kernel
    that does not exist; the first page goes on answering. Each sees its own kernel."""
    first, second = browser.new_context(), browser.new_context()
    try:
        a, b = first.new_page(), second.new_page()
        timing = {}
        a.on(
            "requestfinished",
            lambda r: (
                timing.setdefault("sent", time.monotonic())
                if r.resource_type == "document" and "/voila/render/" in r.url
                else None
            ),
        )
        a.on(
            "websocket",
            lambda ws: timing.setdefault("connected", time.monotonic()) if "/channels" in ws.url else None,
        )
        a.goto(with_token(f"{voila_url}/voila/render/{LESSON}"), timeout=RENDER_TIMEOUT_MS)
        wait_rendered(a)
        mine = _kernel_id(a)
        b.goto(with_token(f"{voila_url}/voila/render/{START}"), timeout=RENDER_TIMEOUT_MS)
        wait_rendered(b, plots=False)
        theirs = _kernel_id(b)
        assert mine != theirs
        assert [k["id"] for k in _kernels(voila_url, _cookie(first))] == [mine]
        assert [k["id"] for k in _kernels(voila_url, _cookie(second))] == [theirs]

        tried = b.evaluate(_TRY_OTHERS_KERNEL, mine)
        assert mine not in tried["listed"] and tried["listed"] == [theirs], tried
        assert tried["model"] == 404 and tried["del"] == 404 and tried["shutdown"] == 404, tried
        assert tried["channels"] != "open", tried
        # The handshake itself, raw, with the second browser's cookies: 404.
        port = urllib.parse.urlparse(voila_url).port
        ws = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": voila_url,
              "Cookie": _cookie(second)}  # fmt: skip
        status, _, _ = _request(
            voila_url, f"/api/kernels/{mine}/channels", host=f"127.0.0.1:{port}", headers=ws
        )
        assert status == 404
        # The first page still has its kernel, connected, and it still answers.
        own = {k["id"]: k for k in _kernels(voila_url, _cookie(first))}
        assert own[mine]["connections"] >= 1
        _page_answers(a)
        # Its own kernel the second browser reaches as the page does.
        assert b.evaluate("async (id) => (await fetch(`/api/kernels/${id}`)).status", theirs) == 200
        (artifacts_dir / "server-connect-delay.txt").write_text(
            f"{LESSON}: the page connected to its kernel {timing['connected'] - timing['sent']:.2f} s "
            "after its last byte\n"
        )
    finally:
        first.close()
        second.close()


def _plain_get(base: str, notebook: str) -> tuple[int, bytes, float]:
    """A page request as a script sends it: the token in a header, no cookie, no browser."""
    status, _, body = _request(
        base, f"/voila/render/{notebook}", headers={"Authorization": f"token {APP_TOKEN}"}
    )
    return status, body, time.monotonic()


def _page_config(body: bytes) -> dict:
    text = body.split(b'id="jupyter-config-data" type="application/json">', 1)[1]
    return json.loads(text.split(b"</script>", 1)[0])


# --- what a page loads (vtsmodel/app/page_assets.py) ------------------------------------
def test_a_page_loads_what_its_notebook_names_and_versioned_files_are_kept(voila_url):
    managers = {"@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8"}
    status, body, _ = _plain_get(voila_url, LESSON)  # plots and a scenario sheet (an anywidget table)
    assert status == 200, body[:300]
    config = _page_config(body)
    loaded = {x["name"] for x in config["federated_extensions"]}
    assert loaded == managers | {"anywidget"}  # not the other extensions installed
    (plotly,) = config["vtsmodelScripts"]
    assert f'<link rel="preload" as="script" href="{plotly}">'.encode() in body
    status, headers, script = _request(voila_url, plotly)
    # The partial bundle (js/package.json), of the plotly.js plotly.py draws with.
    assert plotly.endswith(f"/{page_assets.PARTIAL_FILE}"), plotly
    head = f"/**\n* plotly.js (cartesian - minified) v{get_plotlyjs_version()}\n".encode()
    assert status == 200 and script.startswith(COMPILE_HINT + head), script[:60]  # compiled as it streams in
    assert int(headers["Content-Length"]) == len(script)
    assert headers["Cache-Control"] == IMMUTABLE
    static = config["fullStaticUrl"]
    assert re.fullmatch(r"/voila/static/v-[0-9a-f]{12}", static), static
    assert f'src="{static}/voila.js"'.encode() in body
    status, headers, _ = _request(voila_url, f"{static}/voila.js")
    assert status == 200 and headers["Cache-Control"] == IMMUTABLE
    # Without the version the same file is revalidated, as before; another version finds nothing.
    status, headers, _ = _request(voila_url, "/voila/static/voila.js")
    assert status == 200 and "immutable" not in (headers.get("Cache-Control") or "")
    assert _request(voila_url, "/voila/static/v-000000000000/voila.js")[0] in (403, 404)
    assert _request(voila_url, plotly.replace(".min.js", ".js"))[0] in (403, 404)

    status, body, _ = _plain_get(voila_url, START)  # widgets only
    assert status == 200, body[:300]
    config = _page_config(body)
    assert {x["name"] for x in config["federated_extensions"]} == managers
    assert config["vtsmodelScripts"] == []


def _kernel_pid(kernel_id: str) -> int:
    """The process of a kernel (its command line names its connection file)."""
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and f"kernel-{kernel_id}.json" in (proc / "cmdline").read_text():
                return int(proc.name)
        except OSError:
            continue
    pytest.fail(f"no process for kernel {kernel_id}")


def _capped(port: int, cap: int, share: int, grace: float) -> list[str]:
    extra = [f"--max-kernels={cap}", f"--session-kernels={share}", f"--connect-grace={grace:g}"]
    return app_command(port, extra=extra)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_flood_of_page_requests_leaves_at_most_the_cap(browser, artifacts_dir):
    """12 plain GETs of a lesson at once (no browser: nothing ever connects) on an app capped
    at 3 page kernels: at most 3 get the page, the others "the app is full" at once; live
    kernels never exceed the cap; the served pages' kernels stop once the connect grace has
    passed. A browser whose page connects after the grace finds its kernel stopped, and
    the page says so rather than hanging without its panels."""
    cap, grace = 3, 3
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with served("app-flood", _capped(port, cap, 2, grace), ready_url(base), env=app_env()):
        from concurrent.futures import ThreadPoolExecutor

        peak = 0
        with ThreadPoolExecutor(max_workers=12) as pool:
            replies = [pool.submit(_plain_get, base, START) for _ in range(12)]
            while not all(r.done() for r in replies):
                peak = max(peak, _status(base)["kernels"])
                time.sleep(0.2)
        replies = [r.result() for r in replies]
        served_pages = [t for status, _, t in replies if status == 200]
        refused = [body for status, body, _ in replies if status != 200]
        assert 1 <= len(served_pages) <= cap and len(served_pages) + len(refused) == 12
        assert {status for status, _, _ in replies} <= {200, 503}
        assert all(b"The app is full, try again" in body for body in refused)
        assert peak <= cap
        _wait_status(base, lambda st: st["kernels"] == 0, grace + 30, "the unconnected pages' kernels stop")
        stopped_after = time.monotonic() - max(served_pages)
        assert stopped_after >= grace - 0.5, "stopped before the grace was over"

        context = browser.new_context()
        try:
            slow = context.new_page()

            def held(route):  # the page's scripts arrive after the grace
                time.sleep(grace + 3)
                route.continue_()

            slow.route(
                re.compile(r"/voila/static/(v-[0-9a-f]+/)?voila\.js$"), held
            )  # versioned (page_assets)
            slow.goto(with_token(f"{base}/voila/render/{START}"), timeout=RENDER_TIMEOUT_MS)
            slow.locator(".vtsmodel-kernel-gone").wait_for(timeout=90_000)
            assert "Reload the page" in slow.inner_text(".vtsmodel-kernel-gone")
            slow.screenshot(path=str(artifacts_dir / "server-kernel-gone.png"))
        finally:
            context.close()
    (artifacts_dir / "server-flood.txt").write_text(
        f"12 plain GETs, cap {cap}: {len(served_pages)} served, {len(refused)} refused; "
        f"peak live kernels {peak}; all stopped {stopped_after:.1f} s after the last page was "
        f"sent (grace {grace} s)\n"
    )


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_browser_is_held_to_its_share_and_a_full_app_says_so(browser, artifacts_dir):
    """Cap 3, two per browser: one browser's third lesson is refused (429, and the page says
    why); a second browser gets the last place; a third finds the app full (503 with
    Retry-After, and a page that says so); when a lesson closes, its try again succeeds."""
    cap, share = 3, 2
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    grace = 120  # browsers on a loaded machine: the pages must connect in time
    with served("app-capped", _capped(port, cap, share, grace), ready_url(base), env=app_env()):
        one, other, late = browser.new_context(), browser.new_context(), browser.new_context()
        try:
            for notebook in (START, LESSON):
                page = one.new_page()
                page.goto(with_token(f"{base}/voila/render/{notebook}"), timeout=RENDER_TIMEOUT_MS)
                wait_rendered(page, plots=False)
            third = one.new_page()
            reply = third.goto(f"{base}/voila/render/{START}")
            assert reply.status == 429
            assert "most lessons open" in third.inner_text("h1")
            page = other.new_page()
            page.goto(with_token(f"{base}/voila/render/{START}"), timeout=RENDER_TIMEOUT_MS)
            wait_rendered(page, plots=False)
            full = late.new_page()
            reply = full.goto(with_token(f"{base}/voila/render/{START}"))
            assert reply.status == 503 and reply.headers.get("retry-after")
            assert full.inner_text("h1") == "The app is full, try again"
            full.screenshot(path=str(artifacts_dir / "server-app-full.png"))
            assert _status(base)["page_kernels"] == cap
            # A lesson whose kernel dies (killed for memory, say) says so.
            os.kill(_kernel_pid(_kernel_id(page)), signal.SIGKILL)
            page.locator(".vtsmodel-kernel-gone").wait_for(timeout=60_000)
            assert "Reload the page" in page.inner_text(".vtsmodel-kernel-gone")
            # A place frees when a lesson closes: the next try gets the page.
            page.close(run_before_unload=True)
            _wait_status(base, lambda st: st["page_kernels"] < cap, 30, "the closed page's kernel stops")
            full.goto(f"{base}/voila/render/{START}", timeout=RENDER_TIMEOUT_MS)
            wait_rendered(full, plots=False)
        finally:
            for c in (one, other, late):
                c.close()


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_pool_kernel_idle_past_the_cull_timeout_serves_its_page(browser, tmp_path, artifacts_dir):
    """Issue 28: after the app sat idle longer than the cull timeout, the preheated kernel
    handed to a page was culled seconds later and the page never drew its panels. Here the
    pool kernel is idle three times the timeout when the page gets it: the page draws, its
    kernel answers, and it is still there, connected, three timeouts later."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(NOTEBOOKS / LESSON, folder / LESSON)
    idle_s = 4
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = app_command(port, preheat=True, extra=[f"--cull-idle-timeout={idle_s}"])
    cmd[cmd.index(str(NOTEBOOKS))] = str(folder)
    with served("app-idle-pool", cmd, ready_url(base), env=app_env(), cwd=folder):
        _wait_status(base, lambda st: st["ready"] == 1, 300, "the pool kernel starts")
        time.sleep(3 * idle_s + 2)  # the pool kernel has finished its preheat and sits idle
        assert _status(base)["ready"] == 1, "the pool kernel was culled while waiting"
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            watch = PageWatch(page)
            page.goto(with_token(f"{base}/voila/render/{LESSON}"), timeout=RENDER_TIMEOUT_MS)
            wait_rendered(page)
            kernel = _kernel_id(page)
            _page_answers(page)
            time.sleep(3 * idle_s)
            own = {k["id"]: k for k in _kernels(base, _cookie(context))}
            assert kernel in own and own[kernel]["connections"] >= 1, "the page's kernel was culled"
            _page_answers(page)
            page.screenshot(path=str(artifacts_dir / "server-idle-pool-page.png"))
            assert not watch.page_errors, watch.page_errors
        finally:
            context.close()


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
