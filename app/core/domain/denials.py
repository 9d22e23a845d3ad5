"""Refusals IdeA can attribute to one agent (SPEC C10 "IdeA lists recent denials per agent where
the kernel tells it, or where the CLI reports them"). Pure.

What is known, and from where:

- **A refused launch** (`sandbox`): the permissions demand an OS sandbox this machine cannot
  give (fail-closed), so `idea sandbox-exec` refuses to run the CLI. IdeA decides it at launch.
- **The CLI's own reports** (`cli`), through channels that name the agent:
  Claude Code's `PermissionDenied` hook (a tool call its permission rules or classifier
  refused; hook input `{tool_name, tool_input, tool_use_id, reason}`) and its
  `PostToolUseFailure` hook when the tool's `error` says the OS refused (EACCES, EPERM,
  "Permission denied", "Operation not permitted", "Read-only file system": the kernel's words
  as Node and the shell print them; input `{tool_name, tool_input, tool_use_id, error}`);
  Claude Code's stream-json `result.permission_denials` in a headless turn (surfaced by the
  session adapter as a `ToolActivity` whose detail starts with "permission denied").
- **The terminal of a confined agent** (`cli`): the kernel's EACCES as the shell or a command
  prints it (`sh: 1: cannot create /p/x: Permission denied`), read only from sessions IdeA's
  OS sandbox confines (`terminal_denials.py`).
- **Not listed:** the kernel tells IdeA nothing (Landlock logs its denials only to the audit
  subsystem, from ABI 7 / Linux 6.15, which an unprivileged IdeA cannot read), and a
  "Permission denied" in an unconfined terminal is an ordinary file mode, not IdeA's rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.core.domain.agent_session import ToolActivity, TurnEvent

DenialSource = Literal["sandbox", "cli"]
#: Claude Code hook names (as `idea hook` spells them) that may report a denial.
DENIAL_HOOKS = frozenset({"permission-denied", "tool-failure"})
#: How many denials are kept per agent (the most recent).
KEPT_DENIALS = 50
_OS_REFUSAL = re.compile(r"\bEACCES\b|\bEPERM\b|\bEROFS\b|permission denied|"
                         r"operation not permitted|read-only file system", re.IGNORECASE)
_DENIED_DETAIL = "permission denied"
_MAX_TEXT = 500


@dataclass(frozen=True)
class Denial:
    """One refusal: `source` (`sandbox`: IdeA's launcher refused to run the CLI; `cli`: the
    CLI reported it), `tool` (`launch`, `Bash`, `Write`…), `target` (the path or command, ""
    when unknown) and `message` (the CLI's or IdeA's words); `at_ms` when IdeA learnt it."""

    source: DenialSource
    tool: str
    target: str
    message: str
    at_ms: int = 0


def launch_refused(message: str) -> Denial:
    """The denial of a launch the sandbox refuses (fail-closed); `message` says why."""
    return Denial("sandbox", "launch", "", _clip(
        f"the permissions demand an OS sandbox and none can be applied ({message}): the CLI "
        "was not run"))


def denial_from_hook(event: str, payload: Mapping[str, Any]) -> Denial | None:
    """The denial a Claude Code hook reports (see the module doc), or None when it reports
    none (another hook, a tool failure that is not a refusal)."""
    tool = str(payload.get("tool_name") or "tool")
    target = tool_target(payload.get("tool_input"))
    if event == "permission-denied":
        reason = str(payload.get("reason") or "denied by the CLI's permission rules")
        return Denial("cli", tool, target, _clip(reason))
    if event == "tool-failure":
        error = str(payload.get("error") or "")
        if _OS_REFUSAL.search(error) and not payload.get("is_interrupt"):
            return Denial("cli", tool, target, _clip(error.strip()))
    return None


def denial_from_turn_event(event: TurnEvent) -> Denial | None:
    """The denial a headless turn's event reports (Claude Code's `permission_denials`, as the
    stream-json adapter surfaces them), or None."""
    if isinstance(event, ToolActivity) and event.detail is not None \
            and event.detail.lower().startswith(_DENIED_DETAIL):
        target = event.detail[len(_DENIED_DETAIL):].lstrip(": ").strip()
        return Denial("cli", event.label, target, "refused by the CLI's permission rules")
    return None


def tool_target(tool_input: Any) -> str:
    """What a tool call acts on: its `file_path`, `path`, `notebook_path`, `command` or
    `pattern` (Claude Code's tool inputs), else ""."""
    if not isinstance(tool_input, Mapping):
        return ""
    for key in ("file_path", "path", "notebook_path", "command", "pattern", "url"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return _clip(value)
    return ""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT - 1] + "…"
