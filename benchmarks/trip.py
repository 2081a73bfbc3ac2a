"""Where a move's time goes, hop by hop: the page's, the server's and the kernel's stamps of each message.

One lesson page in the app server (no preheated kernel), its main control
(:data:`bench_pages.TARGETS`) moved ``--moves`` times, ``--gap`` seconds apart (a person's
pace, or a slow one that leaves the page idle between moves). Stamped, all on this machine's
clock [ms]:

- in the page: the key press, the websocket message sent, each message received (its type and
  the kernel's ``header.date``), the first change inside a plot;
- in the server (jupyter_server's kernel websocket connection, wrapped in this process only):
  each message from the page and from the kernel as it is handled;
- in the kernel (an IPython startup file in a throwaway ``IPYTHONDIR``): each IOPub message as
  its thread sends it, each shell message's handling (wall and main-thread CPU, context
  switches), and the planner's deferred tornado steps.

Printed: per hop, the median and range over the moves (key press -> sent -> server -> kernel's
"busy" -> the plot's message made -> sent by the IOPub thread -> server -> page -> plot
changed); where the page's messages found the kernel (idle, in a shell message, in a tornado
step) and how long they waited; each process's CPU per move (the page's renderer, Chromium's
GPU and browser processes, the server, the kernel).

Run: ``python benchmarks/trip.py [--moves 20] [--gap 0.6] [NOTEBOOK]`` (default: lesson 04).
A diagnostic: each stamp costs the process a little; compare runs of this tool, not its
times with ``bench_pages.py``'s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))  # the browser harness of the tests

import bench_pages  # noqa: E402

#: The kernel's stamps: an IPython startup file (``$TRIP_LOG.kernel``, JSON lines).
KERNEL_STARTUP = r"""
import json as _j, os as _o, time as _t
_log = open(_o.environ["TRIP_LOG"] + ".kernel", "a", buffering=1)
from ipykernel.iostream import IOPubThread as _I
_rs = _I._really_send
def _really_send(self, msg, *a, **k):
    try:
        h = _j.loads(bytes(msg[msg.index(b"<IDS|MSG>") + 2]))
        _log.write(_j.dumps(["iopub", _t.time(), h.get("msg_type"), h.get("date")]) + "\n")
    except Exception:
        pass
    return _rs(self, msg, *a, **k)
_I._really_send = _really_send
import resource as _r
from ipykernel.kernelbase import Kernel as _K
_ds = _K.dispatch_shell
async def _dispatch_shell(self, *a, **k):
    w, c, u = _t.time(), _t.thread_time(), _r.getrusage(_r.RUSAGE_THREAD)
    out = await _ds(self, *a, **k)
    v = _r.getrusage(_r.RUSAGE_THREAD)
    _log.write(_j.dumps(["shell", w, _t.time(), _t.thread_time() - c, v.ru_nivcsw - u.ru_nivcsw]) + "\n")
    return out
_K.dispatch_shell = _dispatch_shell
try:
    from vtsmodel.app.lessons import sensitivity as _s
    _st = _s.DeferredTornado._step
    def _step(self):
        w = _t.time()
        try:
            return _st(self)
        finally:
            _log.write(_j.dumps(["step", w, _t.time()]) + "\n")
    _s.DeferredTornado._step = _step
except (ImportError, AttributeError):  # a tree without the stepped tornado
    pass
