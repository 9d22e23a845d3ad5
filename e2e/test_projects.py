"""Projects: create and open from the start screen, an original-IdeA project, corrupt files,
an unwritable folder, the first-run wizard (issue 2, items 1-2 and bad input)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from playwright.sync_api import Page

from e2e.ui import active_root, cell_menu, cells, leaf_nodes, read_json, wait_for

ORIGINAL = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "original-project"


def submit_folder(page: Page, action: str, folder: Path) -> None:
    page.locator(f'[data-testid="{action}"]').click()
    page.locator('[data-testid="project-folder"]').fill(str(folder))
    page.locator('[data-testid="project-submit"]').click()


def test_create_then_reopen_from_recent(launch, tmp_path: Path) -> None:
    folder = tmp_path / "parent" / "fresh"  # missing: New project creates it
    app = launch()
    page = app.page
    submit_folder(page, "new-project", folder)
    page.locator('[data-testid="tab-fresh"]').wait_for()
    assert read_json(folder / ".ideai" / "agents.json") == {"version": 1, "agents": []}
    assert (folder / ".ideai" / "layouts.json").is_file()
    page.locator('[data-testid="close-tab-fresh"]').click()
    page.locator('[data-testid="tab-home"]').click()
    recent = page.locator('[data-testid="recent"]')
    recent.wait_for()
    recent.get_by_text("fresh").first.click()
    page.locator('[data-testid="tab-fresh"]').wait_for()


def test_original_ideai_project_opens_unchanged(launch, tmp_path: Path) -> None:
    project = tmp_path / "legacy"
    shutil.copytree(ORIGINAL, project)
    before = {p.name: p.read_bytes() for p in (project / ".ideai").glob("*.json")}
    app = launch()
    page = app.page
    submit_folder(page, "open-project", project)
    page.locator('[data-testid="tab-legacy"]').wait_for()
    wait_for(lambda: cells(page).count() == 3, what="3 cells from the original layout")
    for name in ("Main", "Git"):
        page.locator(f'[data-testid="agent-item"]:has-text("{name}")').wait_for()
    # Opening rewrites nothing.
    assert {p.name: p.read_bytes() for p in (project / ".ideai").glob("*.json")} == before

    # An edit rewrites layouts.json in the original format, keeping what it does not know.
    cell_menu(cells(page).nth(2), "split-row")
    wait_for(lambda: len(leaf_nodes(active_root(project))) == 4, what="4 leaves on disk")
    doc = read_json(project / ".ideai" / "layouts.json")
    assert doc["version"] == 1 and doc["activeId"] == "dd38b8ed-7199-48a6-a63f-1d1462ca6a34"
    first = leaf_nodes(active_root(project))[0]
    assert first["agent"] == "a6ced819-b893-4213-b003-9e9dc79b9641"
    assert first["agentWasRunning"] is True
    # agents.json untouched; its unknown keys still there.
    agents = read_json(project / ".ideai" / "agents.json")
    assert agents["lastEditedBy"] == "original-ideai"
    assert agents["agents"][1]["futureField"] == {"keep": "me"}


def open_with_corrupt_file(launch, tmp_path: Path, name: str, bad: bytes) -> tuple[Path, Page]:  # type: ignore[no-untyped-def]
    """Open a copy of the original project whose ``.ideai/<name>`` holds ``bad``; returns once
    the window names the file (`agents.json` in the agents panel, the others in the banner)."""
    project = tmp_path / "broken"
    shutil.copytree(ORIGINAL, project)
    (project / ".ideai" / name).write_bytes(bad)
    page = launch(project=project).page
    where = "agents-problem" if name == "agents.json" else "banner"
    report = page.locator(f'[data-testid="{where}"]')
    report.wait_for()
    assert name in report.inner_text()
    return project, page


def test_corrupt_agents_json_is_reported_and_left_untouched(launch, tmp_path: Path) -> None:
    bad = b'{"version": 1, "agents": [ {"agentId": "x", '
    project, page = open_with_corrupt_file(launch, tmp_path, "agents.json", bad)
    # The rest of the project is usable: the layout loads and edits.
    wait_for(lambda: cells(page).count() == 3, what="layout still loads")
    cell_menu(cells(page).nth(2), "split-column")
    wait_for(lambda: len(leaf_nodes(active_root(project))) == 4, what="layout edit saved")
    assert (project / ".ideai" / "agents.json").read_bytes() == bad


def test_corrupt_layouts_json_is_reported_and_left_untouched(launch, tmp_path: Path) -> None:
    bad = b"{ not json"
    project, page = open_with_corrupt_file(launch, tmp_path, "layouts.json", bad)
    page.locator('[data-testid="agent-item"]:has-text("Git")').wait_for()
    assert (project / ".ideai" / "layouts.json").read_bytes() == bad


def test_unwritable_folder_gets_a_clear_error_and_nothing_is_created(launch, tmp_path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    lock, unlock = _locker(folder)
    lock()
    try:
        app = launch()
        page = app.page
        submit_folder(page, "new-project", folder)
        banner = page.locator('[data-testid="banner"]')
        banner.wait_for()
        assert "writ" in banner.inner_text().lower()  # "not writable" / "cannot write"
        assert not (folder / ".ideai").exists()
        assert list(folder.iterdir()) == []
    finally:
        unlock()


def test_first_run_wizard_detects_profiles_and_saves(launch, tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = launch(first_run=True, data_dir=data)
    page = app.page
    wizard = page.locator('[data-testid="wizard"]')
    wizard.wait_for()
    claude = page.locator('[data-testid="detect-claude-code"]')
    wait_for(lambda: "2.1" in claude.inner_text(), what="claude --version detected")
    assert "not" in page.locator('[data-testid="detect-aider"]').inner_text().lower()
    wizard.locator('button[type="submit"]').click()
    wizard.wait_for(state="detached")
    saved = read_json(data / "profiles.json")
    ids = [p["id"] for p in saved["profiles"]]
    assert "shell" in ids and "claude-code" in ids
    assert read_json(data / "settings.json")["firstRunDone"] is True


def _locker(folder: Path):  # type: ignore[no-untyped-def]
    """Make ``folder`` unwritable even for root (``chattr +i``), else ``chmod 555``."""
    if os.geteuid() == 0 and shutil.which("chattr"):
        return (lambda: subprocess.run(["chattr", "+i", str(folder)], check=True),
                lambda: subprocess.run(["chattr", "-i", str(folder)], check=False))
    return (lambda: folder.chmod(0o555), lambda: folder.chmod(0o755))
