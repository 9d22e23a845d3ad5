"""The endpoint's first line and socket naming (docs/contracts.md §7.5): pure parts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.adapters.endpoint.socket_dir import socket_name
from app.adapters.endpoint.wire import ACCEPTED, parse_hello, refusal
from app.core.errors import INVALID, AppError
from app.core.ports import EndpointHello


def hello(**fields: object) -> bytes:
    base: dict[str, object] = {"v": 1, "kind": "mcp", "requester": "a1", "token": "tok"}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not ...}).encode()


def test_a_good_first_line_parses() -> None:
    assert parse_hello(hello()) == EndpointHello("mcp", "a1", "tok")
    assert parse_hello(hello(kind="command", token="")) == EndpointHello("command", "a1", "")


@pytest.mark.parametrize(("line", "says"), [
    (b"", "not JSON"),
    (b"hello", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (hello(v=2), "unsupported version 2"),
    (hello(v=True), "unsupported version True"),
    (hello(v=...), "unsupported version None"),
    (hello(kind="shell"), "kind must be one of mcp, command"),
    (hello(requester=7), "requester must be a string"),
    (hello(requester=""), "requester is empty"),
    (hello(token=None), "token must be a string"),
    (hello(token=...), "token must be a string"),
])
def test_a_bad_first_line_is_invalid_and_says_why(line: bytes, says: str) -> None:
    with pytest.raises(AppError) as caught:
        parse_hello(line)
    assert caught.value.code == INVALID
    assert says in caught.value.message


@given(st.binary(max_size=200))
def test_any_bytes_either_parse_or_raise_invalid(line: bytes) -> None:
    try:
        parse_hello(line)
    except AppError as exc:
        assert exc.code == INVALID


def test_answers_are_one_json_line() -> None:
    assert json.loads(ACCEPTED) == {"ok": True} and ACCEPTED.endswith(b"\n")
    line = refusal("FORBIDDEN", "not allowed: é")
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert json.loads(line) == {"ok": False, "error": {"code": "FORBIDDEN",
                                                       "message": "not allowed: é"}}


def test_socket_name_is_a_short_stable_hash_of_the_clean_root() -> None:
    name = socket_name("/home/me/proj")
    assert len(name) == len("0123456789abcdef.sock") and name.endswith(".sock")
    assert int(name[:16], 16) >= 0
    assert socket_name("/home/me/proj/") == name
    assert socket_name("/home/me/other") != name
    assert len(socket_name("/" + "x" * 4000)) == len(name)
