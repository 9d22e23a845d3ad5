"""Shells whose cell was closed, killed only after a grace (SPEC C2, C3; ADR 021).

Closing a cell that shows a plain shell does not kill it at once: the shell is hidden and its
kill is *pending* until `due` (ms on the caller's monotonic clock). An edit that shows it again
within the grace (undo, or showing it in a cell) cancels the kill: the same process, its cwd and
scrollback, is back. When the grace has passed the service kills it. The rules are here, as
values; the timer that wakes up at `due` is the session keeper's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from app.core.domain.sessions import EditKind

CLOSE_GRACE_MS = 30_000
"""How long a closed cell's shell lives on hidden, in ms: 30 s.

Long enough for what a mistaken close calls for — notice the empty cell, press undo
(Ctrl+Alt+Z, or Ctrl+Z outside a terminal) or read the toast that says so (shown 8 s) and act,
even after a glance elsewhere; 30 s is also the longest "undo send" mail clients offer. Short
enough that a shell the user meant to end does not hold its cwd, its background jobs or its
memory out of sight for long: nothing runs hidden beyond half a minute without being asked.
"""


@dataclass(frozen=True)
class PendingKills:
    """The pending kills of one project.

    `due`: session id → when its kill is due (ms, the caller's monotonic clock); `revived`:
    shells an undo brought back from a pending kill — a redo that hides one of them again
    closes it again (the redo repeats the close), where any other hiding only detaches it.
    """

    due: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    revived: frozenset[str] = frozenset()

    def schedule(self, session_ids: Iterable[str], now_ms: int, grace_ms: int) -> PendingKills:
        """These with `session_ids` due `grace_ms` after `now_ms` (ms); a session already
        pending keeps its earlier time. `grace_ms` ≥ 0."""
        due = dict(self.due)
        for session_id in session_ids:
            due.setdefault(session_id, now_ms + grace_ms)
        return PendingKills(MappingProxyType(due), self.revived - set(due))

    def after_edit(self, kind: EditKind, shown: Iterable[str],
                   hidden: Iterable[str]) -> tuple[PendingKills, frozenset[str]]:
        """A layout edit of `kind` left `shown` in cells and hid `hidden` (session ids):
        returns these pending kills without the ones a cell shows again, and the ids whose
        kill that cancelled. Shells an undo showed again become `revived`; a shell hidden by
        the edit no longer is (a redo that closes one again schedules it: `fate_after_edit`
        decided so from `revived` before this)."""
        visible = set(shown)
        cancelled = frozenset(sid for sid in self.due if sid in visible)
        due = {sid: at for sid, at in self.due.items() if sid not in cancelled}
        revived = (self.revived | cancelled) if kind == "undo" else self.revived
        return PendingKills(MappingProxyType(due), revived - set(hidden)), cancelled

    def due_at(self, now_ms: int) -> frozenset[str]:
        """The session ids whose kill is due at `now_ms` (ms, same clock as `schedule`)."""
        return frozenset(sid for sid, at in self.due.items() if at <= now_ms)

    def without(self, session_ids: Iterable[str]) -> PendingKills:
        """These without `session_ids` (killed, or ended on their own): neither pending nor
        revived."""
        gone = set(session_ids)
        return PendingKills(MappingProxyType({s: at for s, at in self.due.items() if s not in gone}),
                            self.revived - gone)
