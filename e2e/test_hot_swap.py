"""Hot swap of an agent's profile in the real window (issue 10 item 6).

Sam runs the Shell profile in a cell and has a real conversation with the user (a task typed
into its shell by the write portal, answered with the real `idea reply`): its log and handoff
are on disk. From Sam's card, *Change profile…* to a fake structured profile (a CLI that runs
interactive in a PTY and headless with `-p --output-format stream-json`, like Claude Code:
tests/fixtures/agents/structured_agent.py) asks for confirmation, stops the shell and
relaunches Sam in the same cell: the new CLI prints the handoff it was given, answers the next
task in the same pair conversation, and — once its terminal is gone — runs a headless turn
that is never handed the old vendor's resume id.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.core.domain.conversation import conversation_id
from app.core.domain.profiles import builtin_profiles
from e2e.test_agents import create_agent, launch_in, session_of
from e2e.test_conversations import agent_ids, log_of
from e2e.test_delegation import activity, card, send_task
from e2e.ui import cell_menu, cells, read_json, terminal_text, type_in, wait_for, wait_terminal

STRUCTURED = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "agents" / \
    "structured_agent.py"


def profiles(data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    structured = {"id": "fake-structured", "name": "Fake structured agent",
                  "command": sys.executable, "args": [str(STRUCTURED)],
                  "structuredAdapter": "claude-stream-json", "promptReadyPattern": "tui> ",
                  "contextInjection": {"strategy": "conventionFile", "target": "CLAUDE.md"}}
    listed = [p.to_json() for p in builtin_profiles()] + [structured]
    (data_dir / "profiles.json").write_text(json.dumps({"version": 1, "profiles": listed}))


def test_hot_swap_from_shell_to_a_structured_profile_in_the_same_cell(
        launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, project, fake_log = tmp_path / "data", tmp_path / "proj", tmp_path / "fake.log"
    profiles(data)
    app = launch(project=project, data_dir=data, extra_env={"FAKE_LOG": str(fake_log)})
    page = app.page
    create_agent(page, "Sam", "Shell", "You keep the build green.")
    sam = agent_ids(project)["Sam"]
    pair = conversation_id(None, sam)
    folder = project / ".ideai" / "conversations" / pair

    # 1. Sam on the Shell profile, and a real conversation with the user.
    launch_in(page, 0, "Sam")
    old = session_of(page, 0)
    type_in(page, cells(page).nth(0), "PS1='$ '\n")
    wait_for(lambda: activity(page, "Sam") == "idle", what="Sam settled")
    send_task(page, "Sam", "remember that the parser test is flaky")
    wait_terminal(page, old, "remember that the parser test is flaky")
    type_in(page, cells(page).nth(0), "idea reply 'noted: the parser test is flaky'\n")
    wait_for(lambda: len(log_of(project, pair)) == 2, what="the pair's log")
    wait_for(lambda: (folder / "handoff.md").exists(), what="the pair's handoff")
    assert "parser test is flaky" in (folder / "handoff.md").read_text()
    # the resume id a Shell vendor would have given this pair: it must never reach the new one
    (folder / "providers.json").write_text(json.dumps({"shell": "shell-engine-1"}))

    # 2. Change profile… on the card: the confirmation says what is kept and what is dropped.
    card(page, "Sam").hover()
    card(page, "Sam").locator('[data-testid="swap-profile"]').click()
    dialog = page.locator('[data-testid="swap-dialog"]')
    dialog.locator('[data-testid="swap-profile-select"]').select_option(
        label="Fake structured agent")
    consequence = dialog.locator('[data-testid="swap-consequence"]').inner_text()
    assert "keeps its persona, memory, conversations and handoff" in consequence
    assert "Shell's own session history is dropped" in consequence
    assert "relaunches under Fake structured agent in the same cell" in \
        dialog.locator('[data-testid="swap-live"]').inner_text()
    dialog.locator('[data-testid="swap-confirm"]').click()
    dialog.wait_for(state="detached")

    # 3. The same cell shows the new session, which got the handoff.
    term = cells(page).nth(0).locator('[data-testid="terminal"]')
    new = str(wait_for(lambda: (s := term.get_attribute("data-session-id")) != old and s,
                       what="the new session in the cell"))
    wait_terminal(page, new, "structured agent ready")
    wait_terminal(page, new, "handoff| ### With the user")
    wait_terminal(page, new, "parser test is flaky")
    assert "$ " not in terminal_text(page, new)  # not the old shell's screen
    assert card(page, "Sam").locator(".profile").inner_text() == "Fake structured agent"
    entry = next(a for a in read_json(project / ".ideai" / "agents.json")["agents"]
                 if a["agentId"] == sam)
    assert entry["profileId"] == "fake-structured"
    assert "parser test is flaky" in (project / ".ideai" / "run" / sam / "CLAUDE.md").read_text()

    # 4. The same pair conversation goes on under the new profile.
    wait_terminal(page, new, "tui>")
    wait_for(lambda: activity(page, "Sam") == "idle", what="Sam settled again")
    send_task(page, "Sam", "compute 6*7")
    wait_terminal(page, new, "answer: 42")
    wait_for(lambda: len(log_of(project, pair)) == 4, what="the same pair's log, continued")
    assert [t["text"] for t in log_of(project, pair)][2:] == ["compute 6*7", "42"]

    # 5. With its terminal gone, Sam's next task is a headless turn of the new profile: fresh,
    #    never with the old vendor's resume id.
    wait_for(lambda: activity(page, "Sam") == "idle", what="Sam idle")
    cell_menu(cells(page).nth(0), "kill-session")
    wait_for(lambda: activity(page, "Sam") == "stopped", what="Sam stopped")
    send_task(page, "Sam", "ok review app/x.py")
    turn = card(page, "Sam").locator('[data-testid="headless-turn"]')
    wait_for(lambda: turn.count() == 1 and turn.get_attribute("data-state") == "done",
             timeout_s=40, what="Sam's headless turn on its card")
    assert turn.locator('[data-testid="headless-answer"]').inner_text() == "Hello world"
    [call] = [json.loads(line) for line in fake_log.read_text().splitlines()]
    assert "-p" in call["argv"] and "--resume" not in call["argv"]
    assert "shell-engine-1" not in json.dumps(call)
    providers = json.loads((folder / "providers.json").read_text())
    assert providers == {"shell": "shell-engine-1", "fake-structured": "claude-s1"}
