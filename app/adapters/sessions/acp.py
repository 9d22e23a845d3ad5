"""Structured turns over the Agent Client Protocol: the `AgentSessions` port's ACP adapter.

The session itself, and the SDK (PyPI `agent-client-protocol`) with it, live in `acp_session`,
imported on the first ACP session: the SDK's pydantic models took ~0.6 s of IdeA's ~2 s start-up
to an interactive window on a 2-core host (`bench/report.py`, docs/benchmarks.md sitting 18),
for a protocol most projects never start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.domain.agent_session import StructuredSpec

if TYPE_CHECKING:
    from app.adapters.sessions.acp_session import AcpSession


class AcpSessions:
    """`AgentSessions` for ACP agents: `start` spawns the agent and opens its session."""

    def start(self, spec: StructuredSpec) -> AcpSession:
        """Raises `AppError`: `COMMAND_NOT_FOUND`, `NOT_FOUND` (cwd), `SESSION_ERROR` (the
        agent's error, e.g. "Authentication required"), `TIMEOUT`."""
        from app.adapters.sessions.acp_session import AcpSession

        session = AcpSession(spec)
        session.open()
        return session

