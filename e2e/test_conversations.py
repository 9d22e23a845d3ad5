"""Conversations, the access matrix and escalation in the real window (issue "Conversations…"):
two scripted agents (tests/fixtures/agents/scripted_agent.py, real processes in real PTYs that
run the real `idea` command).

- The user gives Beta a task, then Alpha asks Beta: the pair Alpha↔Beta gets its own log and
  handoff on disk, the user's conversation with Beta is untouched by it, and the conversations
  dialog shows both.
- Beta's access matrix, edited in the window, receives from the human only: Alpha's next ask is
  refused and Alpha's terminal shows why.
- Beta escalates a choice: the decision prompt opens in the window, the option clicked reaches
  Beta.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from app.core.domain.conversation import conversation_id
from e2e.test_delegation import activity, alpha_and_beta, card, scripted_profiles, send_task
from e2e.ui import wait_for, wait_terminal


def agent_ids(project: Path) -> dict[str, str]:
    doc = json.loads((project / ".ideai" / "agents.json").read_text())
    entries = doc["agents"] if isinstance(doc, dict) else doc
    return {e["name"]: e.get("agentId") or e.get("id") for e in entries}


def log_of(project: Path, conversation: str) -> list[dict[str, object]]:
    path = project / ".ideai" / "conversations" / conversation / "log.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_pair_logs_the_matrix_and_an_escalation(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    scripted_profiles(data)
    project = tmp_path / "proj"
    app = launch(project=project, data_dir=data)
    page = app.page
    alpha, beta = alpha_and_beta(page)
    ids = agent_ids(project)
    user_beta = conversation_id(None, ids["Beta"])
    alpha_beta = conversation_id(ids["Alpha"], ids["Beta"])
    assert uuid.UUID(alpha_beta) and alpha_beta != user_beta

    # 1. The user's conversation with Beta, then Alpha's: two logs, neither touching the other.
    send_task(page, "Beta", "compute 1+1")
    wait_terminal(page, beta, "answer: 2")
    wait_for(lambda: activity(page, "Beta") == "idle", what="Beta idle")
    send_task(page, "Alpha", "ask Beta: compute 2+3")
    wait_terminal(page, alpha, "answer: Beta says: 5", timeout_s=40)
    wait_for(lambda: activity(page, "Alpha") == "idle", what="Alpha idle")
    pair = log_of(project, alpha_beta)
    assert [(t["role"], t["text"]) for t in pair] == [("prompt", "compute 2+3"),
                                                       ("response", "5")]
    assert pair[0]["source"] == {"kind": "agent", "agentId": ids["Alpha"]}
    assert pair[0]["ticketKind"] == "ask" and "ticketKind" not in pair[1]
    handoff = project / ".ideai" / "conversations" / alpha_beta / "handoff.md"
    assert handoff.exists() and "compute 2+3" in handoff.read_text()
    user_log = log_of(project, user_beta)
    assert [(t["role"], t["text"]) for t in user_log] == [("prompt", "compute 1+1"),
                                                          ("response", "2")]

    # … and the window shows both conversations of Beta, with the pair's turns and handoff.
    card(page, "Beta").hover()
    card(page, "Beta").locator('[data-testid="open-conversations"]').click()
    dialog = page.locator('[data-testid="conversations"]')
    items = dialog.locator('[data-testid="conversation-item"]')
    wait_for(lambda: items.count() == 2, what="Beta's two conversations")
    peers = [items.nth(i).inner_text() for i in range(2)]
    assert any("Alpha" in p for p in peers) and any("You" in p for p in peers)
    dialog.locator(f'[data-conversation-id="{alpha_beta}"]').click()
    turns = dialog.locator('[data-testid="turn"]')
    wait_for(lambda: turns.count() == 2, what="the pair's two turns")
    assert "compute 2+3" in turns.nth(0).inner_text() and "5" in turns.nth(1).inner_text()
    roles = turns.locator('[data-testid="turn-role"]')
    assert [roles.nth(i).inner_text() for i in range(2)] == ["asked", "answered"]
    shown = dialog.locator('[data-testid="handoff"]')
    shown.locator("summary").click()  # folded at first
    wait_for(lambda: "compute 2+3" in shown.inner_text(), what="the handoff unfolded")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")

    # 2. Beta receives from the human only: Alpha's ask is refused, and Alpha shows why.
    card(page, "Beta").hover()
    card(page, "Beta").locator('[data-testid="edit-ipc"]').click()
    editor = page.locator('[data-testid="ipc-editor"]')
    editor.locator('[data-testid="ipc-unrestricted"]').uncheck()
    editor.locator('[data-testid="ipc-any"][data-field="receivesFrom"]').uncheck()
    editor.locator('[data-testid="ipc-choice"][data-field="receivesFrom"]'
                   '[data-value="human"]').check()
    editor.locator('[data-testid="ipc-save"]').click()
    editor.wait_for(state="detached")
    persona = (project / ".ideai" / "agents").glob("beta*.md")
    text = next(persona).read_text()
    assert "receivesFrom" in text or "receives_from" in text
    assert "You compute." in text  # the persona's own text kept
    send_task(page, "Alpha", "ask Beta: compute 9*9")
    wait_terminal(page, alpha, "FORBIDDEN", timeout_s=30)
    # Beta never saw the task: no "9*9" reached it, so no "answer: 81" either (a
    # bare "81" can sit inside a ticket's UUID).
    beta_text = str(page.evaluate("(s) => window.__ideaTerminalText(s)", beta))
    assert "9*9" not in beta_text and "answer: 81" not in beta_text
    wait_for(lambda: activity(page, "Alpha") == "idle", what="Alpha idle after the refusal")

    # 3. Beta escalates: the prompt opens in the window, the choice reaches Beta.
    send_task(page, "Beta", "escalate: red | blue")
    prompt = page.locator('[data-testid="escalation"]')
    prompt.wait_for(timeout=30_000)
    options = prompt.locator('[data-testid="escalation-option"]')
    assert [options.nth(i).inner_text() for i in range(options.count())] == ["red", "blue"]
    assert "Beta" in prompt.inner_text()
    options.nth(1).click()
    prompt.wait_for(state="detached")
    wait_terminal(page, beta, "user chose: blue", timeout_s=30)
