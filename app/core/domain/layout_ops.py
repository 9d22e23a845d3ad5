"""Pure layout operations `tree → tree` (SPEC C3).

Each returns a new tree and never mutates its input. New node ids come from `new_id()`.
Unknown `node_id` raises `AppError(NOT_FOUND)`; a bad argument raises `AppError(INVALID)`.
Callers run `layout_rules.validate` on the result before persisting it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from app.core.domain.layout_nodes import (
    Direction,
    Grid,
    GridCell,
    Leaf,
    Node,
    Split,
    SplitChild,
    find_leaf,
    find_node,
    leaves,
)
from app.core.errors import INVALID, NOT_FOUND, AppError

__all__ = ["assign", "close", "find_leaf", "leaves", "move", "replace_node", "resize", "split"]


def _require(root: Node, node_id: str) -> Node:
    node = find_node(root, node_id)
    if node is None:
        raise AppError(NOT_FOUND, f"no layout node '{node_id}'", {"nodeId": node_id})
    return node


def _rebuilt_cells(grid: Grid, rebuild: Callable[[Node], Node]) -> tuple[GridCell, ...]:
    return tuple(c.model_copy(update={"node": rebuild(c.node)}) for c in grid.cells)


def replace_node(root: Node, node_id: str, change: Callable[[Node], Node]) -> Node:
    """Return `root` with the node `node_id` replaced by `change(node)`; NOT_FOUND if absent."""
    _require(root, node_id)

    def rebuild(node: Node) -> Node:
        if node.id == node_id:
            return change(node)
        if isinstance(node, Split):
            kids = tuple(c.model_copy(update={"node": rebuild(c.node)}) for c in node.children)
            return node.model_copy(update={"children": kids})
        if isinstance(node, Grid):
            return node.model_copy(update={"cells": _rebuilt_cells(node, rebuild)})
        return node

    return rebuild(root)


def split(root: Node, node_id: str, direction: Direction, new_id: Callable[[], str]) -> Node:
    """Add a new empty leaf after node `node_id` along `direction` ("row" | "column").

    In a split of the same direction the leaf becomes the next sibling and the node's weight is
    halved between the two; otherwise the node is wrapped in a new split of two equal weights.
    """
    _require(root, node_id)

    def wrap(node: Node) -> Split:
        split_id = new_id()
        return Split(id=split_id, direction=direction,
                     children=(SplitChild(node=node), SplitChild(node=Leaf(id=new_id()))))

    def rebuild(node: Node) -> Node:
        if node.id == node_id:
            return wrap(node)
        if isinstance(node, Split):
            kids: list[SplitChild] = []
            for child in node.children:
                if child.node.id == node_id and node.direction == direction:
                    half = child.weight / 2
                    kids += [child.model_copy(update={"weight": half}),
                             SplitChild(node=Leaf(id=new_id()), weight=half)]
                else:
                    kids.append(child.model_copy(update={"node": rebuild(child.node)}))
            return node.model_copy(update={"children": tuple(kids)})
        if isinstance(node, Grid):
            return node.model_copy(update={"cells": _rebuilt_cells(node, rebuild)})
        return node

    return rebuild(root)


def close(root: Node, node_id: str, new_id: Callable[[], str] | None = None) -> Node:
    """Remove leaf `node_id`.

    A split left with one child is replaced by that child; closing the last leaf of the tree
    leaves one empty leaf; closing a grid cell's leaf empties it (the grid must stay fully
    covered). That empty leaf gets a new id from `new_id()` (so undo sees the closed cell come
    back), or keeps `node_id` when `new_id` is None. Raises INVALID when `node_id` is not a leaf.
    """
    if not isinstance(_require(root, node_id), Leaf):
        raise AppError(INVALID, "only a cell (leaf) can be closed", {"nodeId": node_id})
    empty_id = new_id() if new_id is not None else node_id

    def rebuild(node: Node) -> Node | None:
        if node.id == node_id:
            return None
        if isinstance(node, Split):
            kids = []
            for child in node.children:
                new = rebuild(child.node)
                if new is not None:
                    kids.append(child.model_copy(update={"node": new}))
            if not kids:
                return None
            return kids[0].node if len(kids) == 1 else node.model_copy(update={"children": tuple(kids)})
        if isinstance(node, Grid):
            cells = tuple(c.model_copy(update={"node": rebuild(c.node) or Leaf(id=empty_id)})
                          for c in node.cells)
            return node.model_copy(update={"cells": cells})
        return node

    return rebuild(root) or Leaf(id=empty_id)


def _check_weights(weights: Sequence[float], count: int, what: str) -> tuple[float, ...]:
    if len(weights) != count:
        raise AppError(INVALID, f"{what}: expected {count} weights, got {len(weights)}")
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise AppError(INVALID, f"{what}: weights must be finite and > 0")
    return tuple(float(w) for w in weights)


def resize(
    root: Node,
    node_id: str,
    weights: Sequence[float] | None = None,
    *,
    col_weights: Sequence[float] | None = None,
    row_weights: Sequence[float] | None = None,
) -> Node:
    """Set the relative weights of split `node_id` (one per child, > 0), or of grid `node_id`
    (`col_weights`/`row_weights`, one per track). Raises INVALID on a count/sign mismatch."""

    def change(node: Node) -> Node:
        if isinstance(node, Split) and weights is not None:
            new = _check_weights(weights, len(node.children), "resize")
            kids = tuple(c.model_copy(update={"weight": w})
                         for c, w in zip(node.children, new, strict=True))
            return node.model_copy(update={"children": kids})
        if isinstance(node, Grid) and weights is None:
            cols = node.col_weights if col_weights is None else col_weights
            rows = node.row_weights if row_weights is None else row_weights
            return node.model_copy(update={
                "col_weights": _check_weights(cols, len(node.col_weights), "resize columns"),
                "row_weights": _check_weights(rows, len(node.row_weights), "resize rows"),
            })
        raise AppError(INVALID, "resize needs a split (weights) or a grid (colWeights/rowWeights)")

    return replace_node(root, node_id, change)


def assign(
    root: Node,
    node_id: str,
    session: str | None,
    agent: str | None = None,
    agent_was_running: bool = False,
) -> Node:
    """Set (or clear with `None`) the session and agent shown by leaf `node_id`.

    Raises INVALID when `node_id` is not a leaf or `session` is already shown by another leaf.
    """
    if not isinstance(_require(root, node_id), Leaf):
        raise AppError(INVALID, "only a cell (leaf) can host a session", {"nodeId": node_id})
    if session and any(lf.session == session and lf.id != node_id for lf in leaves(root)):
        raise AppError(INVALID, f"session '{session}' is already shown in another cell")

    def change(node: Node) -> Node:
        assert isinstance(node, Leaf)
        return node.model_copy(update={"session": session or None, "agent": agent or None,
                                       "agent_was_running": bool(agent) and agent_was_running})

    return replace_node(root, node_id, change)


def move(root: Node, node_id: str, to_node_id: str) -> Node:
    """Swap what leaves `node_id` and `to_node_id` show (session, agent, agentWasRunning): the
    terminal of one cell moves to the other, and the other's (if any) comes the other way.

    Raises NOT_FOUND (unknown id) or INVALID (not leaves).
    """
    source, target = _require(root, node_id), _require(root, to_node_id)
    if not isinstance(source, Leaf) or not isinstance(target, Leaf):
        raise AppError(INVALID, "only cells (leaves) can swap what they show",
                       {"nodeId": node_id, "toNodeId": to_node_id})
    if node_id == to_node_id:
        return root

    def contents(leaf: Leaf) -> dict[str, object]:
        return {"session": leaf.session, "agent": leaf.agent,
                "agent_was_running": leaf.agent_was_running}

    swapped = replace_node(root, node_id, lambda n: n.model_copy(update=contents(target)))
    return replace_node(swapped, to_node_id, lambda n: n.model_copy(update=contents(source)))
