"""Who waits on whom (SPEC C8): the wait-for graph of pending asks. Pure.

An ask A→B adds the edge "A waits B" until its turn ends. An ask that would close a cycle —
A asking itself, or B already (transitively) waiting on A — would deadlock both, so it is
refused with `CYCLE` before anything is queued.
"""

from __future__ import annotations

from app.core.errors import CYCLE, AppError


class WaitForGraph:
    """Edges keyed by ticket (one agent may run several asks at once). Caller serialises."""

    def __init__(self) -> None:
        self._edges: dict[str, tuple[str, str]] = {}

    def path(self, start: str, goal: str) -> list[str] | None:
        """Agents from `start` to `goal` following waits (inclusive), or None."""
        seen, stack = {start}, [[start]]
        while stack:
            trail = stack.pop()
            if trail[-1] == goal:
                return trail
            for waiter, target in self._edges.values():
                if waiter == trail[-1] and target not in seen:
                    seen.add(target)
                    stack.append([*trail, target])
        return None

    def check(self, waiter: str, target: str, names: dict[str, str] | None = None) -> None:
        """Raise `AppError(CYCLE)` when `waiter` waiting on `target` would close a cycle.

        `names` maps agent ids to names for the message (e.g. "Alpha → Beta → Alpha").
        """
        back = [waiter] if waiter == target else self.path(target, waiter)
        if back is None:
            return
        label = names or {}
        if waiter == target:  # said as a message to itself is (delegation.py)
            name = label.get(waiter, waiter)
            raise AppError(CYCLE, f"refused: {name} cannot ask itself (it would wait on its own "
                                  "answer)", {"cycle": [waiter, waiter]})
        chain = " → ".join(label.get(a, a) for a in [waiter, *back])
        raise AppError(CYCLE, f"refused: this ask would deadlock ({chain})",
                       {"cycle": [waiter, *back]})

    def add(self, ticket_id: str, waiter: str, target: str) -> None:
        """`waiter` now waits on `target` for `ticket_id` (call `check` first)."""
        self._edges[ticket_id] = (waiter, target)

    def remove(self, ticket_id: str) -> None:
        """The ask `ticket_id` is over (no error when unknown)."""
        self._edges.pop(ticket_id, None)

    def waiting_on(self, agent: str) -> list[str]:
        """The agents `agent` is waiting on right now."""
        return [target for waiter, target in self._edges.values() if waiter == agent]
