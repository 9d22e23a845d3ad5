"""An ask whose asker left: a queued ticket is dropped, one under way runs on orphaned, one
already over is left alone (app/core/domain/withdrawal.py)."""

from __future__ import annotations

from app.core.domain.delegation import Ticket
from app.core.domain.mailbox import Mailbox
from app.core.domain.withdrawal import withdraw_ask


def ask(ticket_id: str) -> Ticket:
    return Ticket(ticket_id, "ask", "gamma", "alpha", "Alpha", f"task {ticket_id}")


def test_a_queued_ask_is_dropped_and_never_delivered() -> None:
    box = Mailbox("Gamma")
    box.post(ask("t1"))
    box.post(ask("t2"))
    box.start_next()  # t1 under way, t2 waits
    gone = withdraw_ask(box, "t2")
    assert (gone.kind, gone.ticket and gone.ticket.id, gone.reported) == ("dropped", "t2", True)
    assert box.depth == 0
    box.end_turn()
    assert box.start_next() is None  # t2 never reaches Gamma


def test_an_ask_under_way_is_orphaned_and_its_turn_goes_on() -> None:
    box = Mailbox("Gamma")
    box.post(ask("t1"))
    box.start_next()
    gone = withdraw_ask(box, "t1")
    assert (gone.kind, gone.ticket and gone.ticket.id, gone.reported) == ("orphaned", "t1", True)
    assert box.current is not None and box.current.id == "t1"  # Gamma still works on it
    assert box.resolve("t1").id == "t1"  # its later reply is still accepted


def test_an_ask_already_over_is_left_alone() -> None:
    box = Mailbox("Gamma")
    box.post(ask("t1"))
    box.start_next()
    box.end_turn()
    gone = withdraw_ask(box, "t1")
    assert (gone.kind, gone.ticket, gone.reported) == ("over", None, False)
