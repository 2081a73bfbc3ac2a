"""Find a Chromium-family browser for static export and browser tests.

Order: ``BROWSER_PATH``, names on ``PATH``, then the usual install paths. On Debian as
root with none, ``python -m vtsmodel.app._browser --ensure`` installs Debian's ``chromium``
package; elsewhere it says how to get one and fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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


def find_chromium() -> str | None:
    """Return the path of a Chromium-family executable, or None."""
    env = os.environ.get("BROWSER_PATH")
    if env and Path(env).is_file() and os.access(env, os.X_OK):
        return env
    for name in NAMES:
        hit = shutil.which(name)
        if hit:
            return hit
    for path in PATHS:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
    return None


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

    Raises
    ------
    RuntimeError
        When no browser is found and none can be installed here; the message says how.
    """
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
    raise RuntimeError(HOW_TO_GET)


def main(argv: list[str]) -> int:
    """Command line: ``--ensure`` installs if needed; otherwise only reports."""
    try:
        path = ensure_chromium() if "--ensure" in argv else find_chromium()
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if path is None:
        print(f"error: {HOW_TO_GET}", file=sys.stderr)
        return 1
    print(f"browser: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
