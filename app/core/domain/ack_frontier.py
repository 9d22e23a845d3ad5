"""Flow control of one session shown by several views (SPEC §5): what to acknowledge to the PTY.

The PTY host pauses a session's reader while too many characters are unacknowledged. With
several views (windows) on one session, the host must only hear of characters *every* view has
consumed, so the slowest view sets the pace. All counts are characters of decoded output.

`produced` is the total the session emitted so far (the output bus counts it). A view that
attaches at `produced = P` never receives what came before, so for it those characters count
as consumed. Pure bookkeeping: the caller serialises calls.
"""

from __future__ import annotations


class AckFrontier:
    """Per-view consumption of one session; each method returns the characters to acknowledge
    to the PTY host now (0 when nothing changed)."""

    def __init__(self) -> None:
        self._consumed: dict[str, int] = {}
        self._acked = 0

    @property
    def views(self) -> frozenset[str]:
        """The views attached."""
        return frozenset(self._consumed)

    def attach(self, view: str, produced: int) -> bool:
        """View `view` starts showing the session after `produced` characters.

        Returns True when it is the first view (the caller turns flow control on; the host then
        counts from zero, so the frontier restarts at `produced`). Re-attaching a view resets it.
        """
        first = not self._consumed
        if first:
            self._acked = produced
        self._consumed[view] = max(produced, self._acked)
        return first

    def ack(self, view: str, chars: int) -> int:
        """View `view` consumed `chars` more characters; unknown views and `chars <= 0` count
        for nothing."""
        if view not in self._consumed or chars <= 0:
            return 0
        self._consumed[view] += chars
        return self._advance()

    def detach(self, view: str) -> int:
        """View `view` no longer shows the session; the others may now set a later frontier."""
        if self._consumed.pop(view, None) is None or not self._consumed:
            return 0
        return self._advance()

    def _advance(self) -> int:
        frontier = min(self._consumed.values())
        if frontier <= self._acked:
            return 0
        due, self._acked = frontier - self._acked, frontier
        return due
