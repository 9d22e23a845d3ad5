"""Denials a confined agent's terminal prints (SPEC C10 "where the CLI reports them"): the
kernel's EACCES as a shell or a coreutils command words it in the PTY. Pure.

Only sessions IdeA's OS sandbox confines are read (a "Permission denied" in an unconfined
terminal is an ordinary file mode, not a permission IdeA posed), and only lines in the words
of the C library's `strerror` (EACCES "Permission denied", EPERM "Operation not permitted",
EROFS "Read-only file system") after a `name:` prefix (after the prompt, when the shell printed one first), as
`sh`/`bash`/`zsh` and coreutils print them:

- dash: `sh: 1: cannot create /p/x: Permission denied`
- bash: `bash: /p/x: Permission denied`, `bash: line 1: /p/x: Permission denied`
- coreutils: `touch: cannot touch '/p/x': Permission denied`,
  `mkdir: cannot create directory '/p/d': Permission denied`,
  `mktemp: failed to create file via template '/p/t.XXXX': Permission denied` (a shell's
  start-up files run it: pyenv's init, for one)
- Python: `PermissionError: [Errno 13] Permission denied: '/p/x'`
"""

from __future__ import annotations

import re

from app.core.domain.denials import Denial

#: A line longer than this is dropped unread (a binary dump, not an error message).
MAX_LINE = 2_000
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")
_REFUSAL = r"(?P<why>Permission denied|Operation not permitted|Read-only file system)"
#: `tool: [line N: | N: ][cannot|failed to <verb> [words] ]['"]target['"]: <why>`
_SHELL = re.compile(r"(?:^|\s)(?P<tool>[\w.+/-]+): (?:(?:line )?\d+: )?"
                    r"(?:(?:cannot|failed to) [a-z]+(?: [a-z]+)*? )?"
                    r"['‘\"]?(?P<target>[^'‘’\"]+?)['’\"]?: " + _REFUSAL + r"\s*$")
#: `PermissionError: [Errno 13] Permission denied: '/p/x'`
_PYTHON = re.compile(r"(?:^|\s)(?P<tool>\w+Error): \[Errno \d+\] " + _REFUSAL
                     + r": ['\"](?P<target>[^'\"]+)['\"]\s*$")


def terminal_denial(line: str) -> Denial | None:
    """The denial one terminal line (ANSI sequences removed) reports, or None."""
    match = _SHELL.search(line) or _PYTHON.search(line)
    if match is None:
        return None
    why, tool = match["why"], match["tool"].rsplit("/", 1)[-1] or match["tool"]
    errno = {"Permission denied": "EACCES", "Operation not permitted": "EPERM"}.get(why, "EROFS")
    return Denial("cli", tool, match["target"].strip(),
                  f"{errno}: {why} (as the terminal printed it)")


class TerminalDenialScanner:
    """Feeds on one session's output (chunks cut anywhere) and returns the denials of each
    completed line, in order. Not thread-safe: one scanner per session, fed in order."""

    def __init__(self) -> None:
        self._partial = ""

    def feed(self, text: str) -> list[Denial]:
        """The denials of the lines `text` completes (a line ends at `\\n` or `\\r`)."""
        pieces = re.split(r"[\r\n]", self._partial + text)
        self._partial = pieces.pop()
        if len(self._partial) > MAX_LINE:
            self._partial = ""
        found = []
        for piece in pieces:
            if len(piece) > MAX_LINE:
                continue
            denial = terminal_denial(_ANSI.sub("", piece).strip())
            if denial is not None:
                found.append(denial)
        return found
