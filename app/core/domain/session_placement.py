"""Where a session is shown (SPEC C2, C3): moving a session into a cell, and what a cell keeps
of an agent once its session ended. Pure functions `LayoutDoc -> LayoutDoc`."""

from __future__ import annotations

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Leaf, Node, find_leaf, find_node, leaves
from app.core.domain.layout_ops import replace_node
from app.core.errors import INVALID, NOT_FOUND, AppError


def _emptied(root: Node, session_id: str, keep: str | None) -> Node:
    """`root` with every leaf showing `session_id` (but leaf `keep`) emptied."""
    for leaf in leaves(root):
        if leaf.session == session_id and leaf.id != keep:
            root = replace_node(root, leaf.id, lambda n: n.model_copy(update={
                "session": None, "agent": None, "agent_was_running": False}))
    return root


def show_session(doc: LayoutDoc, node_id: str, session_id: str, agent_id: str | None,
                 alive: bool) -> LayoutDoc:
    """Leaf `node_id` of the active layout shows `session_id` (an agent's: `agent_id`, marked
    `agentWasRunning` while `alive`); any other leaf of any layout that showed it is emptied,
    so a session stays in at most one cell. What the target leaf showed before is the caller's
    business (it is hidden: `sessions.fate_after_edit`).

    Raises `AppError(NOT_FOUND)` for an unknown node, `AppError(INVALID)` when it is not a leaf.
    """
    if find_leaf(doc.active.root, node_id) is None:
        if find_node(doc.active.root, node_id) is not None:
            raise AppError(INVALID, "only a cell (leaf) can show a session", {"nodeId": node_id})
        raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
    out = doc
    for layout in doc.layouts:
        keep = node_id if layout.id == doc.active.id else None
        emptied = _emptied(layout.root, session_id, keep)
        if emptied is not layout.root:
            out = out.with_layout(layout.with_root(emptied))

    def show(node: Node) -> Node:
        assert isinstance(node, Leaf)
        return node.model_copy(update={"session": session_id, "agent": agent_id or None,
                                       "agent_was_running": bool(agent_id) and alive})

    return out.with_active_root(replace_node(out.active.root, node_id, show))


def agent_ended(doc: LayoutDoc, session_id: str) -> LayoutDoc | None:
    """The agent session `session_id` ended by itself: the cells showing it no longer say
    `agentWasRunning` (they keep `agent`, so "Relaunch" still knows whom). `None` when no
    cell said so (nothing to write)."""
    out = doc
    for layout in doc.layouts:
        root = layout.root
        for leaf in leaves(root):
            if leaf.session == session_id and leaf.agent_was_running:
                root = replace_node(root, leaf.id,
                                    lambda n: n.model_copy(update={"agent_was_running": False}))
        if root is not layout.root:
            out = out.with_layout(layout.with_root(root))
    return None if out is doc else out
