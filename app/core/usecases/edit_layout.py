"""Edit the active layout of a project (SPEC C3)."""

from __future__ import annotations

from typing import Any

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_edit import (
    AssignOp,
    LayoutOp,
    RedoOp,
    UndoOp,
    apply_tree_op,
    parse_layout_op,
)
from app.core.events import LayoutChanged
from app.core.ports import EventSink, FileSystem, IdSource
from app.core.usecases.project_files import require_layouts, save_layouts
from app.core.usecases.project_state import ProjectState


class EditLayout:
    """Apply one layout op (split, close, resize, assign, undo, redo) and persist the result."""

    def __init__(self, fs: FileSystem, ids: IdSource, events: EventSink) -> None:
        self._fs, self._ids, self._events = fs, ids, events

    def execute(self, project: ProjectState, op: dict[str, Any] | LayoutOp) -> LayoutDoc:
        """Apply `op` (a contract §3 op dict or a `layout_edit` dataclass) to the active layout.

        The result is validated, written atomically to `layouts.json`, published as
        `LayoutChanged` and returned (the whole document). Structural ops (not `assign`) are
        recorded for undo (100 steps); undo/redo with nothing to undo/redo return the document
        unchanged without writing. What happens to the sessions the edit hides is the caller's
        business (`sessions.fate_after_edit`). Raises `INVALID` (bad op or broken invariant),
        `NOT_FOUND` (unknown node), `CORRUPT_FILE` (`layouts.json` unreadable), `NOT_WRITABLE`.
        """
        parsed = parse_layout_op(op)
        present = require_layouts(project)
        if isinstance(parsed, UndoOp | RedoOp):
            history = project.history
            move = history.undo if isinstance(parsed, UndoOp) else history.redo
            new_history, doc = move(present)
            if doc is present:
                return present
            save_layouts(self._fs, project, doc, record=False)
            project.history = new_history
        else:
            root = apply_tree_op(present.active.root, parsed, self._ids.new_id)
            record = not isinstance(parsed, AssignOp)
            doc = save_layouts(self._fs, project, present.with_active_root(root), record=record)
        self._events.publish(LayoutChanged(project.root, doc))
        return doc
