"""Hot swap of an agent's profile over the whole real graph (issue 10 item 6): real PTYs, the
real ACP adapter driving a real ACP agent process (tests/fixtures/sessions/fake_acp_agent.py).

- A live agent in a cell stops and relaunches under the new profile in that same cell; its
  pair conversation and handoff carry over into the new launch's convention file.
- The old vendor's resume id is never handed to the new one: `providers.json` keeps each
  profile's own id for the pair, and the new profile's first headless turn opens a fresh
  engine session.
- A swap the new profile cannot start is refused and the live session keeps running.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="the agents run in POSIX PTYs")

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, Container, build  # noqa: E402
from app.core.domain.conversation import conversation_id  # noqa: E402
from app.core.domain.delegation import User  # noqa: E402
from app.core.domain.layout_nodes import leaves  # noqa: E402
from app.core.domain.profiles import ContextInjection, Profile, builtin_profiles  # noqa: E402
from app.core.errors import AppError  # noqa: E402

pytestmark = pytest.mark.timeout(180)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FAKE_ACP = str(FIXTURES / "sessions" / "fake_acp_agent.py")


def acp(profile_id: str, name: str) -> Profile:
    return Profile(id=profile_id, name=name, command=sys.executable, args=(FAKE_ACP,),
                   structured_adapter="acp",
                   context_injection=ContextInjection(strategy="conventionFile",
                                                      target="AGENTS.md"))


SCRIPTED = Profile(id="scripted", name="Scripted agent", command=sys.executable,
                   args=(str(FIXTURES / "agents" / "scripted_agent.py"),),
                   prompt_ready_pattern="tui> ",
                   context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                      var="IDEA_CONTEXT_FILE"))
SCRIPTED_TOO = SCRIPTED.model_copy(update={"id": "scripted-too", "name": "Scripted agent too"})
MISSING = Profile(id="missing", name="Missing CLI", command="no-such-cli-anywhere")


class World:
    def __init__(self, container: Container, root: str, log: Path) -> None:
        self.container, self.root, self.log = container, root, log
        self.s = container.services

    def agent(self, name: str) -> str:
        return next(a.entry.agent_id for a in self.s.projects.view(self.root).agents
                    if a.entry.name == name)

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def cell(self) -> str:
        view = self.s.projects.view(self.root)
        assert view.layouts is not None
        return leaves(view.layouts.active.root)[0].id

    def shown(self, node_id: str) -> str | None:
        view = self.s.projects.view(self.root)
        assert view.layouts is not None
        return next(leaf.session for leaf in leaves(view.layouts.active.root)
                    if leaf.id == node_id)

    def alive(self, session_id: str) -> bool:
        return any(s.session_id == session_id and s.alive
                   for s in self.s.projects.view(self.root).sessions)


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
    s.profiles.save([*builtin_profiles(), acp("fake-acp", "Fake ACP agent"),
                     acp("fake-acp-old", "Old fake ACP agent"), SCRIPTED, SCRIPTED_TOO,
                     MISSING])
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    yield World(container, root, log)
    container.shutdown(timeout_ms=1000)


def test_a_live_agent_relaunches_under_the_new_profile_in_its_cell(world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Sam", "# Sam\nYou keep the build green.", "shell")
    sam = world.agent("Sam")
    pair = conversation_id(None, sam)
    folder = Path(world.root) / ".ideai" / "conversations" / pair
    folder.mkdir(parents=True)
    (folder / "handoff.md").write_text("# Handoff\n\nObjective: fix the flaky parser test.\n")
    (folder / "providers.json").write_text(json.dumps({"shell": "shell-engine-1"}))
    node = world.cell()
    old = s.agents.launch(world.root, sam, node, 80, 24).session_id
    assert world.alive(old)

    swapped = s.swaps.swap(world.root, sam, "scripted", (100, 30))
    assert swapped.launch is not None and swapped.plan.node_id == node
    new = swapped.launch.session_id
    assert new != old and not world.alive(old) and world.alive(new)
    assert world.shown(node) == new  # the same cell shows the new session
    assert swapped.agent.entry.profile_id == "scripted"
    assert swapped.agent.session is not None and swapped.agent.session.session_id == new
    assert swapped.plan.conversation_id == pair and swapped.plan.old_profile_id == "shell"
    # the old session, hidden by the new one, is released (no cell shows it)
    assert all(x.session_id != old for x in s.projects.view(world.root).sessions)
    # the handoff and the persona reach the new launch
    context = (Path(world.root) / ".ideai" / "run" / sam / "CONTEXT.md").read_text()
    assert "fix the flaky parser test" in context and "You keep the build green." in context
    # the pair's resume ids are untouched: the shell's stays the shell's
    assert json.loads((folder / "providers.json").read_text()) == {"shell": "shell-engine-1"}

    # the relaunched agent works in the same pair conversation
    out = s.orchestrator.dispatch(world.root, User(), {"type": "agent.ask", "target": "Sam",
                                                       "task": "compute 6*7"})
    assert out["reply"] == "42"
    assert [t.text for t in s.conversations.turns(world.root, pair)] == ["compute 6*7", "42"]


def test_the_new_vendor_never_gets_the_old_vendors_resume_id(world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Gem", "# Gem\nYou review code.", "fake-acp-old")
    gem = world.agent("Gem")
    pair = conversation_id(None, gem)
    assert s.orchestrator.dispatch(world.root, User(), {
        "type": "agent.ask", "target": "Gem", "task": "ok review app/x.py"})["reply"] == \
        "Hello world"
    assert s.conversations.provider_id(world.root, pair, "fake-acp-old") == "acp-s1"

    swapped = s.swaps.swap(world.root, gem, "fake-acp")
    assert swapped.launch is None and not swapped.plan.relaunch  # no terminal ran
    assert swapped.agent.entry.profile_id == "fake-acp"

    s.orchestrator.dispatch(world.root, User(), {"type": "agent.ask", "target": "Gem",
                                                 "task": "ok again"})
    methods = [c["method"] for c in world.calls()]
    assert methods.count("session/new") == 2  # a fresh engine session for the new profile
    assert "session/load" not in methods and "session/resume" not in methods
    # the new turn was prepared with the pair's handoff, under the new profile
    agents_md = (Path(world.root) / ".ideai" / "run" / gem / "AGENTS.md").read_text()
    assert "ok review app/x.py" in agents_md
    # each profile keeps its own id for the pair
    providers = json.loads((Path(world.root) / ".ideai" / "conversations" / pair /
                            "providers.json").read_text())
    assert providers["fake-acp-old"] == "acp-s1" and set(providers) == {"fake-acp-old",
                                                                        "fake-acp"}


def test_a_swap_the_new_profile_cannot_start_keeps_the_session(world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Sam", "# Sam", "shell")
    sam = world.agent("Sam")
    node = world.cell()
    live = s.agents.launch(world.root, sam, node, 80, 24).session_id
    with pytest.raises(AppError) as err:
        s.swaps.swap(world.root, sam, "missing")
    assert err.value.code == "COMMAND_NOT_FOUND"
    assert "no-such-cli-anywhere" in err.value.message
    assert world.alive(live) and world.shown(node) == live
    view = next(a for a in s.projects.view(world.root).agents if a.entry.agent_id == sam)
    assert view.entry.profile_id == "shell"


def test_the_bridge_answers_the_swap_in_its_envelope(world: World, tmp_path: Path) -> None:
    from tests.integration.test_bridge_api import Door

    door = Door(world.container, tmp_path / "data")
    door.call("app", "info")
    try:
        agent = door.call("agents", "create", world.root,
                          {"name": "Sam", "persona": "# Sam", "profileId": "shell"})
        sam = agent["agentId"]
        node = world.cell()
        old = door.call("agents", "launch", world.root, sam, node, 80, 24)["sessionId"]
        out = door.call("agents", "swapProfile", world.root, sam, "scripted",
                        {"cols": 90, "rows": 20})
        assert out["previousProfileId"] == "shell" and out["relaunched"] is True
        assert out["conversationId"] == conversation_id(None, sam) and out["nodeId"] == node
        assert out["sessionId"] != old and out["agent"]["profileId"] == "scripted"
        assert out["agent"]["running"] is True and out["agent"]["sessionId"] == out["sessionId"]
        leaf = out["layouts"]["layouts"][0]["tree"]["root"]["node"]
        assert leaf["session"] == out["sessionId"] and leaf["agent"] == sam
        # no terminal: the profile only changes (no session, no layouts in the answer)
        door.call("terminals", "kill", out["sessionId"])
        wait_until = time.monotonic() + 20
        while world.alive(out["sessionId"]):
            assert time.monotonic() < wait_until
            time.sleep(0.05)
        back = door.call("agents", "swapProfile", world.root, sam, "shell")
        assert back == {"agent": {**back["agent"], "profileId": "shell", "running": False},
                        "previousProfileId": "scripted",
                        "conversationId": conversation_id(None, sam), "relaunched": False}
        bad = door.api.agents.swapProfile(world.root, sam, "shell")
        assert bad["error"]["code"] == "INVALID" and "already uses Shell" in \
            bad["error"]["message"]
        size = door.api.agents.swapProfile(world.root, sam, "scripted", {"cols": "wide"})
        assert size["error"]["code"] == "INVALID" and size["error"]["details"]["field"] == \
            "cols"
    finally:
        door.door.close()


def asking(world: World, target: str, task: str) -> tuple[threading.Thread, dict[str, Any]]:
    """`task` asked of `target` by the user on a thread; its outcome lands in the dict."""
    out: dict[str, Any] = {}

    def ask() -> None:
        try:
            out["reply"] = world.s.orchestrator.dispatch(world.root, User(), {
                "type": "agent.ask", "target": target, "task": task})["reply"]
        except AppError as exc:
            out["error"] = exc

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread, out


def until(predicate: Any, what: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_swap_during_a_terminal_turn_ends_it_and_the_new_session_takes_the_next(
        world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Alpha", "# Alpha", "scripted")
    alpha = world.agent("Alpha")
    node = world.cell()
    s.agents.launch(world.root, alpha, node, 80, 24)
    until(lambda: s.orchestrator.queue_depth(world.root, alpha)[0] == "idle", "Alpha settled")
    thread, out = asking(world, "Alpha", "sleep 60")
    until(lambda: s.orchestrator.queue_depth(world.root, alpha)[0] == "busy", "Alpha busy")

    swapped = s.swaps.swap(world.root, alpha, "scripted-too")
    thread.join(timeout=20)
    assert not thread.is_alive()
    assert out["error"].code == "NO_REPLY" and "exited" in out["error"].message
    assert swapped.launch is not None and world.shown(node) == swapped.launch.session_id
    assert s.orchestrator.dispatch(world.root, User(), {
        "type": "agent.ask", "target": "Alpha", "task": "compute 1+1"})["reply"] == "2"


def test_a_swap_during_a_headless_turn_closes_it_and_the_next_turn_is_fresh(
        world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Gem", "# Gem", "fake-acp-old")
    gem = world.agent("Gem")
    thread, out = asking(world, "Gem", "hang on")
    until(lambda: any(e.kind == "text" for e in s.headless.transcript(world.root, gem)),
          "the turn under way")

    swapped = s.swaps.swap(world.root, gem, "fake-acp")
    assert swapped.plan.stop_headless and swapped.launch is None
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert out["error"].code == "SESSION_ERROR"
    until(lambda: gem not in s.open_projects.get(world.root, in_tab=False).state.headless,
          "the turn's end recorded")

    assert s.orchestrator.dispatch(world.root, User(), {
        "type": "agent.ask", "target": "Gem", "task": "ok review"})["reply"] == "Hello world"
    methods = [c["method"] for c in world.calls()]
    assert methods.count("session/new") == 2 and "session/load" not in methods


def test_two_swaps_of_one_agent_run_one_after_the_other(world: World) -> None:
    s = world.s
    s.agents.create(world.root, "Sam", "# Sam", "shell")
    sam = world.agent("Sam")
    node = world.cell()
    s.agents.launch(world.root, sam, node, 80, 24)
    results: dict[str, Any] = {}

    def swap(profile_id: str) -> None:
        try:
            results[profile_id] = s.swaps.swap(world.root, sam, profile_id)
        except AppError as exc:
            results[profile_id] = exc

    threads = [threading.Thread(target=swap, args=(p,)) for p in ("scripted", "scripted-too")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(not isinstance(r, AppError) for r in results.values()), results
    final = next(a for a in s.projects.view(world.root).agents if a.entry.agent_id == sam)
    assert final.entry.profile_id in ("scripted", "scripted-too") and final.session is not None
    assert world.shown(node) == final.session.session_id
    live = [x for x in s.projects.view(world.root).sessions if x.alive]
    assert [x.session_id for x in live] == [final.session.session_id]


def test_a_relaunch_that_fails_says_the_profile_changed_and_why(world: World) -> None:
    s = world.s
    nowhere = SCRIPTED.model_copy(update={"id": "nowhere", "name": "Nowhere agent",
                                          "cwd_template": "/no/such/folder/anywhere"})
    s.profiles.save([*s.profiles.list(), nowhere])
    s.agents.create(world.root, "Sam", "# Sam", "shell")
    sam = world.agent("Sam")
    old = s.agents.launch(world.root, sam, world.cell(), 80, 24).session_id
    with pytest.raises(AppError) as err:
        s.swaps.swap(world.root, sam, "nowhere")
    assert err.value.code == "NOT_FOUND"
    assert err.value.message.startswith("Sam now uses Nowhere agent, but its relaunch failed: ")
    assert err.value.details["swapped"] is True and err.value.details["profileId"] == "nowhere"
    assert not world.alive(old)
    view = next(a for a in s.projects.view(world.root).agents if a.entry.agent_id == sam)
    assert view.entry.profile_id == "nowhere" and view.session is None
