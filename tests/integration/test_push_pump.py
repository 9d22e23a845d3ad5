"""`PushPump` with injected fake windows (no window): a blocking one (`blocking_post`) and a
pipelined one that confirms scripts only when the test says so. Asserts on calls, contents and
order, never on durations; the long `interval_ms` values make urgency the only early trigger."""

from __future__ import annotations

import json
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from app.adapters.pty.common import HIGH_WATER_CHARS, LOW_WATER_CHARS
from app.bridge.push import PUSH_FUNCTION, PushPump, blocking_post, encode_batch
from app.core.domain.push_pipeline import PipelineLimits
from app.core.domain.sessions import TerminalChunk

pytestmark = pytest.mark.timeout(60)

LONG_MS = 60_000  # an interval no test waits for


class FakeWindow:
    def __init__(self, fail_first: bool = False) -> None:
        self.lock = threading.Lock()
        self.scripts: list[str] = []
        self.fail_first = fail_first

    def evaluate(self, script: str) -> object:
        with self.lock:
            self.scripts.append(script)
            if self.fail_first and len(self.scripts) == 1:
                raise RuntimeError("window not there")
        return None

    @property
    def post(self) -> Callable[[str, Callable[[], None]], None]:
        return blocking_post(self.evaluate)

    @property
    def batches(self) -> list[dict[str, Any]]:
        with self.lock:
            scripts = list(self.scripts)
        out = []
        for s in scripts:
            prefix = PUSH_FUNCTION + "("
            assert s.startswith(prefix) and s.endswith(")")
            out.append(json.loads(s[len(prefix):-1]))
        return out

    def calls(self) -> int:
        with self.lock:
            return len(self.scripts)

    def output_of(self, sid: str) -> str:
        return "".join(b["output"].get(sid, "") for b in self.batches)

    def events(self) -> list[dict[str, Any]]:
        return [e for b in self.batches for e in b["events"]]


# Per pump (weakly: a later pump may reuse a collected one's id(), and must start at offset 0).
_ends: weakref.WeakKeyDictionary[PushPump, dict[str, int]] = weakref.WeakKeyDictionary()


def feed(pump: PushPump, sid: str, text: str, size: int = 4096) -> None:
    """Hand `text` to the pump as the PTY host would: chunks of at most `size` characters
    (one read) with consecutive offsets (ASCII here, so units = characters)."""
    ends = _ends.setdefault(pump, {})
    for at in range(0, len(text), size):
        piece = text[at:at + size]
        offset = ends.get(sid, 0)
        ends[sid] = offset + len(piece)
        pump.add_chunk(TerminalChunk(sid, offset, offset + len(piece), piece))


def wait_until(pred: Callable[[], bool], deadline_s: float = 20.0) -> bool:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


def test_queues_until_started_then_sends_one_batch() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=LONG_MS)
    for i in range(100):
        feed(pump, "s1", f"line {i}\r\n")
    feed(pump, "s2", "prompt$ ")
    pump.add_event({"type": "problem", "file": "a.json", "message": "bad"})
    time.sleep(0.1)
    assert win.calls() == 0  # the window is not ready
    pump.start()
    try:
        assert wait_until(lambda: win.calls() >= 1)
        time.sleep(0.1)
        assert win.calls() == 1
        batch = win.batches[0]
        assert batch["output"]["s1"] == "".join(f"line {i}\r\n" for i in range(100))
        assert batch["output"]["s2"] == "prompt$ "
        assert batch["events"] == [{"type": "problem", "file": "a.json", "message": "bad"}]
    finally:
        pump.stop()


def test_idle_output_is_flushed_immediately_busy_output_waits() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=LONG_MS)
    pump.start()
    try:
        feed(pump, "s1", "a")  # idle terminal: immediate
        assert wait_until(lambda: win.calls() == 1)
        feed(pump, "s1", "b")  # s1 just produced output: waits for the interval
        time.sleep(0.2)
        assert win.calls() == 1
        feed(pump, "s2", "echo")  # a quiet terminal's echo is not held back by s1
        assert wait_until(lambda: win.calls() == 2)
        assert win.batches[1]["output"] == {"s1": "b", "s2": "echo"}
    finally:
        pump.stop()


