"""Delegation over the whole real graph: the bootstrap's adapters (disk, PTYs, the Unix-socket
endpoint, the file protocol), agents that are real processes in PTYs (the scripted agent of
tests/fixtures/agents, which runs the real `idea` command on its PATH), the real MCP SDK client
through the real `mcp-server` relay. No window: deliveries go through the headless portal.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="agents run in POSIX PTYs")

from mcp import StdioServerParameters  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, Container, build  # noqa: E402
from app.core.domain.access import IpcMatrix  # noqa: E402
from app.core.domain.delegation import User  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile  # noqa: E402
from app.core.errors import AppError  # noqa: E402
from app.services.orchestrator import OrchestrationConfig  # noqa: E402

pytestmark = pytest.mark.timeout(180)

AGENT = Path(__file__).resolve().parents[1] / "fixtures" / "agents" / "scripted_agent.py"
SCRIPTED = Profile(id="scripted", name="Scripted agent", command=sys.executable,
                   args=(str(AGENT),), prompt_ready_pattern="tui> ",
                   context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                      var="IDEA_CONTEXT_FILE"))


class Project:
    def __init__(self, container: Container, root: str) -> None:
        self.container, self.root = container, root
        self.s = container.services

    def ask(self, target: str, task: str, caller: Any = None) -> dict[str, Any]:
        return self.s.orchestrator.dispatch(self.root, caller or User(), {
            "type": "agent.ask", "target": target, "task": task})

    def agent(self, name: str) -> str:
        view = self.s.projects.view(self.root)
        return next(a.entry.agent_id for a in view.agents if a.entry.name == name)

    def output(self, name: str) -> str:
        view = self.s.projects.view(self.root)
        session = next(a.session for a in view.agents if a.entry.name == name)
        assert session is not None
        snapshot = self.s.output.attach(session.session_id, "test", lambda c: None)
        self.s.output.detach(session.session_id, "test")
        return snapshot.scrollback


def make(tmp_path: Path, orchestration: OrchestrationConfig | None = None,
         names: tuple[str, ...] = ("Alpha", "Beta")) -> tuple[Container, Project]:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    container = build(Config(data_dir=str(data), shell="/bin/sh",
                             orchestration=orchestration or OrchestrationConfig()),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    s = container.services
    s.profiles.save([SCRIPTED])  # built-ins not on the PATH cannot be enabled
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    for name in names:
        s.agents.create(root, name, f"# {name}\nYou answer tasks.", "scripted")
    return container, Project(container, root)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    container, p = make(tmp_path)
    yield p
    container.shutdown(timeout_ms=1000)


def test_the_endpoint_is_private_and_agents_are_told_how_to_reach_it(project: Project) -> None:
    state = project.s.open_projects.get(project.root).state
    assert state.endpoint is not None
    socket = Path(state.endpoint)
    assert socket.stat().st_mode & 0o777 == 0o600
    assert socket.parent.stat().st_mode & 0o777 == 0o700


def test_an_ask_launches_both_agents_and_comes_back_through_two_hops(project: Project) -> None:
    out = project.ask("Alpha", "ask Beta: compute 6*7")
    assert out["reply"] == "Beta says: 42"
    alpha = project.output("Alpha")
    assert "[IdeA · task from user · ticket" in alpha and "asking Beta…" in alpha
    assert "[IdeA · task from Alpha · ticket" in project.output("Beta")
    layouts = project.s.projects.view(project.root).layouts
    assert layouts is not None  # Alpha took the free cell; Beta runs in the background
    assert layouts.active.root.agent == project.agent("Alpha")


def test_two_asks_to_one_agent_are_served_in_order(project: Project) -> None:
    results: dict[str, Any] = {}

    def ask(key: str, task: str) -> None:
        results[key] = project.ask("Beta", task)["reply"]

    first = threading.Thread(target=ask, args=("first", "sleep 1"))
    first.start()
    time.sleep(0.3)
    second = threading.Thread(target=ask, args=("second", "compute 1+1"))
    second.start()
    first.join(60)
    second.join(60)
    assert results == {"first": "slept", "second": "2"}
    beta = project.output("Beta")
    assert beta.index("answer: slept") < beta.index("compute 1+1")


def test_a_cycle_is_refused_and_the_agent_says_so(project: Project) -> None:
    reply = project.ask("Alpha", "ask Beta: ask Alpha: compute 1")["reply"]
    assert reply.startswith("Beta says: Alpha says: error: idea: CYCLE: refused")


def test_a_turn_that_takes_too_long_times_out_and_the_agent_stays(tmp_path: Path) -> None:
    container, project = make(tmp_path, OrchestrationConfig(turn_timeout_s=4.0))
    try:
        with pytest.raises(AppError) as err:
            project.ask("Beta", "sleep 6")  # times out at 4 s
        assert err.value.code == "TIMEOUT"
        assert project.ask("Beta", "compute 3*3")["reply"] == "9"  # after the sleep ended
    finally:
        container.shutdown(timeout_ms=1000)


def test_the_real_mcp_client_through_the_relay_lists_and_asks(project: Project) -> None:
    alpha = project.agent("Alpha")
    launched = project.s.agents.launch(project.root, alpha, None, 80, 24)
    assert launched.token is not None
    endpoint = project.s.open_projects.get(project.root).state.endpoint
    assert endpoint is not None

    async def session(token: str) -> tuple[list[str], str, str]:
        params = StdioServerParameters(command=sys.executable, args=[
            "-m", "app", "mcp-server", "--endpoint", endpoint, "--requester", alpha,
            "--token", token])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            tools = [t.name for t in (await s.list_tools()).tools]
            listed = await s.call_tool("idea_list_agents", {})
            asked = await s.call_tool("idea_ask_agent", {"target": "Beta",
                                                         "task": "compute 2+3"})
            texts = ["".join(getattr(c, "text", "") for c in r.content)
                     for r in (listed, asked)]
            return tools, texts[0], texts[1]

    tools, listed, asked = asyncio.run(session(launched.token))
    assert {"idea_list_agents", "idea_ask_agent", "idea_message_agent", "idea_reply",
            "idea_launch_agent", "idea_stop_agent"} <= set(tools)
    assert "Alpha" in listed and "Beta" in listed
    assert asked == "5"
    assert "[IdeA · task from Alpha · ticket" in project.output("Beta")

    # A forged token: the relay is refused and exits, so the client's session fails (the SDK
    # raises from its task group) and the server logged the refusal.
    with pytest.raises(ExceptionGroup):
        asyncio.run(asyncio.wait_for(session("not-the-token"), 30))


def test_the_file_protocol_reaches_the_same_service(project: Project) -> None:
    alpha = project.agent("Alpha")
    launched = project.s.agents.launch(project.root, alpha, None, 80, 24)
    folder = Path(project.root) / ".ideai" / "requests" / alpha
    folder.mkdir(parents=True, exist_ok=True)
    request = {"token": launched.token, "command": {"type": "agent.ask", "target": "Beta",
                                                     "task": "compute 10-4"}}
    (folder / ".q.tmp").write_text(json.dumps(request))
    (folder / ".q.tmp").rename(folder / "q.json")
    response = folder / "q.response.json"
    deadline = time.monotonic() + 60
    while not response.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert json.loads(response.read_text())["ok"]["reply"] == "6"


def test_each_pair_has_its_own_log_and_the_handoff_reaches_a_relaunched_agent(
        project: Project) -> None:
    from app.core.domain.conversation import conversation_id

    assert project.ask("Alpha", "ask Beta: compute 6*7")["reply"] == "Beta says: 42"
    alpha, beta = project.agent("Alpha"), project.agent("Beta")
    convs = project.s.conversations
    pair = [(t.role, t.text) for t in convs.turns(project.root, conversation_id(alpha, beta))]
    assert pair == [("prompt", "compute 6*7"), ("response", "42")]
    with_user = convs.turns(project.root, conversation_id(None, alpha))
    assert [t.role for t in with_user] == ["prompt", "response"]
    assert with_user[0].source.kind == "human" and with_user[1].text == "Beta says: 42"
    assert convs.turns(project.root, conversation_id(None, beta)) == []  # never User↔B
    handoff = convs.handoff(project.root, conversation_id(alpha, beta))
    assert handoff is not None and "- **Prompt:** compute 6*7\n- **Response:** 42" in handoff

    project.s.orchestrator.dispatch(project.root, User(), {"type": "agent.stop",
                                                           "target": "Beta"})
    deadline = time.monotonic() + 20
    while project.s.projects.view(project.root).agents[1].session and \
            time.monotonic() < deadline:
        time.sleep(0.1)
    project.s.agents.launch(project.root, beta, None, 80, 24)
    context = Path(project.root) / ".ideai" / "run" / beta / "CONTEXT.md"
    text = context.read_text()
    assert "## Handoff" in text and "### With Alpha" in text
    assert "- **Prompt:** compute 6*7" in text


def test_an_escalation_from_an_agent_reaches_the_user_and_the_choice_comes_back(
        project: Project) -> None:
    answer: dict[str, Any] = {}
    asking = threading.Thread(target=lambda: answer.update(
        project.ask("Beta", "escalate: keep SQLite | move to PostgreSQL")))
    asking.start()
    deadline = time.monotonic() + 30
    while not project.s.escalations.pending(project.root) and time.monotonic() < deadline:
        time.sleep(0.1)
    [question] = project.s.escalations.pending(project.root)
    assert question.options == ("keep SQLite", "move to PostgreSQL")
    assert question.task == "escalate: keep SQLite | move to PostgreSQL"
    project.s.escalations.decide(project.root, question.ticket, "move to PostgreSQL")
    asking.join(30)
    assert answer["reply"] == "user chose: move to PostgreSQL"


def test_a_matrix_that_refuses_the_sender_is_reported_to_it_with_the_rule(
        project: Project) -> None:
    beta = project.agent("Beta")
    project.s.agents.set_ipc(project.root, beta, IpcMatrix(receives_from=("human",)))
    reply = project.ask("Alpha", "ask Beta: compute 1+1")["reply"]
    assert reply == ("Beta says: error: idea: FORBIDDEN: Beta's ipc.receives_from [human] does "
                     "not include Alpha")
    assert project.ask("Beta", "compute 1+1")["reply"] == "2"  # the user may


def delegations_of(project: Project) -> list[Any]:
    """Every `DelegationChanged` the bus publishes from now on."""
    from app.core.events import DelegationChanged

    seen: list[Any] = []
    project.s.events.subscribe(lambda e: seen.append(e) if isinstance(e, DelegationChanged)
                               else None)
    return seen


def launched_output(project: Project, name: str) -> str:
    """`project.output(name)`, or "" while the agent has no session yet."""
    view = project.s.projects.view(project.root)
    return project.output(name) if any(a.session for a in view.agents
                                       if a.entry.name == name) else ""


def test_an_ask_whose_idea_client_is_killed_mid_turn_is_withdrawn(tmp_path: Path) -> None:
    """`timeout 6 idea ask Gamma …` in Alpha's terminal (rc 124): the ask leaves the graph and
    is reported withdrawn while Gamma works on; Gamma's later reply is logged, to nobody."""
    container, project = make(tmp_path, names=("Alpha", "Gamma"))
    try:
        assert project.ask("Gamma", "compute 1+1")["reply"] == "2"  # Gamma is up
        seen = delegations_of(project)
        out = project.ask("Alpha", "impatient 6 Gamma: sleep 10")
        assert out["reply"] == "gave up on Gamma (rc 124)"
        alpha, gamma = project.agent("Alpha"), project.agent("Gamma")
        assert "[IdeA · task from Alpha · ticket" in project.output("Gamma")  # delivered
        asked = [e for e in seen if e.requester == alpha and e.target == gamma]
        assert [(e.state, e.reason) for e in asked][-1] == ("failed", "CANCELLED")
        assert [g for g in project.s.orchestrator.graph(project.root)
                if g["from"] == alpha] == []
        assert project.s.orchestrator.queue_depth(project.root, gamma)[0] == "busy"
        deadline = time.monotonic() + 60
        while "answer: slept" not in project.output("Gamma") and time.monotonic() < deadline:
            time.sleep(0.2)
        from app.core.domain.conversation import conversation_id
        key = conversation_id(alpha, gamma)
        # the answer reached nobody, and the log says so
        orphan = "[CANCELLED] answered after the ask was withdrawn; nobody received it: slept"
        while not [t for t in project.s.conversations.turns(project.root, key)
                   if t.text == orphan] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [t.text for t in project.s.conversations.turns(project.root, key)][-1] == orphan
        assert "error" not in project.output("Gamma").split("answer: slept", 1)[1]
        assert [(e.state, e.reason) for e in seen
                if e.requester == alpha and e.target == gamma] == \
            [(e.state, e.reason) for e in asked]  # not reported again
    finally:
        container.shutdown(timeout_ms=1000)


def test_an_ask_whose_idea_client_is_killed_while_queued_is_never_delivered(
        tmp_path: Path) -> None:
    container, project = make(tmp_path, names=("Alpha", "Gamma"))
    try:
        assert project.ask("Alpha", "compute 1")["reply"] == "1"  # Alpha is up
        busy = threading.Thread(target=project.ask, args=("Gamma", "sleep 6"), daemon=True)
        busy.start()
        deadline = time.monotonic() + 60
        while "sleep 6" not in launched_output(project, "Gamma") and \
                time.monotonic() < deadline:
            time.sleep(0.2)
        out = project.ask("Alpha", "impatient 1 Gamma: compute 2+2")  # queued behind the sleep
        assert out["reply"] == "gave up on Gamma (rc 124)"
        gamma = project.agent("Gamma")
        assert project.s.orchestrator.queue_depth(project.root, gamma)[1] == 0
        busy.join(60)
        assert project.ask("Gamma", "compute 3+3")["reply"] == "6"
        assert "compute 2+2" not in project.output("Gamma")  # dropped from Gamma's queue
    finally:
        container.shutdown(timeout_ms=1000)
