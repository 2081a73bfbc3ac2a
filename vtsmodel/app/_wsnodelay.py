"""The kernel websocket of the app's server, with Nagle's algorithm off.

jupyter_server leaves its kernel websockets with tornado's default, Nagle's algorithm on.
A slider move makes the kernel send a few small messages in a row (the slider's echo, the
plot's moving part, the readouts); with Nagle on, each one after the first waits for the
browser's ACK of the one before, which Linux delays by up to 40 ms. Measured with
``benchmarks/bench_pages.py`` on lesson 04: key press to the plot's message 45 ms with
Nagle, a few ms without.

This module imports jupyter_server; only the server (:mod:`vtsmodel.app.serve`) names it.
"""

from __future__ import annotations

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["NoDelayConnection"]


class NoDelayConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection that sends each message at once (TCP_NODELAY)."""

    def connect(self):
        """Turn Nagle's algorithm off on the websocket, then connect to the kernel's channels."""
        self.websocket_handler.set_nodelay(True)
        return super().connect()
