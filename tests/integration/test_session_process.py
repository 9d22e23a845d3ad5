"""The child process of a structured turn (digest §7 cases 53–57): its stdout lines in order,
stdin closed, a missing binary or cwd, a deadline, the stderr line that says why."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from app.adapters.sessions.process import LineProcess, StderrTail, child_env
from app.core.errors import AppError

pytestmark = [pytest.mark.timeout(30),
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell")]


def lines_of(process: LineProcess) -> list[bytes]:
    out: list[bytes] = []
    while (line := process.next_line(time.monotonic() + 10)) is not None:
        out.append(line)
    return out


def test_stdout_lines_in_order(tmp_path: Path) -> None:
    process = LineProcess(["sh", "-c", "printf 'ligne-1\\nligne-2\\r\\nligne-3'"], str(tmp_path),
                          child_env({}))
    assert lines_of(process) == [b"ligne-1", b"ligne-2", b"ligne-3"]
    assert process.close() == 0


def test_nothing_printed_is_no_line(tmp_path: Path) -> None:
    process = LineProcess(["true"], str(tmp_path), child_env({}))
    assert lines_of(process) == [] and process.close() == 0


def test_stdin_is_closed(tmp_path: Path) -> None:
    process = LineProcess(["sh", "-c", "cat; echo done"], str(tmp_path), child_env({}))
    assert lines_of(process) == [b"done"]
    process.close()


def test_the_environment_is_added_to_the_users(tmp_path: Path) -> None:
    process = LineProcess(["sh", "-c", 'echo "$IDEA_X:${HOME:+home}:$NO_COLOR"'], str(tmp_path),
                          child_env({"IDEA_X": "1"}))
    assert lines_of(process) == [b"1:home:1"]
    process.close()


def test_a_missing_binary_or_cwd(tmp_path: Path) -> None:
    with pytest.raises(AppError) as failure:
        LineProcess(["no-such-binary-here"], str(tmp_path), child_env({}))
    assert (failure.value.code, failure.value.message) == (
        "COMMAND_NOT_FOUND", "command not found: no-such-binary-here")
    with pytest.raises(AppError) as failure:
        LineProcess(["true"], str(tmp_path / "gone"), child_env({}))
    assert failure.value.code == "NOT_FOUND"


def test_a_deadline_then_a_kill(tmp_path: Path) -> None:
    process = LineProcess(["sh", "-c", "echo first; sleep 30"], str(tmp_path), child_env({}))
    assert process.next_line(time.monotonic() + 10) == b"first"
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        process.next_line(time.monotonic() + 0.05)
    process.kill()
    assert process.close() == -9
    assert time.monotonic() - started < 5


def test_the_stderr_line_that_says_why() -> None:
    tail = StderrTail()
    for line in ["WARNING: proceeding", "\x1b[31mError: thread/resume failed: no rollout\x1b[0m",
                 "Stack backtrace:", "   0: anyhow::error::<impl From<E> for anyhow::Error>",
                 "   1: <unknown>", "    at Object.<anonymous> (/x/error.js:1:1)"]:
        tail.add(line.encode())
    assert tail.reason() == "Error: thread/resume failed: no rollout"
    quiet = StderrTail()
    quiet.add(b"just talking\n")
    assert quiet.reason() == "just talking" and StderrTail().reason() is None
