"""Find and check a Chromium-family browser for static export and browser tests.

Order: ``BROWSER_PATH`` (when set, that browser and no other: a wrong value is reported,
not silently replaced), names on ``PATH``, the usual install paths, then the copy
``plotly_get_chrome`` downloads for kaleido. :func:`check_browser` also runs the browser
once (``--version``, killed after :data:`PROBE_TIMEOUT_S`), so a missing, non-executable,
wrong or hanging file is reported in seconds with what was tried and how to fix it. On
Debian as root with none, ``python -m vtsmodel.app._browser --ensure`` installs Debian's
``chromium`` package; elsewhere it says how to get one and fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

__all__ = ["HOW_TO_GET", "BrowserError", "check_browser", "ensure_chromium", "find_chromium", "kill_group"]

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
PATHS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/snap/bin/chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
)
HOW_TO_GET = (
    "No Chromium or Chrome was found (looked at BROWSER_PATH, PATH and the usual paths). "
    "Install one with your package manager (Debian/Ubuntu: apt-get install chromium), "
    "or run `.venv/bin/plotly_get_chrome` to download one for kaleido, then set "
    "BROWSER_PATH to the browser's executable."
)
#: Seconds ``browser --version`` may take before the browser is taken for broken (it
#: takes about 0.1 s). [s]
PROBE_TIMEOUT_S = 15.0

#: What ``--version`` prints for a Chromium-family browser ("Chromium 156.0.8078.79 built on
#: Debian", "Google Chrome 131.0.6778.85", "Microsoft Edge 131.0.2903.70").
_VERSION = re.compile(r"(chrom|edge|brave|opera|vivaldi)\D*\d+\.\d+", re.IGNORECASE)


class BrowserError(RuntimeError):
    """The export browser is missing, broken or stuck; the message says what was tried and how to fix it."""


def _downloaded_chrome() -> str | None:
    """The Chrome that ``plotly_get_chrome`` / ``kaleido_get_chrome`` downloaded, if any."""
    try:
        from choreographer.cli._cli_utils import get_chrome_download_path
    except Exception:  # noqa: BLE001 - a private API of kaleido's helper; absent is fine
        return None
    try:
        path = get_chrome_download_path(mkdir=False)
    except Exception:  # noqa: BLE001
        return None
    return str(path) if path and Path(path).is_file() and os.access(path, os.X_OK) else None


def _executable(path: str) -> bool:
    return Path(path).is_file() and os.access(path, os.X_OK)


def find_chromium() -> str | None:
    """Return the path of a Chromium-family executable, or None.

    When ``BROWSER_PATH`` is set, only that file is considered (None if it is not an
    executable file): the person asked for that browser.
    """
    env = os.environ.get("BROWSER_PATH")
    if env:
        return env if _executable(env) else None
    for name in NAMES:
        hit = shutil.which(name)
        if hit:
            return hit
    for path in PATHS:
        if _executable(path):
            return path
    return _downloaded_chrome()


def kill_group(proc: subprocess.Popen) -> None:
    """Kill a process started with ``start_new_session=True`` and everything it started."""
    if proc.poll() is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows
                proc.kill()
        except (ProcessLookupError, PermissionError):
            proc.kill()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process SIGKILL cannot end
        pass


def _resolve() -> str:
    env = os.environ.get("BROWSER_PATH")
    if env:
        p = Path(env)
        fix = "point BROWSER_PATH at a Chromium or Chrome executable, or unset it to search PATH"
        if not p.exists():
            raise BrowserError(f"BROWSER_PATH={env!r}: no such file; {fix}")
        if p.is_dir():
            raise BrowserError(f"BROWSER_PATH={env!r} is a folder, not a browser executable; {fix}")
        if not os.access(env, os.X_OK):
            raise BrowserError(f"BROWSER_PATH={env!r} is not executable (try `chmod +x {env}`); {fix}")
        return env
    found = find_chromium()
    if found is None:
        raise BrowserError(HOW_TO_GET)
    return found


def check_browser(timeout: float | None = None) -> tuple[str, str]:
    """The browser to export with and its version, after running it once (``--version``).

    The probe runs in its own process group, killed with everything it started if it
    does not answer within ``timeout`` seconds (default :data:`PROBE_TIMEOUT_S`).

    Returns
    -------
    (path, version)

    Raises
    ------
    BrowserError
        No browser; ``BROWSER_PATH`` missing, a folder or not executable; the file does
        not answer, fails, or does not print a version (``/bin/true``). The message
        names the file and says how to fix it.
    """
    path = _resolve()
    limit = PROBE_TIMEOUT_S if timeout is None else float(timeout)
    where = f"BROWSER_PATH={path!r}" if os.environ.get("BROWSER_PATH") else f"the browser {path!r}"
    fix = "install Chromium (Debian/Ubuntu: apt-get install chromium) and point BROWSER_PATH at it"
    try:
        proc = subprocess.Popen(
            [path, "--version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise BrowserError(f"{where} cannot be run ({exc.strerror or exc}); {fix}") from None
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.communicate()
        raise BrowserError(
            f"{where} did not answer `--version` within {limit:g} s and was stopped; "
            f"it is not a working browser: {fix}"
        ) from None
    text = out.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        raise BrowserError(
            f"{where} failed: `--version` exited with status {proc.returncode}"
            f"{': ' + tail[0][:200] if tail[0] else ''}; {fix}"
        )
    if not _VERSION.search(text):
        raise BrowserError(
            f"{where} printed no browser version for `--version` (got {text[:80]!r}): "
            f"it is not a Chromium-family browser; {fix}"
        )
    return path, text.splitlines()[0][:120]


def _is_debian_root() -> bool:
    return (
        sys.platform.startswith("linux")
        and Path("/etc/debian_version").exists()
        and hasattr(os, "geteuid")
        and os.geteuid() == 0
        and shutil.which("apt-get") is not None
    )


def ensure_chromium() -> str:
    """Return a browser path, installing Debian's chromium as root if none is found.

    A ``BROWSER_PATH`` that is set is checked, never replaced by an install.

    Raises
    ------
    RuntimeError
        When no browser is found and none can be installed here; the message says how.
    """
    if os.environ.get("BROWSER_PATH"):
        return check_browser()[0]
    found = find_chromium()
    if found:
        return found
    if _is_debian_root():
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)
        found = find_chromium()
        if found:
            return found
    raise BrowserError(HOW_TO_GET)


def main(argv: list[str]) -> int:
    """Command line: ``--ensure`` installs if needed; otherwise checks the browser found."""
    try:
        if "--ensure" in argv:
            path = ensure_chromium()
        else:
            path, version = check_browser()
            path = f"{path} ({version})"
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"browser: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
