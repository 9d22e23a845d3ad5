import pytest

from app.core.domain.layout_nodes import Grid, leaves
from app.core.domain.layout_presets import PRESETS, apply_preset, balance
from app.core.domain.layout_rules import validate
from app.core.errors import AppError
from tests.unit.fakes import SequentialIds
from tests.unit.trees import cell, child, grid, leaf, split


@pytest.mark.parametrize(("preset", "cells", "shape"), [
    ("2x2", 4, (2, 2)), ("1+2", 3, (2, 2)), ("3-columns", 3, (3, 1))])
def test_presets_are_valid_grids(preset: str, cells: int, shape: tuple[int, int]) -> None:
    tree = apply_preset(leaf("a"), preset, SequentialIds("n").new_id)  # type: ignore[arg-type]
    validate(tree)
    assert isinstance(tree, Grid) and len(tree.cells) == cells
    assert (len(tree.col_weights), len(tree.row_weights)) == shape
    assert preset in PRESETS


def test_one_plus_two_has_a_tall_cell_on_the_left() -> None:
    tree = apply_preset(leaf("a"), "1+2", SequentialIds("n").new_id)
    assert isinstance(tree, Grid)
    assert [(c.row, c.col, c.row_span, c.col_span) for c in tree.cells] == [
        (0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)]


def test_a_preset_keeps_the_cells_that_show_something_first() -> None:
    old = split("s", "row", (child(leaf("a")), child(leaf("b", "s1")), child(leaf("c", "s2")),
                             child(leaf("d", agent="x")), child(leaf("e", "s3"))))
    tree = apply_preset(old, "3-columns", SequentialIds("n").new_id)
    assert [lf.id for lf in leaves(tree)] == ["b", "c", "d"]
    assert [lf.session for lf in leaves(tree)] == ["s1", "s2", None]
    more = apply_preset(leaf("a", "s1"), "2x2", SequentialIds("n").new_id)
    assert [lf.id for lf in leaves(more)] == ["a", "n-1", "n-2", "n-3"]


def test_balance_gives_equal_weights_everywhere_or_under_one_node() -> None:
    g = grid("g", (1.0, 3.0), (2.0,), (cell(leaf("a"), 0, 0), cell(leaf("b"), 0, 1)))
    tree = split("s", "row", (child(leaf("x"), 5.0), child(g, 1.0)))
    assert balance(tree) == split("s", "row", (child(leaf("x")), child(
        grid("g", (1.0, 1.0), (1.0,), (cell(leaf("a"), 0, 0), cell(leaf("b"), 0, 1))))))
    only_grid = balance(tree, "g")
    assert only_grid == split("s", "row", (child(leaf("x"), 5.0), child(
        grid("g", (1.0, 1.0), (1.0,), (cell(leaf("a"), 0, 0), cell(leaf("b"), 0, 1))))))
    with pytest.raises(AppError) as err:
        balance(tree, "zz")
    assert err.value.code == "NOT_FOUND"
