"""Which views (windows) show which session, and the flow control that follows from it: a
session shown nowhere is never paused (a background agent must not stall); shown somewhere, the
PTY only hears of what the slowest view consumed (`AckFrontier`), and its window follows what
that view consumes per second (`FlowWindow`, ADR 008)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from app.core.domain.ack_frontier import AckFrontier
from app.core.domain.flow_window import FlowTuning, FlowWindow, PageLoad, crowded, page_load
from app.core.domain.sessions import TerminalChunk
from app.core.ports import TerminalHost
from app.services.terminal_bus import ChunkConsumer, Snapshot, TerminalOutputBus

log = logging.getLogger(__name__)

#: How often the page's load is measured for the flow windows (s): 16 floods ack ~600 times/s.
LOAD_EVERY_S = 0.05

#: `listener(session_id, view, attached)`: a view started (True) or stopped showing a session.
ViewListener = Callable[[str, str, bool], None]


class TerminalViews:
    """Attach/detach/ack of views on sessions. Thread-safe. Listeners (the write portal's
    router) hear of every attach and detach, after the fact, outside the lock."""

    def __init__(self, terminals: TerminalHost, bus: TerminalOutputBus, *,
                 tuning: FlowTuning | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._terminals, self._bus = terminals, bus
        self._tuning, self._clock = tuning, clock
        self._lock = threading.Lock()
        self._frontiers: dict[str, AckFrontier] = {}
        self._windows: dict[str, FlowWindow] = {}
        self._page_load, self._load_at = PageLoad({}), float("-inf")
        bus.tap(self._produced)
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
                self._windows[session_id] = FlowWindow(self._tuning)
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
                self._windows.pop(session_id, None)
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
        """View `view` consumed `chars` characters of the session's output; its window is
        retuned, with the crowded gain while another shown session floods or is typed in."""
        retune: tuple[int, int] | None = None
        with self._lock:
            frontier = self._frontiers.get(session_id)
            due = frontier.ack(view, chars) if frontier is not None else 0
            window = self._windows.get(session_id)
            if due and window is not None:
                now = self._clock()
                retune = window.acked(due, now, crowded(session_id, self._windows, now),
                                      self._load(now).bound(session_id, window.tuning))
        if retune is not None:
            log.debug("flow window of %s: %d/%d chars", session_id, *retune)
            self._terminals.set_flow_window(session_id, *retune)
        if due:
            self._terminals.ack(session_id, due)

    def _load(self, now: float) -> PageLoad:
        """The page's load (`page_load`), measured at most every `LOAD_EVERY_S` (under the
        lock): every session's ack would otherwise scan every window's acks."""
        if now - self._load_at >= LOAD_EVERY_S:
            self._page_load, self._load_at = page_load(self._windows, now), now
        return self._page_load

    def typed(self, session_id: str) -> None:
        """Input was written to the session: its flow window is boosted for a while
        (`FlowWindow.typed`), so what follows a Ctrl-C is read at once."""
        retune: tuple[int, int] | None = None
        with self._lock:
            window = self._windows.get(session_id)
            if window is not None:
                retune = window.typed(self._clock())
        if retune is not None:
            self._terminals.set_flow_window(session_id, *retune)

    def _produced(self, chunk: TerminalChunk) -> None:
        """Bus tap (reader threads): output of a session under flow control is timed."""
        with self._lock:
            window = self._windows.get(chunk.session_id)
            if window is not None:
                window.produced(len(chunk.text), self._clock())

    def forget(self, session_id: str) -> None:
        """Drop the session's views (it was released)."""
        with self._lock:
            self._frontiers.pop(session_id, None)
            self._windows.pop(session_id, None)

    def window_of(self, session_id: str) -> tuple[int, int] | None:
        """The `(high, low)` flow window chosen for the session (None: not measured yet)."""
        with self._lock:
            window = self._windows.get(session_id)
            return (window.high, window.low) if window is not None else None

    def views_of(self, session_id: str) -> frozenset[str]:
        """The views showing `session_id` now."""
        with self._lock:
            frontier = self._frontiers.get(session_id)
            return frontier.views if frontier is not None else frozenset()

