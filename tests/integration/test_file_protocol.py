"""The file protocol door on a real folder with real watchdog: requests answered beside them,
bad files answered and moved aside, the watcher still watching after them."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.adapters.watcher.file_protocol import FileProtocolDoor
from app.core.domain.delegation import AgentCaller
from app.core.errors import FORBIDDEN, AppError

pytestmark = pytest.mark.timeout(60)


class Dispatcher:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, Any]] = []
        self.release = threading.Event()
        self.release.set()

    def dispatch(self, root: str, caller: Any, command: Any) -> dict[str, Any]:
        self.calls.append((root, caller, command))
        self.release.wait(20)
        return {"echo": command}


class Verifier:
    def verify(self, root: str, requester: str, token: str) -> AgentCaller:
        if token != f"tok-{requester}":
            raise AppError(FORBIDDEN, "bad token")
        return AgentCaller(root, requester, requester.title(), "s-" + requester)


def wait_file(path: Path, timeout: float = 15) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.is_file():
            try:
                return json.loads(path.read_text())
            except ValueError:
                pass
        time.sleep(0.02)
    raise AssertionError(f"{path} never appeared")


def drop(folder: Path, name: str, body: str) -> Path:
    """Write like a careful agent: a hidden temp name, then rename into place."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.tmp"
    tmp.write_text(body)
    os.replace(tmp, folder / name)
    return folder / name


@pytest.fixture
def door(tmp_path: Path) -> Iterator[tuple[FileProtocolDoor, Dispatcher, Path]]:
    dispatcher = Dispatcher()
    d = FileProtocolDoor(dispatcher, Verifier())
    root = tmp_path / "proj"
    d.open(str(root))
    yield d, dispatcher, root / ".ideai" / "requests"
    d.close_all()


def test_a_request_is_answered_beside_it_and_moved_to_done(door) -> None:  # type: ignore[no-untyped-def]
    _, dispatcher, base = door
    command = {"type": "agent.ask", "target": "Beta", "task": "t"}
    drop(base / "alpha", "q1.json", json.dumps({"token": "tok-alpha", "command": command}))
    answer = wait_file(base / "alpha" / "q1.response.json")
    assert answer == {"ok": {"echo": command}}
    assert (base / "alpha" / "done" / "q1.json").is_file()
    [(_, caller, got)] = dispatcher.calls
    assert caller.agent_id == "alpha" and got == command


def test_a_file_written_in_place_is_read_once_closed(door) -> None:  # type: ignore[no-untyped-def]
    _, _, base = door
    (base / "alpha").mkdir(parents=True, exist_ok=True)
    with open(base / "alpha" / "direct.json", "w") as f:
        f.write('{"token": "tok-alpha", "command": ')
        f.flush()
        time.sleep(0.2)
        f.write('{"type": "agent.list"}}')
    assert wait_file(base / "alpha" / "direct.response.json")["ok"] == {
        "echo": {"type": "agent.list"}}


def test_bad_files_are_answered_moved_aside_and_the_watcher_goes_on(door) -> None:  # type: ignore[no-untyped-def]
    _, _, base = door
    for i, body in enumerate(["{nope", "[1, 2]", '{"command": "x"}', "\xff\xfe"]):
        drop(base / "alpha", f"bad{i}.json", body)
        answer = wait_file(base / "alpha" / f"bad{i}.response.json")
        assert answer["error"]["code"] == "INVALID"
        assert (base / "alpha" / "rejected" / f"bad{i}.json").is_file()
    drop(base / "alpha", "forged.json", json.dumps({"token": "tok-beta",
                                                    "command": {"type": "agent.list"}}))
    assert wait_file(base / "alpha" / "forged.response.json")["error"]["code"] == "FORBIDDEN"
    drop(base / "alpha", "fine.json", json.dumps({"token": "tok-alpha",
                                                  "command": {"type": "agent.list"}}))
    assert "ok" in wait_file(base / "alpha" / "fine.response.json")


def test_requests_left_before_start_are_answered_and_asks_do_not_block_others(tmp_path: Path) -> None:
    dispatcher = Dispatcher()
    root = tmp_path / "proj"
    base = root / ".ideai" / "requests"
    drop(base / "alpha", "old.json", json.dumps({"token": "tok-alpha",
                                                 "command": {"type": "agent.list"}}))
    d = FileProtocolDoor(dispatcher, Verifier())
    try:
        d.open(str(root))
        assert "ok" in wait_file(base / "alpha" / "old.response.json")
        dispatcher.release.clear()  # the next one blocks like an ask waiting for its reply
        drop(base / "alpha", "slow.json", json.dumps({"token": "tok-alpha", "command": {
            "type": "agent.ask", "target": "Beta", "task": "x"}}))
        time.sleep(0.3)
        assert not (base / "alpha" / "slow.response.json").exists()
        dispatcher.release.set()
        assert "ok" in wait_file(base / "alpha" / "slow.response.json")
    finally:
        d.close_all()
