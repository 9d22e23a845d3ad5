import pytest

from app.core.domain.layout_nodes import Grid, GridCell, Node
from app.core.domain.layout_rules import validate
from app.core.errors import AppError
from tests.unit.trees import cell, child, grid, leaf, split


def _grid(*cells: GridCell, rows: int = 2, cols: int = 2) -> Grid:
    return grid("g", (1.0,) * cols, (1.0,) * rows, cells)


def _cell(node_id: str, row: int, col: int, rs: int = 1, cs: int = 1) -> GridCell:
    return cell(leaf(node_id), row, col, rs, cs)


def test_valid_trees_pass() -> None:
    validate(leaf("a"))
    validate(split("s", "row", (child(leaf("a")), child(leaf("b"), 0.5))))
    validate(_grid(_cell("a", 0, 0, 2, 1), _cell("b", 0, 1), _cell("c", 1, 1)))


@pytest.mark.parametrize("tree", [
    split("s", "row", (child(leaf("a"), 0.0),)),
    split("s", "row", (child(leaf("a"), -1.0),)),
    split("s", "row", ()),
    split("s", "row", (child(leaf("a")), child(leaf("a")))),
    split("a", "row", (child(leaf("a")),)),
    split("s", "row", (child(leaf("a", session="x")), child(leaf("b", session="x")))),
    _grid(_cell("a", 0, 0, 2, 2), _cell("b", 1, 1)),
    _grid(_cell("a", 0, 0), _cell("b", 0, 1), _cell("c", 1, 0)),
    _grid(_cell("a", 0, 0, 3, 1), _cell("b", 0, 1, 2, 1)),
    _grid(_cell("a", 0, 0, 2, 1), _cell("b", 0, 1, 1, 2), _cell("c", 1, 1)),
    _grid(_cell("a", -1, 0), rows=1, cols=1),
    grid("g", (1.0,), (0.0,), (_cell("a", 0, 0),)),
])
def test_broken_invariants_raise_invalid(tree: Node) -> None:
    with pytest.raises(AppError) as err:
        validate(tree)
    assert err.value.code == "INVALID"
