"""The flow-control window of one session, sized from what the page consumes (SPEC §5, ADR 008).

The PTY host stops reading a session above `high` unacknowledged characters and resumes below
`low`. A fixed window is wrong both ways: too small and a flood waits on round trips through
the GUI thread (throughput ≈ window ÷ round trip); too large and Ctrl-C in the flooding
terminal waits until everything already read is parsed (≈ window ÷ the page's speed).

So the window is sized like a bandwidth-delay product (the idea of TCP BBR): the best delivery
rate `R` times the shortest delay seen from a character's read to its ack (`rtt_min`), times
`gain`, both remembered over the last `filter_s`. A delivery-rate sample is taken at each ack
that completes a read: the characters acknowledged since the last ack before that read, over
the time since that ack (BBR's definition: with the window full, everything ahead of the read
was delivered, so the sample is ≈ window ÷ that round trip; a burst of acks for text queued
long before does not read as a huge rate).
`high = clamp(gain × R × rtt_min, min_chars, max_chars)`, `low = high // 2`.
While the transport limits the flood, `R ≈ high ÷ rtt`, so each retune multiplies the window by
about `gain` and it grows; once the page limits it (`R` = the page's speed), the window settles
at `gain` round trips of what the page consumes: what is unacknowledged drains in about
`gain × rtt_min` (Ctrl-C → prompt), and a queue standing in the page does not inflate it
(`rtt_min` is the shortest delay, not the current one). No bound on the drain time of the
first `crowded_gain` round trips: measured, it shrinks the window whenever the round trip exceeds it
(`R = high ÷ rtt` then `high' = R × bound < high`) and a loaded machine collapses to the floor
(ADR 008). Both filters matter on a loaded machine: with the current rate and delay, a round
trip slower than `gain × rtt_min` would shrink the window, and the next one slower still.

The gain depends on the company (issue 11, measured in `docs/benchmarks.md` sitting 7): a
session flooding alone gets `gain` round trips (4), which keeps the page fed through the ack
interval and the frames it waits for (with 2 the page had nothing to parse at about half its
frames; one `cat` now goes about a third faster); while another shown session crowds it
(`crowds`: acked within `crowd_s`, or typed in within `boost_s`) it gets `crowded_gain` (2):
sixteen floods each holding twice as much only delayed Ctrl-C, and a flood holding twice as
much doubled the echo time of the terminal the user types in. The round trips above
`crowded_gain` are granted only up to `drain_s` of the page's consumption: a session left
alone after a crowded spell remembers that spell's long round trips, and four of them made its
Ctrl-C wait 0.3 s.

Pure: the caller passes the clock (`now`, seconds, monotonic) and serialises calls.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class FlowTuning:
    """`min_chars`/`max_chars`: bounds of `high` (characters); `start_chars`: `high` before
    any measurement (and until that much was acknowledged: echoes decide nothing); `gain`:
    round trips of consumption the window holds (a session flooding alone); `crowded_gain`:
    the same while another session crowds this one (it was acked within the last `crowd_s`
    (s), or typed in within `boost_s`); `drain_s`: the round trips above `crowded_gain` are
    granted only up to what the page drains in that long (s); `history_s`: how long acks are
    kept to measure delivery (s, above the slowest round trip); `min_travel_s`: shortest
    travel time that yields a rate sample (s); `filter_s`: how long the best rate and the
    shortest delay are remembered (s); `change`: relative change below which the window is
    left alone; `boost_chars`/`boost_s`: after input to the session, the window is at least
    that many characters for that long (s), so Ctrl-C in one of many floods, each on a small
    window, reaches its prompt in one turnover of the window rather than several (ADR 020)."""

    min_chars: int = 32_000
    max_chars: int = 4_000_000
    start_chars: int = 512_000
    gain: float = 4.0
    crowded_gain: float = 2.0
    crowd_s: float = 0.5
    drain_s: float = 0.15
    history_s: float = 3.0
    min_travel_s: float = 0.005
    filter_s: float = 10.0
    change: float = 0.2
    boost_chars: int = 256_000
    boost_s: float = 1.0

    def __post_init__(self) -> None:
        if not 2 <= self.min_chars <= self.start_chars <= self.max_chars:
            raise ValueError("need 2 <= min_chars <= start_chars <= max_chars")
        if not self.min_chars <= self.boost_chars <= self.max_chars or self.boost_s < 0:
            raise ValueError("need min_chars <= boost_chars <= max_chars and boost_s >= 0")
        if min(self.gain, self.crowded_gain, self.min_travel_s, self.filter_s) <= 0 \
                or min(self.crowd_s, self.drain_s, self.change) < 0 \
                or self.history_s <= self.min_travel_s:
            raise ValueError("gains, min_travel_s, filter_s > 0; crowd_s, drain_s, change >= 0; "
                             "history_s > min_travel_s")


class FlowWindow:
    """Window of one session, from the moment flow control started. `produced(chars, now)`:
    the reader handed on `chars` more characters; `acked(chars, now)` (the views consumed
    `chars` more) returns the new `(high, low)` when the window should change, else None."""

    #: Production marks kept (coalesced 5 ms apart): bounds memory during a long flood.
    MARKS = 2048

    def __init__(self, tuning: FlowTuning | None = None) -> None:
        self.tuning = tuning or FlowTuning()
        self.high = self.tuning.start_chars
        self._produced = 0
        self._acked = 0
        self._marks: collections.deque[tuple[int, float]] = collections.deque()  # (end, time)
        self._history: collections.deque[tuple[float, int]] = collections.deque()  # (t, acked)
        self._rtts: collections.deque[tuple[float, float]] = collections.deque()  # (time, s)
        self._best: collections.deque[tuple[float, float]] = collections.deque()  # (time, c/s)
        self._boost_until = float("-inf")

    @property
    def low(self) -> int:
        return self.high // 2

    def produced(self, chars: int, now: float) -> None:
        """The reader handed on `chars` characters at `now`."""
        if chars <= 0:
            return
        self._produced += chars
        if self._marks and now - self._marks[-1][1] < 0.005:
            self._marks[-1] = (self._produced, self._marks[-1][1])  # keep the earliest time
        else:
            self._marks.append((self._produced, now))
            if len(self._marks) > self.MARKS:
                self._marks.popleft()

    def typed(self, now: float) -> tuple[int, int] | None:
        """Input reached the session at `now`: for `boost_s` the window is at least
        `boost_chars`; returns the new `(high, low)` when it grew, else None."""
        self._boost_until = now + self.tuning.boost_s
        if self.high >= self.tuning.boost_chars:
            return None
        self.high = self.tuning.boost_chars
        return self.high, self.low

    def _acked_at(self, when: float) -> tuple[float, int] | None:
        """The last `(time, characters acknowledged)` at or before `when` (None: none kept)."""
        found = None
        for entry in self._history:
            if entry[0] > when:
                break
            found = entry
        return found

    def rtt_min(self, now: float) -> float | None:
        """The shortest read → ack delay of the last `filter_s` (s; None: none measured)."""
        while self._rtts and now - self._rtts[0][0] > self.tuning.filter_s:
            self._rtts.popleft()
        return min((d for _, d in self._rtts), default=None)

    def best_rate(self, now: float) -> float | None:
        """The highest `rate` of the last `filter_s` (characters/s; None: none measured)."""
        while self._best and now - self._best[0][0] > self.tuning.filter_s:
            self._best.popleft()
        return max((r for _, r in self._best), default=None)

    def flooding(self, now: float) -> bool:
        """Whether the views acknowledged output of the session within `crowd_s` of `now` (the
        page acks at least 4096 characters at a time: an echo alone is never acked)."""
        return bool(self._history) and now - self._history[-1][0] <= self.tuning.crowd_s

    def typing(self, now: float) -> bool:
        """Whether input reached the session within `boost_s` of `now` (`typed`)."""
        return now < self._boost_until

    def crowds(self, now: float) -> bool:
        """Whether this session makes the others `crowded`: it floods, or the user types in it
        (its echo must not wait behind a flood elsewhere in the page)."""
        return self.flooding(now) or self.typing(now)

    def acked(self, chars: int, now: float, crowded: bool = False) -> tuple[int, int] | None:
        """The views consumed `chars` more characters at `now`; `crowded`: another session
        `crowds(now)`, so the window holds `crowded_gain` round trips."""
        if chars <= 0:
            return None
        self._acked += chars
        sent_at = None
        while self._marks and self._marks[0][0] <= self._acked:
            sent_at = self._marks.popleft()[1]
        if sent_at is not None:
            self._rtts.append((now, max(0.0, now - sent_at)))
            # BBR's sample: delivered since the last ack before that read, over the time since
            # that ack (not since the read: a burst of acks for text queued earlier would read
            # as a huge rate)
            before = self._acked_at(sent_at)
            interval = now - before[0] if before is not None else 0.0
            if before is not None and interval >= self.tuning.min_travel_s:
                sample = (self._acked - before[1]) / interval
                # a monotonic queue: older samples not above the new one can never be the best
                while self._best and self._best[-1][1] <= sample:
                    self._best.pop()
                self._best.append((now, sample))
        self._history.append((now, self._acked))
        while len(self._history) > 2 and now - self._history[1][0] > self.tuning.history_s:
            self._history.popleft()
        rate, rtt = self.best_rate(now), self.rtt_min(now)
        if rate is None or rtt is None or self._acked < self.tuning.start_chars:
            return None
        t = self.tuning
        wanted = t.crowded_gain * rate * rtt
        if not crowded:  # the extra round trips only while they drain within `drain_s`
            wanted = max(wanted, min(t.gain * rate * rtt, rate * t.drain_s))
        high = int(min(t.max_chars, max(t.min_chars, wanted)))
        if now < self._boost_until:
            high = max(high, t.boost_chars)
        if abs(high - self.high) <= t.change * self.high:
            return None
        self.high = high
        return self.high, self.low


def crowded(session_id: str, windows: Mapping[str, FlowWindow], now: float) -> bool:
    """Whether another session of `windows` (session id → its window) `crowds(now)` the
    session `session_id`: then its window holds `crowded_gain` round trips (`FlowWindow.acked`)."""
    return any(window.crowds(now) for other, window in windows.items() if other != session_id)
