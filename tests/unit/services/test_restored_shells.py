"""A plain shell shown at quit comes back under its title (`bash 2` stays `bash 2`, even when
`bash 1` was closed before), in its folder, with its output (issue 9's restore, trial finding:
shells were renumbered after a restart)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from app.adapters.stores.workspace_store import JsonWorkspaceStore
from app.core.domain.sessions import SessionRecord
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import TerminalOutputBus
from app.services.workspace import WorkspaceService
from tests.unit.fakes import FakeEventSink, FakeFileSystem, FakeProcessInspector
from tests.unit.project_states import state


def test_a_shell_shown_at_quit_is_reopened_under_its_title() -> None:
    fs = FakeFileSystem({"/data"})
    projects = OpenProjects()
    projects.add(state("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2")))
    quitting = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), projects,
                                TerminalOutputBus(), FakeProcessInspector({}))
    [kept] = quitting.record_quit().restored_shells
    assert (kept.session_id, kept.title, kept.cwd) == ("s2", "bash 2", "/w/alpha")

    again = OpenProjects()
    again.add(state("/w/alpha", "s2"))
    opened: list[tuple[Any, ...]] = []
    terminals = SimpleNamespace(open_shell=lambda *args: opened.append(args))
    restarted = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), again,
                                 TerminalOutputBus(), FakeProcessInspector({}))
    assert restarted.restore_shells("/w/alpha", terminals) == ["s2"]  # type: ignore[arg-type]
    assert opened == [("/w/alpha", "n1", 80, 24, "/w/alpha", "s2", "bash 2")]


def with_tabs(*roots: str) -> FakeFileSystem:
    """A data dir whose workspace has one window with a tab for each of `roots`."""
    fs = FakeFileSystem({"/data"})
    tabs = [{"root": r} for r in roots]
    fs.files["/data/workspace.json"] = json.dumps({"version": 1, "windows": [
        {"id": "w1", "tabs": tabs, "activeRoot": roots[0]}]})
    return fs


def quit_and_restart(fs: FakeFileSystem, projects: OpenProjects) -> WorkspaceService:
    """A quit with `projects` open, and the service of the next start."""
    WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), projects,
                     TerminalOutputBus(), FakeProcessInspector({})).record_quit()
    return WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), OpenProjects(),
                            TerminalOutputBus(), FakeProcessInspector({}))


def test_a_start_whose_layouts_were_unreadable_does_not_lose_the_shells_to_reopen() -> None:
    # Trial finding: a start with a broken layouts.json reopened nothing, and its quit forgot
    # the shells, so fixing the file brought back empty "Session ended" cells.
    fs = with_tabs("/w/alpha")
    first = OpenProjects()
    first.add(state("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2")))
    quit_and_restart(fs, first)
    broken = OpenProjects()
    unreadable = state("/w/alpha", "other")  # layouts.json unreadable: a fresh doc in memory
    unreadable.layouts_broken = True
    broken.add(unreadable)
    during = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), broken,
                              TerminalOutputBus(), FakeProcessInspector({}))
    nothing = SimpleNamespace(open_shell=lambda *args: None)
    assert during.restore_shells("/w/alpha", nothing) == []  # type: ignore[arg-type]
    assert [s.session_id for s in during.record_quit().restored_shells] == ["s2"]

    fixed = OpenProjects()
    fixed.add(state("/w/alpha", "s2"))
    opened: list[tuple[Any, ...]] = []
    terminals = SimpleNamespace(open_shell=lambda *args: opened.append(args))
    after = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), fixed,
                             TerminalOutputBus(), FakeProcessInspector({}))
    assert after.restore_shells("/w/alpha", terminals) == ["s2"]  # type: ignore[arg-type]
    assert opened == [("/w/alpha", "n1", 80, 24, "/w/alpha", "s2", "bash 2")]


def test_a_shell_whose_cell_is_gone_or_whose_project_stayed_closed_is_handled_apart() -> None:
    fs = with_tabs("/w/alpha", "/w/beta")
    first = OpenProjects()
    first.add(state("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2")))
    first.add(state("/w/beta", "s7", SessionRecord("s7", "shell", "bash 1")))
    quit_and_restart(fs, first)
    # Next run: alpha opens with readable layouts that no longer show s2; beta never opens.
    moved_on = OpenProjects()
    moved_on.add(state("/w/alpha", "s9"))
    kept = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), moved_on,
                            TerminalOutputBus(), FakeProcessInspector({})).record_quit()
    assert [s.session_id for s in kept.restored_shells] == ["s7"]  # beta's waits; s2 is gone
