"""Undoing the close of a shell's cell in the real window (ADR 021; found by a fresh-user
trial: Ctrl+Z after closing a terminal by mistake gave an empty cell, the shell and its
scrollback gone). The closed cell's shell runs on hidden for the close grace: Ctrl+Z brings
the very same shell back; quitting meanwhile kills it and never records it to reopen."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

from playwright.sync_api import Page

from e2e.ui import cells, open_shell, session_in_cell, terminal_text, type_in, wait_for, wait_terminal


def shell_with_marker(page: Page) -> tuple[str, str]:
    """A shell in the first cell that printed a marker and its pid: (session id, pid)."""
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "PS1='$ '; echo marker-$((6*7))-pid-$$\n")
    found = wait_for(lambda: re.search(r"marker-42-pid-(\d+)", terminal_text(page, session)),
                     what="the marker and the shell's pid")
    return session, found.group(1)


def test_ctrl_z_after_closing_a_shells_cell_brings_the_same_shell_back(launch,
                                                                       tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    session, pid = shell_with_marker(page)

    cells(page).first.locator('[data-testid="close-cell"]').click()
    wait_for(lambda: session_in_cell(page, 0) is None, what="the cell closed (empty)")
    toast = page.locator('[data-testid="toast"]').filter(has_text="closed: undo")
    toast.wait_for()
    assert "Ctrl+Alt+Z" in toast.inner_text() and "30 s" in toast.inner_text()
    assert Path(f"/proc/{pid}").exists(), "closing the cell killed the shell at once"

    page.keyboard.press("Control+z")  # the focus is on no terminal: Ctrl+Z is the layout's undo
    wait_for(lambda: session_in_cell(page, 0) == session, what="the same shell back")
    wait_terminal(page, session, "marker-42-pid-")  # its scrollback repainted
    type_in(page, cells(page).first, "echo answer-$((6*7))-from-$$\n")
    wait_terminal(page, session, f"answer-42-from-{pid}")  # the same process answers
    time.sleep(1.0)
    assert Path(f"/proc/{pid}").exists()


def test_quitting_while_a_closed_shell_waits_kills_it_and_does_not_reopen_it(
        launch, tmp_path: Path) -> None:
    project, data = tmp_path / "proj", tmp_path / "data"
    app = launch(project=project, data_dir=data)
    page = app.page
    _, pid = shell_with_marker(page)
    cells(page).first.locator('[data-testid="close-cell"]').click()
    wait_for(lambda: session_in_cell(page, 0) is None, what="the cell closed (empty)")
    assert Path(f"/proc/{pid}").exists()

    assert app.proc is not None
    os.kill(app.proc.pid, signal.SIGTERM)  # quits as Quit IdeA does (records what to reopen)
    deadline = time.monotonic() + 30
    while app.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert app.proc.poll() is not None, "IdeA did not quit"
    wait_for(lambda: not Path(f"/proc/{pid}").exists(), what="the closed shell killed")
    assert json.loads((data / "workspace.json").read_text()).get("restoredShells", []) == []

    again = launch(data_dir=data).page
    cells(again).first.locator('[data-testid="open-shell"]').wait_for()
    assert again.locator('[data-testid="terminal"]').count() == 0
