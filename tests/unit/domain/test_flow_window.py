"""`FlowWindow`: the flow-control window follows what the page consumes (ADR 008)."""

from __future__ import annotations

import pytest

from app.core.domain.flow_window import FlowTuning, FlowWindow, PageLoad, crowded, page_load


def drive(window: FlowWindow, seconds: float, chars_per_s: float, delay_s: float,
          start: float = 0.0, tick_s: float = 0.02, crowded: bool = False,
          bound: float | None = None) -> list[tuple[int, int]]:
    """Output produced at `chars_per_s`, each tick's share acked `delay_s` later (whole
    milliseconds, so no float drift moves an ack by a tick); `crowded`: other sessions flood;
    `bound`: the most the page's load lets the window hold (chars)."""
    changes = []
    per_tick = int(chars_per_s * tick_s)
    tick, delay, begin = round(tick_s * 1000), round(delay_s * 1000), round(start * 1000)
    pending: list[tuple[int, int]] = []
    for ms in range(begin, begin + round(seconds * 1000), tick):
        window.produced(per_tick, ms / 1000)
        pending.append((ms + delay, per_tick))
        while pending and pending[0][0] <= ms:
            _, chars = pending.pop(0)
            got = window.acked(chars, ms / 1000, crowded, bound)
            if got:
                changes.append(got)
    return changes


def test_nothing_changes_before_the_rate_and_the_delay_are_known() -> None:
    w = FlowWindow()
    w.produced(1000, 0.0)
    assert w.acked(1000, 0.05) is None  # one ack: no rate yet
    assert (w.high, w.low) == (512_000, 256_000)


def test_the_window_settles_at_gain_round_trips_of_what_the_page_consumes() -> None:
    w = FlowWindow(FlowTuning(min_chars=10_000, max_chars=100_000_000, start_chars=512_000))
    drive(w, 3.0, chars_per_s=20_000_000, delay_s=0.04)
    assert w.high == pytest.approx(4.0 * 20_000_000 * 0.04, rel=0.25)  # alone: gain 4
    assert w.low == w.high // 2


def test_while_other_sessions_flood_the_window_holds_the_crowded_gain() -> None:
    w = FlowWindow(FlowTuning(min_chars=10_000, max_chars=100_000_000, start_chars=512_000))
    drive(w, 3.0, chars_per_s=20_000_000, delay_s=0.04, crowded=True)
    assert w.high == pytest.approx(2.0 * 20_000_000 * 0.04, rel=0.25)
    drive(w, 1.0, chars_per_s=20_000_000, delay_s=0.04, start=3.0)  # the others stopped
    assert w.high == pytest.approx(4.0 * 20_000_000 * 0.04, rel=0.25)


def test_a_session_floods_while_its_output_was_acked_lately() -> None:
    w = FlowWindow(FlowTuning(crowd_s=0.5))
    assert not w.flooding(0.0)  # nothing acked yet
    w.produced(8192, 1.0)
    w.acked(8192, 1.1)
    assert w.flooding(1.2) and w.flooding(1.6)
    assert not w.flooding(1.7)


def test_a_session_is_crowded_by_another_that_floods_or_is_typed_in_never_by_itself() -> None:
    tuning = FlowTuning(crowd_s=0.5, boost_s=1.0)
    flood, typed, quiet = FlowWindow(tuning), FlowWindow(tuning), FlowWindow(tuning)
    flood.produced(8192, 1.0)
    flood.acked(8192, 1.1)
    windows = {"flood": flood, "quiet": quiet}
    assert crowded("quiet", windows, 1.2)
    assert not crowded("flood", windows, 1.2)  # its own flood does not crowd it
    assert not crowded("quiet", windows, 1.7)  # the flood ended
    typed.typed(2.0)
    windows["typed"] = typed
    assert crowded("flood", windows, 2.5)
    assert not crowded("flood", windows, 3.1)  # typing ended


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
    with pytest.raises(ValueError):
        FlowTuning(crowded_gain=0)
    with pytest.raises(ValueError):
        FlowTuning(crowd_s=-1)
    with pytest.raises(ValueError):
        FlowTuning(shared_drain_s=0)
    with pytest.raises(ValueError):
        FlowTuning(shared_queue_s=0)


