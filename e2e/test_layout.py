"""Split, resize, close cells; the layout persists in .ideai/layouts.json (issue 2, item 3)."""

from __future__ import annotations

from pathlib import Path

from e2e.ui import active_root, cell_menu, cells, leaf_nodes, wait_for


def test_split_resize_close_and_restore(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    data = tmp_path / "data"
    app = launch(project=project, data_dir=data)
    page = app.page
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    cell_menu(cells(page).nth(1), "split-column")
    wait_for(lambda: cells(page).count() == 3, what="3 cells")
    wait_for(lambda: len(leaf_nodes(active_root(project))) == 3, what="3 leaves on disk")

    root = active_root(project)
    assert root["type"] == "split" and root["node"]["direction"] == "row"
    before = [c["weight"] for c in root["node"]["children"]]

    splitter = page.locator('[data-testid="splitter"]').first
    box = splitter.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 200, y, steps=8)
    page.mouse.up()
    after = wait_for(
        lambda: (w := [c["weight"] for c in active_root(project)["node"]["children"]]) != before
        and w, what="weights changed on disk")
    assert after[0] < after[1], after

    cell_menu(cells(page).nth(2), "close-cell")
    wait_for(lambda: cells(page).count() == 2, what="2 cells after close")
    wait_for(lambda: len(leaf_nodes(active_root(project))) == 2, what="2 leaves on disk")
    app.stop()

    again = launch(project=project, data_dir=data)
    wait_for(lambda: cells(again.page).count() == 2, what="layout restored on reopen")
