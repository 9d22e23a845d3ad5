"""Structured Claude Code turns: one `claude -p` process per turn, its `stream-json` output
translated by `ClaudeStreamParser`; the conversation goes on with `--resume <session_id>`.

Command line (Claude Code CLI reference: `-p/--print`, `--output-format stream-json` needs
`--verbose`, `--resume <id>`): `<spec.command…> -p --output-format stream-json --verbose
[--resume <id>] -- <prompt>` (the `--` keeps a prompt starting with `-` a prompt), stdin
closed. `claude -p` asks no permission over its stream: what its settings do not allow is
denied and listed in the result (`permission_denials`, reported as ToolActivity). IdeA's MCP
server reaches Claude through the vendor projection (`.mcp.json` in the run dir, `--settings`
in `spec.command`), not through `spec.mcp`.
"""

from __future__ import annotations

from app.adapters.sessions.claude_events import ClaudeStreamParser
from app.adapters.sessions.turns import LineSession
from app.core.domain.agent_session import StructuredSpec


def claude_argv(command: tuple[str, ...], prompt: str, resume_id: str | None) -> list[str]:
    """The argv of one turn (see the module docstring)."""
    resume = ["--resume", resume_id] if resume_id else []
    return [*command, "-p", "--output-format", "stream-json", "--verbose", *resume, "--",
            prompt]


class ClaudeStreamSessions:
    """`AgentSessions` for Claude Code's `stream-json` mode."""

    def start(self, spec: StructuredSpec) -> LineSession:
        """Checks the executable and the cwd now (`COMMAND_NOT_FOUND`, `NOT_FOUND`); the CLI
        itself runs at each `prompt`."""
        return LineSession(spec, "claude", claude_argv, ClaudeStreamParser)
