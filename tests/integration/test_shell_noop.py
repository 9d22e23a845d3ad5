"""The shell no-op (`shell_input.shell_noop`) in real shells: for any task text, the line a
Shell agent's terminal is given runs nothing (no marker file, no output, exit 0) in sh (dash),
bash, zsh and fish, interactive or not, and the shell reads the task back exactly as one word.
zsh and fish come from `scripts/bootstrap.sh test`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.domain.delegation import Ticket, delivered_text, printable_line
from app.core.domain.shell_input import shell_noop

#: argv running a line; `-i` ones are interactive (history expansion on, rc files off).
SHELLS = {
    "sh": ["sh", "-c"],
    "bash": ["bash", "--norc", "--noprofile", "-c"],
    "bash -i": ["bash", "--norc", "--noprofile", "-i", "-c"],
    "zsh": ["zsh", "-f", "-c"],
    "zsh -i": ["zsh", "-f", "-i", "-c"],
    "zsh rcquotes": ["zsh", "-f", "-o", "rcquotes", "-c"],
    "fish": ["fish", "--no-config", "-c"],
    "fish -i": ["fish", "--no-config", "-i", "-c"],
}


def attacks(marker: Path) -> st.SearchStrategy[str]:
    """Texts mixing arbitrary unicode with what would run `touch <marker>` if unquoted."""
    m = str(marker)
    pieces = [f"; touch {m} #", f"$(touch {m})", f"`touch {m}`", f"'; touch {m}; '",
              f"\\'; touch {m}; : \\'", f"\"; touch {m}; \"", f"\n touch {m}\n", "'", "\\",
              "\\\\'", "''", "'\\''", "#", "!!", "!-1", "$HOME", "%1", "(", ")", "{", "}", "|",
              "&", ">x", "<y", "*", "~", "\u2019", "é 漢字 🙂", " 2+2 ", "\t", "\r", "\x03",
              f"&& touch {m}", f"| touch {m}", f"\\\n touch {m}", f"$'\\x27'; touch {m}"]
    return st.lists(st.one_of(st.sampled_from(pieces), st.text(max_size=12)),
                    max_size=8).map("".join)


def run(shell: str, line: str, home: Path) -> subprocess.CompletedProcess[str]:
    argv = SHELLS[shell]
    assert shutil.which(argv[0]), f"{argv[0]} missing: run scripts/bootstrap.sh test"
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": str(home / "cfg"), "XDG_DATA_HOME": str(home / "data")}
    return subprocess.run([*argv, line], cwd=home, env=env, capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL, check=False)


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_trial_tasks_run_nothing(shell: str, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for task in ["what is 2+2", f"hi; touch {marker} #", f"it's $(touch {marker}) `x`"]:
        line = delivered_text(Ticket("T1", "ask", "b", "a", "Alpha", task), task_input="shell")
        done = run(shell, line, tmp_path)
        assert (done.returncode, done.stdout, marker.exists()) == (0, "", False), done.stderr
        assert task in line or task.replace("'", "'\\''") in line


@pytest.mark.parametrize("shell", sorted(SHELLS))
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_whatever_the_text_the_line_runs_nothing_and_reads_back_whole(
        shell: str, tmp_path: Path, data: st.DataObject) -> None:
    marker = tmp_path / "pwned"
    text = printable_line(data.draw(attacks(marker)))
    line = shell_noop(text)
    done = run(shell, line, tmp_path)
    assert (done.returncode, done.stdout, marker.exists()) == (0, "", False), done.stderr
    echoed = run(shell, "printf '%s' " + line.removeprefix(": "), tmp_path)
    assert echoed.stdout == text, echoed.stderr
    assert not marker.exists()
