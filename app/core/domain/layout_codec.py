"""JSON codec of layout nodes (adjacent tagging `{"type", "node"}`, digest §6.4).

Known keys are decoded into fields; every unknown key is kept in `extra`/`wrapper_extra` and
written back after the known ones. Weights are written as floats (`1.0`).
"""

from __future__ import annotations

from typing import Any

from app.core.domain import jsonshape as js
from app.core.domain.layout_nodes import (
    DIRECTIONS,
    Direction,
    Grid,
    GridCell,
    Leaf,
    Node,
    Split,
    SplitChild,
)
from app.core.errors import INVALID, AppError

_LEAF_KEYS = ("id", "session", "agent", "agentWasRunning")
_SPLIT_KEYS = ("id", "direction", "children")
_GRID_KEYS = ("id", "colWeights", "rowWeights", "cells")
_CELL_KEYS = ("node", "row", "col", "rowSpan", "colSpan")


def node_from_json(value: Any, where: str = "root") -> Node:
    """Decode a `{"type", "node"}` object; raises `AppError(INVALID)` on a wrong shape."""
    wrapper = js.as_object(value, where)
    kind = js.req_str(wrapper, "type", where)
    body = js.as_object(wrapper.get("node"), f"{where}.node")
    wrapper_extra = js.extra_keys(wrapper, ("type", "node"))
    node_id = js.req_str(body, "id", f"{where}.node")
    if kind == "leaf":
        return Leaf(
            id=node_id,
            session=js.opt_str(body, "session", where),
            agent=js.opt_str(body, "agent", where),
            agent_was_running=js.opt_bool(body, "agentWasRunning", where),
            extra=js.extra_keys(body, _LEAF_KEYS),
            wrapper_extra=wrapper_extra,
        )
    if kind == "split":
        return _split_from_json(body, node_id, wrapper_extra, where)
    if kind == "grid":
        return _grid_from_json(body, node_id, wrapper_extra, where)
    raise AppError(INVALID, f"{where}: unknown node type '{kind}'")


def _split_from_json(body: js.JsonObject, node_id: str, wrapper_extra: js.JsonObject,
                     where: str) -> Split:
    direction = js.req_str(body, "direction", where)
    if direction not in DIRECTIONS:
        raise AppError(INVALID, f"{where}: direction must be 'row' or 'column'")
    children = []
    for i, raw in enumerate(js.as_list(body.get("children"), f"{where}.children")):
        child_where = f"{where}.children[{i}]"
        child = js.as_object(raw, child_where)
        children.append(SplitChild(
            node=node_from_json(child.get("node"), f"{child_where}.node"),
            weight=js.req_number(child, "weight", child_where),
            extra=js.extra_keys(child, ("node", "weight")),
        ))
    dir_value: Direction = "row" if direction == "row" else "column"
    return Split(node_id, dir_value, tuple(children), js.extra_keys(body, _SPLIT_KEYS),
                 wrapper_extra)


def _weights(value: Any, where: str) -> tuple[float, ...]:
    items = js.as_list(value, where)
    if not all(isinstance(w, int | float) and not isinstance(w, bool) for w in items):
        raise AppError(INVALID, f"{where}: expected an array of numbers")
    return tuple(float(w) for w in items)


def _span(cell: js.JsonObject, key: str, where: str) -> int:
    value = js.opt_int(cell, key, where)
    return 1 if value is None else value


def _grid_from_json(body: js.JsonObject, node_id: str, wrapper_extra: js.JsonObject,
                    where: str) -> Grid:
    cells = []
    for i, raw in enumerate(js.as_list(body.get("cells"), f"{where}.cells")):
        cell_where = f"{where}.cells[{i}]"
        cell = js.as_object(raw, cell_where)
        row, col = js.opt_int(cell, "row", cell_where), js.opt_int(cell, "col", cell_where)
        if row is None or col is None:
            raise AppError(INVALID, f"{cell_where}: 'row' and 'col' are required")
        cells.append(GridCell(
            node=node_from_json(cell.get("node"), f"{cell_where}.node"),
            row=row,
            col=col,
            row_span=_span(cell, "rowSpan", cell_where),
            col_span=_span(cell, "colSpan", cell_where),
            extra=js.extra_keys(cell, _CELL_KEYS),
        ))
    return Grid(
        id=node_id,
        col_weights=_weights(body.get("colWeights"), f"{where}.colWeights"),
        row_weights=_weights(body.get("rowWeights"), f"{where}.rowWeights"),
        cells=tuple(cells),
        extra=js.extra_keys(body, _GRID_KEYS),
        wrapper_extra=wrapper_extra,
    )


def node_to_json(node: Node) -> dict[str, Any]:
    """Encode `node` as `{"type", "node", ...wrapper extras}`; optional leaf keys omitted."""
    body: dict[str, Any] = {"id": node.id}
    if isinstance(node, Leaf):
        kind = "leaf"
        if node.session:
            body["session"] = node.session
        if node.agent:
            body["agent"] = node.agent
        if node.agent_was_running:
            body["agentWasRunning"] = True
    elif isinstance(node, Split):
        kind = "split"
        body["direction"] = node.direction
        body["children"] = [
            {"node": node_to_json(c.node), "weight": float(c.weight), **c.extra}
            for c in node.children
        ]
    else:
        kind = "grid"
        body["colWeights"] = [float(w) for w in node.col_weights]
        body["rowWeights"] = [float(w) for w in node.row_weights]
        body["cells"] = [
            {"node": node_to_json(c.node), "row": c.row, "col": c.col,
             "rowSpan": c.row_span, "colSpan": c.col_span, **c.extra}
            for c in node.cells
        ]
    body.update(node.extra)
    return {"type": kind, "node": body, **node.wrapper_extra}
