"""The files of a project written by the original IdeA (tests/fixtures/original-project) survive
a read + rewrite unchanged: same keys, same values, same key order at every level.

The fixture text is test data read once here; the code under test does no I/O.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from app.core.domain.agents import AgentManifest
from app.core.domain.documents import Document, dump_document, parse_document
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Leaf, Split
from app.core.domain.permissions import PermissionsDoc

ORIGINAL = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "original-project" / ".ideai"


def _text(name: str) -> str:
    return (ORIGINAL / name).read_text(encoding="utf-8")


def ordered(value: Any) -> Any:
    """`value` with every object turned into its list of `(key, value)` pairs, so that `==`
    also compares key order."""
    if isinstance(value, dict):
        return [(key, ordered(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [ordered(item) for item in value]
    return value


@pytest.mark.parametrize("name, model", [
    ("agents.json", AgentManifest),
    ("layouts.json", LayoutDoc),
    ("permissions.json", PermissionsDoc),
])
def test_original_file_round_trips_with_key_order(name: str, model: type[Document]) -> None:
    original = _text(name)
    rewritten = dump_document(parse_document(original, model, name))
    assert ordered(json.loads(rewritten)) == ordered(json.loads(original))


def test_layouts_json_round_trips_byte_identical() -> None:
    original = _text("layouts.json")
    assert dump_document(parse_document(original, LayoutDoc, "layouts.json")) == original


def test_unknown_keys_of_the_original_manifest_are_kept_last() -> None:
    manifest = parse_document(_text("agents.json"), AgentManifest, "agents.json")
    assert manifest.extra == {"lastEditedBy": "original-ideai"}
    git = manifest.agents[1]
    assert git.extra == {"futureField": {"keep": "me"}}
    assert list(git.to_json())[-1] == "futureField"
    assert list(manifest.to_json()) == ["version", "agents", "lastEditedBy"]


def test_original_layout_decodes_to_nodes() -> None:
    doc = parse_document(_text("layouts.json"), LayoutDoc, "layouts.json")
    root = doc.active.root
    assert isinstance(root, Split) and root.direction == "row"
    first = root.children[0].node
    assert isinstance(first, Leaf) and first.agent_was_running
    assert first.agent == "a6ced819-b893-4213-b003-9e9dc79b9641"
    inner = root.children[1].node
    assert isinstance(inner, Split)
    last = inner.children[1].node
    assert isinstance(last, Leaf) and last.agent is None and not last.agent_was_running


def test_original_permissions_decode() -> None:
    doc = parse_document(_text("permissions.json"), PermissionsDoc, "permissions.json")
    assert doc.version == 1 and doc.agents is None
    assert doc.project_defaults.fallback == "allow"
    assert [(r.capability, r.effect, r.paths) for r in doc.project_defaults.rules] == [
        ("read", "allow", ("**",)), ("write", "allow", ("**",)), ("delete", "allow", ("**",)),
        ("executeBash", "allow", ())]
