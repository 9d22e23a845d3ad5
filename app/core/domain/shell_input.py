"""What a terminal does with a delegated task typed into it: a prompt or a shell command line.

A TUI agent (Claude Code, Codex…) takes the typed line as a prompt. A shell (the `shell`
profile: the user's `$SHELL` in a PTY) would *run* it: `what is 2+2` is a syntax error, and
`hi; touch x #` runs `touch`. For such a terminal the task is typed as an inert command line,
`: '<text>'`, which every shell shows (its echo) and runs as a no-op (ADR 019). Pure.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from app.core.domain.profiles import Profile

#: How a profile's terminal takes a typed task: `prompt` (a TUI reads it), `shell` (a shell
#: would run it: it is typed as a no-op).
TaskInput = Literal["prompt", "shell"]
TASK_INPUTS = ("prompt", "shell")

#: Shells whose command line `shell_noop` keeps inert (POSIX family and fish), by basename.
KNOWN_SHELLS = frozenset({"sh", "bash", "dash", "ash", "ksh", "mksh", "zsh", "fish", "busybox"})


def task_input_of(profile: Profile) -> TaskInput:
    """How `profile`'s terminal takes a typed task: its `taskInput` when set, else `shell`
    when it runs an interactive shell — `command` empty (the user's `$SHELL`), or a known
    shell's name (`bash`, `/bin/zsh`, `fish`…, `KNOWN_SHELLS`) given only options (`-l`,
    `--login`; not `-c` nor a script, which make it run a program) — else `prompt`."""
    if profile.task_input is not None:
        return profile.task_input
    command = profile.command.strip()
    if not command:
        return "shell"
    interactive = all(a.startswith("-") and a != "-c" for a in profile.args)
    return "shell" if posixpath.basename(command) in KNOWN_SHELLS and interactive else "prompt"


def done_once_typed(task_input: TaskInput, kind: str) -> bool:
    """Whether a turn is over as soon as its line was typed: a `message` (nobody answers it)
    to a `shell` terminal, which runs the no-op at once and shows no prompt IdeA watches
    (ADR 019). Anything else ends with a reply, the CLI's prompt or a hook."""
    return task_input == "shell" and kind == "message"


def shell_noop(text: str) -> str:
    """`text` as the shell no-op `: '<text>'`, which bash, zsh, dash, ksh and fish echo and
    never execute, whatever `text` holds (quotes, `;`, `$(…)`, backticks, `#`, `!`…).

    `text` is one line of printable characters (`delegation.printable_line`: a newline or
    a control character would press keys). Inside the single quotes nothing is special,
    except that fish reads `\\'` and `\\\\` there as escapes; so no backslash and no quote
    is ever left inside them: `'` is written `'\\''` and `\\` is written `'\\\\'` (closed
    quote, the character escaped outside, reopened quote), which POSIX shells and fish read
    alike (POSIX 2.2.1-2.2.2; fish "Quotes"). `:` is a builtin of every POSIX shell and of
    fish (`type :` in fish 3.6). zsh's `interactivecomments` is off by default, hence no
    `#` comment.
    """
    quoted = "".join("'\\''" if ch == "'" else "'\\\\'" if ch == "\\" else ch for ch in text)
    return f": '{quoted}'"
