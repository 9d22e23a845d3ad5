"""One watchdog observer and its watches, one per open project: what both watchers of this
package (the file protocol, edits of a project's files) keep. Thread-safe."""

from __future__ import annotations

import threading
from typing import Any

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer


class FolderWatches:
    """`watch(root, folder, handler)` starts the observer thread on first use; `stop()` ends
    it (app exit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._observer: Any = None
        self._watches: dict[str, Any] = {}

    def watch(self, root: str, folder: str, handler: FileSystemEventHandler, *,
              recursive: bool) -> bool:
        """Deliver `folder`'s events to `handler` for project `root`; False when `root` is
        watched already (nothing changes)."""
        with self._lock:
            if root in self._watches:
                return False
            if self._observer is None:
                self._observer = Observer()
                self._observer.daemon = True
                self._observer.start()
            self._watches[root] = self._observer.schedule(handler, folder, recursive=recursive)
            return True

    def unwatch(self, root: str) -> None:
        """Stop `root`'s watch (no error when there is none)."""
        with self._lock:
            watch = self._watches.pop(root, None)
            if watch is not None and self._observer is not None:
                self._observer.unschedule(watch)

    def watched(self, root: str) -> bool:
        with self._lock:
            return root in self._watches

    def roots(self) -> list[str]:
        with self._lock:
            return list(self._watches)

    def stop(self, timeout_s: float = 2.0) -> None:
        """End the observer thread and forget every watch."""
        with self._lock:
            observer, self._observer = self._observer, None
            self._watches.clear()
        if observer is not None:
            observer.stop()
            observer.join(timeout_s)
