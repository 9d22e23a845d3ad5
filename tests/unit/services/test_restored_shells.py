"""A plain shell shown at quit comes back under its title (`bash 2` stays `bash 2`, even when
`bash 1` was closed before), in its folder, with its output (issue 9's restore, trial finding:
shells were renumbered after a restart)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from app.adapters.stores.workspace_store import JsonWorkspaceStore
from app.core.domain.layout_nodes import leaves
from app.core.domain.sessions import SessionRecord, TerminalChunk
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import TerminalOutputBus
from app.services.workspace import WorkspaceService
from tests.unit.fakes import FakeEventSink, FakeFileSystem, FakeProcessInspector
from tests.unit.project_states import state
from tests.unit.services.world import ROOT, world


def service(fs: FakeFileSystem, projects: OpenProjects) -> WorkspaceService:
    """The workspace service of one run, with `projects` open."""
    return WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(), projects,
                            TerminalOutputBus(), FakeProcessInspector({}))


def showing(root: str, session: str, *records: SessionRecord) -> OpenProjects:
    """Open projects: `root`, whose layout shows `session`."""
    projects = OpenProjects()
    projects.add(state(root, session, *records))
    return projects


def reopened(fs: FakeFileSystem, root: str, session: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A start whose `root` shows `session`: the shells it reopens, and the shells opened."""
    opened: list[tuple[Any, ...]] = []
    terminals = SimpleNamespace(open_shell=lambda *args: opened.append(args))
    ids = service(fs, showing(root, session)).restore_shells(root, terminals)  # type: ignore[arg-type]
    return ids, opened


def test_a_shell_shown_at_quit_is_reopened_under_its_title() -> None:
    fs = FakeFileSystem({"/data"})
    quitting = service(fs, showing("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2")))
    [kept] = quitting.record_quit().restored_shells
    assert (kept.session_id, kept.title, kept.cwd) == ("s2", "bash 2", "/w/alpha")
    assert reopened(fs, "/w/alpha", "s2") == (
        ["s2"], [("/w/alpha", "n1", 80, 24, "/w/alpha", "s2", "bash 2")])


def with_tabs(*roots: str) -> FakeFileSystem:
    """A data dir whose workspace has one window with a tab for each of `roots`."""
    fs = FakeFileSystem({"/data"})
    tabs = [{"root": r} for r in roots]
    fs.files["/data/workspace.json"] = json.dumps({"version": 1, "windows": [
        {"id": "w1", "tabs": tabs, "activeRoot": roots[0]}]})
    return fs


def test_a_start_whose_layouts_were_unreadable_does_not_lose_the_shells_to_reopen() -> None:
    # Trial finding: a start with a broken layouts.json reopened nothing, and its quit forgot
    # the shells, so fixing the file brought back empty "Session ended" cells.
    fs = with_tabs("/w/alpha")
    service(fs, showing("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2"))).record_quit()
    broken = showing("/w/alpha", "other")  # layouts.json unreadable: a fresh doc in memory
    [handle] = broken.handles()
    handle.state.layouts_broken = True
    during = service(fs, broken)
    nothing = SimpleNamespace(open_shell=lambda *args: None)
    assert during.restore_shells("/w/alpha", nothing) == []  # type: ignore[arg-type]
    assert [s.session_id for s in during.record_quit().restored_shells] == ["s2"]
    assert reopened(fs, "/w/alpha", "s2") == (
        ["s2"], [("/w/alpha", "n1", 80, 24, "/w/alpha", "s2", "bash 2")])


def test_a_shell_whose_cell_is_gone_or_whose_project_stayed_closed_is_handled_apart() -> None:
    fs = with_tabs("/w/alpha", "/w/beta")
    first = showing("/w/alpha", "s2", SessionRecord("s2", "shell", "bash 2"))
    first.add(state("/w/beta", "s7", SessionRecord("s7", "shell", "bash 1")))
    service(fs, first).record_quit()
    # Next run: alpha opens with readable layouts that no longer show s2; beta never opens.
    kept = service(fs, showing("/w/alpha", "s9")).record_quit()
    assert [s.session_id for s in kept.restored_shells] == ["s7"]  # beta's waits; s2 is gone


