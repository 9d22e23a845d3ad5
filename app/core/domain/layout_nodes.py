"""Layout tree nodes (SPEC C3, digest §6.4): immutable `Leaf`, `Split` and `Grid` models.

On disk a node is adjacently tagged, `{"type": "leaf"|"split"|"grid", "node": {...}}`; in Python
a `Node` is the inner model itself. Every node keeps `extra` (unknown keys of its `node` object)
and `wrapper_extra` (unknown keys of the `{"type", "node"}` wrapper) so an original IdeA
`layouts.json` survives a round trip. Weights are floats (`1` is read as `1.0`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    Field,
    GetCoreSchemaHandler,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidatorFunctionWrapHandler,
)
from pydantic_core import core_schema

from app.core.domain.documents import Document, is_empty

Direction = Literal["row", "column"]
DIRECTIONS: tuple[str, ...] = ("row", "column")
NODE_TYPES: tuple[str, ...] = ("leaf", "split", "grid")


class _NodeBody(Document):
    node_type: ClassVar[str]
    id: str
    _wrapper_extra: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def wrapper_extra(self) -> Mapping[str, Any]:
        """Unknown keys of this node's `{"type", "node"}` wrapper."""
        return self._wrapper_extra

    def with_wrapper_extra(self, extra: Mapping[str, Any]) -> Self:
        """A copy whose wrapper carries the unknown keys `extra`."""
        copy = self.model_copy()
        copy._wrapper_extra = dict(extra)
        return copy


class Leaf(_NodeBody):
    """A cell hosting zero or one session: `{"id", "session"?, "agent"?, "agentWasRunning"?}`.

    `session` is a PTY session id, `agent` an agent id, `agent_was_running` whether the agent
    was live when the layout was last saved (feeds resume after restart). The three are left
    out of the JSON when empty / false.
    """

    node_type: ClassVar[str] = "leaf"
    session: str | None = Field(default=None, exclude_if=is_empty)
    agent: str | None = Field(default=None, exclude_if=is_empty)
    agent_was_running: StrictBool = Field(default=False, exclude_if=is_empty)


class SplitChild(Document):
    """One child of a `Split` with its relative `weight` (a float > 0): `{"node", "weight"}`."""

    node: NodeField
    weight: StrictFloat = 1.0


class Split(_NodeBody):
    """Children laid out left→right (`row`) or top→bottom (`column`):
    `{"id", "direction", "children": [SplitChild]}`."""

    node_type: ClassVar[str] = "split"
    direction: Direction
    children: tuple[SplitChild, ...]


class GridCell(Document):
    """A grid cell at (`row`, `col`) spanning `row_span` x `col_span` tracks (0-based):
    `{"node", "row", "col", "rowSpan", "colSpan"}`."""

    node: NodeField
    row: StrictInt
    col: StrictInt
    row_span: StrictInt = 1
    col_span: StrictInt = 1


class Grid(_NodeBody):
    """A spreadsheet-like grid; `row_weights`/`col_weights` are relative floats > 0:
    `{"id", "colWeights", "rowWeights", "cells": [GridCell]}`."""

    node_type: ClassVar[str] = "grid"
    col_weights: tuple[StrictFloat, ...]
    row_weights: tuple[StrictFloat, ...]
    cells: tuple[GridCell, ...]


Node = Leaf | Split | Grid


class _LeafRef(Document):
    type: Literal["leaf"]
    node: Leaf


class _SplitRef(Document):
    type: Literal["split"]
    node: Split


class _GridRef(Document):
    type: Literal["grid"]
    node: Grid


def _unwrap(value: Any, handler: ValidatorFunctionWrapHandler) -> Node:
    if isinstance(value, Leaf | Split | Grid):
        return value
    ref: _LeafRef | _SplitRef | _GridRef = handler(value)
    return ref.node.with_wrapper_extra(ref.extra)


def _wrap(node: Node, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
    return {"type": node.node_type, "node": handler(node), **node.wrapper_extra}


class _Tagged:
    """Validates a node from its `{"type", "node"}` wrapper and writes it back as one."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any,
                                     handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        wrappers = handler.generate_schema(
            Annotated[_LeafRef | _SplitRef | _GridRef, Field(discriminator="type")])
        return core_schema.no_info_wrap_validator_function(
            _unwrap, wrappers,
            serialization=core_schema.wrap_serializer_function_ser_schema(
                _wrap, schema=handler.generate_schema(Node)))


NodeField = Annotated[Node, _Tagged]
"""A `Node` field stored in its adjacently tagged wrapper (`{"type", "node"}`)."""

for _model in (SplitChild, GridCell, Split, Grid, _LeafRef, _SplitRef, _GridRef):
    _model.model_rebuild()


def children_of(node: Node) -> tuple[Node, ...]:
    """Direct child nodes of `node` (empty for a leaf)."""
    if isinstance(node, Split):
        return tuple(child.node for child in node.children)
    if isinstance(node, Grid):
        return tuple(cell.node for cell in node.cells)
    return ()


def walk(node: Node) -> list[Node]:
    """All nodes of the tree rooted at `node`, depth first, parents before children."""
    out: list[Node] = [node]
    for child in children_of(node):
        out.extend(walk(child))
    return out


def leaves(node: Node) -> list[Leaf]:
    """All leaves of the tree, in reading order (depth first)."""
    return [n for n in walk(node) if isinstance(n, Leaf)]


def map_leaves(node: Node, change: Callable[[Leaf], Leaf]) -> Node:
    """`node` with every leaf replaced by `change(leaf)` (splits and grids copied around them)."""
    if isinstance(node, Leaf):
        return change(node)
    if isinstance(node, Split):
        return node.model_copy(update={"children": tuple(
            c.model_copy(update={"node": map_leaves(c.node, change)}) for c in node.children)})
    if isinstance(node, Grid):
        return node.model_copy(update={"cells": tuple(
            c.model_copy(update={"node": map_leaves(c.node, change)}) for c in node.cells)})
    return node


def find_node(node: Node, node_id: str) -> Node | None:
    """The node with id `node_id`, or `None`."""
    return next((n for n in walk(node) if n.id == node_id), None)


def find_leaf(node: Node, node_id: str) -> Leaf | None:
    """The leaf with id `node_id`, or `None` (also when that id names a split or grid)."""
    found = find_node(node, node_id)
    return found if isinstance(found, Leaf) else None
