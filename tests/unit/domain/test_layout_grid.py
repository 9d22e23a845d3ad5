import pytest

from app.core.domain.layout_grid import merge, merged_cell, unmerge
from app.core.domain.layout_nodes import Grid, leaves
from app.core.domain.layout_rules import validate
from app.core.errors import AppError
from tests.unit.fakes import SequentialIds
from tests.unit.trees import cell, child, grid, leaf, split


def _two_by_two() -> Grid:
    return grid("g", (1.0, 1.0), (1.0, 1.0), (
        cell(leaf("a"), 0, 0), cell(leaf("b", "s1"), 0, 1),
        cell(leaf("c"), 1, 0), cell(leaf("d", "s2"), 1, 1)))


def test_merge_a_row_of_a_grid_spans_it_and_keeps_the_first_shown_cell() -> None:
    merged = merge(_two_by_two(), ["a", "b"])
    validate(merged)
    assert merged == grid("g", (1.0, 1.0), (1.0, 1.0), (
        cell(leaf("b", "s1"), 0, 0, 1, 2), cell(leaf("c"), 1, 0), cell(leaf("d", "s2"), 1, 1)))


def test_merge_a_column_then_unmerge_it() -> None:
    merged = merge(_two_by_two(), ["d", "b"])
    spanning = merged_cell(merged, "b")
    assert spanning is not None and (spanning.row, spanning.col, spanning.row_span) == (0, 1, 2)
    back = unmerge(merged, "b", SequentialIds("n").new_id)
    validate(back)
    assert back == grid("g", (1.0, 1.0), (1.0, 1.0), (
        cell(leaf("a"), 0, 0), cell(leaf("b", "s1"), 0, 1),
        cell(leaf("c"), 1, 0), cell(leaf("n-1"), 1, 1)))


def test_merging_every_cell_leaves_just_that_cell() -> None:
    assert merge(_two_by_two(), ["a", "b", "c", "d"]) == leaf("b", "s1")


def test_merge_refuses_what_is_not_a_rectangle() -> None:
    g = grid("g", (1.0, 1.0, 1.0), (1.0, 1.0), (
        cell(leaf("a"), 0, 0, 1, 2), cell(leaf("b"), 0, 2),
        cell(leaf("c"), 1, 0), cell(leaf("d"), 1, 1), cell(leaf("e"), 1, 2)))
    for ids in (["a", "e"], ["a", "c"], ["b", "c"]):
        with pytest.raises(AppError) as err:
            merge(g, ids)
        assert err.value.code == "INVALID" and "rectangle" in err.value.message
    validate(merge(g, ["a", "c", "d"]))


def test_merge_siblings_of_a_split_adds_their_weights() -> None:
    s = split("s", "row", (child(leaf("a"), 1.0), child(leaf("b", "s1"), 2.0),
                           child(leaf("c"), 1.0)))
    assert merge(s, ["a", "b"]) == split("s", "row", (child(leaf("b", "s1"), 3.0),
                                                      child(leaf("c"), 1.0)))
    assert merge(s, ["a", "b", "c"]) == leaf("b", "s1")
    with pytest.raises(AppError) as err:
        merge(s, ["a", "c"])
    assert "next to each other" in err.value.message


@pytest.mark.parametrize(("ids", "code"), [
    (["a"], "INVALID"),
    (["a", "a"], "INVALID"),
    (["a", "zz"], "NOT_FOUND"),
    (["a", "inner"], "INVALID"),
    (["a", "x"], "INVALID"),
])
def test_merge_refuses_bad_selections(ids: list[str], code: str) -> None:
    inner = split("inner", "column", (child(leaf("x")), child(leaf("y"))))
    tree = split("s", "row", (child(leaf("a")), child(inner)))
    with pytest.raises(AppError) as err:
        merge(tree, ids)
    assert err.value.code == code


def test_unmerge_refuses_a_cell_that_is_not_merged() -> None:
    with pytest.raises(AppError) as err:
        unmerge(_two_by_two(), "a", SequentialIds().new_id)
    assert err.value.code == "INVALID"
    with pytest.raises(AppError) as err:
        unmerge(_two_by_two(), "zz", SequentialIds().new_id)
    assert err.value.code == "NOT_FOUND"


def test_unmerge_a_big_span_fills_every_track() -> None:
    g = grid("g", (1.0, 1.0, 1.0), (1.0, 1.0), (cell(leaf("a", "s"), 0, 0, 2, 2),
                                                cell(leaf("b"), 0, 2), cell(leaf("c"), 1, 2)))
    back = unmerge(g, "a", SequentialIds("n").new_id)
    validate(back)
    assert [lf.id for lf in leaves(back)] == ["a", "n-1", "b", "n-2", "n-3", "c"]
