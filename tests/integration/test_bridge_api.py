"""The window doors over the real graph (`app.bootstrap.build`: disk, real PTYs), without a
window: each `RecordingWindow` records the scripts its pump runs, so these tests see exactly
what a page gets — the `{ok} | {error}` envelopes, output with offsets, events — and two of
them are two windows on the same services.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="drives /bin/sh through the POSIX PTY adapter")

from app.adapters.pty.posix import PtyProcessHost
from app.bootstrap import Adapters, Config, Container, build
from app.bridge.window import WindowDoor

pytestmark = pytest.mark.timeout(120)


class RecordingWindow:
    """A `WindowPort` that records pushed batches (parsed back from the scripts)."""

    def __init__(self) -> None:
        self.batches: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.keep_output = True  # False: record events only (memory measurements)

    def run_script(self, script: str) -> None:
        prefix = "window.__ideaPush("
        assert script.startswith(prefix) and script.endswith(")")
        batch = json.loads(script[len(prefix):-1])
        if not self.keep_output:
            batch["output"], batch["offsets"] = {}, {}
        with self.lock:
            self.batches.append(batch)

    def post_script(self, script: str, done: Callable[[], None]) -> None:
        try:
            self.run_script(script)
        finally:
            done()

    def pick_folder(self) -> str | None:
        return None

    def output(self, session: str) -> str:
        with self.lock:
            return "".join(b["output"].get(session, "") for b in self.batches)

    def chunks(self, session: str) -> list[tuple[int, str]]:
        with self.lock:
            return [(b["offsets"][session], b["output"][session]) for b in self.batches
                    if session in b["output"]]

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        with self.lock:
            found = [e for b in self.batches for e in b["events"]]
        return [e for e in found if kind is None or e["type"] == kind]


def wait(pred: Callable[[], Any], timeout: float = 15) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


def ok(envelope: dict[str, Any]) -> Any:
    assert "ok" in envelope, envelope
    return envelope["ok"]


class Door:
    """One window: its door's api, unwrapped, and the recording window behind it."""

    def __init__(self, container: Container, data: Path) -> None:
        self.window = RecordingWindow()
        self.door = WindowDoor(container.services, self.window, data_dir=str(data))
        self.api = self.door.api

    def call(self, feature: str, method: str, *args: Any) -> Any:
        return ok(getattr(getattr(self.api, feature), method)(*args))


