"""`PushPipeline` and `fair_shares`: what may be in flight to a window (ADR 008)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.push_pipeline import PipelineLimits, PushPipeline, fair_shares


def test_room_shrinks_with_characters_in_flight_and_closes_at_the_depth() -> None:
    p = PushPipeline(PipelineLimits(depth=2, chars_in_flight=1000, small_chars=10))
    assert p.room() == 1000
    t0 = p.posted(400)
    assert p.room() == 600
    p.posted(100)
    assert p.room() == 0  # depth reached
    assert p.ran(t0) == 1
    assert p.room() == 900 and p.in_flight == 1 and p.chars == 100


def test_room_is_zero_once_the_characters_are_spent_even_below_the_depth() -> None:
    p = PushPipeline(PipelineLimits(depth=8, chars_in_flight=1000, small_chars=10))
    p.posted(1200)  # a whole chunk may overshoot
    assert p.room() == 0


def test_the_urgent_slot_is_one_beyond_the_depth_and_only_for_small_pushes() -> None:
    p = PushPipeline(PipelineLimits(depth=1, chars_in_flight=100, small_chars=10))
    p.posted(100)
    assert p.room() == 0
    assert p.may_post_urgent(10)
    assert not p.may_post_urgent(11)
    p.posted(5)
    assert not p.may_post_urgent(1)  # the one extra slot is taken


def test_a_completion_implies_every_earlier_push_and_late_ones_are_ignored() -> None:
    p = PushPipeline()
    tickets = [p.posted(10) for _ in range(3)]
    assert p.oldest() == tickets[0]
    assert p.ran(tickets[1]) == 2  # scripts run in posting order
    assert p.oldest() == tickets[2]
    assert p.ran(tickets[0]) == 0
    assert p.ran(tickets[2]) == 1 and p.idle()
    with pytest.raises(ValueError, match="no push 7"):
        p.ran(7)


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError):
        PipelineLimits(depth=0)
    with pytest.raises(ValueError):
        PipelineLimits(chars_in_flight=0)


def test_fair_shares_split_equally_and_pass_on_what_a_session_does_not_need() -> None:
    assert fair_shares({"a": 5000, "b": 5000}, 1000, 10_000) == {"a": 500, "b": 500}
    assert fair_shares({"a": 100, "b": 5000}, 1000, 10_000) == {"a": 100, "b": 900}
    assert fair_shares({"a": 5000, "b": 5000}, 10_000, 2000) == {"a": 2000, "b": 2000}
    assert fair_shares({}, 100, 100) == {}


def test_fair_shares_rotate_who_gets_the_odd_character() -> None:
    first = fair_shares({"a": 10, "b": 10, "c": 10}, 2, 10, start=0)
    second = fair_shares({"a": 10, "b": 10, "c": 10}, 2, 10, start=1)
    assert set(first) == {"a", "b"} and set(second) == {"b", "c"}


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(0, 10_000), max_size=20),
       st.integers(0, 50_000), st.integers(1, 20_000), st.integers(0, 100))
def test_fair_shares_never_exceed_the_room_the_cap_or_what_is_pending(
        pending: dict[str, int], room: int, cap: int, start: int) -> None:
    shares = fair_shares(pending, room, cap, start)
    assert sum(shares.values()) <= room
    assert all(0 < n <= min(cap, pending[sid]) for sid, n in shares.items())
    wanted = sum(min(cap, n) for n in pending.values())
    assert sum(shares.values()) == min(room, wanted)  # no room is left unused while wanted
