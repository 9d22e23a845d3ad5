"""The workspace every window shares (SPEC C1, §8): the current `WorkspaceDoc` (windows, their
tabs, bounds), changed through the tab use cases and saved on every change; the quit record
(shells to reopen with their scrollback, agents that were running) and what a restart brings
back. Listeners (the bridge's window manager) hear every new document."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from app.core.domain.layout_nodes import leaves
from app.core.domain.workspace import (
    Bounds,
    RestoredShell,
    RunningAgent,
    ScrollbackSize,
    WorkspaceDoc,
    relocated_at_quit,
    root_key,
    shells_kept_at_quit,
)
from app.core.errors import AppError
from app.core.events import ProblemRaised
from app.core.ports import EventSink, ProcessInspector, WorkspaceStore
from app.core.usecases.workspace_tabs import CloseTab, DropTab, MoveTab, OpenTab, RecordQuit
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import SizeMark, TerminalOutputBus
from app.services.terminals import TerminalService

log = logging.getLogger(__name__)

Listener = Callable[[WorkspaceDoc], None]


@dataclass(frozen=True)
class LiveShell:
    """A running plain shell (`live_shells`): its project `root`, `session_id`, `title` (as
    the sessions list shows it, e.g. `bash 1`), `shown` False when it runs detached."""

    root: str
    session_id: str
    title: str
    shown: bool


class WorkspaceService:
    """Holds the workspace document (one lock); every change is saved at once.

    A `workspace.json` that cannot be read is reported (`problems`, and once as
    `ProblemRaised`) and never overwritten: the workspace then lives in memory only.
    """

    def __init__(self, store: WorkspaceStore, events: EventSink, projects: OpenProjects,
                 output: TerminalOutputBus, inspector: ProcessInspector | None) -> None:
        self._store, self._events, self._projects = store, events, projects
        self._output, self._inspector = output, inspector
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._saving = _ReportingStore(store, events)
        self.problems: list[AppError] = []
        try:
            loaded = store.load()
        except AppError as exc:
            self.problems.append(exc)
            loaded = None
        self._doc = loaded or WorkspaceDoc()
        #: What the last quit recorded, kept for this run (the document forgets it).
        self.restored_shells = {s.session_id: s for s in self._doc.restored_shells}
        self.agents_at_quit = list(self._doc.agents_running_at_quit)

    # ------------------------------------------------------------------ reading

    @property
    def doc(self) -> WorkspaceDoc:
        with self._lock:
            return self._doc

    def listen(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    # ------------------------------------------------------------------ changes

    def add_window(self, bounds: Bounds | None = None, window_id: str | None = None) -> str:
        """A new empty window; returns its id."""
        with self._lock:
            wid = window_id or self._doc.next_window_id()
            self._set(self._doc.with_window(wid, bounds))
            return wid

    def remove_window(self, window_id: str) -> list[str]:
        """The window closed (not the last one): it and its tabs go; returns their roots."""
        with self._lock:
            roots = self._doc.window(window_id).roots()
            self._set(self._doc.without_window(window_id))
            return roots

    def set_bounds(self, window_id: str, bounds: Bounds) -> None:
        with self._lock:
            try:
                current = self._doc.window(window_id).bounds
            except AppError:
                return
            if current != bounds:
                self._set(self._doc.with_bounds(window_id, bounds), notify=False)

    def open_tab(self, window_id: str, root: str, index: int | None = None) -> None:
        with self._lock:
            self._change(lambda: OpenTab(self._saving).execute(self._doc, window_id, root, index))

    def move_tab(self, root: str, window_id: str, index: int | None = None) -> None:
        with self._lock:
            self._change(lambda: MoveTab(self._saving).execute(self._doc, root, window_id, index))

    def drop_tab(self, root: str, window_id: str, slot: int | None = None) -> None:
        """The dragged tab landed on `window_id`'s tab bar at gap `slot` (as the bar shows it)."""
        with self._lock:
            self._change(lambda: DropTab(self._saving).execute(self._doc, root, window_id, slot))

    def close_tab(self, root: str) -> None:
        with self._lock:
            if self._doc.holder_of(root) is not None:
                self._change(lambda: CloseTab(self._saving).execute(self._doc, root))

    def activate(self, window_id: str, root: str | None) -> None:
        with self._lock:
            self._set(self._doc.activate(window_id, root))

    def relocate(self, old_root: str, new_root: str) -> None:
        """The tab of `old_root` shows `new_root`; the shells and agents the last quit left
        in `old_root` come back in `new_root` when it opens. Raises `AppError(NOT_FOUND)`
        when `old_root` is in no tab."""
        with self._lock:
            self._set(self._doc.relocate(old_root, new_root))
            shells, self.agents_at_quit = relocated_at_quit(
                list(self.restored_shells.values()), self.agents_at_quit, old_root, new_root)
            self.restored_shells = {s.session_id: s for s in shells}

    def holder_of(self, root: str) -> str | None:
        with self._lock:
            return self._doc.holder_of(root)

    # ------------------------------------------------------------------ quit and restore

    def live_agents(self) -> list[RunningAgent]:
        """Agents whose terminal session runs now, in every open project."""
        found: list[RunningAgent] = []
        for handle in self._projects.handles():
            with handle.lock:
                for record in handle.state.sessions.values():
                    if record.kind == "agent" and record.alive and record.agent_id:
                        found.append(RunningAgent(root=handle.state.root,
                                                  agent_id=record.agent_id))
        return found

    def live_shells(self) -> list[LiveShell]:
        """Plain shells whose process runs now, in every open project: those shown in a cell
        and those detached ("in the background"), tab or no tab."""
        found: list[LiveShell] = []
        for handle in self._projects.handles():
            with handle.lock:
                state = handle.state
                shown = state.shown_sessions() if handle.in_tab else set()
                for record in state.sessions.values():
                    if record.kind == "shell" and record.alive:
                        found.append(LiveShell(root=state.root, session_id=record.session_id,
                                               title=record.title,
                                               shown=record.session_id in shown))
        return found

    def record_quit(self) -> WorkspaceDoc:
        """Before the app ends: every live plain shell shown in a cell is kept (cwd, last
        output) to reopen next time, and so is each shell the last quit kept that this run
        could not reopen because its project's layouts were never shown (`shells_kept_at_quit`);
        the running agents are recorded. Saved at once."""
        shells: list[RestoredShell] = []
        for shell in self.live_shells():
            if not shell.shown:
                continue
            cwd = (self._inspector.cwd(shell.session_id) if self._inspector
                   else None) or shell.root
            text, marks = self._output.scrollback_sized(shell.session_id)
            try:
                name = self._store.write_scrollback(shell.session_id, text)
            except AppError as exc:
                log.warning("scrollback of %s not kept: %s", shell.session_id, exc)
                name, marks = "", ()
            sizes = tuple(ScrollbackSize(at=m.at, cols=m.cols, rows=m.rows) for m in marks)
            shells.append(RestoredShell(root=shell.root, session_id=shell.session_id,
                                        cwd=cwd, scrollback=name, sizes=sizes,
                                        title=shell.title))
        agents = self.live_agents()
        shown = []
        for handle in self._projects.handles():
            with handle.lock:
                if handle.state.layouts is not None and not handle.state.layouts_broken:
                    shown.append(handle.state.root)
        with self._lock:
            tabs = [t.root for w in self._doc.windows for t in w.tabs]
            kept = shells_kept_at_quit(shells, list(self.restored_shells.values()), shown, tabs)
            self._doc = RecordQuit(self._saving).execute(self._doc, list(kept), agents)
            return self._doc

    def restore_shells(self, root: str, terminals: TerminalService) -> list[str]:
        """Reopen the plain shells project `root` showed at the last quit: each comes back in
        its cell, under its old session id, in its old working directory (the project root
        when that folder is gone) and under its old title, its saved output shown first and
        marked as restored.
        Each is restored once. Returns the session ids reopened."""
        key = root_key(root)
        handle = self._projects.find(root)
        if handle is None:
            return []
        with handle.lock:
            state = handle.state
            layouts = state.layouts
            cells = {} if layouts is None else {
                leaf.session: leaf.id for layout in layouts.layouts
                for leaf in leaves(layout.root) if leaf.session}
            wanted = [s for s in self.restored_shells.values()
                      if root_key(s.root) == key and s.session_id in cells
                      and s.session_id not in state.sessions]
        reopened: list[str] = []
        for shell in wanted:
            with self._lock:
                if self.restored_shells.pop(shell.session_id, None) is None:
                    continue
            text = self._store.read_scrollback(shell.scrollback) if shell.scrollback else ""
            sizes = [SizeMark(s.at, s.cols, s.rows) for s in shell.sizes]
            self._output.seed(shell.session_id, restored_banner(text), sizes)
            for cwd in dict.fromkeys((shell.cwd, state.root)):
                try:
                    terminals.open_shell(state.root, cells[shell.session_id], 80, 24, cwd,
                                         shell.session_id, shell.title or None)
                except AppError as exc:
                    log.info("restoring shell %s in %s: %s", shell.session_id, cwd, exc)
                    continue
                reopened.append(shell.session_id)
                break
            else:
                self._output.forget(shell.session_id)
        return reopened

    def was_running(self, root: str, agent_id: str) -> bool:
        """Whether the agent was running at the last quit."""
        key = root_key(root)
        return any(root_key(a.root) == key and a.agent_id == agent_id
                   for a in self.agents_at_quit)

    # ------------------------------------------------------------------ internals

    def _change(self, compute: Callable[[], WorkspaceDoc]) -> None:
        """Apply a use case (it saved the document) and tell the listeners."""
        self._doc = compute()
        self._notify()

    def _set(self, doc: WorkspaceDoc, *, notify: bool = True) -> None:
        """A change with no use case of its own (window added, moved, activated): saved."""
        self._doc = doc
        self._saving.save(doc)
        if notify:
            self._notify()

    def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                listener(self._doc)
            except Exception:
                log.exception("workspace listener failed")


