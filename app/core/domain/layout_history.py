"""Undo/redo of layout edits (SPEC C3): an immutable, bounded stack of `LayoutDoc` snapshots.

Undo and redo restore the *structure* of a snapshot; what cells show (session, agent) always
follows the present: a leaf that still exists keeps its current content, a leaf that comes back
from the past comes back empty. A running session is thus never resurrected nor duplicated.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.core.domain.layout import Layout, LayoutDoc
from app.core.domain.layout_nodes import Grid, Leaf, Node, Split, leaves

HISTORY_LIMIT = 100


def _carry_contents(target: Node, present: dict[str, Leaf]) -> Node:
    if isinstance(target, Leaf):
        now = present.get(target.id)
        return target.model_copy(update={
            "session": now.session if now else None,
            "agent": now.agent if now else None,
            "agent_was_running": now.agent_was_running if now else False,
        })
    if isinstance(target, Split):
        kids = tuple(c.model_copy(update={"node": _carry_contents(c.node, present)})
                     for c in target.children)
        return target.model_copy(update={"children": kids})
    if isinstance(target, Grid):
        cells = tuple(c.model_copy(update={"node": _carry_contents(c.node, present)})
                      for c in target.cells)
        return target.model_copy(update={"cells": cells})
    return target


def restore_structure(snapshot: LayoutDoc, present: LayoutDoc) -> LayoutDoc:
    """`snapshot` with every leaf's session/agent taken from `present` (or cleared)."""
    now = {leaf.id: leaf for layout in present.layouts for leaf in leaves(layout.root)}
    layouts: list[Layout] = [
        layout.with_root(_carry_contents(layout.root, now)) for layout in snapshot.layouts
    ]
    return snapshot.model_copy(update={"layouts": tuple(layouts)})


@dataclass(frozen=True)
class LayoutHistory:
    """Past and future snapshots; `past[-1]` is the state before the last edit.

    At most `limit` snapshots are kept on each side (oldest dropped first).
    """

    past: tuple[LayoutDoc, ...] = ()
    future: tuple[LayoutDoc, ...] = ()
    limit: int = HISTORY_LIMIT

    @property
    def can_undo(self) -> bool:
        """Whether there is an edit to undo."""
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone edit to redo."""
        return bool(self.future)

    def record(self, before: LayoutDoc) -> LayoutHistory:
        """Remember `before` (the doc prior to an edit); clears the redo stack."""
        return replace(self, past=(*self.past, before)[-self.limit:], future=())

    def undo(self, present: LayoutDoc) -> tuple[LayoutHistory, LayoutDoc]:
        """Return the new history and the doc to show; `present` unchanged when nothing to undo."""
        if not self.past:
            return self, present
        target = restore_structure(self.past[-1], present)
        future = (*self.future, present)[-self.limit:]
        return replace(self, past=self.past[:-1], future=future), target

    def redo(self, present: LayoutDoc) -> tuple[LayoutHistory, LayoutDoc]:
        """Return the new history and the doc to show; `present` unchanged when nothing to redo."""
        if not self.future:
            return self, present
        target = restore_structure(self.future[-1], present)
        past = (*self.past, present)[-self.limit:]
        return replace(self, past=past, future=self.future[:-1]), target
