"""Headless turns over the whole real graph (issue 10 item 4): an agent with no terminal whose
profile speaks ACP gets its task as one turn of the real ACP adapter, driving a real ACP agent
process built with the SDK's agent side (tests/fixtures/sessions/fake_acp_agent.py). The final
is the reply; the pair's conversation logs it; the engine's session id is kept per (pair,
profile) and resumes the next turn; the turn's activity is published and kept; a terminal
launch is refused while the turn runs; an agent asking through its own door from a PTY gets the
headless agent's answer inline."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="the asking agent runs in a POSIX PTY")

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, Container, build  # noqa: E402
from app.core.domain.conversation import conversation_id  # noqa: E402
from app.core.domain.delegation import User  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile, builtin_profiles  # noqa: E402
from app.core.errors import AppError  # noqa: E402
from app.core.events import HeadlessActivity  # noqa: E402

pytestmark = pytest.mark.timeout(180)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ACP = Profile(id="fake-acp", name="Fake ACP agent", command=sys.executable,
              args=(str(FIXTURES / "sessions" / "fake_acp_agent.py"),),
              structured_adapter="acp",
              context_injection=ContextInjection(strategy="conventionFile", target="AGENTS.md"))
SCRIPTED = Profile(id="scripted", name="Scripted agent", command=sys.executable,
                   args=(str(FIXTURES / "agents" / "scripted_agent.py"),),
                   prompt_ready_pattern="tui> ",
                   context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                      var="IDEA_CONTEXT_FILE"))


class World:
    def __init__(self, container: Container, root: str, log: Path) -> None:
        self.container, self.root, self.log = container, root, log
        self.s = container.services
        self.events: list[HeadlessActivity] = []
        self.s.events.subscribe(lambda e: self.events.append(e)
                                if isinstance(e, HeadlessActivity) else None)

    def agent(self, name: str) -> str:
        return next(a.entry.agent_id for a in self.s.projects.view(self.root).agents
                    if a.entry.name == name)

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    log = tmp_path / "acp.log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", str(FIXTURES / "sessions"))
    data = tmp_path / "data"
    data.mkdir()
    container = build(Config(data_dir=str(data), shell="/bin/sh"),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    s = container.services
    s.profiles.save([*builtin_profiles(), ACP, SCRIPTED])
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    s.agents.create(root, "Gem", "# Gem\nYou review code.", "fake-acp")
    s.agents.create(root, "Alpha", "# Alpha\nYou delegate.", "scripted")
    yield World(container, root, log)
    container.shutdown(timeout_ms=1000)


def test_an_ask_to_a_structured_agent_without_terminal_is_a_headless_turn(world: World) -> None:
    gem = world.agent("Gem")
    out = world.s.orchestrator.dispatch(world.root, User(), {
        "type": "agent.ask", "target": "Gem", "task": "ok review app/x.py"})
    assert out["reply"] == "Hello world"
    calls = world.calls()
    new = next(c for c in calls if c["method"] == "session/new")
    assert new["cwd"] == f"{world.root}/.ideai/run/{gem}"  # its prepared run dir
    [relay] = new["mcpServers"]  # IdeA's MCP relay, its token in the env, never in argv
    assert "mcp-server" in relay["args"] and gem in relay["args"]
    assert not any("tok" in a for a in relay["args"])
    prompt = next(c for c in calls if c["method"] == "session/prompt")
    assert "[IdeA · task from user · ticket" in prompt["text"] and "app/x.py" in prompt["text"]
    assert (Path(world.root) / ".ideai" / "run" / gem / "AGENTS.md").read_text().count(
        "You review code.") == 1
    # the pair's log, and the engine id kept for this pair and profile
    pair = conversation_id(None, gem)
    turns = world.s.conversations.turns(world.root, pair)
    assert [(t.role, t.text) for t in turns] == [("prompt", "ok review app/x.py"),
                                                 ("response", "Hello world")]
    assert world.s.conversations.provider_id(world.root, pair, "fake-acp") == "acp-s1"
    kinds = [e.kind for e in world.events]
    assert kinds[0] == "started" and "tool" in kinds and kinds[-1] == "final"
    assert [e.kind for e in world.s.headless.transcript(world.root, gem)] == kinds
    assert world.s.orchestrator.queue_depth(world.root, gem) == ("stopped", 0)

    # the next turn of the same pair resumes the engine's session
    world.s.orchestrator.dispatch(world.root, User(), {"type": "agent.ask", "target": "Gem",
                                                       "task": "ok again"})
    assert [c["sessionId"] for c in world.calls() if c["method"] == "session/load"] == ["acp-s1"]


def test_a_failed_headless_turn_is_a_clear_error_with_the_cli_words(world: World) -> None:
    with pytest.raises(AppError) as err:
        world.s.orchestrator.dispatch(world.root, User(), {
            "type": "agent.ask", "target": "Gem", "task": "error please"})
    assert err.value.code == "SESSION_ERROR"
    assert "Gem's headless turn failed" in err.value.message
    assert "Not logged in · Please run /login" in err.value.message
    assert world.events[-1].kind == "error"


def test_a_terminal_launch_is_refused_while_the_headless_turn_runs(world: World) -> None:
    gem = world.agent("Gem")
    result: dict[str, Any] = {}

    def ask() -> None:
        try:
            world.s.orchestrator.dispatch(world.root, User(), {
                "type": "agent.ask", "target": "Gem", "task": "permission to clean"})
        except AppError as exc:
            result["error"] = exc

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    deadline = time.monotonic() + 30
    while not world.s.escalations.pending(world.root) and time.monotonic() < deadline:
        time.sleep(0.05)
    [question] = world.s.escalations.pending(world.root)  # the agent's permission request
    assert question.options == ("Allow", "Reject") and "rm -rf build" in (question.task or "")
    with pytest.raises(AppError) as err:
        world.s.agents.launch(world.root, gem, None, 80, 24)
    assert err.value.code == "AGENT_ALREADY_RUNNING" and "headless" in err.value.message
    world.s.escalations.decide(world.root, question.ticket, "Reject")
    asker.join(30)
    assert "error" not in result
    assert {"method": "permission-answer", "option": "no"} in world.calls()
    launched = world.s.agents.launch(world.root, gem, None, 80, 24)  # free again
    assert launched.session_id


def test_an_agent_in_a_terminal_asks_a_headless_one_through_its_idea_command(
        world: World) -> None:
    out = world.s.orchestrator.dispatch(world.root, User(), {
        "type": "agent.ask", "target": "Alpha", "task": "ask Gem: ok summarise"})
    assert out["reply"] == "Gem says: Hello world"
    pair = conversation_id(world.agent("Alpha"), world.agent("Gem"))
    assert [t.role for t in world.s.conversations.turns(world.root, pair)] == ["prompt",
                                                                                "response"]
