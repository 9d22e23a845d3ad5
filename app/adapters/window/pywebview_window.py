"""The desktop window over pywebview (Qt WebEngine on Linux, WebView2 on Windows).

`PywebviewWindow` implements the bridge's `WindowPort` (post a script, pick a folder) for one
`webview.Window`; `PywebviewWindows` creates them, hands each door its js_api and runs the GUI
loop.
pywebview is imported lazily so `--version`/`--help` and the subcommands stay GUI-free.

`post_script(script, done)` never waits (ADR 008). On Qt it goes through pywebview's own
queued signal (`BrowserView.evaluate_js_trigger`, `webview/platforms/qt.py`), which keeps
emission order, and registers a result slot whose `release()` — called by pywebview on the GUI
thread once `runJavaScript` ran the script — calls `done`: the blocking semaphore wait of
`run_js` is what is removed, nothing of Qt is touched here. Elsewhere (or should pywebview's
internals change) one poster thread runs the scripts in order with the blocking `run_js`.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from app.core.domain.workspace import Bounds

if TYPE_CHECKING:
    from app.adapters.window.x11_pointer import X11Pointer

log = logging.getLogger(__name__)
T = TypeVar("T")
#: How long a window outlives the call that destroyed it (s): enough for the call's answer.
DESTROY_DELAY_S = 0.25


class _Events(Protocol):
    def closing(self, window_id: str) -> bool: ...

    def closed(self, window_id: str) -> None: ...

    def moved(self, window_id: str, bounds: Bounds) -> None: ...


class _Confirm:
    """Stands in for pywebview's result semaphore: its `release()` means "the script ran"."""

    def __init__(self, results: dict[str, Any], key: str, done: Callable[[], None]) -> None:
        self._results, self._key, self._done = results, key, done

    def release(self) -> None:
        self._results.pop(self._key, None)
        try:
            self._done()
        except Exception:
            log.exception("push completion failed")


class _Door(Protocol):
    @property
    def api(self) -> object: ...

    def close(self) -> None: ...


class PywebviewWindow:
    """`WindowPort` of one pywebview window (the window itself exists once `PywebviewWindows.open` ran)."""

    def __init__(self) -> None:
        self.window: Any = None
        self._fallback: queue.SimpleQueue[tuple[str, Callable[[], None]]] | None = None
        self._lock = threading.Lock()
        self._told = False

    def post_script(self, script: str, done: Callable[[], None]) -> None:
        """Hand `script` to the page without waiting; `done()` is called (on the GUI thread,
        or the poster thread) once it ran. Scripts run in the order they were posted."""
        view = self._qt_view()
        if not self._told:
            self._told = True
            log.info("window pushes: %s", "pipelined through pywebview's Qt signal" if view
                     is not None else "one at a time through a poster thread")
        if view is not None:
            key = uuid.uuid4().hex
            results = view._js_results
            results[key] = {"semaphore": _Confirm(results, key, done), "result": "",
                            "parse_json": False}
            view.evaluate_js_trigger.emit(script, key)
            return
        self._poster().put((script, done))

    def _qt_view(self) -> Any:
        """pywebview's Qt `BrowserView` of this window, when the Qt backend runs it and has the
        queued-signal internals this adapter relies on (pywebview 5–6); else None."""
        qt = sys.modules.get("webview.platforms.qt")
        if qt is None or self.window is None:
            return None
        view = getattr(qt, "BrowserView", None)
        instance = getattr(view, "instances", {}).get(getattr(self.window, "uid", None))
        if instance is None or not hasattr(instance, "evaluate_js_trigger") \
                or not isinstance(getattr(instance, "_js_results", None), dict):
            return None
        return instance

    def _poster(self) -> queue.SimpleQueue[tuple[str, Callable[[], None]]]:
        with self._lock:
            if self._fallback is None:
                self._fallback = queue.SimpleQueue()
                threading.Thread(target=self._post_loop, args=(self._fallback,),
                                 name="idea-window-poster", daemon=True).start()
            return self._fallback

    def _post_loop(self, scripts: queue.SimpleQueue[tuple[str, Callable[[], None]]]) -> None:
        while True:
            script, done = scripts.get()
            try:
                self.run_script(script)
            except Exception:
                log.exception("script failed in the window")
            finally:
                done()

    def run_script(self, script: str) -> None:
        """Run `script` in the page and wait until it ran.

        `run_js` hands the script to the engine as is; `evaluate_js` would escape it and wrap
        it in eval() plus result serialisation, which costs tens of ms on a 128 KiB batch.
        Blocks until the GUI thread ran it: never call it from the GUI thread.
        """
        self.window.run_js(script)

    def pick_folder(self) -> str | None:
        """The native folder dialog; None when cancelled."""
        import webview

        chosen = self.window.create_file_dialog(webview.FileDialog.FOLDER)
        return str(chosen[0]) if chosen else None


def _from_qt(read: Callable[[], T], what: str) -> T | None:
    """`read()` when pywebview runs on Qt, else None; None too when Qt fails (logged at debug
    level: `what` is then unknown)."""
    if sys.modules.get("webview.platforms.qt") is None:
        return None
    try:
        return read()
    except Exception:  # noqa: BLE001 - no Qt application, no screen: unknown
        log.debug("%s unknown", what, exc_info=True)
        return None


