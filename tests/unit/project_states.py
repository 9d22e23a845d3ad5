"""Builders of project states for tests: a project whose layout shows one session."""

from __future__ import annotations

from app.core.domain.layout import LayoutDoc
from app.core.domain.sessions import SessionRecord
from app.core.usecases.project_state import ProjectState


def layouts_showing(session_id: str) -> LayoutDoc:
    """One terminal layout, "Default", whose single cell shows `session_id`."""
    return LayoutDoc.model_validate({"version": 1, "activeId": "L1", "layouts": [
        {"id": "L1", "name": "Default", "kind": "terminal",
         "tree": {"root": {"type": "leaf", "node": {"id": "n1", "session": session_id}}}}]})


def state(root: str, shown: str, *records: SessionRecord) -> ProjectState:
    """The state of the project at `root` (named after its last part) showing `shown`, with
    `records` as its sessions."""
    return ProjectState(root, root.rsplit("/", 1)[-1], None, None, layouts_showing(shown),
                        sessions={r.session_id: r for r in records})
