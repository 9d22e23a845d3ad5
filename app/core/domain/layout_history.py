"""Undo/redo of layout edits (SPEC C3): one immutable, bounded stack of trees per named layout.

Undo and redo restore the *structure* of a layout as it was. What cells show follows the
present: a leaf that still exists keeps its current content; a leaf that comes back (a closed
cell, the cells a merge or a preset took away) shows its session again if that session still
runs and no other cell of the document shows it — an agent detached by a close, a shell kept
in the background — and comes back empty otherwise. A session is thus never resurrected nor
shown twice.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Leaf, Node, leaves, map_leaves

HISTORY_LIMIT = 100


def restore_tree(snapshot: Node, present: LayoutDoc, layout_id: str,
                 live: Collection[str]) -> Node:
    """The tree `snapshot` of layout `layout_id` with its cells' contents settled against
    `present` (see the module docstring); `live` holds the ids of the sessions still running."""
    here = next((lay for lay in present.layouts if lay.id == layout_id), None)
    now = {lf.id: lf for lf in leaves(here.root)} if here else {}
    taken = {lf.session for lay in present.layouts if lay.id != layout_id
             for lf in leaves(lay.root) if lf.session}
    past = leaves(snapshot)
    taken |= {sid for lf in past if lf.id in now and (sid := now[lf.id].session)}
    change: dict[str, Leaf] = {}
    for old in past:
        if old.id in now:
            current = now[old.id]
            change[old.id] = old.model_copy(update={
                "session": current.session, "agent": current.agent,
                "agent_was_running": current.agent_was_running})
        elif old.session and old.session in live and old.session not in taken:
            taken.add(old.session)
        else:
            change[old.id] = old.model_copy(update={"session": None, "agent": None,
                                                    "agent_was_running": False})
    return map_leaves(snapshot, lambda leaf: change.get(leaf.id, leaf))


@dataclass(frozen=True)
class UndoStack:
    """Past and future trees of one layout; `past[-1]` is the tree before its last edit."""

    past: tuple[Node, ...] = ()
    future: tuple[Node, ...] = ()


_EMPTY = UndoStack()


@dataclass(frozen=True)
class LayoutHistory:
    """The undo stacks of a project's layouts, by layout id (at most `limit` trees each side,
    oldest dropped first). Layout management (create, rename, switch, delete…) is not undone."""

    stacks: Mapping[str, UndoStack] = field(default_factory=lambda: MappingProxyType({}))
    limit: int = HISTORY_LIMIT

    def _with(self, layout_id: str, stack: UndoStack) -> LayoutHistory:
        stacks = dict(self.stacks)
        stacks[layout_id] = stack
        return replace(self, stacks=MappingProxyType(stacks))

    def can_undo(self, layout_id: str) -> bool:
        """Whether layout `layout_id` has an edit to undo."""
        return bool(self.stacks.get(layout_id, _EMPTY).past)

    def can_redo(self, layout_id: str) -> bool:
        """Whether layout `layout_id` has an undone edit to redo."""
        return bool(self.stacks.get(layout_id, _EMPTY).future)

    def record(self, layout_id: str, before: Node) -> LayoutHistory:
        """Remember `before`, the tree of layout `layout_id` prior to an edit; clears its redo."""
        stack = self.stacks.get(layout_id, _EMPTY)
        return self._with(layout_id, UndoStack(past=(*stack.past, before)[-self.limit:]))

    def forget(self, layout_id: str) -> LayoutHistory:
        """Drop the stack of a deleted layout."""
        stacks = {k: v for k, v in self.stacks.items() if k != layout_id}
        return replace(self, stacks=MappingProxyType(stacks))

    def undo(self, present: LayoutDoc, live: Collection[str]) -> tuple[LayoutHistory, LayoutDoc]:
        """Undo the last edit of the active layout; returns the new history and the doc to show
        (`present` itself when there is nothing to undo). `live`: ids of running sessions."""
        layout = present.active
        stack = self.stacks.get(layout.id, _EMPTY)
        if not stack.past:
            return self, present
        tree = restore_tree(stack.past[-1], present, layout.id, live)
        moved = UndoStack(past=stack.past[:-1],
                          future=(*stack.future, layout.root)[-self.limit:])
        return self._with(layout.id, moved), present.with_active_root(tree)

    def redo(self, present: LayoutDoc, live: Collection[str]) -> tuple[LayoutHistory, LayoutDoc]:
        """Redo the last undone edit of the active layout (see `undo`)."""
        layout = present.active
        stack = self.stacks.get(layout.id, _EMPTY)
        if not stack.future:
            return self, present
        tree = restore_tree(stack.future[-1], present, layout.id, live)
        moved = UndoStack(past=(*stack.past, layout.root)[-self.limit:],
                          future=stack.future[:-1])
        return self._with(layout.id, moved), present.with_active_root(tree)
