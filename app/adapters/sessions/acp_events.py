"""Agent Client Protocol messages (PyPI `agent-client-protocol`, schema v1) as turn events, and
the error texts of its failures.

Sources: agentclientprotocol.com "Prompt turn" (`session/update` kinds `agent_message_chunk`,
`agent_thought_chunk`, `tool_call`, `tool_call_update`, `plan`, `usage_update` …), "Tool
calls" (`session/request_permission`, option kinds), the SDK's `acp.schema` models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from acp import RequestError
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    DeniedOutcome,
    RequestPermissionResponse,
    TextContentBlock,
    ToolCallStart,
)
from acp.schema import PermissionOption as AcpOption

from app.core.domain.agent_session import (
    Heartbeat,
    PermissionOption,
    TextDelta,
    ToolActivity,
    TurnEvent,
    deny_option,
)

#: JSON-RPC code ACP agents answer when they need a login (`RequestError.auth_required`).
AUTH_REQUIRED = -32000


def update_events(update: object) -> list[TurnEvent]:
    """The events of one `session/update`: a text `agent_message_chunk` → TextDelta; a
    `tool_call` (start) → ToolActivity(title, kind); anything else (thoughts, tool progress,
    plans, usage, non-text content) → Heartbeat."""
    if isinstance(update, AgentMessageChunk):
        if isinstance(update.content, TextContentBlock):
            return [TextDelta(update.content.text)]
        return [Heartbeat()]
    if isinstance(update, ToolCallStart):
        return [ToolActivity(update.title or update.tool_call_id, update.kind or None)]
    return [Heartbeat()]


def options_of(options: Sequence[AcpOption]) -> tuple[PermissionOption, ...]:
    """ACP permission options as IdeA's."""
    return tuple(PermissionOption(o.option_id, o.name, str(o.kind)) for o in options)


def permission_answer(options: tuple[PermissionOption, ...],
                      option_id: str | None) -> RequestPermissionResponse:
    """The response to a permission request: the chosen option, or when `option_id` is None
    the deny option (`deny_option`), or "cancelled" when the agent offered none."""
    chosen = option_id if option_id is not None else getattr(deny_option(options),
                                                             "option_id", None)
    if chosen is None:
        return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
    return RequestPermissionResponse(outcome=AllowedOutcome(option_id=chosen,
                                                            outcome="selected"))


def error_text(error: RequestError, auth_methods: Sequence[Any] = ()) -> str:
    """The agent's own message of a JSON-RPC error, with its `data.details`/`data.message`
    when it has one, and for "authentication required" the login methods it offers."""
    text = str(error) or f"error {error.code}"
    data = error.data
    if isinstance(data, dict):
        extra = data.get("details") or data.get("message")
        if isinstance(extra, str) and extra and extra not in text:
            text = f"{text}: {extra}"
    if error.code == AUTH_REQUIRED and auth_methods:
        names = [str(getattr(m, "name", "") or getattr(m, "id", "")) for m in auth_methods]
        text = f"{text} (log in with: {', '.join(n for n in names if n)})"
    return text
