"""Who may speak for which agent: one token per agent launch (SPEC C8 "Identity").

A launch makes a token for its session (`LaunchAgent`, from the `TokenSource` port) and the
agents service grants it here; every door an agent reaches (MCP server, `idea` command, hooks,
file protocol) presents `(requester, token)` and gets the caller back, or `FORBIDDEN`. The
token dies with its session.
"""

from __future__ import annotations

import hmac
import logging
import threading
from dataclasses import dataclass

from app.core.domain.delegation import AgentCaller
from app.core.errors import FORBIDDEN, AppError
from app.core.events import DomainEvent, SessionExited
from app.core.usecases.project_state import clean_root

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Grant:
    token: str
    caller: AgentCaller


class Credentials:
    """Launch tokens of live agent sessions. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_session: dict[str, _Grant] = {}

    def grant(self, caller: AgentCaller, token: str) -> None:
        """`token` (made by the launch) opens the doors for `caller`'s session."""
        with self._lock:
            self._by_session[caller.session_id] = _Grant(token, caller)

    def on_event(self, event: DomainEvent) -> None:
        """Event-bus handler: a session's end revokes its token."""
        if isinstance(event, SessionExited):
            self.revoke(event.session_id)

    def revoke(self, session_id: str) -> None:
        """The session ended: its token no longer opens anything."""
        with self._lock:
            self._by_session.pop(session_id, None)

    def verify(self, root: str, requester: str, token: str) -> AgentCaller:
        """The agent `requester` (its id) of project `root` presenting `token`.

        Raises `AppError(FORBIDDEN)` — and logs it — for no token, an unknown or revoked one, or
        a token of another agent or project.
        """
        with self._lock:
            grants = list(self._by_session.values())
        for grant in grants:
            if token and hmac.compare_digest(grant.token, token):
                if grant.caller.agent_id == requester and grant.caller.root == clean_root(root):
                    return grant.caller
                break
        log.warning("refused a call for agent %r of %s: bad or missing token", requester, root)
        why = ("no launch token was given (IDEA_TOKEN is empty)" if not token else
               f"this token does not belong to agent {requester!r} of this project (it is "
               "another agent's, or from an earlier launch)")
        raise AppError(FORBIDDEN, f"not allowed: {why}", {"requester": requester})
