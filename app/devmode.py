"""``idea dev``: the Vite dev server plus the window as a child process restarted on changes.

- :class:`ViteServer` runs ``npm run dev`` in ``web/`` (Svelte hot module reload: an edit of a
  ``.svelte``/``.ts`` file is swapped into the running page, which keeps its state).
- :class:`Supervisor` runs the window (``idea gui`` through :func:`self_command`, with
  ``IDEA_DEV_URL`` pointing it at Vite) and restarts it when a ``*.py`` file under ``app/``
  changes (watchdog), with the same ``--data-dir``, so the same projects re-open: the
  ``--project`` ones and those opened in the window since dev mode started. Closing the window
  ends dev mode; a child that crashes (say, a syntax error mid-edit) is restarted at the next
  change.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from app import paths
from app.adapters.system.self_command import self_command

log = logging.getLogger("idea.dev")

DEFAULT_PORT = 5173
#: Events that mean a file's content changed ("closed" follows a write; "opened" and
#: "closed_no_write" do not count: importing a module reads it, which must not restart anything).
CHANGE_EVENTS = frozenset({"created", "modified", "deleted", "moved", "closed"})


def _say(message: str) -> None:
    print(f"[idea dev] {message}", file=sys.stderr, flush=True)


def stop_process(proc: subprocess.Popen[bytes], timeout_s: float = 5.0) -> None:
    """SIGTERM the process group of ``proc`` (started with ``start_new_session``), then SIGKILL."""
    if proc.poll() is not None:
        return
    killpg = getattr(os, "killpg", None)  # POSIX; on Windows only the process itself is ended
    try:
        if killpg is None:
            raise ProcessLookupError
        killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        proc.terminate()
    try:
        proc.wait(timeout_s)
    except subprocess.TimeoutExpired:
        try:
            if killpg is None:
                raise ProcessLookupError
            killpg(proc.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        except (ProcessLookupError, PermissionError):
            proc.kill()
        proc.wait(timeout_s)


class _PyChangeHandler(FileSystemEventHandler):
    def __init__(self, suffixes: tuple[str, ...], on_change: Callable[[str], None]) -> None:
        self._suffixes = suffixes
        self._on_change = on_change

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type not in CHANGE_EVENTS:
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(raw)
            if path.endswith(self._suffixes) and "__pycache__" not in path:
                self._on_change(path)
                return


class Supervisor:
    """Runs ``spawn()`` as a child and restarts it when a watched file changes.

    ``run()`` blocks until the child exits on its own with code 0 (the user closed the window),
    then returns 0; ``stop()`` (any thread) ends it too. Changes within ``debounce_s`` of each
    other cause one restart.
    """

    def __init__(self, spawn: Callable[[], subprocess.Popen[bytes]], watch_dir: Path,
                 suffixes: tuple[str, ...] = (".py",), debounce_s: float = 0.3,
                 on_restart: Callable[[str], None] | None = None) -> None:
        self._spawn = spawn
        self._watch_dir = watch_dir
        self._suffixes = suffixes
        self._debounce_s = debounce_s
        self._on_restart = on_restart or (lambda path: _say(f"{path} changed: restarting IdeA"))
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._timer: threading.Timer | None = None
        self._changed: str | None = None
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self.restarts = 0

    @property
    def child(self) -> subprocess.Popen[bytes] | None:
        with self._lock:
            return self._child

    def file_changed(self, path: str) -> None:
        """Schedule a restart ``debounce_s`` after the last change (called by the watcher)."""
        with self._lock:
            self._changed = path
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self._debounce_s, self._wake.set)
            self._timer.daemon = True
            self._timer.start()

    def run(self, poll_s: float = 0.1) -> int:
        observer = Observer()
        observer.schedule(_PyChangeHandler(self._suffixes, self.file_changed), str(self._watch_dir),
                          recursive=True)
        observer.start()
        try:
            with self._lock:
                self._child = self._spawn()
            crashed_reported = False
            while not self._stopping.is_set():
                if self._wake.wait(poll_s):
                    self._wake.clear()
                    if self._stopping.is_set():
                        break
                    self._restart()
                    crashed_reported = False
                    continue
                child = self.child
                code = child.poll() if child is not None else None
                if code == 0:
                    return 0
                if code is not None and not crashed_reported:
                    _say(f"IdeA exited with code {code}; waiting for a change under "
                         f"{self._watch_dir} to restart it (Ctrl-C to quit)")
                    crashed_reported = True
            return 0
        finally:
            self._stopping.set()
            observer.stop()
            with self._lock:
                if self._timer is not None:
                    self._timer.cancel()
                child = self._child
            if child is not None:
                stop_process(child)
            observer.join(5)

    def _restart(self) -> None:
        with self._lock:
            old, changed = self._child, self._changed or "a file"
        self._on_restart(changed)
        if old is not None:
            stop_process(old)
        if self._stopping.is_set():
            return
        new = self._spawn()
        with self._lock:
            self._child = new
            self.restarts += 1

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()


class ViteServer:
    """``npm run dev`` in ``web/`` on ``127.0.0.1:<port>`` (its own process group)."""

    def __init__(self, web_dir: Path, port: int) -> None:
        self.web_dir = web_dir
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = 60.0) -> str:
        if not (self.web_dir / "node_modules").is_dir():
            raise RuntimeError(f"{self.web_dir}/node_modules is missing: start dev mode with "
                               "./idea dev (it runs npm ci)")
        npm = "npm.cmd" if sys.platform == "win32" else "npm"
        self._proc = subprocess.Popen(
            [npm, "run", "dev", "--", "--host", "127.0.0.1", "--port", str(self.port), "--strictPort"],
            cwd=self.web_dir, start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"the Vite dev server exited ({self._proc.returncode}); "
                                   f"is port {self.port} free? (IDEA_DEV_PORT picks another)")
            try:
                with urllib.request.urlopen(self.url, timeout=1) as response:
                    if response.status == 200:
                        return self.url
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the Vite dev server did not answer on {self.url} in {timeout_s:.0f} s")

    def stop(self) -> None:
        if self._proc is not None:
            stop_process(self._proc)
            self._proc = None


def gui_argv(data_dir: str | None, projects: Sequence[str]) -> list[str]:
    """How the supervisor starts the window: ``self_command() [--data-dir D] [--project P]… gui``."""
    argv = list(self_command())
    if data_dir:
        argv += ["--data-dir", os.path.abspath(os.path.expanduser(data_dir))]
    for project in projects:
        argv += ["--project", os.path.abspath(os.path.expanduser(project))]
    return [*argv, "gui"]


def projects_to_reopen(data_dir: str, startup: Sequence[str], since_ms: int) -> list[str]:
    """``startup`` (the ``--project`` arguments) plus every project opened since ``since_ms``
    (epoch ms, the start of dev mode) according to ``projects.json``, oldest first, no repeats."""
    from app.adapters.stores.filesystem import LocalFileSystem
    from app.core.usecases.recent_projects import ListRecentProjects

    chosen = [os.path.abspath(os.path.expanduser(p)) for p in startup]
    recent = ListRecentProjects(LocalFileSystem(), data_dir).execute()
    for entry in sorted(recent, key=lambda r: r.last_opened_ms):
        if entry.last_opened_ms >= since_ms and entry.root not in chosen:
            chosen.append(entry.root)
    return chosen


def run_dev(data_dir: str | None, projects: list[str]) -> int:
    """``idea dev``: returns when the window is closed (or on Ctrl-C)."""
    if getattr(sys, "frozen", False):
        _say("dev mode needs a source checkout (run ./idea dev from the repository)")
        return 2
    root = paths.app_root()
    port = int(os.environ.get("IDEA_DEV_PORT", DEFAULT_PORT))
    vite = ViteServer(root / "web", port)
    watch = Path(os.environ.get("IDEA_DEV_WATCH_DIR") or root / "app")
    try:
        url = vite.start()
        _say(f"Vite dev server on {url}; restarting the window on changes under {watch}")
        env = dict(os.environ, IDEA_DEV_URL=url)
        data = str(paths.data_dir(data_dir))
        since_ms = int(time.time() * 1000)

        def spawn() -> subprocess.Popen[bytes]:
            # The same projects re-open: the --project ones and those opened in the window since.
            argv = gui_argv(data, projects_to_reopen(data, projects, since_ms))
            return subprocess.Popen(argv, env=env, start_new_session=True)

        supervisor = Supervisor(spawn, watch)
        # SIGTERM/SIGHUP (a closed terminal, a test harness) end dev mode cleanly: the window and
        # Vite run in their own process groups and are stopped by Supervisor.run / vite.stop.
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                signal.signal(sig, lambda *_: supervisor.stop())
        try:
            return supervisor.run()
        except KeyboardInterrupt:
            return 130
    except RuntimeError as exc:
        _say(str(exc))
        return 1
    finally:
        vite.stop()
