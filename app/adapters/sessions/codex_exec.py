"""Structured Codex turns: one `codex exec --json` process per turn, its JSON lines translated
by `CodexExecParser`; the conversation goes on with `exec resume <thread_id>`.

Command line (`codex exec --help`, 0.171.0): `<spec.command…> exec --json
--skip-git-repo-check [resume <thread_id>] -- <prompt>`, stdin closed (with stdin open,
Codex reads it and appends it to the prompt). `--skip-git-repo-check`: an agent's run dir
need not be a repository. Offline, Codex retries forever ("Reconnecting… n/5", then
"waiting for network"): the turn timeout kills its process group and the `TIMEOUT` names the
last error. `codex exec` asks no permission (it runs under its approval policy). IdeA's MCP
server reaches Codex through the vendor projection (`-c mcp_servers.idea.*` in
`spec.command`), not through `spec.mcp`.
"""

from __future__ import annotations

from app.adapters.sessions.codex_events import CodexExecParser
from app.adapters.sessions.turns import LineSession
from app.core.domain.agent_session import StructuredSpec


def codex_argv(command: tuple[str, ...], prompt: str, thread_id: str | None) -> list[str]:
    """The argv of one turn (see the module docstring)."""
    resume = ["resume", thread_id] if thread_id else []
    return [*command, "exec", "--json", "--skip-git-repo-check", *resume, "--", prompt]


class CodexExecSessions:
    """`AgentSessions` for Codex's `exec --json` mode."""

    def start(self, spec: StructuredSpec) -> LineSession:
        """Checks the executable and the cwd now (`COMMAND_NOT_FOUND`, `NOT_FOUND`); the CLI
        itself runs at each `prompt`."""
        return LineSession(spec, "codex", codex_argv, CodexExecParser)
