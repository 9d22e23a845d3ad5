"""Permissions through the real launch (contracts §9.3) on this kernel: the window's bridge over
the real graph (`app.bootstrap.build`: disk, real PTYs, the Landlock enforcer, `idea
sandbox-exec`), and a headless turn through the real stream-json session adapter.

The regression guard "write outside the grant is blocked", for a real PTY agent and for a
headless turn: the denied write happens first, the allowed one after, so the allowed marker
proves the denied attempt was made. Projects live under the repo's `.pytest_cache`, not in a
temp dir: temp dirs are granted to every CLI (its scratch space).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="drives /bin/sh through the POSIX PTY adapter")

from app.adapters.pty.posix import PtyProcessHost
from app.adapters.sandbox.landlock import LandlockEnforcer
from app.adapters.sandbox.needs import HostCliNeeds
from app.adapters.sessions.claude_stream import ClaudeStreamSessions
from app.adapters.stores.filesystem import LocalFileSystem
from app.adapters.vendors import VendorProjectors
from app.bootstrap import Adapters, Config, Container, build
from app.bridge.window import WindowDoor
from app.core.domain.agent_session import Final, StructuredSpec, TurnEvent
from app.core.domain.delegation import User
from app.core.domain.denials import denial_from_turn_event
from app.core.domain.profiles import Profile, builtin_profiles
from app.core.usecases.permissions import AgentSandboxes
from tests.integration.test_bridge_api import RecordingWindow, wait
from tests.ungranted import ungranted_dir

REPO = Path(__file__).resolve().parents[2]
IDEA = (sys.executable, "-m", "app")
ABI, WHY = LandlockEnforcer().abi()
pytestmark = [pytest.mark.skipif(ABI is None, reason=f"no Landlock: {WHY}"),
              pytest.mark.timeout(120)]
WRITE_PROJECT_ONLY = {"version": 1, "projectDefaults": {"rules": [
    {"capability": "write", "effect": "allow", "paths": ["**"]}], "fallback": "deny"}}


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder holding the project and a folder beside it, outside every temp dir."""
    with ungranted_dir("permissions") as path:
        (path / "side").mkdir()
        yield path


class Window:
    """One window's bridge over the real graph, calls unwrapped from their envelopes."""

    def __init__(self, container: Container, data: Path) -> None:
        self.recorder = RecordingWindow()
        self.services = container.services
        self.door = WindowDoor(container.services, self.recorder, data_dir=str(data))

    def call(self, feature: str, method: str, *args: Any) -> Any:
        answer = getattr(getattr(self.door.api, feature), method)(*args)
        assert "ok" in answer, answer
        return answer["ok"]

    def error(self, feature: str, method: str, *args: Any) -> dict[str, Any]:
        answer = getattr(getattr(self.door.api, feature), method)(*args)
        assert "error" in answer, answer
        return dict(answer["error"])


