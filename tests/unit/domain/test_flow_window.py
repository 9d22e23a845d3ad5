"""`FlowWindow`: the flow-control window follows what the page consumes (ADR 007)."""

from __future__ import annotations

import pytest

from app.core.domain.flow_window import FlowTuning, FlowWindow


def drive(window: FlowWindow, seconds: float, chars_per_s: float, delay_s: float,
          start: float = 0.0, tick_s: float = 0.02) -> list[tuple[int, int]]:
    """Output produced at `chars_per_s`, each tick's share acked `delay_s` later."""
    changes = []
    per_tick = int(chars_per_s * tick_s)
    t = start
    pending: list[tuple[float, int]] = []
    while t < start + seconds:
        window.produced(per_tick, t)
        pending.append((t + delay_s, per_tick))
        while pending and pending[0][0] <= t:
            _, chars = pending.pop(0)
            got = window.acked(chars, t)
            if got:
                changes.append(got)
        t += tick_s
    return changes


def test_nothing_changes_before_the_rate_and_the_delay_are_known() -> None:
    w = FlowWindow()
    w.produced(1000, 0.0)
    assert w.acked(1000, 0.05) is None  # one ack: no rate yet
    assert (w.high, w.low) == (512_000, 256_000)


def test_the_window_settles_at_gain_round_trips_of_what_the_page_consumes() -> None:
    w = FlowWindow(FlowTuning(min_chars=10_000, max_chars=100_000_000, start_chars=512_000))
    drive(w, 3.0, chars_per_s=20_000_000, delay_s=0.04)
    assert w.high == pytest.approx(2.0 * 20_000_000 * 0.04, rel=0.25)
    assert w.low == w.high // 2


def test_a_slow_page_gets_a_small_window_bounded_below() -> None:
    w = FlowWindow(FlowTuning(min_chars=128_000))
    drive(w, 2.0, chars_per_s=500_000, delay_s=0.04)  # 16 floods sharing the page
    assert w.high == 128_000


def test_the_window_is_bounded_above() -> None:
    w = FlowWindow(FlowTuning(max_chars=4_000_000))
    drive(w, 2.0, chars_per_s=200_000_000, delay_s=0.05)
    assert w.high == 4_000_000


def test_a_standing_queue_does_not_inflate_the_window() -> None:
    # the same page speed, acks delayed more and more by a queue in the page: the shortest
    # delay still sizes the window
    w = FlowWindow(FlowTuning(min_chars=10_000, max_chars=100_000_000))
    drive(w, 1.0, chars_per_s=10_000_000, delay_s=0.03)
    first = w.high
    drive(w, 1.0, chars_per_s=10_000_000, delay_s=0.3, start=1.0)
    assert w.high <= first * 1.25


def test_small_changes_are_ignored_and_an_idle_spell_is_no_measure() -> None:
    w = FlowWindow(FlowTuning(min_chars=10_000, max_chars=100_000_000))
    drive(w, 2.0, chars_per_s=10_000_000, delay_s=0.04)
    settled = w.high
    assert drive(w, 1.0, chars_per_s=10_500_000, delay_s=0.04, start=2.0) == []
    w.produced(10, 10.0)
    assert w.acked(10, 10.01) is None  # after a long pause: one sample, no rate
    assert w.high == settled


def test_tuning_is_validated() -> None:
    with pytest.raises(ValueError):
        FlowTuning(min_chars=10, start_chars=5)
    with pytest.raises(ValueError):
        FlowTuning(gain=0)
