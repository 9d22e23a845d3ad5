"""Layout edits (SPEC C3) and their consequences for the sessions they hide."""

from __future__ import annotations

from typing import Any

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_edit import CloseOp, parse_layout_op
from app.core.usecases.edit_layout import EditLayout
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper


class LayoutService:
    """`edit(root, op)`: the use case, then the kill-or-detach rule for hidden sessions."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper,
                 edit_layout: EditLayout) -> None:
        self._projects, self._keeper, self._edit = projects, keeper, edit_layout

    def edit(self, root: str, op: dict[str, Any]) -> LayoutDoc:
        """Apply `op` (contract §3) to the active layout of `root`; returns the document.

        Closing a cell ends its plain shell; every other hidden session keeps running (see
        `sessions.fate_after_edit`). Errors of `EditLayout`, and NOT_FOUND for a closed project.
        """
        parsed = parse_layout_op(op)
        with self._projects.locked(root) as state:
            before = state.shown_sessions()
            doc = self._edit.execute(state, parsed)
            self._keeper.after_edit(state, isinstance(parsed, CloseOp), before)
            return doc
