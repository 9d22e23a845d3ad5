"""Claude Code stream-json lines as turn events (digest §7 cases 24–25, 34–38, 40–42), the
real 2.1.332's offline turn (research B.6), and a turn's command line."""

from typing import Any

import pytest

from app.adapters.sessions.claude_events import AUTH_HINT, ClaudeStreamParser, parse_reset_ms
from app.adapters.sessions.claude_stream import claude_argv
from app.core.domain.agent_session import (
    Final,
    Heartbeat,
    RateLimited,
    TextDelta,
    ToolActivity,
    TurnEvent,
)

T = 1_700_000_000_000
INIT = {"type": "system", "subtype": "init", "session_id": "c", "cwd": "/tmp", "tools": []}


def feed_all(lines: list[dict[str, Any]], resume: str | None = None
             ) -> tuple[list[TurnEvent], ClaudeStreamParser]:
    parser = ClaudeStreamParser(resume)
    events: list[TurnEvent] = []
    for line in lines:
        events += parser.feed(line)
    return events, parser


def assistant(*blocks: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "assistant", "message": {"role": "assistant", "content": list(blocks)},
            "session_id": "rl-1", **extra}


def test_system_init_is_a_heartbeat_and_gives_the_session_id() -> None:
    events, parser = feed_all([INIT])
    assert events == [Heartbeat()] and parser.engine_session_id == "c"


@pytest.mark.parametrize("info", [{"x": 1}, None])
def test_a_rate_limit_without_a_usable_reset_is_rate_limited_none(info: object) -> None:
    line: dict[str, Any] = {"type": "rate_limit_event", "session_id": "conv-123"}
    if info is not None:
        line["rate_limit_info"] = info
    events, parser = feed_all([line])
    assert events == [RateLimited(None)] and parser.engine_session_id == "conv-123"


def test_a_rate_limit_with_its_reset_time() -> None:
    events, _ = feed_all([{"type": "rate_limit_event", "rate_limit_info":
                           {"resetsAt": 1_700_000_000}, "session_id": "c"}])
    assert events == [RateLimited(T)]


@pytest.mark.parametrize("status", ["allowed", "allowed_warning"])
def test_a_rate_limit_event_that_allows_the_call_is_no_limit(status: str) -> None:
    """Claude Code sends `rate_limit_event` with every turn; only a refusal is a limit."""
    events, _ = feed_all([{"type": "rate_limit_event", "rate_limit_info": {
        "status": status, "resetsAt": 1_771_390_800, "rateLimitType": "five_hour"}}])
    assert events == [Heartbeat()]
    events, _ = feed_all([{"type": "rate_limit_event", "rate_limit_info": {
        "status": "rejected", "resetsAt": 1_771_390_800}}])
    assert events == [RateLimited(1_771_390_800_000)]


@pytest.mark.parametrize("key", ["resetsAt", "resets_at", "reset_at", "resetAt", "reset"])
def test_reset_keys(key: str) -> None:
    assert parse_reset_ms({key: 1_700_000_000}) == T


def test_the_first_present_reset_key_wins() -> None:
    assert parse_reset_ms({"reset": 5, "resetsAt": 1_700_000_000}) == T
    assert parse_reset_ms({"resetsAt": "pas une date", "reset": 1_700_000_000}) is None
    assert parse_reset_ms({"retryAfter": 60}) is None and parse_reset_ms("x") is None


def test_a_whole_turn_and_nothing_after_its_final() -> None:
    events, parser = feed_all([
        INIT | {"session_id": "rl-1"},
        {"type": "rate_limit_event", "rate_limit_info": {"resetsAt": 1_700_000_000},
         "session_id": "rl-1"},
        assistant({"type": "text", "text": "ap"}),
        {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
         "session_id": "rl-1", "num_turns": 1}])
    assert events == [Heartbeat(), RateLimited(T), TextDelta("ap"), Final("ok", "rl-1")]


