"""A task for a CLI that waits for its human is not typed into that screen (a fresh-user trial:
a message to a logged-out Codex agent was typed into Codex's sign-in menu, the ticket's digits
picked "Use an API key" and the rest of the line was saved as the key). The real Codex CLI from
npm, logged out with a HOME of its own, shows that menu; the task waits, queued, the cell says
why, and nothing is written under that HOME."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from e2e.test_agents import create_agent, launch_in, session_of
from e2e.test_delegation import activity, card
from e2e.ui import cells, terminal_text, type_in, wait_for, wait_terminal


def reported(page, name: str) -> str:  # type: ignore[no-untyped-def]
    """The activity the backend reports for agent `name` (its card may show "needs you")."""
    return str(card(page, name).locator('[data-testid="agent-activity"]').get_attribute(
        "data-reported"))


BIN = Path(__file__).resolve().parents[1] / "tools" / "node_modules" / ".bin"


@pytest.mark.skipif(not (BIN / "codex").exists(), reason="codex: run scripts/bootstrap.sh test")
def test_a_task_waits_while_codex_shows_its_sign_in_menu(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "OPENAI_API_KEY": "", "CODEX_API_KEY": "", "CODEX_HOME": ""}
    try:
        page = launch(project=tmp_path / "proj", extra_env=env).page
        create_agent(page, "Coder", "Codex CLI", "You write code.")
        create_agent(page, "Sheller", "Shell", "You run commands.")
        page.keyboard.press("Control+Shift+D")
        wait_for(lambda: cells(page).count() == 2, what="two cells")
        launch_in(page, 0, "Coder")
        coder = session_of(page, 0)
        launch_in(page, 1, "Sheller")
        sheller = session_of(page, 1)
        wait_terminal(page, coder, "Sign in with ChatGPT", timeout_s=60)
        # Its cell and card say it needs its human (a trial saw "idle").
        badge = cells(page).first.locator('[data-testid="cell-activity"]')
        wait_for(lambda: badge.get_attribute("data-activity") == "waiting", what="needs you")
        assert "Needs you" in (badge.get_attribute("title") or "")
        assert activity(page, "Coder") == "waiting"

        # An ask held there and withdrawn (^C on `idea ask`) frees Coder (a trial saw it stay
        # busy for good).
        type_in(page, cells(page).nth(1), "idea ask Coder 'say hi'\n")
        waiting = cells(page).first.locator('[data-testid="portal-waiting"]')
        waiting.wait_for(timeout=20_000)
        assert reported(page, "Coder") == "busy"
        page.keyboard.press("Control+C")  # Sheller's cell has the focus
        wait_terminal(page, sheller, "the ask is withdrawn", timeout_s=20)
        wait_for(lambda: reported(page, "Coder") != "busy", what="Coder free again")
        wait_for(lambda: waiting.count() == 0, what="the held ask gone from the cell")

        type_in(page, cells(page).nth(1), "idea message Coder 'lowercase hi' && echo sent-$((3*3))\n")
        wait_terminal(page, sheller, "sent-9", timeout_s=30)
        waiting = cells(page).first.locator('[data-testid="portal-waiting"]')
        waiting.wait_for(timeout=20_000)
        assert waiting.get_attribute("data-screen") in ("Sign in with ChatGPT",
                                                         "Choose how you want to use Codex")
        assert "answer it" in waiting.inner_text()
        time.sleep(2.0)  # four looks at the screen: still not typed
        assert "[IdeA" not in terminal_text(page, coder)
        assert not (home / ".codex" / "auth.json").exists()
        assert card(page, "Coder").count() == 1
    finally:
        # Codex leaves an app-server daemon per HOME behind it.
        subprocess.run(["pkill", "-f", str(home)], check=False)
