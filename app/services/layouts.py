"""Layout edits (SPEC C3) and their consequences for the sessions they hide."""

from __future__ import annotations

from typing import Any

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_edit import edit_kind, parse_layout_op
from app.core.events import LayoutChanged
from app.core.ports import EventSink
from app.core.usecases.edit_layout import EditLayout
from app.core.usecases.layout_recovery import FreshStart, ReloadLayouts, StartFreshLayouts
from app.core.usecases.project_state import LAYOUTS_FILE
from app.core.usecases.show_session import ShowSession
from app.services.file_problems import announce
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper


class LayoutService:
    """`edit(root, op)`: the use case, then the kill-or-detach rule for hidden sessions;
    `show_session` (a session into a cell, from wherever it was), `start_fresh` (recover
    from an unreadable `layouts.json`) and `reload` (it was edited outside IdeA)."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper, edit_layout: EditLayout,
                 show: ShowSession, start_fresh: StartFreshLayouts, reload: ReloadLayouts,
                 events: EventSink) -> None:
        self._projects, self._keeper, self._edit = projects, keeper, edit_layout
        self._show, self._start_fresh = show, start_fresh
        self._reload, self._events = reload, events

    def edit(self, root: str, op: dict[str, Any]) -> LayoutDoc:
        """Apply `op` (contract §3) to the active layout of `root`; returns the document.

        Closing a cell ends its plain shell once the close grace has passed unless it is
        shown again meanwhile (undo), at once with the op's `kill`; every other hidden session
        keeps running (see `sessions.fate_after_edit`, `pending_kills`). Errors of
        `EditLayout`, and NOT_FOUND for a closed project.
        """
        parsed = parse_layout_op(op)
        with self._projects.locked(root) as state:
            before = state.shown_sessions()
            doc = self._edit.execute(state, parsed)
            self._keeper.after_edit(state, edit_kind(parsed), before)
            return doc

    def show_session(self, root: str, session_id: str, node_id: str) -> LayoutDoc:
        """Cell `node_id` of the active layout shows `session_id` of `root` (moved there when
        another cell showed it). What the cell showed before keeps running, detached. Errors of
        `ShowSession`, NOT_FOUND for a closed project."""
        with self._projects.locked(root) as state:
            before = state.shown_sessions()
            doc = self._show.execute(state, node_id, session_id)
            self._keeper.after_edit(state, "other", before)
            return doc

    def start_fresh(self, root: str) -> FreshStart:
        """Keep the unreadable `layouts.json` of `root` as `.bak` and write the layouts used
        meanwhile. Errors of `StartFreshLayouts`."""
        with self._projects.locked(root) as state:
            return self._start_fresh.execute(state)

    def reload(self, root: str) -> None:
        """`layouts.json` of open project `root` changed on disk (the file watcher): read it
        again. Windows hear `LayoutChanged` when the project took it (a session no cell shows
        any more keeps running, detached), `ProblemRaised` / `ProblemResolved` as it becomes
        unreadable or readable again. No error when the project is not open."""
        handle = self._projects.find(root)
        if handle is None:
            return
        with handle.lock:
            state = handle.state
            before = state.shown_sessions()
            outcome = self._reload.execute(state)
            if outcome.layouts is not None:
                self._keeper.after_edit(state, "other", before)
            root, file = state.root, state.path(LAYOUTS_FILE)
        announce(self._events, root, file, outcome.file)
        if outcome.layouts is not None:
            self._events.publish(LayoutChanged(root, outcome.layouts))
