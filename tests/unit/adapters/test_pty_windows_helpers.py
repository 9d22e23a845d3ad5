"""Pure helpers of the Windows PTY adapter (app/adapters/pty/windows.py) and the platform-aware
default shell; they run on every platform (the adapter itself is tested on Windows only)."""

from __future__ import annotations

import os
import sys

import pytest

from app import paths
from app.adapters.pty.windows import command_line, env_block, resolve_command

PATHEXT = ".COM;.EXE;.BAT;.CMD"


def test_command_line_quotes_paths_and_arguments_with_spaces() -> None:
    line = command_line(r"C:\Users\First Last\AppData\Roaming\npm\claude.cmd", ["--x", "a b", ""])
    assert line == r'"C:\Users\First Last\AppData\Roaming\npm\claude.cmd" --x "a b" ""'
    assert command_line(r"C:\Windows\System32\cmd.exe", []) == r"C:\Windows\System32\cmd.exe"


def test_env_block_is_sorted_case_insensitively_and_nul_separated() -> None:
    block = env_block({"b": "2", "A": "1", "Path": r"C:\x", "=C:": "skip", "": "skip"})
    assert block == "A=1\0b=2\0Path=C:\\x\0"


def test_resolve_command_uses_pathext_and_skips_extensionless_shims(tmp_path) -> None:
    npm = tmp_path / "npm dir"
    npm.mkdir()
    (npm / "claude").write_text("#!/bin/sh\n")  # npm's sh shim: not runnable by CreateProcess
    (npm / "claude.cmd").write_text("@echo off\n")
    path = f"{tmp_path / 'empty'};\"{npm}\""
    assert resolve_command("claude", path, str(tmp_path), PATHEXT) == os.path.join(str(npm), "claude.cmd")
    assert resolve_command("claude.cmd", path, str(tmp_path), PATHEXT) == os.path.join(str(npm), "claude.cmd")
    assert resolve_command("idea-nope", path, str(tmp_path), PATHEXT) is None


def test_resolve_command_with_a_directory_part_is_relative_to_cwd(tmp_path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "tool.exe").write_text("")
    sep = "\\" if sys.platform == "win32" else "/"
    found = resolve_command(f"bin{sep}tool", "", str(tmp_path), PATHEXT)
    assert found is not None and found.endswith("tool.exe")
    assert resolve_command(f"bin{sep}nope", "", str(tmp_path), PATHEXT) is None


def test_user_shell_on_windows_prefers_comspec_then_powershell(tmp_path) -> None:
    cmd = tmp_path / "cmd.exe"
    cmd.write_text("")
    env = {"COMSPEC": str(cmd), "SHELL": "/usr/bin/bash", "PATH": ""}
    assert paths.user_shell("win32", env) == str(cmd)
    for name in ("powershell", "powershell.exe"):  # found by name here, through PATHEXT there
        (tmp_path / name).write_text("")
        (tmp_path / name).chmod(0o755)
    env = {"COMSPEC": str(tmp_path / "gone.exe"), "PATH": str(tmp_path)}
    assert os.path.basename(paths.user_shell("win32", env)).lower().startswith("powershell")
    assert paths.user_shell("win32", {"PATH": str(tmp_path / "empty")}) == "cmd.exe"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX login shell")
def test_user_shell_on_posix_uses_shell_when_executable() -> None:
    assert paths.user_shell("linux", {"SHELL": "/bin/sh"}) == "/bin/sh"
    assert paths.user_shell("linux", {"SHELL": "/nonexistent/zsh"}) in ("/bin/bash", "/bin/sh")
