"""Codex `exec --json` lines as turn events (digest §7 cases 46–48), the real 0.171.0's offline
retries (research C.4), and a turn's command line."""

from typing import Any

from app.adapters.sessions.codex_events import CodexExecParser
from app.adapters.sessions.codex_exec import codex_argv
from app.core.domain.agent_session import Final, Heartbeat, TextDelta, ToolActivity, TurnEvent


def feed_all(lines: list[dict[str, Any]], resume: str | None = None
             ) -> tuple[list[TurnEvent], CodexExecParser]:
    parser = CodexExecParser(resume)
    events: list[TurnEvent] = []
    for line in lines:
        events += parser.feed(line)
    return events, parser


def completed(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "item.completed", "item": item}


def test_the_thread_id_is_the_conversation_and_the_last_message_the_final() -> None:
    events, parser = feed_all([
        {"type": "thread.started", "thread_id": "cx-new"}, {"type": "turn.started"},
        completed({"id": "i0", "type": "agent_message", "text": "looking"}),
        completed({"id": "i1", "type": "reasoning", "text": "…"}),
        completed({"id": "i2", "type": "agent_message", "text": "fin"}),
        {"type": "turn.completed", "usage": {}}])
    assert parser.engine_session_id == "cx-new"
    assert events == [Heartbeat(), Heartbeat(), TextDelta("looking"), Heartbeat(),
                      TextDelta("fin"), Final("fin", "cx-new")]
    assert len([e for e in events if isinstance(e, Final)]) == 1


def test_tools_are_announced_once() -> None:
    command = {"id": "i0", "type": "command_execution", "command": "bash -lc ls",
               "aggregated_output": "", "exit_code": None, "status": "in_progress"}
    events, _ = feed_all([
        {"type": "item.started", "item": command},
        {"type": "item.updated", "item": command},
        completed(command | {"status": "completed", "exit_code": 0}),
        completed({"id": "i1", "type": "file_change", "status": "completed",
                   "changes": [{"path": "a.py", "kind": "update"},
                               {"path": "b.py", "kind": "add"}]}),
        {"type": "item.started", "item": {"id": "i2", "type": "mcp_tool_call", "server": "idea",
                                          "tool": "idea_ask_agent", "status": "in_progress"}},
        {"type": "item.started", "item": {"id": "i3", "type": "web_search", "query": "acp"}}])
    assert events == [ToolActivity("command", "bash -lc ls"), Heartbeat(), Heartbeat(),
                      ToolActivity("file change", "a.py, b.py"),
                      ToolActivity("idea/idea_ask_agent"), ToolActivity("web search", "acp")]


def test_offline_retries_are_remembered_not_fatal() -> None:
    events, parser = feed_all([
        {"type": "thread.started", "thread_id": "01a23147-3988-7f83-9f22-5adcd81b7351"},
        {"type": "turn.started"},
        {"type": "error", "message": "Reconnecting... 2/5 (stream disconnected before "
                                     "completion: failed to lookup address information: Name "
                                     "does not resolve)"},
        completed({"id": "item_0", "type": "error", "message": "Falling back from WebSockets "
                                                               "to HTTPS transport."}),
        {"type": "error", "message": "Reconnecting... waiting for network (Connection failed: "
                                     "error sending request)"}])
    assert events == [Heartbeat()] * 5
    assert parser.last_error == ("Reconnecting... waiting for network (Connection failed: "
                                 "error sending request)")


def test_a_failed_turn_is_an_error_final() -> None:
    events, _ = feed_all([{"type": "thread.started", "thread_id": "t"},
                          {"type": "turn.failed", "error": {"message": "unauthorized"}}])
    assert events[-1] == Final("", "t", is_error=True, error_message="unauthorized")
    events, _ = feed_all([{"type": "error", "message": "quota exceeded"},
                          {"type": "turn.failed", "error": {}}])
    assert events[-1] == Final("", None, is_error=True, error_message="quota exceeded")


def test_the_resumed_thread_stands() -> None:
    _, parser = feed_all([{"type": "turn.started"}], resume="cx-id")
    assert parser.engine_session_id == "cx-id"


def test_the_command_line() -> None:
    assert codex_argv(("codex", "-c", "x=1"), "-go", None) == [
        "codex", "-c", "x=1", "exec", "--json", "--skip-git-repo-check", "--", "-go"]
    assert codex_argv(("codex",), "go", "cx-id")[-5:] == ["--skip-git-repo-check", "resume",
                                                         "cx-id", "--", "go"]
