"""Codex CLI (npm `@openai/codex`): IdeA's MCP server and turn-end notification as `-c`
overrides.

Sources (checked on codex-cli 0.171.0, see docs/adr/003-delegation.md; docs/config.md of
openai/codex): `-c key=value` takes a TOML value and needs no project trust (a project
`.codex/config.toml` is ignored until trusted); `mcp_servers.<name>.command/args/env_vars/
tool_timeout_sec` (the default tool timeout, 60 s, is far too short for a delegation; the MCP
child's environment is a whitelist, hence `env_vars`); `notify = [program…]` runs the program
with one JSON argument `{"type": "agent-turn-complete", …}` at each turn end.

`sandbox_mode = "workspace-write"` by default: the profile grants the project with `--add-dir`,
and Codex's own default for a folder it does not trust (any run dir with a fresh HOME) is
`read-only`, where it prints "Ignoring --add-dir (…) because the effective permissions do not
allow additional writable roots" and quits (observed on 0.171.0). `workspace-write` is what
Codex itself runs in a trusted folder; posed permissions replace it (`-c` overrides apply in
order, the last one wins: checked on 0.171.0).
"""

from __future__ import annotations

import json

from app.core.domain.launch_plan import Delegation, Projection
from app.core.domain.profiles import Profile

TOOL_TIMEOUT_S = 3_600
#: Codex's sandbox when no permissions are posed (see the module doc).
DEFAULT_SANDBOX_MODE = "workspace-write"


def _toml(value: object) -> str:
    """A TOML literal for a string or a list of strings (JSON strings are valid TOML basic
    strings)."""
    return json.dumps(value)


def project(profile: Profile, delegation: Delegation, idea: str) -> Projection:
    """The `-c` overrides of one launch."""
    args = [*delegation.idea_command[1:], "mcp-server", "--endpoint", delegation.endpoint,
            "--requester", delegation.agent_id]
    overrides = {
        "mcp_servers.idea.command": _toml(delegation.idea_command[0]),
        "mcp_servers.idea.args": _toml(args),
        "mcp_servers.idea.env_vars": _toml(["IDEA_TOKEN", "IDEA_ENDPOINT", "IDEA_AGENT_ID"]),
        "mcp_servers.idea.tool_timeout_sec": str(TOOL_TIMEOUT_S),
        "notify": _toml([idea, "hook", "stop"]),
        "sandbox_mode": _toml(DEFAULT_SANDBOX_MODE),
    }
    flat: list[str] = []
    for key, value in overrides.items():
        flat += ["-c", f"{key}={value}"]
    return Projection(args=tuple(flat), mcp=True)
