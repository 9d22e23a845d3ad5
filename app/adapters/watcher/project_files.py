"""Edits made outside IdeA to an open project's files (SPEC §1 "file watching": external edits),
watched with watchdog: `.ideai/agents.json` edited by hand, by `git checkout`, by another tool.

A `ProjectDoor`: `open(root)` watches `<root>/.ideai/` (not its subfolders), `close(root)`
stops. Each burst of events naming `agents.json` — an editor writes in place (modified,
closed), through a temporary file renamed over it (moved), or deletes and recreates it —
calls `changed(root)` once, `DEBOUNCE_S` after the last event, on a timer thread. IdeA's own
atomic writes are reported too: reading the file again then finds nothing new.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from app.adapters.watcher.folders import FolderWatches

log = logging.getLogger(__name__)

#: The files whose edits are reported, by name, in `.ideai/`.
WATCHED = frozenset({"agents.json"})
#: Quiet time after the last event of a burst before `changed` runs (s).
DEBOUNCE_S = 0.25


class _Handler(FileSystemEventHandler):
    def __init__(self, on_event: Callable[[], None]) -> None:
        self._on_event = on_event

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type == "opened":
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if any(os.path.basename(os.fsdecode(p)) in WATCHED for p in paths if p):
            self._on_event()


class ProjectFilesWatcher:
    """Reports edits of the watched files of each open project: `changed(root)` (any thread;
    it must not raise, and a failure is logged)."""

    def __init__(self, changed: Callable[[str], None]) -> None:
        self._changed = changed
        self._lock = threading.Lock()
        self._watches = FolderWatches()
        self._timers: dict[str, threading.Timer] = {}

    def open(self, root: str) -> str | None:
        """Watch `root`'s `.ideai/` (when it exists). Returns None: no address for agents."""
        folder = Path(root) / ".ideai"
        if folder.is_dir():
            self._watches.watch(root, str(folder), _Handler(lambda: self._burst(root)),
                                recursive=False)
        return None

    def close(self, root: str) -> None:
        """Stop watching `root` (a pending report is dropped)."""
        self._watches.unwatch(root)
        with self._lock:
            timer = self._timers.pop(root, None)
        if timer is not None:
            timer.cancel()

    def close_all(self) -> None:
        """App exit."""
        self._watches.stop()
        with self._lock:
            timers = list(self._timers.values())
            self._timers.clear()
        for timer in timers:
            timer.cancel()

    def _burst(self, root: str) -> None:
        if not self._watches.watched(root):
            return
        with self._lock:
            old = self._timers.get(root)
            timer = threading.Timer(DEBOUNCE_S, self._report, args=(root,))
            timer.daemon = True
            self._timers[root] = timer
        if old is not None:
            old.cancel()
        timer.start()

    def _report(self, root: str) -> None:
        if not self._watches.watched(root):
            return
        with self._lock:
            self._timers.pop(root, None)
        try:
            self._changed(root)
        except Exception:
            log.exception("reading the edited files of %s again failed", root)
