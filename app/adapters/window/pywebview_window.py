"""The desktop window over pywebview (Qt WebEngine on Linux, WebView2 on Windows).

`PywebviewWindow` implements the bridge's `WindowPort` (run a script, pick a folder) for one
`webview.Window`; `run_window` creates it, hands the door its js_api and runs the GUI loop.
pywebview is imported lazily so `--version`/`--help` and the subcommands stay GUI-free.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Protocol

from app.core.domain.workspace import Bounds


class _Events(Protocol):
    def closing(self, window_id: str) -> bool: ...

    def closed(self, window_id: str) -> None: ...

    def moved(self, window_id: str, bounds: Bounds) -> None: ...


class _Door(Protocol):
    @property
    def api(self) -> object: ...

    def close(self) -> None: ...


class PywebviewWindow:
    """`WindowPort` of one pywebview window (the window itself exists once `run_window` ran)."""

    def __init__(self) -> None:
        self.window: Any = None

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


def run_window(make_door: Callable[[PywebviewWindow], _Door], url: str, storage_path: str,
               title: str = "IdeA") -> None:
    """Create the main window on `url`, wire its door and block until it is closed.

    `storage_path` is the web engine's profile folder (local storage, caches).
    """
    import webview

    from app.adapters.window import qt_permissions

    if sys.platform.startswith("linux"):
        qt_permissions.install()  # before the window: pywebview's handler aborts on clipboard use
    port = PywebviewWindow()
    door = make_door(port)
    port.window = webview.create_window(title, url=url, js_api=door.api, width=1400, height=900,
                                        min_size=(640, 400), text_select=False)
    port.window.events.closing += door.close
    try:
        webview.start(gui="qt" if sys.platform.startswith("linux") else None,
                      http_server=False, private_mode=False, storage_path=storage_path)
    finally:
        door.close()


class PywebviewWindows:
    """The bridge's `WindowFactory` over pywebview: `open` creates a `webview.Window` (before
    or after `webview.start`, from any thread) with its door's js_api and reports its closing,
    closed and moved events. `start()` runs the GUI loop until the last window closed."""

    def __init__(self, url: str, storage_path: str, title: str = "IdeA") -> None:
        self._url, self._storage_path, self._title = url, storage_path, title

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

    def start(self) -> None:
        """Run the GUI loop (blocks until every window closed)."""
        import webview

        from app.adapters.window import qt_permissions

        if sys.platform.startswith("linux"):
            qt_permissions.install()
        webview.start(gui="qt" if sys.platform.startswith("linux") else None,
                      http_server=False, private_mode=False, storage_path=self._storage_path)


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
        self._window.destroy()
