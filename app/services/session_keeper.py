"""What happens to sessions outside of any single request: their end, the kill-or-detach rule
after a layout edit (a closed cell's shell killed only once the close grace has passed, unless
shown again: ADR 021), and the release of ended sessions nobody shows (their scrollback ring,
the PTY host's record, the views' flow control state), so memory stays flat however many shells
come and go."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from app.core.domain.pending_kills import CLOSE_GRACE_MS, PendingKills
from app.core.domain.sessions import EditKind, fate_after_edit, releasable
from app.core.errors import AppError
from app.core.events import AgentStateChanged, KillPending, SessionExited, SessionReleased
from app.core.ports import EventSink, TerminalHost
from app.core.usecases.project_state import ProjectState, mark_exited
from app.core.usecases.show_session import ForgetAgentRunning
from app.services.kill_timers import KillTimers
from app.services.open_projects import OpenProjects, ProjectHandle
from app.services.scheduler import Scheduler
from app.services.terminal_bus import TerminalOutputBus
from app.services.terminal_views import TerminalViews

log = logging.getLogger(__name__)

#: Ends reported before their session was owned (a CLI that quits at once, before its launch
#: returned) kept until the launch owns it; past this many, the oldest is forgotten (a
#: session killed because its cell could not be saved is never owned).
EARLY_EXITS_KEPT = 64


class SessionKeeper:
    """Owns the lifecycle rules' execution; the rules themselves are in
    `app/core/domain/sessions.py` and `app/core/domain/pending_kills.py`. The pending kills'
    timers run on `scheduler` (`KillTimers`); `close_grace_ms` is how long a closed cell's
    shell waits (ms; the tests shorten it)."""

    def __init__(self, projects: OpenProjects, terminals: TerminalHost, bus: TerminalOutputBus,
                 views: TerminalViews, events: EventSink,
                 forget_running: ForgetAgentRunning | None = None, *, scheduler: Scheduler,
                 close_grace_ms: int = CLOSE_GRACE_MS) -> None:
        self._projects, self._terminals, self._bus = projects, terminals, bus
        self._views, self._events = views, events
        self._forget_running = forget_running
        self._grace_ms = close_grace_ms
        self._timers = KillTimers(projects, scheduler, self._kill)
        self._shutting_down = False
        # ownership and an end that came before it, decided under one lock (`on_exit`)
        self._early_lock = threading.Lock()
        self._early_exits: OrderedDict[str, int | None] = OrderedDict()
        bus.tap_exits(self.on_exit)

    def shutting_down(self) -> None:
        """IdeA is quitting: the exits that follow are its doing, so agent cells keep
        `agentWasRunning` (what was running is resumable at the next start); the shells of
        closed cells still in their grace are killed now (no cell shows them, so the quit
        record never lists them to reopen)."""
        self._shutting_down = True
        for handle in self._projects.handles():
            with handle.lock:
                doomed = list(handle.state.pending_kills.due)
                handle.state.pending_kills = PendingKills()
                for session_id in doomed:
                    self._timers.disarm(session_id)
                    self._kill(session_id)

    def after_start(self, state: ProjectState, before: set[str]) -> None:
        """`state` started sessions (it had `before`): own the new ones (one that ended
        already, before it was owned, ends now); a cell now showing a new session may have
        hidden an ended one, which is released."""
        early: list[tuple[str, int | None]] = []
        for session_id in state.sessions.keys() - before:
            with self._early_lock:
                self._projects.own(session_id, state.root)
                if session_id in self._early_exits:
                    early.append((session_id, self._early_exits.pop(session_id)))
        for session_id, exit_code in early:
            self.on_exit(session_id, exit_code)  # the caller holds the project's (re-entrant) lock
        self.release_ended(state, in_tab=True)

    def after_edit(self, state: ProjectState, kind: EditKind, before: set[str]) -> None:
        """A layout edit of `kind` changed which sessions are shown (`before` → now): a
        closed cell's shell gets a pending kill (`KillPending` published, killed once the
        grace has passed; at once for `close_kill` or while quitting), a pending one a cell
        shows again is spared, everything else keeps running; ended sessions are released."""
        shown = state.shown_sessions()
        fate = fate_after_edit(kind, before, shown, state.sessions, state.pending_kills.revived)
        pending, spared = state.pending_kills.after_edit(kind, shown, before - shown)
        doom = set() if self._shutting_down else fate.doom
        state.pending_kills = pending.schedule(doom, self._timers.now_ms(), self._grace_ms)
        for session_id in spared:
            self._timers.disarm(session_id)
        for session_id in doom:
            self._timers.arm(session_id, self._grace_ms)
            self._events.publish(KillPending(state.root, session_id, self._grace_ms))
        for session_id in fate.kill | (fate.doom - doom):
            self._kill(session_id)
        self.release_ended(state, in_tab=True)

    def release_ended(self, state: ProjectState, in_tab: bool) -> None:
        """Forget every ended session of `state` shown in no cell (none is shown when the
        project is in no tab): PTY record, ring, flow control, ownership; `SessionReleased`."""
        shown = state.shown_sessions() if in_tab else set()
        for session_id in releasable(state.sessions, shown):
            del state.sessions[session_id]
            self._forget(session_id)
            self._events.publish(SessionReleased(state.root, session_id))

    def on_exit(self, session_id: str, exit_code: int | None) -> None:
        """The PTY host reported an end (reader thread): record it, tell, maybe release. An end
        before the session is owned (its launch has not returned yet) waits for `after_start`;
        its output is kept meanwhile (a CLI that quits at once shows why in its cell)."""
        with self._early_lock:
            handle = self._projects.owner_of(session_id)
            if handle is None:
                self._early_exits[session_id] = exit_code
                while len(self._early_exits) > EARLY_EXITS_KEPT:
                    # e.g. killed because its cell could not be saved: never owned
                    self._forget(self._early_exits.popitem(last=False)[0])
                return
        with handle.lock:
            record = mark_exited(handle.state, session_id, exit_code)
            handle.state.pending_kills = handle.state.pending_kills.without({session_id})
            self._timers.disarm(session_id)
            if record is None:
                self._forget(session_id)
                return
            root = handle.state.root
            self._events.publish(SessionExited(root, session_id, exit_code))
            if record.kind == "agent" and record.agent_id is not None:
                self._events.publish(AgentStateChanged(root, record.agent_id, "stopped"))
                self._agent_ended(handle.state, session_id)
            self._settle(handle)

    def _agent_ended(self, state: ProjectState, session_id: str) -> None:
        if self._forget_running is None or self._shutting_down:
            return
        try:
            self._forget_running.execute(state, session_id)
        except AppError as exc:  # the layout could not be saved: the flag stays, said once
            log.warning("agentWasRunning of %s kept: %s", session_id, exc.message)

    def close_tab(self, handle: ProjectHandle, keep: frozenset[str] = frozenset()) -> None:
        """The project's tab closed: plain shells end (except those in `keep`: the user chose
        "keep in background"), agents keep running in the background; the project is
        forgotten once it owns no session."""
        handle.in_tab = False
        for record in list(handle.state.sessions.values()):
            if record.kind == "shell" and record.alive and record.session_id not in keep:
                self._kill(record.session_id)
        self._settle(handle)

    def _settle(self, handle: ProjectHandle) -> None:
        self.release_ended(handle.state, handle.in_tab)
        if not handle.in_tab and not handle.state.sessions:
            self._projects.remove(handle.state.root)

    def _kill(self, session_id: str) -> None:
        try:
            self._terminals.kill(session_id)
        except Exception:  # an id the host no longer knows: nothing left to kill
            log.debug("kill of %s failed", session_id, exc_info=True)

    def _forget(self, session_id: str) -> None:
        self._projects.disown(session_id)
        self._views.forget(session_id)
        self._bus.forget(session_id)
        try:
            self._terminals.forget(session_id)
        except Exception:
            log.debug("forget of %s failed", session_id, exc_info=True)
