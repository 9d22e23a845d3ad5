"""An ask whose asker gave up (SPEC C8 "nobody works for an asker that left"). Pure.

The asker's connection dropped before the reply (`idea ask` interrupted or killed, an MCP
call cancelled, the asking agent exited). What happens to its ticket depends on where the
ticket is in the target's mailbox:

- `dropped`: it still waited in the mailbox, so it is taken out and never delivered;
- `orphaned`: the target is already working on it (its current turn), so the turn runs on —
  no keystroke can take a task back — and its later reply is accepted and logged in the
  pair's conversation, but answered to nobody and not reported again as a delegation (the
  withdrawal already reported it `failed` / `CANCELLED`);
- `over`: the ask was answered or ended meanwhile: nothing to do.

In every case but `over` the ask leaves the wait-for graph at once and the asker's card
stops showing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.domain.delegation import Ticket
from app.core.domain.mailbox import Mailbox

WithdrawalKind = Literal["dropped", "orphaned", "over"]


@dataclass(frozen=True)
class Withdrawal:
    """What withdrawing an ask did: `kind` (see the module docstring) and its `ticket`
    (None when `over`)."""

    kind: WithdrawalKind
    ticket: Ticket | None = None

    @property
    def reported(self) -> bool:
        """Whether the ask was still pending (the UI and the wait-for graph must hear of it)."""
        return self.kind != "over"


def withdraw_ask(mailbox: Mailbox, ticket_id: str) -> Withdrawal:
    """Withdraw ticket `ticket_id` from `mailbox` because its asker left (see module doc)."""
    dropped = mailbox.withdraw(ticket_id)
    if dropped is not None:
        return Withdrawal("dropped", dropped)
    current = mailbox.current
    if current is not None and current.id == ticket_id:
        return Withdrawal("orphaned", current)
    return Withdrawal("over")