def test_pending_threshold_flushes_before_the_interval() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=LONG_MS, flush_chars=1000, session_chars=10_000)
    pump.start()
    try:
        feed(pump, "s1", "x")
        assert wait_until(lambda: win.calls() == 1)
        for _ in range(20):
            feed(pump, "s1", "y" * 100)
        assert wait_until(lambda: len(win.output_of("s1")) >= 1001)
        assert win.output_of("s1").startswith("xy")
    finally:
        pump.stop()


def test_default_batches_cut_a_full_flow_control_window_into_session_shares() -> None:
    # A window's worth of output (what the reader lets through before it pauses) goes in
    # session-sized pushes, each starting where the previous ended.
    win = FakeWindow()
    pump = PushPump(win.post)
    flood = "".join(chr(ord("a") + i % 26) for i in range(HIGH_WATER_CHARS))
    feed(pump, "s1", flood, size=4000)
    pump.start()
    try:
        assert wait_until(lambda: win.output_of("s1") == flood)
        sizes = [len(b["output"]["s1"]) for b in win.batches]
        assert all(n <= 256_000 for n in sizes) and sum(sizes) == HIGH_WATER_CHARS
        offsets = [b["offsets"]["s1"] for b in win.batches]
        assert offsets == [sum(sizes[:i]) for i in range(len(sizes))]
        assert LOW_WATER_CHARS < HIGH_WATER_CHARS
    finally:
        pump.stop()


def test_per_session_fairness_caps_a_chatty_session() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=5, session_chars=64 * 1024)
    chatty = "".join(chr(ord("a") + i % 26) for i in range(200_000))
    feed(pump, "chatty", chatty)
    feed(pump, "quiet", "$ ")
    pump.start()
    try:
        assert wait_until(lambda: win.output_of("chatty") == chatty)
        batches = win.batches
        first = batches[0]["output"]
        assert first["quiet"] == "$ "  # the quiet one is not behind the chatty one
        assert len(first["chatty"]) == 64 * 1024
        assert all(len(b["output"].get("chatty", "")) <= 64 * 1024 for b in batches)
        assert len(batches) >= 4  # 200 000 chars in 64 KiB shares
    finally:
        pump.stop()


def test_session_event_waits_for_that_sessions_output() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=5, session_chars=1000)
    feed(pump, "s1", "z" * 2500, size=500)
    pump.add_event({"type": "sessionExited", "sessionId": "s1", "exitCode": 0}, "s1")
    pump.start()
    try:
        assert wait_until(lambda: len(win.events()) == 1)
        batches = win.batches
        with_event = [i for i, b in enumerate(batches) if b["events"]]
        assert with_event[0] >= 2  # 2500 chars at 1000 per batch take three batches
        seen = "".join(b["output"].get("s1", "") for b in batches[: with_event[0] + 1])
        assert seen == "z" * 2500  # all output went out no later than the exit event
    finally:
        pump.stop()


def test_stop_with_flush_drains_and_later_adds_are_dropped() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=LONG_MS, session_chars=100)
    feed(pump, "s1", "q" * 1000)
    pump.start()
    pump.stop(flush=True)
    assert win.output_of("s1") == "q" * 1000
    assert not pump.running
    calls = win.calls()
    feed(pump, "s1", "late")
    pump.add_event({"type": "x"})
    time.sleep(0.05)
    assert win.calls() == calls


def test_a_failing_evaluate_does_not_kill_the_pump() -> None:
    win = FakeWindow(fail_first=True)
    pump = PushPump(win.post, interval_ms=LONG_MS)
    pump.start()
    try:
        feed(pump, "s1", "one")
        assert wait_until(lambda: win.calls() == 1)
        feed(pump, "s2", "two")
        assert wait_until(lambda: win.calls() == 2)
        assert pump.running
    finally:
        pump.stop()