def test_a_window_limited_flood_grows_its_window_despite_jittery_round_trips() -> None:
    # The reader may only run `high` characters ahead of the acks; round trips swing between
    # 50 and 200 ms (a loaded machine); the page itself could take 20 M chars/s.
    import random

    rng = random.Random(7)
    w = FlowWindow()
    unacked, t, in_flight = 0, 0.0, []
    while t < 5.0:
        room = max(0, w.high - unacked)
        chunk = min(room, int(20_000_000 * 0.02))
        if chunk:
            w.produced(chunk, t)
            unacked += chunk
            in_flight.append((t + rng.uniform(0.05, 0.2), chunk))
        in_flight.sort()
        while in_flight and in_flight[0][0] <= t:
            _, chars = in_flight.pop(0)
            unacked -= chars
            w.acked(chars, t)
        t += 0.02
    assert w.high >= 2_000_000  # grew from 512k instead of shrinking to the floor


def test_bursty_acks_of_a_slow_page_do_not_blow_the_window_up() -> None:
    # The page parses 3 M chars/s in order and acks what it parsed every 100 ms (arriving
    # 20 ms later); the reader runs up to the window ahead. The window must stay near two
    # round trips of 3 M chars/s, far from the 4 M ceiling (Ctrl-C would wait > 1 s).
    w = FlowWindow()
    t, unacked, queue, parsed, acks = 0.0, 0, 0, 0, []
    ms = 0
    while ms < 5000:
        t = ms / 1000
        room = max(0, w.high - unacked)
        if room:
            w.produced(room, t)
            unacked += room
            queue += room
        step = min(queue, 3_000)  # 3 M chars/s = 3 000 per ms
        queue -= step
        parsed += step
        if ms % 100 == 0 and parsed:
            acks.append((ms + 20, parsed))
            parsed = 0
        while acks and acks[0][0] <= ms:
            _, chars = acks.pop(0)
            unacked -= chars
            w.acked(chars, t)
        ms += 1
    assert w.high <= 4 * 3_000_000 * 0.25  # gain × rate × a round trip under 250 ms


def test_a_long_round_trip_keeps_a_window_that_covers_it() -> None:
    # 10 M chars/s through the page, 300 ms from read to ack: the window must cover two round
    # trips (the crowded gain; more would not drain within `drain_s`), or the flood would be
    # held to window ÷ 300 ms (a bound on the whole window did that and collapsed to the floor
    # on a loaded machine)
    w = FlowWindow(FlowTuning(max_chars=100_000_000))
    drive(w, 3.0, chars_per_s=10_000_000, delay_s=0.3)
    assert w.high == pytest.approx(2 * 10_000_000 * 0.3, rel=0.25)


def test_input_boosts_a_small_window_for_a_while_then_it_settles_again() -> None:
    w = FlowWindow(FlowTuning(min_chars=32_000, boost_chars=256_000, boost_s=1.0))
    drive(w, 2.0, chars_per_s=500_000, delay_s=0.04, crowded=True)  # one of 16 floods
    assert w.high == pytest.approx(2 * 500_000 * 0.04, rel=0.25)
    unacked = w.unacked
    high, low = w.typed(2.0) or (0, 0)  # Ctrl-C: the backlog is read at once
    assert (high, low) == (unacked + 256_000, unacked + 128_000)
    assert w.typed(2.1) is None  # already boosted
    drive(w, 0.8, chars_per_s=500_000, delay_s=0.04, start=2.1, crowded=True)
    assert w.high >= 256_000  # acks during the boost keep it
    drive(w, 1.0, chars_per_s=500_000, delay_s=0.04, start=3.2, crowded=True)
    assert w.high <= 64_000  # over: back to about what the page consumes


def test_input_leaves_a_large_window_alone() -> None:
    w = FlowWindow()
    assert w.typed(0.0) is None
    assert w.high == 512_000


def test_the_boost_must_lie_within_the_bounds() -> None:
    with pytest.raises(ValueError):
        FlowTuning(min_chars=32_000, boost_chars=16_000)


