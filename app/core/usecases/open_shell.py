"""Open a plain shell in a cell (SPEC C2)."""

from __future__ import annotations

from app.core.domain.layout_nodes import find_leaf
from app.core.domain.sessions import SpawnSpec
from app.core.errors import INVALID, NOT_FOUND, AppError
from app.core.ports import FileSystem, IdSource, PtyHost
from app.core.usecases.project_files import require_layouts, show_in_cell
from app.core.usecases.project_state import ProjectState


class OpenShell:
    """Spawn the user's shell in the project root and show it in a cell."""

    def __init__(self, pty: PtyHost, ids: IdSource, fs: FileSystem) -> None:
        self._pty, self._ids, self._fs = pty, ids, fs

    def execute(self, project: ProjectState, node_id: str, cols: int, rows: int,
                shell: str) -> str:
        """Start `shell` (absolute path of the user's shell) with cwd = project root, size
        `cols` x `rows` cells, env `IDEA_PROJECT_ROOT`; the leaf `node_id` of the active layout
        then shows it (persisted, no undo step). Returns the session id.

        Raises `INVALID` (empty shell, node not a leaf), `NOT_FOUND` (unknown node),
        `CORRUPT_FILE` (`layouts.json` unreadable), `COMMAND_NOT_FOUND` (from the PTY host).
        """
        if not shell:
            raise AppError(INVALID, "no shell to open")
        doc = require_layouts(project)
        if find_leaf(doc.active.root, node_id) is None:
            raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
        spec = SpawnSpec(command=shell, args=[], cwd=project.root,
                         env={"IDEA_PROJECT_ROOT": project.root}, cols=cols, rows=rows,
                         session_id=self._ids.new_id())
        session_id = self._pty.spawn(spec)
        try:
            show_in_cell(self._fs, project, node_id, session_id)
        except AppError:
            self._pty.kill(session_id)
            raise
        return session_id
