"""Permissions in the real window (issue 12, SPEC C10, contracts §9): rules posed in the
project editor confine a Shell agent through Landlock (the shell prints Permission denied
beside the project, writes in it), the cell header says it is sandboxed and counts the denial,
the agent's editor's test box agrees with the kernel, and Claude Code's projected settings are
written in its run dir.

The project and the folder beside it live under the repo's `.pytest_cache`, not in a temp dir:
temp dirs are granted to every CLI (its scratch space)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page

from app.adapters.sandbox.landlock import LandlockEnforcer
from e2e.test_agents import create_agent, launch_in, session_of
from e2e.ui import cell_menu, cells, read_json, terminal_text, type_in, wait_for, wait_terminal
from tests.ungranted import ungranted_dir

REPO = Path(__file__).resolve().parents[1]
ABI, WHY = LandlockEnforcer().abi()
pytestmark = pytest.mark.skipif(ABI is None, reason=f"no Landlock on this kernel: {WHY}")


@pytest.fixture
def base() -> Iterator[Path]:
    with ungranted_dir("e2e-permissions") as path:
        (path / "side").mkdir()
        yield path


def editor(page: Page) -> Locator:
    found = page.locator('[data-testid="permissions-editor"]')
    found.wait_for()
    wait_for(lambda: found.locator("text=Loading…").count() == 0, what="the editor loaded")
    return found


def try_in_box(dialog: Locator, capability: str, target: str) -> Locator:
    dialog.locator('[data-testid="permissions-test-capability"]').select_option(capability)
    dialog.locator('[data-testid="permissions-test-target"]').fill(target)
    dialog.locator('[data-testid="permissions-test-run"]').click()
    result = dialog.locator(f'[data-testid="permissions-test-result"]'
                            f'[data-target-tested="{target}"]')
    result.wait_for()
    return result


def open_project_editor(launch, project: Path, tmp_path: Path) -> tuple[Page, Locator]:  # type: ignore[no-untyped-def]
    """The app on `project` (HOME a fresh folder of `tmp_path`) and its project permissions
    editor, open and loaded."""
    home = tmp_path / "home"
    home.mkdir()
    app = launch(project=project, extra_env={"HOME": str(home)})
    app.page.locator('[data-testid="open-project-permissions"]').click()
    return app.page, editor(app.page)


def pose_write_rule(dialog: Locator, patterns: str) -> Locator:
    """Poses "write: allow `patterns`, otherwise deny" in the open editor and saves it;
    returns the rule's row."""
    dialog.locator('[data-testid="permissions-pose"]').click()
    dialog.locator('[data-testid="permissions-add-rule"]').click()
    rule = dialog.locator('[data-testid="permission-rule"]').first
    rule.locator('[data-testid="rule-capability"]').select_option("write")
    rule.locator('[data-testid="rule-effect"]').select_option("allow")
    field = rule.locator('[data-testid="rule-patterns"]')
    field.fill(patterns)
    field.blur()
    dialog.locator('[data-testid="permissions-fallback"]').select_option("deny")
    dialog.locator('[data-testid="permissions-save"]').click()
    dialog.locator('[data-testid="permissions-saved"]').wait_for()
    return rule


def launch_boxed(page: Page, persona: str) -> tuple[str, Locator, Locator]:
    """Creates the Shell agent "Boxed" and launches it in the first cell, sandboxed;
    returns its session, the cell and the cell's sandbox badge."""
    create_agent(page, "Boxed", "Shell", persona)
    launch_in(page, 0, "Boxed")
    session = session_of(page, 0)
    cell = cells(page).nth(0)
    badge = cell.locator('[data-testid="cell-sandbox"]')
    wait_for(lambda: badge.get_attribute("data-state") == "enforced", what="sandbox enforced")
    return session, cell, badge


def test_a_shell_agent_granted_the_project_cannot_write_beside_it(launch, base: Path,
                                                                  tmp_path: Path) -> None:
    project = base / "proj"
    # The project editor: nothing posed, then "write: allow **, otherwise deny".
    page, dialog = open_project_editor(launch, project, tmp_path)
    assert f"Landlock ABI {ABI}" in dialog.locator('[data-testid="permissions-machine"]').inner_text()
    assert "replaces the vendor's bubblewrap" in dialog.locator(
        '[data-testid="permissions-replaces-vendor"]').inner_text()
    rule = pose_write_rule(dialog, "**")
    assert rule.locator('[data-testid="rule-enforcement"]').inner_text() == "OS-enforced"
    assert read_json(project / ".ideai" / "permissions.json")["projectDefaults"] == {
        "rules": [{"capability": "write", "effect": "allow", "paths": ["**"], "commands": []}],
        "fallback": "deny"}
    dialog.locator('[data-testid="permissions-close"]').click()

    # A Shell agent: sandboxed, the write beside the project refused by the kernel.
    session, cell, badge = launch_boxed(page, "You stay in the project.")
    assert badge.inner_text().strip() == "sandboxed"
    type_in(page, cell, f"PS1='$ '; cd '{base}'\n")
    type_in(page, cell, "echo out > side/escaped.txt; echo in > proj/inside.txt; "
                        "echo done-$((40+2))\n")
    text = wait_terminal(page, session, "done-42")
    assert "Permission denied" in text, text
    assert not (base / "side" / "escaped.txt").exists()
    assert (project / "inside.txt").read_text() == "in\n"
    wait_for(lambda: cell.locator('[data-testid="cell-denials"]').inner_text() == "1",
             what="the denial counted on the cell header")

    # The agent's editor (from the badge): its test box agrees; the denial is listed.
    badge.click()
    dialog = editor(page)
    assert dialog.get_attribute("data-scope")
    beside = try_in_box(dialog, "write", str(base / "side" / "escaped.txt"))
    assert beside.get_attribute("data-effect") == "deny"
    assert beside.get_attribute("data-os-allowed") == "false"
    assert "EACCES" in beside.locator('[data-testid="permissions-test-os"]').inner_text()
    inside = try_in_box(dialog, "write", str(project / "inside.txt"))
    assert inside.get_attribute("data-effect") == "allow"
    assert inside.get_attribute("data-os-allowed") == "true"
    assert "projectDefaults.rules[0]" in inside.locator(
        '[data-testid="permissions-test-explanation"]').inner_text()
    denial = dialog.locator('[data-testid="permissions-denial"]').first
    denial.wait_for()
    assert "side/escaped.txt" in denial.inner_text() and "EACCES" in denial.inner_text()
    dialog.locator('[data-testid="permissions-close"]').click()

    # Claude Code under the same rules: its projected settings in its run dir, its own
    # sandbox off (IdeA's replaces it), and the real CLI starts under Landlock.
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    create_agent(page, "Architect", "Claude Code", "You are the architect.")
    launch_in(page, 1, "Architect")
    claude = session_of(page, 1)
    entry = next(a for a in read_json(project / ".ideai" / "agents.json")["agents"]
                 if a["name"] == "Architect")
    settings_file = project / ".ideai" / "run" / entry["agentId"] / ".claude" / "idea-settings.json"
    settings = json.loads(settings_file.read_text())
    assert settings["sandbox"] == {"enabled": False}
    assert f"Edit(/{project}/**)" in settings["permissions"]["allow"]
    assert settings["permissions"]["defaultMode"] == "dontAsk"
    wait_for(lambda: cells(page).nth(1).locator('[data-testid="cell-sandbox"]')
             .get_attribute("data-state") == "enforced", what="Claude Code sandboxed")
    wait_terminal(page, claude, "Claude Code", timeout_s=60)
    assert terminal_text(page, claude)
