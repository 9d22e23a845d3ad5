"""The grid from the keyboard and a workspace naming a missing folder, in the real window
(issue 9 items 3-4, 7): a preset and a merge through the palette and the keymap, splitters moved
with the keyboard and saved in `.ideai/layouts.json` (never below the minimum cell size), named
layouts created and switched with shortcuts; a `workspace.json` tab whose folder was moved is
relocated by a typed path, another one removed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from playwright.sync_api import Page

from e2e.test_grid_layouts import spans
from e2e.ui import active_root, cells, open_shell, read_json, type_in, wait_for, wait_terminal

MIN_CELL_HEIGHT_PX = 80  # web/src/lib/domain/layout-geometry.ts


def palette(page: Page, text: str) -> None:
    """Run a command through the palette (Ctrl+Shift+P, type, Enter)."""
    page.keyboard.press("Control+Shift+P")
    field = page.locator('[data-testid="palette-input"]')
    field.wait_for()
    field.fill(text)
    first = page.locator('[data-testid="palette-item"]').first
    assert first.get_attribute("aria-disabled") != "true", first.inner_text()
    field.press("Enter")
    page.locator('[data-testid="command-palette"]').wait_for(state="hidden")


def focus_cell(page: Page, index: int) -> str:
    cell = cells(page).nth(index)
    cell.click(position={"x": 8, "y": 8})
    node = str(cell.get_attribute("data-node-id"))
    wait_for(lambda: "focused" in (cell.get_attribute("class") or ""), what=f"cell {node} focused")
    return node


def test_grid_from_the_palette_and_the_keyboard(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page

    # The palette lists the grid commands with their shortcut.
    page.keyboard.press("Control+Shift+P")
    item = page.locator('[data-testid="palette-item"][data-command="merge-right"]')
    assert "Ctrl+Alt+Shift+D" in item.locator('[data-testid="palette-shortcut"]').inner_text()
    page.keyboard.press("Escape")

    palette(page, "Arrange cells: 2")
    wait_for(lambda: cells(page).count() == 4, what="4 cells of the 2x2 preset")
    wait_for(lambda: spans(project) == [(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 1, 1)],
             what="a 2x2 grid on disk")

    # Merge the top-left cell with its right neighbour from the keyboard, then undo it.
    first = focus_cell(page, 0)
    page.keyboard.press("Control+Alt+Shift+D")
    wait_for(lambda: spans(project) == [(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)],
             what="the top row merged on disk")
    assert cells(page).count() == 3
    page.keyboard.press("Control+Alt+Shift+U")
    wait_for(lambda: len(spans(project)) == 4, what="unmerged again")
    # ... and down through the palette.
    focus_cell(page, 0)
    palette(page, "Merge cell with the cell below")
    wait_for(lambda: spans(project) == [(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)],
             what="the left column merged on disk")
    assert page.locator(f'[data-testid="cell"][data-node-id="{first}"]').count() == 1

    # The boundary between the rows of the right column: moved with the keyboard.
    handle = page.locator('[data-testid="grid-splitter"][data-axis="row"]').first
    handle.focus()
    assert handle.get_attribute("aria-valuenow") == "50"
    page.keyboard.press("Shift+ArrowDown")
    rows = wait_for(lambda: (w := active_root(project)["node"]["rowWeights"]) != [1.0, 1.0] and w,
                    what="row weights changed on disk")
    assert rows[0] > rows[1], rows
    wait_for(lambda: int(handle.get_attribute("aria-valuenow") or 0) > 50, what="aria-valuenow up")
    # End: as far as the lower cell's minimum height allows, no further.
    page.keyboard.press("End")
    wait_for(lambda: active_root(project)["node"]["rowWeights"][1] < rows[1], what="to the end")
    lower = cells(page).nth(2).bounding_box()
    assert lower is not None and lower["height"] >= MIN_CELL_HEIGHT_PX - 1, lower
    assert handle.evaluate("el => el === document.activeElement"), "the splitter kept the focus"
    page.keyboard.press("Enter")
    wait_for(lambda: active_root(project)["node"]["rowWeights"] == [1.0, 1.0],
             what="shared equally again")

    # The column boundary: ← moves it, a double-click shares equally.
    col = page.locator('[data-testid="grid-splitter"][data-axis="col"]').first
    col.focus()
    page.keyboard.press("ArrowLeft")
    wait_for(lambda: active_root(project)["node"]["colWeights"][0] < 1.0, what="column narrower")
    col.dblclick()
    wait_for(lambda: active_root(project)["node"]["colWeights"] == [1.0, 1.0], what="balanced")


def test_split_splitter_and_named_layouts_from_the_keyboard(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    focus_cell(page, 0)
    page.keyboard.press("Control+Shift+D")
    wait_for(lambda: cells(page).count() == 2, what="split right")
    splitter = page.locator('[data-testid="splitter"]').first
    splitter.focus()
    page.keyboard.press("Home")
    weights = wait_for(lambda: [c["weight"] for c in active_root(project)["node"]["children"]]
                       if active_root(project)["type"] == "split"
                       and active_root(project)["node"]["children"][0]["weight"] < 1 else None,
                       what="split weights changed on disk")
    left = cells(page).first.bounding_box()
    assert left is not None and left["width"] >= 119, left  # MIN_CELL_WIDTH_PX
    assert weights[0] < weights[1]
    assert splitter.get_attribute("aria-valuenow") == splitter.get_attribute("aria-valuemin")
    # Balance from inside a terminal: the chord is the app's, the shell never sees it.
    session = open_shell(page, cells(page).first)
    type_in(page, cells(page).first, "PS1='$ '; echo ready-$((2+3))\n")
    wait_terminal(page, session, "ready-5")
    page.keyboard.press("Control+Alt+Shift+B")
    wait_for(lambda: [c["weight"] for c in active_root(project)["node"]["children"]] == [1.0, 1.0],
             what="balanced from the keyboard")
    page.keyboard.type("echo after-$((3+4))\n")
    text = wait_terminal(page, session, "after-7")
    assert "$ echo after-$((3+4))" in text, text  # nothing stray typed by the chord

    # A new named layout from the keyboard (the bar's own name dialog), then switch back.
    page.keyboard.press("Control+Alt+Shift+N")
    name = page.locator('[data-testid="layout-name-input"]')
    name.wait_for()
    name.fill("Review")
    page.locator('[data-testid="layout-name-ok"]').click()
    doc_path = project / ".ideai" / "layouts.json"

    def active_name() -> str:
        doc = read_json(doc_path)
        return str(next(lay["name"] for lay in doc["layouts"] if lay["id"] == doc["activeId"]))

    wait_for(lambda: active_name() == "Review", what="Review active on disk")
    wait_for(lambda: cells(page).count() == 1, what="Review's single cell shown")
    page.keyboard.press("Control+Alt+PageUp")
    wait_for(lambda: active_name() == "Default", what="Default active again")
    wait_for(lambda: cells(page).count() == 2, what="Default's two cells back")
    palette(page, "Next named layout")
    wait_for(lambda: active_name() == "Review", what="Review through the palette")


def test_workspace_naming_a_missing_folder_relocate_and_remove(launch, tmp_path: Path) -> None:
    old = tmp_path / "old-place" / "proj"
    new = tmp_path / "new-place" / "proj"
    vanished = tmp_path / "never-there"
    data = tmp_path / "data"
    first = launch(project=old, data_dir=data)
    page = first.page
    focus_cell(page, 0)
    page.keyboard.press("Control+Shift+D")
    wait_for(lambda: cells(page).count() == 2, what="a split to recognise the project by")
    saved = data / "workspace.json"
    wait_for(lambda: saved.exists() and str(old) in saved.read_text(), what="workspace.json saved")
    first.stop()

    # The folder moved while IdeA was closed; the workspace also names one that never existed.
    new.parent.mkdir(parents=True)
    shutil.move(str(old), str(new))
    doc = json.loads(saved.read_text())
    doc["windows"][0]["tabs"].append({"root": str(vanished)})
    saved.write_text(json.dumps(doc))

    again = launch(data_dir=data)
    page = again.page
    moved_tab = page.locator(f'[data-testid="tab-missing"][data-tab-root="{old}"]')
    gone_tab = page.locator(f'[data-testid="tab-missing"][data-tab-root="{vanished}"]')
    moved_tab.wait_for()
    gone_tab.wait_for()
    moved_tab.click()
    view = page.locator('[data-testid="folder-not-found"]')
    view.wait_for()
    assert str(old) in view.inner_text()
    assert view.locator('[data-testid="relocate-folder"]').inner_text().startswith("Relocate")
    assert view.locator('[data-testid="remove-tab"]').is_visible()

    view.locator('[data-testid="relocate-folder"]').click()
    field = view.locator('[data-testid="relocate-path"]')
    field.fill(str(tmp_path / "elsewhere"))
    view.locator('[data-testid="relocate-submit"]').click()
    refused = view.locator('[data-testid="relocate-error"]').inner_text()
    assert "elsewhere" in refused and "no such folder" in refused, refused
    assert moved_tab.count() == 1  # the tab stays until a folder opens
    field.fill(str(new))
    view.locator('[data-testid="relocate-submit"]').click()
    page.locator(f'[data-testid="tab-proj"][data-tab-root="{new}"]').wait_for()
    wait_for(lambda: cells(page).count() == 2, what="the moved project's layout, intact")
    assert moved_tab.count() == 0
    wait_for(lambda: (tabs := [t["root"] for t in json.loads(saved.read_text())["windows"][0]["tabs"]])
             == [str(new), str(vanished)] and tabs, what="workspace.json names the new folder")

    gone_tab.click()
    page.locator('[data-testid="remove-tab"]').click()
    wait_for(lambda: gone_tab.count() == 0, what="the missing tab removed")
    wait_for(lambda: str(vanished) not in saved.read_text(), what="workspace.json forgot it")
    assert [t["root"] for t in json.loads(saved.read_text())["windows"][0]["tabs"]] == [str(new)]
    assert page.locator('[data-testid="folder-not-found"]').count() == 0
