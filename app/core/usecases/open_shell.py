"""Open a plain shell in a cell (SPEC C2)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from app.core.domain.layout import LayoutDoc
from app.core.domain.named_layouts import layout_with_leaf
from app.core.domain.sessions import SessionRecord, SpawnSpec
from app.core.errors import INVALID, NOT_FOUND, AppError
from app.core.events import LayoutChanged, SessionStarted
from app.core.ports import EventSink, FileSystem, IdSource, TerminalHost
from app.core.usecases.project_files import require_layouts, show_in_cell
from app.core.usecases.project_state import ProjectState


@dataclass(frozen=True)
class ShellOpened:
    """The new shell's session id and the layouts document now showing it."""

    session_id: str
    layouts: LayoutDoc


class OpenShell:
    """Spawn the user's shell (`shell`: absolute path, fixed at construction) in the project
    root and show it in a cell."""

    def __init__(self, terminals: TerminalHost, ids: IdSource, fs: FileSystem, events: EventSink,
                 shell: str) -> None:
        self._terminals, self._ids, self._fs, self._events = terminals, ids, fs, events
        self._shell = shell

    def execute(self, project: ProjectState, node_id: str, cols: int, rows: int,
                cwd: str | None = None, session_id: str | None = None,
                title: str | None = None) -> ShellOpened:
        """Start the shell with cwd = `cwd` (a restored shell's folder) or the project root,
        size `cols` x `rows` cells, env `IDEA_PROJECT_ROOT`, under `session_id` when given (a
        restored shell keeps the id its cell names) and titled `title` when no other shell of
        the project has it (a restored shell keeps its name), else `bash 1`, `bash 2`…; the
        leaf `node_id` then shows it (persisted, no undo step): a leaf of the active layout, or
        of another one (a shell restored into a layout not active at quit). Publishes
        `SessionStarted` then `LayoutChanged`.

        Raises `INVALID` (no shell configured, node not a leaf), `NOT_FOUND` (unknown node),
        `CORRUPT_FILE` (`layouts.json` unreadable), `COMMAND_NOT_FOUND` (from the PTY host).
        """
        if not self._shell:
            raise AppError(INVALID, "no shell to open")
        doc = require_layouts(project)
        if layout_with_leaf(doc, node_id) is None:
            raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
        spec = SpawnSpec(command=self._shell, args=[], cwd=cwd or project.root,
                         env={"IDEA_PROJECT_ROOT": project.root}, cols=cols, rows=rows,
                         session_id=session_id or self._ids.new_id())
        session_id = self._terminals.spawn(spec)
        record = SessionRecord(session_id, "shell", _free_title(project, self._shell, title))
        project.sessions[session_id] = record
        try:
            layouts = show_in_cell(self._fs, project, node_id, session_id)
        except AppError:
            del project.sessions[session_id]
            self._terminals.kill(session_id)
            raise
        self._events.publish(SessionStarted(project.root, record))
        self._events.publish(LayoutChanged(project.root, layouts))
        return ShellOpened(session_id, layouts)


def _free_title(project: ProjectState, shell: str, wanted: str | None = None) -> str:
    """`wanted` when no other shell of the project uses it, else `bash 1`, `bash 2`, …: the
    first number no other shell uses, so detached shells can be told apart."""
    name = posixpath.basename(shell.replace("\\", "/")) or "shell"
    used = {record.title for record in project.sessions.values() if record.kind == "shell"}
    if wanted and wanted not in used:
        return wanted
    n = 1
    while f"{name} {n}" in used:
        n += 1
    return f"{name} {n}"
