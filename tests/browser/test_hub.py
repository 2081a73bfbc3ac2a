"""A class on JupyterHub (deploy/jupyterhub): each student logs in and gets a server of their own.

The hub runs as ``make hub`` starts it, in its try-out mode (a shared password, every
server as this user: the tested stand-in for the class mode's accounts), on 127.0.0.1.
JupyterHub (PyPI) and configurable-http-proxy (npm) come from ``make hub-tools``, which
``make test`` runs; nothing is fetched while the test runs.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .conftest import RENDER_TIMEOUT_MS, ROOT, PageWatch, free_port, wait_rendered

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HUB_CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
BIN = Path(sys.executable).parent
PROXY = BIN.parent / "node_modules" / ".bin" / "configurable-http-proxy"
START = "00_start_here.ipynb"
LESSON = "01_sustained_vs_peak_write.ipynb"


def _processes(hub: dict) -> list[dict]:
    """The hub's processes (its session: hub and proxy) and its students' servers and kernels
    (their own sessions, started for this hub): pid, parent, command, student, RSS."""
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            env = dict(
                item.split("=", 1) for item in (proc / "environ").read_text().split("\0") if "=" in item
            )
            if os.getsid(int(proc.name)) != hub["session"] and env.get("JUPYTERHUB_API_URL") != hub["api"]:
                continue
            status = dict(
                line.split(":", 1) for line in (proc / "status").read_text().splitlines() if ":" in line
            )
            out.append(
                {
                    "pid": int(proc.name),
                    "ppid": int(status["PPid"]),
                    "cmd": (proc / "cmdline").read_text().replace("\0", " "),
                    "user": env.get("JUPYTERHUB_USER"),
                    "url": env.get("JUPYTERHUB_SERVICE_URL"),
                    "rss_mb": int(status.get("VmRSS", "0 kB").split()[0]) * 1024 / 1e6,
                }
            )
        except (OSError, ValueError, KeyError):
            continue  # gone meanwhile
    return out


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """The class hub on free 127.0.0.1 ports, with a new shared password; stopped after."""
    missing = [str(p) for p in (BIN / "jupyterhub", PROXY) if not p.exists()]
    if missing:
        pytest.fail(f"JupyterHub tools missing ({', '.join(missing)}): run make hub-tools")
    state = tmp_path_factory.mktemp("hub")
    port, internal = free_port(), free_port()
    password = secrets.token_urlsafe(12)
    env = {
        **os.environ,
        "VTSMODEL_HUB_MODE": "tryout",
        "VTSMODEL_HUB_PASSWORD": password,
        "VTSMODEL_HUB_PORT": str(port),
        "VTSMODEL_HUB_INTERNAL_PORT": str(internal),
        "VTSMODEL_HUB_PROXY_API_PORT": str(free_port()),
        "VTSMODEL_HUB_STATE": str(state),
    }
    log = open(state / "hub.log", "w+")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [str(BIN / "jupyterhub"), "-f", str(HUB_CONFIG)],
        cwd=state,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # the hub, its proxy, the students' servers and kernels: one group
    )
    base = f"http://127.0.0.1:{port}"
    hub = {
        "base": base,
        "password": password,
        "session": proc.pid,
        "api": f"http://127.0.0.1:{internal}/hub/api",
        "log": state / "hub.log",
    }
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"the hub exited with {proc.returncode}: {log.read()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/hub/login", timeout=5) as reply:
                    if reply.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"the hub did not answer within 180 s: {log.read()[-3000:]}")
            time.sleep(1)
        yield hub
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the hub stops its students' servers as it exits
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for left in _processes(hub):  # what a hub killed mid-way left behind
            with contextlib.suppress(OSError):
                os.kill(left["pid"], signal.SIGKILL)
        log.close()
        artifacts = ROOT / "test-artifacts"
        artifacts.mkdir(exist_ok=True)
        (artifacts / "hub.log").write_text((state / "hub.log").read_text())


def _log_in(browser, hub, name: str):
    """A student's browser: logged in, on the start page their server opens in Voila."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(f"{hub['base']}/hub/login", timeout=60_000)
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", hub["password"])
    page.click("[type=submit]")
    page.wait_for_url(f"**/user/{name}/voila/render/{START}", timeout=RENDER_TIMEOUT_MS)
    wait_rendered(page, plots=False)
    return context, page, watch


