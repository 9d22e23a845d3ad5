"""`UnixSocketEndpointHost` on real Unix sockets in temp dirs (POSIX only): modes, stale and
live sockets, the first line, many connections, stopping.

A test handler stands in for the doors: it accepts every hello and echoes lines back.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import stat
import tempfile
import threading
from collections.abc import Iterator

import pytest

pytest.importorskip("fcntl", reason="Unix-socket endpoint (POSIX only)")

from app.adapters.endpoint.host_base import ServedEndpoint
from app.adapters.endpoint.loop_thread import LoopThread
from app.adapters.endpoint.socket_dir import endpoint_dir, ensure_private_dir, socket_path
from app.adapters.endpoint.stream import AsyncioEndpointStream
from app.adapters.endpoint.unix_socket import UnixSocketEndpointHost
from app.bootstrap import endpoint_door, endpoint_host, local_doors
from app.commands.endpoint_client import EndpointError
from app.commands.endpoint_client import connect as client_connect
from app.core.errors import ALREADY_EXISTS, FORBIDDEN, NOT_WRITABLE, AppError
from app.core.ports import EndpointHello
from tests.integration.endpoint_world import EchoHandler, hello_line, in_parallel, read_line

pytestmark = pytest.mark.timeout(60)
ROOT = "/home/me/project"


@pytest.fixture
def sock_dir() -> Iterator[str]:
    parent = tempfile.mkdtemp(prefix="ie-", dir="/tmp")  # short: sun_path is 108 bytes
    yield os.path.join(parent, "idea")
    shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
def handler() -> EchoHandler:
    return EchoHandler()


@pytest.fixture
def host(sock_dir: str, handler: EchoHandler) -> Iterator[UnixSocketEndpointHost]:
    h = UnixSocketEndpointHost(sock_dir, handshake_timeout_s=1.0)
    h.set_handler(handler)
    yield h
    h.close_all()


def connect(path: str) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    return s




def test_serve_makes_a_private_dir_and_a_0600_socket(host: UnixSocketEndpointHost,
                                                     sock_dir: str) -> None:
    path = host.serve(ROOT)
    assert path == socket_path(sock_dir, ROOT)
    assert stat.S_IMODE(os.stat(sock_dir).st_mode) == 0o700
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert host.serve(ROOT + "/") == path  # served already: same address


def test_a_connection_is_handed_over_after_its_first_line(host: UnixSocketEndpointHost,
                                                          handler: EchoHandler) -> None:
    path = host.serve(ROOT)
    with connect(path) as s:
        s.sendall(hello_line("a1", "command") + b"ping\n")
        assert json.loads(read_line(s)) == {"ok": True}
        assert read_line(s) == b"a1:ping\n"
    assert handler.hellos == [(ROOT, EndpointHello("command", "a1", "t"))]


def test_a_group_or_world_accessible_dir_is_made_private(sock_dir: str) -> None:
    os.mkdir(sock_dir, 0o755)
    os.chmod(sock_dir, 0o777)
    ensure_private_dir(sock_dir)
    assert stat.S_IMODE(os.stat(sock_dir).st_mode) == 0o700


def test_a_symlink_or_a_file_in_place_of_the_dir_is_refused(sock_dir: str) -> None:
    target = sock_dir + "-real"
    os.mkdir(target, 0o700)
    os.symlink(target, sock_dir)
    with pytest.raises(AppError) as caught:
        ensure_private_dir(sock_dir)
    assert caught.value.code == NOT_WRITABLE and "symlink" in caught.value.message
    os.unlink(sock_dir)
    open(sock_dir, "w").close()
    with pytest.raises(AppError):
        ensure_private_dir(sock_dir)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the dir to another user")
def test_a_dir_of_another_user_is_refused(sock_dir: str) -> None:
    os.mkdir(sock_dir, 0o700)
    os.chown(sock_dir, 4321, 4321)
    with pytest.raises(AppError) as caught:
        ensure_private_dir(sock_dir)
    assert caught.value.code == NOT_WRITABLE and "another user" in caught.value.message


def test_the_default_dir_is_under_xdg_runtime_dir_else_tmp(tmp_path: str) -> None:
    assert endpoint_dir({"XDG_RUNTIME_DIR": str(tmp_path)}, "/tmp", 7) == f"{tmp_path}/idea"
    assert endpoint_dir({}, "/tmp", 7) == "/tmp/idea-7"
    assert endpoint_dir({"XDG_RUNTIME_DIR": "relative"}, "/tmp", 7) == "/tmp/idea-7"
    assert endpoint_dir({"XDG_RUNTIME_DIR": f"{tmp_path}/missing"}, "/tmp", 7) == "/tmp/idea-7"
    host = UnixSocketEndpointHost(env={"XDG_RUNTIME_DIR": str(tmp_path)})
    assert host.directory() == f"{tmp_path}/idea"


def test_a_too_long_socket_path_is_refused_clearly() -> None:
    with pytest.raises(AppError) as caught:
        socket_path("/" + "d" * 100, ROOT)
    assert caught.value.code == NOT_WRITABLE and "too long" in caught.value.message


def test_a_stale_socket_is_reclaimed(sock_dir: str, handler: EchoHandler) -> None:
    os.mkdir(sock_dir, 0o700)
    path = socket_path(sock_dir, ROOT)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(path)  # a crashed IdeA: the file stays, nobody accepts
    dead.close()
    host = UnixSocketEndpointHost(sock_dir)
    host.set_handler(handler)
    try:
        assert host.serve(ROOT) == path
        with connect(path) as s:
            s.sendall(hello_line() + b"x\n")
            assert json.loads(read_line(s)) == {"ok": True}
    finally:
        host.close_all()


def test_stale_sockets_of_other_projects_are_swept_at_the_first_serve(
        sock_dir: str, handler: EchoHandler) -> None:
    os.mkdir(sock_dir, 0o700)
    stale = socket_path(sock_dir, "/work/killed-project")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(stale)  # left behind by an IdeA ended with SIGKILL/SIGTERM
    dead.close()
    live_host = UnixSocketEndpointHost(sock_dir)
    live_host.set_handler(handler)
    live = live_host.serve("/work/live-project")
    note = os.path.join(sock_dir, "notes.txt")
    open(note, "w").close()
    host = UnixSocketEndpointHost(sock_dir)
    host.set_handler(handler)
    try:
        host.serve(ROOT)
        assert not os.path.exists(stale)
        assert os.path.exists(live) and os.path.isfile(note)  # answered / not a socket: kept
    finally:
        host.close_all()
        live_host.close_all()


def test_a_live_socket_of_another_ideA_is_left_alone(host: UnixSocketEndpointHost,
                                                     sock_dir: str,
                                                     handler: EchoHandler) -> None:
    path = host.serve(ROOT)
    other = UnixSocketEndpointHost(sock_dir)
    other.set_handler(handler)
    try:
        with pytest.raises(AppError) as caught:
            other.serve(ROOT)
        assert caught.value.code == ALREADY_EXISTS
        assert "open in another IdeA" in caught.value.message
        with connect(path) as s:  # the first one still serves
            s.sendall(hello_line() + b"still\n")
            assert json.loads(read_line(s)) == {"ok": True}
            assert read_line(s) == b"a1:still\n"
        host.stop(ROOT)
        assert other.serve(ROOT) == path  # once it stopped, the project can be served here
    finally:
        other.close_all()


def test_a_file_that_is_not_a_socket_is_not_removed(sock_dir: str) -> None:
    os.mkdir(sock_dir, 0o700)
    path = socket_path(sock_dir, ROOT)
    open(path, "w").close()
    host = UnixSocketEndpointHost(sock_dir)
    try:
        with pytest.raises(AppError) as caught:
            host.serve(ROOT)
        assert caught.value.code == NOT_WRITABLE and os.path.isfile(path)
    finally:
        host.close_all()


@pytest.mark.parametrize("line", [b"not json\n", b"[]\n", b'{"v":1,"kind":"x"}\n',
                                  b"\xff\n", b"x" * 70_000 + b"\n"])
def test_a_malformed_first_line_is_answered_invalid_and_closed(
        host: UnixSocketEndpointHost, handler: EchoHandler, line: bytes) -> None:
    with connect(host.serve(ROOT)) as s:
        try:
            s.sendall(line)
        except BrokenPipeError:  # the oversized line: the server may close before reading it all
            pass
        answer = json.loads(read_line(s))
        assert answer["ok"] is False and answer["error"]["code"] == "INVALID"
        assert answer["error"]["message"]
        assert s.recv(1) == b""
    assert handler.hellos == []


def test_a_silent_client_is_dropped_after_the_handshake_timeout(
        host: UnixSocketEndpointHost) -> None:
    with connect(host.serve(ROOT)) as s:
        answer = json.loads(read_line(s))
        assert answer["error"]["code"] == "INVALID" and "no first line" in answer["error"]["message"]


def test_a_failing_handler_never_stops_the_listener(host: UnixSocketEndpointHost) -> None:
    path = host.serve(ROOT)
    with connect(path) as s:
        s.sendall(hello_line("boom"))
        assert s.recv(1) == b""  # closed without an answer
    with connect(path) as s:
        s.sendall(hello_line("a2") + b"after\n")
        assert json.loads(read_line(s)) == {"ok": True}
        assert read_line(s) == b"a2:after\n"


class RefusingHost(UnixSocketEndpointHost):
    """A transport that judges every peer foreign (what the named-pipe host does to a client of
    another user), so `host_base`'s refusal path runs here."""

    async def _listen(self, served: ServedEndpoint, sock: socket.socket) -> asyncio.AbstractServer:
        async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            refusal = AppError(FORBIDDEN, "not one of ours")
            await self._serve_connection(served, AsyncioEndpointStream(reader, writer), refusal)

        return await asyncio.start_unix_server(on_connection, sock=sock)


