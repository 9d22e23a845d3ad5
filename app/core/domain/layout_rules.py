"""Invariants of a layout tree and of a `layouts.json` document (SPEC C3)."""

from __future__ import annotations

import math

from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Grid, Node, Split, leaves, walk
from app.core.errors import INVALID, AppError


def _fail(message: str) -> AppError:
    return AppError(INVALID, f"invalid layout: {message}")


def _check_weights(weights: list[float], where: str) -> None:
    if not weights:
        raise _fail(f"{where} has no tracks")
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise _fail(f"{where} has a weight that is not > 0")


def _check_grid(grid: Grid) -> None:
    rows, cols = len(grid.row_weights), len(grid.col_weights)
    _check_weights(list(grid.row_weights), f"grid '{grid.id}' rows")
    _check_weights(list(grid.col_weights), f"grid '{grid.id}' columns")
    covered: set[tuple[int, int]] = set()
    for cell in grid.cells:
        if cell.row < 0 or cell.col < 0 or cell.row_span < 1 or cell.col_span < 1:
            raise _fail(f"grid '{grid.id}' has a cell with a negative position or empty span")
        if cell.row + cell.row_span > rows or cell.col + cell.col_span > cols:
            raise _fail(f"grid '{grid.id}' has a cell outside its {rows}x{cols} tracks")
        for r in range(cell.row, cell.row + cell.row_span):
            for c in range(cell.col, cell.col + cell.col_span):
                if (r, c) in covered:
                    raise _fail(f"grid '{grid.id}' has overlapping cells at ({r}, {c})")
                covered.add((r, c))
    if len(covered) != rows * cols:
        raise _fail(f"grid '{grid.id}' does not cover all of its {rows}x{cols} tracks")


def validate(root: Node) -> None:
    """Check a tree; raises `AppError(INVALID)` naming the first broken invariant.

    Invariants: unique node ids; splits have ≥ 1 child and weights > 0; grid weights > 0, grid
    cells inside the tracks (row + rowSpan ≤ rows, col + colSpan ≤ cols), not overlapping and
    covering every track; a session id shown in at most one leaf.
    """
    seen: set[str] = set()
    for node in walk(root):
        if not node.id:
            raise _fail("a node has an empty id")
        if node.id in seen:
            raise _fail(f"node id '{node.id}' is used twice")
        seen.add(node.id)
        if isinstance(node, Split):
            if not node.children:
                raise _fail(f"split '{node.id}' has no children")
            _check_weights([c.weight for c in node.children], f"split '{node.id}'")
        elif isinstance(node, Grid):
            _check_grid(node)
    sessions = [leaf.session for leaf in leaves(root) if leaf.session]
    if len(sessions) != len(set(sessions)):
        raise _fail("a session is shown in more than one cell")


def validate_doc(doc: LayoutDoc) -> None:
    """Validate every layout tree of `doc`, unique layout ids, and a session shown by at most
    one leaf of the whole document; raises `AppError(INVALID)`."""
    ids = [layout.id for layout in doc.layouts]
    if len(ids) != len(set(ids)):
        raise _fail("a layout id is used twice")
    if doc.active_id not in ids:
        raise _fail("activeId names no layout")
    for layout in doc.layouts:
        validate(layout.root)
    sessions = [leaf.session for layout in doc.layouts for leaf in leaves(layout.root)
                if leaf.session]
    if len(sessions) != len(set(sessions)):
        raise _fail("a session is shown in more than one layout")
