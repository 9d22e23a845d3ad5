"""Terminals as every door drives them (SPEC C2, §5): open a shell, attach and detach views,
keystrokes, resize, acks, kill."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.core.errors import NOT_FOUND, AppError
from app.core.ports import TerminalHost
from app.core.usecases.open_shell import OpenShell, ShellOpened
from app.services.open_projects import OpenProjects
from app.services.session_keeper import SessionKeeper
from app.services.terminal_bus import ChunkConsumer, SizeMark, TerminalOutputBus
from app.services.terminal_views import TerminalViews


@dataclass(frozen=True)
class Attached:
    """What a view repaints on attach: `scrollback`, then only chunks at or after `end`
    (UTF-16 offset); `alive`/`exit_code` say whether the process still runs; `sizes` the PTY
    sizes (cols x rows) the scrollback was produced at, from UTF-16 index `at` on, oldest
    first (empty when unknown): a view replays it at those sizes, so xterm.js reflows it to
    its own instead of reading bytes meant for another width (ADR 012)."""

    scrollback: str
    end: int
    alive: bool
    exit_code: int | None
    sizes: tuple[SizeMark, ...] = ()


DEAD = Attached("", 0, False, None)


class TerminalService:
    """Terminal operations on the sessions projects own."""

    def __init__(self, projects: OpenProjects, keeper: SessionKeeper, terminals: TerminalHost,
                 views: TerminalViews, open_shell: OpenShell, bus: TerminalOutputBus,
                 portal_writes: Callable[[str, str], None] = lambda session, ticket: None
                 ) -> None:
        self._projects, self._keeper, self._terminals = projects, keeper, terminals
        self._views, self._open_shell, self._bus = views, open_shell, bus
        self._portal_writes = portal_writes

    def open_shell(self, root: str, node_id: str, cols: int, rows: int,
                   cwd: str | None = None, session_id: str | None = None,
                   title: str | None = None) -> ShellOpened:
        """Start the user's shell in cell `node_id` of project `root` (in `cwd`, default the
        root, and titled `title` when free: a restored shell reopens where it was, under its
        name). Errors of `OpenShell`."""
        with self._projects.locked(root) as state:
            before = set(state.sessions)
            opened = self._open_shell.execute(state, node_id, cols, rows, cwd, session_id, title)
            self._bus.sized(opened.session_id, cols, rows, from_start=True)
            self._keeper.after_start(state, before)
            return opened

    def attach(self, session_id: str, view: str, consumer: ChunkConsumer) -> Attached:
        """View `view` shows `session_id`; `consumer` receives its output from now on.

        A session no project owns (e.g. named by a layout saved before a restart) attaches as
        ended with nothing to repaint.
        """
        handle = self._projects.owner_of(session_id)
        if handle is None:
            return DEAD
        with handle.lock:
            record = handle.state.sessions.get(session_id)
            if record is None:
                return DEAD
            snapshot = self._views.attach(session_id, view, consumer)
            return Attached(snapshot.scrollback, snapshot.end, record.alive, record.exit_code,
                            snapshot.sizes)

    def detach(self, session_id: str, view: str) -> None:
        """View `view` no longer shows `session_id` (the session keeps running)."""
        self._views.detach(session_id, view)

    def detach_view(self, view: str) -> None:
        """View `view` (a window) went away or reloaded: it shows nothing any more."""
        self._views.detach_view(view)

    def write(self, session_id: str, seq: int, data: str, ticket: str | None = None) -> None:
        """Keystrokes number `seq` of a view (applied in order). `ticket`: the view's write
        portal types that delegation (`portal_writes(session_id, ticket)` hears it before the
        PTY does); the session's flow window is boosted for a while (`TerminalViews.typed`).
        Raises NOT_FOUND."""
        if ticket is not None:
            self._portal_writes(session_id, ticket)
        self._terminals.write(session_id, seq, data)
        self._views.typed(session_id)

    def resize(self, session_id: str, cols: int, rows: int) -> None:
        """Resize a live session. Raises `AppError(NOT_FOUND)` when it is unknown or ended."""
        if not self._terminals.is_alive(session_id):
            raise AppError(NOT_FOUND, f"no running terminal session {session_id}",
                           {"sessionId": session_id})
        self._terminals.resize(session_id, cols, rows)
        self._bus.sized(session_id, cols, rows)

    def ack(self, session_id: str, view: str, chars: int) -> None:
        """Flow control: view `view` consumed `chars` characters."""
        self._views.ack(session_id, view, chars)

    def kill(self, session_id: str) -> None:
        """End the session's process (its exit is reported as usual). Raises NOT_FOUND."""
        self._terminals.kill(session_id)