def test_a_restored_shells_output_keeps_the_sizes_it_was_produced_at() -> None:
    # Trial finding: a restored shell whose command line had wrapped at its old width showed
    # garbled lines: its saved bytes were replayed at the new cell's width (ADR 012).
    fs = FakeFileSystem({"/data"})
    bus = TerminalOutputBus()
    bus.sized("s2", 40, 10, from_start=True)
    bus.output(TerminalChunk("s2", 0, 6, "$ ls\r\n"))
    bus.sized("s2", 100, 30)
    bus.output(TerminalChunk("s2", 6, 10, "a b\n"))
    quitting = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(),
                                showing("/w/alpha", "s2", SessionRecord("s2", "shell", "bash")),
                                bus, FakeProcessInspector({}))
    [kept] = quitting.record_quit().restored_shells
    assert [(s.at, s.cols, s.rows) for s in kept.sizes] == [(0, 40, 10), (6, 100, 30)]

    again = TerminalOutputBus()
    started = WorkspaceService(JsonWorkspaceStore(fs, "/data"), FakeEventSink(),
                               showing("/w/alpha", "s2"), again, FakeProcessInspector({}))

    def open_shell(*_: Any) -> None:
        again.sized("s2", 80, 24, from_start=True)  # the new shell, as the PTY host says

    assert started.restore_shells("/w/alpha", SimpleNamespace(open_shell=open_shell)) == ["s2"]  # type: ignore[arg-type]
    snapshot = again.attach("s2", "v", lambda _: None)
    assert snapshot.scrollback.startswith("$ ls\r\na b\n")
    banner = len(snapshot.scrollback.encode("utf-16-le")) // 2
    assert [(m.at, m.cols, m.rows) for m in snapshot.sizes] == [
        (0, 40, 10), (6, 100, 30), (banner, 80, 24)]


def test_a_shell_reopens_in_a_layout_that_was_not_active_at_quit() -> None:
    # Trial finding: the shells of a named layout not active at quit came back as blank
    # "Session ended" cells: reopening a shell only looked for its cell in the active layout.
    w = world()
    w.s.projects.create(ROOT, "Demo")
    default = w.s.projects.view(ROOT).layouts
    assert default is not None
    w.s.layouts.edit(ROOT, {"kind": "createLayout", "name": "Work"})
    work = w.s.projects.view(ROOT).layouts
    assert work is not None and work.active_id != default.active_id
    cell = leaves(work.active.root)[0].id
    w.s.layouts.edit(ROOT, {"kind": "switchLayout", "layoutId": default.active_id})
    opened = w.s.terminals.open_shell(ROOT, cell, 80, 24, session_id="s-restored",
                                      title="bash 2")
    assert opened.session_id == "s-restored"
    assert opened.layouts.active_id == default.active_id  # the active layout stays
    shown = {lay.id: [leaf.session for leaf in leaves(lay.root)] for lay in opened.layouts.layouts}
    assert shown[work.active_id] == ["s-restored"]


def test_a_relocated_project_gets_back_the_shells_and_agents_its_old_folder_had_at_quit() -> None:
    # Trial finding: relocating a project whose folder went missing lost its saved shell: the
    # quit's record still named the old folder, so the new one reopened nothing.
    fs = with_tabs("/w/alpha")
    doc = json.loads(fs.files["/data/workspace.json"])
    doc["restoredShells"] = [{"root": "/w/alpha", "sessionId": "s2", "cwd": "/w/alpha/src",
                              "title": "bash 2"},
                             {"root": "/w/other", "sessionId": "s5", "cwd": "/w/alpha/src"}]
    doc["agentsRunningAtQuit"] = [{"root": "/w/alpha", "agentId": "a1"}]
    fs.files["/data/workspace.json"] = json.dumps(doc)
    started = service(fs, showing("/w/moved", "s2"))
    started.relocate("/w/alpha", "/w/moved")
    opened: list[tuple[Any, ...]] = []
    terminals = SimpleNamespace(open_shell=lambda *args: opened.append(args))
    assert started.restore_shells("/w/moved", terminals) == ["s2"]  # type: ignore[arg-type]
    assert opened == [("/w/moved", "n1", 80, 24, "/w/moved/src", "s2", "bash 2")]
    assert started.was_running("/w/moved", "a1") and not started.was_running("/w/alpha", "a1")
    assert started.restored_shells["s5"].cwd == "/w/alpha/src"  # another project's: untouched
