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

The shortest delay is BBR's min-RTT filter, with BBR's ProbeRTT (issue 11, `docs/benchmarks.md`
sitting 15). A delay only replaces the shortest one when it is shorter, or when the shortest is
older than `filter_s`; then the window drops to `min_chars` until what is unacknowledged fits in
it, and the first delay measured on a read made after that drain is the new shortest one. A plain
"shortest of the last `filter_s`" let a standing queue in the page become the shortest delay once
the early short samples aged out: with sixteen floods sharing the page every sample waited behind
the session's own backlog, so the window grew to twice that backlog, and again (0.7–1.3 M
characters each after 15 s, measured), and Ctrl-C waited for it.

One of several floods is bounded by the page's load as well (`PageLoad.bound`, issue 11,
`docs/benchmarks.md` sitting 20): its delay is a round of the page's turns among the floods,
which its own ProbeRTT cannot drain, and its best rate the bursts of its turns, so the estimate
above held 0.5–3 M characters each; the bound keeps what its Ctrl-C waits behind to what the
whole page parses in `shared_drain_s`.

Input opens the gate at once (`typed`): a keystroke lets the reader take `boost_chars` more
than is unacknowledged, so what follows a Ctrl-C is read now, not once the page has parsed half
of the backlog (measured: the reader waited 50–200 ms for acks with sixteen floods). At most
once per `boost_s`, so typing into a flood grows its backlog by at most that much a second.

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
    window, reaches its prompt in one turnover of the window rather than several (ADR 020);
    `probe_s`: the longest a ProbeRTT drain lasts (s) before the window comes back anyway;
    `shared_drain_s`/`shared_queue_s`: while other sessions flood too, the window is at most
    what the whole page consumes in `shared_drain_s` (s), so what a Ctrl-C waits behind stays
    that short however the session's own rate and delay are estimated, and at least in
    `shared_queue_s` (s) shared by the floods, so together they keep the page fed
    (`PageLoad.bound`)."""

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
    probe_s: float = 5.0
    shared_drain_s: float = 0.08
    shared_queue_s: float = 0.3

    def __post_init__(self) -> None:
        if not 2 <= self.min_chars <= self.start_chars <= self.max_chars:
            raise ValueError("need 2 <= min_chars <= start_chars <= max_chars")
        if not self.min_chars <= self.boost_chars <= self.max_chars or self.boost_s < 0:
            raise ValueError("need min_chars <= boost_chars <= max_chars and boost_s >= 0")
        if min(self.gain, self.crowded_gain, self.min_travel_s, self.filter_s, self.probe_s,
               self.shared_drain_s, self.shared_queue_s) <= 0 \
                or min(self.crowd_s, self.drain_s, self.change) < 0 \
                or self.history_s <= self.min_travel_s:
            raise ValueError("gains, min_travel_s, filter_s, probe_s, shared_*_s > 0; "
                             "crowd_s, drain_s, change >= 0; history_s > min_travel_s")


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
        self._rtt: float | None = None  # the shortest read → ack delay (s) …
        self._rtt_at = float("-inf")  # … measured then
        self._probe_until: float | None = None  # ProbeRTT: the drain's deadline
        self._probe_mark: int | None = None  # ProbeRTT: produced count once drained
        self._best: collections.deque[tuple[float, float]] = collections.deque()  # (time, c/s)
        self._boost_until = float("-inf")
        self._opened_at = float("-inf")  # when input last opened the gate

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

    @property
    def unacked(self) -> int:
        """Characters produced and not acknowledged yet."""
        return self._produced - self._acked

    @property
    def probing(self) -> bool:
        """Whether a ProbeRTT drain holds the window at `min_chars` now."""
        return self._probe_until is not None

    def typed(self, now: float) -> tuple[int, int] | None:
        """Input reached the session at `now`: for `boost_s` the window is at least
        `boost_chars`, and input opens the gate for `boost_chars` more than is unacknowledged,
        at most once per `boost_s` (so the returned `low` may be above `high // 2`: the gate
        reopens below it). Returns the new `(high, low)`, or None when nothing changes."""
        t = self.tuning
        first = now - self._opened_at >= t.boost_s
        self._boost_until = now + t.boost_s
        self._end_probe()  # the human waits: no drain now
        high = max(self.high, t.boost_chars)
        if not first:
            if high == self.high:
                return None
            self.high = high
            return self.high, self.low
        high = max(high, min(t.max_chars, self.unacked + t.boost_chars))
        low = min(high - 1, max(high // 2, self.unacked + t.boost_chars // 2))
        if high == self.high and low == self.low:
            return None  # the gate is open, or opens on its own, for that much more
        self.high, self._opened_at = high, now
        return high, low

    def _acked_at(self, when: float) -> tuple[float, int] | None:
        """The last `(time, characters acknowledged)` at or before `when` (None: none kept)."""
        found = None
        for entry in self._history:
            if entry[0] > when:
                break
            found = entry
        return found

    def rtt_min(self, now: float) -> float | None:
        """The shortest read → ack delay (s; None: none measured): BBR's min-RTT filter, a
        delay being replaced by a shorter one, or by any once it is `filter_s` old."""
        return self._rtt

    def _delay_sample(self, delay: float, end: int, now: float) -> bool:
        """A read ending at produced count `end` was acked `delay` s after it; returns True
        when the ProbeRTT drain starts now (the shortest delay expired)."""
        if self._probe_mark is not None and end > self._probe_mark:
            self._rtt, self._rtt_at = delay, now  # read once drained: the delay without a queue
            self._end_probe()
            return False
        if self._rtt is None or delay <= self._rtt:
            self._rtt, self._rtt_at = delay, now
            return False
        if now - self._rtt_at <= self.tuning.filter_s or self.probing:
            return False
        self._rtt, self._rtt_at = delay, now
        if now < self._boost_until or self.unacked <= self.tuning.min_chars:
            return False  # nothing standing to drain, or the human waits
        self._probe_until, self._probe_mark = now + self.tuning.probe_s, None
        return True

    def _end_probe(self) -> None:
        self._probe_until = self._probe_mark = None

    def best_rate(self, now: float) -> float | None:
        """The highest `rate` of the last `filter_s` (characters/s; None: none measured)."""
        while self._best and now - self._best[0][0] > self.tuning.filter_s:
            self._best.popleft()
        return max((r for _, r in self._best), default=None)

    def flooding(self, now: float) -> bool:
        """Whether the views acknowledged output of the session within `crowd_s` of `now` (the
        page acks at least 4096 characters at a time: an echo alone is never acked)."""
        return bool(self._history) and now - self._history[-1][0] <= self.tuning.crowd_s

    def delivery(self, now: float, span_s: float = 1.0) -> float:
        """Characters/s the views acknowledged over the last `span_s` s (over the acks kept,
        when they cover less; 0.0 before two acks)."""
        acked, since = self._acked, now
        for t, count in reversed(self._history):
            since, acked = t, count
            if now - t >= span_s:
                break
        return (self._acked - acked) / (now - since) if now - since >= self.tuning.min_travel_s \
            else 0.0

    def typing(self, now: float) -> bool:
        """Whether input reached the session within `boost_s` of `now` (`typed`)."""
        return now < self._boost_until

    def crowds(self, now: float) -> bool:
        """Whether this session makes the others `crowded`: it floods, or the user types in it
        (its echo must not wait behind a flood elsewhere in the page)."""
        return self.flooding(now) or self.typing(now)

    def acked(self, chars: int, now: float, crowded: bool = False,
              bound: float | None = None) -> tuple[int, int] | None:
        """The views consumed `chars` more characters at `now`; `crowded`: another session
        `crowds(now)`, so the window holds `crowded_gain` round trips; `bound` (characters,
        None: none): the most the page's load lets it hold (`PageLoad.bound`)."""
        if chars <= 0:
            return None
        self._acked += chars
        sent_at, end = None, 0
        while self._marks and self._marks[0][0] <= self._acked:
            end, sent_at = self._marks.popleft()
        probe = False
        if sent_at is not None:
            probe = self._delay_sample(max(0.0, now - sent_at), end, now)
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
        t = self.tuning
        if self._probe_until is not None:
            if probe:
                self.high = t.min_chars
                return self.high, self.low
            if now < self._probe_until:
                if self._probe_mark is None and self.unacked <= t.min_chars:
                    self._probe_mark = self._produced  # drained: the next read is timed bare
                return None
            self._end_probe()
        rate, rtt = self.best_rate(now), self.rtt_min(now)
        if rate is None or rtt is None or self._acked < self.tuning.start_chars:
            return None
        wanted = t.crowded_gain * rate * rtt
        if not crowded:  # the extra round trips only while they drain within `drain_s`
            wanted = max(wanted, min(t.gain * rate * rtt, rate * t.drain_s))
        if bound is not None:
            wanted = min(wanted, bound)
        high = int(min(t.max_chars, max(t.min_chars, wanted)))
        if now < self._boost_until:
            high = max(high, t.boost_chars)
        if abs(high - self.high) <= t.change * self.high:
            return None
        self.high = high
        return self.high, self.low


