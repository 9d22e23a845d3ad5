"""Copy and paste between a terminal and the system clipboard in the real window.

Regression: copying terminal text (select, Ctrl+Shift+C, or just selecting: copy-on-select)
made Qt WebEngine ask for the clipboard permission, and pywebview's Qt handler aborted the
whole app (see app/adapters/window/qt_permissions.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from e2e.ui import cells, open_shell, type_in, wait_for, wait_terminal


@pytest.mark.timeout(120)  # before the fix the app aborted and the CDP connection hung
def test_copy_from_a_terminal_then_paste_it_back(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "PS1='$ '; echo copyme$((40+2))\n")
    wait_terminal(page, session, "\ncopyme42")

    row = cell.locator(".xterm-rows > div", has_text="copyme42").last
    box = row.bounding_box()
    assert box is not None
    page.mouse.dblclick(box["x"] + 12, box["y"] + box["height"] / 2)  # selects the word
    page.keyboard.press("Control+Shift+C")
    def clipboard() -> bool:
        assert app.proc is not None and app.proc.poll() is None, f"IdeA died:\n{app.log()}"
        return bool(page.evaluate("navigator.clipboard.readText()") == "copyme42")

    copied = wait_for(clipboard, what="the word on the system clipboard")
    assert copied
    assert app.proc is not None and app.proc.poll() is None  # the app is still running

    type_in(page, cell, "echo pasted-")
    page.keyboard.press("Control+Shift+V")
    page.keyboard.press("Enter")
    wait_terminal(page, session, "\npasted-copyme42")
