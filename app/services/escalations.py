"""Escalations (seed 004 ESCALATE, docs/contracts.md §8.2): an agent needs the user to decide.
Its `idea_reply(signal="ESCALATE", options=[…])` waits here until the user picks an option or
types an answer in a window (`decide`), then gets the choice back."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from app.core.errors import INTERNAL, NOT_FOUND, AppError
from app.core.events import EscalationRaised, EscalationResolved
from app.core.ports import EventSink, IdSource


@dataclass
class _Pending:
    root: str
    agent_id: str
    event: EscalationRaised
    done: threading.Event
    choice: str | None = None
    failure: str | None = None


class Escalations:
    """Pending decisions of every project. Thread-safe."""

    def __init__(self, events: EventSink, ids: IdSource) -> None:
        self._events, self._ids = events, ids
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}

    def ask_user(self, root: str, agent_id: str, options: list[str], task: str | None) -> str:
        """Publish the question and block until the user answers; returns the choice.

        Raises `AppError(INTERNAL)` when the agent went away or IdeA closes first.
        """
        event = EscalationRaised(root, self._ids.new_id(), agent_id, tuple(options), task)
        pending = _Pending(root, agent_id, event, threading.Event())
        with self._lock:
            self._pending[event.ticket] = pending
        self._events.publish(event)
        pending.done.wait()
        if pending.failure is not None:
            raise AppError(INTERNAL, pending.failure)
        assert pending.choice is not None
        return pending.choice

    def decide(self, root: str, ticket: str, choice: str) -> None:
        """The user's answer to escalation `ticket`. Raises `AppError(NOT_FOUND)` when it is
        not pending (answered elsewhere, or its agent went away)."""
        with self._lock:
            pending = self._pending.pop(ticket, None)
        if pending is None or pending.root != root:
            raise AppError(NOT_FOUND, "this question was already answered or withdrawn",
                           {"ticket": ticket})
        pending.choice = choice
        pending.done.set()
        self._events.publish(EscalationResolved(root, ticket, choice))

    def pending(self, root: str) -> list[EscalationRaised]:
        """The questions of `root` waiting for the user (a window that opens shows them)."""
        with self._lock:
            return [p.event for p in self._pending.values() if p.root == root]

    def withdraw(self, root: str, agent_id: str, why: str) -> None:
        """`agent_id` ended: its questions are withdrawn."""
        with self._lock:
            gone = [t for t, p in self._pending.items()
                    if p.root == root and p.agent_id == agent_id]
            pendings = [self._pending.pop(t) for t in gone]
        for pending in pendings:
            pending.failure = why
            pending.done.set()
            self._events.publish(EscalationResolved(root, pending.event.ticket, None))

    def close(self) -> None:
        """App exit: nobody will answer any more."""
        with self._lock:
            pendings = list(self._pending.values())
            self._pending.clear()
        for pending in pendings:
            pending.failure = "IdeA is closing"
            pending.done.set()
