"""Edits made outside IdeA to an open project's files (SPEC §1 "file watching": external edits),
watched with watchdog: `.ideai/agents.json`, `.ideai/permissions.json`, `.ideai/layouts.json` or
a persona `.ideai/agents/<slug>.md` edited by hand, by `git checkout`, by another tool (the
bootstrap names the files).

A `ProjectDoor`: `open(root)` watches `<root>/.ideai/` and its subfolders, `close(root)` stops.
A handler's key is a pattern of paths relative to `.ideai/` (gitignore's wildcards, anchored
at `.ideai/`: `agents.json`, `agents/*.md`). Each burst of events naming a path a key matches —
an editor writes in place (modified, closed), through a temporary file renamed over it (moved),
or deletes and recreates it — calls that key's handler `handlers[key](root)` once,
`DEBOUNCE_S` after the last event, on a timer thread. IdeA's own atomic writes are reported
too: reading the file again then finds nothing new.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from pathspec import PathSpec
from pathspec.pattern import Pattern
from watchdog.events import FileSystemEvent, FileSystemEventHandler

from app.adapters.watcher.folders import FolderWatches

log = logging.getLogger(__name__)

#: Quiet time after the last event of a burst before `changed` runs (s).
DEBOUNCE_S = 0.25


class _Handler(FileSystemEventHandler):
    def __init__(self, folder: str, keys: Mapping[str, PathSpec[Pattern]],
                 on_event: Callable[[str], None]) -> None:
        self._folder, self._keys, self._on_event = folder, keys, on_event

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type == "opened":
            return
        paths = [os.fsdecode(p) for p in (event.src_path, getattr(event, "dest_path", "")) if p]
        relative = [os.path.relpath(p, self._folder).replace(os.sep, "/") for p in paths]
        for key, spec in self._keys.items():
            if any(spec.match_file(rel) for rel in relative if not rel.startswith("../")):
                self._on_event(key)


class ProjectFilesWatcher:
    """Reports edits of the files `handlers`' keys match (patterns of paths in `.ideai/`) of
    each open project: `handlers[key](root)` (any thread; a failure is logged)."""

    def __init__(self, handlers: Mapping[str, Callable[[str], None]]) -> None:
        self._handlers = dict(handlers)
        self._specs = {key: PathSpec.from_lines("gitignore", ["/" + key.lstrip("/")])
                       for key in self._handlers}
        self._lock = threading.Lock()
        self._watches = FolderWatches()
        self._timers: dict[tuple[str, str], threading.Timer] = {}

    def open(self, root: str) -> str | None:
        """Watch `root`'s `.ideai/` and its subfolders (when it exists). Returns None: no
        address for agents."""
        folder = Path(root) / ".ideai"
        if folder.is_dir():
            handler = _Handler(str(folder), self._specs, lambda key: self._burst(root, key))
            self._watches.watch(root, str(folder), handler, recursive=True)
        return None

    def close(self, root: str) -> None:
        """Stop watching `root` (a pending report is dropped)."""
        self._watches.unwatch(root)
        with self._lock:
            timers = [self._timers.pop(key) for key in list(self._timers) if key[0] == root]
        for timer in timers:
            timer.cancel()

    def close_all(self) -> None:
        """App exit."""
        self._watches.stop()
        with self._lock:
            timers = list(self._timers.values())
            self._timers.clear()
        for timer in timers:
            timer.cancel()

    def _burst(self, root: str, name: str) -> None:
        if not self._watches.watched(root):
            return
        with self._lock:
            old = self._timers.get((root, name))
            timer = threading.Timer(DEBOUNCE_S, self._report, args=(root, name))
            timer.daemon = True
            self._timers[(root, name)] = timer
        if old is not None:
            old.cancel()
        timer.start()

    def _report(self, root: str, name: str) -> None:
        if not self._watches.watched(root):
            return
        with self._lock:
            # A timer replaced while it was firing (a new event came in) or dropped by `close`
            # leaves the report to its successor, or to nobody.
            if self._timers.get((root, name)) is not threading.current_thread():
                return
            del self._timers[(root, name)]
        try:
            self._handlers[name](root)
        except Exception:
            log.exception("reading %s of %s again failed", name, root)
