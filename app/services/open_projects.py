"""The registry of open projects and of which project owns which terminal session.

One lock per project (not one for the process): two windows, the MCP server and the file
watcher can work on different projects at once. A project stays registered while a tab shows
it or while it still owns sessions (a closed tab's agents keep running in the background, and
reopening the project finds them again).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.core.errors import NOT_FOUND, AppError
from app.core.usecases.project_state import ProjectState, clean_root


@dataclass
class ProjectHandle:
    """An open project: its state, guarded by `lock`; `in_tab` while a window shows it."""

    state: ProjectState
    lock: threading.RLock = field(default_factory=threading.RLock)
    in_tab: bool = True


class OpenProjects:
    """Open projects keyed by cleaned root, and session ownership. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handles: dict[str, ProjectHandle] = {}
        self._owners: dict[str, str] = {}
        self._on_removed: list[Callable[[str], None]] = []

    def when_removed(self, listener: Callable[[str], None]) -> None:
        """Call `listener(root)` each time a project is forgotten."""
        self._on_removed.append(listener)

    def find(self, root: str) -> ProjectHandle | None:
        """The handle of the project at `root`, or None."""
        with self._lock:
            return self._handles.get(clean_root(root))

    def get(self, root: str, *, in_tab: bool = True) -> ProjectHandle:
        """The handle of the project at `root` (shown in a tab unless `in_tab` is False).

        Raises `AppError(NOT_FOUND)` when it is not open.
        """
        handle = self.find(root)
        if handle is None or (in_tab and not handle.in_tab):
            raise AppError(NOT_FOUND, f"project not open: {root}", {"root": root})
        return handle

    @contextmanager
    def locked(self, root: str) -> Iterator[ProjectState]:
        """`with projects.locked(root) as state:` — the open project's state, under its lock.

        Raises `AppError(NOT_FOUND)` when the project is not open in a tab.
        """
        handle = self.get(root)
        with handle.lock:
            yield handle.state

    def add(self, state: ProjectState) -> ProjectHandle:
        """Register a freshly loaded project (shown in a tab)."""
        handle = ProjectHandle(state)
        with self._lock:
            self._handles[state.root] = handle
        return handle

    def remove(self, root: str) -> None:
        """Forget the project (its sessions must be gone)."""
        with self._lock:
            gone = self._handles.pop(clean_root(root), None)
        if gone is not None:
            for listener in self._on_removed:
                listener(gone.state.root)

    def handles(self) -> list[ProjectHandle]:
        """Every registered project."""
        with self._lock:
            return list(self._handles.values())

    # -- session ownership ----------------------------------------------------------------
    def own(self, session_id: str, root: str) -> None:
        """Project `root` owns `session_id` (it started it)."""
        with self._lock:
            self._owners[session_id] = clean_root(root)

    def disown(self, session_id: str) -> None:
        """`session_id` has no owner any more (released)."""
        with self._lock:
            self._owners.pop(session_id, None)

    def owner_of(self, session_id: str) -> ProjectHandle | None:
        """The registered project owning `session_id`, or None."""
        with self._lock:
            root = self._owners.get(session_id)
            return self._handles.get(root) if root is not None else None
