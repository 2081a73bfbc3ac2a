"""A kernel's activity, as the app server records it from the kernel's IOPub messages.

jupyter_server watches every kernel's IOPub channel for its cull: a message of a tracked type
(or answering one, or any while the kernel is busy) restarts the kernel's idle clock
(``last_activity``), and a status message sets its ``execution_state``. Its watcher unpacks
every message's header, parent header and metadata with their dates parsed, and checks its
signature over the whole message, content included: about 0.15 ms a message on this machine,
a tenth of the server's work on a slider's move (nine messages on lesson 04, BENCHMARKS.md).
What it records needs two fields of two headers. This watcher reads those two headers alone;
a status message, which changes the execution state, is unpacked and its signature checked as
before. The other messages' signatures go unchecked here, as on their way to the page
(jupyter_server's v1 websocket protocol forwards them as they come): at worst a forged message
restarts an idle clock. What is recorded, and when, is jupyter_server's (2.x,
``MappingKernelManager.start_watching_activity``); ``tests/app/test_activity.py`` feeds both
watchers the same messages and compares what they record.

Imports jupyter_server when a watcher is started: the app server's module, not the core's.
"""

from __future__ import annotations

import json
from collections.abc import Callable


def recorder(manager, kernel, kernel_id: str, session) -> Callable[[list], None]:
    """The callback that records ``kernel``'s activity from one IOPub message's frames.

    ``manager`` is the mapping kernel manager (its ``track_message_type``, ``log`` and
    ``last_kernel_activity``), ``session`` a ``jupyter_client.session.Session`` with the
    kernel's key: it checks a status message's signature.
    """
    from jupyter_server._tz import utcnow

    def record_activity(msg_list: list) -> None:
        _idents, frames = session.feed_identities(msg_list)
        # frames: signature, header, parent header, metadata, content, buffers...
        msg_type = json.loads(bytes(frames[1]))["msg_type"]
        parent = json.loads(bytes(frames[2]))
        parent_msg_type = parent.get("msg_type") if isinstance(parent, dict) else None
        if (
            manager.track_message_type(msg_type)
            or manager.track_message_type(parent_msg_type)
            or kernel.execution_state == "busy"
        ):
            manager.last_kernel_activity = kernel.last_activity = utcnow()
        if msg_type == "status":
            execution_state = session.deserialize(frames)["content"]["execution_state"]
            if manager.track_message_type(parent_msg_type):
                kernel.execution_state = execution_state
            elif kernel.execution_state == "starting" and execution_state != "starting":
                # As jupyter_server: after starting, "idle" unless the status answers a tracked message.
                kernel.execution_state = "idle"
            manager.log.debug("activity on %s: %s (%s)", kernel_id, msg_type, kernel.execution_state)

    return record_activity


def watch(manager, kernel_id: str) -> None:
    """Start watching ``kernel_id``'s IOPub messages for its activity (in place of jupyter_server's)."""
    from jupyter_client.session import Session
    from jupyter_server._tz import utcnow

    manager.log.debug("Watching kernel activity: %s", kernel_id)
    kernel = manager._kernels[kernel_id]
    kernel.reason = ""
    kernel.last_activity = utcnow()
    kernel._activity_stream = kernel.connect_iopub()
    session = Session(config=kernel.session.config, key=kernel.session.key)
    kernel._activity_stream.on_recv(recorder(manager, kernel, kernel_id, session))
