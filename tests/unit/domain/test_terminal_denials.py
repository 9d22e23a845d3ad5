"""The shell's EACCES read from a confined agent's terminal (app/core/domain/terminal_denials)."""

from __future__ import annotations

import pytest

from app.core.domain.terminal_denials import TerminalDenialScanner, terminal_denial


@pytest.mark.parametrize(("line", "tool", "target", "errno"), [
    ("sh: 1: cannot create /p/side/x.txt: Permission denied", "sh", "/p/side/x.txt", "EACCES"),
    ("# /bin/sh: 1: cannot create /p/a b: Permission denied", "sh", "/p/a b", "EACCES"),
    ("bash: /p/side/x.txt: Permission denied", "bash", "/p/side/x.txt", "EACCES"),
    ("bash: line 1: /p/x: Permission denied", "bash", "/p/x", "EACCES"),
    ("touch: cannot touch '/p/side/y': Permission denied", "touch", "/p/side/y", "EACCES"),
    ("mkdir: cannot create directory ‘/p/d’: Permission denied", "mkdir", "/p/d", "EACCES"),
    ("rm: cannot remove '/p/z': Operation not permitted", "rm", "/p/z", "EPERM"),
    ("mktemp: failed to create file via template '/h/.pyenv/shims/.s.XXXX': Permission denied",
     "mktemp", "/h/.pyenv/shims/.s.XXXX", "EACCES"),
    ("PermissionError: [Errno 13] Permission denied: '/p/q'", "PermissionError", "/p/q",
     "EACCES"),
])
def test_shell_and_coreutils_refusals_name_the_tool_and_the_target(
        line: str, tool: str, target: str, errno: str) -> None:
    denial = terminal_denial(line)
    assert denial is not None
    assert (denial.source, denial.tool, denial.target) == ("cli", tool, target)
    assert denial.message.startswith(errno)


@pytest.mark.parametrize("line", [
    "echo 'Permission denied'", "the docs say: Permission denied is EACCES here ok", "",
    "$ cat notes.txt", "Permission denied",
])
def test_other_lines_are_not_denials(line: str) -> None:
    assert terminal_denial(line) is None


def test_lines_cut_across_chunks_and_colored_are_read_once_complete() -> None:
    scanner = TerminalDenialScanner()
    assert scanner.feed("$ echo x > /p/a\r\nsh: 1: cannot cr") == []
    assert scanner.feed("eate /p/a: Perm") == []
    [denial] = scanner.feed("ission denied\r\n$ ")
    assert denial.target == "/p/a"
    [colored] = scanner.feed("echo x > /p/b\r\n\x1b[31mbash: /p/b: Permission denied\x1b[0m\n")
    assert colored.target == "/p/b"
    assert scanner.feed("x" * 5000 + "\n") == []
