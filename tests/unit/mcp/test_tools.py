"""The MCP tools as data (docs/contracts.md §7.5): names, schemas, the command each call runs,
the text it returns."""

from __future__ import annotations

import json

import pytest

from app.core.errors import INVALID, NOT_FOUND, AppError
from app.mcp.tools import INSTRUCTIONS, TOOLS, TOOLS_BY_NAME, error_text, input_schema, render, to_command


def test_the_tools_of_the_contract_each_run_one_command() -> None:
    assert {t.name: t.command for t in TOOLS} == {
        "idea_list_agents": "agent.list", "idea_ask_agent": "agent.ask",
        "idea_message_agent": "agent.message", "idea_reply": "agent.reply",
        "idea_launch_agent": "agent.run", "idea_stop_agent": "agent.stop"}
    assert [t.name for t in TOOLS if t.waits] == ["idea_ask_agent", "idea_reply"]  # ESCALATE


def test_schemas_are_objects_of_strings_with_their_required_fields() -> None:
    assert input_schema(TOOLS_BY_NAME["idea_list_agents"]) == {
        "type": "object", "properties": {}, "required": [], "additionalProperties": False}
    ask = input_schema(TOOLS_BY_NAME["idea_ask_agent"])
    assert ask["required"] == ["target", "task"]
    assert ask["properties"]["task"]["type"] == "string"
    reply = input_schema(TOOLS_BY_NAME["idea_reply"])
    assert reply["required"] == []  # which fields a signal needs is the orchestrator's rule
    assert reply["properties"]["ticket"]["type"] == ["string", "null"]
    assert reply["properties"]["options"] == {
        "type": ["array", "null"], "items": {"type": "string"},
        "description": "ESCALATE: the choices offered to the user."}
    assert reply["properties"]["signal"]["enum"] == [
        "RETURN", "ERROR", "BLOCKED_ON", "CHECKPOINT", "ESCALATE", None]
    assert ask["properties"]["zone"]["enum"] == ["kernel", "project", "personal", None]


def test_descriptions_tell_the_model_how_delegation_works() -> None:
    ask = TOOLS_BY_NAME["idea_ask_agent"].description
    assert "blocks" in ask and "returns the reply" in ask and "idea_reply" in ask
    reply = TOOLS_BY_NAME["idea_reply"].description
    assert "[IdeA · task from <agent> · ticket <T>]" in reply and "ticket" in reply
    assert "idea_reply" in INSTRUCTIONS and "[IdeA · task from" in INSTRUCTIONS
    assert all(len(t.description) > 80 for t in TOOLS)


def test_a_call_becomes_its_command() -> None:
    ask = TOOLS_BY_NAME["idea_ask_agent"]
    assert to_command(ask, {"target": "Bob", "task": "review"}) == {
        "type": "agent.ask", "target": "Bob", "task": "review"}
    reply = TOOLS_BY_NAME["idea_reply"]
    assert to_command(reply, {"result": "done"}) == {"type": "agent.reply", "result": "done"}
    assert to_command(reply, {"result": "done", "ticket": None}) == {
        "type": "agent.reply", "result": "done"}
    assert to_command(reply, {"result": "", "ticket": "t1"}) == {
        "type": "agent.reply", "result": "", "ticket": "t1"}
    assert to_command(TOOLS_BY_NAME["idea_list_agents"], None) == {"type": "agent.list"}
    assert to_command(reply, {"signal": "ESCALATE", "options": ["a", "b"]}) == {
        "type": "agent.reply", "signal": "ESCALATE", "options": ["a", "b"]}
    assert to_command(ask, {"target": "B", "task": "t", "files": ["x.py"], "zone": "project"}) \
        == {"type": "agent.ask", "target": "B", "task": "t", "files": ["x.py"],
            "zone": "project"}


@pytest.mark.parametrize(("tool", "args", "says"), [
    ("idea_ask_agent", {"target": "Bob"}, "missing argument 'task'"),
    ("idea_ask_agent", {"target": "Bob", "task": 3}, "'task' must be a string"),
    ("idea_ask_agent", {"target": "Bob", "task": "x", "type": "agent.stop"},
     "unknown argument 'type'"),
    ("idea_list_agents", {"x": 1}, "it takes no arguments"),
    ("idea_reply", {"options": "a"}, "'options' must be a list of strings"),
    ("idea_reply", {"signal": "SHOUT"}, "'signal' must be one of RETURN, ERROR"),
])
def test_bad_arguments_are_invalid(tool: str, args: dict[str, object], says: str) -> None:
    with pytest.raises(AppError) as caught:
        to_command(TOOLS_BY_NAME[tool], args)
    assert caught.value.code == INVALID and says in caught.value.message


def test_results_are_short_text() -> None:
    assert render(TOOLS_BY_NAME["idea_ask_agent"], {"ticket": "t1", "reply": "LGTM"}) == "LGTM"
    listed = {"agents": [{"agentId": "a1", "name": "Bob", "running": True}]}
    text = render(TOOLS_BY_NAME["idea_list_agents"], listed)
    assert json.loads(text) == listed and " " not in text
    assert render(TOOLS_BY_NAME["idea_message_agent"], {"ticket": "t2", "position": 0}) == \
        '{"ticket":"t2","position":0}'
    assert error_text(AppError(NOT_FOUND, "no agent 'Zed'")) == "NOT_FOUND: no agent 'Zed'"
