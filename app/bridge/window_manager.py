"""The bridge's window manager (ADR 013): every OS window of the process, one JS context each.

Each window has a `WindowDoor` (its js_api and push pump, subscribed to the event bus and fed
by the terminal views it attaches). The manager opens windows through a `WindowFactory` (the
pywebview adapter), keeps the workspace service's document in step with them (bounds, the
window that closed) and pushes `workspaceChanged` to every window after each change. A tab
dragged between windows is tracked here, because two JS contexts share no drag data: the source
window says `dragStart`, a window whose tab bar gets the drop says `dropTab`, and the source's
`dragEnd` outside every window opens a new window at the drop point. That point is where the
factory says the pointer is (`WindowFactory.pointer`), the page's only when it cannot tell: Qt
WebEngine gives `dragend` the last point the drag crossed the *source* page, never the drop's.
A drag that ends while the primary button is still held was cancelled (Escape): nothing opens
(`WindowFactory.primary_button_held`; Qt says "ignored" for a cancel and a drop on the desktop alike).

Moving a tab never touches a session: the source page disposes its views (no `projects.close`),
the destination opens the project (already open: same sessions) and attaches them with their
scrollback.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.bridge.window import WindowDoor, WindowPort
from app.core.domain.workspace import (
    Bounds,
    WorkspaceDoc,
    cascade,
    tab_labels,
    window_for_drop,
)
from app.core.errors import NOT_FOUND, AppError
from app.services import AppServices
from app.services.workspace import WorkspaceService

log = logging.getLogger(__name__)


class WindowHandle(Protocol):
    """One OS window as the manager drives it (the pywebview adapter implements it)."""

    def bounds(self) -> Bounds | None:
        """Where the window is now (None when unknown)."""
        ...

    def focus(self) -> None:
        """Bring it to the front."""
        ...

    def destroy(self) -> None:
        """Close it without asking (the manager already asked)."""
        ...


class WindowEvents(Protocol):
    """What a window reports to the manager (the adapter calls these)."""

    def closing(self, window_id: str) -> bool:
        """The user closes the window: True lets it close, False keeps it (the page asks)."""
        ...

    def closed(self, window_id: str) -> None: ...

    def moved(self, window_id: str, bounds: Bounds) -> None: ...


class WindowFactory(Protocol):
    """Opens OS windows (pywebview). `make_door(port)` builds the window's door over its port."""

    def open(self, window_id: str, bounds: Bounds | None,
             make_door: Callable[[WindowPort], WindowDoor], events: WindowEvents
             ) -> WindowHandle:
        ...

    def pointer(self) -> tuple[int, int] | None:
        """Where the mouse pointer is on the screen now (device-independent pixels, as
        `WindowHandle.bounds`); None when the toolkit cannot tell."""
        ...

    def screen_at(self, point: tuple[int, int]) -> Bounds | None:
        """The available area (without panels) of the screen showing `point`, or of the
        primary screen when none does; None when the toolkit cannot tell."""
        ...

    def primary_button_held(self) -> bool | None:
        """Whether the primary mouse button is held now; None when the toolkit cannot tell.
        A drag that ends with it held was cancelled (Escape): a drop is its release."""
        ...


DoorMaker = Callable[[str, WindowPort], WindowDoor]


@dataclass
class _Window:
    window_id: str
    door: WindowDoor | None = None
    handle: WindowHandle | None = None
    close_confirmed: bool = False
    keep: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Drag:
    root: str
    source: str