def test_the_extra_round_trips_of_a_lone_flood_drain_within_the_bound() -> None:
    # 10 M chars/s, 80 ms round trips (remembered from a crowded spell): four round trips would
    # hold 0.32 s of parsing ahead of a Ctrl-C; the window keeps 0.15 s, above the crowded two
    # round trips (which are never cut: a drain bound on them collapsed a loaded machine)
    w = FlowWindow(FlowTuning(max_chars=100_000_000, drain_s=0.15))
    drive(w, 3.0, chars_per_s=10_000_000, delay_s=0.06)
    assert w.high == pytest.approx(10_000_000 * 0.15, rel=0.25)
    w = FlowWindow(FlowTuning(max_chars=100_000_000, drain_s=0.15))
    drive(w, 3.0, chars_per_s=10_000_000, delay_s=0.12)
    assert w.high == pytest.approx(2 * 10_000_000 * 0.12, rel=0.25)


def page_model(window: FlowWindow, seconds: float, page_chars_per_s: float, base_s: float,
               crowded: bool = False, start: float = 0.0,
               gate: list[int] | None = None, probing: list[float] | None = None) -> list[int]:
    """A flood through a gate into a page that parses `page_chars_per_s` in order, each
    character acked `base_s` after it was parsed (the ack tick and the bridge): what is read
    waits behind what the page holds, so a full window stands as a queue. `gate`:
    `[high, low]`, kept across calls; `probing` collects the times a ProbeRTT drain holds the
    window. Returns the window's `high` after each second."""
    gate = gate if gate is not None else [window.high, window.low]
    paused, queue, acks, highs, unacked = False, [], [], [], 0
    tick = 0.01
    for step in range(round(seconds / tick)):
        now = start + step * tick
        if not paused:
            window.produced(64_000, now)
            queue.append(64_000)
            unacked += 64_000
            paused = unacked > gate[0]
        budget = page_chars_per_s * tick
        while queue and budget > 0:
            take = min(queue[0], budget)
            queue[0] -= take
            budget -= take
            acks.append((now + base_s, int(take)))
            if queue[0] == 0:
                queue.pop(0)
        while acks and acks[0][0] <= now:
            chars = acks.pop(0)[1]
            unacked -= chars
            got = window.acked(chars, now, crowded)
            if got:
                gate[:] = got
                paused = unacked > gate[0]
        if paused and unacked < gate[1]:
            paused = False
        if probing is not None and window.probing:
            probing.append(now)
        if step % round(1 / tick) == round(1 / tick) - 1:
            highs.append(window.high)
    return highs


def test_a_standing_queue_does_not_inflate_the_window_once_the_short_delays_age_out() -> None:
    # one of sixteen floods: a small share of the page, every read waiting behind the
    # session's own backlog; the short delays of the start are older than filter_s after 10 s
    # (without ProbeRTT: 170 k, then 278, 386, 480 k, growing every 10 s)
    w = FlowWindow(FlowTuning(filter_s=10.0))
    highs = page_model(w, 40.0, page_chars_per_s=500_000, base_s=0.05, crowded=True)
    assert max(h for h in highs[5:] if h > w.tuning.min_chars) <= 1.25 * highs[5]


def test_a_probe_drains_to_the_floor_briefly_then_the_window_comes_back() -> None:
    w = FlowWindow(FlowTuning(filter_s=10.0))
    probing: list[float] = []
    highs = page_model(w, 40.0, page_chars_per_s=10_000_000, base_s=0.03, probing=probing)
    assert probing  # the shortest delay aged out: a drain
    spells = [t for i, t in enumerate(probing) if i == 0 or t - probing[i - 1] > 0.02]
    assert len(probing) * 0.01 / len(spells) < 0.3  # each well under a second
    assert highs[-1] >= 2 * 10_000_000 * 0.03  # and the window is back


