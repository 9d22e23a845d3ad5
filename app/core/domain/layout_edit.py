"""Layout edit operations sent by the UI (contract §3) as pydantic models, and their decoding.

Tree ops act on the active layout: `{"kind":"split","nodeId","direction","extent"?}`,
`{"kind":"close","nodeId","kill"?,"keep"?}`, `{"kind":"resize","nodeId","weights"}` (split) or
`{"kind":"resize","nodeId","colWeights"?,"rowWeights"?}` (grid),
`{"kind":"assign","nodeId","session"?,"agent"?,"agentWasRunning"?}`,
`{"kind":"move","nodeId","toNodeId"}` (swap what two cells show),
`{"kind":"merge","nodeIds":[...]}`, `{"kind":"unmerge","nodeId","extent"?}`,
`{"kind":"preset","preset":"2x2"|"1+2"|"3-columns","extent"?}`,
`{"kind":"balance","nodeId"?,"extent"?}`, `{"kind":"undo"}`, `{"kind":"redo"}`.
Layout ops act on the document: `{"kind":"createLayout","name","preset"?}`,
`{"kind":"renameLayout","layoutId","name"}`, `{"kind":"duplicateLayout","layoutId","name"?}`,
`{"kind":"deleteLayout","layoutId"}`, `{"kind":"switchLayout","layoutId"}`.
`extent` = `{"cols", "rows"}`, the layout's area in terminal character cells, feeds the minimum
cell size rule (`layout_size`); split, resize, unmerge, preset and balance accept it. Unknown
keys are ignored.
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
    model_validator,
)
from pydantic.alias_generators import to_camel

from app.core.domain import layout_grid, layout_ops, layout_presets, named_layouts
from app.core.domain.documents import first_error
from app.core.domain.field_labels import field_refusal
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Direction, Leaf, Node
from app.core.domain.layout_presets import PresetName
from app.core.domain.layout_size import Extent
from app.core.domain.sessions import EditKind
from app.core.errors import INVALID, AppError


class _Op(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class ExtentIn(_Op):
    """The layout's area in terminal character cells (both > 0)."""

    cols: Annotated[float, Field(gt=0, allow_inf_nan=False)]
    rows: Annotated[float, Field(gt=0, allow_inf_nan=False)]

    def extent(self) -> Extent:
        """As a `layout_size.Extent`."""
        return Extent(self.cols, self.rows)


class _Sized(_Op):
    extent: ExtentIn | None = None


class SplitOp(_Sized):
    """Add an empty leaf after `node_id` along `direction`."""

    kind: Literal["split"] = "split"
    node_id: str
    direction: Direction


class CloseOp(_Op):
    """Remove leaf `node_id`. Its plain shell is killed after the close grace unless shown
    again (`pending_kills`), at once with `kill` (the user confirmed killing what runs in it),
    never with `keep` (the user chose to keep it running in the background: detached, in the
    same undo step as the close, so Ctrl+Z brings the cell back showing it)."""

    kind: Literal["close"] = "close"
    node_id: str
    kill: StrictBool = False
    keep: StrictBool = False

    @model_validator(mode="after")
    def _kill_or_keep(self) -> CloseOp:
        if self.kill and self.keep:
            raise ValueError("kill and keep: one or the other")
        return self


class ResizeOp(_Sized):
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


class MoveOp(_Op):
    """Swap what leaves `node_id` and `to_node_id` show."""

    kind: Literal["move"] = "move"
    node_id: str
    to_node_id: str


class MergeOp(_Op):
    """Merge neighbouring leaves `node_ids` into one cell."""

    kind: Literal["merge"] = "merge"
    node_ids: tuple[str, ...]


class UnmergeOp(_Sized):
    """Split the merged grid cell holding `node_id` back into single cells."""

    kind: Literal["unmerge"] = "unmerge"
    node_id: str


class PresetOp(_Sized):
    """Replace the active layout's tree by a ready-made grid, keeping what cells showed."""

    kind: Literal["preset"] = "preset"
    preset: PresetName


class BalanceOp(_Sized):
    """Equal weights everywhere under `node_id` (the whole layout when absent)."""

    kind: Literal["balance"] = "balance"
    node_id: str | None = None


class UndoOp(_Op):
    """Undo the last structural edit of the active layout."""

    kind: Literal["undo"] = "undo"


class RedoOp(_Op):
    """Redo the last undone edit of the active layout."""

    kind: Literal["redo"] = "redo"


class CreateLayoutOp(_Op):
    """Add a layout `name` (one empty cell, or `preset`) and make it active."""

    kind: Literal["createLayout"] = "createLayout"
    name: str
    preset: PresetName | None = None


class RenameLayoutOp(_Op):
    """Rename layout `layout_id`."""

    kind: Literal["renameLayout"] = "renameLayout"
    layout_id: str
    name: str


class DuplicateLayoutOp(_Op):
    """Copy layout `layout_id` (structure only) and make the copy active."""

    kind: Literal["duplicateLayout"] = "duplicateLayout"
    layout_id: str
    name: str | None = None


