"""The js_api facade over the real adapters (disk, PTYs, push pump), without a window.

The pump's evaluate function records the scripts the window would run, so these tests see the
exact pushes the UI gets: output with offsets, `sessionExited`, and errors as JSON messages.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="drives /bin/sh through the POSIX PTY adapter")

from app.adapters.pty.posix import PtyProcessHost
from app.bridge.api import BridgeApi
from app.bridge.errors import BridgeError
from app.bridge.push import PushPump
from app.bridge.workspace import Workspace
from app.main import build_use_cases


class Window:
    """Records pushed batches (parsed back from the scripts the pump runs)."""

    def __init__(self) -> None:
        self.batches: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def run(self, script: str) -> None:
        prefix = "window.__ideaPush("
        assert script.startswith(prefix) and script.endswith(")")
        with self.lock:
            self.batches.append(json.loads(script[len(prefix):-1]))

    def output(self, session: str) -> str:
        with self.lock:
            return "".join(b["output"].get(session, "") for b in self.batches)

    def events(self) -> list[dict[str, Any]]:
        with self.lock:
            return [e for b in self.batches for e in b["events"]]


def wait(pred: Callable[[], Any], timeout: float = 15) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[tuple[BridgeApi, Window]]:
    window = Window()
    pty = PtyProcessHost(kill_grace_ms=500)
    pump = PushPump(window.run)
    uc = build_use_cases(pty)
    ws = Workspace(str(tmp_path / "data"), uc, pty, pump, [])
    pty.set_sinks(on_output=pump.add_output, on_exit=ws.on_exit)
    api = BridgeApi(ws, uc, on_ready=pump.start, pick_folder=lambda: None, shell="/bin/sh",
                    first_run_disabled=False, startup_projects=[])
    yield api, window
    pump.stop()
    pty.close_all(timeout_ms=1000)


def test_info_starts_the_pump_and_reports_first_run(bridge, tmp_path: Path) -> None:
    api, _ = bridge
    info = api.app.info()
    assert info["firstRun"] is True and info["dataDir"] == str(tmp_path / "data")


def test_shell_in_a_cell_round_trip_with_offsets(bridge, tmp_path: Path) -> None:
    api, window = bridge
    api.app.info()
    project = api.projects.create(str(tmp_path / "proj"))
    node = project["layouts"]["layouts"][0]["tree"]["root"]["node"]["id"]
    session = api.terminals.openShell(project["root"], node, 80, 24)["sessionId"]
    api.terminals.write(session, 0, "echo bridge-$((2*21))\n")
    wait(lambda: "bridge-42" in window.output(session))

    attached = api.terminals.attach(session)
    assert attached["alive"] and "bridge-42" in attached["scrollback"]
    # The offsets of the pushed chunks tile the output exactly up to `end`.
    offsets = [b["offsets"][session] for b in window.batches if session in b["output"]]
    assert offsets[0] == 0 and offsets == sorted(offsets)
    # Once the pushes caught up, `end` is exactly the UTF-16 length of everything pushed.
    wait(lambda: len(window.output(session).encode("utf-16-le")) // 2
         == api.terminals.attach(session)["end"])

    api.terminals.write(session, 1, "exit 3\n")
    wait(lambda: any(e.get("sessionId") == session and e["type"] == "sessionExited"
                     for e in window.events()))
    exited = next(e for e in window.events() if e.get("sessionId") == session)
    assert exited["exitCode"] == 3


def test_errors_reach_js_as_json_with_stable_codes(bridge, tmp_path: Path) -> None:
    api, _ = bridge
    with pytest.raises(BridgeError) as err:
        api.projects.open(str(tmp_path / "not-a-project"))
    payload = json.loads(str(err.value))
    assert payload["code"] == "NOT_FOUND" and "not an IdeA project" in payload["message"]


def test_agent_launch_twice_elsewhere_is_refused(bridge, tmp_path: Path) -> None:
    api, _ = bridge
    project = api.projects.create(str(tmp_path / "proj"))
    root = project["root"]
    first = project["layouts"]["layouts"][0]["tree"]["root"]["node"]["id"]
    agent = api.agents.create(root, {"name": "Dev", "persona": "You code.", "profileId": "shell"})
    launched = api.agents.launch(root, agent["agentId"], first, 80, 24)
    doc = api.layout.edit(root, {"kind": "split", "nodeId": first, "direction": "row"})
    children = doc["layouts"][0]["tree"]["root"]["node"]["children"]
    second = children[1]["node"]["node"]["id"]
    with pytest.raises(BridgeError) as err:
        api.agents.launch(root, agent["agentId"], second, 80, 24)
    payload = json.loads(str(err.value))
    assert payload["code"] == "AGENT_ALREADY_RUNNING"
    assert payload["details"]["nodeId"] == first
    again = api.agents.launch(root, agent["agentId"], first, 80, 24)
    assert again == {"sessionId": launched["sessionId"], "reattached": True}


def test_closing_a_cell_kills_its_shell_but_only_detaches_an_agent(bridge, tmp_path: Path) -> None:
    api, _ = bridge
    project = api.projects.create(str(tmp_path / "proj"))
    root = project["root"]
    first = project["layouts"]["layouts"][0]["tree"]["root"]["node"]["id"]
    doc = api.layout.edit(root, {"kind": "split", "nodeId": first, "direction": "row"})
    second = doc["layouts"][0]["tree"]["root"]["node"]["children"][1]["node"]["node"]["id"]
    shell = api.terminals.openShell(root, first, 80, 24)["sessionId"]
    agent = api.agents.create(root, {"name": "Dev", "persona": "You code.", "profileId": "shell"})
    launched = api.agents.launch(root, agent["agentId"], second, 80, 24)["sessionId"]

    api.layout.edit(root, {"kind": "close", "nodeId": first})
    api.layout.edit(root, {"kind": "close", "nodeId": second})
    wait(lambda: not api.terminals.attach(shell)["alive"])
    assert api.terminals.attach(launched)["alive"]
