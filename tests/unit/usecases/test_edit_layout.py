import json

import pytest

from app.core.domain.layout_edit import CloseOp
from app.core.domain.layout_nodes import Split, leaves
from app.core.errors import AppError
from app.core.events import LayoutChanged
from app.core.usecases.edit_layout import EditLayout
from tests.unit.fakes import FakeEventSink
from tests.unit.trees import leaf
from tests.unit.usecases.builders import ROOT, created_project, original_project

LAYOUTS = f"{ROOT}/.ideai/layouts.json"


def test_split_persists_and_returns_doc() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    doc = EditLayout(fs, ids, FakeEventSink()).execute(state, {"kind": "split", "nodeId": leaf_id,
                                              "direction": "row"})
    assert isinstance(doc.active.root, Split) and state.layouts == doc
    assert json.loads(fs.files[LAYOUTS]) == doc.to_json()


def test_undo_redo_round_trip() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    start = state.layouts
    edit = EditLayout(fs, ids, FakeEventSink())
    after = edit.execute(state, {"kind": "split", "nodeId": start.active.root.id,
                                 "direction": "column"})
    assert edit.execute(state, {"kind": "undo"}) == start
    assert json.loads(fs.files[LAYOUTS]) == start.to_json()
    assert edit.execute(state, {"kind": "redo"}) == after
    writes = len(fs.writes)
    edit.execute(state, {"kind": "redo"})
    assert len(fs.writes) == writes


def test_edit_of_original_layout_keeps_unknown_keys() -> None:
    fs, ids, state = original_project()
    EditLayout(fs, ids, FakeEventSink()).execute(
        state, CloseOp(node_id="b9251e74-3bd5-43ee-90e5-e6bb87faab38"))
    saved = json.loads(fs.files[LAYOUTS])
    assert saved["docFuture"] == {"a": [1, 2]}
    assert saved["layouts"][0]["tree"]["treeFuture"] == "x"
    root = saved["layouts"][0]["tree"]["root"]
    assert root["wrapperFuture"] == 1 and root["node"]["children"][0]["childFuture"] == "c"
    assert root["node"]["children"][1]["node"]["type"] == "leaf"


def test_invalid_op_changes_nothing() -> None:
    fs, ids, state = created_project()
    before, writes = state.layouts, list(fs.writes)
    with pytest.raises(AppError) as err:
        EditLayout(fs, ids, FakeEventSink()).execute(state, {"kind": "resize", "nodeId": "x", "weights": [1]})
    assert err.value.code == "NOT_FOUND" and state.layouts == before and fs.writes == writes


def test_corrupt_layouts_edit_a_fresh_layout_in_memory_and_the_file_stays_untouched() -> None:
    fs, ids, state = original_project(layouts_json="{nope")
    assert state.layouts_broken and state.layouts is not None
    leaf_id = state.layouts.active.root.id
    doc = EditLayout(fs, ids, FakeEventSink()).execute(
        state, {"kind": "split", "nodeId": leaf_id, "direction": "row"})
    assert len(leaves(doc.active.root)) == 2 and state.layouts == doc
    assert fs.files[LAYOUTS] == "{nope"


def test_assign_is_not_an_undo_step() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    leaf_id = state.layouts.active.root.id
    edit = EditLayout(fs, ids, FakeEventSink())
    edit.execute(state, {"kind": "assign", "nodeId": leaf_id, "session": "s1"})
    assert not state.history.can_undo(state.layouts.active_id)
    assert leaves(edit.execute(state, {"kind": "undo"}).active.root) == [leaf(leaf_id, "s1")]


def test_an_edit_publishes_layout_changed_and_a_noop_undo_does_not() -> None:
    fs, ids, state = created_project()
    assert state.layouts is not None
    events = FakeEventSink()
    edit = EditLayout(fs, ids, events)
    assert edit.execute(state, {"kind": "undo"}) is state.layouts and events.events == []
    doc = edit.execute(state, {"kind": "split", "nodeId": state.layouts.active.root.id,
                               "direction": "row"})
    assert events.events == [LayoutChanged(ROOT, doc)]