def test_the_first_keystroke_opens_a_paused_gate_later_ones_add_nothing() -> None:
    w = FlowWindow(FlowTuning(min_chars=32_000, boost_chars=256_000, boost_s=1.0))
    page_model(w, 3.0, page_chars_per_s=500_000, base_s=0.3, crowded=True)
    unacked = w.unacked
    assert unacked > w.low  # the gate waits for acks
    high, low = w.typed(3.0) or (0, 0)
    assert low > unacked and high - unacked == 256_000
    assert w.typed(3.2) is None and w.typed(3.9) is None  # typing on grows no backlog
    assert w.high == high
    page_model(w, 1.0, page_chars_per_s=500_000, base_s=0.3, crowded=True, start=3.95)
    assert w.unacked > w.low
    assert w.typed(5.0) is not None  # a second later, the next keystroke opens it again


def test_one_of_many_floods_holds_at_most_a_short_drain_of_the_whole_page() -> None:
    # one of sixteen floods: its reads wait a whole round of the page (0.45 s) behind the
    # others' turns, so two round trips of its own rate would hold 0.9 M characters, 0.14 s of
    # the whole page's parsing ahead of its Ctrl-C; the bound keeps 0.05 s of it
    tuning = FlowTuning(max_chars=100_000_000, shared_drain_s=0.05, shared_queue_s=0.3)
    floods = {f"s{i}": 406_250.0 for i in range(16)}  # 6.5 M chars/s shared
    bound = PageLoad(floods).bound("s0", tuning)
    assert bound == pytest.approx(6_500_000 * 0.05)
    unbound = FlowWindow(tuning)
    drive(unbound, 3.0, chars_per_s=1_000_000, delay_s=0.45, crowded=True)
    assert unbound.high == pytest.approx(2 * 1_000_000 * 0.45, rel=0.25)
    w = FlowWindow(tuning)
    drive(w, 3.0, chars_per_s=1_000_000, delay_s=0.45, crowded=True, bound=bound)
    assert w.high == round(bound)


def test_a_few_floods_together_keep_the_page_fed() -> None:
    tuning = FlowTuning(shared_drain_s=0.05, shared_queue_s=0.3)
    three = PageLoad({"a": 2e6, "b": 2e6, "c": 2e6})
    assert three.bound("a", tuning) == pytest.approx(6e6 * 0.1)  # 0.3 s shared by three


def test_a_flood_alone_or_taking_half_the_page_is_not_bounded_by_it() -> None:
    # a flood whose company trickles: bounding it by the page's rate would bound it by its own,
    # and a round trip longer than the bound would shrink it turn after turn
    tuning = FlowTuning(shared_drain_s=0.05)
    load = PageLoad({"flood": 10e6, "trickle": 20e3, "other": 30e3})
    assert load.bound("flood", tuning) is None
    assert load.bound("trickle", tuning) == pytest.approx(load.rate * 0.1)
    assert PageLoad({"flood": 10e6}).bound("flood", tuning) is None  # no company
    assert PageLoad({"flood": 10e6}).bound("quiet", tuning) == pytest.approx(10e6 * 0.3)


def test_the_bound_stays_above_the_floor() -> None:
    w = FlowWindow(FlowTuning(min_chars=64_000, start_chars=64_000))
    drive(w, 3.0, chars_per_s=100_000, delay_s=0.45, crowded=True, bound=20_000)
    assert w.high == 64_000


def test_delivery_is_what_was_acked_over_the_last_second() -> None:
    w = FlowWindow()
    assert w.delivery(0.0) == 0.0
    drive(w, 3.0, chars_per_s=2_000_000, delay_s=0.05)
    assert w.delivery(3.0) == pytest.approx(2_000_000, rel=0.05)
    assert w.delivery(3.0, span_s=0.5) == pytest.approx(2_000_000, rel=0.1)


def test_the_page_load_is_what_the_views_acked_of_each_flood() -> None:
    tuning = FlowTuning(crowd_s=0.5)
    a, b, quiet = FlowWindow(tuning), FlowWindow(tuning), FlowWindow(tuning)
    drive(a, 2.0, chars_per_s=1_000_000, delay_s=0.05)
    drive(b, 2.0, chars_per_s=3_000_000, delay_s=0.05)
    load = page_load({"a": a, "b": b, "quiet": quiet}, 2.0)
    assert set(load.deliveries) == {"a", "b"}
    assert load.rate == pytest.approx(4_000_000, rel=0.05)
    assert page_load({"a": a}, 4.0) == PageLoad({})  # the flood ended
