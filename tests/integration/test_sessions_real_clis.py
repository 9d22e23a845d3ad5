"""The session adapters against the real CLIs from npm (tools/, from tools.json), offline and
logged out, each in a HOME of its own: every one must end its turn with its own genuine error,
never hang.

- ACP: Gemini CLI `--acp` refuses `session/new` ("Gemini API key is missing or not
  configured."), `@zed-industries/codex-acp` too ("Authentication required"),
  `@zed-industries/claude-agent-acp` opens a session and refuses the prompt
  ("Authentication required"), then reopens the session by its id.
- `claude -p --output-format stream-json`: "Not logged in · Please run /login" with its
  session id, resumed by the next turn; an unknown resume id is refused in Claude's words.
- `codex exec --json`: retries forever offline; the turn timeout ends it with its last error,
  and the next turn resumes its thread.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from app.adapters.sessions.acp import AcpSessions
from app.adapters.sessions.claude_events import AUTH_HINT
from app.adapters.sessions.claude_stream import ClaudeStreamSessions
from app.adapters.sessions.codex_exec import CodexExecSessions
from app.core.domain.agent_session import (
    Final,
    McpServerCommand,
    StructuredSpec,
    TextDelta,
    TurnEvent,
)
from app.core.errors import AppError
from app.core.ports import AgentSessions

BIN = Path(__file__).resolve().parents[2] / "tools" / "node_modules" / ".bin"
pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")]
#: Variables that would log a CLI in, or change how it runs, on the machine running the tests.
#: `IS_SANDBOX` (set on some CI hosts) makes claude-agent-acp, as root, ask Claude Code for a
#: permission mode that Claude Code then refuses to root: its query dies before any login check.
HOST_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
                  "OPENAI_API_KEY", "CODEX_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
                  "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA", "IS_SANDBOX",
                  "CLAUDECODE")
#: IdeA's relay as a real launch declares it (its endpoint does not exist here: the agents
#: fail before they would start it).
RELAY = McpServerCommand("idea", sys.executable, ("-m", "app", "mcp-server", "--endpoint",
                                                  "/nonexistent/idea.sock", "--requester", "a1"),
                         {"IDEA_TOKEN": "t"})


def installed(name: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not (BIN / name).exists(),
                              reason=f"{name}: run scripts/bootstrap.sh test (tools/)")


MakeSpec = Callable[..., StructuredSpec]


@pytest.fixture
def spec_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MakeSpec:
    """`spec_for(cli, *args, timeout_s=, mcp=, resume_id=)`: a spec in a HOME of its own."""
    for name in HOST_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    home, run = tmp_path / "home", tmp_path / "run"
    (home / ".codex").mkdir(parents=True)
    run.mkdir()

    def make(*command: str, timeout_s: float = 60, mcp: McpServerCommand | None = None,
             resume_id: str | None = None) -> StructuredSpec:
        return StructuredSpec(command=(str(BIN / command[0]), *command[1:]), cwd=str(run),
                              env={"HOME": str(home), "CODEX_HOME": str(home / ".codex"),
                                   "XDG_CONFIG_HOME": str(home / ".config")},
                              resume_id=resume_id, mcp=mcp, turn_timeout_s=timeout_s)

    return make


def turn(sessions: AgentSessions, spec: StructuredSpec,
         text: str = "hi") -> tuple[list[TurnEvent], AppError, str | None]:
    """One failing turn: its events, its error, the session's id after it."""
    session = sessions.start(spec)
    seen: list[TurnEvent] = []
    try:
        with pytest.raises(AppError) as failure:
            session.prompt(text, seen.append)
        return seen, failure.value, session.engine_session_id
    finally:
        session.close()


def the_final(seen: list[TurnEvent]) -> Final:
    finals = [e for e in seen if isinstance(e, Final)]
    assert len(finals) == 1 and seen[-1] is finals[0]
    return finals[0]


@installed("gemini")
def test_gemini_acp_refuses_the_session_without_a_login(spec_for: MakeSpec) -> None:
    started = time.monotonic()
    with pytest.raises(AppError) as failure:
        AcpSessions().start(spec_for("gemini", "--acp", mcp=RELAY))
    assert failure.value.code == "SESSION_ERROR"
    assert failure.value.message.startswith("Gemini API key is missing or not configured.")
    assert "log in with: Log in with Google" in failure.value.message
    assert time.monotonic() - started < 30


@installed("codex-acp")
def test_codex_acp_refuses_the_session_without_a_login(spec_for: MakeSpec) -> None:
    with pytest.raises(AppError) as failure:
        AcpSessions().start(spec_for("codex-acp", mcp=RELAY))
    assert failure.value.code == "SESSION_ERROR"
    assert failure.value.message.startswith("Authentication required (log in with: ")
    assert "CODEX_API_KEY" in failure.value.message


