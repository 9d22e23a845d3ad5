import pytest

from app.core.domain.layout import LayoutDoc, default_layout_doc
from app.core.domain.layout_nodes import leaves
from app.core.domain.layout_rules import validate_doc
from app.core.domain.named_layouts import (
    create_layout,
    delete_layout,
    duplicate_layout,
    rename_layout,
    switch_layout,
    without_session_elsewhere,
)
from app.core.errors import AppError
from tests.unit.fakes import SequentialIds
from tests.unit.trees import child, leaf, split


def _doc(ids: SequentialIds) -> LayoutDoc:
    doc = default_layout_doc(ids.new_id)
    return doc.with_active_root(split("s", "row", (child(leaf("a", "s1", "agent-1", True)),
                                                   child(leaf("b"), 2.0))))


def test_create_switch_rename_delete() -> None:
    ids = SequentialIds()
    doc = _doc(ids)
    first = doc.active_id
    doc = create_layout(doc, "  Review   time ", ids.new_id)
    validate_doc(doc)
    assert [lay.name for lay in doc.layouts] == ["Default", "Review time"]
    assert doc.active.name == "Review time" and len(leaves(doc.active.root)) == 1
    doc = switch_layout(doc, first)
    assert doc.active_id == first
    doc = rename_layout(doc, first, "Main")
    assert doc.active.name == "Main"
    doc = delete_layout(doc, first)
    assert [lay.name for lay in doc.layouts] == ["Review time"]
    assert doc.active.name == "Review time"


def test_names_are_checked() -> None:
    ids = SequentialIds()
    doc = create_layout(_doc(ids), "Review", ids.new_id)
    for bad, words in (("", "needs a name"), ("review", "already exists"), ("x" * 61, "at most")):
        with pytest.raises(AppError) as err:
            create_layout(doc, bad, ids.new_id)
        assert err.value.code == "INVALID" and words in err.value.message
        # named as the dialog does, not by its path in the op (a trial read "op.name: …")
        assert err.value.message.startswith("Layout name: ")
        assert err.value.details == {"field": "op.name", "label": "Layout name"}
    assert rename_layout(doc, doc.active_id, "REVIEW").active.name == "REVIEW"


def test_duplicate_copies_the_structure_with_empty_cells_and_new_ids() -> None:
    ids = SequentialIds()
    doc = _doc(ids)
    first = doc.active
    doc = duplicate_layout(doc, first.id, ids.new_id)
    validate_doc(doc)
    copy = doc.active
    assert copy.name == "Default copy" and copy.id != first.id
    assert [lf.session for lf in leaves(copy.root)] == [None, None]
    assert not {n.id for n in leaves(copy.root)} & {n.id for n in leaves(first.root)}
    again = duplicate_layout(doc, first.id, ids.new_id)
    assert [lay.name for lay in again.layouts] == ["Default", "Default copy 2", "Default copy"]


def test_the_last_layout_cannot_be_deleted_and_unknown_ids_are_not_found() -> None:
    doc = _doc(SequentialIds())
    with pytest.raises(AppError) as err:
        delete_layout(doc, doc.active_id)
    assert err.value.code == "INVALID"
    for change in (lambda: switch_layout(doc, "zz"), lambda: rename_layout(doc, "zz", "x")):
        with pytest.raises(AppError) as err:
            change()
        assert err.value.code == "NOT_FOUND" and err.value.details == {"layoutId": "zz"}


def test_deleting_the_active_layout_activates_its_neighbour() -> None:
    ids = SequentialIds()
    doc = create_layout(create_layout(_doc(ids), "Two", ids.new_id), "Three", ids.new_id)
    two = doc.layouts[1].id
    doc = delete_layout(switch_layout(doc, two), two)
    assert doc.active.name == "Default"
    doc = delete_layout(switch_layout(doc, doc.layouts[0].id), doc.layouts[0].id)
    assert doc.active.name == "Three"


def test_a_session_shown_in_the_active_layout_leaves_the_others() -> None:
    ids = SequentialIds()
    doc = create_layout(_doc(ids), "Two", ids.new_id)
    shown = doc.with_active_root(leaf(leaves(doc.active.root)[0].id, "s1", "agent-1", True))
    with pytest.raises(AppError):
        validate_doc(shown)
    moved = without_session_elsewhere(shown, "s1")
    validate_doc(moved)
    assert [lf.session for lf in leaves(moved.layouts[0].root)] == [None, None]
    assert leaves(moved.active.root)[0].session == "s1"
