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
        SplitOp(node_id="n", direction="column")
    assert parse_layout_op({"kind": "close", "nodeId": "n"}) == CloseOp(node_id="n")
    assert parse_layout_op({"kind": "resize", "nodeId": "s", "weights": [1, 2.5]}) == \
        ResizeOp(node_id="s", weights=(1.0, 2.5))
    assert parse_layout_op({"kind": "assign", "nodeId": "n", "session": "s1"}) == \
        AssignOp(node_id="n", session="s1", agent=None)
    assert parse_layout_op({"kind": "undo"}) == UndoOp()
    assert parse_layout_op({"kind": "redo"}) == RedoOp()


def test_dataclass_ops_pass_through() -> None:
    op = CloseOp(node_id="n")
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


def test_bad_op_message_names_the_field() -> None:
    with pytest.raises(AppError) as err:
        parse_layout_op({"kind": "explode", "nodeId": "n"})
    assert err.value.message.startswith("op.kind: input should be one of 'split'")
    with pytest.raises(AppError) as err:
        parse_layout_op({"kind": "resize", "nodeId": "n", "weights": [1, "a"]})
    assert err.value.message == "op.weights[1]: input should be a valid number"
