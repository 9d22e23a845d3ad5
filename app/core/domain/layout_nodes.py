"""Layout tree nodes (SPEC C3): immutable `Leaf`, `Split` and `Grid`.

Every node keeps `extra` (unknown keys of its `node` object) and `wrapper_extra` (unknown keys
of its `{"type", "node"}` wrapper) so an original IdeA `layouts.json` survives a round trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Direction = Literal["row", "column"]
DIRECTIONS: tuple[str, ...] = ("row", "column")


def _empty() -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Leaf:
    """A cell hosting zero or one session.

    `session` is a PTY session id, `agent` an agent id, `agent_was_running` whether the agent
    was live when the layout was last saved (feeds resume after restart).
    """

    id: str
    session: str | None = None
    agent: str | None = None
    agent_was_running: bool = False
    extra: Mapping[str, Any] = field(default_factory=_empty)
    wrapper_extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True)
class SplitChild:
    """One child of a `Split` with its relative `weight` (a float > 0)."""

    node: Node
    weight: float = 1.0
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True)
class Split:
    """Children laid out left→right (`row`) or top→bottom (`column`)."""

    id: str
    direction: Direction
    children: tuple[SplitChild, ...]
    extra: Mapping[str, Any] = field(default_factory=_empty)
    wrapper_extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True)
class GridCell:
    """A grid cell at (`row`, `col`) spanning `row_span` x `col_span` tracks (0-based)."""

    node: Node
    row: int
    col: int
    row_span: int = 1
    col_span: int = 1
    extra: Mapping[str, Any] = field(default_factory=_empty)


@dataclass(frozen=True)
class Grid:
    """A spreadsheet-like grid; `row_weights`/`col_weights` are relative floats > 0."""

    id: str
    col_weights: tuple[float, ...]
    row_weights: tuple[float, ...]
    cells: tuple[GridCell, ...]
    extra: Mapping[str, Any] = field(default_factory=_empty)
    wrapper_extra: Mapping[str, Any] = field(default_factory=_empty)


Node = Leaf | Split | Grid


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


def find_node(node: Node, node_id: str) -> Node | None:
    """The node with id `node_id`, or `None`."""
    return next((n for n in walk(node) if n.id == node_id), None)


def find_leaf(node: Node, node_id: str) -> Leaf | None:
    """The leaf with id `node_id`, or `None` (also when that id names a split or grid)."""
    found = find_node(node, node_id)
    return found if isinstance(found, Leaf) else None