@installed("codex-acp")
def test_codex_acp_that_cannot_start_says_why(spec_for: MakeSpec, tmp_path: Path) -> None:
    spec = spec_for("codex-acp")
    spec = replace(spec, env={**spec.env, "CODEX_HOME": str(tmp_path / "missing")})
    with pytest.raises(AppError) as failure:
        AcpSessions().start(spec)
    assert failure.value.code == "SESSION_ERROR"
    assert failure.value.message == (
        f"codex-acp ended the session (exit code 1): Error: error loading config: CODEX_HOME "
        f'points to "{tmp_path / "missing"}", but that path does not exist')


@installed("claude-agent-acp")
def test_claude_agent_acp_refuses_the_prompt_then_reopens_the_session(spec_for: MakeSpec) -> None:
    sessions = AcpSessions()
    seen, error, session_id = turn(sessions, spec_for("claude-agent-acp", mcp=RELAY))
    assert (error.code, error.message) == ("SESSION_ERROR", "Authentication required")
    assert session_id and error.details == {"engineSessionId": session_id}
    assert the_final(seen).is_error
    again = sessions.start(spec_for("claude-agent-acp", mcp=RELAY, resume_id=session_id))
    try:
        assert again.engine_session_id == session_id
        assert again.opened_by == "session/load"  # type: ignore[attr-defined]
    finally:
        again.close()


@installed("claude")
def test_claude_stream_json_says_not_logged_in_and_resumes_its_session(spec_for: MakeSpec) -> None:
    sessions = ClaudeStreamSessions()
    session = sessions.start(spec_for("claude"))
    first: list[TurnEvent] = []
    second: list[TurnEvent] = []
    try:
        with pytest.raises(AppError) as failure:
            session.prompt("hi", first.append)
        captured = session.engine_session_id
        with pytest.raises(AppError) as again:  # `--resume <captured>`
            session.prompt("hi again", second.append)
    finally:
        session.close()
    for error in (failure.value, again.value):
        assert (error.code, error.message) == ("SESSION_ERROR",
                                               "Not logged in · Please run /login" + AUTH_HINT)
        assert error.details == {"engineSessionId": captured}
    assert captured and len(captured) == 36
    assert TextDelta("Not logged in · Please run /login") in first
    assert the_final(first).engine_session_id == captured
    assert session.engine_session_id == captured  # Claude kept the resumed conversation


@installed("claude")
def test_claude_refuses_an_unknown_resume_id_in_its_own_words(spec_for: MakeSpec) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    _, error, _ = turn(ClaudeStreamSessions(), spec_for("claude", resume_id=unknown))
    assert (error.code, error.message) == ("SESSION_ERROR",
                                           f"No conversation found with session ID: {unknown}")


@installed("codex")
def test_codex_exec_that_cannot_start_says_why(spec_for: MakeSpec, tmp_path: Path) -> None:
    spec = spec_for("codex")
    spec = replace(spec, env={**spec.env, "CODEX_HOME": str(tmp_path / "missing")})
    _, error, _ = turn(CodexExecSessions(), spec)
    assert (error.code, error.message) == (
        "SESSION_ERROR", f'codex ended without a result: Error finding codex home: CODEX_HOME '
        f'points to "{tmp_path / "missing"}", but that path does not exist')


@installed("codex")
def test_codex_exec_offline_is_a_timeout_with_its_network_error_then_resumes(spec_for: MakeSpec) -> None:
    session = CodexExecSessions().start(spec_for("codex", timeout_s=14))
    seen: list[TurnEvent] = []
    started = time.monotonic()
    try:
        with pytest.raises(AppError) as failure:
            session.prompt("hi", seen.append)
        took = time.monotonic() - started
        thread = session.engine_session_id
        assert failure.value.code == "TIMEOUT"
        assert "waiting for network" in failure.value.message, failure.value.message
        assert failure.value.details == {"timeoutS": 14, "engineSessionId": thread}
        assert thread and the_final(seen).engine_session_id == thread
        assert 14 <= took < 25
        session2 = CodexExecSessions().start(spec_for("codex", timeout_s=3, resume_id=thread))
        with pytest.raises(AppError) as resumed:  # `exec resume <thread>`: the same thread
            session2.prompt("hi again", [].append)
        assert resumed.value.code == "TIMEOUT" and "Reconnecting" in resumed.value.message
        assert session2.engine_session_id == thread
    finally:
        session.close()
