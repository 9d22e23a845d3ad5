"""Grid with merged cells, undo/redo of a close, named layouts in the real window (issue 9,
items 4-5): presets, merge / unmerge from the cell menu, a closed agent cell brought back by
undo with its session still running, and a layout switch while an agent keeps working."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from e2e.test_agents import create_agent, launch_in, session_of
from e2e.ui import (
    active_root,
    cell_menu,
    cells,
    leaf_nodes,
    read_json,
    terminal_text,
    type_in,
    wait_for,
    wait_terminal,
)


def layout_menu(page: Page, testid: str) -> None:
    page.locator('[data-testid="layout-menu"]').click()
    page.locator(f'[data-testid="{testid}"]').click()


def grid_cells(project: Path) -> list[dict[str, Any]]:
    root = active_root(project)
    assert root["type"] == "grid", root
    return list(root["node"]["cells"])


def spans(project: Path) -> list[tuple[int, int, int, int]]:
    return sorted((c["row"], c["col"], c["rowSpan"], c["colSpan"]) for c in grid_cells(project))


def cell_of(page: Page, session: str):  # noqa: ANN201 - a Playwright Locator
    return page.locator(f'[data-testid="cell"]:has([data-testid="terminal"][data-session-id="{session}"])')


def test_grid_preset_merge_and_unmerge_from_the_ui(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    layout_menu(page, "preset-2x2")
    wait_for(lambda: cells(page).count() == 4, what="4 cells of the 2x2 preset")
    wait_for(lambda: spans(project) == [(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1)],
             what="a 2x2 grid on disk")

    first = cells(page).first
    first_id = first.get_attribute("data-node-id")
    cell_menu(first, "merge-right")
    wait_for(lambda: cells(page).count() == 3, what="3 cells after the merge")
    wait_for(lambda: spans(project) == [(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)],
             what="the top row merged on disk")
    merged = page.locator(f'[data-testid="cell"][data-node-id="{first_id}"]')
    top = merged.bounding_box()
    below = cells(page).nth(1).bounding_box()
    assert top is not None and below is not None
    assert top["width"] > 1.6 * below["width"], (top, below)  # spans both columns

    cell_menu(merged, "unmerge-cell")
    wait_for(lambda: cells(page).count() == 4, what="4 cells after the unmerge")
    wait_for(lambda: spans(project) == [(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1)],
             what="single cells again on disk")

    # Drag the handle between the two columns: the grid's column weights change on disk.
    handle = page.locator('[data-testid="grid-splitter"][data-axis="col"]').first
    hbox = handle.bounding_box()
    assert hbox is not None
    x, y = hbox["x"] + hbox["width"] / 2, hbox["y"] + 60  # away from the rows' handle
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 150, y, steps=8)
    page.mouse.up()
    cols = wait_for(lambda: (w := active_root(project)["node"]["colWeights"]) != [1.0, 1.0] and w,
                    what="column weights changed on disk")
    assert cols[0] < cols[1], cols
    layout_menu(page, "layout-balance")
    wait_for(lambda: active_root(project)["node"]["colWeights"] == [1.0, 1.0],
             what="balanced again")

    # The left column merged, then undone and redone from the menu.
    cell_menu(cells(page).first, "merge-below")
    wait_for(lambda: spans(project) == [(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)],
             what="the left column merged")
    cell_menu(cells(page).first, "undo-layout")
    wait_for(lambda: len(grid_cells(project)) == 4, what="undo of the merge")
    cell_menu(cells(page).first, "redo-layout")
    wait_for(lambda: spans(project) == [(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)],
             what="redo of the merge")
    wait_for(lambda: cells(page).count() == 3, what="3 cells")


def test_undo_of_a_close_re_attaches_the_running_agent(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    create_agent(page, "Runner", "Shell", "You run things.")
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    launch_in(page, 0, "Runner")
    session = session_of(page, 0)
    type_in(page, cells(page).first, "PS1='$ '; echo pid-$$-before-close\n")
    pid = wait_for(lambda: re.search(r"pid-(\d+)-before-close",
                                     terminal_text(page, session)), what="the agent shell's pid")
    pid = pid.group(1)

    cell_menu(cells(page).first, "close-cell")
    wait_for(lambda: cells(page).count() == 1, what="1 cell after closing the agent's")
    assert all(n.get("session") != session for n in leaf_nodes(active_root(project)))
    assert os.path.exists(f"/proc/{pid}"), "closing the cell killed the agent"

    cell_menu(cells(page).first, "undo-layout")
    wait_for(lambda: cell_of(page, session).count() == 1, what="the agent's cell back, attached")
    wait_terminal(page, session, "before-close")  # its scrollback repainted
    type_in(page, cell_of(page, session), "echo after-undo-$((6*7))\n")
    wait_terminal(page, session, "after-undo-42")
    assert any(n.get("session") == session for n in leaf_nodes(active_root(project)))

    cell_menu(cell_of(page, session), "redo-layout")
    wait_for(lambda: cells(page).count() == 1 and cell_of(page, session).count() == 0,
             what="redo closes it again")
    assert os.path.exists(f"/proc/{pid}")
    cell_menu(cells(page).first, "undo-layout")
    wait_for(lambda: cell_of(page, session).count() == 1, what="undo again re-attaches it")
    type_in(page, cell_of(page, session), "echo still-$((7*6))\n")
    wait_terminal(page, session, "still-42")


def test_switching_layouts_keeps_the_agent_running(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    data = tmp_path / "data"
    app = launch(project=project, data_dir=data)
    page = app.page
    create_agent(page, "Runner", "Shell", "You run things.")
    launch_in(page, 0, "Runner")
    session = session_of(page, 0)
    flag = tmp_path / "loop.flag"
    type_in(page, cells(page).first,
            "PS1='$ '; for i in 1 2 3 4 5 6; do sleep 0.5; echo tick-$i; done; "
            f"echo loop-$((40+2))-done; touch {flag}\n")
    wait_terminal(page, session, "tick-1")

    page.locator('[data-testid="layout-new"]').click()
    name = page.locator('[data-testid="layout-name-input"]')
    name.fill("Review")
    page.locator('[data-testid="layout-name-ok"]').click()
    wait_for(lambda: page.locator('[data-testid="layout-tab"][aria-selected="true"]')
             .inner_text().strip() == "Review", what="the new layout shown")
    assert page.locator('[data-testid="terminal"]').count() == 0
    doc = read_json(project / ".ideai" / "layouts.json")
    review = next(lay for lay in doc["layouts"] if lay["name"] == "Review")
    default = next(lay for lay in doc["layouts"] if lay["name"] == "Default")
    assert doc["activeId"] == review["id"]
    assert [n.get("session") for n in leaf_nodes(default["tree"]["root"])] == [session]
    # The agent is offered in the new layout's empty cell, running out of sight.
    cells(page).first.locator(f'[data-testid="show-session"][data-session-id="{session}"]') \
        .wait_for()

    # While hidden the loop runs to its end: back in Default its output is all there.
    wait_for(flag.exists, timeout_s=30, what="the loop ended while its layout was hidden")
    assert page.locator('[data-testid="terminal"]').count() == 0
    page.locator(f'[data-testid="layout-tab"][data-layout-id="{default["id"]}"]').click()
    wait_for(lambda: cell_of(page, session).count() == 1, what="the agent's cell shown again")
    text = wait_terminal(page, session, "loop-42-done", timeout_s=30)
    assert "tick-6" in text
    type_in(page, cell_of(page, session), "echo alive-$((6*7))\n")
    wait_terminal(page, session, "alive-42")

    # Rename, duplicate and delete (confirmed) from the bar; the active layout persists.
    layout_menu(page, "layout-duplicate")
    wait_for(lambda: page.locator('[data-testid="layout-tab"]').count() == 3, what="a copy")
    layout_menu(page, "layout-delete")
    page.locator('[data-testid="layout-delete-confirm"]').click()
    wait_for(lambda: page.locator('[data-testid="layout-tab"]').count() == 2, what="deleted")
    page.locator(f'[data-testid="layout-tab"][data-layout-id="{review["id"]}"]').click()
    wait_for(lambda: read_json(project / ".ideai" / "layouts.json")["activeId"] == review["id"],
             what="Review active on disk")
    app.stop()

    again = launch(project=project, data_dir=data)
    wait_for(lambda: again.page.locator('[data-testid="layout-tab"][aria-selected="true"]')
             .inner_text().strip() == "Review", what="Review still active after a restart")