@pytest.mark.timeout(900)
def test_two_students_get_separate_servers_with_the_lessons(browser, hub, artifacts_dir):
    alice, alice_page, alice_watch = _log_in(browser, hub, "alice")
    bob, bob_page, bob_watch = _log_in(browser, hub, "bob")
    try:
        # Each lands on the lessons, in Voila, on a server of their own.
        assert "/user/alice/" in alice_page.url and "/user/bob/" in bob_page.url
        alice_page.goto(f"{hub['base']}/user/alice/voila/render/{LESSON}", timeout=RENDER_TIMEOUT_MS)
        wait_rendered(alice_page)  # a lesson's panels and plots draw
        alice_page.screenshot(path=str(artifacts_dir / "hub-alice-lesson01.png"))
        servers = [p for p in _processes(hub) if "jupyterhub-singleuser" in p["cmd"]]
        assert sorted(p["user"] for p in servers) == ["alice", "bob"], servers
        assert len({p["url"] for p in servers}) == 2, "the two students share a server"
        # Memory a class needs: each student's server, and a kernel per open lesson.
        procs = _processes(hub)
        lines = []
        for server in servers:
            kernels = [p for p in procs if p["ppid"] == server["pid"] and "ipykernel" in p["cmd"]]
            lines.append(
                f"{server['user']}: server {server['rss_mb']:.0f} MB, kernels "
                + ", ".join(f"{k['rss_mb']:.0f} MB" for k in kernels)
            )
        hub_mb = sum(p["rss_mb"] for p in procs if p["user"] is None)
        (artifacts_dir / "hub-memory.txt").write_text(
            "\n".join([*lines, f"hub and proxy: {hub_mb:.0f} MB"]) + "\n"
        )
        # Closing the lesson's tab stops its kernel: the page's shutdown beacon passes the
        # hub's proxy and the student's server (without it, only the idle cull would).
        # Checked while the lesson is still open: leaving the page (to another URL) sends it too.
        alice_server = next(p for p in servers if p["user"] == "alice")

        def alice_kernels() -> list[dict]:
            return [
                p for p in _processes(hub) if p["ppid"] == alice_server["pid"] and "ipykernel" in p["cmd"]
            ]

        assert alice_kernels(), "alice's open lesson has no kernel"
        for watch in (alice_watch, bob_watch):
            assert not watch.external, f"a page fetched from off the machine: {watch.external}"
        with alice_page.expect_event("close", timeout=10_000):
            alice_page.close(run_before_unload=True)
        deadline = time.monotonic() + 60
        while alice_kernels() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not alice_kernels(), "alice closed her lesson and its kernel still runs after 60 s"
        beacons = [
            ln for ln in hub["log"].read_text().splitlines() if "POST /user/alice/voila/api/shutdown/" in ln
        ]
        assert beacons and all(" 204 POST " in ln for ln in beacons), beacons  # the beacon, not the cull
        # Lessons' kernels connected, and the servers' log holds no line about ping settings (serve.quiet_logs).
        assert "websocket_ping_timeout" not in hub["log"].read_text()
        # A student cannot open another's server: the hub refuses, and no page of bob's shows.
        page = alice.new_page()
        watch = PageWatch(page)
        reply = page.goto(f"{hub['base']}/user/bob/voila/render/{START}", timeout=60_000)
        assert reply.status == 403 or "/user/bob/" not in page.url, (reply.status, page.url)
        assert page.locator(".vtsmodel-panel").count() == 0
        assert not watch.external, f"a page fetched from off the machine: {watch.external}"
    finally:
        alice.close()
        bob.close()
