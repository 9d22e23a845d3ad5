"""Sessions in the real window (issue "One application layer…"): "Detach from cell" keeps a
plain shell and its jobs alive, shown again from the empty cell; a launch keeps
`agentWasRunning` in layouts.json (the UI no longer overwrites it)."""

from __future__ import annotations

import re
from pathlib import Path

from e2e.test_agents import create_agent, launch_in, session_of
from e2e.ui import (
    active_root,
    cell_menu,
    cells,
    leaf_nodes,
    open_shell,
    terminal_text,
    type_in,
    wait_for,
    wait_terminal,
)


def test_detach_from_cell_keeps_the_shell_and_its_job_and_shows_it_again(launch,
                                                                         tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "PS1='$ '; sleep 1000 & echo job-started-$!\n")
    found = wait_for(lambda: re.search(r"job-started-(\d+)", terminal_text(page, session)),
                     what="the job's pid")
    pid = found.group(1)

    cell_menu(cell, "clear-cell")  # ⋯ → Detach from cell
    show = cell.locator(f'[data-testid="show-session"][data-session-id="{session}"]')
    show.wait_for()
    assert Path(f"/proc/{pid}").exists(), "the background job died with the detach"
    assert cell.locator('[data-testid="terminal"]').count() == 0

    show.click()
    wait_for(lambda: cell.locator('[data-testid="terminal"]').get_attribute("data-session-id")
             == session, what="the same session back in the cell")
    wait_terminal(page, session, "job-started-")  # repainted from the scrollback
    type_in(page, cell, "jobs; echo still-$((6*7))\n")
    text = wait_terminal(page, session, "still-42")
    assert "sleep 1000" in text
    # The same from the ⋯ menu of an empty cell.
    cell_menu(cell, "clear-cell")
    cell.locator('[data-testid="cell-menu"]').first.click()
    cell.locator(f'[data-testid="menu-show-session"][data-session-id="{session}"]').click()
    wait_for(lambda: cell.locator('[data-testid="terminal"]').get_attribute("data-session-id")
             == session, what="shown again from the menu")
    assert Path(f"/proc/{pid}").exists()


def test_a_launch_keeps_agent_was_running_in_layouts_json(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    create_agent(page, "Runner", "Shell", "You run things.")
    launch_in(page, 0, "Runner")
    session = session_of(page, 0)
    type_in(page, cells(page).first, "echo up-$((40+2))\n")
    wait_terminal(page, session, "up-42")
    [leaf] = leaf_nodes(active_root(project))
    assert leaf["session"] == session and leaf["agentWasRunning"] is True and leaf["agent"]
    # and it stays so after more edits of the layout from the UI
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    first = next(n for n in leaf_nodes(active_root(project)) if n.get("session") == session)
    assert first["agentWasRunning"] is True
