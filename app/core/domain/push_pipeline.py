"""Pushes in flight to one window (SPEC §5, ADR 008): how many scripts and how many characters
of terminal output may travel to the page at once, so that throughput comes from pipelining
while a quiet terminal's echo never waits behind more than one large batch.

A push is *in flight* from the moment it is posted to the window until the window said the
script ran. Scripts run in the order they were posted, so completions come back in that order.

Rules (all counts are characters of terminal output carried by a push):
  - a normal push may be posted while fewer than `depth` are in flight and the characters in
    flight are below `chars_in_flight`; it should carry at most `room()` characters (the pump
    cuts whole chunks, so it may overshoot by less than one PTY read);
  - an urgent push (at most `small_chars` characters: an echo, a prompt, an event) may always
    take one more slot (`depth + 1`) whatever the characters in flight. Since at most
    `chars_in_flight` characters are ahead of it, it waits behind at most one large batch's
    worth of work in the page.

Pure bookkeeping: the caller serialises calls.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass


@dataclass(frozen=True)
class PipelineLimits:
    """`depth`: scripts in flight (normal pushes); `chars_in_flight`: characters of output in
    flight (about one large batch); `small_chars`: the largest push that counts as urgent.
    Raises ValueError on a non-positive value."""

    depth: int = 4
    chars_in_flight: int = 1_048_576
    small_chars: int = 8_192

    def __post_init__(self) -> None:
        if self.depth < 1 or self.chars_in_flight < 1 or self.small_chars < 0:
            raise ValueError("depth >= 1, chars_in_flight >= 1 and small_chars >= 0")


class PushPipeline:
    """In-flight accounting of one window's pushes. `posted` returns a ticket; `ran(ticket)`
    is called when the window ran that script (in posting order)."""

    def __init__(self, limits: PipelineLimits | None = None) -> None:
        self.limits = limits or PipelineLimits()
        self._flight: collections.deque[tuple[int, int]] = collections.deque()  # (ticket, chars)
        self._chars = 0
        self._next = 0

    @property
    def in_flight(self) -> int:
        """Scripts posted and not yet run."""
        return len(self._flight)

    @property
    def chars(self) -> int:
        """Characters of output in flight."""
        return self._chars

    def room(self) -> int:
        """Characters a normal push may carry now; 0 when it must wait for a completion."""
        if len(self._flight) >= self.limits.depth:
            return 0
        return max(0, self.limits.chars_in_flight - self._chars)

    def may_post_urgent(self, chars: int) -> bool:
        """True when a push of `chars` characters counts as urgent and has a slot now."""
        return chars <= self.limits.small_chars and len(self._flight) < self.limits.depth + 1

    def posted(self, chars: int) -> int:
        """Record a push of `chars` characters handed to the window; returns its ticket."""
        ticket = self._next
        self._next += 1
        self._flight.append((ticket, chars))
        self._chars += chars
        return ticket

    def ran(self, ticket: int) -> int:
        """The window ran the push `ticket`, hence (scripts run in posting order) every push
        posted before it. A ticket already done is ignored. Returns how many pushes left the
        flight. Raises ValueError for a ticket never issued."""
        if not 0 <= ticket < self._next:
            raise ValueError(f"no push {ticket} was posted")
        done = 0
        while self._flight and self._flight[0][0] <= ticket:
            _, chars = self._flight.popleft()
            self._chars -= chars
            done += 1
        return done

    def oldest(self) -> int | None:
        """Ticket of the oldest push in flight (None when idle)."""
        return self._flight[0][0] if self._flight else None

    def idle(self) -> bool:
        """Nothing in flight."""
        return not self._flight


def fair_shares(pending: dict[str, int], room: int, cap: int, start: int = 0) -> dict[str, int]:
    """Split `room` characters between sessions with output `pending` (session → characters),
    each getting at most `cap`: equal shares, what a session does not need goes to the others.
    `start` rotates who comes first when the room does not divide evenly. Returns session →
    share (> 0 for every pending session when `room >= len(pending)`, else for the first ones).
    """
    order = list(pending)
    if not order:
        return {}
    k = start % len(order)
    order = order[k:] + order[:k]
    want = {sid: min(pending[sid], cap) for sid in order}
    shares = dict.fromkeys(order, 0)
    left = room
    active = [sid for sid in order if want[sid] > 0]
    while left > 0 and active:
        each = max(1, left // len(active))
        still = []
        for sid in active:
            give = min(each, want[sid] - shares[sid], left)
            shares[sid] += give
            left -= give
            if shares[sid] < want[sid]:
                still.append(sid)
            if left == 0:
                break
        active = still
    return {sid: n for sid, n in shares.items() if n > 0}
