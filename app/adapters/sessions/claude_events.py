"""Claude Code's `stream-json` output (`claude -p … --output-format stream-json --verbose`) as
turn events. Hand-written (ADR 005): the format is small, `claude-agent-sdk` does not fit.

Sources: Claude Code's headless docs (`cli-reference.md`, `headless.md`), the Agent SDK's
message types (`SDKSystemMessage`, `SDKAssistantMessage`, `SDKResultMessage`,
`SDKRateLimitEvent`), and the real 2.1.332 offline (/tmp research B.6):

    {"type":"system","subtype":"init","session_id":"…","cwd":…,"tools":[…],"mcp_servers":[…]}
    {"type":"assistant","message":{"content":[{"type":"text","text":"Not logged in · Please
      run /login"}]},"session_id":"…","error":"authentication_failed"}
    {"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run
      /login","session_id":"…"}

A `result` with `subtype: "success"` may still be an error: `is_error` decides.
"""

from __future__ import annotations

import json
from typing import Any

from app.core.domain.agent_session import (
    Final,
    Heartbeat,
    RateLimited,
    TextDelta,
    ToolActivity,
    TurnEvent,
)
from app.core.domain.epoch import to_epoch_ms

#: Keys of `rate_limit_info` that may carry the reset instant, first present wins (digest §1.4).
RESET_KEYS = ("resetsAt", "resets_at", "reset_at", "resetAt", "reset")
#: `rate_limit_info.status` values that say the call went through: no limit reached.
ALLOWED = ("allowed", "allowed_warning")
#: `tool_use.input` keys that say what a tool works on, in order of preference.
DETAIL_KEYS = ("command", "file_path", "path", "pattern", "url", "query", "description")
DETAIL_CHARS = 200
#: Said after Claude Code's own words when its `assistant` line carries `error:
#: "authentication_failed"` ("Not logged in · Please run /login" names no way in from IdeA).
AUTH_HINT = (" — Claude Code has no login here: run `claude` in a terminal and type /login, "
             "or set ANTHROPIC_API_KEY in the environment IdeA starts from")


def parse_reset_ms(info: object) -> int | None:
    """The reset instant (epoch ms) of a `rate_limit_info` object; None when absent or not an
    instant (a relative `retryAfter` is ignored: no clock here)."""
    if not isinstance(info, dict):
        return None
    for key in RESET_KEYS:
        if key in info:
            return to_epoch_ms(info[key])
    return None


def tool_detail(tool_input: object) -> str | None:
    """What a `tool_use` works on (its command, path, pattern …), cut to `DETAIL_CHARS`."""
    if not isinstance(tool_input, dict):
        return None
    for key in DETAIL_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:DETAIL_CHARS]
    return json.dumps(tool_input, ensure_ascii=False)[:DETAIL_CHARS] if tool_input else None


class ClaudeStreamParser:
    """One turn of `stream-json` lines. `engine_session_id` starts at the resumed id and follows
    the `session_id` of every line (the last one wins)."""

    def __init__(self, resume_id: str | None = None) -> None:
        self._session_id = resume_id
        self._last_error: str | None = None
        self._auth_failed = False

    @property
    def engine_session_id(self) -> str | None:
        return self._session_id

    @property
    def last_error(self) -> str | None:
        return self._last_error

    def feed(self, message: dict[str, Any]) -> list[TurnEvent]:
        """The events of one line: `system` → Heartbeat; `rate_limit_event` → RateLimited
        (Heartbeat while its status is allowed); `assistant` → a TextDelta per text block and a
        ToolActivity per `tool_use` (its `name`, what it works on); `user` (tool results) and
        other types → Heartbeat; `result` → a ToolActivity per permission denial, then the Final."""
        session_id = message.get("session_id")
        if isinstance(session_id, str) and session_id:
            self._session_id = session_id
        kind = message.get("type")
        if kind == "result":
            return [*self._denials(message), self._final(message)]
        if kind == "rate_limit_event":
            info = message.get("rate_limit_info")
            status = info.get("status") if isinstance(info, dict) else None
            if status in ALLOWED:
                return [Heartbeat()]
            return [RateLimited(parse_reset_ms(info))]
        if kind == "assistant":
            return self._assistant(message)
        return [Heartbeat()]

    def _assistant(self, message: dict[str, Any]) -> list[TurnEvent]:
        body = message.get("message")
        blocks = body.get("content") if isinstance(body, dict) else None
        events: list[TurnEvent] = []
        texts: list[str] = []
        for block in blocks if isinstance(blocks, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
                events.append(TextDelta(block["text"]))
            elif block.get("type") == "tool_use":
                events.append(ToolActivity(str(block.get("name") or "tool"),
                                           tool_detail(block.get("input"))))
        if message.get("error") and texts:  # e.g. "authentication_failed": the text says why
            self._auth_failed = self._auth_failed or message["error"] == "authentication_failed"
            self._last_error = " ".join(texts) + (AUTH_HINT if self._auth_failed else "")
        return events or [Heartbeat()]

    @staticmethod
    def _denials(message: dict[str, Any]) -> list[TurnEvent]:
        """`result.permission_denials[]`: the tools `-p` refused without asking."""
        denials = message.get("permission_denials")
        events: list[TurnEvent] = []
        for denial in denials if isinstance(denials, list) else []:
            if isinstance(denial, dict):
                what = tool_detail(denial.get("tool_input"))
                events.append(ToolActivity(str(denial.get("tool_name") or "tool"),
                                           f"permission denied: {what}" if what
                                           else "permission denied"))
        return events

    def _final(self, message: dict[str, Any]) -> Final:
        result = message.get("result")
        text = result if isinstance(result, str) else ""
        subtype = str(message.get("subtype") or "")
        is_error = bool(message.get("is_error")) or subtype.startswith("error")
        if not is_error:
            return Final(text=text, engine_session_id=self._session_id)
        errors = message.get("errors")
        listed = "; ".join(str(e) for e in errors) if isinstance(errors, list) else ""
        why = text.strip() or listed or self._last_error or subtype or "the turn failed"
        if self._auth_failed and AUTH_HINT not in why:
            why += AUTH_HINT
        return Final(text=text, engine_session_id=self._session_id, is_error=True,
                     error_message=why)
