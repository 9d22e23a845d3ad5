"""A project endpoint as the app will wire it — this platform's real host (a Unix socket; a
named pipe on Windows), the real MCP and command doors — over a fake orchestrator and fake
launch tokens. Shared by the door tests."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.adapters.endpoint.host_base import EndpointHostBase
from app.commands.endpoint_client import open_channel
from app.commands.endpoint_door import CommandDoor, EndpointDoor
from app.core.domain.delegation import AgentCaller
from app.core.ports import EndpointHello, EndpointStream
from app.mcp.door import McpDoor
from tests.unit.fakes import FakeDispatcher, FakeVerifier

REPO = Path(__file__).resolve().parents[2]
ROOT = "/work/demo-project"
ALICE = AgentCaller(ROOT, "a1", "Alice", "s-a")
BOB = AgentCaller(ROOT, "b1", "Bob", "s-b")
TOKENS = {"a1": "tok-a", "b1": "tok-b"}


@dataclass
class World:
    path: str
    host: EndpointHostBase
    dispatcher: FakeDispatcher


def platform_host(parent: str, handshake_timeout_s: float = 10.0) -> EndpointHostBase:
    """A host of this platform for tests: sockets in `<parent>/idea` (POSIX), or pipes named
    `\\\\.\\pipe\\idea-test-<random>-…` (Windows, where `parent` is not used)."""
    if sys.platform == "win32":
        from app.adapters.endpoint.named_pipe import NamedPipeEndpointHost

        return NamedPipeEndpointHost(f"idea-test-{uuid.uuid4().hex[:12]}",
                                     handshake_timeout_s=handshake_timeout_s)
    from app.adapters.endpoint.unix_socket import UnixSocketEndpointHost

    return UnixSocketEndpointHost(os.path.join(parent, "idea"),
                                  handshake_timeout_s=handshake_timeout_s)


@contextmanager
def endpoint_world(*, block_asks: bool = True, progress_interval_s: float = 0.05
                   ) -> Iterator[World]:
    """A served endpoint for `ROOT` (in a short private temp dir on POSIX); everything ends on
    exit."""
    parent = tempfile.mkdtemp(prefix="ie-", dir=None if sys.platform == "win32" else "/tmp")
    dispatcher = FakeDispatcher(block_asks=block_asks)
    verifier = FakeVerifier({"tok-a": ALICE, "tok-b": BOB})
    host = platform_host(parent)
    host.set_handler(EndpointDoor(
        verifier, mcp=McpDoor(dispatcher, progress_interval_s=progress_interval_s),
        command=CommandDoor(dispatcher)))
    try:
        yield World(host.serve(ROOT), host, dispatcher)
    finally:
        for ask in list(dispatcher.pending):
            dispatcher.release(ask, "released at teardown")
        host.close_all()
        shutil.rmtree(parent, ignore_errors=True)


def idea_argv(*args: str) -> list[str]:
    """`python -m app <args>`: IdeA's own executable from source."""
    return [sys.executable, "-m", "app", *args]


class EchoHandler:
    """Accepts, then echoes each line prefixed with the requester; `boom` requesters raise."""

    def __init__(self) -> None:
        self.hellos: list[tuple[str, EndpointHello]] = []

    async def handle(self, root: str, hello: EndpointHello, stream: EndpointStream) -> None:
        self.hellos.append((root, hello))
        if hello.requester == "boom":
            raise RuntimeError("handler bug")
        await stream.answer_hello(None)
        while (line := await stream.receive_line(1024)) is not None:
            await stream.send(hello.requester.encode() + b":" + line + b"\n")


def read_line(stream: Any) -> bytes:
    """Bytes up to and with the next newline, read one at a time from a socket or a channel
    (less at EOF)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = stream.recv(1)
        if not chunk:
            break
        data += chunk
    return data


def hello_line(requester: str = "a1", kind: str = "mcp", token: str = "t") -> bytes:
    """An endpoint first line, with its newline."""
    return json.dumps({"v": 1, "kind": kind, "requester": requester,
                       "token": token}).encode() + b"\n"


def in_parallel(count: int, client: Callable[[int], bytes]) -> dict[int, bytes]:
    """Run `client(0)` … `client(count - 1)` in threads at once; their results by number.
    Raises the first exception a client raised."""
    results: dict[int, bytes] = {}
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            results[n] = client(n)
        except BaseException as exc:  # re-raised below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if errors:
        raise errors[0]
    return results


class RawConnection:
    """A client speaking the endpoint's wire directly (no relay): for malformed input."""

    def __init__(self, path: str, kind: str = "mcp", requester: str = "a1",
                 token: str = "tok-a") -> None:
        self.sock = open_channel(path, 20)
        self._buffer = b""
        self.send_line(json.dumps({"v": 1, "kind": kind, "requester": requester,
                                   "token": token}).encode())
        self.hello_answer = json.loads(self.read_line())

    def send_line(self, line: bytes) -> None:
        self.sock.sendall(line + b"\n")

    def send_json(self, value: object) -> None:
        self.send_line(json.dumps(value).encode())

    def read_line(self) -> bytes:
        while b"\n" not in self._buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("endpoint closed the connection")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def read_json(self) -> dict[str, object]:
        value = json.loads(self.read_line())
        assert isinstance(value, dict)
        return value

    def response_to(self, request_id: object) -> dict[str, object]:
        """Read messages until the response (or error) to `request_id`."""
        while True:
            message = self.read_json()
            if message.get("id") == request_id and ("result" in message or "error" in message):
                return message

    def close(self) -> None:
        self.sock.close()
