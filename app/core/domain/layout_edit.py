"""Layout edit operations sent by the UI (contract §3) as pydantic models, and their decoding.

JSON forms: `{"kind":"split","nodeId","direction"}`, `{"kind":"close","nodeId"}`,
`{"kind":"resize","nodeId","weights"}` (split) or `{"kind":"resize","nodeId","colWeights"?,
"rowWeights"?}` (grid), `{"kind":"assign","nodeId","session"?,"agent"?,"agentWasRunning"?}`,
`{"kind":"undo"}`, `{"kind":"redo"}`. Unknown keys are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    TypeAdapter,
    ValidationError,
)
from pydantic.alias_generators import to_camel

from app.core.domain import layout_ops
from app.core.domain.documents import first_error
from app.core.domain.layout_nodes import Direction, Node
from app.core.errors import INVALID, AppError


class _Op(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class SplitOp(_Op):
    """Add an empty leaf after `node_id` along `direction`."""

    kind: Literal["split"] = "split"
    node_id: str
    direction: Direction


class CloseOp(_Op):
    """Remove leaf `node_id`."""

    kind: Literal["close"] = "close"
    node_id: str


class ResizeOp(_Op):
    """Set the weights of split `node_id`, or the track weights of grid `node_id`."""

    kind: Literal["resize"] = "resize"
    node_id: str
    weights: tuple[StrictFloat, ...] | None = None
    col_weights: tuple[StrictFloat, ...] | None = None
    row_weights: tuple[StrictFloat, ...] | None = None


class AssignOp(_Op):
    """Set (or clear with `None`) what leaf `node_id` shows."""

    kind: Literal["assign"] = "assign"
    node_id: str
    session: str | None = None
    agent: str | None = None
    agent_was_running: StrictBool = False


class UndoOp(_Op):
    """Undo the last structural edit."""

    kind: Literal["undo"] = "undo"


class RedoOp(_Op):
    """Redo the last undone edit."""

    kind: Literal["redo"] = "redo"


LayoutOp = SplitOp | CloseOp | ResizeOp | AssignOp | UndoOp | RedoOp
TreeOp = SplitOp | CloseOp | ResizeOp | AssignOp

_OPS: TypeAdapter[LayoutOp] = TypeAdapter(Annotated[LayoutOp, Field(discriminator="kind")])


def parse_layout_op(value: Any) -> LayoutOp:
    """Decode an op dict (or pass an op model through).

    Raises `AppError(INVALID, "op.<field>: <problem>", {"field"})`, e.g. `op.direction: input
    should be 'row' or 'column'`, or `op.kind: input should be one of 'split', …, not 'x'`.
    """
    if isinstance(value, SplitOp | CloseOp | ResizeOp | AssignOp | UndoOp | RedoOp):
        return value
    try:
        return _OPS.validate_python(value)
    except ValidationError as exc:
        path, problem = first_error(exc, value)
        field = f"op.{path}" if path else "op"
        raise AppError(INVALID, f"{field}: {problem}", {"field": field}) from exc


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
