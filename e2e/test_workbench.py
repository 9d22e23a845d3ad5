"""The workbench in the real window (issue 9, items 6–9): the sessions panel's actions on real
PTYs, the command palette, find in a terminal's scrollback, and recovering from a corrupt
layouts.json (kept as .bak, never overwritten silently)."""

from __future__ import annotations

import json
from pathlib import Path

from e2e.test_agents import create_agent
from e2e.ui import active_root, cells, leaf_nodes, open_shell, type_in, wait_for, wait_terminal


def _session_row(page, session_id: str):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-testid="session-item"][data-session-id="{session_id}"]')


def test_sessions_panel_moves_detaches_reopens_and_stops_real_shells(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    first = open_shell(page, cells(page).first)
    type_in(page, cells(page).first, "echo marker-$((6*7))\n")
    wait_terminal(page, first, "marker-42")

    # Split via the palette; the new (empty) cell is focused.
    page.keyboard.press("Control+Shift+P")
    page.locator('[data-testid="palette-input"]').fill("split cell right")
    page.keyboard.press("Enter")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")

    row = _session_row(page, first)
    row.wait_for()
    assert row.get_attribute("data-shown") == "cell"
    # Move the shell to the second cell: the first empties, the shell keeps its output.
    second_id = cells(page).nth(1).get_attribute("data-node-id")
    row.locator('[data-testid="session-move"]').select_option(second_id)
    wait_for(lambda: cells(page).nth(1).get_attribute("data-session-id") == first, what="moved")
    wait_for(lambda: cells(page).first.get_attribute("data-session-id") is None, what="first empty")
    wait_terminal(page, first, "marker-42")
    wait_for(lambda: [leaf.get("session") for leaf in leaf_nodes(active_root(project))] == [None, first],
             what="layouts.json has the move")

    # Detach: the cell empties, the panel says it runs in the background, the process lives on.
    row.locator('[data-testid="session-detach"]').click()
    wait_for(lambda: row.get_attribute("data-shown") == "background", what="in the background")
    assert row.locator('[data-testid="session-where"]').inner_text() == "in the background"
    assert cells(page).locator('[data-testid="terminal"]').count() == 0

    # Drag it from the panel onto the first cell: shown again, output kept, still the same PTY.
    row.drag_to(cells(page).first)
    wait_for(lambda: cells(page).first.get_attribute("data-session-id") == first, what="dropped")
    type_in(page, cells(page).first, "echo again-$((2+3))\n")
    wait_terminal(page, first, "again-5")
    assert "marker-42" in page.evaluate("(s) => window.__ideaTerminalText(s)", first)

    # Stop asks first; confirmed, the shell ends and leaves the panel.
    row.locator('[data-testid="session-stop"]').click()
    page.locator('[data-testid="confirm-stop-session"]').click()
    wait_for(lambda: _session_row(page, first).count() == 0, what="stopped session gone from the panel")
    cells(page).first.locator('[data-testid="session-ended"]').wait_for()


def test_palette_lists_every_command_with_its_shortcut_and_runs_one(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    page.keyboard.press("Control+Shift+P")
    palette = page.locator('[data-testid="command-palette"]')
    palette.wait_for()
    items = palette.locator('[data-testid="palette-item"]')
    assert items.count() >= 20
    split = palette.locator('[data-testid="palette-item"][data-command="split-column"]')
    assert split.locator('[data-testid="palette-shortcut"]').inner_text() == "Ctrl+Shift+E"
    page.keyboard.type("spl dow")
    assert items.first.get_attribute("data-command") == "split-column"
    page.keyboard.press("Enter")
    wait_for(lambda: cells(page).count() == 2, what="split down from the palette")
    assert palette.count() == 0
    # Escape closes it without running anything.
    page.keyboard.press("Control+Shift+P")
    palette.wait_for()
    page.keyboard.press("Escape")
    wait_for(lambda: palette.count() == 0, what="palette closed")
    assert cells(page).count() == 2
    # "New agent…" opens the agents panel's form, the keyboard in its name.
    page.keyboard.press("Control+Shift+P")
    palette.wait_for()
    page.keyboard.type("new agent")
    page.keyboard.press("Enter")
    form = page.locator('[data-testid="agent-form"]')
    form.wait_for()
    assert "New agent" in form.inner_text()
    wait_for(lambda: page.evaluate("document.activeElement?.id") == "agent-name",
             what="the keyboard in the new agent's name")
    page.keyboard.press("Escape")
    wait_for(lambda: form.count() == 0, what="the form closed unsaved")

    def from_palette(query: str) -> None:
        page.keyboard.press("Control+Shift+P")
        palette.wait_for()
        page.keyboard.type(query)
        page.keyboard.press("Enter")

    from_palette("project permissions")
    page.locator('[data-testid="permissions-machine"]').wait_for()
    page.locator('[data-testid="permissions-close"]').click()
    assert page.locator('[data-testid="tab-proj"]').count() == 1
    from_palette("close project tab")
    wait_for(lambda: page.locator('[data-testid="tab-proj"]').count() == 0, what="the tab closed")


def test_the_palette_launches_an_agent_in_the_focused_cell_and_goes_back_to_it(
        launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = launch(project=tmp_path / "proj")
    page = app.page
    create_agent(page, "Scribe", "Shell", "You take notes.")
    cells(page).first.locator('[data-testid="open-shell"]').wait_for()  # empty, focused
    page.keyboard.press("Control+Shift+P")
    page.keyboard.type("scribe launch")
    palette = page.locator('[data-testid="command-palette"]')
    first = palette.locator('[data-testid="palette-item"]').first
    assert first.inner_text().startswith("Scribe: launch in the focused cell")
    page.keyboard.press("Enter")
    session = wait_for(lambda: cells(page).first.get_attribute("data-session-id"),
                       what="Scribe launched in the cell")
    scribe = page.locator('[data-testid="agent-item"]:has-text("Scribe") .dot.running')
    scribe.wait_for()  # the agent runs there, not a shell
    type_in(page, cells(page).first, "echo scribe-$((5*5))\n")
    wait_terminal(page, session, "scribe-25")

    page.keyboard.press("Control+Shift+P")
    page.keyboard.type("scribe")
    commands = palette.locator('[data-testid="palette-item"]')
    wait_for(lambda: commands.first.get_attribute("data-command", timeout=1000) or "",
             what="agent entries")
    listed = [commands.nth(i).get_attribute("data-command") or "" for i in range(commands.count())]
    assert any(c.startswith("agent:go:") for c in listed), listed
    assert not any(c.startswith("agent:launch:") for c in listed), listed
    page.keyboard.press("Escape")

    # "Send a task…" from the palette opens over the window (a trial found it below the status
    # bar, off the window).
    page.keyboard.press("Control+Shift+P")
    page.keyboard.type("scribe send a task")
    page.keyboard.press("Enter")
    dialog = page.locator('[data-testid="send-dialog"]')
    dialog.wait_for()
    box, window = dialog.bounding_box(), page.viewport_size or page.evaluate(
        "() => ({width: innerWidth, height: innerHeight})")
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= window["height"], box
    status = page.locator("footer.statusbar").bounding_box()
    assert status is not None and box["y"] + box["height"] <= status["y"], (box, status)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")


def test_find_in_scrollback_counts_and_closes_back_to_the_terminal(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    # The command line spells it `nee""dle-`: only the five output lines match, however the
    # prompt and the cell's width wrap the command line.
    type_in(page, cell, 'for i in 1 2 3 4 5; do echo nee""dle-$i; done; echo done-$((1+1))\n')
    wait_terminal(page, session, "done-2")

    page.keyboard.press("Control+Shift+F")
    find = cell.locator('[data-testid="find-input"]')
    find.wait_for()
    find.fill("needle-")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text().endswith("of 5"),
             what="5 matches")
    find.fill("needle-4")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text() == "1 of 1", what="1 match")
    find.fill("nowhere-at-all")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text() == "No results",
             what="no results")
    # Aa on the same query searches again (a trial saw "? of 5" kept for a case-sensitive NEEDLE).
    find.fill("NEEDLE-")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text().endswith("of 5"),
             what="5 matches, any case")
    cell.locator('[data-testid="find-case"]').click()
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text() == "No results",
             what="none in upper case")
    cell.locator('[data-testid="find-case"]').click()
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text().endswith("of 5"),
             what="5 again, any case")
    # A regular expression that does not compile says so, and why (a trial read "No results").
    assert cell.locator(".xterm-selection div").count() > 0  # the match shown is selected
    cell.locator('[data-testid="find-regex"]').click()
    find.fill("needle-(")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text() == "Invalid pattern",
             what="invalid pattern")
    assert "Unterminated group" in (find.get_attribute("title") or "")
    # ... and leaves no earlier match selected
    wait_for(lambda: cell.locator(".xterm-selection div").count() == 0, what="no selection")
    find.fill("needle-[35]")
    wait_for(lambda: cell.locator('[data-testid="find-count"]').inner_text().endswith("of 2"),
             what="2 regex matches")
    find.focus()
    page.keyboard.press("Escape")
    wait_for(lambda: cell.locator('[data-testid="find-bar"]').count() == 0, what="find bar closed")
    # The keyboard is back in the terminal.
    page.keyboard.type("echo back-$((3*3))\n")
    wait_terminal(page, session, "back-9")

    # The right-click menu offers Find… too, and Clear empties the view.
    cell.locator('[data-testid="terminal"]').click(button="right")
    menu = page.locator('[data-testid="terminal-menu"]')
    menu.wait_for()
    page.keyboard.press("Escape")
    wait_for(lambda: menu.count() == 0, what="menu closed by Escape")


