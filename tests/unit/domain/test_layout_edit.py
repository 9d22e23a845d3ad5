import pytest

from app.core.domain.layout_edit import (
    AssignOp,
    CloseOp,
    RedoOp,
    ResizeOp,
    SplitOp,
    UndoOp,
    parse_layout_op,
)
from app.core.errors import AppError


def test_parse_all_contract_ops() -> None:
    assert parse_layout_op({"kind": "split", "nodeId": "n", "direction": "column"}) == \
        SplitOp("n", "column")
    assert parse_layout_op({"kind": "close", "nodeId": "n"}) == CloseOp("n")
    assert parse_layout_op({"kind": "resize", "nodeId": "s", "weights": [1, 2.5]}) == \
        ResizeOp("s", (1.0, 2.5))
    assert parse_layout_op({"kind": "assign", "nodeId": "n", "session": "s1"}) == \
        AssignOp("n", "s1", None)
    assert parse_layout_op({"kind": "undo"}) == UndoOp()
    assert parse_layout_op({"kind": "redo"}) == RedoOp()


def test_dataclass_ops_pass_through() -> None:
    op = CloseOp("n")
    assert parse_layout_op(op) is op


@pytest.mark.parametrize("op", [
    {"kind": "explode", "nodeId": "n"},
    {"kind": "split", "nodeId": "n", "direction": "up"},
    {"kind": "split", "direction": "row"},
    {"kind": "resize", "nodeId": "n", "weights": ["a"]},
    "split",
])
def test_bad_ops_are_invalid(op: object) -> None:
    with pytest.raises(AppError) as err:
        parse_layout_op(op)
    assert err.value.code == "INVALID"
