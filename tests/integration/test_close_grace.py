"""A closed cell's shell over the real graph and real PTYs (ADR 021): undo within the grace
brings back the very same process with its output; after the grace it is killed and released;
an agent is only detached. The grace is shortened through `Config.close_grace_ms`."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ptyprocess", reason="drives /bin/sh through the POSIX PTY adapter")

from app.adapters.pty.posix import PtyProcessHost
from app.bootstrap import Adapters, Config, build
from tests.integration.test_bridge_api import Door, first_leaf, wait

pytestmark = pytest.mark.timeout(120)


def door_with_grace(tmp_path: Path, grace_ms: int) -> Iterator[Door]:
    data = tmp_path / "data"
    data.mkdir()
    container = build(Config(data_dir=str(data), shell="/bin/sh", close_grace_ms=grace_ms),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    door = Door(container, data)
    door.call("app", "info")
    yield door
    door.door.close()
    container.shutdown(timeout_ms=1000)


@pytest.fixture
def short(tmp_path: Path) -> Iterator[Door]:
    """A door whose closed shells wait 1.5 s."""
    yield from door_with_grace(tmp_path, 1_500)


@pytest.fixture
def long(tmp_path: Path) -> Iterator[Door]:
    """A door with a grace no test waits out (60 s)."""
    yield from door_with_grace(tmp_path, 60_000)


def split_with_shell(door: Door, tmp_path: Path) -> tuple[str, str, str, str]:
    """A project split in two, a shell in the left cell that printed its pid: (root, left
    cell, session, pid)."""
    project = door.call("projects", "create", str(tmp_path / "proj"))
    root, left = project["root"], first_leaf(project)
    door.call("layout", "edit", root, {"kind": "split", "nodeId": left, "direction": "row"})
    session = door.call("terminals", "openShell", root, left, 80, 24)["sessionId"]
    door.call("terminals", "attach", session)
    door.call("terminals", "write", session, 0, "echo pid-$$-marker-$((6*7))\n")
    found = wait(lambda: re.search(r"pid-(\d+)-marker-42", door.window.output(session)))
    return root, left, session, found.group(1)


def leaf_sessions(doc: dict[str, Any]) -> list[str | None]:
    active = next(lay for lay in doc["layouts"] if lay["id"] == doc["activeId"])

    def walk(node: dict[str, Any]) -> list[str | None]:
        if node["type"] == "leaf":
            return [node["node"].get("session")]
        return [s for child in node["node"]["children"] for s in walk(child["node"])]

    return walk(active["tree"]["root"])


def test_undo_within_the_grace_brings_back_the_same_shell(long: Door, tmp_path: Path) -> None:
    root, left, session, pid = split_with_shell(long, tmp_path)
    long.call("layout", "edit", root, {"kind": "close", "nodeId": left})
    [pending] = wait(lambda: long.window.events("killPending"))
    assert pending == {"type": "killPending", "root": root, "sessionId": session,
                       "graceMs": 60_000}
    assert os.path.exists(f"/proc/{pid}")
    long.call("terminals", "detach", session)  # the closed cell's view went away

    doc = long.call("layout", "edit", root, {"kind": "undo"})
    assert session in leaf_sessions(doc)
    again = long.call("terminals", "attach", session)
    assert again["alive"] and "marker-42" in again["scrollback"]
    long.call("terminals", "write", session, 0, "echo again-$$\n")
    wait(lambda: f"again-{pid}" in long.window.output(session))


def test_after_the_grace_the_shell_is_killed_and_released(short: Door, tmp_path: Path) -> None:
    root, left, session, pid = split_with_shell(short, tmp_path)
    short.call("layout", "edit", root, {"kind": "close", "nodeId": left})
    assert os.path.exists(f"/proc/{pid}")
    released = wait(lambda: short.window.events("sessionReleased"), timeout=15)
    assert [e["sessionId"] for e in released] == [session]
    wait(lambda: not os.path.exists(f"/proc/{pid}"))
    assert short.call("projects", "open", root)["sessions"] == []
    doc = short.call("layout", "edit", root, {"kind": "undo"})
    assert leaf_sessions(doc) == [None, None]  # the cell is back, empty: its shell is gone


def test_closing_an_agents_cell_only_detaches_it(short: Door, tmp_path: Path) -> None:
    project = short.call("projects", "create", str(tmp_path / "proj"))
    root, first = project["root"], first_leaf(project)
    agent = short.call("agents", "create", root, {"name": "Dev", "persona": "You code.",
                                                   "profileId": "shell"})
    launched = short.call("agents", "launch", root, agent["agentId"], first, 80, 24)["sessionId"]
    short.call("layout", "edit", root, {"kind": "close", "nodeId": first})
    wait(lambda: short.window.events("layoutChanged"))
    time.sleep(2.0)  # past the grace
    assert short.window.events("killPending") == []
    assert short.call("terminals", "attach", launched)["alive"]
    assert [s["sessionId"] for s in short.call("projects", "open", root)["sessions"]] == [
        launched]
