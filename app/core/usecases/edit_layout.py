"""Edit a project's layouts (SPEC C3): the active layout's tree, or the set of named layouts."""

from __future__ import annotations

from typing import Any

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_edit import (
    CONTENT_OPS,
    AssignOp,
    CreateLayoutOp,
    DeleteLayoutOp,
    DuplicateLayoutOp,
    LayoutOp,
    RedoOp,
    RenameLayoutOp,
    SwitchLayoutOp,
    UndoOp,
    apply_doc_op,
    apply_tree_op,
    op_extent,
    parse_layout_op,
)
from app.core.domain.layout_size import check_minimum
from app.core.domain.named_layouts import without_session_elsewhere
from app.core.events import LayoutChanged
from app.core.ports import EventSink, FileSystem, IdSource
from app.core.usecases.project_files import require_layouts, save_layouts
from app.core.usecases.project_state import ProjectState

_DOC_OPS = (CreateLayoutOp, RenameLayoutOp, DuplicateLayoutOp, DeleteLayoutOp, SwitchLayoutOp)


class EditLayout:
    """Apply one layout op (contract §3) and persist the result."""

    def __init__(self, fs: FileSystem, ids: IdSource, events: EventSink) -> None:
        self._fs, self._ids, self._events = fs, ids, events

    def execute(self, project: ProjectState, op: dict[str, Any] | LayoutOp) -> LayoutDoc:
        """Apply `op` (a contract §3 op dict or a `layout_edit` model).

        Tree ops change the active layout; structural ones (all but `assign` and `move`) are
        recorded for undo (100 steps per layout) and, when the op carries an `extent`, refused
        if they leave a cell under the minimum size. Undo/redo act on the active layout and
        show again the sessions of cells that come back while they run. Layout ops (create,
        rename, duplicate, delete, switch) change the document and are not undone. The result
        is validated, written atomically to `layouts.json`, published as `LayoutChanged` and
        returned (the whole document); an undo/redo with nothing to do returns the document
        unchanged without writing. What happens to the sessions an edit hides is the caller's
        business (`sessions.fate_after_edit`). Raises `INVALID` (bad op, broken invariant, a
        cell too small: details `{reason: "cellTooSmall", …}`), `NOT_FOUND` (unknown node or
        layout), `CORRUPT_FILE` (`layouts.json` unreadable), `NOT_WRITABLE`.
        """
        parsed = parse_layout_op(op)
        present = require_layouts(project)
        if isinstance(parsed, UndoOp | RedoOp):
            live = {sid for sid, record in project.sessions.items() if record.alive}
            history = project.history
            move = history.undo if isinstance(parsed, UndoOp) else history.redo
            new_history, doc = move(present, live)
            if doc is present:
                return present
            save_layouts(self._fs, project, doc, record=False)
            project.history = new_history
        elif isinstance(parsed, _DOC_OPS):
            doc = save_layouts(self._fs, project, apply_doc_op(present, parsed, self._ids.new_id),
                               record=False)
            if isinstance(parsed, DeleteLayoutOp):
                project.history = project.history.forget(parsed.layout_id)
        else:
            before = present.active.root
            root = apply_tree_op(before, parsed, self._ids.new_id)
            check_minimum(before, root, op_extent(parsed))
            changed = present.with_active_root(root)
            if isinstance(parsed, AssignOp) and parsed.session:
                changed = without_session_elsewhere(changed, parsed.session)
            doc = save_layouts(self._fs, project, changed,
                               record=not isinstance(parsed, CONTENT_OPS))
        self._events.publish(LayoutChanged(project.root, doc))
        return doc
