"""Keystroke ordering of the PTY adapter (pure, no PTY): app/adapters/pty/common.OrderedInput."""

from app.adapters.pty.common import OrderedInput


def drain(q: OrderedInput) -> str:
    out = []
    while True:
        with q._cond:  # noqa: SLF001 - peek without blocking
            ready = bool(q._late) or q._next in q._pending
        if not ready:
            return "".join(out)
        chunk = q.take()
        assert chunk is not None
        out.append(chunk)


def test_out_of_order_writes_come_out_in_seq_order() -> None:
    q = OrderedInput()
    q.put(2, "c")
    q.put(0, "a")
    assert drain(q) == "a"
    q.put(1, "b")
    assert drain(q) == "bc"


def test_seq_zero_after_others_restarts_the_counter() -> None:
    q = OrderedInput()
    for i, ch in enumerate("abc"):
        q.put(i, ch)
    assert drain(q) == "abc"
    q.put(0, "x")  # a reloaded view starts again at 0
    q.put(2, "z")
    q.put(1, "y")
    assert drain(q) == "xyz"


def test_a_stale_seq_is_delivered_not_dropped() -> None:
    q = OrderedInput()
    q.put(0, "a")
    q.put(1, "b")
    assert drain(q) == "ab"
    q.put(1, "late")
    assert drain(q) == "late"
