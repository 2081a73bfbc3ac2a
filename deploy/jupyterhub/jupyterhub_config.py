"""JupyterHub for a class: each student's own server, opening the lessons in Voila.

``make hub`` runs it; README, "Teaching a class", says when to use it and what memory
a class needs.

Two modes, chosen by ``$VTSMODEL_HUB_MODE``:

- ``class`` (default): students log in with their account on this machine (PAM), and
  each student's server runs as that student (JupyterHub's ``LocalProcessSpawner``), so
  one student's lessons, files and code cannot reach another's. Members of the group
  ``$VTSMODEL_HUB_GROUP`` (default ``students``) may log in; ``$VTSMODEL_HUB_ADMINS``
  (comma-separated) administer the hub. The hub runs as root to start servers as others.
- ``tryout``: a try-out on one machine without accounts. Anyone with the shared password
  ``$VTSMODEL_HUB_PASSWORD`` (at least 8 characters) logs in under any name, and every
  server runs as the hub's own user with its home under the state folder: no isolation
  between people. Use it to see the set-up work, never for a class.

Where it listens: ``$VTSMODEL_HUB_IP`` (default 127.0.0.1) and ``$VTSMODEL_HUB_PORT``
(default 8000); the hub and the proxy's API use ``$VTSMODEL_HUB_INTERNAL_PORT`` (8081) and
``$VTSMODEL_HUB_PROXY_API_PORT`` (8001) on 127.0.0.1. Its database, cookie secret and
the try-out homes go to ``$VTSMODEL_HUB_STATE`` (default: ``hub-state`` in the Python
environment). The proxy is ``configurable-http-proxy`` from npm: ``$VTSMODEL_HUB_PROXY``,
or the one ``make hub-tools`` installs into ``.venv``.

Each server opens ``00_start_here`` in Voila with the project's template (no request off
the machine), reaches its kernels over private Unix sockets where their paths fit (class
mode), culls kernels idle for
10 minutes with no page connected, and stops after an hour with no activity. Memory:
see README ("Teaching a class").
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - JupyterHub's config loader provides it

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = ROOT / "vtsmodel" / "app" / "_jupyter"
BIN = Path(sys.executable).parent


def _env(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def _port(name: str, default: int) -> int:
    value = _env(name, str(default))
    if not value.isdigit() or not 0 < int(value) < 65536:
        sys.exit(f"vtsmodel hub: {name}={value!r} is not a port in [1, 65535]")
    return int(value)


mode = _env("VTSMODEL_HUB_MODE", "class")
if mode not in ("class", "tryout"):
    sys.exit(f"vtsmodel hub: VTSMODEL_HUB_MODE={mode!r} must be 'class' or 'tryout'")
state = Path(_env("VTSMODEL_HUB_STATE", str(Path(sys.prefix) / "hub-state"))).resolve()
state.mkdir(mode=0o700, parents=True, exist_ok=True)

# --- where it listens, and its state -----------------------------------------------------------
c.JupyterHub.ip = _env("VTSMODEL_HUB_IP", "127.0.0.1")
c.JupyterHub.port = _port("VTSMODEL_HUB_PORT", 8000)
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = _port("VTSMODEL_HUB_INTERNAL_PORT", 8081)
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_port('VTSMODEL_HUB_PROXY_API_PORT', 8001)}"
proxy = BIN.parent / "node_modules" / ".bin" / "configurable-http-proxy"
c.ConfigurableHTTPProxy.command = [
    _env("VTSMODEL_HUB_PROXY", str(proxy) if proxy.exists() else "configurable-http-proxy")
]
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")

# --- who logs in, and as whom their server runs --------------------------------------------------
if mode == "class":
    c.JupyterHub.authenticator_class = "pam"
    c.JupyterHub.spawner_class = "localprocess"
    c.Authenticator.allowed_groups = {_env("VTSMODEL_HUB_GROUP", "students")}
    c.Authenticator.admin_users = {n.strip() for n in _env("VTSMODEL_HUB_ADMINS", "").split(",") if n.strip()}
else:
    password = os.environ.get("VTSMODEL_HUB_PASSWORD", "")
    if len(password) < 8:
        sys.exit(
            "vtsmodel hub: the try-out needs VTSMODEL_HUB_PASSWORD, a shared password of at least 8 characters"
        )
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = password
    c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(state / "homes" / "{username}")

# --- each student's server: the lessons in Voila ----------------------------------------------
c.Spawner.ip = "127.0.0.1"
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = str(NOTEBOOKS)
c.Spawner.default_url = "/voila/render/00_start_here.ipynb"
c.Spawner.environment = {"JUPYTER_PATH": str(TEMPLATES)}  # the project's Voila template
# The server's own settings (Voila template, culling, no CDN): jupyter_server_config.py.
c.Spawner.args = [f"--config={Path(__file__).resolve().parent / 'jupyter_server_config.py'}"]


def _private_kernel_sockets(spawner) -> None:
    """A student's kernels on Unix sockets in their own runtime folder, where the paths fit.

    ZeroMQ limits a socket's path (107 characters on Linux). On 127.0.0.1 TCP ports,
    another student could listen to a kernel's output. In the try-out every server runs
    as one user anyway.
    """
    if mode != "class":
        return
    import pwd

    from vtsmodel.app.serve import ipc_fits

    runtime = Path(pwd.getpwnam(spawner.user.name).pw_dir) / ".local" / "share" / "jupyter" / "runtime"
    if ipc_fits(str(runtime), prefix=0):
        spawner.args = [*spawner.args, "--KernelManager.transport=ipc"]


c.Spawner.pre_spawn_hook = _private_kernel_sockets
if mode == "tryout" and hasattr(os, "geteuid") and os.geteuid() == 0:
    c.Spawner.args.append("--allow-root")  # try-out servers run as the hub's user, here root
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
