"""Ports the use cases need (contract §2). Adapters implement them; tests use fakes.

Paths crossing a port are absolute `str` paths; the core joins them with `posixpath` only.
"""

from __future__ import annotations

from typing import Protocol

from app.core.domain.sessions import SpawnSpec
from app.core.events import DomainEvent


class FileSystem(Protocol):
    """Files of a project (`.ideai/`) and of the app data dir."""

    def read_text(self, path: str) -> str | None:
        """Return the UTF-8 text of `path`, or `None` when it does not exist."""
        ...

    def write_text_atomic(self, path: str, text: str) -> None:
        """Write via temp file + fsync + rename; raises `AppError(NOT_WRITABLE)`."""
        ...

    def make_dirs(self, path: str) -> None:
        """Create `path` and its parents if missing; raises `AppError(NOT_WRITABLE)`."""
        ...

    def exists(self, path: str) -> bool:
        """Whether `path` exists (file or directory)."""
        ...

    def is_dir(self, path: str) -> bool:
        """Whether `path` is an existing directory."""
        ...

    def is_writable_dir(self, path: str) -> bool:
        """Whether `path` is an existing directory we can create files in."""
        ...

    def remove_tree(self, path: str) -> None:
        """Remove `path` and everything under it; no error when missing."""
        ...


class PtyHost(Protocol):
    """Processes running in pseudo-terminals."""

    def spawn(self, spec: SpawnSpec) -> str:
        """Start `spec`, return its session id; raises `AppError(COMMAND_NOT_FOUND)`."""
        ...

    def write(self, session_id: str, seq: int, data: str) -> None:
        """Send `data` to the session; writes are applied in `seq` order (0, 1, 2 …)."""
        ...

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        """Resize the terminal to `cols` x `rows` character cells."""
        ...

    def kill(self, session_id: str) -> None:
        """Terminate the session's process."""
        ...

    def is_alive(self, session_id: str) -> bool:
        """Whether the session's process is still running."""
        ...

    def scrollback(self, session_id: str) -> str:
        """Decoded output kept for repaint (bounded ring, about 1 MiB)."""
        ...


class CommandResolver(Protocol):
    """Finds executables on the user's PATH."""

    def which(self, command: str) -> str | None:
        """Absolute path of `command`, or `None` when not found."""
        ...


class ProfileDetector(Protocol):
    """Runs a CLI's detection command (e.g. `claude --version`)."""

    def detect(self, command: str, args: list[str], timeout_ms: int) -> str | None:
        """First output line (the version) or `None` when missing, failing or timed out."""
        ...


class Clock(Protocol):
    """Wall clock."""

    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch."""
        ...


class IdSource(Protocol):
    """Source of fresh identifiers."""

    def new_id(self) -> str:
        """A new hyphenated uuid4 string."""
        ...


class EventSink(Protocol):
    """Where domain events go (the bridge pushes them to the UI)."""

    def publish(self, event: DomainEvent) -> None:
        """Queue `event` for the UI."""
        ...
