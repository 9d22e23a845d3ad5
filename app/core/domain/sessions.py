"""Terminal sessions as the rules see them (SPEC C2, C5): what a PTY adapter needs to start a
process, the chunks of output it stamps, the record a project keeps of each of its sessions,
and the rules that decide what happens to a session when the layout changes or it ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from app.core.domain.sandbox import SandboxStatus

SessionKind = Literal["shell", "agent"]


@dataclass(frozen=True)
class SpawnSpec:
    """A process to start in a PTY.

    `command` is an executable (absolute path or name), `args` its arguments, `cwd` an absolute
    directory, `env` variables *added* to the user's environment by the adapter, `cols`/`rows`
    the initial terminal size in character cells, `session_id` the id the session will carry.
    """

    command: str
    args: list[str]
    cwd: str
    env: dict[str, str] = field(default_factory=dict)
    cols: int = 80
    rows: int = 24
    session_id: str = ""


@dataclass(frozen=True)
class TerminalChunk:
    """A piece of decoded PTY output, stamped by the PTY host.

    `offset` is the position of `text` in the session's output stream and `end` the position
    just after it, in UTF-16 code units (JavaScript string length) since the session started;
    the next chunk starts at `end`. Views use them to repaint exactly (no loss, no duplicate).
    """

    session_id: str
    offset: int
    end: int
    text: str


@dataclass(frozen=True)
class SessionSandbox:
    """How an agent's session runs with respect to its permissions (SPEC C10): the OS
    sandbox's `status` (`off` when nothing is posed or nothing is confined), `notes` saying
    what binds only through the CLI's settings or not at all (the vendor projection's notes,
    then the plan's advisory lines), and `refused`: the permissions demand an OS sandbox this
    machine cannot give, so the launcher refuses to run the CLI (exit 126); `exposed`: what
    the CLI's needs open that the rules confine (the plan's `exposed`: a project under `/tmp`),
    so the cell says "partly sandboxed"."""

    status: SandboxStatus
    notes: tuple[str, ...] = ()
    refused: bool = False
    exposed: tuple[str, ...] = ()


@dataclass(frozen=True)
class SessionRecord:
    """What a project knows of one of its sessions.

    `kind` is `shell` (a plain terminal) or `agent` (then `agent_id` names it); `title` is what
    a cell header or the sessions list shows; `alive` is False once the process ended (then
    `exit_code` is its code, or None when killed by a signal or unknown); `sandbox`: for an
    agent, how its permissions apply (None for a shell).
    """

    session_id: str
    kind: SessionKind
    title: str
    agent_id: str | None = None
    alive: bool = True
    exit_code: int | None = None
    sandbox: SessionSandbox | None = None

    def ended(self, exit_code: int | None) -> SessionRecord:
        """This record once the process exited with `exit_code`."""
        return replace(self, alive=False, exit_code=exit_code)


#: What a layout edit was, as the session rules see it: `close` (a cell closed), `close_kill`
#: (a cell closed and the user confirmed killing what ran in it), `close_keep` (closed, the
#: user chose to keep what ran in it), `undo`, `redo`, or `other` (every other edit: split,
#: assign, merge, preset, showing a session…).
EditKind = Literal["close", "close_kill", "close_keep", "undo", "redo", "other"]


@dataclass(frozen=True)
class SessionFate:
    """What to do with sessions after a layout change: `kill` ends the process now, `doom`
    ends it after the close grace unless a cell shows it again (`pending_kills`), `detach`
    keeps it running with no view (it stays in the project's session list)."""

    kill: frozenset[str] = frozenset()
    doom: frozenset[str] = frozenset()
    detach: frozenset[str] = frozenset()


def fate_after_edit(kind: EditKind, before: set[str], after: set[str],
                    sessions: Mapping[str, SessionRecord],
                    revived: frozenset[str] = frozenset()) -> SessionFate:
    """Decide the fate of the live sessions that a layout edit of `kind` took out of every cell.

    `before`/`after` are the session ids shown in the project's layouts before and after the
    edit; `revived` the shells an undo brought back from a pending kill
    (`PendingKills.revived`). Closing a cell dooms a plain shell — killed after the grace
    unless shown again, so an undo brings it back alive — and kills it at once for
    `close_kill`; a redo that hides a revived shell closes it again (doom). An agent is
    never killed by a layout change, and every other edit that hides a session — a close
    keeping it (`close_keep`), "Detach from cell" (`assign` without session), undo/redo, a
    merge or preset — detaches it, shell or agent. Sessions that already ended, or that the
    project does not own, are left alone.
    """
    kill: set[str] = set()
    doom: set[str] = set()
    detach: set[str] = set()
    for session_id in before - after:
        record = sessions.get(session_id)
        if record is None or not record.alive:
            continue
        if record.kind != "shell":
            detach.add(session_id)
        elif kind == "close_kill":
            kill.add(session_id)
        elif kind == "close" or (kind == "redo" and session_id in revived):
            doom.add(session_id)
        else:
            detach.add(session_id)
    return SessionFate(frozenset(kill), frozenset(doom), frozenset(detach))


def releasable(sessions: Mapping[str, SessionRecord], shown: Iterable[str]) -> list[str]:
    """Ended sessions shown in no cell of any layout: their scrollback and bookkeeping can go.

    An ended session still shown in a cell is kept, so its last output stays visible there.
    """
    visible = set(shown)
    return [sid for sid, record in sessions.items() if not record.alive and sid not in visible]


def live_session_of(sessions: Mapping[str, SessionRecord], agent_id: str) -> SessionRecord | None:
    """The live session of agent `agent_id`, if any (one live session per agent, SPEC C5)."""
    return next((r for r in sessions.values()
                 if r.kind == "agent" and r.agent_id == agent_id and r.alive), None)
