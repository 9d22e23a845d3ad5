"""`FlowGate` thresholds and their retune (ADR 008)."""

from __future__ import annotations

import pytest

from app.adapters.pty.common import FlowGate


def test_closes_above_high_and_reopens_below_low() -> None:
    gate = FlowGate(100, 50)
    gate.produced(101)
    assert gate.paused
    gate.ack(40)
    assert gate.paused
    gate.ack(20)
    assert not gate.paused


def test_a_wider_window_reopens_a_closed_gate_at_once() -> None:
    gate = FlowGate(100, 50)
    gate.produced(150)
    assert gate.paused
    gate.set_window(1000, 500)
    assert not gate.paused and gate.window == (1000, 500)
    assert gate.wait_open(0.0)


def test_a_narrower_window_closes_an_open_gate_over_it() -> None:
    gate = FlowGate(1000, 500)
    gate.produced(300)
    gate.set_window(200, 100)
    assert gate.paused


def test_the_window_is_validated() -> None:
    with pytest.raises(ValueError):
        FlowGate().set_window(10, 10)
