from app.core.domain import layout_ops as ops
from app.core.domain.layout import LayoutDoc, default_layout_doc
from app.core.domain.layout_history import LayoutHistory, restore_tree
from app.core.domain.layout_nodes import find_leaf
from app.core.domain.named_layouts import create_layout, switch_layout
from tests.unit.fakes import SequentialIds
from tests.unit.trees import child, leaf, split


def _edit(doc: LayoutDoc, history: LayoutHistory,
          ids: SequentialIds) -> tuple[LayoutHistory, LayoutDoc]:
    root = ops.split(doc.active.root, ops.leaves(doc.active.root)[0].id, "row", ids.new_id)
    return history.record(doc.active_id, doc.active.root), doc.with_active_root(root)


def test_undo_then_redo_restores_docs() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    history, back = history.undo(doc1, set())
    assert back == doc0 and history.can_redo(doc0.active_id)
    assert not history.can_undo(doc0.active_id)
    history, again = history.redo(back, set())
    assert again == doc1


def test_nothing_to_undo_returns_present() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    history, same = LayoutHistory().undo(doc, set())
    assert same is doc and history == LayoutHistory()
    assert LayoutHistory().redo(doc, set())[1] is doc


def test_new_edit_clears_redo() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    history, _ = history.undo(doc1, set())
    assert not history.record(doc0.active_id, doc0.active.root).can_redo(doc0.active_id)


def test_history_is_bounded_to_100() -> None:
    ids = SequentialIds()
    doc = default_layout_doc(ids.new_id)
    history = LayoutHistory()
    for _ in range(150):
        history = history.record(doc.active_id, doc.active.root)
    assert len(history.stacks[doc.active_id].past) == 100


def test_undo_keeps_present_cell_contents() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    leaf_id = doc0.active.root.id
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    shown = doc1.with_active_root(ops.assign(doc1.active.root, leaf_id, "s9"))
    _, back = history.undo(shown, {"s9"})
    assert back.active.root == leaf(leaf_id, session="s9")


def test_a_closed_cell_comes_back_with_its_session_while_it_runs() -> None:
    before = split("s", "row", (child(leaf("a")), child(leaf("b", "s1", "agent-1", True))))
    doc = default_layout_doc(SequentialIds().new_id).with_active_root(before)
    history = LayoutHistory().record(doc.active_id, before)
    closed = doc.with_active_root(ops.close(before, "b"))
    _, back = history.undo(closed, {"s1"})
    assert find_leaf(back.active.root, "b") == leaf("b", "s1", "agent-1", True)
    _, dead = history.undo(closed, set())
    assert find_leaf(dead.active.root, "b") == leaf("b")


def test_redo_of_a_split_that_was_undone_keeps_the_new_cell_content() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    new_leaf = ops.leaves(doc1.active.root)[1].id
    doc1 = doc1.with_active_root(ops.assign(doc1.active.root, new_leaf, "s2"))
    history, back = history.undo(doc1, {"s2"})
    _, again = history.redo(back, {"s2"})
    assert find_leaf(again.active.root, new_leaf) == leaf(new_leaf, "s2")


def test_a_session_shown_elsewhere_is_not_shown_twice() -> None:
    before = split("s", "row", (child(leaf("a")), child(leaf("b", "s1"))))
    tree = restore_tree(before, default_layout_doc(SequentialIds().new_id)
                        .with_active_root(leaf("a", "s1")), "id-1", {"s1"})
    assert tree == split("s", "row", (child(leaf("a", "s1")), child(leaf("b"))))


def test_each_layout_has_its_own_undo() -> None:
    ids = SequentialIds()
    doc0 = default_layout_doc(ids.new_id)
    history, doc1 = _edit(doc0, LayoutHistory(), ids)
    other = create_layout(doc1, "Review", ids.new_id)
    history, same = history.undo(other, set())
    assert same is other  # the new layout has nothing to undo
    history, back = history.undo(switch_layout(other, doc0.active_id), set())
    assert back.active.root == doc0.active.root
    assert [lay.name for lay in back.layouts] == ["Default", "Review"]
    assert not history.can_undo(doc0.active_id) and history.can_redo(doc0.active_id)
    assert history.forget(doc0.active_id).stacks == {}
