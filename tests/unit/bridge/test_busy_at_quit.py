"""Quitting asks about every busy shell of the app (issue 9 item 2): `windows.busyAtQuit`
names the plain shells of every open project, shown in a cell or detached, whose terminal
runs a foreground process other than the shell; idle shells, ended ones and agents are not
named."""

from __future__ import annotations

from types import SimpleNamespace

from app.adapters.stores.workspace_store import JsonWorkspaceStore
from app.bridge.windows_api import WindowsApi
from app.core.domain.sessions import SessionRecord
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import TerminalOutputBus
from app.services.workspace import WorkspaceService
from tests.unit.fakes import FakeEventSink, FakeFileSystem, FakeProcessInspector
from tests.unit.project_states import state


def test_busy_shells_of_every_project_shown_or_detached_are_named_at_quit() -> None:

    projects = OpenProjects()
    projects.add(state("/w/alpha", "s1",
                       SessionRecord("s1", "shell", "bash 1"),
                       SessionRecord("s2", "shell", "bash 2"),
                       SessionRecord("s3", "shell", "bash 3"),
                       SessionRecord("s4", "shell", "bash 4", alive=False),
                       SessionRecord("a1", "agent", "Alpha", agent_id="alpha")))
    projects.add(state("/w/beta", "none", SessionRecord("s5", "shell", "bash 1")))
    inspector = FakeProcessInspector({"s1": "sleep", "s2": "sleep", "s4": "vim", "a1": "node",
                              "s5": "top"})
    workspace = WorkspaceService(JsonWorkspaceStore(FakeFileSystem({"/data"}), "/data"),
                                 FakeEventSink(), projects, TerminalOutputBus(), inspector)
    api = WindowsApi("w1", SimpleNamespace(), SimpleNamespace(),  # type: ignore[arg-type]
                     workspace, inspector)

    reply = api.busyAtQuit()

    assert reply == {"ok": [
        {"root": "/w/alpha", "sessionId": "s1", "title": "bash 1", "process": "sleep",
         "background": False},
        {"root": "/w/alpha", "sessionId": "s2", "title": "bash 2", "process": "sleep",
         "background": True},
        {"root": "/w/beta", "sessionId": "s5", "title": "bash 1", "process": "top",
         "background": True},
    ]}


def test_without_an_inspector_nothing_is_named() -> None:
    api = WindowsApi("w1", SimpleNamespace(), SimpleNamespace(),  # type: ignore[arg-type]
                     SimpleNamespace(), None)  # type: ignore[arg-type]
    assert api.busyAtQuit() == {"ok": []}
