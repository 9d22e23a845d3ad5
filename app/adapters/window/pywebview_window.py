"""The desktop window over pywebview (Qt WebEngine on Linux, WebView2 on Windows).

`PywebviewWindow` implements the bridge's `WindowPort` (run a script, pick a folder) for one
`webview.Window`; `run_window` creates it, hands the door its js_api and runs the GUI loop.
pywebview is imported lazily so `--version`/`--help` and the subcommands stay GUI-free.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Protocol


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
