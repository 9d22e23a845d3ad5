"""Claude Code (npm `@anthropic-ai/claude-code`): IdeA's MCP server in `.mcp.json`, approved and
hooked through `--settings`.

Sources (checked on 2.1.197 and 2.1.332, see docs/adr/003-delegation.md): a project `.mcp.json`
`{"mcpServers": {"idea": {"command", "args", "env", "timeout"}}}` in the CLI's cwd, with `${VAR}`
expanded from Claude's environment (so the token never lands on disk); approvals in
`.claude/settings.local.json` count only in a trusted folder, while `--settings <file>` applies
everywhere (docs: mcp.md "Project server approvals"); hooks `{"hooks": {Event: [{"matcher",
"hooks": [{"type": "command", "command"}]}]}}` (docs: hooks.md; `PermissionDenied` and
`PostToolUseFailure` report refused tool calls, read from the 2.1.332 hook input schemas:
`{tool_name, tool_input, tool_use_id, reason}` / `{…, error, is_interrupt?}`);
`crossSessionInbound: "refuse"` turns off Claude's own inbound cross-session messages (2.1.224+,
settings-reference.md), so IdeA's mailbox stays the one channel.
"""

from __future__ import annotations

import json
import posixpath
import shlex

from app.core.domain.launch_plan import Delegation, PlannedFile, Projection
from app.core.domain.profiles import Profile

#: Claude Code hook event → IdeA's `idea hook` event name.
HOOKS = {"SessionStart": "session-start", "Stop": "stop", "StopFailure": "stop-failure",
         "Notification": "notification", "PermissionDenied": "permission-denied",
         "PostToolUseFailure": "tool-failure"}
#: A delegation may wait for a whole turn of another agent: one hour per call, and the MCP
#: door sends progress while it waits (Claude's idle timeout counts from the last one).
TOOL_TIMEOUT_MS = 3_600_000


def project(profile: Profile, delegation: Delegation, idea: str) -> Projection:
    """`.mcp.json`, `.claude/idea-settings.json` and `--settings` for one launch."""
    run = delegation.run_dir
    server = {
        "command": delegation.idea_command[0],
        "args": [*delegation.idea_command[1:], "mcp-server", "--endpoint", delegation.endpoint,
                 "--requester", delegation.agent_id, "--token=${IDEA_TOKEN}"],
        "timeout": TOOL_TIMEOUT_MS,
    }
    settings = {
        "enabledMcpjsonServers": ["idea"],
        "crossSessionInbound": "refuse",
        "hooks": {event: [{"matcher": "", "hooks": [
            {"type": "command", "command": f"{shlex.quote(idea)} hook {name}"}]}]
            for event, name in HOOKS.items()},
    }
    settings_file = posixpath.join(run, ".claude", "idea-settings.json")
    return Projection(
        files=(PlannedFile(posixpath.join(run, ".mcp.json"),
                           json.dumps({"mcpServers": {"idea": server}}, indent=2) + "\n"),
               PlannedFile(settings_file, json.dumps(settings, indent=2) + "\n")),
        args=("--settings", settings_file),
        mcp=True,
    )
