"""Codex's `exec --json` output as turn events. Hand-written: no Python library reads it.

Source: `codex-rs/exec/src/exec_events.rs` (`ThreadEvent`: `thread.started{thread_id}`,
`turn.started`, `turn.completed{usage}`, `turn.failed{error{message}}`,
`item.started|updated|completed{item{id, type, …}}`, `error{message}`; item types
`agent_message{text}`, `reasoning`, `command_execution{command, exit_code, status}`,
`file_change{changes[{path, kind}]}`, `mcp_tool_call{server, tool}`, `web_search{query}`,
`todo_list`, `error{message}`), and the real 0.171.0 offline, which never ends by itself:

    {"type":"thread.started","thread_id":"01a23147-…"}
    {"type":"turn.started"}
    {"type":"error","message":"Reconnecting... 2/5 (stream disconnected before completion: …)"}
    {"type":"item.completed","item":{"id":"item_0","type":"error","message":"Falling back …"}}
    {"type":"error","message":"Reconnecting... waiting for network (Connection failed: …)"}

A top-level `error` is a retry while the process goes on: it is remembered (`last_error`),
and ends the turn only when the stream ends without `turn.completed`.
"""

from __future__ import annotations

from typing import Any

from app.core.domain.agent_session import Final, Heartbeat, TextDelta, ToolActivity, TurnEvent

DETAIL_CHARS = 200


def _tool(item: dict[str, Any]) -> ToolActivity | None:
    """The tool an item stands for (None for messages, reasoning, plans, errors)."""
    kind = item.get("type")
    if kind == "command_execution":
        return ToolActivity("command", str(item.get("command") or "")[:DETAIL_CHARS] or None)
    if kind == "file_change":
        changes = item.get("changes")
        paths = [str(c.get("path")) for c in changes if isinstance(c, dict)] \
            if isinstance(changes, list) else []
        return ToolActivity("file change", ", ".join(paths)[:DETAIL_CHARS] or None)
    if kind == "mcp_tool_call":
        return ToolActivity(f"{item.get('server') or 'mcp'}/{item.get('tool') or 'tool'}")
    if kind == "web_search":
        return ToolActivity("web search", str(item.get("query") or "")[:DETAIL_CHARS] or None)
    return None


class CodexExecParser:
    """One turn of `exec --json` lines. The Final's text is the turn's last agent message (what
    `codex exec --output-last-message` keeps); each agent message is also a TextDelta."""

    def __init__(self, resume_id: str | None = None) -> None:
        self._thread_id = resume_id
        self._last_error: str | None = None
        self._last_text = ""
        self._announced: set[str] = set()

    @property
    def engine_session_id(self) -> str | None:
        return self._thread_id

    @property
    def last_error(self) -> str | None:
        return self._last_error

    def feed(self, message: dict[str, Any]) -> list[TurnEvent]:
        """The events of one line: `thread.started`, `turn.started` → Heartbeat (the thread id
        is kept); `item.*` → see `_item`; `error` → Heartbeat (remembered); `turn.completed` →
        Final; `turn.failed` → an error Final with its message."""
        kind = message.get("type")
        if kind == "thread.started":
            if isinstance(message.get("thread_id"), str) and message["thread_id"]:
                self._thread_id = message["thread_id"]
            return [Heartbeat()]
        if kind == "turn.completed":
            return [Final(text=self._last_text, engine_session_id=self._thread_id)]
        if kind == "turn.failed":
            error = message.get("error")
            why = error.get("message") if isinstance(error, dict) else None
            return [Final(text=self._last_text, engine_session_id=self._thread_id,
                          is_error=True,
                          error_message=str(why or self._last_error or "the turn failed"))]
        if kind == "error":
            self._remember(message.get("message"))
            return [Heartbeat()]
        if isinstance(kind, str) and kind.startswith("item.") \
                and isinstance(message.get("item"), dict):
            return self._item(kind, message["item"])
        return [Heartbeat()]

    def _item(self, kind: str, item: dict[str, Any]) -> list[TurnEvent]:
        """A completed `agent_message` → TextDelta; a tool item → ToolActivity once (when it
        starts, or when it completes unannounced, e.g. a `file_change`); an `error` item is
        remembered; anything else → Heartbeat."""
        item_type = item.get("type")
        if item_type == "agent_message" and kind == "item.completed":
            self._last_text = str(item.get("text") or "")
            return [TextDelta(self._last_text)]
        if item_type == "error":
            self._remember(item.get("message"))
            return [Heartbeat()]
        tool = _tool(item)
        item_id = str(item.get("id") or "")
        if tool is not None and (not item_id or item_id not in self._announced):
            self._announced.add(item_id)
            return [tool]
        return [Heartbeat()]

    def _remember(self, message: object) -> None:
        if isinstance(message, str) and message.strip():
            self._last_error = message.strip()
