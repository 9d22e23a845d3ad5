"""Several OS windows (issue 9, item 1): a tab moved between windows while its shell keeps
printing (no line lost or doubled, the shell never stops), across three windows; a project in
one tab at a time; windows opened from the menu and Ctrl+Shift+N; windows and their shells back
after a restart. A tab dropped outside every window, and the same moves made with the real
mouse, are in `e2e/test_native_drag.py`.

The windows are those of a saved workspace (restored at start) or opened during the test; each
is a Playwright page of the one CDP connection (`e2e/windows_ui.pages_by_window`)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from e2e.ui import cells, open_shell, terminal_text, type_in, wait_for, wait_terminal
from e2e.windows_ui import (
    drag_tab,
    open_window_from_menu,
    page_targets,
    pages_by_window,
    saved_workspace,
    tab_roots,
    workspace_state,
)

LINES = 300


def numbered(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^line-(\d+)$", text, re.MULTILINE)]


def test_a_tab_moves_between_three_windows_while_its_shell_prints(launch,
                                                                  tmp_path: Path) -> None:
    project = tmp_path / "proj"
    data = tmp_path / "data"
    root = str(project)
    saved_workspace(data, [[root], [], []])
    app = launch(project=project, data_dir=data)
    pages = pages_by_window(app, 3)
    first, second, third = pages["w1"], pages["w2"], pages["w3"]
    wait_for(lambda: tab_roots(first) == [root], what="the tab in the first window")
    assert tab_roots(second) == [] and tab_roots(third) == []
    session = open_shell(first, cells(first).first)
    type_in(first, cells(first).first, "PS1='$ '; echo ready-$((6*7))\n")
    wait_terminal(first, session, "ready-42")

    # The shell prints numbered lines for a while; the tab moves in the middle of it.
    type_in(first, cells(first).first,
            f"for i in $(seq 1 {LINES}); do echo line-$i; sleep 0.02; done; echo loop-$((1+1))-done\n")
    wait_for(lambda: len(numbered(terminal_text(first, session))) > 20, what="output flowing")
    drag_tab(first, second, root)

    wait_for(lambda: tab_roots(second) == [root], what="the tab in the second window")
    wait_for(lambda: tab_roots(first) == [], what="the tab gone from the first window")
    moved = cells(second).first.locator('[data-testid="terminal"]')
    wait_for(lambda: moved.get_attribute("data-session-id") == session,
             what="the same session re-attached")
    text = wait_terminal(second, session, "loop-2-done", timeout_s=60)
    assert numbered(text) == list(range(1, LINES + 1)), "a line was lost or doubled"
    type_in(second, cells(second).first, "echo still-$((40+2))\n")
    wait_terminal(second, session, "still-42")

    drag_tab(second, third, root)
    wait_for(lambda: tab_roots(third) == [root], what="the tab in the third window")
    assert tab_roots(second) == [] and tab_roots(first) == []
    type_in(third, cells(third).first, "echo third-$((3*3))\n")
    text = wait_terminal(third, session, "third-9")
    assert numbered(text) == list(range(1, LINES + 1))

    saved = json.loads((data / "workspace.json").read_text())
    assert [[t["root"] for t in w["tabs"]] for w in saved["windows"]] == [[], [], [root]]
    # One tab per project: opening it from the first window answers the third, which keeps it.
    reply = first.evaluate("(root) => window.pywebview.api.windows.placeTab(root)", root)
    assert reply["ok"] == "w3"
    assert tab_roots(first) == [] and tab_roots(third) == [root]
    # Clicked in the first window's Recent list: the same, and a toast there says where it is.
    first.locator(f'[data-testid="recent"] button[title="{root}"]').click()
    toast = first.locator('[data-testid="toast"]', has_text="is open in another window")
    toast.wait_for()
    assert tab_roots(first) == [] and tab_roots(third) == [root]


def test_windows_open_from_the_menu_and_ctrl_shift_n(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "p")
    page = app.page
    assert page_targets(app) == 1
    open_window_from_menu(page)
    second = pages_by_window(app, 2)["w2"]
    page.locator('[data-testid="tab-home"]').click()
    page.keyboard.press("Control+Shift+N")
    third = pages_by_window(app, 3)["w3"]
    # The new windows are live IdeA windows: each shows the start screen and opens a project.
    for window in (second, third):
        window.locator('[data-testid="start-screen"]').wait_for()
    state = workspace_state(page)
    assert [w["id"] for w in state["windows"]] == ["w1", "w2", "w3"]  # type: ignore[union-attr]
    saved = json.loads((app.data_dir / "workspace.json").read_text())
    assert len(saved["windows"]) == 3


def test_two_windows_come_back_after_a_restart_with_their_tabs_and_shells(launch,
                                                                          tmp_path: Path) -> None:
    left, right = tmp_path / "left", tmp_path / "right"
    data = tmp_path / "data"
    for folder in (left, right):
        folder.mkdir()
    saved_workspace(data, [[str(left)], [str(right)]])
    app = launch(project=left, data_dir=data)  # `--project` initialises the left one
    pages = pages_by_window(app, 2)
    second = pages["w2"]
    wait_for(lambda: tab_roots(second) == [str(right)], what="the right tab in w2")
    # The right folder has no `.ideai/`: the tab says so (not "gone") and initialises it.
    stated = second.locator('[data-testid="folder-not-found"]')
    stated.wait_for()
    assert stated.get_attribute("data-not-a-project") == "true"
    assert "Not an IdeA project" in stated.inner_text()
    stated.locator('[data-testid="initialise-folder"]').click()
    stated.wait_for(state="detached")
    assert (right / ".ideai").is_dir()
    shell = open_shell(second, cells(second).first)
    type_in(second, cells(second).first, "PS1='$ '; echo in-w2-$((6*7))\n")
    wait_terminal(second, shell, "in-w2-42")
    before = json.loads((data / "workspace.json").read_text())["windows"]

    pages["w1"].locator('[data-testid="window-menu"]').click()
    pages["w1"].locator('[data-testid="menu-quit"]').click()
    assert app.proc is not None
    deadline = time.monotonic() + 30
    while app.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert app.proc.poll() is not None, "IdeA did not quit"
    quit_saved = json.loads((data / "workspace.json").read_text())
    assert [[t["root"] for t in w["tabs"]] for w in quit_saved["windows"]] == [
        [str(left)], [str(right)]], "every window is kept at quit"

    again = launch(data_dir=data)
    pages = pages_by_window(again, 2)
    wait_for(lambda: tab_roots(pages["w1"]) == [str(left)], what="the left tab back in w1")
    wait_for(lambda: tab_roots(pages["w2"]) == [str(right)], what="the right tab back in w2")
    second = pages["w2"]
    text = wait_terminal(second, shell, "restored: output of this shell")
    assert text.index("in-w2-42") < text.index("restored: output of this shell")
    after = json.loads((data / "workspace.json").read_text())["windows"]
    assert [(w["id"], w["bounds"]) for w in after] == [(w["id"], w["bounds"]) for w in before]
