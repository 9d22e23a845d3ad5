"""One contract for the three `AgentSessions` adapters (ACP, Claude stream-json, Codex exec
--json), each against its fake under tests/fixtures/sessions/ (real processes, canned output,
the ACP fake built with the SDK's agent side): the turn's events and its one Final, the engine
session id resumed, error turns, bad lines, a stream without a result, a missing binary, a
timeout that kills the CLI's process group, permission requests."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from app.adapters.sessions.acp import AcpSessions
from app.adapters.sessions.claude_stream import ClaudeStreamSessions
from app.adapters.sessions.codex_exec import CodexExecSessions
from app.core.domain.agent_session import (
    Final,
    Heartbeat,
    McpServerCommand,
    PermissionRequest,
    StructuredSpec,
    TextDelta,
    ToolActivity,
    TurnEvent,
)
from app.core.errors import AppError
from app.core.ports import AgentSessions

pytestmark = [pytest.mark.timeout(60),
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"


def _after(argv: list[str], flag: str) -> str | None:
    return argv[argv.index(flag) + 1] if flag in argv else None


@dataclass(frozen=True)
class Adapter:
    name: str
    sessions: Callable[[], AgentSessions]
    fake: str
    #: The conversation a logged call resumed (from the fake's call log), None when fresh.
    resumed: Callable[[dict[str, object]], str | None]
    fresh_id: str
    asks_permission: bool = False


ADAPTERS = [
    Adapter("acp", AcpSessions, "fake_acp_agent.py",
            lambda rec: str(rec["sessionId"]) if rec.get("method") in
            ("session/load", "session/resume") else None, "acp-s1", asks_permission=True),
    Adapter("claude", ClaudeStreamSessions, "fake_claude.py",
            lambda rec: _after(rec["argv"], "--resume") if "argv" in rec else None,  # type: ignore[arg-type]
            "claude-s1"),
    Adapter("codex", CodexExecSessions, "fake_codex.py",
            lambda rec: _after(rec["argv"], "resume") if "argv" in rec else None,  # type: ignore[arg-type]
            "codex-t1"),
]


@pytest.fixture(params=ADAPTERS, ids=lambda a: a.name)
def adapter(request: pytest.FixtureRequest) -> Adapter:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "calls.jsonl"


def fake_spec(fake: str, tmp_path: Path, log_path: Path) -> StructuredSpec:
    (tmp_path / "run").mkdir(exist_ok=True)
    return StructuredSpec(command=(sys.executable, str(FIXTURES / fake)),
                          cwd=str(tmp_path / "run"), env={"FAKE_LOG": str(log_path)},
                          turn_timeout_s=20)


@pytest.fixture
def spec(adapter: Adapter, tmp_path: Path, log_path: Path) -> StructuredSpec:
    return fake_spec(adapter.fake, tmp_path, log_path)


@pytest.fixture
def acp_spec(tmp_path: Path, log_path: Path) -> StructuredSpec:
    return fake_spec("fake_acp_agent.py", tmp_path, log_path)


def calls(log_path: Path) -> list[dict[str, object]]:
    if not log_path.exists():
        return []
    return [json.loads(line) for line in log_path.read_text().splitlines()]


class Recorder:
    def __init__(self) -> None:
        self.events: list[TurnEvent] = []

    def __call__(self, event: TurnEvent) -> None:
        self.events.append(event)

    @property
    def finals(self) -> list[Final]:
        return [e for e in self.events if isinstance(e, Final)]


def run_turn(adapter: Adapter, spec: StructuredSpec, text: str) -> tuple[Recorder, Final]:
    session = adapter.sessions().start(spec)
    try:
        seen = Recorder()
        return seen, session.prompt(text, seen)
    finally:
        session.close()


def failing_turn(adapter: Adapter, spec: StructuredSpec, text: str) -> tuple[Recorder, AppError]:
    session = adapter.sessions().start(spec)
    seen = Recorder()
    try:
        with pytest.raises(AppError) as failure:
            session.prompt(text, seen)
    finally:
        session.close()
    assert len(seen.finals) == 1 and seen.events[-1] is seen.finals[0]
    assert seen.finals[0].is_error and seen.finals[0].error_message == failure.value.message
    return seen, failure.value


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def test_a_turn_streams_text_and_tools_then_one_final(adapter: Adapter,
                                                      spec: StructuredSpec) -> None:
    seen, final = run_turn(adapter, spec, "ok")
    assert final == Final(text="Hello world", engine_session_id=adapter.fresh_id)
    assert seen.finals == [final] and seen.events[-1] == final
    # Codex: one agent message; Claude: two text blocks; ACP: two chunks.
    assert "".join(e.text for e in seen.events if isinstance(e, TextDelta)) == "Hello world"
    tools = [e for e in seen.events if isinstance(e, ToolActivity)]
    assert len(tools) == 1 and "ls" in f"{tools[0].label} {tools[0].detail}"


def test_the_engine_session_id_is_resumed_by_the_next_turn_and_the_next_start(
        adapter: Adapter, spec: StructuredSpec, log_path: Path) -> None:
    sessions = adapter.sessions()
    first = sessions.start(spec)
    try:
        # ACP opens its session at start; the others learn the id from the first turn.
        assert first.engine_session_id == (adapter.fresh_id if adapter.name == "acp" else None)
        first.prompt("ok", Recorder())
        captured = first.engine_session_id
        assert captured == adapter.fresh_id
        first.prompt("ok", Recorder())  # a second turn of the same session goes on with it
    finally:
        first.close()
    again = sessions.start(replace(spec, resume_id=captured))
    try:
        assert again.engine_session_id == captured
        final = again.prompt("ok", Recorder())
    finally:
        again.close()
    assert final.engine_session_id == captured
    resumed = [adapter.resumed(record) for record in calls(log_path)]
    if adapter.name == "acp":  # one process per session: the resume is the load
        assert [r for r in resumed if r] == [captured]
    else:  # one process per turn: fresh, then resumed by turn 2 and by the new session
        assert resumed == [None, captured, captured]


def test_an_error_turn_is_a_session_error_with_the_clis_words(adapter: Adapter,
                                                              spec: StructuredSpec) -> None:
    _, error = failing_turn(adapter, spec, "error")
    assert error.code == "SESSION_ERROR"
    assert "Not logged in · Please run /login" in error.message
    assert error.details.get("engineSessionId") == adapter.fresh_id


def test_a_line_that_is_not_json_is_skipped(adapter: Adapter, spec: StructuredSpec) -> None:
    _, final = run_turn(adapter, spec, "badjson")
    assert final.text == "Hello world" and not final.is_error


def test_a_stream_that_ends_without_a_result_is_a_session_error(adapter: Adapter,
                                                                spec: StructuredSpec) -> None:
    _, error = failing_turn(adapter, spec, "nofinal")
    assert error.code == "SESSION_ERROR"
    assert "crashed" in error.message or "connection lost" in error.message


def test_a_missing_binary_is_command_not_found(adapter: Adapter, spec: StructuredSpec) -> None:
    with pytest.raises(AppError) as failure:
        adapter.sessions().start(replace(spec, command=("no-such-cli-anywhere", "--acp")))
    assert failure.value.code == "COMMAND_NOT_FOUND"
    assert failure.value.message == "command not found: no-such-cli-anywhere"


def test_a_turn_over_time_is_a_timeout_and_kills_the_process_group(
        adapter: Adapter, spec: StructuredSpec, log_path: Path) -> None:
    started = time.monotonic()
    seen, error = failing_turn(adapter, replace(spec, turn_timeout_s=2), "hang")
    assert error.code == "TIMEOUT"
    assert time.monotonic() - started < 10
    assert any(isinstance(e, TextDelta | Heartbeat) for e in seen.events[:-1])  # it started
    if adapter.name == "codex":  # offline Codex retries forever: its last words are kept
        assert "waiting for network" in error.message
    child = int(Path(str(log_path) + ".child").read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child), "the CLI's own child survived the timeout"


def test_closing_the_session_ends_a_running_turn(adapter: Adapter, spec: StructuredSpec,
                                                log_path: Path) -> None:
    session = adapter.sessions().start(spec)
    seen = Recorder()

    def close_at_once(event: TurnEvent) -> None:
        seen(event)
        if not isinstance(event, Final):
            session.close()

    started = time.monotonic()
    with pytest.raises(AppError) as failure:
        session.prompt("hang", close_at_once)
    assert failure.value.code == "SESSION_ERROR" and len(seen.finals) == 1
    assert time.monotonic() - started < 10
    child = Path(str(log_path) + ".child")
    deadline = time.monotonic() + 5
    while child.exists() and alive(int(child.read_text() or 0)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not (child.exists() and alive(int(child.read_text() or 0)))
    with pytest.raises(AppError) as closed:
        session.prompt("ok", Recorder())
    assert closed.value.code == "SESSION_ERROR" and "closed" in closed.value.message


def test_a_caller_that_fails_ends_the_turn(adapter: Adapter, spec: StructuredSpec) -> None:
    session = adapter.sessions().start(spec)

    def boom(event: TurnEvent) -> None:
        raise RuntimeError("the caller broke")

    try:
        with pytest.raises(RuntimeError):
            session.prompt("hang", boom)
        final = session.prompt("ok", Recorder())  # the session still serves the next turn
        assert final.text == "Hello world"
    finally:
        session.close()


def test_a_permission_request_waits_for_the_caller_or_none_is_ever_asked(
        adapter: Adapter, spec: StructuredSpec, log_path: Path) -> None:
    """ACP asks (`session/request_permission`); `claude -p` and `codex exec` never ask over
    their stream, so no request is ever waiting there."""
    session = adapter.sessions().start(spec)
    seen = Recorder()

    def answer(event: TurnEvent) -> None:
        seen(event)
        if isinstance(event, PermissionRequest):
            allow = next(o for o in event.options if o.kind == "allow_once")
            session.respond_permission(event.request_id, allow.option_id)

    try:
        final = session.prompt("permission" if adapter.asks_permission else "ok", answer)
        with pytest.raises(AppError) as failure:
            session.respond_permission("permission-1", "yes")
        assert failure.value.code == "NOT_FOUND"  # answered, or never asked
    finally:
        session.close()
    asked = [(e.title, [o.option_id for o in e.options]) for e in seen.events
             if isinstance(e, PermissionRequest)]
    if adapter.asks_permission:
        assert asked == [("rm -rf build", ["yes", "no"])]
        assert final.text == "permission: yes"
        assert {"method": "permission-answer", "option": "yes"} in calls(log_path)
    else:
        assert asked == []


def test_acp_an_unanswered_permission_request_is_denied(acp_spec: StructuredSpec) -> None:
    _, final = run_turn(ADAPTERS[0], replace(acp_spec, permission_timeout_s=0.3), "permission")
    assert final.text == "permission: no"  # the reject_once option


def test_acp_a_permission_answer_must_be_one_of_its_options(acp_spec: StructuredSpec) -> None:
    session = AcpSessions().start(acp_spec)
    refused: list[str] = []

    def answer(event: TurnEvent) -> None:
        if isinstance(event, PermissionRequest):
            with pytest.raises(AppError) as failure:
                session.respond_permission(event.request_id, "maybe")
            refused.append(failure.value.code)
            session.respond_permission(event.request_id, None)  # None denies

    try:
        final = session.prompt("permission", answer)
    finally:
        session.close()
    assert refused == ["INVALID"] and final.text == "permission: no"


def test_acp_gives_the_agent_its_cwd_and_ideas_mcp_server(acp_spec: StructuredSpec,
                                                          log_path: Path) -> None:
    relay = McpServerCommand(name="idea", command="/opt/idea", args=(
        "mcp-server", "--endpoint", "/run/p.sock", "--requester", "a1"),
        env={"IDEA_TOKEN": "tok"})
    spec = replace(acp_spec, mcp=relay)
    run_turn(ADAPTERS[0], spec, "ok")
    new = next(c for c in calls(log_path) if c.get("method") == "session/new")
    assert new["cwd"] == spec.cwd
    assert new["mcpServers"] == [{"name": "idea", "command": "/opt/idea", "args": [
        "mcp-server", "--endpoint", "/run/p.sock", "--requester", "a1"],
        "env": [{"name": "IDEA_TOKEN", "value": "tok", "_meta": None}], "_meta": None}]
    init = next(c for c in calls(log_path) if c.get("method") == "initialize")
    assert init["clientInfo"]["name"] == "idea"  # type: ignore[index]


@pytest.mark.parametrize(("caps", "opened_by"), [("load", "session/load"),
                                                  ("resume", "session/resume"),
                                                  ("none", "session/new")])
def test_acp_resumes_the_way_the_agent_advertises(acp_spec: StructuredSpec, log_path: Path,
                                                  caps: str, opened_by: str) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAKE_ACP_CAPS", caps)
        session = AcpSessions().start(replace(acp_spec, resume_id="acp-old"))
        try:
            final = session.prompt("ok", Recorder())
        finally:
            session.close()
    assert session.opened_by == opened_by
    assert final.engine_session_id == ("acp-s1" if caps == "none" else "acp-old")
    assert final.text == "Hello world"  # the "replayed" history of a load is not in the turn
    methods = [c.get("method") for c in calls(log_path)]
    assert methods[:2] == ["initialize", opened_by]


def test_acp_starts_afresh_when_the_agent_refuses_to_load(acp_spec: StructuredSpec,
                                                          log_path: Path) -> None:
    acp_spec = replace(acp_spec, resume_id="acp-gone")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAKE_ACP_REFUSE_LOAD", "1")
        _, final = run_turn(ADAPTERS[0], acp_spec, "ok")
    assert final.engine_session_id == "acp-s1"
    assert [c.get("method") for c in calls(log_path)][:3] == ["initialize", "session/load",
                                                               "session/new"]


def test_acp_an_agent_refusing_the_session_fails_the_start(acp_spec: StructuredSpec) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAKE_ACP_NEW_ERROR", "Gemini API key is missing or not configured.")
        with pytest.raises(AppError) as failure:
            AcpSessions().start(acp_spec)
    assert failure.value.code == "SESSION_ERROR"
    assert failure.value.message.startswith("Gemini API key is missing or not configured.")


def test_acp_a_session_whose_agent_died_refuses_more_turns(acp_spec: StructuredSpec) -> None:
    session = AcpSessions().start(acp_spec)
    try:
        with pytest.raises(AppError):
            session.prompt("nofinal", Recorder())
        seen = Recorder()
        with pytest.raises(AppError) as failure:
            session.prompt("ok", seen)
        assert failure.value.code == "SESSION_ERROR" and len(seen.finals) == 1
    finally:
        session.close()
