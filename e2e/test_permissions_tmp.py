"""A project under /tmp in the real window (ADR 017): every CLI may write
the temp dirs and Landlock only adds rights, so the project's write rules cannot bind there.
The editor warns, its test box says the kernel allows `x.txt` (naming the temp-dir grant), the
cell header says "partly sandboxed" with the reason in its tooltip, and the sandboxed Shell
agent's `touch x.txt` indeed succeeds — what the window says matches what the kernel does."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from app.adapters.sandbox.landlock import LandlockEnforcer
from e2e.test_permissions import launch_boxed, open_project_editor, pose_write_rule, try_in_box
from e2e.ui import type_in, wait_terminal

ABI, WHY = LandlockEnforcer().abi()
pytestmark = pytest.mark.skipif(ABI is None, reason=f"no Landlock on this kernel: {WHY}")


def test_a_project_under_tmp_is_said_partly_sandboxed_and_the_test_box_tells_the_truth(
        launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert project.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    page, dialog = open_project_editor(launch, project, tmp_path)
    warning = dialog.locator('[data-testid="permissions-exposed"]')
    assert "Rules inside this project cannot be enforced by the OS" in warning.inner_text()
    assert "the project lies in /tmp" in warning.inner_text()
    pose_write_rule(dialog, "src/**")
    verdict = try_in_box(dialog, "write", "x.txt")
    assert verdict.get_attribute("data-effect") == "deny"  # the rules say no …
    assert verdict.get_attribute("data-os-allowed") == "true"  # … and the kernel lets it by
    os_line = verdict.locator('[data-testid="permissions-test-os"]').inner_text()
    assert "granted: temporary files" in os_line and "EACCES" not in os_line
    dialog.locator('[data-testid="permissions-close"]').click()

    session, cell, badge = launch_boxed(page, "You stay in src.")
    assert badge.get_attribute("data-partly") == "true"
    assert badge.inner_text().strip() == "partly sandboxed"
    assert "the project lies in /tmp" in (badge.get_attribute("title") or "")
    type_in(page, cell, f"PS1='$ '; cd '{project}'\n")
    type_in(page, cell, "touch x.txt && echo made-$((40+2))\n")
    wait_terminal(page, session, "made-42")
    assert (project / "x.txt").exists()  # what the test box said
