"""Who is behind a process, or behind the other end of a named pipe (Windows, pywin32).

Shared by the named-pipe endpoint host (`app/adapters/endpoint/named_pipe.py`, which refuses
clients of other users) and its client (`app/commands/pipe_channel.py`, which refuses to give
its token to a pipe another user serves). Identities are string SIDs (`S-1-5-21-…`).

UNVERIFIED: type-checked with `mypy --platform win32` on Linux only; it runs on Windows in
`tests/integration/test_endpoint_windows.py`. Importing it elsewhere raises `AssertionError`.
"""

from __future__ import annotations

import sys
from typing import Literal

assert sys.platform == "win32", "app.win_identity is Windows only"

import pywintypes  # noqa: E402
import win32api  # noqa: E402
import win32con  # noqa: E402
import win32pipe  # noqa: E402
import win32security  # noqa: E402


def current_user_sid() -> str:
    """The SID of the user this process runs as. Raises `pywintypes.error` (should not)."""
    token = win32security.OpenProcessToken(win32api.GetCurrentProcess(), win32security.TOKEN_QUERY)
    try:
        return _token_user(token)
    finally:
        win32api.CloseHandle(token)


def process_user_sid(pid: int) -> str | None:
    """The SID of the user process `pid` runs as; None when it cannot be told (the process is
    gone, or we may not query it — a process of another user, typically)."""
    try:
        process = win32api.OpenProcess(win32con.PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    except pywintypes.error:
        return None
    try:
        token = win32security.OpenProcessToken(process, win32security.TOKEN_QUERY)
        try:
            return _token_user(token)
        finally:
            win32api.CloseHandle(token)
    except pywintypes.error:
        return None
    finally:
        win32api.CloseHandle(process)


def pipe_peer_sid(pipe: int, peer: Literal["client", "server"]) -> str | None:
    """The user of the process at the `peer` end of pipe handle `pipe` (the client, seen from
    a server handle; the server, seen from a client handle). None: it cannot be told."""
    try:
        if peer == "client":
            pid = int(win32pipe.GetNamedPipeClientProcessId(pipe))
        else:
            pid = int(win32pipe.GetNamedPipeServerProcessId(pipe))
    except pywintypes.error:
        return None
    return process_user_sid(pid)


def _token_user(token: int) -> str:
    sid, _attributes = win32security.GetTokenInformation(token, win32security.TokenUser)
    return str(win32security.ConvertSidToStringSid(sid))
