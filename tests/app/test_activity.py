"""The app server's record of a kernel's activity (vtsmodel/app/activity.py) is jupyter_server's."""

import datetime
import logging
from types import SimpleNamespace

import pytest
from jupyter_client.session import Session
from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

from vtsmodel.app import activity

KEY = b"0123456789abcdef"
#: The message types jupyter_server does not count as activity by default (the app does not set them).
UNTRACKED = set(MappingKernelManager().untracked_message_types)


class _Stream:
    """An IOPub stream: keeps the callback it is given."""

    def on_recv(self, callback):
        self.callback = callback


def _kernel(state: str):
    return SimpleNamespace(
        execution_state=state, session=Session(key=KEY), connect_iopub=_Stream, last_activity=None, reason="?"
    )


def _manager(kernel):
    return SimpleNamespace(
        _kernels={"k": kernel},
        log=logging.getLogger("test-activity"),
        track_message_type=lambda t: t not in UNTRACKED,
        last_kernel_activity=None,
    )


def _frames(session: Session, msg_type: str, content: dict, parent_type: str | None) -> list[bytes]:
    """One IOPub message as the server's socket receives it: topic, delimiter, signature, parts."""
    parent = session.msg(parent_type, {}) if parent_type else {}
    msg = session.msg(msg_type, content, parent=parent)
    return [b"kernel.k.iopub", *(p if isinstance(p, bytes) else p.encode() for p in session.serialize(msg))]


# A page's session: its kernel info, an execute, a widget's update, and untracked messages while busy and idle.
MESSAGES = [
    ("status", {"execution_state": "starting"}, None),
    ("status", {"execution_state": "busy"}, "kernel_info_request"),
    ("status", {"execution_state": "idle"}, "kernel_info_request"),
    ("status", {"execution_state": "busy"}, "execute_request"),
    ("stream", {"name": "stdout", "text": "x"}, "execute_request"),
    ("status", {"execution_state": "idle"}, "execute_request"),
    ("status", {"execution_state": "busy"}, "comm_msg"),
    ("comm_msg", {"comm_id": "c", "data": {"method": "update", "state": {"value": 1}}}, "comm_msg"),
    ("stream", {"name": "stderr", "text": "w"}, "comm_info_request"),  # untracked: counts while busy
    ("status", {"execution_state": "idle"}, "comm_msg"),
    ("comm_msg", {"comm_id": "c", "data": {"method": "update", "state": {"value": 2}}}, None),
    ("stream", {"name": "stderr", "text": "w"}, "comm_info_request"),  # untracked: not counted when idle
    ("status", {"execution_state": "busy"}, "comm_info_request"),  # untracked: the state kept
]


@pytest.mark.parametrize("start", ["starting", "idle", "busy"])
def test_each_message_changes_what_jupyter_servers_watcher_changes(start, monkeypatch):
    """Fed the same messages, the app's watcher and jupyter_server's record the same state after each."""
    clock = iter(
        datetime.datetime(2026, 11, 27, tzinfo=datetime.UTC) + datetime.timedelta(seconds=s)
        for s in range(1000)
    )
    monkeypatch.setattr("jupyter_server._tz.utcnow", lambda: next(clock))
    monkeypatch.setattr("jupyter_server.services.kernels.kernelmanager.utcnow", lambda: next(clock))
    sender = Session(key=KEY)
    recorded = {}
    for name, start_watching in (
        ("jupyter_server", lambda m: MappingKernelManager.start_watching_activity(m, "k")),
        ("app", lambda m: activity.watch(m, "k")),
    ):
        kernel = _kernel(start)
        manager = _manager(kernel)
        start_watching(manager)
        assert kernel.reason == "" and kernel.last_activity is not None
        seen = []
        for msg_type, content, parent_type in MESSAGES:
            before = kernel.last_activity
            kernel._activity_stream.callback(_frames(sender, msg_type, content, parent_type))
            seen.append(
                (
                    kernel.execution_state,
                    kernel.last_activity != before,
                    manager.last_kernel_activity == kernel.last_activity,
                )
            )
        recorded[name] = seen
    assert recorded["app"] == recorded["jupyter_server"]
    assert any(touched for _s, touched, _m in recorded["app"])  # the clock was restarted by some message
    assert any(not touched for _s, touched, _m in recorded["app"])  # and not by others


def test_a_status_message_with_a_wrong_signature_is_refused():
    kernel = _kernel("idle")
    activity.watch(_manager(kernel), "k")
    frames = _frames(Session(key=b"another key"), "status", {"execution_state": "busy"}, "execute_request")
    with pytest.raises(ValueError, match="Signature"):
        kernel._activity_stream.callback(frames)
    assert kernel.execution_state == "idle"


def test_the_app_server_watches_with_this_recorder():
    from vtsmodel.app import serve

    _app, manager_class = serve._app_class()
    assert manager_class.start_watching_activity is not MappingKernelManager.start_watching_activity
    kernel = _kernel("starting")
    manager = _manager(kernel)
    manager_class.start_watching_activity(manager, "k")
    kernel._activity_stream.callback(_frames(Session(key=KEY), "status", {"execution_state": "idle"}, None))
    assert kernel.execution_state == "idle"
