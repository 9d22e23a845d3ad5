"""Structured (headless) turns with an AI CLI (SPEC C8, digest §1): what starts a session and
the events one turn produces, whatever the protocol (ACP, Claude `stream-json`, Codex
`exec --json`). The adapters in `app/adapters/sessions/` translate each protocol into these.

A turn's events, in order: any number of `TextDelta`, `ToolActivity`, `PermissionRequest`,
`Heartbeat`, `RateLimited`, then exactly one `Final`, always last — also when the turn fails
(then `Final.is_error` and the turn raises an `AppError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from app.core.domain.launch_plan import Delegation

#: SPEC C8: a turn that has not finished after this long releases the queue (`TIMEOUT`).
DEFAULT_TURN_TIMEOUT_S = 300.0
#: A permission request nobody answers within this long is denied.
DEFAULT_PERMISSION_TIMEOUT_S = 120.0
#: The name IdeA's MCP server carries in an agent's configuration.
IDEA_MCP_SERVER_NAME = "idea"


@dataclass(frozen=True)
class TextDelta:
    """A piece of the agent's answer (not terminal)."""

    text: str


@dataclass(frozen=True)
class ToolActivity:
    """The agent uses a tool: `label` names it (`Bash`, `command`, an ACP tool call's title),
    `detail` says on what when the protocol tells (a command line, a path, an ACP kind)."""

    label: str
    detail: str | None = None


@dataclass(frozen=True)
class PermissionOption:
    """One answer to a permission request: `option_id` to pass back, `name` to show, `kind`
    as ACP names it (`allow_once`, `allow_always`, `reject_once`, `reject_always`)."""

    option_id: str
    name: str
    kind: str


@dataclass(frozen=True)
class PermissionRequest:
    """The agent asks before using a tool; answer with `AgentSession.respond_permission
    (request_id, option_id)`. Unanswered within the permission timeout, it is denied."""

    request_id: str
    title: str
    options: tuple[PermissionOption, ...]


@dataclass(frozen=True)
class Heartbeat:
    """The CLI is alive (it printed something that carries no content for IdeA)."""


@dataclass(frozen=True)
class RateLimited:
    """The vendor says its usage limit is reached (not terminal); `resets_at_ms` is when it
    lifts (epoch ms), `None` when the vendor gave no usable time (digest §3)."""

    resets_at_ms: int | None


@dataclass(frozen=True)
class Final:
    """The end of a turn, exactly once, last. `text` is the agent's answer; `engine_session_id`
    the vendor's conversation id to resume with (None when it gave none). `is_error` with
    `error_message` (the CLI's own words) when the turn failed."""

    text: str
    engine_session_id: str | None
    is_error: bool = False
    error_message: str | None = None


TurnEvent = TextDelta | ToolActivity | PermissionRequest | Heartbeat | RateLimited | Final


@dataclass(frozen=True)
class McpServerCommand:
    """A stdio MCP server to hand the agent where its protocol takes one (ACP `session/new`):
    `command` (absolute), `args`, and `env` added to the server's environment."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class StructuredSpec:
    """How to start a structured session.

    `command`: the agent's argv prefix (its executable, then the profile's and the vendor
    projection's arguments); the adapter appends its protocol's own (`-p … --output-format
    stream-json`, `exec --json …`; nothing for ACP, whose command already speaks it).
    `cwd`: absolute working directory (the agent's run dir). `env`: variables added to the
    user's environment. `resume_id`: the engine session id of an earlier conversation, or None
    for a fresh one. `mcp`: IdeA's MCP server, given by the ACP adapter in `session/new`
    (Claude and Codex get theirs from the vendor projection, in `command` and the run dir).
    `turn_timeout_s`: a turn (and the ACP handshake) longer than this is ended: `TIMEOUT`.
    `permission_timeout_s`: an unanswered permission request is denied after this long.
    """

    command: tuple[str, ...]
    cwd: str
    env: Mapping[str, str] = field(default_factory=dict)
    resume_id: str | None = None
    mcp: McpServerCommand | None = None
    turn_timeout_s: float = DEFAULT_TURN_TIMEOUT_S
    permission_timeout_s: float = DEFAULT_PERMISSION_TIMEOUT_S


def idea_mcp_server(delegation: Delegation) -> McpServerCommand:
    """IdeA's `mcp-server` relay for `delegation` (contracts §7.5): `<idea> mcp-server
    --endpoint P --requester A`, the launch token in `IDEA_TOKEN` (the relay's default) so it
    never shows in a process list."""
    return McpServerCommand(
        name=IDEA_MCP_SERVER_NAME,
        command=delegation.idea_command[0],
        args=(*delegation.idea_command[1:], "mcp-server", "--endpoint", delegation.endpoint,
              "--requester", delegation.agent_id),
        env={"IDEA_TOKEN": delegation.token},
    )


def deny_option(options: tuple[PermissionOption, ...]) -> PermissionOption | None:
    """The option that denies a request: the first `reject_once`, else `reject_always`, else
    None (the request is then answered "cancelled")."""
    for kind in ("reject_once", "reject_always"):
        for option in options:
            if option.kind == kind:
                return option
    return None
