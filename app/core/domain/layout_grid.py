"""Merging adjacent cells into one and splitting a merged cell back (SPEC C3, seed 001 §7).

Pure `tree → tree` functions. Cells of a grid merge when together they fill a rectangle of its
tracks (the merged cell spans it); neighbouring cells of a split merge into one child whose
weight is the sum of theirs. The merged cell keeps the first of the cells, in reading order,
that shows something (else the first); what the others showed is hidden, not stopped (an agent
or a shell keeps running and can be shown again, or brought back by undo).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.core.domain.layout_nodes import Grid, GridCell, Leaf, Node, Split, SplitChild, walk
from app.core.domain.layout_ops import replace_node
from app.core.errors import INVALID, NOT_FOUND, AppError

Container = Split | Grid


def parent_of(root: Node, node_id: str) -> Container | None:
    """The split or grid whose direct child is node `node_id` (None for the root or unknown)."""
    for node in walk(root):
        if isinstance(node, Split) and any(c.node.id == node_id for c in node.children):
            return node
        if isinstance(node, Grid) and any(c.node.id == node_id for c in node.cells):
            return node
    return None


def _invalid(message: str, **details: object) -> AppError:
    return AppError(INVALID, message, dict(details))


def _keeper(nodes: Sequence[Node]) -> Node:
    shown = [n for n in nodes if isinstance(n, Leaf) and (n.session or n.agent)]
    return shown[0] if shown else nodes[0]


def _selection(root: Node, node_ids: Sequence[str]) -> tuple[Container, list[str]]:
    wanted = list(dict.fromkeys(node_ids))
    if len(wanted) < 2:
        raise _invalid("merge needs at least two cells", nodeIds=wanted)
    index = {n.id: n for n in walk(root)}
    for node_id in wanted:
        if node_id not in index:
            raise AppError(NOT_FOUND, f"no layout node '{node_id}'", {"nodeId": node_id})
        if not isinstance(index[node_id], Leaf):
            raise _invalid("only cells (leaves) can be merged", nodeId=node_id)
    parents = {id(p): p for p in (parent_of(root, n) for n in wanted) if p is not None}
    parent = next(iter(parents.values()), None)
    if parent is None or len(parents) != 1 or any(parent_of(root, n) is None for n in wanted):
        raise _invalid("only neighbouring cells of one grid or one split can be merged",
                       nodeIds=wanted)
    return parent, wanted


def _merge_split(split: Split, wanted: set[str]) -> Node:
    picked = [i for i, c in enumerate(split.children) if c.node.id in wanted]
    if picked != list(range(picked[0], picked[-1] + 1)):
        raise _invalid("the cells to merge must be next to each other", nodeIds=sorted(wanted))
    chosen = split.children[picked[0]:picked[-1] + 1]
    merged = SplitChild(node=_keeper([c.node for c in chosen]),
                        weight=sum(c.weight for c in chosen))
    kids = (*split.children[:picked[0]], merged, *split.children[picked[-1] + 1:])
    if len(kids) == 1:
        return merged.node
    return split.model_copy(update={"children": kids})


def _merge_grid(grid: Grid, wanted: set[str]) -> Node:
    chosen = sorted((c for c in grid.cells if c.node.id in wanted), key=lambda c: (c.row, c.col))
    top, left = min(c.row for c in chosen), min(c.col for c in chosen)
    bottom = max(c.row + c.row_span for c in chosen)
    right = max(c.col + c.col_span for c in chosen)
    area = sum(c.row_span * c.col_span for c in chosen)
    if area != (bottom - top) * (right - left):
        raise _invalid("the cells to merge must fill a rectangle", nodeIds=sorted(wanted))
    merged = GridCell(node=_keeper([c.node for c in chosen]), row=top, col=left,
                      row_span=bottom - top, col_span=right - left)
    if merged.row_span == len(grid.row_weights) and merged.col_span == len(grid.col_weights):
        return merged.node  # one cell covering the whole grid is just that cell
    rest = [c for c in grid.cells if c.node.id not in wanted]
    cells = sorted([*rest, merged], key=lambda c: (c.row, c.col))
    return grid.model_copy(update={"cells": tuple(cells)})


def merge(root: Node, node_ids: Sequence[str]) -> Node:
    """Merge the leaves `node_ids` (two or more, one parent) into one cell.

    In a grid they must fill a rectangle of tracks exactly (no other cell inside it); the
    merged cell spans it, and a cell left spanning the whole grid replaces the grid. In a split
    they must be consecutive children; a split left with one child is replaced by it. Raises
    NOT_FOUND (unknown id) or INVALID (fewer than two cells, not leaves, different parents,
    not neighbours, not a rectangle).
    """
    parent, wanted = _selection(root, node_ids)

    def change(node: Node) -> Node:
        if isinstance(node, Split):
            return _merge_split(node, set(wanted))
        assert isinstance(node, Grid)
        return _merge_grid(node, set(wanted))

    return replace_node(root, parent.id, change)


def merged_cell(root: Node, node_id: str) -> GridCell | None:
    """The grid cell holding node `node_id` when it spans more than one track, else None."""
    parent = parent_of(root, node_id)
    if not isinstance(parent, Grid):
        return None
    cell = next(c for c in parent.cells if c.node.id == node_id)
    return cell if cell.row_span > 1 or cell.col_span > 1 else None


def unmerge(root: Node, node_id: str, new_id: Callable[[], str]) -> Node:
    """Split the merged grid cell holding `node_id` back into one cell per track it spans.

    The node keeps the top-left track; every other track gets a new empty leaf (id from
    `new_id()`). Raises NOT_FOUND (unknown id) or INVALID (not a merged grid cell).
    """
    if not any(n.id == node_id for n in walk(root)):
        raise AppError(NOT_FOUND, f"no layout node '{node_id}'", {"nodeId": node_id})
    cell = merged_cell(root, node_id)
    parent = parent_of(root, node_id)
    if cell is None or not isinstance(parent, Grid):
        raise _invalid("this cell is not merged", nodeId=node_id)

    def change(node: Node) -> Node:
        assert isinstance(node, Grid)
        pieces = [cell.model_copy(update={"row_span": 1, "col_span": 1})]
        pieces += [GridCell(node=Leaf(id=new_id()), row=r, col=c)
                   for r in range(cell.row, cell.row + cell.row_span)
                   for c in range(cell.col, cell.col + cell.col_span)
                   if (r, c) != (cell.row, cell.col)]
        rest = [c for c in node.cells if c.node.id != node_id]
        return node.model_copy(update={"cells": tuple(sorted([*rest, *pieces],
                                                             key=lambda c: (c.row, c.col)))})

    return replace_node(root, parent.id, change)
