"""The watcher of an open project's files (app/adapters/watcher/project_files.py) over a real
folder and watchdog: an edit of `.ideai/agents.json` in place, through a rename (as editors and
IdeA's own atomic writes do) or by deleting and recreating it is reported once per burst;
other files are not; a closed project is not."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.adapters.watcher.project_files import DEBOUNCE_S, ProjectFilesWatcher

pytestmark = pytest.mark.timeout(60)


class Reports:
    def __init__(self) -> None:
        self.roots: list[str] = []
        self._cond = threading.Condition()

    def changed(self, root: str) -> None:
        with self._cond:
            self.roots.append(root)
            self._cond.notify_all()

    def wait_for(self, count: int, timeout_s: float = 10) -> list[str]:
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while len(self.roots) < count and time.monotonic() < deadline:
                self._cond.wait(deadline - time.monotonic())
            return list(self.roots)


def test_edits_of_agents_json_are_reported_once_per_burst(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".ideai").mkdir(parents=True)
    agents = root / ".ideai" / "agents.json"
    agents.write_text('{"version": 1, "agents": []}\n')
    reports = Reports()
    watcher = ProjectFilesWatcher({"agents.json": reports.changed})
    try:
        watcher.open(str(root))
        with open(agents, "a") as f:  # in place, in several writes: one report
            for _ in range(5):
                f.write(" ")
                f.flush()
        assert reports.wait_for(1) == [str(root)]
        time.sleep(DEBOUNCE_S * 3)
        assert reports.roots == [str(root)]

        part = root / ".ideai" / ".agents.json.part"  # as an atomic write does
        part.write_text('{"version": 1, "agents": []}\n')
        os.replace(part, agents)
        assert reports.wait_for(2) == [str(root)] * 2

        agents.unlink()
        agents.write_text('{"version": 1, "agents": []}\n')
        assert len(reports.wait_for(3)) == 3
        time.sleep(DEBOUNCE_S * 3)
        seen = len(reports.roots)  # a loaded machine may take > DEBOUNCE_S between delete and write
        assert seen in (3, 4)

        (root / ".ideai" / "layouts.json").write_text("{}")  # no handler for it

        (root / ".ideai" / "agents").mkdir()
        (root / ".ideai" / "agents" / "agents.json").write_text("{}")  # not in .ideai/ itself
        time.sleep(DEBOUNCE_S * 4)
        assert len(reports.roots) == seen

        watcher.close(str(root))
        agents.write_text('{"version": 1, "agents": []}\n')
        time.sleep(DEBOUNCE_S * 4)
        assert len(reports.roots) == seen
    finally:
        watcher.close_all()


def test_a_timer_superseded_while_firing_leaves_the_report_to_its_successor(
        tmp_path: Path) -> None:
    """An old timer that fires just as a new event replaced it must not report, nor remove
    the new timer (which `close` could then no longer cancel)."""
    (tmp_path / ".ideai").mkdir()
    reports = Reports()
    watcher = ProjectFilesWatcher({"agents.json": reports.changed})
    try:
        watcher.open(str(tmp_path))
        watcher._burst(str(tmp_path), "agents.json")
        watcher._report(str(tmp_path), "agents.json")  # as the replaced timer's thread would
        assert reports.roots == []
        assert reports.wait_for(1) == [str(tmp_path)]  # the live timer still reports, once
        time.sleep(DEBOUNCE_S * 3)
        assert reports.roots == [str(tmp_path)]

        watcher._burst(str(tmp_path), "agents.json")
        watcher.close(str(tmp_path))  # the pending report is dropped
        time.sleep(DEBOUNCE_S * 3)
        assert reports.roots == [str(tmp_path)]
    finally:
        watcher.close_all()


def test_a_folder_without_ideai_is_not_watched(tmp_path: Path) -> None:
    watcher = ProjectFilesWatcher({"agents.json": lambda root: None})
    try:
        assert watcher.open(str(tmp_path)) is None
    finally:
        watcher.close_all()


def test_each_watched_file_goes_to_its_own_handler(tmp_path: Path) -> None:
    (tmp_path / ".ideai").mkdir()
    agents, permissions = Reports(), Reports()
    watcher = ProjectFilesWatcher({"agents.json": agents.changed,
                                   "permissions.json": permissions.changed})
    try:
        watcher.open(str(tmp_path))
        (tmp_path / ".ideai" / "permissions.json").write_text("{")
        assert permissions.wait_for(1) == [str(tmp_path)]
        time.sleep(DEBOUNCE_S * 3)
        assert agents.roots == []
    finally:
        watcher.close_all()


def test_persona_edits_are_reported_by_pattern_even_in_a_folder_made_after_open(
        tmp_path: Path) -> None:
    """`agents/*.md` (PERSONA_FILES) is matched relative to `.ideai/`: a persona written in an
    `agents/` folder created after the watch began is reported; deeper or other folders, and a
    file of the same name elsewhere, are not."""
    ideai = tmp_path / ".ideai"
    ideai.mkdir()
    personas, agents = Reports(), Reports()
    watcher = ProjectFilesWatcher({"agents/*.md": personas.changed, "agents.json": agents.changed})
    try:
        watcher.open(str(tmp_path))
        time.sleep(DEBOUNCE_S)
        (ideai / "agents").mkdir()
        time.sleep(DEBOUNCE_S)  # watchdog adds the new folder's watch
        (ideai / "agents" / "alpha.md").write_text("---\nipc: [\n---\n# Alpha\n")
        assert personas.wait_for(1) == [str(tmp_path)]
        time.sleep(DEBOUNCE_S * 3)
        assert personas.roots == [str(tmp_path)]

        (ideai / "agents" / "deeper").mkdir()
        (ideai / "agents" / "deeper" / "beta.md").write_text("# no")
        (ideai / "memory").mkdir()
        (ideai / "memory" / "note.md").write_text("# no")
        (ideai / "run").mkdir()
        (ideai / "run" / "agents.json").write_text("{}")
        time.sleep(DEBOUNCE_S * 4)
        assert personas.roots == [str(tmp_path)] and agents.roots == []
    finally:
        watcher.close_all()
