"""The values of a structured turn, IdeA's MCP server for ACP, the deny rule, and the fake
`AgentSessions` keeping the port's promise (one Final, last)."""

import pytest

from app.core.domain.agent_session import (
    Final,
    Heartbeat,
    PermissionOption,
    PermissionRequest,
    StructuredSpec,
    TextDelta,
    TurnEvent,
    deny_option,
    idea_mcp_server,
)
from app.core.domain.launch_plan import Delegation
from app.core.errors import SESSION_ERROR, AppError
from app.core.ports import AgentSessions
from tests.unit.fakes import FakeAgentSessions, ScriptedTurn

ALLOW = PermissionOption("a", "Allow", "allow_once")
ALWAYS = PermissionOption("aa", "Always", "allow_always")
REJECT = PermissionOption("r", "Reject", "reject_once")
NEVER = PermissionOption("rr", "Never", "reject_always")


def test_the_relay_keeps_the_token_out_of_its_arguments() -> None:
    server = idea_mcp_server(Delegation(endpoint="/run/p.sock", agent_id="a1", token="secret",
                                        idea_command=("/usr/bin/python3", "-m", "app"),
                                        run_dir="/p/.ideai/run/a1"))
    assert server.name == "idea" and server.command == "/usr/bin/python3"
    assert server.args == ("-m", "app", "mcp-server", "--endpoint", "/run/p.sock",
                           "--requester", "a1")
    assert dict(server.env) == {"IDEA_TOKEN": "secret"}


def test_deny_prefers_reject_once_then_reject_always() -> None:
    assert deny_option((ALLOW, NEVER, REJECT)) == REJECT
    assert deny_option((ALLOW, NEVER)) == NEVER
    assert deny_option((ALLOW, ALWAYS)) is None


def test_events_are_values() -> None:
    assert TextDelta("a") == TextDelta("a") != TextDelta("b")
    assert Heartbeat() == Heartbeat()
    assert Final("x", "s") == Final("x", "s", is_error=False, error_message=None)
    assert StructuredSpec(command=("c",), cwd="/").turn_timeout_s == 300


def test_the_fake_plays_its_turns_with_one_final_last() -> None:
    sessions: AgentSessions = FakeAgentSessions([
        ScriptedTurn([TextDelta("hi"), PermissionRequest("p1", "rm", (REJECT,)),
                      Final("hi", "s1")], engine_session_id="s1"),
        ScriptedTurn(error=AppError(SESSION_ERROR, "Not logged in"))])
    session = sessions.start(StructuredSpec(command=("claude",), cwd="/"))
    seen: list[TurnEvent] = []

    def answer(event: TurnEvent) -> None:
        seen.append(event)
        if isinstance(event, PermissionRequest):
            session.respond_permission(event.request_id, None)

    assert session.prompt("one", answer) == Final("hi", "s1")
    assert session.engine_session_id == "s1"
    assert [type(e).__name__ for e in seen] == ["TextDelta", "PermissionRequest", "Final"]
    seen.clear()
    with pytest.raises(AppError) as failure:
        session.prompt("two", seen.append)
    assert failure.value.code == SESSION_ERROR
    assert seen == [Final("", "s1", is_error=True, error_message="Not logged in")]
