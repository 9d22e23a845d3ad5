"""The window manager over a fake window factory (issue 9): windows of the saved workspace
open at start, a tab dragged to another window's tab bar moves there, one dropped outside
every window opens a new window at the drop point, closing asks the page first, and the
workspace is saved after each change (never over a file it could not read)."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from app.adapters.stores.workspace_store import JsonWorkspaceStore
from app.bridge.window_manager import WindowManager
from app.core.domain.workspace import Bounds, WorkspaceDoc
from app.core.errors import CORRUPT_FILE, AppError
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import TerminalOutputBus
from app.services.workspace import WorkspaceService
from tests.unit.fakes import FakeEventSink, FakeFileSystem

DATA = "/data"


class FakePump:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def add_event(self, event: dict[str, Any], session_id: str | None = None) -> None:
        self.events.append(event)


class FakeDoor:
    def __init__(self, window_id: str) -> None:
        self.window_id, self.pump, self.closed = window_id, FakePump(), False

    def close(self) -> None:
        self.closed = True


class FakeHandle:
    def __init__(self, bounds: Bounds | None) -> None:
        self._bounds = bounds or Bounds(x=0, y=0, width=1000, height=700)
        self.destroyed = self.focused = False

    def bounds(self) -> Bounds:
        return self._bounds

    def focus(self) -> None:
        self.focused = True

    def destroy(self) -> None:
        self.destroyed = True


class FakeFactory:
    def __init__(self) -> None:
        self.opened: dict[str, tuple[FakeHandle, FakeDoor, Any]] = {}
        self.at: tuple[int, int] | None = None  # the pointer, when the toolkit tells
        self.held: bool | None = None  # the primary button, when the toolkit tells
        self.screen: Bounds | None = None  # the screen's available area, when it tells

    def pointer(self) -> tuple[int, int] | None:
        return self.at

    def primary_button_held(self) -> bool | None:
        return self.held

    def screen_at(self, point: tuple[int, int]) -> Bounds | None:
        return self.screen

    def open(self, window_id: str, bounds: Bounds | None, make_door: Callable[[Any], Any],
             events: Any) -> FakeHandle:
        handle = FakeHandle(bounds)
        door = make_door(object())
        self.opened[window_id] = (handle, door, events)
        return handle


def world(fs: FakeFileSystem | None = None) -> tuple[WindowManager, FakeFactory, WorkspaceService,
                                                     list[tuple[str, frozenset[str]]], FakeFileSystem]:
    fs = fs or FakeFileSystem({DATA})
    events = FakeEventSink()
    service = WorkspaceService(JsonWorkspaceStore(fs, DATA), events, OpenProjects(),
                               TerminalOutputBus(), None)
    closed: list[tuple[str, frozenset[str]]] = []
    services = SimpleNamespace(projects=SimpleNamespace(
        close=lambda root, keep=frozenset(): closed.append((root, keep))))
    factory = FakeFactory()
    manager = WindowManager(services, service, factory,  # type: ignore[arg-type]
                            lambda wid, port: FakeDoor(wid))  # type: ignore[arg-type,return-value]
    return manager, factory, service, closed, fs


def saved(fs: FakeFileSystem) -> dict[str, Any]:
    return dict(json.loads(fs.files[f"{DATA}/workspace.json"]))


def test_start_opens_one_window_with_the_command_line_projects_and_saves() -> None:
    manager, factory, _, _, fs = world()
    assert manager.open_saved(["/p/a", "/p/b"]) == ["w1"]
    assert saved(fs)["windows"] == [{"id": "w1", "tabs": [{"root": "/p/a"}, {"root": "/p/b"}],
                                     "activeRoot": "/p/b"}]
    assert list(factory.opened) == ["w1"]


def test_saved_windows_reopen_at_their_bounds() -> None:
    fs = FakeFileSystem({DATA})
    doc = WorkspaceDoc().with_window("w1", Bounds(x=1, y=2, width=900, height=600)) \
        .with_window("w2", Bounds(x=950, y=2, width=700, height=600)).open_tab("w2", "/p/c")
    fs.files[f"{DATA}/workspace.json"] = json.dumps(doc.to_json())
    manager, factory, _, _, _ = world(fs)
    assert manager.open_saved() == ["w1", "w2"]
    assert factory.opened["w2"][0].bounds() == Bounds(x=950, y=2, width=700, height=600)


def test_a_tab_dropped_on_another_window_moves_there_and_every_window_hears_it() -> None:
    manager, factory, service, _, fs = world()
    manager.open_saved(["/p/a", "/p/b"])
    w2 = manager.new_window(Bounds(x=1200, y=0, width=600, height=500))
    manager.drag_start("w1", "/p/a")
    assert manager.drop_tab(w2, 0) is True
    assert service.doc.window("w1").roots() == ["/p/b"]
    assert service.doc.window(w2).roots() == ["/p/a"]
    assert saved(fs)["windows"][1]["tabs"] == [{"root": "/p/a"}]
    for wid in ("w1", w2):
        last = factory.opened[wid][1].pump.events[-1]
        assert last["type"] == "workspaceChanged"
        assert last["windows"][1]["tabs"] == ["/p/a"]
    assert manager.drop_tab(w2, 0) is False  # nothing dragged any more


def test_a_tab_dropped_outside_every_window_opens_a_new_window_there() -> None:
    manager, factory, service, _, _ = world()
    manager.open_saved(["/p/a", "/p/b"])
    manager.drag_start("w1", "/p/b")
    assert manager.drag_end("w1", 500, 300) is None  # inside w1 (0,0 1000x700): nothing
    assert service.doc.window("w1").roots() == ["/p/a", "/p/b"]
    manager.drag_start("w1", "/p/b")
    new = manager.drag_end("w1", 1500, 900)
    assert new == "w2"
    assert service.doc.window("w2").roots() == ["/p/b"]
    bounds = service.doc.window("w2").bounds
    assert bounds is not None and (bounds.x, bounds.y) == (1420, 884)


def test_the_drop_point_is_the_pointer_s_when_the_toolkit_knows_it() -> None:
    # Qt WebEngine's dragend says where the drag last crossed the source page (inside it).
    manager, factory, service, _, _ = world()
    manager.open_saved(["/p/a", "/p/b"])
    factory.at = (1500, 900)
    manager.drag_start("w1", "/p/b")
    assert manager.drag_end("w1", 990, 300) == "w2"
    bounds = service.doc.window("w2").bounds
    assert bounds is not None and (bounds.x, bounds.y) == (1420, 884)
    factory.at = (500, 300)  # the pointer is on w1: nothing, whatever the page said
    manager.drag_start("w1", "/p/a")
    assert manager.drag_end("w1", 1500, 900) is None
    assert service.doc.window("w1").roots() == ["/p/a"]


def test_a_drag_cancelled_outside_every_window_opens_nothing() -> None:
    manager, factory, service, _, _ = world()
    manager.open_saved(["/p/a", "/p/b"])
    manager.drag_start("w1", "/p/b")
    factory.held = True  # Escape ended the drag: the button is still down
    assert manager.drag_end("w1", 1500, 900) is None
    assert list(factory.opened) == ["w1"]
    assert service.doc.window("w1").roots() == ["/p/a", "/p/b"]
    assert manager.drop_tab("w1", 0) is False  # the drag is over
    factory.held = False  # released outside: a drop, as before
    manager.drag_start("w1", "/p/b")
    assert manager.drag_end("w1", 1500, 900) == "w2"


def test_the_source_s_drag_end_may_come_before_the_target_s_drop() -> None:
    # Each js_api call runs on its own thread: the source's dragEnd (pointer over w2) can be
    # handled before w2's dropTab, which must still find the drag.
    manager, factory, service, _, _ = world()
    manager.open_saved(["/p/a", "/p/b"])
    w2 = manager.new_window(Bounds(x=1200, y=0, width=600, height=500))
    factory.at = (1300, 20)
    manager.drag_start("w1", "/p/a")
    assert manager.drag_end("w1", 990, 20) is None
    assert manager.drop_tab(w2, 0) is True
    assert service.doc.window(w2).roots() == ["/p/a"]
    manager.drag_start("w1", "/p/b")  # the other order: taken first, then the end is a no-op
    assert manager.drop_tab(w2, 1) is True
    assert manager.drag_end("w1", 990, 20) is None
    assert service.doc.window(w2).roots() == ["/p/a", "/p/b"]
    assert [w.id for w in service.doc.windows] == ["w1", w2]


def test_a_tab_dropped_on_its_own_bar_lands_in_the_gap_it_was_dropped_in() -> None:
    manager, _, service, _, _ = world()
    manager.open_saved(["/p/a", "/p/b", "/p/c"])
    manager.drag_start("w1", "/p/a")
    assert manager.drop_tab("w1", 3) is True  # after the last tab
    assert service.doc.window("w1").roots() == ["/p/b", "/p/c", "/p/a"]
    manager.drag_start("w1", "/p/a")
    assert manager.drop_tab("w1", 2) is True  # its own gap: no change
    assert service.doc.window("w1").roots() == ["/p/b", "/p/c", "/p/a"]
    manager.drag_start("w1", "/p/a")
    assert manager.drop_tab("w1", 0) is True
    assert service.doc.window("w1").roots() == ["/p/a", "/p/b", "/p/c"]


def test_a_new_window_without_a_place_opens_down_and_right_of_the_newest_one() -> None:
    manager, factory, service, _, _ = world()
    manager.open_saved(["/p/a"])
    first = factory.opened["w1"][0].bounds()
    w2 = manager.new_window()
    placed = service.doc.window(w2).bounds
    assert placed is not None and (placed.x, placed.y) == (first.x + 32, first.y + 32)
    assert (placed.width, placed.height) == (first.width, first.height)
    w3 = manager.new_window()
    third = service.doc.window(w3).bounds
    assert third is not None and (third.x, third.y) == (first.x + 64, first.y + 64)


def test_closing_asks_the_page_then_closes_its_projects_keeping_what_the_user_kept() -> None:
    manager, factory, service, closed, _ = world()
    manager.open_saved(["/p/a"])
    w2 = manager.new_window(roots=["/p/a"])
    handle, door, events = factory.opened[w2]
    assert events.closing(w2) is False
    assert door.pump.events[-1] == {"type": "closeRequested", "windowId": w2, "quit": False}
    manager.request_close(w2, frozenset({"s1"}))
    assert handle.destroyed and events.closing(w2) is True
    events.closed(w2)
    assert closed == [("/p/a", frozenset({"s1"}))]
    assert [w.id for w in service.doc.windows] == ["w1"] and door.closed


def test_the_last_window_closing_keeps_the_workspace_for_the_next_start() -> None:
    quit_calls: list[int] = []
    manager, factory, service, closed, fs = world()
    manager._on_last_closed = lambda: quit_calls.append(1)  # noqa: SLF001
    manager.open_saved(["/p/a"])
    _, _, events = factory.opened["w1"]
    manager.request_close("w1")
    events.closed("w1")
    assert closed == [] and quit_calls == [1]
    assert saved(fs)["windows"][0]["tabs"] == [{"root": "/p/a"}]


def test_quitting_keeps_every_window_for_the_next_start() -> None:
    quit_calls: list[int] = []
    manager, factory, service, closed, fs = world()
    manager._on_last_closed = lambda: quit_calls.append(1)  # noqa: SLF001
    manager.open_saved(["/p/a", "/p/b"])
    w2 = manager.new_window(roots=["/p/b"])  # /p/b moves to a second window
    manager.quit()
    for window_id in ("w1", w2):  # the GUI closes them one after the other
        handle, _, events = factory.opened[window_id]
        assert handle.destroyed and events.closing(window_id) is True
        events.closed(window_id)
    assert quit_calls == [1] and closed == []
    assert [[t["root"] for t in w["tabs"]] for w in saved(fs)["windows"]] == [["/p/a"], ["/p/b"]]


def test_a_corrupt_workspace_is_reported_and_never_overwritten() -> None:
    fs = FakeFileSystem({DATA})
    fs.files[f"{DATA}/workspace.json"] = '{"version": 1, "windows": [{"tabs": 3}]}'
    manager, _, service, _, _ = world(fs)
    assert service.problems and service.problems[0].code == CORRUPT_FILE
    manager.open_saved(["/p/a"])
    assert fs.files[f"{DATA}/workspace.json"] == '{"version": 1, "windows": [{"tabs": 3}]}'
    assert service.doc.window("w1").roots() == ["/p/a"]  # works in memory


def test_drag_of_a_project_in_no_tab_is_refused() -> None:
    manager, _, _, _, _ = world()
    manager.open_saved()
    with pytest.raises(AppError):
        manager.drag_start("w1", "/nowhere")