@pytest.fixture
def container(tmp_path: Path) -> Iterator[Container]:
    data = tmp_path / "data"
    data.mkdir()
    built = build(Config(data_dir=str(data), shell="/bin/sh"),
                  Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    yield built
    built.shutdown(timeout_ms=1000)


@pytest.fixture
def door(container: Container, tmp_path: Path) -> Iterator[Door]:
    d = Door(container, tmp_path / "data")
    d.call("app", "info")
    yield d
    d.door.close()


def first_leaf(project: dict[str, Any]) -> str:
    return str(project["layouts"]["layouts"][0]["tree"]["root"]["node"]["id"])


def test_info_starts_the_pump_and_reports_first_run(door: Door, tmp_path: Path) -> None:
    info = door.call("app", "info")
    assert info["firstRun"] is True and info["dataDir"] == str(tmp_path / "data")
    assert door.door.pump.running


def test_errors_are_answered_in_the_envelope_with_stable_codes(door: Door, tmp_path: Path) -> None:
    answer = door.api.projects.open(str(tmp_path / "not-a-project"))
    assert set(answer) == {"error"}
    assert answer["error"]["code"] == "NOT_FOUND"
    assert "no such folder" in answer["error"]["message"]


def test_a_refused_form_names_the_field_as_the_window_shows_it(door: Door,
                                                               tmp_path: Path) -> None:
    """Trial: refusals read `op.name: …` and `command.text: …`; they name the field as the
    form does, its path staying in the details for the window to mark it."""
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, layout = project["root"], project["layouts"]["layouts"][0]["id"]
    agent = door.call("agents", "create", root, {"name": "Dev", "profileId": "shell"})

    def refused(answer: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        assert set(answer) == {"error"} and answer["error"]["code"] == "INVALID", answer
        return answer["error"]["message"], answer["error"]["details"]

    assert refused(door.api.layout.edit(root, {"kind": "renameLayout", "layoutId": layout,
                                               "name": " "})) == \
        ("Layout name: a layout needs a name", {"field": "op.name", "label": "Layout name"})
    # a task the Send dialog cannot send is refused as a whole, not once per target
    message, details = refused(door.api.orchestration.send(root, [agent["agentId"]], " "))
    assert message == "Task: is blank: say what to do" and details["field"] == "text"
    message, _ = refused(door.api.orchestration.send(root, [agent["agentId"]], "x" * 100_001))
    assert message == "Task: string should have at most 100000 characters"
    message, details = refused(door.api.settings.update({"terminal": {"fontSize": 99}}))
    assert message == "Terminal font size: input should be less than or equal to 40"
    assert details["field"] == "settings.terminal.fontSize"
    blank = {"id": "custom", "name": "Custom CLI", "command": "", "detect": {},
             "contextInjection": {"strategy": "conventionFile", "target": "AGENTS.md"}}
    message, details = refused(door.api.profiles.save([blank]))
    assert message.startswith("Custom CLI: Command: name the CLI's command")
    assert details["field"] == "profiles[0].command"


def test_shell_round_trip_with_offsets_from_the_source(door: Door, tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    opened = door.call("terminals", "openShell", project["root"], first_leaf(project), 80, 24)
    session = opened["sessionId"]
    leaf = opened["layouts"]["layouts"][0]["tree"]["root"]["node"]
    assert leaf["session"] == session
    attached = door.call("terminals", "attach", session)
    door.call("terminals", "write", session, 0, "echo bridge-$((2*21)) é😀\n")
    wait(lambda: "bridge-42 é😀" in attached["scrollback"] + door.window.output(session))
    # The pushed chunks tile the stream after the snapshot exactly (UTF-16 offsets).
    at = attached["end"]
    for offset, text in door.window.chunks(session):
        assert offset == at
        at += len(text.encode("utf-16-le")) // 2
    assert door.call("terminals", "ackMany", {session: at - attached["end"]}) is None
    bad = door.api.terminals.ackMany(["not", "an", "object"])
    assert bad["error"]["code"] == "INVALID" and bad["error"]["details"] == {"field": "acks"}
    door.call("terminals", "write", session, 1, "exit 3\n")
    exited = wait(lambda: door.window.events("sessionExited"))
    assert exited[0] == {"type": "sessionExited", "root": project["root"], "sessionId": session,
                         "exitCode": 3}


def test_two_windows_on_one_live_session_both_repaint_exactly(container: Container,
                                                              tmp_path: Path) -> None:
    one, two = Door(container, tmp_path / "data"), Door(container, tmp_path / "data")
    try:
        for d in (one, two):
            d.call("app", "info")
        project = one.call("projects", "create", str(tmp_path / "proj"))
        session = one.call("terminals", "openShell", project["root"], first_leaf(project), 80,
                           24)["sessionId"]
        first = one.call("terminals", "attach", session)
        one.call("terminals", "write", session, 0, "for i in 1 2 3; do echo line-$i; done\n")
        wait(lambda: "line-3" in one.window.output(session))
        second = two.call("terminals", "attach", session)  # the second window joins mid-stream
        one.call("terminals", "write", session, 1, "echo after-ü\n")
        for d in (one, two):
            wait(lambda d=d: "after-ü" in d.window.output(session))
        for d, snap in ((one, first), (two, second)):
            # What a view shows: the snapshot, then each pushed chunk from `end` on.
            shown, at = snap["scrollback"], snap["end"]
            for offset, text in d.window.chunks(session):
                skip = max(0, at - offset)
                shown += text[skip:]
                at = max(at, offset + len(text))
            ring = one.call("terminals", "attach", session)["scrollback"]
            assert shown == ring  # identical in both windows: no loss, no duplicate
    finally:
        one.door.close()
        two.door.close()


def test_launch_writes_agent_was_running_and_publishes_the_layout(door: Door,
                                                                   tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, leaf = project["root"], first_leaf(project)
    agent = door.call("agents", "create", root, {"name": "Dev", "persona": "You code.",
                                                  "profileId": "shell"})
    launched = door.call("agents", "launch", root, agent["agentId"], leaf, 80, 24)
    saved = json.loads((tmp_path / "proj" / ".ideai" / "layouts.json").read_text())
    node = saved["layouts"][0]["tree"]["root"]["node"]
    assert node == {"id": leaf, "session": launched["sessionId"], "agent": agent["agentId"],
                    "agentWasRunning": True}
    assert launched["layouts"] == saved
    wait(lambda: door.window.events("layoutChanged"))
    kinds = [e["type"] for e in door.window.events()]
    assert kinds.index("sessionStarted") < kinds.index("agentStateChanged")
    state = door.window.events("agentStateChanged")[0]
    assert state == {"type": "agentStateChanged", "root": root, "agentId": agent["agentId"],
                     "state": "running", "sessionId": launched["sessionId"]}


def test_agent_launch_twice_elsewhere_is_refused(door: Door, tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, first = project["root"], first_leaf(project)
    agent = door.call("agents", "create", root, {"name": "Dev", "persona": "You code.",
                                                  "profileId": "shell"})
    launched = door.call("agents", "launch", root, agent["agentId"], first, 80, 24)
    doc = door.call("layout", "edit", root, {"kind": "split", "nodeId": first,
                                             "direction": "row"})
    second = doc["layouts"][0]["tree"]["root"]["node"]["children"][1]["node"]["node"]["id"]
    refused = door.api.agents.launch(root, agent["agentId"], second, 80, 24)["error"]
    assert refused["code"] == "AGENT_ALREADY_RUNNING" and refused["details"]["nodeId"] == first
    again = door.call("agents", "launch", root, agent["agentId"], first, 80, 24)
    assert again["sessionId"] == launched["sessionId"] and again["reattached"] is True


def test_detach_from_cell_keeps_a_shell_and_its_job_alive(door: Door, tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, leaf = project["root"], first_leaf(project)
    session = door.call("terminals", "openShell", root, leaf, 80, 24)["sessionId"]
    door.call("terminals", "attach", session)
    door.call("terminals", "write", session, 0, "sleep 1000 & echo job-$!\n")
    wait(lambda: "job-" in door.window.output(session))
    door.call("layout", "edit", root, {"kind": "assign", "nodeId": leaf})
    door.call("terminals", "detach", session)
    sessions = door.call("projects", "open", root)["sessions"]
    assert [(s["sessionId"], s["kind"], s["alive"]) for s in sessions] == [
        (session, "shell", True)]
    door.call("layout", "edit", root, {"kind": "assign", "nodeId": leaf, "session": session})
    again = door.call("terminals", "attach", session)
    assert again["alive"] and "job-" in again["scrollback"]
    door.call("terminals", "write", session, 1, "jobs; echo jobs-done\n")
    wait(lambda: "jobs-done" in door.window.output(session))
    assert "sleep 1000" in door.window.output(session)


def test_resizing_an_ended_session_is_a_quiet_not_found(door: Door, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    session = door.call("terminals", "openShell", project["root"], first_leaf(project), 80,
                        24)["sessionId"]
    door.call("terminals", "write", session, 0, "exit\n")
    wait(lambda: door.window.events("sessionExited"))
    answer = door.api.terminals.resize(session, 100, 30)
    assert answer["error"]["code"] == "NOT_FOUND"
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def _rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1])


def test_two_hundred_shells_opened_and_ended_are_all_released(container: Container,
                                                              door: Door,
                                                              tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, leaf = project["root"], first_leaf(project)
    host = container.adapters.terminals
    services = container.services
    noisy = "i=0; while [ $i -lt 2000 ]; do echo some-scrollback-line-$i; i=$((i+1)); done; exit\n"

    def cycle(n: int) -> None:
        for _ in range(n):
            session = door.call("terminals", "openShell", root, leaf, 80, 24)["sessionId"]
            door.call("terminals", "attach", session)
            door.call("terminals", "write", session, 0, noisy)
            wait(lambda s=session: any(e["sessionId"] == s
                                       for e in door.window.events("sessionExited")))
        door.call("layout", "edit", root, {"kind": "assign", "nodeId": leaf})

    door.window.keep_output = False
    cycle(20)  # warm up allocators and caches
    gc.collect()
    baseline = (len(host.session_ids()), _rss_kib())
    cycle(200)
    gc.collect()
    assert host.session_ids() == [] and baseline[0] == 0
    assert services.output.session_ids() == []
    assert door.call("projects", "open", root)["sessions"] == []
    grown_kib = _rss_kib() - baseline[1]
    # 200 rings of ~60k characters would be ~12 MB at the very least if kept; the margin is
    # for the allocator, never for a leak per session.
    assert grown_kib < 4_000, f"RSS grew by {grown_kib} KiB over 200 shells"


def test_the_access_matrix_is_edited_into_the_personas_front_matter(door: Door,
                                                                    tmp_path: Path) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root = project["root"]
    agent = door.call("agents", "create", root, {"name": "Dev", "persona": "# Dev\n\nYou code.\n",
                                                  "profileId": "shell"})
    assert door.call("agents", "ipc", root, agent["agentId"]) is None
    saved = door.call("agents", "setIpc", root, agent["agentId"],
                      {"receivesFrom": ["human"], "signals": ["SPAWN", "RETURN"]})
    assert saved == {"receivesFrom": ["human"], "signals": ["SPAWN", "RETURN"]}
    persona = (tmp_path / "proj" / ".ideai" / "agents" / "dev.md").read_text()
    assert persona.startswith("---\nipc:\n") and persona.endswith("---\n# Dev\n\nYou code.\n")
    refused = door.api.agents.setIpc(root, agent["agentId"], {"signals": ["SHOUT"]})["error"]
    assert refused["code"] == "INVALID" and "unknown signal 'SHOUT'" in refused["message"]
    assert door.call("agents", "setIpc", root, agent["agentId"], None) is None
    assert (tmp_path / "proj" / ".ideai" / "agents" / "dev.md").read_text() == \
        "# Dev\n\nYou code.\n"


def test_conversations_are_listed_and_read_and_ids_are_checked(door: Door, tmp_path: Path,
                                                               container: Container) -> None:
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root = project["root"]
    agent = door.call("agents", "create", root, {"name": "Dev", "persona": "x",
                                                  "profileId": "shell"})["agentId"]
    from app.core.domain.delegation import Ticket

    ticket = Ticket("t1", "ask", agent, None, "user", "say hi")
    container.services.conversations.prompt(root, ticket)
    container.services.conversations.response(root, ticket, "hi")
    [listed] = door.call("conversations", "list", root, agent)
    assert listed["peer"] is None and listed["turns"] == 2
    read = door.call("conversations", "read", root, listed["id"])
    assert [(t["role"], t["text"]) for t in read["turns"]] == [("prompt", "say hi"),
                                                               ("response", "hi")]
    assert read["turns"][0]["source"] == {"kind": "human"}
    assert "- **Response:** hi" in read["handoff"]
    bad = door.api.conversations.read(root, "../../../etc")["error"]
    assert bad["code"] == "INVALID"
    assert door.call("orchestration", "graph", root) == []
    gone = door.api.orchestration.decide(root, "nope", "yes")["error"]
    assert gone["code"] == "NOT_FOUND"
