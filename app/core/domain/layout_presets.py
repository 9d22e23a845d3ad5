"""Ready-made layouts ("2×2", "1+2", "3 columns") and "balance" (equal weights) (SPEC C3).

A preset replaces the whole tree with a grid and keeps what the cells showed: the leaves that
show something go first, in reading order, into the preset's cells (reading order too), then
the empty ones, then new empty leaves. Leaves that do not fit are dropped; their sessions are
hidden, never stopped (undo brings them back while they run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from app.core.domain.layout_nodes import Grid, GridCell, Leaf, Node, Split, leaves, walk
from app.core.domain.layout_ops import replace_node
from app.core.errors import NOT_FOUND, AppError

PresetName = Literal["2x2", "1+2", "3-columns"]
PRESETS: tuple[str, ...] = ("2x2", "1+2", "3-columns")

# (cols, rows, [(row, col, rowSpan, colSpan)] in reading order)
_SHAPES: dict[str, tuple[int, int, tuple[tuple[int, int, int, int], ...]]] = {
    "2x2": (2, 2, ((0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1))),
    "1+2": (2, 2, ((0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1))),
    "3-columns": (3, 1, ((0, 0, 1, 1), (0, 1, 1, 1), (0, 2, 1, 1))),
}


def apply_preset(root: Node, preset: PresetName, new_id: Callable[[], str]) -> Node:
    """The tree `preset` as a grid of equal tracks, filled with `root`'s leaves (see module).

    "2x2": two columns × two rows; "1+2": one cell on the left spanning both rows, two stacked
    on the right; "3-columns": three side by side. New ids come from `new_id()`.
    """
    cols, rows, spans = _SHAPES[preset]
    old = leaves(root)
    order = [lf for lf in old if lf.session or lf.agent] + [lf for lf in old
                                                            if not (lf.session or lf.agent)]
    cells: list[GridCell] = []
    for index, (row, col, row_span, col_span) in enumerate(spans):
        node: Leaf = order[index] if index < len(order) else Leaf(id=new_id())
        cells.append(GridCell(node=node, row=row, col=col, row_span=row_span,
                              col_span=col_span))
    grid_id = root.id if isinstance(root, Grid) else new_id()
    return Grid(id=grid_id, col_weights=(1.0,) * cols, row_weights=(1.0,) * rows,
                cells=tuple(cells))


def _balanced(node: Node) -> Node:
    if isinstance(node, Split):
        kids = tuple(c.model_copy(update={"node": _balanced(c.node), "weight": 1.0})
                     for c in node.children)
        return node.model_copy(update={"children": kids})
    if isinstance(node, Grid):
        cells = tuple(c.model_copy(update={"node": _balanced(c.node)}) for c in node.cells)
        return node.model_copy(update={"cells": cells,
                                       "col_weights": (1.0,) * len(node.col_weights),
                                       "row_weights": (1.0,) * len(node.row_weights)})
    return node


def balance(root: Node, node_id: str | None = None) -> Node:
    """Every split and grid under node `node_id` (the whole tree when None) with equal
    weights. Raises NOT_FOUND for an unknown `node_id`."""
    if node_id is None:
        return _balanced(root)
    if not any(n.id == node_id for n in walk(root)):
        raise AppError(NOT_FOUND, f"no layout node '{node_id}'", {"nodeId": node_id})
    return replace_node(root, node_id, _balanced)
