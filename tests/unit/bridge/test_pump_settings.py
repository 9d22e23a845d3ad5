"""The window's pump settings and their benchmark overrides (app/main.py, ADR 008)."""

from __future__ import annotations

import pytest

from app.bridge.push import blocking_post
from app.main import pump_factory


def test_defaults_and_overrides() -> None:
    post = blocking_post(lambda script: None)
    pump = pump_factory({})(post)
    assert (pump.limits.depth, pump.limits.chars_in_flight) == (4, 1_048_576)
    pump = pump_factory({"IDEA_PUSH_DEPTH": "1", "IDEA_PUSH_INFLIGHT_CHARS": "512000"})(post)
    assert (pump.limits.depth, pump.limits.chars_in_flight) == (1, 512_000)


def test_a_bad_value_names_the_variable() -> None:
    with pytest.raises(ValueError, match="IDEA_PUSH_DEPTH"):
        pump_factory({"IDEA_PUSH_DEPTH": "-2"})
