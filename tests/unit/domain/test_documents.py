"""`documents`: parse errors name the file and the field path; dump is IdeA's canonical text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.core.domain.agents import AgentManifest
from app.core.domain.documents import dump_document, field_path, parse_document
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import Leaf
from app.core.domain.profiles import Profile
from app.core.domain.project import Settings
from app.core.errors import AppError
from tests.unit import samples

AGENTS = "/p/.ideai/agents.json"
LAYOUTS = "/p/.ideai/layouts.json"


def _corrupt(text: str, model: Any, file: str) -> AppError:
    with pytest.raises(AppError) as err:
        parse_document(text, model, file)
    assert err.value.code == "CORRUPT_FILE" and err.value.details["file"] == file
    return err.value


def _agents(*entries: dict[str, Any]) -> str:
    return json.dumps({"version": 1, "agents": list(entries)})


def test_missing_md_path_in_third_agent_names_the_field() -> None:
    ok = {"agentId": "a", "name": "A", "mdPath": "agents/a.md"}
    err = _corrupt(_agents(ok, {**ok, "agentId": "b"}, {"agentId": "c", "name": "C"}),
                   AgentManifest, AGENTS)
    assert err.message == f"{AGENTS}: agents[2].mdPath: field required"
    assert err.details == {"file": AGENTS, "field": "agents[2].mdPath"}


@pytest.mark.parametrize("entry, message", [
    ({"agentId": "a", "name": 5, "mdPath": "m"}, "agents[0].name: input should be a valid string"),
    ({"agentId": "a", "name": "A", "mdPath": "m", "synchronized": "yes"},
     "agents[0].synchronized: input should be a valid boolean"),
    ({"agentId": "a", "name": "A", "mdPath": "m", "skills": "tdd"},
     "agents[0].skills: input should be an array"),
    ("not an object", "agents[0]: input should be an object"),
])
def test_wrong_types_name_the_field(entry: Any, message: str) -> None:
    err = _corrupt(json.dumps({"agents": [entry]}), AgentManifest, AGENTS)
    assert err.message == f"{AGENTS}: {message}"


def test_bad_json_names_line_and_column() -> None:
    err = _corrupt('{\n  "version": 1,\n  "agents": [,\n}', AgentManifest, AGENTS)
    assert err.message.startswith(f"{AGENTS}: invalid JSON at line 3, column 14: ")
    assert err.details == {"file": AGENTS, "field": None, "line": 3, "column": 14}


def test_a_document_that_is_not_an_object() -> None:
    err = _corrupt("[1, 2]", Settings, "/d/settings.json")
    assert err.message == "/d/settings.json: input should be an object"
    assert err.details["field"] == ""


def _layouts(mutate: Any) -> str:
    raw = json.loads(samples.LAYOUTS_JSON)
    mutate(raw)
    return json.dumps(raw)


def _root(raw: dict[str, Any]) -> dict[str, Any]:
    root: dict[str, Any] = raw["layouts"][0]["tree"]["root"]
    return root


def _grid(raw: dict[str, Any]) -> dict[str, Any]:
    grid: dict[str, Any] = raw["layouts"][1]["tree"]["root"]["node"]
    return grid


@pytest.mark.parametrize("mutate, message", [
    (lambda d: _root(d)["node"]["children"][1]["node"]["node"].pop("id"),
     "layouts[0].tree.root.node.children[1].node.node.id: field required"),
    (lambda d: _root(d)["node"]["children"][1]["node"]["node"]["children"][0]["node"]
     .update(type="blob"),
     "layouts[0].tree.root.node.children[1].node.node.children[0].node.type: "
     "input should be one of 'leaf', 'split', 'grid', not 'blob'"),
    (lambda d: _root(d).pop("type"), "layouts[0].tree.root.type: field required"),
    (lambda d: _grid(d)["cells"][2].pop("row"),
     "layouts[1].tree.root.node.cells[2].row: field required"),
    (lambda d: _grid(d)["cells"][0].update(rowSpan="2"),
     "layouts[1].tree.root.node.cells[0].rowSpan: input should be a valid integer"),
    (lambda d: _grid(d).update(colWeights=[1.0, True]),
     "layouts[1].tree.root.node.colWeights[1]: input should be a valid number"),
    (lambda d: _root(d)["node"].update(direction="diagonal"),
     "layouts[0].tree.root.node.direction: input should be 'row' or 'column'"),
    (lambda d: _root(d)["node"]["children"][0].update(weight="1"),
     "layouts[0].tree.root.node.children[0].weight: input should be a valid number"),
    (lambda d: d.update(layouts=[]), "layouts: at least one layout is required"),
    (lambda d: d.pop("layouts"), "layouts: field required"),
])
def test_layout_errors_name_the_on_disk_path(mutate: Any, message: str) -> None:
    err = _corrupt(_layouts(mutate), LayoutDoc, LAYOUTS)
    assert err.message == f"{LAYOUTS}: {message}"


def test_from_json_raises_invalid_with_the_field_path() -> None:
    with pytest.raises(AppError) as err:
        Profile.from_json({"id": "p", "contextInjection": {"strategy": "fax"}}, "profiles[3]")
    assert err.value.code == "INVALID"
    assert err.value.message.startswith("profiles[3].contextInjection.strategy: input should be")
    assert err.value.details == {"field": "profiles[3].contextInjection.strategy"}


def test_field_path_drops_union_tags_but_keeps_a_missing_last_key() -> None:
    value = {"root": {"type": "split", "node": {"children": [{"weight": 1}]}}}
    loc = ("root", "split", "node", "children", 0, "node")
    assert field_path(loc, value) == "root.node.children[0].node"
    assert field_path(("agents", 2, "mdPath"), {"agents": [{}, {}, {}]}) == "agents[2].mdPath"
    assert field_path((), {}) == ""


def test_dump_is_indented_utf8_with_a_trailing_newline() -> None:
    text = dump_document(Settings.from_json({"version": 1, "firstRunDone": True, "nom": "été"}))
    assert text == '{\n  "version": 1,\n  "firstRunDone": true,\n  "nom": "été"\n}\n'


def test_model_copy_refuses_a_key_that_names_no_field() -> None:
    with pytest.raises(TypeError):
        Leaf(id="a").model_copy(update={"agentWasRunning": True})
    assert Leaf(id="a").model_copy(update={"agent_was_running": True}).agent_was_running
