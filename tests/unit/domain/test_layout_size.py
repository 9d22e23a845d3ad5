import pytest

from app.core.domain import layout_ops as ops
from app.core.domain.layout_size import (
    MIN_CELL_COLS,
    MIN_CELL_ROWS,
    Extent,
    check_minimum,
    leaf_extents,
)
from app.core.errors import AppError
from tests.unit.fakes import SequentialIds
from tests.unit.trees import cell, child, grid, leaf, split


def test_extents_follow_weights_and_spans() -> None:
    g = grid("g", (1.0, 3.0), (1.0, 1.0), (cell(leaf("a"), 0, 0, 2, 1), cell(leaf("b"), 0, 1),
                                           cell(leaf("c"), 1, 1)))
    tree = split("s", "column", (child(leaf("top"), 1.0), child(g, 3.0)))
    sizes = leaf_extents(tree, Extent(80, 40))
    assert sizes == {"top": Extent(80, 10), "a": Extent(20, 30), "b": Extent(60, 15),
                     "c": Extent(60, 15)}


def test_a_split_that_would_make_a_too_narrow_cell_is_refused() -> None:
    before = leaf("a")
    after = ops.split(before, "a", "row", SequentialIds().new_id)
    check_minimum(before, after, Extent(2 * MIN_CELL_COLS, 24))
    with pytest.raises(AppError) as err:
        check_minimum(before, after, Extent(2 * MIN_CELL_COLS - 1, 24))
    assert err.value.code == "INVALID" and err.value.message.startswith("too small")
    assert err.value.details["reason"] == "cellTooSmall"
    assert err.value.details["minCols"] == MIN_CELL_COLS


def test_a_split_that_would_make_a_too_short_cell_is_refused() -> None:
    before = leaf("a")
    after = ops.split(before, "a", "column", SequentialIds().new_id)
    check_minimum(before, after, Extent(80, 2 * MIN_CELL_ROWS))
    with pytest.raises(AppError) as err:
        check_minimum(before, after, Extent(80, 2 * MIN_CELL_ROWS - 1))
    assert "rows tall" in err.value.message


def test_no_extent_checks_nothing_and_untouched_small_cells_are_fine() -> None:
    before = split("s", "row", (child(leaf("tiny"), 1.0), child(leaf("big"), 9.0)))
    after = ops.split(before, "big", "column", SequentialIds().new_id)
    check_minimum(before, after, Extent(100, 40))  # "tiny" is 10 columns but was not touched
    check_minimum(before, ops.split(before, "tiny", "row", SequentialIds().new_id), None)
