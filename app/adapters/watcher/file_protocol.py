"""Door 4, the file protocol (docs/contracts.md §7.7): `.ideai/requests/<agentId>/<name>.json`
files watched with watchdog, answered with `<name>.response.json` beside them.

For agents and scripts that can write a file but run nothing else. A request is
`{"token": <launch token>, "command": {…}}` (§7.1); the answer is `{"ok": result}` or
`{"error": {code, message, details}}`; the request then moves to `<agentId>/done/`, or to
`<agentId>/rejected/` when it was not valid JSON of that shape. Requests are handled on their
own threads (an ask blocks until answered); the watcher never stops on a bad file. Writers
should create the file under another name and rename it (or close it once written): IdeA reads
a request when it is closed after writing or renamed into place, and at start for the ones left
from before.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from watchdog.events import FileClosedEvent, FileMovedEvent, FileSystemEvent, FileSystemEventHandler

from app.adapters.watcher.folders import FolderWatches
from app.core.domain.delegation import AgentCaller
from app.core.errors import INTERNAL, INVALID, AppError

log = logging.getLogger(__name__)

RESPONSE_SUFFIX = ".response.json"
#: Seconds between two sweeps of the requests folders, the safety net under file events (a
#: new `<agentId>/` folder is only watched once created: a file written into it at once is
#: found by the next sweep).
SWEEP_S = 1.0


class Dispatcher(Protocol):
    def dispatch(self, root: str, caller: Any, command: Any) -> dict[str, Any]: ...


class Verifier(Protocol):
    def verify(self, root: str, requester: str, token: str) -> AgentCaller: ...


def requests_dir(root: str) -> Path:
    """`<root>/.ideai/requests`."""
    return Path(root) / ".ideai" / "requests"


def is_request(path: Path, base: Path) -> bool:
    """A request file: `<base>/<agentId>/<name>.json`, not a response, not hidden."""
    try:
        rel = path.relative_to(base)
    except ValueError:
        return False
    return (len(rel.parts) == 2 and path.suffix == ".json"
            and not path.name.endswith(RESPONSE_SUFFIX) and not path.name.startswith("."))


def _write_json(path: Path, value: Any) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=2)
        f.write("\n")
    os.replace(tmp, path)


class _Handler(FileSystemEventHandler):
    def __init__(self, on_file: Callable[[Path], None]) -> None:
        self._on_file = on_file

    def on_closed(self, event: FileSystemEvent) -> None:
        if isinstance(event, FileClosedEvent) and not event.is_directory:
            self._on_file(Path(os.fsdecode(event.src_path)))

    def on_moved(self, event: FileSystemEvent) -> None:
        if isinstance(event, FileMovedEvent) and not event.is_directory:
            self._on_file(Path(os.fsdecode(event.dest_path)))


class FileProtocolDoor:
    """Watches the requests folder of each open project (`open(root)` / `close(root)`)."""

    def __init__(self, dispatcher: Dispatcher, verifier: Verifier) -> None:
        self._dispatcher, self._verifier = dispatcher, verifier
        self._lock = threading.Lock()
        self._watches = FolderWatches()
        self._busy: set[Path] = set()
        self._sweeper: threading.Thread | None = None
        self._stopped = threading.Event()

    def open(self, root: str) -> str | None:
        """Start answering `root`'s requests (the folder is created). Returns None: this door
        has no address to hand to agents."""
        base = requests_dir(root)
        base.mkdir(parents=True, exist_ok=True)
        handler = _Handler(lambda path: self._arrived(root, base, path))
        if not self._watches.watch(root, str(base), handler, recursive=True):
            return None
        with self._lock:
            if self._sweeper is None:
                self._sweeper = threading.Thread(target=self._sweep, daemon=True,
                                                 name="idea-requests-sweep")
                self._sweeper.start()
        self._scan(root, base)  # written while IdeA was not running
        return None

    def _scan(self, root: str, base: Path, settled_s: float = 0.0) -> None:
        """Answer the request files under `base` last modified `settled_s` seconds ago or more
        (a file still being written is left to its close event)."""
        now = time.time()
        for left in sorted(base.glob("*/*.json")):
            try:
                if now - left.stat().st_mtime < settled_s:
                    continue
            except OSError:
                continue
            self._arrived(root, base, left)

    def _sweep(self) -> None:
        """Every `SWEEP_S`, look again at settled files: a file event lost by the OS (a folder
        and its file created faster than the watch is set) never loses a request."""
        while not self._stopped.wait(SWEEP_S):
            for root in self._watches.roots():
                self._scan(root, requests_dir(root), settled_s=SWEEP_S)

    def close(self, root: str) -> None:
        """Stop watching `root` (requests in flight still get their answer)."""
        self._watches.unwatch(root)

    def close_all(self) -> None:
        """App exit."""
        self._stopped.set()
        self._watches.stop()

    def _arrived(self, root: str, base: Path, path: Path) -> None:
        if not is_request(path, base) or not path.is_file():
            return
        with self._lock:
            if path in self._busy:
                return
            self._busy.add(path)
        threading.Thread(target=self._answer, args=(root, path), daemon=True,
                         name=f"idea-request-{path.stem[:12]}").start()

    def _answer(self, root: str, path: Path) -> None:
        requester = path.parent.name
        response = path.with_name(path.name.removesuffix(".json") + RESPONSE_SUFFIX)
        try:
            try:
                request = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(request, dict) or not isinstance(request.get("command"), dict):
                    raise ValueError('expected {"token": "...", "command": {"type": ...}}')
            except (ValueError, UnicodeDecodeError) as exc:
                self._move(path, "rejected")  # first: a response means the request is done
                _write_json(response, {"error": AppError(
                    INVALID, f"{path.name}: not a request: {exc}").to_json()})
                return
            try:
                caller = self._verifier.verify(root, requester, str(request.get("token") or ""))
                answer: dict[str, Any] = {"ok": self._dispatcher.dispatch(
                    root, caller, request["command"])}
            except AppError as exc:
                answer = {"error": exc.to_json()}
            except Exception as exc:
                log.exception("file request %s failed", path)
                answer = {"error": {"code": INTERNAL, "message": f"{type(exc).__name__}: {exc}",
                                    "details": {}}}
            self._move(path, "done")
            _write_json(response, answer)
        except OSError:
            log.exception("cannot answer file request %s", path)
        finally:
            with self._lock:
                self._busy.discard(path)

    @staticmethod
    def _move(path: Path, folder: str) -> None:
        target = path.parent / folder
        target.mkdir(exist_ok=True)
        try:
            os.replace(path, target / path.name)
        except OSError:
            log.warning("cannot move %s aside", path)