def test_encode_batch_is_safe_to_embed() -> None:
    text = "é€😀 a\u2028b\u2029c \x00 \"quote\" </script>"
    encoded = encode_batch({"s1": text}, [{"type": "problem", "file": "bad\udcff", "message": "m"}])
    assert "\u2028" not in encoded and "\u2029" not in encoded
    assert "é€😀" in encoded  # not \u-escaped
    decoded = json.loads(encoded)
    assert decoded["output"]["s1"] == text
    assert decoded["events"][0]["file"].startswith("bad")
    encoded.encode("utf-8")  # no lone surrogates left


def test_offsets_are_the_chunks_own_and_a_gap_starts_a_new_batch() -> None:
    win = FakeWindow()
    pump = PushPump(win.post, interval_ms=5)
    pump.add_chunk(TerminalChunk("s1", 100, 103, "abc"))
    pump.add_chunk(TerminalChunk("s1", 103, 105, "de"))
    pump.add_chunk(TerminalChunk("s1", 200, 201, "z"))  # not contiguous: never glued on
    pump.start()
    try:
        assert wait_until(lambda: win.output_of("s1") == "abcdez")
        assert [(b["offsets"]["s1"], b["output"]["s1"]) for b in win.batches] == [
            (100, "abcde"), (200, "z")]
    finally:
        pump.stop()


