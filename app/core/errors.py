"""`AppError` and its stable error codes (contract §3).

The bridge turns an `AppError` into a rejected promise whose message is `to_json()` serialised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NOT_FOUND = "NOT_FOUND"
INVALID = "INVALID"
ALREADY_EXISTS = "ALREADY_EXISTS"
NOT_WRITABLE = "NOT_WRITABLE"
CORRUPT_FILE = "CORRUPT_FILE"
AGENT_ALREADY_RUNNING = "AGENT_ALREADY_RUNNING"
# A file changed on disk since the window read it: writing would lose that edit.
CHANGED_ON_DISK = "CHANGED_ON_DISK"
COMMAND_NOT_FOUND = "COMMAND_NOT_FOUND"
INTERNAL = "INTERNAL"
# Delegation (SPEC C8): a caller that is not who it says, a full inbox, a turn that ran out of
# time, an ask that would close a wait cycle, a turn that ended without a reply.
FORBIDDEN = "FORBIDDEN"
INBOX_FULL = "INBOX_FULL"
TIMEOUT = "TIMEOUT"
CYCLE = "CYCLE"
NO_REPLY = "NO_REPLY"
CANCELLED = "CANCELLED"  # the asker went away (hung up, exited) before the answer
AGENT_ERROR = "AGENT_ERROR"  # the target answered with an ERROR packet
# Structured (headless) turns (SPEC C8): the agent's CLI reported a failure in its own words
# ("Not logged in · Please run /login"), or its stream ended without a result.
SESSION_ERROR = "SESSION_ERROR"

ERROR_CODES: frozenset[str] = frozenset(
    {
        NOT_FOUND,
        INVALID,
        ALREADY_EXISTS,
        NOT_WRITABLE,
        CORRUPT_FILE,
        AGENT_ALREADY_RUNNING,
        CHANGED_ON_DISK,
        COMMAND_NOT_FOUND,
        INTERNAL,
        FORBIDDEN,
        INBOX_FULL,
        TIMEOUT,
        CYCLE,
        NO_REPLY,
        CANCELLED,
        AGENT_ERROR,
        SESSION_ERROR,
    }
)


class AppError(Exception):
    """An expected failure with a stable `code` (one of `ERROR_CODES`).

    `message` is human readable (shown in the UI); `details` is a JSON-able dict of extra data,
    e.g. `{"nodeId": ..., "sessionId": ...}` for `AGENT_ALREADY_RUNNING`.
    Raises `ValueError` when `code` is not a known code.
    """

    def __init__(
        self, code: str, message: str, details: Mapping[str, Any] | None = None
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code: {code}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        """Return `{"code", "message", "details"}` for the bridge."""
        return {"code": self.code, "message": self.message, "details": dict(self.details)}

    def __repr__(self) -> str:
        return f"AppError({self.code!r}, {self.message!r}, {self.details!r})"
