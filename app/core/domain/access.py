"""The access matrix of an agent (seed 004, ADR-026): who it may receive from and send to,
which signals it takes part in, which zones it may be given — declared in the YAML front matter
of its persona, `ipc: {receives_from, sends_to, signals, zone_access}`. Pure.

Absent means unrestricted (nothing imposed). Names are agent names, case-insensitive; `human`
(or `user`) is the user; `*` is anyone.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from app.core.domain.packets import SIGNALS
from app.core.errors import FORBIDDEN, INVALID, AppError

KEYS = ("receives_from", "sends_to", "signals", "zone_access")
HUMAN = "human"
ANYONE = "*"


@dataclass(frozen=True)
class IpcMatrix:
    """One agent's declaration; a field left `None` restricts nothing."""

    receives_from: tuple[str, ...] | None = None
    sends_to: tuple[str, ...] | None = None
    signals: tuple[str, ...] | None = None
    zone_access: tuple[str, ...] | None = None

    def to_yaml(self) -> dict[str, list[str]]:
        """The `ipc:` mapping (declared fields only)."""
        return {key: list(value) for key in KEYS if (value := getattr(self, key)) is not None}


def split_front_matter(text: str) -> tuple[dict[str, Any] | None, str, str]:
    """`(front matter mapping or None, its raw block, the body)` of a persona.

    The block is `---\\n…\\n---\\n` at the very start. Raises `AppError(INVALID)` when it is not
    YAML of a mapping; a YAML error names the line and column in the persona file.
    """
    if not text.startswith("---\n"):
        return None, "", text
    close = text.find("\n---", 3)
    while close >= 0 and close + 4 < len(text) and text[close + 4] != "\n":
        close = text.find("\n---", close + 1)  # a line that only starts with ---
    if close < 0:
        return None, "", text
    block_end = min(len(text), close + 5)
    try:
        data = yaml.safe_load(text[4:close]) or {}
    except yaml.YAMLError as exc:
        # The block parsed starts on the file's second line (after `---`): marks count from 0.
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        context, began = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and began:
            problem += f" ({context} from line {began.line + 2}, column {began.column + 1})"
        raise AppError(INVALID, f"front matter: not YAML{where}: {problem}") from exc
    if not isinstance(data, dict):
        raise AppError(INVALID, "front matter: expected a mapping of keys")
    return data, text[:block_end], text[block_end:]


def matrix_of(persona: str) -> IpcMatrix | None:
    """The `ipc` declaration of a persona, or None. Raises `AppError(INVALID)` naming the key
    when it is malformed (e.g. `ipc.sends_to: expected a list of names`) or unknown (a
    misspelt `recieves_from` would restrict nothing: `ipc.recieves_from: unknown key; did you
    mean receives_from?`)."""
    front, _, _ = split_front_matter(persona)
    if front is None or "ipc" not in front:
        return None
    ipc = front["ipc"]
    if not isinstance(ipc, dict):
        raise AppError(INVALID, "ipc: expected a mapping with receives_from, sends_to, "
                                "signals, zone_access")
    unknown = [key for key in ipc if key not in KEYS]
    if unknown:  # a misspelt restriction would otherwise restrict nothing, silently
        key = str(unknown[0])
        close = difflib.get_close_matches(key, KEYS, n=1)
        hint = f"did you mean {close[0]}?" if close else "expected " + ", ".join(KEYS)
        raise AppError(INVALID, f"ipc.{key}: unknown key; {hint}")
    fields: dict[str, tuple[str, ...] | None] = {}
    for key in KEYS:
        value = ipc.get(key)
        if value is None:
            fields[key] = None
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            fields[key] = tuple(value)
        else:
            raise AppError(INVALID, f"ipc.{key}: expected a list of names")
    return IpcMatrix(**fields)


def with_matrix(persona: str, matrix: IpcMatrix | None) -> str:
    """`persona` with its `ipc` declaration set (None removes it); the rest of the front matter
    is kept, the body is untouched byte for byte."""
    front, _, body = split_front_matter(persona)
    data = dict(front or {})
    if matrix is None or not matrix.to_yaml():
        data.pop("ipc", None)
    else:
        data["ipc"] = matrix.to_yaml()
    if not data:
        return body
    dumped = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return f"---\n{dumped}---\n{body}"


def _names(names: Sequence[str]) -> set[str]:
    return {n.strip().casefold() for n in names}


def _includes(declared: Sequence[str] | None, name: str) -> bool:
    if declared is None:
        return True
    allowed = _names(declared)
    wanted = name.casefold()
    if wanted == HUMAN and "user" in allowed:
        return True
    return ANYONE in allowed or wanted in allowed


def check_access(sender: str, sender_matrix: IpcMatrix | None, receiver: str,
                 receiver_matrix: IpcMatrix | None, signal: str, zone: str | None) -> None:
    """Raise `AppError(FORBIDDEN)` naming the rule a packet `signal` from `sender` to
    `receiver` (names; `human` for the user) breaks, on either side."""
    def refuse(owner: str, key: str, declared: Sequence[str], what: str) -> AppError:
        listed = ", ".join(declared) or "nothing"
        return AppError(FORBIDDEN, f"{owner}'s ipc.{key} [{listed}] does not include {what}",
                        {"rule": f"{owner}.ipc.{key}", "agent": owner})

    s, r = sender_matrix, receiver_matrix
    if s is not None:
        if s.sends_to is not None and not _includes(s.sends_to, receiver):
            raise refuse(sender, "sends_to", s.sends_to, receiver)
        if s.signals is not None and signal not in s.signals:
            raise refuse(sender, "signals", s.signals, signal)
    if r is not None:
        if r.receives_from is not None and not _includes(r.receives_from, sender):
            raise refuse(receiver, "receives_from", r.receives_from, sender)
        if r.signals is not None and signal not in r.signals:
            raise refuse(receiver, "signals", r.signals, signal)
        if zone is not None and r.zone_access is not None and zone not in r.zone_access:
            raise refuse(receiver, "zone_access", r.zone_access, f"zone {zone}")


def validate_matrix(matrix: IpcMatrix) -> None:
    """Raise `AppError(INVALID)` for an unknown signal or zone in `matrix`."""
    for value in matrix.signals or ():
        if value not in SIGNALS:
            raise AppError(INVALID, f"ipc.signals: unknown signal {value!r} (one of "
                                    f"{', '.join(SIGNALS)})", {"field": "signals"})
    for value in matrix.zone_access or ():
        if value not in ("kernel", "project", "personal"):
            raise AppError(INVALID, f"ipc.zone_access: unknown zone {value!r} (kernel, "
                                    "project or personal)", {"field": "zone_access"})
