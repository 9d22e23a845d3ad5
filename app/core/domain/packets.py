"""Context packets (seed 004, ADR-026): every delegation carries a signal, and a signal admits
only some payload fields — "an agent never receives more than its signal allows" (a RETURN
carries the result, never the context it was given). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from app.core.errors import INVALID, AppError

Signal = Literal["SPAWN", "RETURN", "BLOCKED_ON", "CHECKPOINT", "HANDOFF", "ESCALATE", "ERROR"]
SIGNALS: tuple[Signal, ...] = ("SPAWN", "RETURN", "BLOCKED_ON", "CHECKPOINT", "HANDOFF",
                               "ESCALATE", "ERROR")
Zone = Literal["kernel", "project", "personal"]

#: The payload fields each signal allows (ADR-026's table; `task` is a request's context).
ALLOWED: Mapping[Signal, frozenset[str]] = {
    "SPAWN": frozenset({"task", "files", "zone"}),
    "HANDOFF": frozenset({"task", "decision"}),
    "RETURN": frozenset({"result"}),
    "ERROR": frozenset({"context"}),
    "BLOCKED_ON": frozenset({"context"}),
    "CHECKPOINT": frozenset({"context"}),
    "ESCALATE": frozenset({"options"}),
}
#: Which signals a request (ask, message) and an answer (reply) may carry.
REQUEST_SIGNALS: frozenset[Signal] = frozenset({"SPAWN", "HANDOFF"})
ANSWER_SIGNALS: frozenset[Signal] = frozenset({"RETURN", "ERROR", "BLOCKED_ON", "CHECKPOINT",
                                              "ESCALATE"})
#: Fields a signal needs (beyond being allowed).
REQUIRED: Mapping[Signal, frozenset[str]] = {
    "SPAWN": frozenset({"task"}), "HANDOFF": frozenset({"task"}),
    "RETURN": frozenset({"result"}), "ERROR": frozenset({"context"}),
    "BLOCKED_ON": frozenset({"context"}), "CHECKPOINT": frozenset({"context"}),
    "ESCALATE": frozenset({"options"}),
}


def check_packet(signal: Signal, present: Iterable[str], kinds: frozenset[Signal]) -> None:
    """Raise `AppError(INVALID)` when `signal` is not one of `kinds` (what this command may
    carry), when a field in `present` is not allowed by it, or when one it needs is missing."""
    if signal not in kinds:
        raise AppError(INVALID, f"command.signal: {signal} cannot be sent this way (use one "
                                f"of {', '.join(s for s in SIGNALS if s in kinds)})",
                       {"field": "signal"})
    fields = set(present)
    allowed = ALLOWED[signal]
    for name in sorted(fields - allowed):
        raise AppError(INVALID, f"command.{name}: not allowed with signal {signal} (allows: "
                                f"{', '.join(sorted(allowed))})", {"field": name})
    for name in sorted(REQUIRED[signal] - fields):
        raise AppError(INVALID, f"command.{name}: required by signal {signal}",
                       {"field": name})