"""

#: The page's stamps: each websocket message of the kernel's channels, key presses, plot changes.
PAGE_INIT = r"""
(() => {
  window.__trip = [];
  const W = window.WebSocket, dec = new TextDecoder(), now = () => performance.timeOrigin + performance.now();
  function header(data) {
    if (typeof data === 'string') return JSON.parse(data).header;
    const dv = new DataView(data), n = Number(dv.getBigUint64(0, true)), off = [];
    for (let i = 0; i < n; i++) off.push(Number(dv.getBigUint64(8 * (i + 1), true)));
    return JSON.parse(dec.decode(new Uint8Array(data, off[1], off[2] - off[1])));
  }
  window.WebSocket = function (...a) {
    const ws = new W(...a);
    if (String(a[0]).includes('/channels')) {
      ws.addEventListener('message', (e) => {
        const t = now();
        try { const h = header(e.data); window.__trip.push(['recv', t, h.msg_type, h.date]); } catch (err) {}
      });
      const send = ws.send.bind(ws);
      ws.send = (d) => { let k = null; try { k = header(d).msg_type; } catch (e) {} window.__trip.push(['send', now(), k]); return send(d); };
    }
    return ws;
  };
  window.WebSocket.prototype = W.prototype;
  Object.assign(window.WebSocket, W);
  document.addEventListener('keydown', () => window.__trip.push(['key', now()]), true);
  new MutationObserver((recs) => {
    for (const r of recs) {
      const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (t && t.closest && t.closest('.js-plotly-plot')) { window.__trip.push(['plot', now()]); return; }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""


def serve() -> None:
    """The app server (``vtsmodel.app.serve``'s arguments) with its websocket hops stamped into ``$TRIP_LOG``."""
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection as C

    from vtsmodel.app import serve as app

    log = open(os.environ["TRIP_LOG"], "a", buffering=1)  # noqa: SIM115 - open for the server's life
    incoming, outgoing = C.handle_incoming_message, C.handle_outgoing_message

    def handle_incoming(self, msg):
        t = time.time()
        incoming(self, msg)
        log.write(json.dumps(["in", t]) + "\n")

    def handle_outgoing(self, stream, msg_list):
        t = time.time()
        try:
            _, parts = self.session.feed_identities(msg_list)
            date = json.loads(bytes(parts[1])).get("date")
        except (ValueError, IndexError, TypeError):
            date = None
        outgoing(self, stream, msg_list)
        log.write(json.dumps(["out", t, date]) + "\n")

    C.handle_incoming_message, C.handle_outgoing_message = handle_incoming, handle_outgoing
    sys.exit(app.main(sys.argv[2:]))


def _pgrep(*args: str) -> list[int]:
    return [int(x) for x in subprocess.run(["pgrep", *args], capture_output=True, text=True).stdout.split()]


def _cpu_ticks(pids: list[int]) -> dict[int, int]:
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[pid] = int(fields[11]) + int(fields[12])
        except (FileNotFoundError, IndexError, ValueError):
            pass
    return out


def _process_name(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").split()  # Chromium's: one string
    except FileNotFoundError:
        return "?"
    kind = next((a.split("=", 1)[1] for a in cmd if a.startswith("--type=")), None)
    if "ipykernel_launcher" in cmd:
        return "kernel"
    if "vtsmodel.app.serve" in cmd or "--serve" in cmd:
        return "server"
    if kind == "renderer" and "--top-chrome-webui" not in cmd:
        return "chromium renderer"
    if kind:
        return f"chromium {kind}"
    return "chromium browser" if cmd and "chromium" in cmd[0] else cmd[0] if cmd else "?"


def _date_ms(date: str) -> float:
    return datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp() * 1000


def _hops(page: list, server: list, kernel: list) -> list[dict]:
    """Per move (a key press), each hop's time [ms]; moves that lack a stamp are left out."""
    sent = {e[3]: e[1] * 1000 for e in kernel if e[0] == "iopub" and e[3]}
    served = {e[2]: e[1] * 1000 for e in server if e[0] == "out" and e[2]}
    ins = [e[1] * 1000 for e in server if e[0] == "in"]
    keys = [i for i, e in enumerate(page) if e[0] == "key"]
    rows = []
    for j, k in enumerate(keys):
        seg = page[k : keys[j + 1] if j + 1 < len(keys) else len(page)]
        t0 = seg[0][1]
        send = next((e[1] for e in seg if e[0] == "send" and e[2] == "comm_msg"), None)
        busy = next((e for e in seg if e[0] == "recv" and e[2] == "status"), None)
        plot = next((e[1] for e in seg if e[0] == "plot"), None)
        comms = [
            e for e in seg if e[0] == "recv" and e[2] == "comm_msg" and plot is not None and e[1] <= plot
        ]
        got = next((t for t in ins if send is not None and t >= send - 1), None)
        if None in (send, busy, plot, got) or not comms:
            continue
        msg = comms[-1]  # the last message before the plot changed: the plot's
        made = _date_ms(msg[3])
        rows.append({
            "key press -> message sent": send - t0,
            "sent -> server": got - send,
            "server -> kernel busy": _date_ms(busy[3]) - got,
            "busy -> plot message made": made - _date_ms(busy[3]),
            "made -> IOPub thread sends": sent.get(msg[3], float("nan")) - made,
            "IOPub thread -> server": served.get(msg[3], float("nan")) - sent.get(msg[3], float("nan")),
            "server -> page": msg[1] - served.get(msg[3], float("nan")),
            "plot message -> plot changed": plot - msg[1],
            "key press -> plot changed": plot - t0,
        })  # fmt: skip
    return rows


def run(notebook: str, moves: int, gap: float) -> list[str]:
    from browser.conftest import (
        APP_TOKEN,
        CHROMIUM_ARGS,
        _wait_http,
        free_port,
        ready_url,
        wait_rendered,
        wait_widgets_rendered,
        with_token,
    )
    from playwright.sync_api import sync_playwright

    from vtsmodel.app._browser import HOW_TO_GET, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError(HOW_TO_GET)
    work = Path(tempfile.mkdtemp(prefix="vtsmodel-trip-"))
    startup = work / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-trip.py").write_text(KERNEL_STARTUP)
    log = work / "trip.jsonl"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "VTSMODEL_APP_TOKEN": APP_TOKEN, "TRIP_LOG": str(log), "PYTHONPATH": str(ROOT),
           "JUPYTER_RUNTIME_DIR": str(work / "runtime"), "IPYTHONDIR": str(work / "ipython")}  # fmt: skip
    cmd = [sys.executable, __file__, "--serve", str(ROOT / "notebooks"), f"--port={port}", "--pool-size=0",
           "--log-level=WARN"]  # fmt: skip
    server = subprocess.Popen(
        cmd, cwd=ROOT / "notebooks", env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    label = bench_pages.TARGETS.get(notebook, ("slider", None))[1]
    try:
        _wait_http(ready_url(url), server, timeout=180.0)
        others = set(_pgrep("-f", "chromium"))  # Chromium processes not this run's
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_init_script(PAGE_INIT)
                page = context.new_page()
                page.goto(with_token(f"{url}/voila/render/{notebook}"), timeout=300_000)
                wait_rendered(page, timeout=300_000)
                wait_widgets_rendered(page)
                time.sleep(3.0)  # the page's deferred drawing done
                slider = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=label))
                handle = (slider if label else page.locator(".widget-slider")).first.locator(".noUi-handle")
                handle.scroll_into_view_if_needed()
                handle.focus()
                pids = [server.pid, *_pgrep("-P", str(server.pid)),
                        *(p for p in _pgrep("-f", "chromium") if p not in others)]  # fmt: skip
                names = {pid: _process_name(pid) for pid in pids}
                idle0 = _cpu_ticks(pids)  # the page untouched as long as the moves take: its idle CPU
                time.sleep(moves * gap)
                idle1 = _cpu_ticks(pids)
                page.evaluate("() => { window.__trip = []; }")
                start, before = time.time() * 1000, _cpu_ticks(pids)
                for _ in range(moves):
                    handle.press("ArrowRight")
                    time.sleep(gap)
                after = _cpu_ticks(pids)
                stamps = page.evaluate("() => window.__trip")
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    server_log = [e for e in map(json.loads, log.read_text().splitlines()) if e[1] * 1000 >= start - 5]
    kernel_path = Path(str(log) + ".kernel")
    kernel_log = [
        e for e in map(json.loads, kernel_path.read_text().splitlines()) if e[1] * 1000 >= start - 5
    ]
    rows = _hops(stamps, server_log, kernel_log)
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    out = [f"{notebook}, {label or 'its first slider'}: {moves} moves {gap:g} s apart, {len(rows)} with every stamp", "",
           "| hop | p50 [ms] | min | max |", "|---|---|---|---|"]  # fmt: skip
    for hop in rows[0] if rows else ():
        v = [r[hop] for r in rows if r[hop] == r[hop]]
        if v:
            out.append(f"| {hop} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} |")
    shells = [e for e in kernel_log if e[0] == "shell"]
    steps = [e for e in kernel_log if e[0] == "step"]
    found: dict[str, list[float]] = {"idle": [], "a shell message": [], "a tornado step": []}
    for e in server_log:
        if e[0] != "in":
            continue
        busy = next((s for s in shells if s[1] <= e[1] <= s[2]), None)
        step = None if busy else next((s for s in steps if s[1] <= e[1] <= s[2]), None)
        where = "a shell message" if busy else "a tornado step" if step else "idle"
        found[where].append(((busy or step)[2] - e[1]) * 1000 if (busy or step) else 0.0)
    out += ["", "The page's messages found the kernel: " + "; ".join(
        f"{k} {len(v)}" + (f" (waited p50 {statistics.median(v):.1f} ms, max {max(v):.1f})" if v and k != "idle" else "")
        for k, v in found.items())]  # fmt: skip
    if shells:
        out.append(f"Shell messages' handling: wall p50 {statistics.median((s[2] - s[1]) * 1000 for s in shells):.1f} ms, "
                   f"main-thread CPU p50 {statistics.median(s[3] * 1000 for s in shells):.1f} ms, "
                   f"preempted p50 {statistics.median(s[4] for s in shells):.0f} times")  # fmt: skip
    cpu, idle = (
        _per_move(before, after, names, tick_ms, moves),
        _per_move(idle0, idle1, names, tick_ms, moves),
    )
    out.append(
        "CPU per move [ms] (in brackets: the same time with the page untouched, before the moves): "
        + ", ".join(
            f"{k} {v:.0f} ({idle.get(k, 0.0):.0f})"
            for k, v in sorted(cpu.items(), key=lambda kv: -kv[1])
            if v
        )
    )
    return out


def _per_move(
    before: dict[int, int], after: dict[int, int], names: dict[int, str], tick_ms: float, moves: int
) -> dict[str, float]:
    """CPU [ms] per move of each kind of process, from two readings of their clock ticks."""
    cpu: dict[str, float] = {}
    for pid, t in after.items():
        cpu[names[pid]] = cpu.get(names[pid], 0.0) + (t - before.get(pid, t)) * tick_ms / moves
    return cpu


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--gap", type=float, default=0.6, help="seconds from one key press to the next")
    ap.add_argument("notebook", nargs="?", default="04_drive_efficiency_vs_file_size.ipynb")
    args = ap.parse_args()
    print("\n".join(run(args.notebook, args.moves, args.gap)))


if __name__ == "__main__":
    main()
