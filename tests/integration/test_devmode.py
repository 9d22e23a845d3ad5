"""`idea dev`'s supervisor (app/devmode.py) on real processes and a real watchdog observer."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from app.devmode import Supervisor, gui_argv

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def wait_for(predicate: Callable[[], object], timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


class Spawner:
    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.children: list[subprocess.Popen[bytes]] = []

    def __call__(self) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(self.argv, start_new_session=True)
        self.children.append(child)
        return child


def run_in_thread(sup: Supervisor) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(sup.run()), daemon=True)
    thread.start()
    return thread, result


def test_a_python_file_change_restarts_the_child_once(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "mod.py"
    module.write_text("x = 1\n")
    spawn = Spawner(SLEEPER)
    changed: list[str] = []
    sup = Supervisor(spawn, tmp_path, debounce_s=0.2, on_restart=changed.append)
    thread, _ = run_in_thread(sup)
    try:
        wait_for(lambda: len(spawn.children) == 1)
        time.sleep(0.3)  # the observer is scheduled before the first spawn
        module.read_text()  # reading (as an import does) is not a change
        (tmp_path / "notes.txt").write_text("not python")
        time.sleep(0.6)
        assert len(spawn.children) == 1
        for i in range(3):  # an editor's save burst: one restart
            module.write_text(f"x = {i + 2}\n")
        wait_for(lambda: len(spawn.children) == 2)
        first, second = spawn.children
        assert first.poll() is not None  # the old window was stopped
        assert second.poll() is None
        time.sleep(0.6)
        assert len(spawn.children) == 2 and sup.restarts == 1
        assert changed and changed[-1].endswith("mod.py")
    finally:
        sup.stop()
        thread.join(15)
    assert not thread.is_alive()
    assert all(child.poll() is not None for child in spawn.children)


def test_new_file_and_crash_then_change_restarts(tmp_path: Path) -> None:
    spawn = Spawner([sys.executable, "-c", "raise SystemExit(3)"])
    sup = Supervisor(spawn, tmp_path, debounce_s=0.1, on_restart=lambda path: None)
    thread, result = run_in_thread(sup)
    try:
        wait_for(lambda: spawn.children and spawn.children[0].poll() == 3)
        time.sleep(0.3)
        assert thread.is_alive()  # a crash (e.g. a syntax error mid-edit) does not end dev mode
        spawn.argv = SLEEPER
        (tmp_path / "fixed.py").write_text("ok = True\n")
        wait_for(lambda: len(spawn.children) == 2)
    finally:
        sup.stop()
        thread.join(15)
    assert result == [0]


def test_stop_ends_the_child_without_a_restart(tmp_path: Path) -> None:
    spawn = Spawner(SLEEPER)
    changed: list[str] = []
    sup = Supervisor(spawn, tmp_path, on_restart=changed.append)
    thread, result = run_in_thread(sup)
    wait_for(lambda: len(spawn.children) == 1)
    sup.stop()
    thread.join(15)
    assert result == [0] and changed == [] and len(spawn.children) == 1
    assert spawn.children[0].poll() is not None


def test_child_closing_normally_ends_dev_mode(tmp_path: Path) -> None:
    spawn = Spawner([sys.executable, "-c", "pass"])
    sup = Supervisor(spawn, tmp_path)
    assert sup.run(poll_s=0.05) == 0
    assert len(spawn.children) == 1


def test_gui_argv_keeps_data_dir_and_projects(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("APPIMAGE", raising=False)
    argv = gui_argv(str(tmp_path / "data"), [str(tmp_path / "p1"), str(tmp_path / "p2")])
    assert argv == [sys.executable, "-m", "app", "--data-dir", str(tmp_path / "data"),
                    "--project", str(tmp_path / "p1"), "--project", str(tmp_path / "p2"), "gui"]


def test_projects_to_reopen_adds_those_opened_since_dev_mode_started(tmp_path: Path) -> None:
    from app.devmode import projects_to_reopen

    data = tmp_path / "data"
    data.mkdir()
    (data / "projects.json").write_text(
        '{"version":1,"recent":['
        '{"root":"/p/new2","name":"new2","lastOpenedMs":3000},'
        '{"root":"/p/cli","name":"cli","lastOpenedMs":2500},'
        '{"root":"/p/new1","name":"new1","lastOpenedMs":2000},'
        '{"root":"/p/old","name":"old","lastOpenedMs":500}]}')
    assert projects_to_reopen(str(data), ["/p/cli"], since_ms=1000) == ["/p/cli", "/p/new1", "/p/new2"]
    assert projects_to_reopen(str(tmp_path / "empty"), ["/p/x"], since_ms=0) == ["/p/x"]
