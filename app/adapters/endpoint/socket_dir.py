"""Where endpoint sockets live and what they are called (POSIX).

The directory is private to the user (0700, owned by us, not a symlink): the socket's own 0600
mode is not honoured by every kernel, the directory's is. A project's socket is named after a
hash of its root so the path stays short (the kernel limit is 108 bytes on Linux, 104 on macOS).
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Mapping

from app.adapters.endpoint.naming import project_digest
from app.core.errors import NOT_WRITABLE, AppError

#: Longest socket path we bind (bytes): `sockaddr_un.sun_path` minus its NUL on macOS.
MAX_SOCKET_PATH = 103


def endpoint_dir(env: Mapping[str, str], tmp_dir: str, uid: int) -> str:
    """`$XDG_RUNTIME_DIR/idea` when that variable names an existing absolute directory, else
    `<tmp_dir>/idea-<uid>`."""
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "idea")
    return os.path.join(tmp_dir, f"idea-{uid}")


def socket_name(root: str) -> str:
    """`<project_digest(root)>.sock`."""
    return f"{project_digest(root)}.sock"


def socket_path(directory: str, root: str) -> str:
    """The socket of project `root` in `directory`; raises `AppError(NOT_WRITABLE)` when the
    path would be longer than `MAX_SOCKET_PATH` bytes."""
    path = os.path.join(directory, socket_name(root))
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise AppError(NOT_WRITABLE, f"endpoint socket path too long ({path}): set XDG_RUNTIME_DIR "
                                     "or TMPDIR to a shorter directory", {"path": path})
    return path


def ensure_private_dir(path: str) -> None:
    """Create `path` with mode 0700, or check an existing one: a real directory (no symlink)
    owned by this user; group/other permission bits are removed.

    Raises `AppError(NOT_WRITABLE)` naming the problem (not a directory, another owner, cannot
    create or fix the mode)."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise AppError(NOT_WRITABLE, f"cannot create the endpoint directory {path}: "
                                     f"{exc.strerror}", {"path": path}) from exc
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise AppError(NOT_WRITABLE, f"endpoint directory {path} is not a directory (or is a "
                                     "symlink); remove it", {"path": path})
    if info.st_uid != os.geteuid():
        raise AppError(NOT_WRITABLE, f"endpoint directory {path} belongs to another user "
                                     f"(uid {info.st_uid}); remove it or set XDG_RUNTIME_DIR",
                       {"path": path})
    if stat.S_IMODE(info.st_mode) != 0o700:
        try:
            os.chmod(path, 0o700)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot make {path} private (mode 0700): "
                                         f"{exc.strerror}", {"path": path}) from exc


def sweep_stale(directory: str) -> list[str]:
    """Remove the sockets of `directory` nobody listens on any more (an IdeA that was killed
    leaves its files behind): a connection refused means stale. Returns the paths removed;
    never raises."""
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        path = os.path.join(directory, name)
        try:
            if not name.endswith(".sock") or not stat.S_ISSOCK(os.lstat(path).st_mode):
                continue
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.settimeout(0.5)
                probe.connect(path)
                continue  # someone answers
            except (ConnectionRefusedError, FileNotFoundError):
                os.unlink(path)
                removed.append(path)
            finally:
                probe.close()
        except OSError:
            continue
    return removed
