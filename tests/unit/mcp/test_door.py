"""`McpDoor`: the MCP server is built (the SDK imported) once, on the first connection, in a
worker thread, so the endpoint's event loop serves other connections meanwhile."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from app.mcp.door import McpDoor
from tests.unit.fakes import FakeDispatcher


class Built(Exception):
    """Raised by the recording door instead of serving: the test only looks at the build."""


class RecordingDoor(McpDoor):
    def __init__(self) -> None:
        super().__init__(FakeDispatcher())
        self.built_on: list[threading.Thread] = []

    def server(self) -> Any:
        self.built_on.append(threading.current_thread())
        raise Built


def test_the_first_connection_builds_the_server_off_the_event_loop() -> None:
    door = RecordingDoor()
    loop_thread: list[threading.Thread] = []

    async def connect() -> None:
        loop_thread.append(threading.current_thread())
        await door.serve(None, None)  # type: ignore[arg-type]  # never reached: Built

    with pytest.raises(Built):
        asyncio.run(connect())
    assert door.built_on and door.built_on[0] is not loop_thread[0]


def test_the_server_is_built_once() -> None:
    door = McpDoor(FakeDispatcher())
    assert door.server() is door.server()
