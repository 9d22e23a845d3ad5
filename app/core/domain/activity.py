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


def occurrences(pattern: str, text: str) -> int:
    """How many times `pattern` occurs in `text`, overlaps counted."""
    count, start = 0, text.find(pattern)
    while start >= 0:
        count += 1
        start = text.find(pattern, start + 1)
    return count


class PromptWatch:
    """Finds the profile's prompt-ready pattern in a turn's output, fed chunk by chunk (a
    pattern split across chunks is found). The typed task is echoed by the terminal: the
    `skip` occurrences of the pattern inside the typed text are its echo, not the prompt, so
    the watch fires on the occurrence after them."""

    def __init__(self, pattern: str, typed: str = "") -> None:
        if not pattern:
            raise ValueError("an empty pattern never shows a prompt")
        self._pattern = pattern
        self._skip = occurrences(pattern, typed)
        self._seen = 0
        self._recent = ""
        self._keep = max(len(pattern) * 2, 256)

    def feed(self, text: str) -> bool:
        """Count the occurrences `text` completes; True once the prompt is back."""
        joined = self._recent + text
        self._seen += occurrences(self._pattern, joined) - occurrences(self._pattern,
                                                                       self._recent)
        self._recent = joined[-self._keep:]
        return self._seen > self._skip
