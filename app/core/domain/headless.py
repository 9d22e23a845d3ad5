"""Headless (structured) turns of an agent that has no live terminal (SPEC C8 "structured turns",
docs/contracts.md §10): which protocol a profile speaks, the prompt a turn sends, and the
`StructuredSpec` built from the agent's prepared launch. Pure.
"""

from __future__ import annotations

from typing import Literal

from app.core.domain.agent_session import StructuredSpec, idea_mcp_server
from app.core.domain.delegation import Ticket
from app.core.domain.launch_plan import Delegation, LaunchPlan
from app.core.domain.profiles import Profile

Protocol = Literal["acp", "claude-stream-json", "codex-exec"]
PROTOCOLS: tuple[Protocol, ...] = ("acp", "claude-stream-json", "codex-exec")

#: Spellings of `structuredAdapter` accepted on disk: ours, and the original IdeA's enum
#: (`Claude`, `Codex`; digest §1.6, "enum spelling on disk NOT IN DIFF": both cases taken).
_ALIASES: dict[str, Protocol] = {
    "acp": "acp",
    "claude-stream-json": "claude-stream-json", "claude": "claude-stream-json",
    "codex-exec": "codex-exec", "codex": "codex-exec",
}


def structured_protocol(profile: Profile) -> Protocol | None:
    """The structured protocol `profile` declares (`structuredAdapter`), or None (a PTY-only
    profile: a task for it needs its terminal)."""
    value = profile.structured_adapter
    return _ALIASES.get(value.strip().lower()) if value else None


#: Where a vendor hook's JSON names the CLI's own session: Claude Code hooks `session_id`
#: (hooks.md, common input fields), Codex `notify` `thread-id` (config.md, "notify"), and the
#: camelCase some wrappers use.
_ENGINE_ID_KEYS = ("session_id", "thread-id", "thread_id", "sessionId")


def engine_session_id(payload: dict[str, object]) -> str | None:
    """The vendor's session id a hook payload reports (what resumes it), or None."""
    for key in _ENGINE_ID_KEYS:
        value = payload.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def headless_prompt(ticket: Ticket) -> str:
    """What a headless turn sends: the request's header and its text as given (newlines kept:
    nothing is typed). The turn's final answer is the reply; no `idea_reply` is needed."""
    what = "handoff" if ticket.signal == "HANDOFF" else "task"
    lines = [f"[IdeA · {what} from {ticket.label} · ticket {ticket.id}]", ticket.text]
    if ticket.files:
        lines.append(f"Files: {', '.join(ticket.files)}")
    if ticket.zone:
        lines.append(f"Zone: {ticket.zone}")
    if ticket.decision:
        lines.append(f"Decision so far: {ticket.decision}")
    if ticket.kind == "ask":
        lines.append("(Your final answer in this turn is sent back as the reply.)")
    return "\n".join(lines)


def structured_spec(plan: LaunchPlan, protocol: Protocol, delegation: Delegation | None,
                    resume_id: str | None, turn_timeout_s: float) -> StructuredSpec:
    """The session to start for a headless turn: the launch plan's argv, cwd (the run dir) and
    environment; IdeA's MCP relay handed over by ACP (`session/new`), while Claude and Codex
    read theirs from the vendor projection already in the argv and run dir; `resume_id` the
    pair's engine session id for this profile (never an IdeA id)."""
    spawn = plan.spawn
    mcp = idea_mcp_server(delegation) if protocol == "acp" and delegation is not None else None
    return StructuredSpec(command=(spawn.command, *spawn.args), cwd=spawn.cwd,
                          env=dict(spawn.env), resume_id=resume_id, mcp=mcp,
                          turn_timeout_s=turn_timeout_s)
