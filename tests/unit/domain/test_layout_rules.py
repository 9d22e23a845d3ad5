import pytest

from app.core.domain.layout_nodes import Grid, GridCell, Leaf, Node, Split, SplitChild
from app.core.domain.layout_rules import validate
from app.core.errors import AppError


def _grid(*cells: GridCell, rows: int = 2, cols: int = 2) -> Grid:
    return Grid("g", (1.0,) * cols, (1.0,) * rows, cells)


def _cell(node_id: str, row: int, col: int, rs: int = 1, cs: int = 1) -> GridCell:
    return GridCell(Leaf(node_id), row, col, rs, cs)


def test_valid_trees_pass() -> None:
    validate(Leaf("a"))
    validate(Split("s", "row", (SplitChild(Leaf("a")), SplitChild(Leaf("b"), 0.5))))
    validate(_grid(_cell("a", 0, 0, 2, 1), _cell("b", 0, 1), _cell("c", 1, 1)))


@pytest.mark.parametrize("tree", [
    Split("s", "row", (SplitChild(Leaf("a"), 0.0),)),
    Split("s", "row", (SplitChild(Leaf("a"), -1.0),)),
    Split("s", "row", ()),
    Split("s", "row", (SplitChild(Leaf("a")), SplitChild(Leaf("a")))),
    Split("a", "row", (SplitChild(Leaf("a")),)),
    Split("s", "row", (SplitChild(Leaf("a", session="x")), SplitChild(Leaf("b", session="x")))),
    _grid(_cell("a", 0, 0, 2, 2), _cell("b", 1, 1)),
    _grid(_cell("a", 0, 0), _cell("b", 0, 1), _cell("c", 1, 0)),
    _grid(_cell("a", 0, 0, 3, 1), _cell("b", 0, 1, 2, 1)),
    _grid(_cell("a", 0, 0, 2, 1), _cell("b", 0, 1, 1, 2), _cell("c", 1, 1)),
    _grid(_cell("a", -1, 0), rows=1, cols=1),
    Grid("g", (1.0,), (0.0,), (_cell("a", 0, 0),)),
])
def test_broken_invariants_raise_invalid(tree: Node) -> None:
    with pytest.raises(AppError) as err:
        validate(tree)
    assert err.value.code == "INVALID"