#: The line under a restored shell's previous output (dim), before its new prompt.
RESTORED_MARK = "── restored: output of this shell before IdeA was closed ──"


def restored_banner(text: str) -> str:
    """The text a restored shell's view shows first: its saved output, then the mark."""
    body = text if not text or text.endswith("\n") else text + "\r\n"
    return f"{body}\x1b[0m\x1b[2m{RESTORED_MARK}\x1b[0m\r\n"


class _ReportingStore:
    """The store as the use cases see it: a failed save is reported once (`ProblemRaised`) and
    swallowed, so the document stays in memory and the user keeps working."""

    def __init__(self, store: WorkspaceStore, events: EventSink) -> None:
        self._store, self._events = store, events
        self._said: str | None = None

    def load(self) -> WorkspaceDoc | None:
        return self._store.load()

    def save(self, doc: WorkspaceDoc) -> None:
        try:
            self._store.save(doc)
        except AppError as exc:
            if self._said != exc.message:
                self._said = exc.message
                file = str(exc.details.get("file") or "workspace.json")
                self._events.publish(ProblemRaised(file, exc.message))

    def write_scrollback(self, session_id: str, text: str) -> str:
        return self._store.write_scrollback(session_id, text)

    def read_scrollback(self, name: str) -> str:
        return self._store.read_scrollback(name)