def test_a_peer_the_transport_refuses_gets_forbidden_whatever_its_first_line(
        sock_dir: str, handler: EchoHandler) -> None:
    host = RefusingHost(sock_dir)
    host.set_handler(handler)
    try:
        path = host.serve(ROOT)
        for first in (hello_line("a1") + b"more\n", b"not json\n"):
            with connect(path) as s:
                s.sendall(first)
                assert json.loads(read_line(s)) == {
                    "ok": False, "error": {"code": FORBIDDEN, "message": "not one of ours"}}
                assert s.recv(1) == b""
        with pytest.raises(EndpointError) as caught:
            client_connect(path, "command", "a1", "t")
        assert caught.value.code == FORBIDDEN and handler.hellos == []
    finally:
        host.close_all()


def test_many_concurrent_connections_are_all_served(host: UnixSocketEndpointHost) -> None:
    path = host.serve(ROOT)
    barrier = threading.Barrier(100)

    def client(n: int) -> bytes:
        with connect(path) as s:
            barrier.wait()
            s.sendall(hello_line(f"c{n}"))
            assert json.loads(read_line(s)) == {"ok": True}
            for i in range(5):
                s.sendall(f"m{i}\n".encode())
                last = read_line(s)
            return last

    assert in_parallel(100, client) == {n: f"c{n}:m4\n".encode() for n in range(100)}


