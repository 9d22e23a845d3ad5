"""The timers of pending kills (ADR 021): a closed cell's shell is killed when its grace has
passed, unless a cell showed it again meanwhile. Which kills are due is the core's rule
(`PendingKills.due_at`); this only wakes up at the right time, on the services' scheduler."""

from __future__ import annotations

import threading
from collections.abc import Callable

from app.services.open_projects import OpenProjects
from app.services.scheduler import Scheduler, Timer


class KillTimers:
    """One timer per pending kill, on `scheduler`, whose monotonic clock (in ms) is the `now`
    of the rules; `kill(session_id)` ends a session (called under its project's lock)."""

    def __init__(self, projects: OpenProjects, scheduler: Scheduler,
                 kill: Callable[[str], None]) -> None:
        self._projects, self._scheduler, self._kill = projects, scheduler, kill
        self._timers: dict[str, Timer] = {}
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        """The scheduler's monotonic clock, in whole ms."""
        return int(self._scheduler.monotonic() * 1000)

    def arm(self, session_id: str, delay_ms: int) -> None:
        """Look at `session_id`'s pending kill `delay_ms` ms from now (at least 1 ms),
        replacing any timer it had."""
        timer = self._scheduler.call_later(max(delay_ms, 1) / 1000, lambda: self._due(session_id))
        with self._lock:
            old = self._timers.get(session_id)
            self._timers[session_id] = timer
        if old is not None:
            old.cancel()

    def disarm(self, session_id: str) -> None:
        """Drop `session_id`'s timer, if any (its kill was cancelled, carried out, or it ended)."""
        with self._lock:
            timer = self._timers.pop(session_id, None)
        if timer is not None:
            timer.cancel()

    def _due(self, session_id: str) -> None:
        """`session_id`'s timer (scheduler thread): kill what is due now; a kill cancelled
        meanwhile is left alone, one not yet due (an early wake) is re-armed."""
        handle = self._projects.owner_of(session_id)
        if handle is None:
            return
        with handle.lock:
            pending, now = handle.state.pending_kills, self.now_ms()
            if session_id not in pending.due:
                return
            due = pending.due_at(now)
            if session_id not in due:
                self.arm(session_id, pending.due[session_id] - now)
                return
            handle.state.pending_kills = pending.without(due)
            for doomed in due:
                self.disarm(doomed)
                self._kill(doomed)
