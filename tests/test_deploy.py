"""The class hub's configuration (deploy/jupyterhub), read as JupyterHub reads it.

The hub itself, two students logging in, is tested in tests/browser/test_hub.py.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from traitlets.config.loader import PyFileConfigLoader

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "jupyterhub"


def _load(monkeypatch, tmp_path, **env):
    for key in ("MODE", "PASSWORD", "PORT", "GROUP", "ADMINS", "PROXY"):
        monkeypatch.delenv(f"VTSMODEL_HUB_{key}", raising=False)
    monkeypatch.setenv("VTSMODEL_HUB_STATE", str(tmp_path / "state"))
    for key, value in env.items():
        monkeypatch.setenv(f"VTSMODEL_HUB_{key}", value)
    return PyFileConfigLoader("jupyterhub_config.py", path=str(DEPLOY)).load_config()


def test_class_mode_logs_students_in_with_their_accounts_and_runs_each_as_themselves(monkeypatch, tmp_path):
    c = _load(monkeypatch, tmp_path, ADMINS="teacher, ta")
    assert c.JupyterHub.authenticator_class == "pam" and c.JupyterHub.spawner_class == "localprocess"
    assert c.Authenticator.allowed_groups == {"students"} and c.Authenticator.admin_users == {"teacher", "ta"}
    assert c.JupyterHub.ip == "127.0.0.1" and c.JupyterHub.port == 8000 and c.JupyterHub.hub_ip == "127.0.0.1"
    assert (tmp_path / "state").is_dir() and str(tmp_path / "state") in c.JupyterHub.db_url
    # Each server: the lessons, in Voila, with the server settings of jupyter_server_config.py.
    assert c.Spawner.default_url == "/voila/render/00_start_here.ipynb"
    assert Path(c.Spawner.notebook_dir) == ROOT / "notebooks"
    assert c.Spawner.args == [f"--config={DEPLOY / 'jupyter_server_config.py'}"]
    assert "--allow-root" not in c.Spawner.args


def test_the_tryout_needs_a_password_and_says_what_it_is(monkeypatch, tmp_path):
    with pytest.raises(SystemExit, match="VTSMODEL_HUB_PASSWORD, a shared password of at least 8"):
        _load(monkeypatch, tmp_path, MODE="tryout", PASSWORD="short")
    c = _load(monkeypatch, tmp_path, MODE="tryout", PASSWORD="long enough")
    assert c.JupyterHub.authenticator_class == "shared-password" and c.JupyterHub.spawner_class == "simple"
    assert c.SharedPasswordAuthenticator.user_password == "long enough"
    assert str(tmp_path / "state" / "homes") in c.SimpleLocalProcessSpawner.home_dir_template


@pytest.mark.parametrize(("key", "value", "words"), [("MODE", "open", "must be 'class' or 'tryout'"),
                                                     ("PORT", "80000", "VTSMODEL_HUB_PORT='80000' is not a port")])  # fmt: skip
def test_bad_settings_stop_the_hub_with_a_message(monkeypatch, tmp_path, key, value, words):
    with pytest.raises(SystemExit, match=words):
        _load(monkeypatch, tmp_path, **{key: value})


def test_a_students_kernels_use_unix_sockets_where_their_paths_fit(monkeypatch, tmp_path):
    import pwd

    c = _load(monkeypatch, tmp_path)
    hook = c.Spawner.pre_spawn_hook
    for home, ipc in (("/home/alice", True), ("/srv/" + "x" * 60, False)):
        monkeypatch.setattr(pwd, "getpwnam", lambda name, home=home: SimpleNamespace(pw_dir=home))
        spawner = SimpleNamespace(user=SimpleNamespace(name="alice"), args=["--config=x"])
        hook(spawner)
        assert ("--KernelManager.transport=ipc" in spawner.args) is ipc, home


def test_each_server_culls_idle_kernels_stops_when_idle_and_fetches_nothing(tmp_path):
    c = PyFileConfigLoader("jupyter_server_config.py", path=str(DEPLOY)).load_config()
    assert c.VoilaConfiguration.template == "vtsmodel"
    assert c.MappingKernelManager.cull_idle_timeout == 600 and c.MappingKernelManager.cull_connected is False
    assert c.ServerApp.shutdown_no_activity_timeout == 3600 and c.ServerApp.terminals_enabled is False
    assert c.ServerApp.tornado_settings == {"mathjax_url": None, "mathjax_config": None}, "MathJax from a CDN"


def test_each_server_leaves_tornados_ping_settings_line_out_of_its_log(monkeypatch):
    """The servers' log drops tornado's line about jupyter_server's ping settings, as make app's does."""
    import logging

    from vtsmodel.app import serve

    general = logging.getLogger("tornado.general")
    monkeypatch.setattr(general, "filters", [])
    PyFileConfigLoader("jupyter_server_config.py", path=str(DEPLOY)).load_config()
    assert [type(f) for f in general.filters] == [serve._Quiet]
    line = "The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval (30000)."
    assert not general.filters[0].filter(
        logging.LogRecord("tornado.general", logging.WARNING, "", 0, line, (), None)
    )
