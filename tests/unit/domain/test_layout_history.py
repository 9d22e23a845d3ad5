from app.core.domain import layout_ops as ops
from app.core.domain.layout import LayoutDoc, default_layout_doc
from app.core.domain.layout_history import LayoutHistory
from app.core.domain.layout_nodes import find_leaf
from tests.unit.fakes import SequentialIds
from tests.unit.trees import leaf


def _edit(doc: LayoutDoc, history: LayoutHistory,
          ids: SequentialIds) -> tuple[LayoutHistory, LayoutDoc]:
    root = ops.split(doc.active.root, ops.leaves(doc.active.root)[0].id, "row", ids.new_id)
    return history.record(doc), doc.with_active_root(root)


def test_undo_then_redo_restores_docs() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    history, back = history.undo(doc1)
    assert back == doc0 and history.can_redo and not history.can_undo
    history, again = history.redo(back)
    assert again == doc1


def test_nothing_to_undo_returns_present() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    history, same = LayoutHistory().undo(doc)
    assert same is doc and history == LayoutHistory()
    assert LayoutHistory().redo(doc)[1] is doc


def test_new_edit_clears_redo() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    history, _ = history.undo(doc1)
    assert not history.record(doc0).can_redo


def test_history_is_bounded_to_100() -> None:
    ids = SequentialIds()
    doc = default_layout_doc(ids.new_id)
    history = LayoutHistory()
    for _ in range(150):
        history = history.record(doc)
    assert len(history.past) == 100


def test_undo_keeps_present_cell_contents() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    leaf_id = doc0.active.root.id
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    shown = doc1.with_active_root(ops.assign(doc1.active.root, leaf_id, "s9"))
    _, back = history.undo(shown)
    assert back.active.root == leaf(leaf_id, session="s9")


def test_undo_empties_leaves_that_come_back() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    leaf_id = doc0.active.root.id
    with_session = doc0.with_active_root(ops.assign(doc0.active.root, leaf_id, "old"))
    history = LayoutHistory().record(with_session)
    closed = with_session.with_active_root(leaf("other"))
    _, back = history.undo(closed)
    assert find_leaf(back.active.root, leaf_id) == leaf(leaf_id)
