"""Domain events: what happened, published by the use cases on the event bus (`EventSink`).

Every door that shows state subscribes (each window's push pump); the window's bridge turns
them into the wire events of `docs/contracts.md` §4 (`app/bridge/dto.py`). An event naming a
session never overtakes that session's output (the pump keeps the order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.domain.activity import Activity
from app.core.domain.denials import Denial
from app.core.domain.layout import LayoutDoc
from app.core.domain.sessions import SessionRecord

AgentState = Literal["running", "stopped"]
DelegationState = Literal["queued", "active", "done", "failed"]


@dataclass(frozen=True)
class ProblemRaised:
    """A file could not be read (`file` absolute); `root` is the project, or None app-wide;
    `recovery` names the one-click way out the UI offers (`START_FRESH`), if any."""

    file: str
    message: str
    root: str | None = None
    recovery: str | None = None


@dataclass(frozen=True)
class ProblemResolved:
    """The problem with `file` (absolute) of project `root` is gone (the user recovered it)."""

    file: str
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
class KillPending:
    """A closed cell's shell `session_id` of project `root` runs on hidden and is killed in
    `grace_ms` ms unless a cell shows it again (undo): ADR 021."""

    root: str
    session_id: str
    grace_ms: int


@dataclass(frozen=True)
class SessionReleased:
    """An ended session shown in no cell was forgotten: its scrollback is gone."""

    root: str
    session_id: str


@dataclass(frozen=True)
class AgentsChanged:
    """The agents of project `root` changed outside IdeA (`agents.json` edited): windows list
    them again."""

    root: str


@dataclass(frozen=True)
class AgentStateChanged:
    """Agent `agent_id` of project `root` is now `state` (`session_id` while running)."""

    root: str
    agent_id: str
    state: AgentState
    session_id: str | None = None


@dataclass(frozen=True)
class AgentActivityChanged:
    """Agent `agent_id` of `root` is now `activity`, with `queue_depth` tickets waiting after
    its current turn (`ticket`, if any)."""

    root: str
    agent_id: str
    activity: Activity
    queue_depth: int
    ticket: str | None = None
    blocked_on: str | None = None


@dataclass(frozen=True)
class DelegationChanged:
    """Ticket `ticket` from `requester` (an agent id, or None for the user) to `target` is now
    `state`; `reason` is the error code of a failed one (TIMEOUT, NO_REPLY, …)."""

    root: str
    ticket: str
    requester: str | None
    target: str
    state: DelegationState
    reason: str | None = None
    kind: str = "ask"  # "ask" (someone waits for the reply) or "message" (fire and forget)


@dataclass(frozen=True)
class HeadlessActivity:
    """Agent `agent_id`'s headless turn for `ticket` did something: `kind` `started` (`text`
    = the task), `text` (a piece of its answer), `tool` (a tool it used), `permission` (it asks
    the user), `rateLimited`, `final` (its answer) or `error` (why the turn failed); `at_ms`
    epoch milliseconds."""

    root: str
    agent_id: str
    ticket: str
    kind: str
    text: str
    at_ms: int


@dataclass(frozen=True)
class DelegationReady:
    """Type `text` into session `session_id` (agent `agent_id`) for `ticket`, through the write
    portal of the window view `view` (docs/contracts.md §7.3); `submit_sequence` after
    `submit_delay_ms` (None: the defaults, `\r` after 60 ms); not while the screen shows one
    of the profile's `waiting_screens` (the CLI waits for its human)."""

    root: str
    agent_id: str
    session_id: str
    view: str
    ticket: str
    text: str
    submit_sequence: str | None = None
    submit_delay_ms: int | None = None
    line_dirty: bool = False  # a portal last reported the human's line with text on it
    waiting_screens: tuple[str, ...] = ()


@dataclass(frozen=True)
class EscalationRaised:
    """Agent `agent_id` of `root` needs the user to choose one of `options` (seed 004
    ESCALATE); `task` is its current task, if any; `ticket` names the question."""

    root: str
    ticket: str
    agent_id: str
    options: tuple[str, ...]
    task: str | None = None


@dataclass(frozen=True)
class EscalationResolved:
    """Question `ticket` was answered with `choice` (None: withdrawn, its agent went away)."""

    root: str
    ticket: str
    choice: str | None


@dataclass(frozen=True)
class DenialReported:
    """Something refused agent `agent_id` of `root` (`denial`: a refused launch, or the CLI's
    own report of a denied tool call; see `app/core/domain/denials.py`)."""

    root: str
    agent_id: str
    denial: Denial


DomainEvent = (ProblemRaised | ProblemResolved | LayoutChanged | SessionStarted | SessionExited
               | KillPending | SessionReleased | AgentsChanged | AgentStateChanged
               | AgentActivityChanged | DelegationChanged
               | DelegationReady | EscalationRaised | EscalationResolved | HeadlessActivity
               | DenialReported)

def session_of(event: DomainEvent) -> str | None:
    """The session id `event` names, if any: the push pump keeps such an event behind that
    session's pending output."""
    if isinstance(event, SessionExited | SessionReleased | KillPending):
        return event.session_id
    if isinstance(event, SessionStarted):
        return event.session.session_id
    if isinstance(event, DelegationReady):
        return event.session_id
    return None
