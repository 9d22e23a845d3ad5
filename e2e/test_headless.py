"""A headless ask in the real window (issue 10 item 4): Gem has no terminal and its profile
speaks ACP (the fake ACP agent of tests/fixtures/sessions, built with the SDK's agent side,
driven by IdeA's real ACP adapter). Alpha, a scripted agent in a cell, asks Gem with the real
`idea ask`: the answer comes back inline to Alpha, and Gem's card shows the turn — its task,
the tool it used, its answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.core.domain.profiles import builtin_profiles
from e2e.test_agents import create_agent, launch_in, session_of
from e2e.test_delegation import AGENT, activity, card, send_task
from e2e.ui import wait_for, wait_terminal

FAKE_ACP = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sessions" / \
    "fake_acp_agent.py"


def profiles(data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    scripted = {"id": "scripted", "name": "Scripted agent", "command": sys.executable,
                "args": [str(AGENT)], "promptReadyPattern": "tui> ",
                "contextInjection": {"strategy": "env", "target": "CONTEXT.md",
                                     "var": "IDEA_CONTEXT_FILE"}}
    acp = {"id": "fake-acp", "name": "Fake ACP agent", "command": sys.executable,
           "args": [str(FAKE_ACP)], "structuredAdapter": "acp",
           "contextInjection": {"strategy": "conventionFile", "target": "AGENTS.md"}}
    listed = [p.to_json() for p in builtin_profiles()] + [scripted, acp]
    (data_dir / "profiles.json").write_text(json.dumps({"version": 1, "profiles": listed}))


def test_a_headless_ask_answers_inline_and_shows_on_the_targets_card(
        launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    profiles(data)
    app = launch(project=tmp_path / "proj", data_dir=data)
    page = app.page
    create_agent(page, "Alpha", "Scripted agent", "You delegate.")
    create_agent(page, "Gem", "Fake ACP agent", "You review code.")
    launch_in(page, 0, "Alpha")
    alpha = session_of(page, 0)
    wait_terminal(page, alpha, "tui>")
    wait_for(lambda: activity(page, "Alpha") == "idle", what="Alpha settled")

    send_task(page, "Alpha", "ask Gem: ok review app/x.py")
    wait_terminal(page, alpha, "answer: Gem says: Hello world", timeout_s=60)
    turn = card(page, "Gem").locator('[data-testid="headless-turn"]')
    wait_for(lambda: turn.count() == 1 and turn.get_attribute("data-state") == "done",
             what="Gem's headless turn on its card")
    assert "ok review app/x.py" in turn.inner_text()
    assert "Run ls" in turn.locator('[data-testid="headless-line"]').first.inner_text()
    assert turn.locator('[data-testid="headless-answer"]').inner_text() == "Hello world"
    assert activity(page, "Gem") == "stopped"  # it never got a terminal