class PywebviewWindows:
    """The bridge's `WindowFactory` over pywebview: `open` creates a `webview.Window` (before
    or after `webview.start`, from any thread) with its door's js_api and reports its closing,
    closed and moved events. `start()` runs the GUI loop until the last window closed."""

    def __init__(self, url: str, title: str = "IdeA") -> None:
        from app.adapters.window import chromium_memory, software_gl

        if sys.platform.startswith("linux") and software_gl.apply(os.environ):
            log.info("no GPU render node: Qt composites in software (QT_QUICK_BACKEND=software)")
        if sys.platform.startswith("linux"):
            added = chromium_memory.apply(os.environ)  # Qt WebEngine reads them at start (ADR 016)
            if added:
                log.info("Chromium memory flags: %s", " ".join(added))
        self._url, self._title = url, title
        self._x11: X11Pointer | None = None

    def open(self, window_id: str, bounds: Bounds | None,
             make_door: Callable[[PywebviewWindow], _Door], events: _Events) -> _Handle:
        import webview

        port = PywebviewWindow()
        door = make_door(port)
        geometry: dict[str, Any] = {"width": 1400, "height": 900}
        if bounds is not None:
            geometry = {"x": bounds.x, "y": bounds.y, "width": bounds.width,
                        "height": bounds.height}
        window = webview.create_window(self._title, url=self._url, js_api=door.api,
                                       min_size=(640, 400), text_select=False, **geometry)
        if window is None:
            raise RuntimeError("pywebview did not create the window")
        port.window = window
        handle = _Handle(window)

        def closing() -> bool:
            return bool(events.closing(window_id))

        window.events.closing += closing
        window.events.closed += lambda: events.closed(window_id)

        def moved(*_: Any) -> None:
            found = handle.bounds()
            if found is not None:
                events.moved(window_id, found)

        window.events.moved += moved
        window.events.resized += moved
        return handle

    def pointer(self) -> tuple[int, int] | None:
        """Where the mouse pointer is now, from Qt (`QCursor.pos()`, logical pixels like the
        windows' bounds); None off Qt. A tab dropped outside every window opens a new one
        there: Qt WebEngine's `dragend` only has the last point the drag crossed its own page
        (`WebContentsAdapter::startDragging` hands Chromium `m_lastDragScreenPos`, set by that
        page's drag moves), never the drop point. Read from a js_api thread, as pywebview
        reads the windows' geometry; on X11 it is one `xcb_query_pointer` round trip."""

        def read() -> tuple[int, int]:
            from qtpy.QtGui import QCursor

            at = QCursor.pos()
            return int(at.x()), int(at.y())

        return _from_qt(read, "pointer position")  # unknown: the page's point is used

    def screen_at(self, point: tuple[int, int]) -> Bounds | None:
        """The available geometry of the screen showing `point` (Qt's
        `QGuiApplication.screenAt`, else the primary screen), logical pixels like the windows'
        bounds; None off Qt. Read from a js_api thread, as pywebview reads the screens."""

        def read() -> Bounds | None:
            from qtpy.QtCore import QPoint
            from qtpy.QtGui import QGuiApplication

            screen = QGuiApplication.screenAt(QPoint(*point)) or QGuiApplication.primaryScreen()
            if screen is None:
                return None
            area = screen.availableGeometry()
            return Bounds(x=area.x(), y=area.y(), width=area.width(), height=area.height())

        return _from_qt(read, "screen")  # unknown: the window is not kept on one

    def primary_button_held(self) -> bool | None:
        """Whether the primary mouse button is held now; None when unknown. A tab drag that
        ends with it held was cancelled (Escape), not dropped. Asked of the X server
        (`x11_pointer`) when Qt runs on xcb; None elsewhere (Wayland, Windows: such a cancel
        outside every window still opens one there)."""

        def platform() -> str:
            from qtpy.QtGui import QGuiApplication

            return str(QGuiApplication.platformName())

        if _from_qt(platform, "platform") != "xcb":
            return None
        if self._x11 is None:
            from app.adapters.window.x11_pointer import X11Pointer

            self._x11 = X11Pointer()
        return self._x11.primary_held()

    def start(self) -> None:
        """Run the GUI loop (blocks until every window closed)."""
        import webview

        from app.adapters.window import qt_permissions

        if sys.platform.startswith("linux"):
            qt_permissions.install()  # before the loop: pywebview's handler aborts on clipboard use
        # Private mode: each window gets its own in-memory profile. pywebview 6.2.1's Qt backend
        # makes a new `QWebEngineProfile('pywebview')` per window on one storage path
        # (`webview/platforms/qt.py`, `BrowserView.__init__`); two such profiles in one process
        # stall every page's module script (both windows stay blank at readyState
        # "interactive"). IdeA's page keeps nothing in browser storage (ADR 014).
        webview.start(gui="qt" if sys.platform.startswith("linux") else None,
                      http_server=False, private_mode=True)


class _Handle:
    """The manager's `WindowHandle` of one `webview.Window`."""

    def __init__(self, window: Any) -> None:
        self._window = window

    def bounds(self) -> Bounds | None:
        try:
            x, y = int(self._window.x), int(self._window.y)
            width, height = int(self._window.width), int(self._window.height)
        except (TypeError, AttributeError):
            return None
        if width <= 0 or height <= 0:
            return None
        return Bounds(x=x, y=y, width=width, height=height)

    def focus(self) -> None:
        """Best effort: un-minimise it (pywebview has no portable "raise" call)."""
        self._window.restore()

    def destroy(self) -> None:
        """Destroy the window a moment later, from a daemon thread: a js_api call that asked
        for it (`windows.quit`, `windows.close`) first returns to its page. pywebview answers
        each call with a blocking `evaluate_js` from a non-daemon thread
        (`webview/util.py`, `js_bridge_call`); a window destroyed before that answer leaves the
        thread waiting on a page that is gone, and the process cannot exit."""
        timer = threading.Timer(DESTROY_DELAY_S, self._window.destroy)
        timer.daemon = True
        timer.start()
