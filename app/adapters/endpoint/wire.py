"""The endpoint's first line (docs/contracts.md §7.5), shared by every endpoint adapter.

Client → server: `{"v": 1, "kind": "mcp"|"command", "requester": <agent id>, "token": <launch
token>}` + `\\n`, at most `MAX_HELLO_BYTES`. Server → client: `{"ok": true}` or `{"ok": false,
"error": {"code", "message"}}` + `\\n` (then it closes).
"""

from __future__ import annotations

import json
from typing import Any

from app.core.errors import INVALID, AppError
from app.core.ports import EndpointHello

#: Protocol version of the first line.
VERSION = 1
#: Longest first line accepted (bytes, without the newline).
MAX_HELLO_BYTES = 64 * 1024
KINDS = ("mcp", "command")

ACCEPTED = b'{"ok":true}\n'


def parse_hello(line: bytes) -> EndpointHello:
    """Validate a first line (without its newline); raises `AppError(INVALID)` saying what is
    wrong (not JSON, not an object, a missing or mistyped field, another version)."""
    try:
        value: Any = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise AppError(INVALID, "endpoint handshake: the first line is not JSON") from exc
    if not isinstance(value, dict):
        raise AppError(INVALID, "endpoint handshake: the first line is not a JSON object")
    if value.get("v") != VERSION or isinstance(value.get("v"), bool):
        raise AppError(INVALID, f"endpoint handshake: unsupported version {value.get('v')!r} "
                                f"(this IdeA speaks {VERSION})", {"field": "v"})
    kind = value.get("kind")
    if kind not in KINDS:
        raise AppError(INVALID, f"endpoint handshake: kind must be one of {', '.join(KINDS)}",
                       {"field": "kind"})
    for field in ("requester", "token"):
        if not isinstance(value.get(field), str):
            raise AppError(INVALID, f"endpoint handshake: {field} must be a string",
                           {"field": field})
    if not value["requester"]:
        raise AppError(INVALID, "endpoint handshake: requester is empty", {"field": "requester"})
    return EndpointHello(kind=kind, requester=value["requester"], token=value["token"])


def refusal(code: str, message: str) -> bytes:
    """The answer line refusing a connection."""
    body = {"ok": False, "error": {"code": code, "message": message}}
    return json.dumps(body, ensure_ascii=False).encode("utf-8") + b"\n"
