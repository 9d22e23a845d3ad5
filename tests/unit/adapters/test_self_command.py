"""app/adapters/system/self_command: how IdeA calls itself back (AppImage, frozen, source)."""

from __future__ import annotations

import sys
from pathlib import Path

from app.adapters.system.self_command import self_command


def test_appimage_wins_when_set(tmp_path: Path) -> None:
    image = tmp_path / "IdeA-x86_64.AppImage"
    image.write_text("")
    argv = self_command({"APPIMAGE": str(image)}, frozen=True, executable="/tmp/.mount_x/usr/bin/idea")
    assert argv == [str(image)]


def test_frozen_executable_without_appimage() -> None:
    assert self_command({}, frozen=True, executable="/opt/idea/idea") == ["/opt/idea/idea"]


def test_source_tree_runs_the_package() -> None:
    assert self_command({}, frozen=False, executable="/repo/.venv/bin/python") == [
        "/repo/.venv/bin/python", "-m", "app",
    ]


def test_stale_appimage_variable_is_ignored(tmp_path: Path) -> None:
    argv = self_command({"APPIMAGE": str(tmp_path / "gone.AppImage")}, frozen=False,
                        executable="/usr/bin/python3")
    assert argv == ["/usr/bin/python3", "-m", "app"]


def test_defaults_describe_this_process(monkeypatch) -> None:
    monkeypatch.delenv("APPIMAGE", raising=False)
    assert self_command() == [sys.executable, "-m", "app"]
