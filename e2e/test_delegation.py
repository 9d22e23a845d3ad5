"""Delegation in the real window (issue "Agents delegate to each other…"): two scripted agents
(tests/fixtures/agents/scripted_agent.py, a real process in a real PTY that runs the real
`idea` command) in two cells. The user sends Alpha a task from its card; Alpha asks Beta with
`idea ask`; the task is typed into Beta's cell by the cell's own write portal; Beta answers with
`idea reply`; the answer comes back inline to Alpha. The UI shows who works for whom, the
activity and the queue; a second task sent to Beta while it is busy waits, then is delivered.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from playwright.sync_api import Page

from app.core.domain.profiles import builtin_profiles
from e2e.test_agents import create_agent, launch_in, session_of
from e2e.ui import cell_menu, cells, wait_for, wait_terminal

AGENT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "agents" / \
    "scripted_agent.py"


def scripted_profiles(data_dir: Path) -> None:
    """profiles.json: the built-ins plus the scripted agent (as a user would add a custom one)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    scripted = {"id": "scripted", "name": "Scripted agent", "command": sys.executable,
                "args": [str(AGENT)], "promptReadyPattern": "tui> ",
                "contextInjection": {"strategy": "env", "target": "CONTEXT.md",
                                     "var": "IDEA_CONTEXT_FILE"}}
    profiles = [p.to_json() for p in builtin_profiles()] + [scripted]
    (data_dir / "profiles.json").write_text(json.dumps({"version": 1, "profiles": profiles}))


def card(page: Page, name: str):  # type: ignore[no-untyped-def]
    """The agent's card in the panel (by its exact name: other cards mention it)."""
    exact = page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
    return page.locator('[data-testid="agent-item"]').filter(has=exact)


def send_task(page: Page, name: str, text: str) -> None:
    card(page, name).hover()
    card(page, name).locator('[data-testid="send-task"]').click()
    dialog = page.locator('[data-testid="send-dialog"]')
    dialog.locator('[data-testid="task-text"]').fill(text)
    dialog.locator('[data-testid="task-submit"]').click()
    dialog.wait_for(state="detached")


def activity(page: Page, name: str) -> str:
    return str(card(page, name).locator('[data-testid="agent-activity"]').get_attribute(
        "data-activity"))


def launch_pair(page: Page, profile: str, first: str, second: str) -> tuple[str, str]:
    """Agents `first` (delegates) and `second` (computes) of `profile`, created and launched
    side by side (two cells); their session ids."""
    create_agent(page, first, profile, "You delegate.")
    create_agent(page, second, profile, "You compute.")
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    launch_in(page, 0, first)
    one = session_of(page, 0)
    launch_in(page, 1, second)
    return one, session_of(page, 1)


def alpha_and_beta(page: Page) -> tuple[str, str]:
    """Two scripted agents, Alpha (delegates) and Beta (computes), launched side by side and
    at their prompt; their session ids."""
    alpha, beta = launch_pair(page, "Scripted agent", "Alpha", "Beta")
    wait_terminal(page, alpha, "tui>")
    wait_terminal(page, beta, "tui>")
    wait_for(lambda: activity(page, "Beta") == "idle", what="Beta settled")
    return alpha, beta


def test_alpha_asks_beta_through_the_cells_portal_and_gets_the_answer_inline(
        launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    scripted_profiles(data)
    app = launch(project=tmp_path / "proj", data_dir=data)
    page = app.page
    alpha, beta = alpha_and_beta(page)

    send_task(page, "Alpha", "ask Beta: sleep 12")  # long enough to look at, even on a slow machine
    # Beta's own cell typed the task (its portal), then Beta works on it, for Alpha.
    wait_terminal(page, beta, "[IdeA · task from Alpha · ticket")
    badge = cells(page).nth(1).locator('[data-testid="delegation-badge"]')
    wait_for(lambda: badge.count() > 0 and "Alpha" in badge.first.inner_text(),
             what="Beta's cell shows it works for Alpha")
    wait_for(lambda: activity(page, "Beta") == "busy", what="Beta busy")
    assert activity(page, "Alpha") == "busy"
    assert "waiting on Beta" in card(page, "Alpha").inner_text()

    # A second task while Beta is busy is queued, never refused, and delivered after.
    send_task(page, "Beta", "compute 2+2")
    queue = card(page, "Beta").locator('[data-testid="agent-queue"]')
    wait_for(lambda: queue.count() > 0 and "1" in queue.inner_text(), what="queue depth 1")
    assert "compute 2+2" not in _text(page, beta)

    # Beta's reply comes back inline to Alpha, which answers the user's task in turn.
    wait_terminal(page, alpha, "answer: Beta says: slept", timeout_s=40)
    wait_terminal(page, beta, "answer: 4", timeout_s=40)
    wait_for(lambda: activity(page, "Beta") == "idle" and activity(page, "Alpha") == "idle",
             timeout_s=30, what="both idle again")
    assert card(page, "Beta").locator('[data-testid="agent-queue"]').count() == 0
    beta_text = _text(page, beta)
    assert beta_text.index("answer: slept") < beta_text.index("compute 2+2")


def _text(page: Page, session: str) -> str:
    return str(page.evaluate("(s) => window.__ideaTerminalText(s)", session))
