"""`idea mcp-server --endpoint P --requester A --token T`: the stdio MCP server an agent's CLI
launches, relaying its stdin/stdout to the project endpoint (docs/contracts.md §7.6).

Standard library only (starts in tens of milliseconds). It writes nothing but the endpoint's
MCP bytes on stdout; a refusal (bad token: `FORBIDDEN`) or an unreachable endpoint is said on
stderr with exit code 1, within the handshake timeout, and the MCP client sees the connection
close (Claude Code: "✘ Failed to connect").
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TextIO

from app.commands.endpoint_client import Channel, EndpointError, connect

#: Bound on connecting and on the handshake (s).
HANDSHAKE_TIMEOUT_S = 10.0
_CHUNK = 65536


def run_relay(endpoint: str, requester: str, token: str, *, stdin_fd: int = 0,
              stdout_fd: int = 1, stderr: TextIO | None = None,
              timeout_s: float = HANDSHAKE_TIMEOUT_S) -> int:
    """Relay until the endpoint closes (0), or refuse at once (1)."""
    err = stderr or sys.stderr
    try:
        sock = connect(endpoint, "mcp", requester, token, timeout_s)
    except EndpointError as exc:
        print(f"idea mcp-server: {exc.code}: {exc.message}", file=err, flush=True)
        return 1
    with sock:
        threading.Thread(target=_upstream, args=(stdin_fd, sock), name="idea-relay-up",
                         daemon=True).start()
        try:
            while data := sock.recv(_CHUNK):
                _write_all(stdout_fd, data)
        except OSError as exc:  # the endpoint or our stdout went away: the session is over
            print(f"idea mcp-server: connection ended: {exc}", file=err, flush=True)
    return 0


def _upstream(stdin_fd: int, sock: Channel) -> None:
    """stdin → endpoint until stdin ends, then tell the server it ended (a Unix socket is
    half-closed and the server may still answer; a pipe, which cannot, ends the session)."""
    try:
        while data := os.read(stdin_fd, _CHUNK):
            sock.sendall(data)
        sock.shutdown_write()
    except OSError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