@dataclass(frozen=True)
class PageLoad:
    """What the page consumed of each flooding session over the last second (`deliveries`:
    session id → characters/s; `rate`: their sum). Measured by `page_load`."""

    deliveries: Mapping[str, float]

    @property
    def rate(self) -> float:
        return sum(self.deliveries.values())

    def bound(self, session_id: str, tuning: FlowTuning) -> float | None:
        """The most `session_id`'s window may hold (characters), or None (no bound): the page's
        rate × `shared_drain_s`, or × `shared_queue_s` ÷ the floods when that is more (a few
        floods together keep the page fed). Only while another session floods, and never for
        a session taking half the page or more: bounding it by the page's rate would bound it
        by its own, and a round trip longer than the bound would shrink it turn after turn.

        Why (issue 11, `docs/benchmarks.md` sitting 20): with sixteen floods each session's
        delay is a round of the page's turns (0.4–0.6 s: its ProbeRTT drains its own queue,
        not the others'), and its best rate the bursts of its turns (about twice its share),
        so the windows ran to 0.5–3 M characters, 0.1–0.5 s of the page's parsing ahead of a
        Ctrl-C (painted worst 180–268 ms; with the bound 126–137).
        The page's rate does not depend on one session's window while the others keep it
        busy, so the bound does not collapse the way a drain bound on the session's own rate
        did (ADR 008)."""
        rate = self.rate
        if not any(sid != session_id for sid in self.deliveries) \
                or 2 * self.deliveries.get(session_id, 0.0) > rate:
            return None
        return rate * max(tuning.shared_drain_s, tuning.shared_queue_s / len(self.deliveries))


def page_load(windows: Mapping[str, FlowWindow], now: float) -> PageLoad:
    """The `PageLoad` of `windows` (session id → its window) at `now`: the sessions whose
    output the views acknowledged lately (`flooding`)."""
    return PageLoad({sid: w.delivery(now) for sid, w in windows.items() if w.flooding(now)})


def crowded(session_id: str, windows: Mapping[str, FlowWindow], now: float) -> bool:
    """Whether another session of `windows` (session id → its window) `crowds(now)` the
    session `session_id`: then its window holds `crowded_gain` round trips (`FlowWindow.acked`)."""
    return any(window.crowds(now) for other, window in windows.items() if other != session_id)
