import random

import pytest

from app.core.domain import layout_ops as ops
from app.core.domain.layout_nodes import Grid, Node, Split, leaves
from app.core.domain.layout_rules import validate
from app.core.errors import AppError
from tests.unit.fakes import SequentialIds
from tests.unit.trees import cell, child, grid, leaf, split


def _ids() -> SequentialIds:
    return SequentialIds("n")


def test_split_root_leaf_wraps_in_equal_split() -> None:
    root = ops.split(leaf("a", session="s"), "a", "row", _ids().new_id)
    assert root == split("n-1", "row", (child(leaf("a", session="s")),
                                        child(leaf("n-2"))))


def test_split_in_same_direction_inserts_sibling_halving_weight() -> None:
    start = split("s", "row", (child(leaf("a"), 2.0), child(leaf("b"), 1.0)))
    root = ops.split(start, "a", "row", _ids().new_id)
    assert isinstance(root, Split)
    assert [(c.node.id, c.weight) for c in root.children] == [("a", 1.0), ("n-1", 1.0),
                                                              ("b", 1.0)]


def test_split_across_direction_wraps_and_keeps_weight() -> None:
    start = split("s", "row", (child(leaf("a"), 3.0), child(leaf("b"))))
    root = ops.split(start, "b", "column", _ids().new_id)
    assert isinstance(root, Split)
    inner = root.children[1]
    assert inner.weight == 1.0 and isinstance(inner.node, Split)
    assert inner.node.direction == "column"
    assert [c.node.id for c in inner.node.children] == ["b", "n-2"]


def test_split_unknown_node_is_not_found() -> None:
    with pytest.raises(AppError) as err:
        ops.split(leaf("a"), "zz", "row", _ids().new_id)
    assert err.value.code == "NOT_FOUND"


def test_close_collapses_single_child_split_keeping_child() -> None:
    inner = split("i", "column", (child(leaf("b", session="s")), child(leaf("c"))))
    start = split("s", "row", (child(leaf("a")), child(inner, 2.0)))
    root = ops.close(start, "c")
    assert isinstance(root, Split)
    assert root.children[1].node == leaf("b", session="s")
    assert root.children[1].weight == 2.0


def test_close_last_leaf_leaves_one_empty_leaf() -> None:
    assert ops.close(leaf("a", session="s", agent="x"), "a") == leaf("a")
    two = split("s", "row", (child(leaf("a")), child(leaf("b"))))
    assert ops.close(ops.close(two, "a"), "b") == leaf("b")


def test_close_grid_cell_empties_it() -> None:
    start = grid("g", (1.0,), (1.0,), (cell(leaf("a", session="s"), 0, 0),))
    assert ops.close(start, "a") == grid("g", (1.0,), (1.0,), (cell(leaf("a"), 0, 0),))


def test_close_a_split_is_invalid() -> None:
    with pytest.raises(AppError) as err:
        ops.close(split("s", "row", (child(leaf("a")),)), "s")
    assert err.value.code == "INVALID"


def test_resize_split_and_reject_bad_weights() -> None:
    start = split("s", "row", (child(leaf("a")), child(leaf("b"))))
    root = ops.resize(start, "s", [0.25, 0.75])
    assert isinstance(root, Split) and [c.weight for c in root.children] == [0.25, 0.75]
    for bad in ([1.0], [1.0, 0.0], [1.0, -1.0], [1.0, float("nan")]):
        with pytest.raises(AppError):
            ops.resize(start, "s", bad)


def test_resize_grid_tracks() -> None:
    start = grid("g", (1.0, 1.0), (1.0,), (cell(leaf("a"), 0, 0, 1, 2),))
    out = ops.resize(start, "g", col_weights=[2.0, 1.0])
    assert isinstance(out, Grid) and out.col_weights == (2.0, 1.0)


def test_assign_sets_and_clears() -> None:
    root = ops.assign(leaf("a"), "a", "s1", "agent", agent_was_running=True)
    assert root == leaf("a", session="s1", agent="agent", agent_was_running=True)
    assert ops.assign(root, "a", None, None) == leaf("a")


def test_assign_refuses_session_shown_elsewhere() -> None:
    start = split("s", "row", (child(leaf("a", session="s1")), child(leaf("b"))))
    with pytest.raises(AppError) as err:
        ops.assign(start, "b", "s1")
    assert err.value.code == "INVALID"


def test_random_edit_sequences_keep_invariants() -> None:
    rng = random.Random(1234)
    for _ in range(200):
        ids = _ids()
        root: Node = leaf("root")
        for step in range(30):
            leaf_ids = [lf.id for lf in leaves(root)]
            target = rng.choice(leaf_ids)
            action = rng.random()
            if action < 0.5:
                root = ops.split(root, target, rng.choice(["row", "column"]), ids.new_id)
            elif action < 0.8:
                root = ops.close(root, target)
            else:
                root = ops.assign(root, target, f"s{step}")
            validate(root)
            assert leaves(root), "a layout always keeps at least one leaf"