def test_assistant_blocks_in_order() -> None:
    events, _ = feed_all([
        assistant({"type": "text", "text": "a"},
                  {"type": "tool_use", "id": "t", "name": "T", "input": {"command": "ls -la"}},
                  {"type": "thinking", "thinking": "…"},
                  {"type": "text", "text": "b"}),
        {"type": "result", "subtype": "success", "is_error": False, "result": "final-ok"}])
    assert events == [TextDelta("a"), ToolActivity("T", "ls -la"), TextDelta("b"),
                      Final("final-ok", "rl-1")]


def test_tool_details() -> None:
    events, _ = feed_all([assistant(
        {"type": "tool_use", "name": "Read", "input": {"file_path": "/a/b.py"}},
        {"type": "tool_use", "name": "mcp__idea__idea_list_agents", "input": {}},
        {"type": "tool_use", "name": "Odd", "input": {"n": 1}})])
    assert events == [ToolActivity("Read", "/a/b.py"),
                      ToolActivity("mcp__idea__idea_list_agents", None),
                      ToolActivity("Odd", '{"n": 1}')]


def test_a_turn_without_result_has_no_final() -> None:
    events, _ = feed_all([INIT, assistant({"type": "text", "text": "a"})])
    assert not [e for e in events if isinstance(e, Final)]


def test_the_real_offline_turn_is_an_error_final_with_the_clis_words() -> None:
    """Claude Code 2.1.332 without a login: `subtype: success` and yet `is_error: true`."""
    sid = "4745fd0a-1c0b-4a6e-9a55-6c2d4c9e0b11"
    events, parser = feed_all([
        {"type": "system", "subtype": "init", "cwd": "/tmp/p", "session_id": sid,
         "tools": ["Task", "Bash"], "mcp_servers": [], "apiKeySource": "none",
         "claude_code_version": "2.1.332"},
        {"type": "assistant", "message": {"model": "<synthetic>", "role": "assistant",
                                          "content": [{"type": "text", "text":
                                                       "Not logged in · Please run /login"}]},
         "session_id": sid, "error": "authentication_failed", "is_api_error_message": True},
        {"type": "result", "subtype": "success", "is_error": True,
         "result": "Not logged in · Please run /login", "terminal_reason": "api_error",
         "num_turns": 1, "session_id": sid}])
    said = "Not logged in · Please run /login" + AUTH_HINT  # and how to log in from IdeA
    assert events[-1] == Final("Not logged in · Please run /login", sid, is_error=True,
                               error_message=said)
    assert parser.last_error == said


def test_an_error_result_without_text_says_what_it_can() -> None:
    events, _ = feed_all([{"type": "result", "subtype": "error_during_execution",
                           "is_error": True, "errors": ["tool crashed", "gave up"]}])
    assert events == [Final("", None, is_error=True, error_message="tool crashed; gave up")]
    events, _ = feed_all([{"type": "result", "subtype": "error_max_turns"}])
    assert events == [Final("", None, is_error=True, error_message="error_max_turns")]


def test_permission_denials_are_reported_before_the_final() -> None:
    events, _ = feed_all([{"type": "result", "subtype": "success", "is_error": False,
                           "result": "done", "permission_denials": [
                               {"tool_name": "Bash", "tool_use_id": "t",
                                "tool_input": {"command": "rm -rf /"}}]}])
    assert events == [ToolActivity("Bash", "permission denied: rm -rf /"), Final("done", None)]


def test_the_resumed_id_stands_until_a_line_names_another() -> None:
    _, parser = feed_all([{"type": "user", "message": {}}], resume="resume-id")
    assert parser.engine_session_id == "resume-id"
    _, parser = feed_all([INIT | {"session_id": "captured-1"}], resume="resume-id")
    assert parser.engine_session_id == "captured-1"


def test_the_command_line() -> None:
    assert claude_argv(("claude", "--settings", "s.json"), "-hi", None) == [
        "claude", "--settings", "s.json", "-p", "--output-format", "stream-json", "--verbose",
        "--", "-hi"]
    assert claude_argv(("claude",), "go", "resume-id")[-4:] == [
        "--resume", "resume-id", "--", "go"]
