"""The orchestrator's bookkeeping of one agent ("line"): its mailbox, activity, live session,
the delivery of its current turn and who waits for which ticket. Plain state, guarded by the
orchestrator's lock; no I/O here.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from app.core.domain.activity import Activity, PromptWatch
from app.core.domain.mailbox import Mailbox
from app.core.domain.shell_input import TaskInput
from app.services.scheduler import Timer

#: Output of the current turn kept for a `NO_REPLY` answer (characters).
TAIL_CHARS = 4_000


@dataclass
class Outcome:
    """How a turn ended for its asker: `reply` text, or an error `code`/`message`/`details`."""

    reply: str | None = None
    code: str | None = None
    message: str = ""
    details: dict[str, object] = field(default_factory=dict)


class Waiter:
    """An asker blocked on one ticket."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self.outcome: Outcome | None = None

    def settle(self, outcome: Outcome) -> None:
        """Wake the asker (the first outcome wins)."""
        if self.outcome is None:
            self.outcome = outcome
            self._done.set()

    def wait(self, timeout_s: float | None = None) -> Outcome | None:
        """The outcome once settled (None when `timeout_s` ran out first)."""
        self._done.wait(timeout_s)
        return self.outcome


@dataclass
class Delivery:
    """The current turn's text on its way into the terminal: routed to window view `view`
    (None: typed by the headless portal, or waiting for the human's line to be clean there);
    `delivered` once typing began (the turn's output counts from then); `watch` looks for the
    prompt coming back (profiles with a prompt-ready pattern)."""

    ticket: str
    text: str
    view: str | None = None
    delivered: bool = False
    prompt_seen: bool = False
    watch: PromptWatch | None = None


@dataclass
class AgentLine:
    """One agent as the orchestrator knows it."""

    root: str
    agent_id: str
    name: str
    mailbox: Mailbox
    activity: Activity = "stopped"
    session_id: str | None = None
    started_at: float = 0.0
    last_output_at: float | None = None
    profile_id: str | None = None
    #: The CLI's own session id, as its hooks last reported it.
    engine_id: str | None = None
    prompt_pattern: str | None = None
    submit_sequence: str | None = None
    submit_delay_ms: int | None = None
    #: How its terminal takes a typed task (`shell`: typed as a no-op, `shell_input`).
    task_input: TaskInput = "prompt"
    #: Screens of its CLI waiting for its human: no task is typed while one shows (the page).
    waiting_screens: tuple[str, ...] = ()
    blocked_on: str | None = None
    delivery: Delivery | None = None
    #: A window's portal last said the human's line has text on it (headless typing waits).
    human_dirty: bool = False
    turn_timer: Timer | None = None
    turn_deadline: float = 0.0
    #: Seconds left of the turn's time while it is paused (the agent waits on its own asks).
    turn_left: float | None = None
    #: Tickets this agent asked others and still waits on (its own turn's clock stops).
    asking: set[str] = field(default_factory=set)
    #: A shell terminal runs a program (its next task waits): a re-check is scheduled.
    program_check: bool = False
    #: Its asker got TIMEOUT; the turn goes on until the CLI looks done (no task is typed
    #: into a CLI still at work), at most one more timeout.
    overdue: bool = False
    #: Set after a reply: the next turn waits until the CLI is back (quiet, prompt, stop hook).
    settling_since: float | None = None
    settle_watch: PromptWatch | None = None
    grace_timer: Timer | None = None
    #: No terminal, a structured profile: turns run headless (`headless_ticket`: the one
    #: running).
    headless: bool = False
    headless_ticket: str | None = None
    waiters: dict[str, Waiter] = field(default_factory=dict)
    #: Asks under way whose asker left (`withdraw_ask`): the turn runs on, answered to nobody.
    orphaned: set[str] = field(default_factory=set)
    tail: deque[str] = field(default_factory=deque)
    tail_chars: int = 0

    def remember(self, text: str) -> None:
        """Keep `text` as output of the current turn (bounded)."""
        self.tail.append(text)
        self.tail_chars += len(text)
        while self.tail and self.tail_chars - len(self.tail[0]) >= TAIL_CHARS:
            self.tail_chars -= len(self.tail.popleft())

    def forget_turn_output(self) -> None:
        """A new turn starts: its output starts empty."""
        self.tail.clear()
        self.tail_chars = 0