class DeleteLayoutOp(_Op):
    """Delete layout `layout_id` (not the last one)."""

    kind: Literal["deleteLayout"] = "deleteLayout"
    layout_id: str


class SwitchLayoutOp(_Op):
    """Make layout `layout_id` the active one."""

    kind: Literal["switchLayout"] = "switchLayout"
    layout_id: str


TreeOp = (SplitOp | CloseOp | ResizeOp | AssignOp | MoveOp | MergeOp | UnmergeOp | PresetOp
          | BalanceOp)
DocOp = CreateLayoutOp | RenameLayoutOp | DuplicateLayoutOp | DeleteLayoutOp | SwitchLayoutOp
LayoutOp = TreeOp | UndoOp | RedoOp | DocOp

CONTENT_OPS = (AssignOp, MoveOp)
"""Tree ops that change only what cells show: not recorded for undo."""


def edit_kind(op: LayoutOp) -> EditKind:
    """What `op` is to the session rules (`sessions.fate_after_edit`): `close` / `close_kill`
    / `close_keep` (a close with `kill` / `keep`), `undo`, `redo`, else `other`."""
    if isinstance(op, CloseOp):
        return "close_kill" if op.kill else "close_keep" if op.keep else "close"
    if isinstance(op, UndoOp):
        return "undo"
    if isinstance(op, RedoOp):
        return "redo"
    return "other"

_OPS: TypeAdapter[LayoutOp] = TypeAdapter(Annotated[LayoutOp, Field(discriminator="kind")])
_MODELS = (SplitOp, CloseOp, ResizeOp, AssignOp, MoveOp, MergeOp, UnmergeOp, PresetOp,
           BalanceOp, UndoOp, RedoOp, CreateLayoutOp, RenameLayoutOp, DuplicateLayoutOp,
           DeleteLayoutOp, SwitchLayoutOp)


def parse_layout_op(value: Any) -> LayoutOp:
    """Decode an op dict (or pass an op model through).

    Raises `AppError(INVALID, "op.<field>: <problem>", {"field"})`, e.g. `op.direction: input
    should be 'row' or 'column'`, or `op.kind: input should be one of 'split', …, not 'x'`;
    a layout's name, which the user types, is named as the dialog does (`Layout name: …`,
    `field_labels`).
    """
    if isinstance(value, _MODELS):
        return value
    try:
        return _OPS.validate_python(value)
    except ValidationError as exc:
        path, problem = first_error(exc, value)
        raise field_refusal("layout", path, problem, path=f"op.{path}" if path else "op") \
            from exc


def op_extent(op: LayoutOp) -> Extent | None:
    """The layout area an op carries (for the minimum cell size rule), if any."""
    extent = getattr(op, "extent", None)
    return extent.extent() if isinstance(extent, ExtentIn) else None


def apply_tree_op(root: Node, op: TreeOp, new_id: Callable[[], str]) -> Node:
    """Apply a tree op to `root` (see `layout_ops`, `layout_grid`, `layout_presets`)."""
    if isinstance(op, SplitOp):
        return layout_ops.split(root, op.node_id, op.direction, new_id)
    if isinstance(op, CloseOp):
        return layout_ops.close(root, op.node_id, new_id)
    if isinstance(op, ResizeOp):
        return layout_ops.resize(root, op.node_id, op.weights, col_weights=op.col_weights,
                                 row_weights=op.row_weights)
    if isinstance(op, MoveOp):
        return layout_ops.move(root, op.node_id, op.to_node_id)
    if isinstance(op, MergeOp):
        return layout_grid.merge(root, op.node_ids)
    if isinstance(op, UnmergeOp):
        return layout_grid.unmerge(root, op.node_id, new_id)
    if isinstance(op, PresetOp):
        return layout_presets.apply_preset(root, op.preset, new_id)
    if isinstance(op, BalanceOp):
        return layout_presets.balance(root, op.node_id)
    return layout_ops.assign(root, op.node_id, op.session, op.agent, op.agent_was_running)


def apply_doc_op(doc: LayoutDoc, op: DocOp, new_id: Callable[[], str]) -> LayoutDoc:
    """Apply a layout-management op to the document (see `named_layouts`)."""
    if isinstance(op, CreateLayoutOp):
        root = None
        if op.preset is not None:
            root = layout_presets.apply_preset(Leaf(id=new_id()), op.preset, new_id)
        return named_layouts.create_layout(doc, op.name, new_id, root)
    if isinstance(op, RenameLayoutOp):
        return named_layouts.rename_layout(doc, op.layout_id, op.name)
    if isinstance(op, DuplicateLayoutOp):
        return named_layouts.duplicate_layout(doc, op.layout_id, new_id, op.name)
    if isinstance(op, DeleteLayoutOp):
        return named_layouts.delete_layout(doc, op.layout_id)
    if isinstance(op, SwitchLayoutOp):
        return named_layouts.switch_layout(doc, op.layout_id)
    raise AppError(INVALID, f"op.kind: not a layout-management op: {op.kind}")
