"""How big each cell of a layout is, and the minimum cell size no edit may go under (SPEC C3).

Sizes are in terminal character cells: the UI measures the layout's area and sends it with an
edit as `Extent{cols, rows}` (what a terminal of that size would show); the core shares it out by
the weights. A cell must keep at least `MIN_CELL_COLS` columns and `MIN_CELL_ROWS` rows (4 rows
of terminal plus its header), so splitting can never make an unusable cell. Splitters and grid
gaps (a few pixels) are not subtracted: the rule is a floor, not a layout engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.domain.layout_nodes import Grid, Leaf, Node, Split
from app.core.errors import INVALID, AppError

MIN_CELL_COLS = 12
"""Fewest terminal columns a cell may be left with by an edit."""
HEADER_ROWS = 2
"""Rows a cell's header and borders take (24 px at a 17 px line)."""
MIN_CELL_ROWS = 4 + HEADER_ROWS
"""Fewest rows a cell may be left with by an edit: 4 rows of terminal plus its header."""

_SLACK = 1e-6


@dataclass(frozen=True)
class Extent:
    """A size in terminal character cells (`cols` wide, `rows` tall); floats, both ≥ 0."""

    cols: float
    rows: float


def _shares(weights: tuple[float, ...], total: float) -> list[float]:
    whole = sum(weights)
    return [total * w / whole if whole > 0 else 0.0 for w in weights]


def leaf_extents(root: Node, extent: Extent) -> dict[str, Extent]:
    """The size of every leaf when `root` fills `extent`, by leaf id.

    A `row` split shares its width by weight, a `column` split its height; a grid shares width
    and height by its column and row weights, and a cell gets the sum of the tracks it spans.
    """
    out: dict[str, Extent] = {}

    def visit(node: Node, box: Extent) -> None:
        if isinstance(node, Leaf):
            out[node.id] = box
        elif isinstance(node, Split):
            along = box.cols if node.direction == "row" else box.rows
            parts = _shares(tuple(c.weight for c in node.children), along)
            for child, part in zip(node.children, parts, strict=True):
                visit(child.node, Extent(part, box.rows) if node.direction == "row"
                      else Extent(box.cols, part))
        elif isinstance(node, Grid):
            widths = _shares(node.col_weights, box.cols)
            heights = _shares(node.row_weights, box.rows)
            for cell in node.cells:
                visit(cell.node, Extent(sum(widths[cell.col:cell.col + cell.col_span]),
                                        sum(heights[cell.row:cell.row + cell.row_span])))

    visit(root, extent)
    return out


def check_minimum(before: Node, after: Node, extent: Extent | None) -> None:
    """Refuse an edit that leaves a cell it made (or shrank) under the minimum size.

    `extent` is the layout's area as the UI measured it; `None` (a caller that knows no size)
    checks nothing. Cells the edit did not touch or made larger are never refused, so a layout
    that was already cramped (a small window) can still be edited. Raises `AppError(INVALID,
    "too small: …", {reason: "cellTooSmall", nodeId, cols, rows, minCols, minRows})`.
    """
    if extent is None:
        return
    old = leaf_extents(before, extent)
    for node_id, size in leaf_extents(after, extent).items():
        was = old.get(node_id)
        narrower = was is None or size.cols < was.cols - _SLACK
        shorter = was is None or size.rows < was.rows - _SLACK
        too_narrow = narrower and size.cols < MIN_CELL_COLS - _SLACK
        too_short = shorter and size.rows < MIN_CELL_ROWS - _SLACK
        if too_narrow or too_short:
            what = (f"{int(size.cols)} columns wide" if too_narrow
                    else f"{int(size.rows)} rows tall")
            raise AppError(
                INVALID,
                f"too small: a cell would be {what} (at least {MIN_CELL_COLS} columns × "
                f"{MIN_CELL_ROWS} rows)",
                {"reason": "cellTooSmall", "nodeId": node_id, "cols": round(size.cols, 2),
                 "rows": round(size.rows, 2), "minCols": MIN_CELL_COLS,
                 "minRows": MIN_CELL_ROWS})