def test_projects_have_their_own_sockets(host: UnixSocketEndpointHost,
                                         handler: EchoHandler) -> None:
    a, b = host.serve("/p/a"), host.serve("/p/b")
    assert a != b
    for path in (a, b):
        with connect(path) as s:
            s.sendall(hello_line() + b"x\n")
            assert read_line(s) == b'{"ok":true}\n'
    assert [root for root, _ in handler.hellos] == ["/p/a", "/p/b"]


def test_stop_ends_the_connections_and_removes_the_socket(host: UnixSocketEndpointHost) -> None:
    path = host.serve(ROOT)
    s = connect(path)
    s.sendall(hello_line() + b"x\n")
    assert read_line(s) == b'{"ok":true}\n' and read_line(s) == b"a1:x\n"
    host.stop(ROOT)
    assert not os.path.exists(path)
    assert s.recv(1) == b""
    s.close()
    host.stop(ROOT)  # no-op
    assert host.serve(ROOT) == path  # and it can serve again


def test_close_all_stops_everything(sock_dir: str, handler: EchoHandler) -> None:
    host = UnixSocketEndpointHost(sock_dir)
    host.set_handler(handler)
    paths = [host.serve("/p/a"), host.serve("/p/b")]
    host.close_all()
    assert not any(os.path.exists(p) for p in paths)
    assert host.serve("/p/a") == paths[0]  # a new loop starts on demand
    host.close_all()


def test_without_a_handler_connections_are_refused_politely(sock_dir: str) -> None:
    host = UnixSocketEndpointHost(sock_dir)
    try:
        with connect(host.serve(ROOT)) as s:
            s.sendall(hello_line())
            answer = json.loads(read_line(s))
            assert answer["ok"] is False and answer["error"]["code"] == "INTERNAL"
    finally:
        host.close_all()


def test_the_loop_thread_runs_on_the_loop_its_factory_makes() -> None:
    made: list[asyncio.AbstractEventLoop] = []

    def factory() -> asyncio.AbstractEventLoop:  # NamedPipeEndpointHost passes ProactorEventLoop
        made.append(asyncio.new_event_loop())
        return made[-1]

    async def which() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    thread = LoopThread(loop_factory=factory)
    assert thread.run(which()) is made[0] and thread.run(which()) is made[0]
    thread.stop()
    assert len(made) == 1 and made[0].is_closed()


def test_the_app_serves_its_endpoint_on_this_platform_s_host() -> None:
    host = endpoint_host()
    try:
        assert isinstance(host, UnixSocketEndpointHost)  # a NamedPipeEndpointHost on Windows
        assert endpoint_door in local_doors()
    finally:
        host.close_all()