class WindowManager:
    """All windows of the app. Thread-safe (pywebview calls come on their own threads)."""

    def __init__(self, services: AppServices, workspace: WorkspaceService,
                 factory: WindowFactory, make_door: DoorMaker,
                 on_last_closed: Callable[[], None] = lambda: None) -> None:
        self._services, self._workspace, self._factory = services, workspace, factory
        self._make_door, self._on_last_closed = make_door, on_last_closed
        self._lock = threading.RLock()
        self._windows: dict[str, _Window] = {}
        self._drag: _Drag | None = None
        self._quitting = False
        workspace.listen(self._push_workspace)

    # ------------------------------------------------------------------ opening

    def open_saved(self, startup_projects: Sequence[str] = ()) -> list[str]:
        """Open the windows of the saved workspace (one empty window when there is none);
        `startup_projects` (`--project`) go in the first window. Returns the window ids."""
        doc = self._workspace.doc
        if not doc.windows:
            self._workspace.add_window()
            doc = self._workspace.doc
        first = doc.windows[0].id
        for root in startup_projects:
            if self._workspace.holder_of(root) is None:
                self._workspace.open_tab(first, root)
        ids = [w.id for w in self._workspace.doc.windows]
        for w in self._workspace.doc.windows:
            self._open(w.id, w.bounds)
        return ids

    def new_window(self, bounds: Bounds | None = None, roots: Sequence[str] = ()) -> str:
        """Open a new window (at `bounds` when given, else cascaded from the newest window)
        and move `roots`' tabs into it."""
        if bounds is None:
            bounds = cascade(self._newest_bounds())
        window_id = self._workspace.add_window(bounds)
        for root in roots:
            self._workspace.move_tab(root, window_id)
        self._open(window_id, bounds)
        return window_id

    def _newest_bounds(self) -> Bounds | None:
        """Where the most recently opened window is now (its handle), else as saved."""
        with self._lock:
            slots = list(self._windows.values())
        saved = {w.id: w.bounds for w in self._workspace.doc.windows}
        for slot in reversed(slots):
            found = slot.handle.bounds() if slot.handle is not None else None
            if (found := found or saved.get(slot.window_id)) is not None:
                return found
        return None

    def _open(self, window_id: str, bounds: Bounds | None) -> None:
        slot = _Window(window_id)
        with self._lock:
            self._windows[window_id] = slot

        def make(port: WindowPort) -> WindowDoor:
            slot.door = self._make_door(window_id, port)
            return slot.door

        slot.handle = self._factory.open(window_id, bounds, make, _Events(self))

    # ------------------------------------------------------------------ state for a page

    def state(self, window_id: str) -> dict[str, Any]:
        """`{windowId, windows: [{id, tabs: [root], activeRoot}], labels: {root: label}}`."""
        return {"windowId": window_id, **workspace_wire(self._workspace.doc)}

    # ------------------------------------------------------------------ tabs

    def place_tab(self, window_id: str, root: str) -> str:
        """The page of `window_id` opened `root`: its tab goes here, unless another window has
        it (that window is focused instead). Returns the id of the window showing it."""
        holder = self._workspace.holder_of(root)
        if holder is not None and holder != window_id and holder in self._windows:
            self._workspace.activate(holder, root)
            self._focus(holder)
            return holder
        if holder == window_id:
            self._workspace.activate(window_id, root)
        else:
            self._workspace.open_tab(window_id, root)
        return window_id

    def move_tab(self, root: str, window_id: str, index: int | None = None) -> None:
        self._workspace.move_tab(root, window_id, index)
        if window_id in self._windows:
            self._focus(window_id)

    def close_tab(self, root: str) -> None:
        self._workspace.close_tab(root)

    def activate(self, window_id: str, root: str | None) -> None:
        self._workspace.activate(window_id, root)

    def relocate(self, old_root: str, new_root: str) -> None:
        self._workspace.relocate(old_root, new_root)

    # ------------------------------------------------------------------ drag and drop

    def drag_start(self, window_id: str, root: str) -> None:
        with self._lock:
            self._drag = None  # whatever an earlier drag left pending is over
        if self._workspace.holder_of(root) is None:
            raise AppError(NOT_FOUND, f"{root} is in no tab", {"root": root})
        with self._lock:
            self._drag = _Drag(root, window_id)

    def drop_tab(self, window_id: str, slot: int | None) -> bool:
        """A tab bar of `window_id` got the drop at gap `slot` of its tabs as it shows them:
        the dragged tab lands there (`WorkspaceDoc.drop_tab`). False when nothing is being
        dragged."""
        with self._lock:
            drag, self._drag = self._drag, None
        if drag is None:
            return False
        self._workspace.drop_tab(drag.root, window_id, slot)
        if window_id in self._windows:
            self._focus(window_id)
        return True

    def drag_end(self, window_id: str, screen_x: int, screen_y: int) -> str | None:
        """The source's drag ended; the page says at (`screen_x`, `screen_y`), the pointer's
        position is used when the factory knows it. Outside every window the tab opens in a
        new window there; returns its id. Over a window, None: a tab bar there may have taken
        the drop, and its `dropTab` may come after this call (each js_api call runs on its own
        thread; the source page cannot tell either: Qt WebEngine's `dragend` `dropEffect` is
        the source page's own last answer, not the drop's), so the drag stays for it until
        the next `dragStart`. Already taken (`dropTab` first), or cancelled (the factory says
        the primary button is still held: Escape ended the drag, not a release): None."""
        with self._lock:
            drag = self._drag
            handles = [w.handle for w in self._windows.values() if w.handle is not None]
        if drag is None:
            return None
        if self._factory.primary_button_held():
            with self._lock:  # cancelled (Escape): no tab bar will take it, nothing opens
                if self._drag is drag:
                    self._drag = None
            return None
        point = self._factory.pointer() or (screen_x, screen_y)
        windows = [b for b in (h.bounds() for h in handles) if b is not None]
        source = self._workspace.doc.window(drag.source).bounds
        bounds = window_for_drop(point, windows,
                                 (source.width, source.height) if source else None,
                                 self._factory.screen_at(point))
        if bounds is None:
            return None
        with self._lock:
            if self._drag is not drag:  # a tab bar took it meanwhile
                return None
            self._drag = None
        return self.new_window(bounds, [drag.root])

    # ------------------------------------------------------------------ closing

    def request_close(self, window_id: str, keep: frozenset[str] = frozenset()) -> None:
        """The page confirmed (or had nothing to ask): close the window for real; the shells
        in `keep` stay running in the background."""
        with self._lock:
            slot = self._windows.get(window_id)
            if slot is None:
                return
            slot.close_confirmed, slot.keep = True, keep
            handle = slot.handle
        if handle is not None:
            handle.destroy()

    def quit(self) -> None:
        """Quit IdeA (the page asked about running agents first): record what to restore,
        then close every window."""
        with self._lock:
            self._quitting = True
            slots = list(self._windows.values())
        self._workspace.record_quit()
        for slot in slots:
            slot.close_confirmed = True
            if slot.handle is not None:
                slot.handle.destroy()

    def on_closing(self, window_id: str) -> bool:
        """Let the window close when the page confirmed; otherwise ask the page (an event)."""
        with self._lock:
            slot = self._windows.get(window_id)
            if slot is None or slot.close_confirmed or self._quitting:
                return True
            door = slot.door
            last = len(self._windows) == 1
        if door is None:
            return True
        door.pump.add_event({"type": "closeRequested", "windowId": window_id, "quit": last})
        return False

    def on_closed(self, window_id: str) -> None:
        with self._lock:
            slot = self._windows.pop(window_id, None)
            remaining = len(self._windows)
            quitting = self._quitting
        if slot is not None and slot.door is not None:
            slot.door.close()
        if remaining == 0:
            if not quitting:
                self._workspace.record_quit()
            self._on_last_closed()
            return
        if quitting:  # every window stays in the workspace for the next start
            return
        keep = slot.keep if slot is not None else frozenset()
        for root in self._workspace.remove_window(window_id):
            try:
                self._services.projects.close(root, keep)
            except AppError:
                log.debug("closing %s failed", root, exc_info=True)

    def on_moved(self, window_id: str, bounds: Bounds) -> None:
        self._workspace.set_bounds(window_id, bounds)

    # ------------------------------------------------------------------ internals

    def _focus(self, window_id: str) -> None:
        with self._lock:
            slot = self._windows.get(window_id)
        if slot is not None and slot.handle is not None:
            try:
                slot.handle.focus()
            except Exception:
                log.debug("focus failed", exc_info=True)

    def _push_workspace(self, doc: WorkspaceDoc) -> None:
        event = {"type": "workspaceChanged", **workspace_wire(doc)}
        with self._lock:
            doors = [w.door for w in self._windows.values() if w.door is not None]
        for door in doors:
            door.pump.add_event(event)

    def window_ids(self) -> list[str]:
        with self._lock:
            return list(self._windows)


class _Events:
    def __init__(self, manager: WindowManager) -> None:
        self._m = manager

    def closing(self, window_id: str) -> bool:
        return self._m.on_closing(window_id)

    def closed(self, window_id: str) -> None:
        self._m.on_closed(window_id)

    def moved(self, window_id: str, bounds: Bounds) -> None:
        self._m.on_moved(window_id, bounds)


def workspace_wire(doc: WorkspaceDoc) -> dict[str, Any]:
    """`{windows: [{id, tabs: [root], activeRoot}], labels: {root: label}}`."""
    roots = [t.root for w in doc.windows for t in w.tabs]
    return {"windows": [{"id": w.id, "tabs": w.roots(), "activeRoot": w.active_root}
                        for w in doc.windows],
            "labels": tab_labels(roots)}

