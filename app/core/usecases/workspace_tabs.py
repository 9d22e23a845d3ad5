"""Tabs and windows of the workspace as use cases (SPEC C1): each applies one pure operation of
`WorkspaceDoc` and saves the result through the `WorkspaceStore` port. The caller (the
workspace service) holds the current document and serialises calls."""

from __future__ import annotations

from app.core.domain.workspace import RestoredShell, RunningAgent, WorkspaceDoc
from app.core.ports import WorkspaceStore


class _Change:
    def __init__(self, store: WorkspaceStore) -> None:
        self._store = store

    def _saved(self, doc: WorkspaceDoc) -> WorkspaceDoc:
        self._store.save(doc)
        return doc


class OpenTab(_Change):
    """`execute(doc, window_id, root, index?)`: the project shows in a tab of `window_id` (moved
    there when another window had it). Raises NOT_FOUND (window), INVALID (index), the store's
    NOT_WRITABLE / CORRUPT_FILE (the document returned by `WorkspaceDoc.open_tab` is then not
    saved: the caller keeps it in memory)."""

    def execute(self, doc: WorkspaceDoc, window_id: str, root: str,
                index: int | None = None) -> WorkspaceDoc:
        return self._saved(doc.open_tab(window_id, root, index))


class MoveTab(_Change):
    """`execute(doc, root, window_id, index?)`: reorder a tab within its window or move it to
    another (the project's sessions keep running: only views change). Raises NOT_FOUND,
    INVALID, the store's errors."""

    def execute(self, doc: WorkspaceDoc, root: str, window_id: str,
                index: int | None = None) -> WorkspaceDoc:
        return self._saved(doc.move_tab(root, window_id, index))


class DropTab(_Change):
    """`execute(doc, root, window_id, slot?)`: the tab dragged onto `window_id`'s tab bar lands
    at the gap `slot` of the tabs as that bar shows them (`WorkspaceDoc.drop_tab`: a drop on
    its own place changes nothing). Raises NOT_FOUND, the store's errors."""

    def execute(self, doc: WorkspaceDoc, root: str, window_id: str,
                slot: int | None = None) -> WorkspaceDoc:
        return self._saved(doc.drop_tab(root, window_id, slot))


class CloseTab(_Change):
    """`execute(doc, root)`: the tab goes (NOT_FOUND when in no tab)."""

    def execute(self, doc: WorkspaceDoc, root: str) -> WorkspaceDoc:
        return self._saved(doc.close_tab(root))


class RecordQuit(_Change):
    """`execute(doc, shells, agents)`: at quit, which shells to reopen (cwd, saved scrollback)
    and which agents were running (they come back resumable)."""

    def execute(self, doc: WorkspaceDoc, shells: list[RestoredShell],
                agents: list[RunningAgent]) -> WorkspaceDoc:
        return self._saved(doc.model_copy(update={"restored_shells": tuple(shells),
                                                  "agents_running_at_quit": tuple(agents)}))

