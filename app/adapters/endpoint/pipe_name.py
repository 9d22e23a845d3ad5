"""What a project's named pipe is called on Windows (pure: runs and is tested anywhere).

`\\\\.\\pipe\\idea-<user>-<project_digest(root)>`: one name per user and project, so a second
IdeA of the same user on the same project finds it taken, and two users' IdeAs never meet.
Windows allows any character but `\\` in a pipe name (up to 256 in all); the user part is kept
to letters and digits (any script), `.`, `_` and `-`, lower-cased (Windows user names ignore
case) and shortened, so the name is always valid and readable. See "Pipe Names", Microsoft Learn
(learn.microsoft.com/windows/win32/ipc/pipe-names).
"""

from __future__ import annotations

import re

from app.adapters.endpoint.naming import project_digest

#: How every local pipe name starts.
PIPE_PREFIX = "\\\\.\\pipe\\"
#: Longest user part kept (characters).
MAX_USER_CHARS = 40
_UNSAFE = re.compile(r"[^\w.-]+")


def user_label(user: str) -> str:
    """`user` lower-cased, every run of characters other than letters, digits, `.` and `-` made
    one `_`, at most `MAX_USER_CHARS` long; the word "user" when nothing is left (an empty or
    all-symbol name)."""
    label = _UNSAFE.sub("_", user.lower()).strip("_")[:MAX_USER_CHARS]
    return label or "user"


def pipe_namespace(user: str) -> str:
    """`idea-<user_label(user)>`: the part every pipe of this user starts with."""
    return f"idea-{user_label(user)}"


def pipe_name(namespace: str, root: str) -> str:
    """`\\\\.\\pipe\\<namespace>-<project_digest(root)>`. Raises `ValueError` when `namespace`
    holds a backslash or is empty."""
    if not namespace or "\\" in namespace:
        raise ValueError(f"pipe namespace {namespace!r}: must be non-empty, without backslash")
    return f"{PIPE_PREFIX}{namespace}-{project_digest(root)}"
