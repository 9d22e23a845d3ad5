"""Short positional builders of layout trees for tests (the models take keywords only)."""

from __future__ import annotations

from app.core.domain.layout_nodes import Direction, Grid, GridCell, Leaf, Node, Split, SplitChild


def leaf(node_id: str, session: str | None = None, agent: str | None = None,
         agent_was_running: bool = False) -> Leaf:
    return Leaf(id=node_id, session=session, agent=agent, agent_was_running=agent_was_running)


def child(node: Node, weight: float = 1.0) -> SplitChild:
    return SplitChild(node=node, weight=weight)


def split(node_id: str, direction: Direction, children: tuple[SplitChild, ...]) -> Split:
    return Split(id=node_id, direction=direction, children=children)


def cell(node: Node, row: int, col: int, row_span: int = 1, col_span: int = 1) -> GridCell:
    return GridCell(node=node, row=row, col=col, row_span=row_span, col_span=col_span)


def grid(node_id: str, col_weights: tuple[float, ...], row_weights: tuple[float, ...],
         cells: tuple[GridCell, ...]) -> Grid:
    return Grid(id=node_id, col_weights=col_weights, row_weights=row_weights, cells=cells)
