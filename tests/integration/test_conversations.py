"""Conversations on a real disk: concurrent appends, a torn last line, providers.json, and
the whole path — a delegation logged in its own pair's conversation, the handoff folded and
injected when the agent is launched again."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.adapters.stores.filesystem import LocalFileSystem
from app.adapters.system.clock import SystemClock, Uuid4Ids
from app.core.domain.conversation import conversation_id
from app.core.domain.delegation import Ticket
from app.core.errors import AppError
from app.services.conversations import ConversationService

A = "a6ced819-b893-4213-b003-9e9dc79b9641"
B = "af7f86da-76bc-48e1-9900-71f45a624800"


@pytest.fixture
def service() -> ConversationService:
    return ConversationService(LocalFileSystem(), Uuid4Ids(), SystemClock())


def test_concurrent_turns_of_one_pair_are_whole_lines_in_order_per_writer(
        service: ConversationService, tmp_path: Path) -> None:
    root = str(tmp_path)

    def write(who: str) -> None:
        for i in range(200):
            service.prompt(root, Ticket(f"{who}{i}", "ask", B, A, "A", f"{who} {i} " + "x" * 500))

    threads = [threading.Thread(target=write, args=(w,)) for w in ("p", "q")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    turns = service.turns(root, conversation_id(A, B))
    assert len(turns) == 400
    for who in ("p", "q"):
        mine = [int(t.text.split()[1]) for t in turns if t.text.startswith(who)]
        assert mine == list(range(200))


def test_a_torn_last_line_is_ignored_and_the_next_turn_still_logs(
        service: ConversationService, tmp_path: Path) -> None:
    root = str(tmp_path)
    ticket = Ticket("t1", "ask", B, A, "A", "first")
    service.prompt(root, ticket)
    log = Path(service.folder(root, conversation_id(A, B))) / "log.jsonl"
    with open(log, "a", encoding="utf-8") as f:
        f.write('{"id":"torn","conversation":"')  # a crash in the middle of a write
    service.response(root, ticket, "second")
    assert [t.text for t in service.turns(root, conversation_id(A, B))] == ["first", "second"]
    assert log.read_text().splitlines()[1] == '{"id":"torn","conversation":"'  # kept as it was
    service.prompt(root, Ticket("t2", "message", B, A, "A", "fyi"))
    kinds = [(t.role, t.ticket_kind) for t in service.turns(root, conversation_id(A, B))]
    assert kinds == [("prompt", "ask"), ("response", None), ("prompt", "message")]
    assert '"ticketKind":"message"' in log.read_text().splitlines()[-1]
    handoff = service.handoff(root, conversation_id(A, B))
    assert handoff is not None and "- **Response:** second" in handoff


def test_provider_ids_per_profile_and_a_corrupt_file_is_never_overwritten(
        service: ConversationService, tmp_path: Path) -> None:
    root, pair = str(tmp_path), conversation_id(A, B)
    service.set_provider_id(root, pair, "claude-code", "sess-1")
    service.set_provider_id(root, pair, "codex-cli", "thread-9")
    assert service.provider_id(root, pair, "claude-code") == "sess-1"
    assert service.provider_id(root, pair, "codex-cli") == "thread-9"
    path = Path(service.folder(root, pair)) / "providers.json"
    assert json.loads(path.read_text()) == {"claude-code": "sess-1", "codex-cli": "thread-9"}
    assert pair not in path.read_text()  # a pair id is never a provider's id
    path.write_text("{broken")
    with pytest.raises(AppError) as err:
        service.set_provider_id(root, pair, "claude-code", "sess-2")
    assert err.value.code == "CORRUPT_FILE" and path.read_text() == "{broken"
    assert service.provider_id(root, pair, "claude-code") is None
