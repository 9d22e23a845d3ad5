"""Pair conversations (SPEC C9; seeds 000 §1.2, ARCHITECTURE §19): each pair of parties — two
agents, or the user and an agent — has its own conversation and log. Pure.

The id of a pair is the original app's: the XOR of the two parties' UUIDs (so it does not depend
on who asked whom, and an agent pair's id has version nibble 0, as in the original's samples:
`a6ced819-… ⊕ af7f86da-… = 09b15ec3-…`); the user is the nil UUID, so User↔B has B's own id.
Parties whose ids are not UUIDs get a name-based UUID of the sorted pair instead.

`log.jsonl` holds one turn per line, `{"id", "conversation", "atMs", "source", "role", "text"}`
(`source` = `{"kind": "agent", "agentId"}` or `{"kind": "human"}`; `role` = `prompt` |
`response`), in chronological order (digest §6.5).
"""

from __future__ import annotations

import json
import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel

USER_PARTY = uuid.UUID(int=0)
_NAMESPACE = uuid.UUID("6f1d8a4e-3c2b-4e5f-9a7d-2b1c0e9f8a7d")

Role = Literal["prompt", "response"]


def conversation_id(a: str | None, b: str | None) -> str:
    """The conversation of parties `a` and `b` (agent ids; None = the user), order-free."""
    try:
        left = USER_PARTY if a is None else uuid.UUID(a)
        right = USER_PARTY if b is None else uuid.UUID(b)
    except ValueError:
        pair = "|".join(sorted([a or "user", b or "user"]))
        return str(uuid.uuid5(_NAMESPACE, pair))
    return str(uuid.UUID(bytes=bytes(x ^ y for x, y in zip(left.bytes, right.bytes,
                                                          strict=True))))


class Source(BaseModel):
    """Who said a turn: `{"kind": "agent", "agentId"}` or `{"kind": "human"}`."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True,
                              extra="allow")
    kind: Literal["agent", "human"]
    agent_id: str | None = None


class Turn(BaseModel):
    """One line of `log.jsonl`. `ticket_kind` (IdeA's addition, absent from the original's
    lines and from answers): whether a prompt was an ask (an answer awaited) or a message."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True,
                              extra="allow")
    id: str
    conversation: str
    at_ms: int
    source: Source
    role: Role
    text: str
    ticket_kind: Literal["ask", "message"] | None = None

    def line(self) -> str:
        """The JSON line (compact, non-ASCII kept, no newline)."""
        return json.dumps(self.model_dump(by_alias=True, exclude_none=True),
                          ensure_ascii=False, separators=(",", ":"))


def source_of(agent_id: str | None) -> Source:
    """The source of a turn said by agent `agent_id` (None = the user)."""
    return Source(kind="human") if agent_id is None else Source(kind="agent", agent_id=agent_id)


def parse_log(text: str) -> list[Turn]:
    """The turns of a `log.jsonl`. A line that is not a turn — the torn last line a crash left,
    a line a hand edit broke — is skipped, never fatal."""
    turns = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            turns.append(Turn.model_validate_json(line))
        except ValidationError:
            continue
    return turns
