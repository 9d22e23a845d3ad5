"""The mailbox of one target agent (SPEC C8): one FIFO, one turn at a time. Pure.

Humans (from IdeA's window) and agents post into the same mailbox; a ticket waits until the
agent is free, then becomes its current turn. A message to a busy agent is queued, never
refused; only a full mailbox (`capacity` tickets waiting) refuses with `INBOX_FULL`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from app.core.domain.delegation import Ticket
from app.core.errors import INBOX_FULL, NOT_FOUND, AppError

DEFAULT_CAPACITY = 100
#: Ended turns a mailbox remembers, to say why a late reply to one of them goes nowhere.
ENDED_KEPT = 32


class Mailbox:
    """FIFO of waiting tickets plus the current turn. The caller serialises access."""

    def __init__(self, agent_name: str, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity >= 1")
        self._name, self._capacity = agent_name, capacity
        self._waiting: deque[Ticket] = deque()
        self._ended: deque[Ticket] = deque(maxlen=ENDED_KEPT)
        self.current: Ticket | None = None

    @property
    def depth(self) -> int:
        """Tickets waiting for their turn (the current turn not counted)."""
        return len(self._waiting)

    def waiting(self) -> Iterator[Ticket]:
        """The waiting tickets, oldest first."""
        return iter(tuple(self._waiting))

    def post(self, ticket: Ticket) -> int:
        """Queue `ticket`; returns its position (1 = next). Raises `AppError(INBOX_FULL)`."""
        if len(self._waiting) >= self._capacity:
            raise AppError(INBOX_FULL, f"{self._name}'s inbox is full ({self._capacity} tasks "
                                       "waiting); try again when it has caught up",
                           {"capacity": self._capacity})
        self._waiting.append(ticket)
        return len(self._waiting)

    def start_next(self) -> Ticket | None:
        """The next ticket becomes the current turn, when there is no turn and one waits."""
        if self.current is not None or not self._waiting:
            return None
        self.current = self._waiting.popleft()
        return self.current

    def resolve(self, ticket_id: str | None) -> Ticket:
        """The current turn a reply answers: `ticket_id`, or the current one when omitted.

        Raises `AppError(NOT_FOUND)` when there is no current turn or `ticket_id` is not it; the
        message says why when `ticket_id` names one of the last turns (a message, which needs no
        reply, or a turn already over), or when, with no `ticket_id` and no current turn, the
        last turn was a message.
        """
        current = self.current
        ended = next((t for t in self._ended if t.id == ticket_id), None)
        if ended is not None:
            why = (f"ticket {ended.id} was a message from {ended.label}: it needs no reply, and "
                   "its turn ended once it was delivered" if ended.kind == "message" else
                   f"ticket {ended.id} is over already (answered, timed out or withdrawn)")
            raise AppError(NOT_FOUND, why + (f"; the current task is {current.id}"
                                             if current is not None else ""),
                           {"ticket": ticket_id})
        if ticket_id is not None and (current is None or ticket_id != current.id):
            queued = any(t.id == ticket_id for t in self._waiting)
            why = "has not been delivered yet" if queued else "is not a task of this agent"
            now = (f"the current task is {current.id}" if current is not None else
                   f"{self._name} has no task in progress")
            raise AppError(NOT_FOUND, f"ticket {ticket_id} {why}; {now}", {"ticket": ticket_id})
        if current is None:
            last = self._ended[-1] if self._ended else None
            why = (f": its last ticket, {last.id}, was a message from {last.label}, which needs "
                   "no reply" if last is not None and last.kind == "message" else "")
            raise AppError(NOT_FOUND, f"{self._name} has no task in progress to reply to{why}",
                           {"ticket": ticket_id})
        return current

    def end_turn(self) -> Ticket | None:
        """The current turn is over (replied, timed out, ended); returns it."""
        done, self.current = self.current, None
        if done is not None:
            self._ended.append(done)
        return done

    def withdraw(self, ticket_id: str) -> Ticket | None:
        """Remove a waiting ticket (its asker went away); None when not waiting."""
        for ticket in self._waiting:
            if ticket.id == ticket_id:
                self._waiting.remove(ticket)
                return ticket
        return None
