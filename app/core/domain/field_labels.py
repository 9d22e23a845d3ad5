"""What the window's forms call the fields IdeA may refuse (SPEC: a form IdeA cannot accept is
reported naming the field, in the user's terms). Pure data and the refusal built from it.

A refusal reads `<label>: <problem>` (`Layout name: a layout needs a name`, `Terminal font
size: input should be less than or equal to 40`), never the field's path in what the window
sent (`op.name`, `settings.terminal.fontSize`, `command.text`); that path stays in the
details (`{"field": "op.name", "label": "Layout name"}`) for the window to mark the field. A
field no form shows (an op's `nodeId`, which the window builds itself) is named by its path.
A file read from disk is not a form: its problems name its keys (`agents[2].mdPath`), the words
the user sees in it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from app.core.errors import INVALID, AppError

Form = Literal["layout", "agent", "task", "settings", "profile", "permissions"]

#: Each form's labels, by the field's path in what the form sends (a profile's: in the profile;
#: the permissions editor's: in `permissions.json`).
FIELD_LABELS: dict[Form, dict[str, str]] = {
    # New layout / Rename layout (and a duplicate's name)
    "layout": {"name": "Layout name"},
    "agent": {"name": "Name", "profileId": "Profile", "persona": "Persona"},
    # Send a task / Send to several agents
    "task": {"text": "Task", "targets": "To"},
    "settings": {"terminal.fontSize": "Terminal font size",
                 "terminal.scrollbackLines": "Scrollback lines"},
    # The profile editor (wizard and Profiles…)
    "profile": {
        "id": "Id", "name": "Name", "command": "Command", "args": "Arguments",
        "env": "Environment", "contextInjection": "Context",
        "contextInjection.strategy": "Context", "contextInjection.target": "Context file",
        "contextInjection.flag": "Context flag", "contextInjection.var": "Context variable",
        "detect": "Detection", "detect.timeoutMs": "Detection timeout",
        "cwdTemplate": "Starts in", "projectAccess": "Project access",
        "promptReadyPattern": "Prompt-ready pattern", "waitingScreens": "Waiting screens",
        "submitSequence": "Submit sequence", "submitDelayMs": "Submit delay",
        "structured": "Structured adapter", "structured.command": "Adapter command",
        "structured.args": "Adapter arguments", "session": "Resume",
        "session.resumeFlag": "Resume flag", "session.resumeArgs": "Resume arguments",
        "session.assignFlag": "Session id flag",
    },
}

#: A field of the permissions editor, whose rows have no fixed label (`_rule_label`): a rule
#: of the scope shown (the project defaults, or an agent's own rules), or its fallback.
_RULE_FIELD = re.compile(
    r"(?:projectDefaults|agents\.[^.]+)\.(?:rules\[(\d+)\](?:\.(\w+))?|(fallback))")
_RULE_PARTS = {"capability": "capability", "effect": "effect", "paths": "path globs",
               "commands": "command patterns"}


def field_label(form: Form, field: str) -> str | None:
    """The label `form` shows for `field` (`command`, `env.MY_VAR`, `waitingScreens[2]`): that
    of the field, else of the nearest field holding it (`env`); `None` when the form shows no
    such field."""
    if form == "permissions":
        return _rule_label(field)
    labels = FIELD_LABELS[form]
    path = field
    while path:
        if path in labels:
            return labels[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


def _rule_label(field: str) -> str | None:
    """`agents.<id>.rules[1].paths[0]` → `Rule 2, path globs`; `….fallback` → `Otherwise`."""
    found = _RULE_FIELD.match(field)
    if found is None:
        return None
    if found[3]:
        return "Otherwise"
    part = _RULE_PARTS.get(found[2] or "")
    rule = f"Rule {int(found[1]) + 1}"
    return f"{rule}, {part}" if part else rule


def field_refusal(form: Form, field: str, problem: str, *, path: str | None = None,
                  details: Mapping[str, Any] | None = None) -> AppError:
    """`AppError(INVALID, "<label>: <problem>")` refusing `field` of `form` (see
    `field_label`); details `{"field": path, "label": label, **details}`, `path` (default
    `field`) being where the field is in what the door received (`op.name`). A field the form
    does not show is named by `path` (`op.nodeId: field required`), without `label`."""
    where = field if path is None else path
    label = field_label(form, field)
    extra: dict[str, Any] = {"field": where} if label is None else {"field": where, "label": label}
    extra.update(details or {})
    name = label if label is not None else where
    return AppError(INVALID, f"{name}: {problem}" if name else problem, extra)
