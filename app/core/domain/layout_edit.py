"""Layout edit operations sent by the UI (contract §3) as dataclasses, and their decoding.

JSON forms: `{"kind":"split","nodeId","direction"}`, `{"kind":"close","nodeId"}`,
`{"kind":"resize","nodeId","weights"}` (split) or `{"kind":"resize","nodeId","colWeights"?,
"rowWeights"?}` (grid), `{"kind":"assign","nodeId","session"?,"agent"?,"agentWasRunning"?}`,
`{"kind":"undo"}`, `{"kind":"redo"}`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.core.domain import jsonshape as js
from app.core.domain import layout_ops
from app.core.domain.layout_nodes import DIRECTIONS, Direction, Node
from app.core.errors import INVALID, AppError


@dataclass(frozen=True)
class SplitOp:
    """Add an empty leaf after `node_id` along `direction`."""

    node_id: str
    direction: Direction


@dataclass(frozen=True)
class CloseOp:
    """Remove leaf `node_id`."""

    node_id: str


@dataclass(frozen=True)
class ResizeOp:
    """Set the weights of split `node_id`, or the track weights of grid `node_id`."""

    node_id: str
    weights: tuple[float, ...] | None = None
    col_weights: tuple[float, ...] | None = None
    row_weights: tuple[float, ...] | None = None


@dataclass(frozen=True)
class AssignOp:
    """Set (or clear with `None`) what leaf `node_id` shows."""

    node_id: str
    session: str | None = None
    agent: str | None = None
    agent_was_running: bool = False


@dataclass(frozen=True)
class UndoOp:
    """Undo the last structural edit."""


@dataclass(frozen=True)
class RedoOp:
    """Redo the last undone edit."""


LayoutOp = SplitOp | CloseOp | ResizeOp | AssignOp | UndoOp | RedoOp
TreeOp = SplitOp | CloseOp | ResizeOp | AssignOp


def _numbers(obj: Mapping[str, Any], key: str) -> tuple[float, ...] | None:
    if obj.get(key) is None:
        return None
    items = js.as_list(obj[key], f"op.{key}")
    if not all(isinstance(w, int | float) and not isinstance(w, bool) for w in items):
        raise AppError(INVALID, f"op.{key}: expected an array of numbers")
    return tuple(float(w) for w in items)


def parse_layout_op(value: Any) -> LayoutOp:
    """Decode an op dict (or pass an op dataclass through); raises `AppError(INVALID)`."""
    if isinstance(value, SplitOp | CloseOp | ResizeOp | AssignOp | UndoOp | RedoOp):
        return value
    obj = js.as_object(value, "op")
    kind = js.req_str(obj, "kind", "op")
    if kind == "undo":
        return UndoOp()
    if kind == "redo":
        return RedoOp()
    node_id = js.req_str(obj, "nodeId", "op")
    if kind == "split":
        direction = js.req_str(obj, "direction", "op")
        if direction not in DIRECTIONS:
            raise AppError(INVALID, "op.direction must be 'row' or 'column'")
        return SplitOp(node_id, "row" if direction == "row" else "column")
    if kind == "close":
        return CloseOp(node_id)
    if kind == "resize":
        return ResizeOp(node_id, _numbers(obj, "weights"), _numbers(obj, "colWeights"),
                        _numbers(obj, "rowWeights"))
    if kind == "assign":
        return AssignOp(node_id, js.opt_str(obj, "session", "op"), js.opt_str(obj, "agent", "op"),
                        js.opt_bool(obj, "agentWasRunning", "op"))
    raise AppError(INVALID, f"unknown layout op '{kind}'")


def apply_tree_op(root: Node, op: TreeOp, new_id: Callable[[], str]) -> Node:
    """Apply a structural/assign op to `root` (see `layout_ops`); returns the new tree."""
    if isinstance(op, SplitOp):
        return layout_ops.split(root, op.node_id, op.direction, new_id)
    if isinstance(op, CloseOp):
        return layout_ops.close(root, op.node_id)
    if isinstance(op, ResizeOp):
        return layout_ops.resize(root, op.node_id, op.weights, col_weights=op.col_weights,
                                 row_weights=op.row_weights)
    return layout_ops.assign(root, op.node_id, op.session, op.agent, op.agent_was_running)
