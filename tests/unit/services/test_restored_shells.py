"""A plain shell shown at quit comes back under its title (`bash 2` stays `bash 2`, even when
`bash 1` was closed before), in its folder, with its output (issue 9's restore, trial finding:
shells were renumbered after a restart)."""

from __future__ import annotations

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
