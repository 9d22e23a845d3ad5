"""Gemini CLI (npm `@google/gemini-cli`): IdeA's MCP server in the run dir's
`.gemini/settings.json`.

Sources (checked on 0.61.0, see docs/adr/003-delegation.md; bundled docs tools/mcp-server.md,
cli/trusted-folders.md): `{"mcpServers": {"idea": {"command", "args", "env", "timeout",
"trust"}}}` with `$VAR` expanded in `env`; servers of an untrusted folder are disabled, and
`GEMINI_CLI_TRUST_WORKSPACE=true` trusts the CLI's workspace (the run dir, which IdeA owns).
"""

from __future__ import annotations

import json
import posixpath

from app.core.domain.launch_plan import Delegation, PlannedFile, Projection
from app.core.domain.profiles import Profile

TOOL_TIMEOUT_MS = 3_600_000


def project(profile: Profile, delegation: Delegation, idea: str) -> Projection:
    """`.gemini/settings.json` and the trust variable of one launch."""
    server = {
        "command": delegation.idea_command[0],
        "args": [*delegation.idea_command[1:], "mcp-server", "--endpoint", delegation.endpoint,
                 "--requester", delegation.agent_id],
        "env": {"IDEA_TOKEN": "$IDEA_TOKEN"},
        "timeout": TOOL_TIMEOUT_MS,
        "trust": True,
    }
    settings = posixpath.join(delegation.run_dir, ".gemini", "settings.json")
    return Projection(
        files=(PlannedFile(settings, json.dumps({"mcpServers": {"idea": server}}, indent=2)
                           + "\n"),),
        env={"GEMINI_CLI_TRUST_WORKSPACE": "true"},
        mcp=True,
    )
