"""Which views (windows) show which session, and the flow control that follows from it: a
session shown nowhere is never paused (a background agent must not stall); shown somewhere, the
PTY only hears of what the slowest view consumed (`AckFrontier`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from app.core.domain.ack_frontier import AckFrontier
from app.core.ports import TerminalHost
from app.services.terminal_bus import ChunkConsumer, Snapshot, TerminalOutputBus

log = logging.getLogger(__name__)

#: `listener(session_id, view, attached)`: a view started (True) or stopped showing a session.
ViewListener = Callable[[str, str, bool], None]


class TerminalViews:
    """Attach/detach/ack of views on sessions. Thread-safe. Listeners (the write portal's
    router) hear of every attach and detach, after the fact, outside the lock."""

    def __init__(self, terminals: TerminalHost, bus: TerminalOutputBus) -> None:
        self._terminals, self._bus = terminals, bus
        self._lock = threading.Lock()
        self._frontiers: dict[str, AckFrontier] = {}
        self._listeners: tuple[ViewListener, ...] = ()

    def listen(self, listener: ViewListener) -> None:
        """Tell `listener` of every view attaching to or detaching from a session."""
        self._listeners = (*self._listeners, listener)

    def _tell(self, session_id: str, view: str, attached: bool) -> None:
        for listener in self._listeners:
            try:
                listener(session_id, view, attached)
            except Exception:
                log.exception("view listener failed")

    def attach(self, session_id: str, view: str, consumer: ChunkConsumer) -> Snapshot:
        """View `view` shows `session_id`: `consumer` gets its chunks; returns the snapshot."""
        with self._lock:
            snapshot = self._bus.attach(session_id, view, consumer)
            frontier = self._frontiers.setdefault(session_id, AckFrontier())
            if frontier.attach(view, snapshot.produced):
                self._terminals.set_flow_control(session_id, True)
        self._tell(session_id, view, True)
        return snapshot

    def detach(self, session_id: str, view: str) -> None:
        """View `view` no longer shows `session_id` (no error when it did not)."""
        with self._lock:
            self._bus.detach(session_id, view)
            frontier = self._frontiers.get(session_id)
            if frontier is None or view not in frontier.views:
                return
            due = frontier.detach(view)
            if not frontier.views:
                del self._frontiers[session_id]
                self._terminals.set_flow_control(session_id, False)
            elif due:
                self._terminals.ack(session_id, due)
        self._tell(session_id, view, False)

    def detach_view(self, view: str) -> None:
        """Every session shown by `view` (a window closed or reloaded its page)."""
        with self._lock:
            sessions = [s for s, f in self._frontiers.items() if view in f.views]
        for session_id in sessions:
            self.detach(session_id, view)

    def ack(self, session_id: str, view: str, chars: int) -> None:
        """View `view` consumed `chars` characters of the session's output."""
        with self._lock:
            frontier = self._frontiers.get(session_id)
            due = frontier.ack(view, chars) if frontier is not None else 0
        if due:
            self._terminals.ack(session_id, due)

    def forget(self, session_id: str) -> None:
        """Drop the session's views (it was released)."""
        with self._lock:
            self._frontiers.pop(session_id, None)

    def views_of(self, session_id: str) -> frozenset[str]:
        """The views showing `session_id` now."""
        with self._lock:
            frontier = self._frontiers.get(session_id)
            return frontier.views if frontier is not None else frozenset()

