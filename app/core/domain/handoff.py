"""The cumulative handoff of a conversation (SPEC C9, ARCHITECTURE §19): what an agent relaunched
— or moved to another vendor — reads to know what it was doing. Pure, no model call.

`handoff.md`, exactly as the original app writes it (digest §6.5, its three samples):

    ---
    upTo: <id of the last turn folded in>
    objective: <first prompt, whitespace collapsed, first 200 characters>
    ---
    **Objectif :** <the same objective>

    - **Prompt:** <turn text, every whitespace run collapsed to one space>
    - **Response:** <…>

One bullet per turn, in log order. The text is bounded by a token budget (~4 characters a
token): beyond it the oldest bullets are folded away first, counted in a line
`- *… N earlier turns folded*` so that folding incrementally gives the same text as folding
the whole log from scratch.

The front matter is read line by line, not as YAML: the original writes the objective raw (it
may start with `[` or hold `: `, which a YAML parser would misread).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.core.domain.conversation import Turn

OBJECTIVE_CHARS = 200
#: Default budget of a handoff, in tokens (estimated as characters / 4).
DEFAULT_BUDGET_TOKENS = 6_000
_FOLDED = re.compile(r"^- \*… (\d+) earlier turns? folded\*$")
_BULLET = re.compile(r"^- \*\*(Prompt|Response):\*\* ")


def collapse(text: str) -> str:
    """`text` with every whitespace run (newlines included) as one space, stripped."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Handoff:
    """A handoff: the last turn folded in (`up_to`), the objective, the bullets kept (oldest
    first) and how many older ones were folded away."""

    up_to: str
    objective: str
    bullets: tuple[str, ...]
    folded: int = 0


def bullet(turn: Turn) -> str:
    """The bullet of one turn."""
    return f"- **{turn.role.capitalize()}:** {collapse(turn.text)}"


def tokens(text: str) -> int:
    """Estimated tokens of `text` (characters / 4, rounded up)."""
    return -(-len(text) // 4)


def fold(previous: Handoff | None, turns: Sequence[Turn],
         budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> Handoff | None:
    """`previous` with the new `turns` (those after `previous.up_to`, in order) folded in; None
    when there is nothing at all. The objective is the first non-blank prompt's (empty until
    there is one), kept once set."""
    if not turns:
        return previous
    objective = previous.objective if previous else ""
    if not objective:
        prompts = (collapse(t.text) for t in turns if t.role == "prompt")
        objective = next((p for p in prompts if p), "")[:OBJECTIVE_CHARS]
    bullets = (*(previous.bullets if previous else ()), *(bullet(t) for t in turns))
    grown = Handoff(turns[-1].id, objective, bullets, previous.folded if previous else 0)
    return with_budget(grown, budget_tokens)


def render(handoff: Handoff) -> str:
    """The text of `handoff.md` (ends with a newline)."""
    lines = ["---", f"upTo: {handoff.up_to}", f"objective: {handoff.objective}", "---",
             f"**Objectif :** {handoff.objective}", ""]
    if handoff.folded:
        word = "turn" if handoff.folded == 1 else "turns"
        lines.append(f"- *… {handoff.folded} earlier {word} folded*")
    lines += handoff.bullets
    return "\n".join(lines) + "\n"


def parse(text: str) -> Handoff | None:
    """A `handoff.md` read back (None when it is not one: then the log is folded anew)."""
    lines = text.splitlines()
    if len(lines) < 4 or lines[0] != "---":
        return None
    try:
        end = lines.index("---", 1)
    except ValueError:
        return None
    front: dict[str, str] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(": ")
        if sep:
            front[key] = value
    if "upTo" not in front:
        return None
    folded, bullets = 0, []
    for line in lines[end + 1:]:
        found = _FOLDED.match(line)
        if found:
            folded = int(found.group(1))
        elif _BULLET.match(line):
            bullets.append(line)
    return Handoff(front["upTo"], front.get("objective", ""), tuple(bullets), folded)


def with_budget(handoff: Handoff, budget_tokens: int) -> Handoff:
    """`handoff` trimmed to `budget_tokens` (oldest bullets folded first)."""
    bullets, folded = list(handoff.bullets), handoff.folded
    while len(bullets) > 1 and sum(tokens(b) for b in bullets) > budget_tokens:
        bullets.pop(0)
        folded += 1
    return replace(handoff, bullets=tuple(bullets), folded=folded)
