"""Which transport the endpoint client picks from the address (`endpoint_client`): a Windows
pipe name or a Unix socket path, and the error an address of the other kind gets here."""

from __future__ import annotations

import sys

import pytest

from app.commands.endpoint_client import (
    PIPE_PREFIX,
    UNREACHABLE,
    EndpointError,
    call,
    connect,
    is_pipe_address,
    open_channel,
)


@pytest.mark.parametrize(("address", "pipe"), [
    ("\\\\.\\pipe\\idea-me-0123456789abcdef", True), ("\\\\.\\PIPE\\idea-x", True),
    ("/run/user/1000/idea/0123.sock", False), ("C:\\pipe\\x", False), ("", False)])
def test_pipe_addresses_are_told_from_socket_paths(address: str, pipe: bool) -> None:
    assert is_pipe_address(address) is pipe
    assert PIPE_PREFIX == "\\\\.\\pipe\\"


@pytest.mark.skipif(sys.platform == "win32", reason="off Windows only")
def test_a_pipe_address_off_windows_is_unreachable_and_says_why() -> None:
    pipe = "\\\\.\\pipe\\idea-me-0123456789abcdef"
    for attempt in (lambda: open_channel(pipe, 1.0),
                    lambda: connect(pipe, "command", "a1", "tok"),
                    lambda: call(pipe, "a1", "tok", {"type": "agent.list"})):
        with pytest.raises(EndpointError) as caught:
            attempt()
        assert caught.value.code == UNREACHABLE
        assert "is a Windows named pipe" in caught.value.message


def test_a_missing_socket_is_unreachable(tmp_path: object) -> None:
    with pytest.raises(EndpointError) as caught:
        connect(f"{tmp_path}/gone.sock" if sys.platform != "win32" else "\\\\.\\pipe\\idea-gone-x",
                "command", "a1", "tok", 1.0)
    assert caught.value.code == UNREACHABLE and "no IdeA answers" in caught.value.message
