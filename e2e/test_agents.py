"""Agents: create, launch in a cell with a composed convention file, one live session per agent,
detach/re-attach with scrollback, the real Claude Code TUI, a missing command (issue 2, items 5-6)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page

from app.core.domain.profiles import builtin_profiles
from e2e.ui import cell_menu, cells, read_json, terminal_text, type_in, wait_for, wait_terminal


def create_agent(page: Page, name: str, profile_label: str, persona: str) -> None:
    page.locator('[data-testid="new-agent"]').click()
    form = page.locator('[data-testid="agent-form"]')
    form.locator('[name="name"]').fill(name)
    form.locator('[name="profileId"]').select_option(label=profile_label)
    form.locator('[name="persona"]').fill(persona)
    form.locator('button[type="submit"]').click()
    page.locator(f'[data-testid="agent-item"]:has-text("{name}")').wait_for()


def launch_in(page: Page, cell_index: int, agent_name: str) -> None:
    cell = cells(page).nth(cell_index)
    cell_menu(cell, "launch-agent")
    page.locator(f'[data-testid="launch-agent-option"]:has-text("{agent_name}")').click()


def session_of(page: Page, cell_index: int) -> str:
    term = cells(page).nth(cell_index).locator('[data-testid="terminal"]')
    term.wait_for(timeout=20_000)
    return str(wait_for(lambda: term.get_attribute("data-session-id"), what="session id"))


def test_agent_lifecycle_in_cells(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    create_agent(page, "Reviewer", "Shell", "You review every change with care.")

    manifest = read_json(project / ".ideai" / "agents.json")
    entry = next(a for a in manifest["agents"] if a["name"] == "Reviewer")
    assert entry["mdPath"] == "agents/reviewer.md"
    persona = (project / ".ideai" / "agents" / "reviewer.md").read_text()
    assert "You review every change with care." in persona

    launch_in(page, 0, "Reviewer")
    session = session_of(page, 0)
    run_dir = project / ".ideai" / "run" / entry["agentId"]
    # A short prompt: bash redraws a wrapped long prompt on every resize, erasing lines above.
    # The Shell profile starts in the project root, its context file (in the run dir) named in
    # the environment.
    type_in(page, cells(page).nth(0), "PS1='$ '; echo cwd-$(basename $PWD); "
            "case $IDEA_CONTEXT_FILE in */.ideai/run/*) echo ctx-in-run-dir-$((2+3));; esac; "
            "echo marker-$((40+2))\n")
    wait_terminal(page, session, "marker-42")
    wait_terminal(page, session, f"cwd-{project.name}")
    wait_terminal(page, session, "ctx-in-run-dir-5")
    assert run_dir.is_dir()

    # One live session per agent: launching it in another cell is refused with a way to go there.
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    launch_in(page, 1, "Reviewer")
    error = cells(page).nth(1).locator('[data-testid="cell-error"]')
    error.wait_for()
    assert "already running" in error.inner_text().lower()
    assert cells(page).nth(1).locator('[data-testid="go-to-cell"]').is_visible()

    # Closing the agent's cell detaches: the process keeps running, re-launch re-attaches.
    cell_menu(cells(page).nth(0), "close-cell")
    wait_for(lambda: cells(page).count() == 1, what="1 cell")
    launch_in(page, 0, "Reviewer")
    again = session_of(page, 0)
    assert again == session
    wait_terminal(page, again, "marker-42")  # repainted from the backend's scrollback
    type_in(page, cells(page).nth(0), "echo still-$((1+1))\n")
    wait_terminal(page, again, "still-2")


def test_claude_code_agent_shows_the_real_tui(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    home = tmp_path / "home"
    home.mkdir()
    app = launch(project=project, extra_env={"HOME": str(home)})
    page = app.page
    create_agent(page, "Architect", "Claude Code", "You are the architect. Decide boundaries.")
    launch_in(page, 0, "Architect")
    session = session_of(page, 0)
    wait_terminal(page, session, "Claude Code", timeout_s=60)

    entry = next(a for a in read_json(project / ".ideai" / "agents.json")["agents"])
    convention = (project / ".ideai" / "run" / entry["agentId"] / "CLAUDE.md").read_text()
    assert str(project) in convention
    assert "You are the architect. Decide boundaries." in convention


def test_missing_command_is_reported_in_the_cell(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project, extra_env={"PATH": "/usr/bin:/bin"})
    page = app.page
    create_agent(page, "Coder", "Codex CLI", "You write code.")
    launch_in(page, 0, "Coder")
    error = cells(page).first.locator('[data-testid="cell-error"]')
    error.wait_for()
    assert "command not found: codex" in error.inner_text()
    assert "Install it with: npm install -g @openai/codex" in error.inner_text()
    # Nothing crashed: the cell still opens a shell.
    cell_menu(cells(page).first, "open-shell")
    term = cells(page).first.locator('[data-testid="terminal"]')
    term.wait_for()
    session = str(wait_for(lambda: term.get_attribute("data-session-id"), what="session"))
    type_in(page, cells(page).first, "echo alive-$((2+2))\n")
    assert "alive-4" in wait_terminal(page, session, "alive-4")
    assert terminal_text(page, session)


def test_a_cli_that_quits_at_once_is_stopped_and_shows_why(launch, tmp_path: Path) -> None:
    # Trial finding: a profile running `sh -c "echo about to die; exit 3"` left a blank cell
    # ("no terminal session …"), an agent "starting" then idle, and an ask to it that waited
    # for good: its end came before the launch owned the session and was dropped.
    data = tmp_path / "data"
    data.mkdir()
    crasher = {"id": "crasher", "name": "Crasher", "command": "/bin/sh",
               "args": ["-c", "echo about to die; exit 3"],
               "contextInjection": {"strategy": "env", "target": "CONTEXT.md",
                                    "var": "IDEA_CONTEXT_FILE"}}
    (data / "profiles.json").write_text(json.dumps(
        {"version": 1, "profiles": [p.to_json() for p in builtin_profiles()] + [crasher]}))
    page = launch(project=tmp_path / "proj", data_dir=data).page
    create_agent(page, "Crash", "Crasher", "You crash.")
    launch_in(page, 0, "Crash")
    session = session_of(page, 0)
    wait_terminal(page, session, "about to die")
    wait_terminal(page, session, "exited with code 3")
    card = page.locator('[data-testid="agent-item"]:has-text("Crash")')
    wait_for(lambda: card.locator('[data-testid="agent-activity"]').get_attribute(
        "data-activity") == "stopped", what="the agent stopped")
    assert cells(page).first.locator('[data-testid="cell-error"]').count() == 0
