"""The profile editor on the real window (issue 10 item 1): a CLI missing from the PATH is shown
as such and cannot be ticked; its Test button runs the real detection (nothing found, then the
absolute path the user typed, which prints its version); the fixed profile is saved with that
path; a generic ACP agent added from its template is saved unticked."""

from __future__ import annotations

import os
from pathlib import Path

from e2e.ui import read_json, wait_for


def fake_aider(folder: Path) -> Path:
    """An executable answering ``--version`` as aider does (not on the app's PATH)."""
    folder.mkdir(parents=True)
    exe = folder / "aider"
    exe.write_text("#!/bin/sh\necho 'aider 0.99.0'\necho 'from a folder off the PATH' >&2\n")
    os.chmod(exe, 0o755)
    return exe


def test_test_button_on_a_missing_then_a_present_binary(launch, tmp_path: Path) -> None:
    data = tmp_path / "data"
    exe = fake_aider(tmp_path / "opt" / "aider" / "bin")
    app = launch(first_run=True, data_dir=data, project=tmp_path / "proj")
    page = app.page
    wizard = page.locator('[data-testid="wizard"]')
    wizard.locator('input[name="shell"]').wait_for()

    # Aider is not on the PATH: "not found", not tickable.
    assert "not found" in page.locator('[data-testid="detect-aider"]').inner_text()
    box = wizard.locator('input[name="aider"]')
    assert box.is_disabled() and not box.is_checked()
    # ... with how to install it.
    install = page.locator('[data-testid="install-aider"]')
    assert "python -m pip install aider-install && aider-install" in install.inner_text()
    page.screenshot(path=str(tmp_path / "wizard-missing.png"))

    # Test as it is: the real detection says why.
    wizard.locator('[data-testid="edit-aider"]').click()
    editor = wizard.locator('[data-testid="profile-editor"][data-profile="aider"]')
    editor.locator('[data-testid="pe-test"]').click()
    state = editor.locator('[data-testid="pe-test-state"]')
    wait_for(lambda: state.count() == 1 and "not found" in state.inner_text(), what="missing")
    assert "aider: not found on the PATH" in editor.locator('[data-testid="pe-test-output"]').inner_text()

    # The absolute path: Test runs it and shows its output; now it can be ticked.
    editor.locator('[data-testid="pe-command"]').fill(str(exe))
    editor.locator('[data-testid="pe-test"]').click()
    wait_for(lambda: state.count() == 1 and "found" in state.inner_text()
             and "not" not in state.inner_text(), what="found")
    assert str(exe) in state.inner_text()
    output = editor.locator('[data-testid="pe-test-output"]').inner_text()
    assert "aider 0.99.0" in output and "from a folder off the PATH" in output
    assert "0.99.0" in page.locator('[data-testid="detect-aider"]').inner_text()
    assert box.is_enabled()
    assert install.count() == 0  # found where the user said: nothing to install
    box.check()

    # A generic ACP agent from its template, left unticked.
    wizard.locator('[data-testid="add-profile"]').select_option("acp-agent")
    acp = wizard.locator('[data-testid="profile-editor"][data-profile="acp-agent"]')
    acp.wait_for()
    assert acp.locator('[data-testid="pe-structured"]').input_value() == "acp"
    acp.locator('[data-testid="pe-name"]').fill("Goose")
    acp.locator('[data-testid="pe-command"]').fill("goose")

    wizard.locator('button[type="submit"]').click()
    wizard.wait_for(state="detached")
    saved = {p["id"]: p for p in read_json(data / "profiles.json")["profiles"]}
    assert saved["aider"]["command"] == str(exe)
    assert saved["aider"].get("enabled", True) is True
    assert saved["acp-agent"]["name"] == "Goose"
    assert saved["acp-agent"]["enabled"] is False
    assert saved["acp-agent"]["structured"] == {"protocol": "acp", "args": ["acp"]}

    # Profiles… shows them again: Aider ticked and found at its path, Goose unticked.
    page.locator('[data-testid="open-profiles"]').click()
    wizard.locator('input[name="aider"]').wait_for()
    assert wizard.locator('input[name="aider"]').is_checked()
    assert not wizard.locator('input[name="acp-agent"]').is_checked()
