"""Show a session in a cell, from wherever it was (SPEC C2: the sessions panel, a drag onto a
cell), and forget that an agent was running once its session ended on its own."""

from __future__ import annotations

from app.core.domain.layout import LayoutDoc
from app.core.domain.session_placement import agent_ended, show_session
from app.core.errors import NOT_FOUND, AppError
from app.core.events import LayoutChanged
from app.core.ports import EventSink, FileSystem
from app.core.usecases.project_files import require_layouts, save_layouts
from app.core.usecases.project_state import ProjectState


class ShowSession:
    """Put one of the project's sessions into a cell of the active layout."""

    def __init__(self, fs: FileSystem, events: EventSink) -> None:
        self._fs, self._events = fs, events

    def execute(self, project: ProjectState, node_id: str, session_id: str) -> LayoutDoc:
        """Leaf `node_id` shows `session_id` (a move when another cell showed it: that cell is
        emptied); persisted without an undo step, published as `LayoutChanged`. Whatever the
        leaf showed before is hidden (the caller applies `sessions.fate_after_edit`).

        Raises `NOT_FOUND` (a session the project does not own, an unknown cell), `INVALID`
        (not a leaf), `CORRUPT_FILE`, `NOT_WRITABLE`.
        """
        record = project.sessions.get(session_id)
        if record is None:
            raise AppError(NOT_FOUND, f"no session {session_id} in this project",
                           {"sessionId": session_id})
        doc = show_session(require_layouts(project), node_id, session_id, record.agent_id,
                           record.alive)
        saved = save_layouts(self._fs, project, doc, record=False)
        self._events.publish(LayoutChanged(project.root, saved))
        return saved


class ForgetAgentRunning:
    """An agent's session ended by itself (not at IdeA's exit): its cells no longer say
    `agentWasRunning`, so a restart does not offer to resume what had finished."""

    def __init__(self, fs: FileSystem, events: EventSink) -> None:
        self._fs, self._events = fs, events

    def execute(self, project: ProjectState, session_id: str) -> LayoutDoc | None:
        """Clear the flag in every leaf showing `session_id`; the document written and
        published, or `None` when no leaf had it. Raises `NOT_WRITABLE`."""
        if project.layouts is None:
            return None
        doc = agent_ended(project.layouts, session_id)
        if doc is None:
            return None
        saved = save_layouts(self._fs, project, doc, record=False)
        self._events.publish(LayoutChanged(project.root, saved))
        return saved