class PipelinedWindow:
    """A window that runs nothing until `complete(n)`: scripts stay in flight as in Qt's
    queue, confirmations come back in posting order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.posted: list[str] = []
        self.pending: list[Callable[[], None]] = []

    def post(self, script: str, done: Callable[[], None]) -> None:
        with self.lock:
            self.posted.append(script)
            self.pending.append(done)

    def complete(self, n: int = 1) -> None:
        with self.lock:
            done, self.pending = self.pending[:n], self.pending[n:]
        for d in done:
            d()

    def in_flight(self) -> int:
        with self.lock:
            return len(self.pending)

    def batches(self) -> list[dict[str, Any]]:
        with self.lock:
            scripts = list(self.posted)
        prefix = PUSH_FUNCTION + "("
        return [json.loads(s[len(prefix):-1]) for s in scripts]

    def output_of(self, sid: str) -> str:
        return "".join(b["output"].get(sid, "") for b in self.batches())


def test_several_pushes_travel_at_once_in_order_up_to_the_depth() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=3, chars_in_flight=10_000_000, small_chars=100)
    pump = PushPump(win.post, interval_ms=1, flush_chars=1000, session_chars=1000, limits=limits)
    text = "".join(chr(ord("a") + i % 26) for i in range(10_000))
    feed(pump, "s1", text, size=500)
    pump.start()
    try:
        assert wait_until(lambda: win.in_flight() == 3)
        time.sleep(0.1)
        assert win.in_flight() == 3  # the depth holds: nothing more without a confirmation
        while win.output_of("s1") != text:
            win.complete(1)
            assert wait_until(lambda: win.in_flight() >= 1 or win.output_of("s1") == text)
        offsets = [b["offsets"]["s1"] for b in win.batches()]
        assert offsets == sorted(offsets) and offsets[0] == 0  # strict order, no gap
        assert pump.max_in_flight == 3
    finally:
        win.complete(100)
        pump.stop()


def test_characters_in_flight_are_bounded() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=8, chars_in_flight=3000, small_chars=100)
    pump = PushPump(win.post, interval_ms=1, flush_chars=500, session_chars=1000, limits=limits)
    feed(pump, "s1", "y" * 20_000, size=500)
    pump.start()
    try:
        assert wait_until(lambda: win.in_flight() >= 3)
        time.sleep(0.1)
        held = win.in_flight()
        # one budget (plus less than one PTY read of overshoot), not eight pushes' worth
        assert len(win.output_of("s1")) <= 3000 + 500
        assert held < 8
        time.sleep(0.05)
        assert win.in_flight() == held  # nothing more moves without a confirmation
        win.complete(1)
        assert wait_until(lambda: win.in_flight() >= held)
    finally:
        win.complete(100)
        pump.stop()


def test_a_quiet_sessions_echo_takes_the_urgent_slot_behind_a_full_pipeline() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=2, chars_in_flight=2000, small_chars=100)
    pump = PushPump(win.post, interval_ms=LONG_MS, flush_chars=500, session_chars=1000,
                    limits=limits)
    pump.start()
    try:
        feed(pump, "flood", "f" * 10_000, size=500)
        assert wait_until(lambda: win.in_flight() == 2)
        time.sleep(0.05)
        assert win.in_flight() == 2  # full: depth and characters
        feed(pump, "quiet", "x")
        assert wait_until(lambda: win.in_flight() == 3)  # the urgent slot, at once
        last = win.batches()[-1]
        assert last["output"] == {"quiet": "x"}
        feed(pump, "other", "y")  # the urgent slot is taken: this one waits for a completion
        time.sleep(0.05)
        assert win.in_flight() == 3
        win.complete(1)
        assert wait_until(lambda: "other" in win.output_of("other") or win.output_of("other") == "y")
    finally:
        win.complete(100)
        pump.stop()


def test_events_keep_their_place_behind_their_sessions_output_across_pipelined_pushes() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=4, chars_in_flight=100_000, small_chars=10_000)
    pump = PushPump(win.post, interval_ms=1, flush_chars=500, session_chars=500, limits=limits)
    feed(pump, "s1", "z" * 5000, size=250)
    pump.add_event({"type": "sessionExited", "sessionId": "s1", "exitCode": 0}, "s1")
    pump.add_event({"type": "problem", "file": "a", "message": "m"})
    pump.start()
    try:
        deadline = time.monotonic() + 20
        while len([e for b in win.batches() for e in b["events"]]) < 2 and time.monotonic() < deadline:
            win.complete(1)
            time.sleep(0.005)
        batches = win.batches()
        first_event = next(i for i, b in enumerate(batches) if b["events"])
        seen = "".join(b["output"].get("s1", "") for b in batches[: first_event + 1])
        assert seen == "z" * 5000
        assert [e["type"] for b in batches for e in b["events"]] == ["sessionExited", "problem"]
    finally:
        win.complete(100)
        pump.stop()


def test_sessions_share_the_room_fairly_and_in_turn() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=1, chars_in_flight=1200, small_chars=0)
    pump = PushPump(win.post, interval_ms=1, flush_chars=100, session_chars=10_000, limits=limits)
    for sid in ("a", "b", "c"):
        feed(pump, sid, sid * 3000, size=100)
    pump.start()
    try:
        assert wait_until(lambda: win.in_flight() == 1)
        first = win.batches()[0]["output"]
        assert {sid: len(t) for sid, t in first.items()} == {"a": 400, "b": 400, "c": 400}
        while any(win.output_of(s) != s * 3000 for s in "abc"):
            win.complete(1)
            assert wait_until(lambda: win.in_flight() == 1 or all(
                win.output_of(s) == s * 3000 for s in "abc"))
    finally:
        win.complete(100)
        pump.stop()


def test_a_push_never_confirmed_is_written_off() -> None:
    win = PipelinedWindow()
    limits = PipelineLimits(depth=1, chars_in_flight=1000, small_chars=0)
    pump = PushPump(win.post, interval_ms=1, limits=limits, stall_s=0.2)
    pump.start()
    try:
        feed(pump, "s1", "one")
        assert wait_until(lambda: win.in_flight() == 1)
        feed(pump, "s1", "two")
        assert wait_until(lambda: win.output_of("s1") == "onetwo")  # the lost one is written off
        assert pump.written_off >= 1
        win.complete(100)  # late confirmations are harmless
        assert pump.running
    finally:
        pump.stop()
