"""What an agent is doing (SPEC C8 "Busy and idle, reliably"). Pure.

`starting`: launched, not settled yet (no turn is delivered before its CLI is ready);
`idle`: ready for the next turn; `busy`: a turn is in progress; `waiting`: busy, but the CLI
asked its human something (permission, input) — a vendor hook tells it apart from finished;
`blocked`: busy, and it reported being blocked on something (seed 004 BLOCKED_ON);
`stopped`: no live session.
"""

from __future__ import annotations

from typing import Literal

Activity = Literal["starting", "idle", "busy", "waiting", "blocked", "stopped"]

#: Claude Code `Notification` hook types that mean "the CLI waits for its human"
#: (docs: hooks.md, `notification_type`); `idle_prompt` means the turn is long over.
WAITING_NOTIFICATIONS = frozenset({"permission_prompt", "agent_needs_input",
                                   "elicitation_dialog", "elicitation_url_dialog"})
IDLE_NOTIFICATIONS = frozenset({"idle_prompt"})


def on_notification(activity: Activity, notification_type: str) -> Activity:
    """The activity after a vendor notification while in `activity`."""
    if activity in ("busy", "waiting", "blocked") and notification_type in WAITING_NOTIFICATIONS:
        return "waiting"
    return activity


def accepts_turn(activity: Activity) -> bool:
    """Whether a new turn may start now."""
    return activity == "idle"


def prompt_ready(pattern: str | None, text: str) -> bool:
    """Whether the profile's prompt-ready `pattern` (a literal substring, as the original app
    chose) appears in `text`; never when the profile declares none."""
    return pattern is not None and pattern != "" and pattern in text
