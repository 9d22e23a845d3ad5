"""Local-disk implementation of the core's ``FileSystem`` port.

Every write is atomic: the text goes to a temporary file in the same directory, is fsynced, then
renamed over the target (``os.replace``), so a crash never leaves a half-written JSON file.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from app.core.errors import NOT_WRITABLE, AppError


class LocalFileSystem:
    """``FileSystem`` over the local disk. Paths are absolute ``str`` paths."""

    def read_text(self, path: str, *, exact: bool = False) -> str | None:
        """Return the UTF-8 text of ``path``, or ``None`` when it does not exist; line
        endings universal (``\r\n``, ``\r`` → ``\n``) unless ``exact``.

        Undecodable bytes are replaced (U+FFFD) rather than failing the whole project open.
        """
        try:
            with open(path, encoding="utf-8", errors="replace", newline="" if exact else None) as f:
                return f.read()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            return None

    def write_text_atomic(self, path: str, text: str) -> None:
        """Write ``text`` (UTF-8) to ``path`` via temp file + fsync + rename.

        Raises ``AppError(NOT_WRITABLE)`` when the directory cannot be written.
        """
        directory = os.path.dirname(path) or "."
        try:
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=directory)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot write {path}: {exc.strerror}") from exc
        try:
            if hasattr(os, "fchmod"):  # mkstemp creates 0600; keep the file's usual mode
                os.fchmod(fd, _mode_for(path))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            _silent_unlink(tmp)
            raise AppError(NOT_WRITABLE, f"cannot write {path}: {exc.strerror}") from exc

    def append_line(self, path: str, line: str) -> None:
        """Append ``line`` + newline (UTF-8) with one ``write`` on an ``O_APPEND`` descriptor,
        then fsync; a torn last line (no final newline) is closed first. Callers serialise
        their own appends to one file. Raises ``AppError(NOT_WRITABLE)``."""
        data = (line + "\n").encode("utf-8")
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot write {path}: {exc.strerror}") from exc
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot write {path}: {exc.strerror}") from exc
        finally:
            os.close(fd)

    def list_dir(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return []

    def make_executable(self, path: str) -> None:
        """Add the execute bits where the read bits are (``chmod +x``, umask respected).

        Raises ``AppError(NOT_WRITABLE)``; a no-op where the OS has no such bits (Windows).
        """
        if not hasattr(os, "fchmod"):
            return
        try:
            mode = os.stat(path).st_mode
            os.chmod(path, mode | ((mode & 0o444) >> 2))
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot make {path} executable: {exc.strerror}") from exc

    def make_dirs(self, path: str) -> None:
        """Create ``path`` and its parents; raises ``AppError(NOT_WRITABLE)`` on failure."""
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot create {path}: {exc.strerror}") from exc

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def is_writable_dir(self, path: str) -> bool:
        """True when ``path`` is an existing directory in which files can be created.

        Probes by creating (and removing) a temporary file: ``os.access`` answers yes for root
        even on immutable or read-only-mounted folders.
        """
        if not os.path.isdir(path):
            return False
        try:
            fd, probe = tempfile.mkstemp(prefix=".idea-probe-", dir=path)
        except OSError:
            return False
        os.close(fd)
        _silent_unlink(probe)
        return True

    def remove_tree(self, path: str) -> None:
        shutil.rmtree(path, ignore_errors=True)

    def move(self, path: str, target: str) -> None:
        """Rename ``path`` to ``target`` (bytes untouched). A ``target`` that exists is
        refused, never replaced. Raises ``AppError(NOT_WRITABLE)``."""
        if os.path.lexists(target):
            raise AppError(NOT_WRITABLE, f"cannot move {path}: {target} exists")
        try:
            os.rename(path, target)
        except OSError as exc:
            raise AppError(NOT_WRITABLE, f"cannot move {path} to {target}: {exc.strerror}") \
                from exc


def _read_umask() -> int:
    # os.umask can only be read by setting it: done once, at import, before any thread starts.
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def _mode_for(path: str) -> int:
    """Permission bits for a rewrite of ``path``: its current mode, else 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_UMASK


def _silent_unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
