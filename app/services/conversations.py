"""Pair conversations on disk (SPEC C9): `.ideai/conversations/<pair id>/` holds `log.jsonl`
(every turn, appended), `handoff.md` (the cumulative summary, folded at each turn end) and
`providers.json` (each profile's own resume id for that pair: never the pair id, §19.7).

A delegation A→B lives in A↔B's conversation, never in User↔B's. Writes of one conversation
are serialised (one lock each); the log is only ever appended to, one line per write.
"""

from __future__ import annotations

import json
import logging
import posixpath
import threading
import uuid
from collections import defaultdict
from dataclasses import dataclass

from app.core.domain.conversation import Turn, conversation_id, parse_log, source_of
from app.core.domain.delegation import Ticket
from app.core.domain.handoff import DEFAULT_BUDGET_TOKENS, fold, parse, render
from app.core.errors import CORRUPT_FILE, INVALID, AppError
from app.core.ports import Clock, FileSystem, IdSource
from app.core.usecases.project_state import ideai_path

log = logging.getLogger(__name__)

LOG, HANDOFF, PROVIDERS = "log.jsonl", "handoff.md", "providers.json"


@dataclass(frozen=True)
class ConversationSummary:
    """A conversation of one agent: its id, the other party (agent id, None = the user), how
    many turns, when the last one was (epoch ms)."""

    id: str
    peer: str | None
    turns: int
    last_at_ms: int


class ConversationService:
    """Appends turns, folds handoffs, keeps provider ids. Thread-safe."""

    def __init__(self, fs: FileSystem, ids: IdSource, clock: Clock,
                 budget_tokens: int = DEFAULT_BUDGET_TOKENS) -> None:
        self._fs, self._ids, self._clock, self._budget = fs, ids, clock, budget_tokens
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._guard = threading.Lock()

    def folder(self, root: str, conversation: str) -> str:
        """`<root>/.ideai/conversations/<conversation>`; raises `AppError(INVALID)` for an id
        that is not a UUID (a window's or an agent's input never names another path)."""
        try:
            uuid.UUID(conversation)
        except ValueError as exc:
            raise AppError(INVALID, f"not a conversation id: {conversation!r}",
                           {"conversation": conversation}) from exc
        return ideai_path(root, "conversations", conversation)

    def _lock(self, root: str, conversation: str) -> threading.Lock:
        with self._guard:
            return self._locks[f"{root}\0{conversation}"]

    # -- turns ----------------------------------------------------------------------------
    def prompt(self, root: str, ticket: Ticket) -> None:
        """The task of `ticket` reached its target: the pair's log gets it (raw, without the
        `[IdeA · …]` prefix)."""
        self._append(root, ticket.requester, ticket.target, ticket.requester, "prompt",
                     ticket.text, ticket.kind)

    def response(self, root: str, ticket: Ticket, text: str) -> None:
        """The target answered `ticket` with `text`: logged, and the handoff folded."""
        conversation = self._append(root, ticket.requester, ticket.target, ticket.target,
                                    "response", text)
        if conversation is not None:
            self.refold(root, conversation)

    def _append(self, root: str, a: str | None, b: str | None, speaker: str | None, role: str,
                text: str, kind: str | None = None) -> str | None:
        conversation = conversation_id(a, b)
        turn = Turn(id=self._ids.new_id(), conversation=conversation, at_ms=self._clock.now_ms(),
                    source=source_of(speaker), role=role, text=text, ticket_kind=kind)
        folder = self.folder(root, conversation)
        try:
            with self._lock(root, conversation):
                self._fs.make_dirs(folder)
                self._fs.append_line(posixpath.join(folder, LOG), turn.line())
        except AppError:
            log.exception("cannot log a turn of conversation %s", conversation)
            return None
        return conversation

    def refold(self, root: str, conversation: str) -> None:
        """Fold the turns logged after the handoff's `upTo` into it (all of them when there is
        no readable handoff) and write it back atomically."""
        folder = self.folder(root, conversation)
        with self._lock(root, conversation):
            turns = self.turns(root, conversation)
            text = self._fs.read_text(posixpath.join(folder, HANDOFF))
            previous = parse(text) if text is not None else None
            ids = [t.id for t in turns]
            if previous is not None and previous.up_to in ids:
                new = turns[ids.index(previous.up_to) + 1:]
            else:
                previous, new = None, turns
            folded = fold(previous, new, self._budget)
            if folded is not None and new:
                try:
                    self._fs.write_text_atomic(posixpath.join(folder, HANDOFF), render(folded))
                except AppError:
                    log.exception("cannot write the handoff of %s", conversation)

    # -- reading --------------------------------------------------------------------------
    def turns(self, root: str, conversation: str) -> list[Turn]:
        """The turns of a conversation (a torn line skipped), oldest first."""
        text = self._fs.read_text(posixpath.join(self.folder(root, conversation), LOG))
        return parse_log(text) if text else []

    def handoff(self, root: str, conversation: str) -> str | None:
        """The text of the conversation's `handoff.md`, if any."""
        return self._fs.read_text(posixpath.join(self.folder(root, conversation), HANDOFF))

    def of_agent(self, root: str, agent_id: str,
                 peers: list[str | None]) -> list[ConversationSummary]:
        """The conversations `agent_id` has with any of `peers` (agent ids, None = the user)
        that have a log, most recent first."""
        out = []
        for peer in peers:
            if peer == agent_id:
                continue
            conversation = conversation_id(agent_id, peer)
            turns = self.turns(root, conversation)
            if turns:
                out.append(ConversationSummary(conversation, peer, len(turns),
                                               max(t.at_ms for t in turns)))
        return sorted(out, key=lambda c: c.last_at_ms, reverse=True)

    # -- provider resume ids --------------------------------------------------------------
    def provider_id(self, root: str, conversation: str, profile_id: str) -> str | None:
        """The resume id `profile_id`'s CLI gave this conversation, if any (none when the file
        is unreadable)."""
        return (self._providers(root, conversation) or {}).get(profile_id)

    def set_provider_id(self, root: str, conversation: str, profile_id: str,
                        resume_id: str) -> None:
        """Remember `resume_id` for (`conversation`, `profile_id`); other profiles' are kept."""
        folder = self.folder(root, conversation)
        with self._lock(root, conversation):
            known = self._providers(root, conversation)
            if known is None:
                path = posixpath.join(folder, PROVIDERS)
                raise AppError(CORRUPT_FILE, f"{path} could not be read and is left untouched",
                               {"file": path})
            ids = {**known, profile_id: resume_id}
            self._fs.make_dirs(folder)
            self._fs.write_text_atomic(posixpath.join(folder, PROVIDERS),
                                       json.dumps(ids, indent=2, ensure_ascii=False) + "\n")

    def _providers(self, root: str, conversation: str) -> dict[str, str] | None:
        """`providers.json` as `{profileId: resumeId}`; None when it is not such an object."""
        text = self._fs.read_text(posixpath.join(self.folder(root, conversation), PROVIDERS))
        try:
            value = json.loads(text) if text else {}
        except ValueError:
            return None
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            return None
        return value
