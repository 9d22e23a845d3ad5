import json

import pytest

from app.core.domain.documents import dump_document
from app.core.domain.layout import LayoutDoc, default_layout_doc
from app.core.domain.layout_nodes import Grid, Leaf, Split, find_leaf, leaves
from app.core.errors import AppError
from tests.unit import samples
from tests.unit.fakes import SequentialIds


def test_original_layouts_round_trip_with_unknown_keys() -> None:
    raw = json.loads(samples.LAYOUTS_JSON)
    doc = LayoutDoc.from_json(raw)
    assert doc.to_json() == raw
    assert json.loads(dump_document(doc)) == raw


def test_weights_are_written_back_as_floats() -> None:
    text = dump_document(LayoutDoc.from_json(json.loads(samples.LAYOUTS_JSON)))
    assert '"weight": 1.0' in text and '"weight": 2.5' in text
    grid = LayoutDoc.from_json(json.loads(text)).to_json()["layouts"][1]["tree"]["root"]["node"]
    assert all(isinstance(w, float) for w in grid["colWeights"] + grid["rowWeights"])


def test_integer_weights_load_as_floats() -> None:
    raw = json.loads(samples.LAYOUTS_JSON)
    raw["layouts"][0]["tree"]["root"]["node"]["children"][0]["weight"] = 1
    out = LayoutDoc.from_json(raw).to_json()
    weight = out["layouts"][0]["tree"]["root"]["node"]["children"][0]["weight"]
    assert isinstance(weight, float)


def test_decoded_tree_shape() -> None:
    doc = LayoutDoc.from_json(json.loads(samples.LAYOUTS_JSON))
    root = doc.active.root
    assert isinstance(root, Split) and root.direction == "row"
    leaf = find_leaf(root, samples.MAIN_LEAF)
    assert leaf is not None and leaf.agent == samples.MAIN_ID and leaf.agent_was_running
    assert leaf.extra == {"conversationId": "conv-1"}
    grid = doc.layouts[1].root
    assert isinstance(grid, Grid) and grid.cells[0].row_span == 2
    assert [lf.id for lf in leaves(grid)] == ["c1", "c2", "c3"]


def test_optional_leaf_keys_are_omitted() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    leaf = doc.to_json()["layouts"][0]["tree"]["root"]
    assert leaf == {"type": "leaf", "node": {"id": "id-2"}}


def test_default_doc() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    assert doc.version == 1 and doc.active_id == "id-1"
    assert doc.active.name == "Default" and doc.active.kind == "terminal"
    assert doc.active.root == Leaf(id="id-2")


def test_unknown_active_id_falls_back_to_first() -> None:
    raw = json.loads(samples.LAYOUTS_JSON)
    raw["activeId"] = "gone"
    assert LayoutDoc.from_json(raw).active_id == raw["layouts"][0]["id"]


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("layouts"),
    lambda d: d.update(layouts=[]),
    lambda d: d["layouts"][0]["tree"]["root"].update(type="blob"),
    lambda d: d["layouts"][0]["tree"]["root"]["node"].update(direction="diagonal"),
    lambda d: d["layouts"][0]["tree"]["root"]["node"]["children"][0].update(weight="1"),
    lambda d: d["layouts"][0]["tree"]["root"]["node"].pop("id"),
])
def test_wrong_shapes_raise_invalid(mutate) -> None:  # type: ignore[no-untyped-def]
    raw = json.loads(samples.LAYOUTS_JSON)
    mutate(raw)
    with pytest.raises(AppError) as err:
        LayoutDoc.from_json(raw)
    assert err.value.code == "INVALID"