@pytest.fixture
def window(tmp_path: Path) -> Iterator[Window]:
    data = tmp_path / "data"
    data.mkdir()
    container = build(Config(data_dir=str(data), shell="/bin/sh", idea_command=IDEA),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    w = Window(container, data)
    w.call("app", "info")
    yield w
    w.door.close()
    container.shutdown(timeout_ms=1000)


def leaf_of(project: dict[str, Any]) -> str:
    return str(project["layouts"]["layouts"][0]["tree"]["root"]["node"]["id"])


def test_a_pty_agent_cannot_write_outside_its_grant_and_the_test_box_agrees(
        window: Window, base: Path) -> None:
    root = base / "proj"
    project = window.call("projects", "create", str(root))
    window.call("permissions", "save", project["root"], WRITE_PROJECT_ONLY)
    agent = window.call("agents", "create", project["root"],
                        {"name": "Boxed", "persona": "", "profileId": "shell"})["agentId"]
    launched = window.call("agents", "launch", project["root"], agent, leaf_of(project), 100, 30)
    session = launched["sessionId"]
    started = wait(lambda: next((e for e in window.recorder.events("sessionStarted")
                                 if e["session"]["sessionId"] == session), None))
    assert started["session"]["sandbox"]["state"] == "enforced", started
    assert started["session"]["sandbox"]["message"] == f"Landlock ABI {ABI}"
    plan = json.loads((root / ".ideai" / "run" / agent / "sandbox-plan.json").read_text())
    assert plan["restrict"] == ["write"]

    attached = window.call("terminals", "attach", session)
    beside, inside = base / "side" / "escaped.txt", root / "inside.txt"
    window.call("terminals", "write", session, 0,
                f"echo out > '{beside}'; echo in > '{inside}'; echo done-$((40+2))\n")
    output = wait(lambda: "done-42" in (t := attached["scrollback"]
                                        + window.recorder.output(session)) and t)
    assert "Permission denied" in output
    assert not beside.exists() and inside.read_text() == "in\n"
    # the shell's EACCES, read from the confined terminal, is listed and pushed
    listed = wait(lambda: window.call("permissions", "denials", project["root"], agent))
    assert [(d["source"], d["tool"], d["target"]) for d in listed] == [
        ("cli", "sh", str(beside))]
    assert listed[0]["message"].startswith("EACCES")
    assert window.recorder.events("permissionDenied")[0]["agentId"] == agent

    denied = window.call("permissions", "test", project["root"], agent, "write", str(beside))
    assert denied["effect"] == "deny" and denied["rule"] is None
    assert denied["os"] == {"enforced": True, "allowed": False, "message": denied["os"]["message"]}
    allowed = window.call("permissions", "test", project["root"], agent, "write", str(inside))
    assert allowed["effect"] == "allow" and allowed["rule"]["where"] == "projectDefaults.rules[0]"
    assert allowed["os"]["allowed"] is True

    # IdeA's own process (this one) is never confined.
    beside.write_text("IdeA itself may\n")
    window.call("terminals", "kill", session)


def test_a_corrupt_permissions_file_refuses_the_launch(window: Window, base: Path) -> None:
    root = base / "proj"
    project = window.call("projects", "create", str(root))
    agent = window.call("agents", "create", project["root"],
                        {"name": "Boxed", "persona": "", "profileId": "shell"})["agentId"]
    broken = '{"version": 1, "projectDefaults": {"rules": [{"capability": "write"}]}}'
    (root / ".ideai" / "permissions.json").write_text(broken)
    error = window.error("agents", "launch", project["root"], agent, leaf_of(project), 80, 24)
    assert error["code"] == "CORRUPT_FILE"
    assert error["details"]["field"] == "projectDefaults.rules[0].effect"
    assert window.call("projects", "open", project["root"])["sessions"] == []
    assert (root / ".ideai" / "permissions.json").read_text() == broken


def test_without_permissions_an_agent_runs_unwrapped(window: Window, base: Path) -> None:
    root = base / "proj"
    project = window.call("projects", "create", str(root))
    agent = window.call("agents", "create", project["root"],
                        {"name": "Free", "persona": "", "profileId": "shell"})["agentId"]
    session = window.call("agents", "launch", project["root"], agent, leaf_of(project), 80,
                          24)["sessionId"]
    attached = window.call("terminals", "attach", session)
    beside = base / "side" / "free.txt"
    window.call("terminals", "write", session, 0, f"echo out > '{beside}'; echo ok-$((1+1))\n")
    wait(lambda: "ok-2" in attached["scrollback"] + window.recorder.output(session))
    assert beside.read_text() == "out\n"
    assert not (root / ".ideai" / "run" / agent / "sandbox-plan.json").exists()
    [listed] = window.call("projects", "open", project["root"])["sessions"]
    assert listed["sandbox"]["state"] == "off"


def test_a_headless_turn_cannot_write_outside_its_grant(base: Path) -> None:
    """A structured turn launched as `AgentSandboxes.headless` wraps it: a stand-in CLI (sh)
    answers like `claude -p --output-format stream-json` and tries both writes."""
    root, run = base / "proj", base / "proj" / ".ideai" / "run" / "a1"
    run.mkdir(parents=True)
    (root / ".ideai" / "permissions.json").write_text(json.dumps(WRITE_PROJECT_ONLY))
    beside, inside = base / "side" / "headless.txt", root / "headless.txt"
    result = json.dumps({"type": "result", "subtype": "success", "is_error": False,
                         "result": "written", "session_id": "conv-1",
                         "permission_denials": [{"tool_name": "Write",
                                                 "tool_input": {"file_path": str(beside)}}]})
    script = run / "cli.sh"
    script.write_text(f"#!/bin/sh\necho out > '{beside}'\necho in > '{inside}'\n"
                      f"printf '%s\\n' '{result}'\n")
    script.chmod(0o755)
    sandboxes = AgentSandboxes(LocalFileSystem(), LandlockEnforcer(), HostCliNeeds(IDEA),
                               VendorProjectors())
    shell = next(p for p in builtin_profiles() if p.id == "shell")
    launch = sandboxes.headless(root=str(root), agent_id="a1", profile=shell,
                                argv=[str(script)], run_dir=str(run), endpoint=None,
                                idea_command=IDEA)
    for file in launch.files:
        Path(file.path).write_text(file.text)
    assert launch.argv[len(IDEA):len(IDEA) + 2] == ["sandbox-exec", "--plan"]
    assert launch.sandbox.status.state == "enforced"
    session = ClaudeStreamSessions().start(StructuredSpec(
        command=tuple(launch.argv), cwd=str(run), env={**launch.env, "PATH": os.environ["PATH"]},
        turn_timeout_s=60))
    events: list[TurnEvent] = []
    try:
        final = session.prompt("write both", events.append)
    finally:
        session.close()
    assert isinstance(final, Final) and final.text == "written" and not final.is_error
    assert inside.read_text() == "in\n" and not beside.exists()
    denials = [d for d in map(denial_from_turn_event, events) if d is not None]
    assert [(d.tool, d.target) for d in denials] == [("Write", str(beside))]


def test_a_headless_turn_through_the_real_graph_runs_confined_and_its_denials_are_kept(
        window: Window, base: Path) -> None:
    """An ask to an agent with no terminal whose profile speaks Claude stream-json: the turn is
    prepared like a launch (`LaunchAgent.prepare`), so its spawn runs through `idea
    sandbox-exec`; the write beside the project fails, the one inside lands, and the denial the
    CLI reports is listed by `permissions.denials`."""
    services = window.services
    root = base / "proj"
    project = window.call("projects", "create", str(root))
    window.call("permissions", "save", project["root"], WRITE_PROJECT_ONLY)
    beside, inside = base / "side" / "turn.txt", root / "turn.txt"
    result = json.dumps({"type": "result", "subtype": "success", "is_error": False,
                         "result": "written", "session_id": "conv-1",
                         "permission_denials": [{"tool_name": "Write",
                                                 "tool_input": {"file_path": str(beside)}}]})
    script = base / "fake-claude.sh"
    script.write_text(f"#!/bin/sh\necho out > '{beside}' 2>/dev/null || echo refused > "
                      f"'{root}/refused.txt'\necho in > '{inside}'\nprintf '%s\\n' '{result}'\n")
    script.chmod(0o755)
    fake = Profile(id="fake-claude", name="Fake Claude", command="/bin/sh", args=(str(script),),
                   structured_adapter="claude-stream-json")
    services.profiles.save([*(p for p in builtin_profiles() if p.id == "shell"), fake])
    agent = window.call("agents", "create", project["root"],
                        {"name": "Quiet", "persona": "", "profileId": "fake-claude"})["agentId"]
    out = services.orchestrator.dispatch(project["root"], User(), {
        "type": "agent.ask", "target": "Quiet", "task": "write both"})
    assert out["reply"] == "written"
    assert inside.read_text() == "in\n" and not beside.exists()
    assert (root / "refused.txt").read_text() == "refused\n"  # the shell's EACCES
    plan = json.loads((root / ".ideai" / "run" / agent / "sandbox-plan.json").read_text())
    assert plan["restrict"] == ["write"]
    denials = window.call("permissions", "denials", project["root"], agent)
    assert [(d["source"], d["tool"], d["target"]) for d in denials] == [
        ("cli", "Write", str(beside))]