def test_the_layout_bar_gives_the_keyboard_back_to_the_terminal(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Its menu items went away with the menu and left the keyboard on <body>.
    page = launch(project=tmp_path / "proj").page
    cell = cells(page).first
    session = open_shell(page, cell)
    bar = page.locator('[data-testid="layout-bar"]')
    for n, item in enumerate(["layout-balance", "preset-1+2"]):
        bar.locator('[data-testid="layout-menu"]').click()
        bar.locator(f'[data-testid="{item}"]').click()
        wait_for(lambda i=item: bar.locator(f'[data-testid="{i}"]').count() == 0, what="menu closed")
        page.keyboard.type(f"echo bar-$(({n}+40))\n")
        wait_terminal(page, session, f"bar-{n + 40}")


def test_corrupt_layouts_opens_fresh_and_keeps_the_broken_file_as_bak(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    data = tmp_path / "data"
    app = launch(project=project, data_dir=data)
    cells(app.page).first.wait_for()
    app.stop()
    layouts = project / ".ideai" / "layouts.json"
    broken = '{"version": 1, "layouts": [ oops'
    layouts.write_text(broken)

    again = launch(project=project, data_dir=data)
    page = again.page
    banner = page.locator('[data-testid="banner-item"]')
    banner.first.wait_for()
    page.wait_for_function("window.__ideaReady === true")
    assert banner.count() == 1, banner.all_inner_texts()
    assert banner.inner_text().count("layouts.json") == 1  # the path stated once
    wait_for(lambda: cells(page).count() == 1, what="a fresh single cell")
    # Working in the fresh layout does not write over the broken file.
    open_shell(page, cells(page).first)
    assert layouts.read_text() == broken

    banner.locator('[data-testid="start-fresh"]').click()
    wait_for(lambda: page.locator('[data-testid="banner"]').count() == 0, what="banner gone")
    backup = project / ".ideai" / "layouts.json.bak"
    wait_for(backup.exists, what="the .bak")
    assert backup.read_text() == broken
    doc = json.loads(layouts.read_text())
    assert len(leaf_nodes(active_root(project))) == 1, doc
