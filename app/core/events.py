"""Domain events: what happened, published by the use cases on the event bus (`EventSink`).

Every door that shows state subscribes (each window's push pump); the window's bridge turns
them into the wire events of `docs/contracts.md` §4 (`app/bridge/dto.py`). An event naming a
session never overtakes that session's output (the pump keeps the order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.domain.layout import LayoutDoc
from app.core.domain.sessions import SessionRecord

AgentState = Literal["running", "stopped"]


@dataclass(frozen=True)
class ProblemRaised:
    """A file could not be read (`file` absolute); `root` is the project, or None app-wide."""

    file: str
    message: str
    root: str | None = None


@dataclass(frozen=True)
class LayoutChanged:
    """The layouts document of project `root` changed (an edit, a launch, a shell opened)."""

    root: str
    layouts: LayoutDoc


@dataclass(frozen=True)
class SessionStarted:
    """Project `root` started a session (a shell or an agent)."""

    root: str
    session: SessionRecord


@dataclass(frozen=True)
class SessionExited:
    """A session of project `root` ended; `exit_code` is None when killed or unknown."""

    root: str
    session_id: str
    exit_code: int | None


@dataclass(frozen=True)
class SessionReleased:
    """An ended session shown in no cell was forgotten: its scrollback is gone."""

    root: str
    session_id: str


@dataclass(frozen=True)
class AgentStateChanged:
    """Agent `agent_id` of project `root` is now `state` (`session_id` while running)."""

    root: str
    agent_id: str
    state: AgentState
    session_id: str | None = None


DomainEvent = (ProblemRaised | LayoutChanged | SessionStarted | SessionExited | SessionReleased
               | AgentStateChanged)

def session_of(event: DomainEvent) -> str | None:
    """The session id `event` names, if any: the push pump keeps such an event behind that
    session's pending output."""
    if isinstance(event, SessionExited | SessionReleased):
        return event.session_id
    if isinstance(event, SessionStarted):
        return event.session.session_id
    return None
