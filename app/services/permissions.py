"""Permissions as every door drives them (SPEC C10, contracts §9): the project's
`permissions.json` (read, save), the editor's "test a path / a command" box, what this machine's
OS sandbox can do, and the recent denials of each agent."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.core.domain.denials import KEPT_DENIALS, Denial, launch_refused
from app.core.domain.permission_rules import resolve_permissions
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.sandbox import SandboxPlan, SandboxStatus, access_set
from app.core.domain.sandbox_compile import exposed_by_needs
from app.core.domain.sessions import TerminalChunk
from app.core.domain.terminal_denials import TerminalDenialScanner
from app.core.events import DenialReported, DomainEvent, SessionExited, SessionStarted
from app.core.ports import (
    CliNeedsSource,
    Clock,
    CommandResolver,
    EventSink,
    FileSystem,
    SandboxEnforcer,
)
from app.core.usecases.permissions import (
    PermissionTest,
    explain_permission,
    load_permissions,
    save_permissions,
)
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.project_files import recheck_file, require_manifest
from app.core.usecases.project_state import PERMISSIONS_FILE
from app.services.file_problems import announce
from app.services.open_projects import OpenProjects

#: The plan the editor's "what this machine can do" line is judged on: writes confined.
_PROBE_PLAN = SandboxPlan(restrict=access_set(["write"]), fail_closed=True)
#: The classes the editor's "this project lies in /tmp" warning is judged for.
_PROBED = access_set(["write", "delete"])


@dataclass(frozen=True)
class PermissionsView:
    """`permissions.get`: the document as on disk (None: nothing posed) and what this
    machine's OS sandbox gives a plan confining files (`enforced`/`degraded` with the
    Landlock ABI, or `unsupported` with why); `exposed`: why file rules inside this project
    cannot be enforced by the OS (it lies in a folder every CLI's needs grant: `/tmp`…),
    judged for writes and deletions with the shell's needs, which every CLI gets."""

    document: Mapping[str, Any] | None
    machine: SandboxStatus
    exposed: tuple[str, ...] = ()


class PermissionService:
    """Reads and saves `permissions.json` of open projects, answers the test box, keeps the
    last `KEPT_DENIALS` denials of each agent (from `DenialReported` events and refused
    launches: subscribe `on_event` to the event bus)."""

    def __init__(self, projects: OpenProjects, fs: FileSystem, enforcer: SandboxEnforcer,
                 needs: CliNeedsSource, profiles: LoadProfiles, resolver: CommandResolver,
                 shell: str, clock: Clock, events: EventSink) -> None:
        self._projects, self._fs, self._enforcer, self._needs = projects, fs, enforcer, needs
        self._profiles, self._resolver, self._shell = profiles, resolver, shell
        self._clock, self._events = clock, events
        self._lock = threading.Lock()
        self._denials: dict[tuple[str, str], deque[Denial]] = {}
        #: Confined agent sessions whose terminal is read for the shell's EACCES.
        self._scanned: dict[str, tuple[str, str, TerminalDenialScanner]] = {}

    def get(self, root: str) -> PermissionsView:
        """The project's permissions. Raises `AppError(CORRUPT_FILE)` (details `{file,
        field}`) when the file does not parse, `NOT_FOUND` when the project is not open."""
        with self._projects.locked(root) as state:
            doc = load_permissions(self._fs, state.root)
            effective = (resolve_permissions(doc, "", state.root)
                         if state.root.startswith("/") else None)
            shell = self._resolver.which(self._shell) if self._shell else None
            needs = self._needs.needs(shell, state.path("run", "_project"), state.endpoint) \
                if shell else ()
        return PermissionsView(doc.to_json() if doc is not None else None,
                               self._enforcer.status(_PROBE_PLAN),
                               exposed_by_needs(effective, state.root, _PROBED, needs))

    def recheck(self, root: str) -> None:
        """`permissions.json` of open project `root` changed on disk (the file watcher): its
        problem is raised when it no longer parses, resolved once it does again (no error when
        the project is not open). Launches read it anew anyway."""
        handle = self._projects.find(root)
        if handle is None:
            return
        with handle.lock:
            outcome = recheck_file(self._fs, handle.state, PERMISSIONS_FILE, PermissionsDoc)
            root, file = handle.state.root, handle.state.path(PERMISSIONS_FILE)
        announce(self._events, root, file, outcome)

    def save(self, root: str, document: Any) -> Mapping[str, Any]:
        """Validate and write the whole document (unknown keys kept); returns it as written.
        Raises `AppError(INVALID)` naming the field, `CORRUPT_FILE` when the file on disk does
        not parse (never overwritten). Takes effect at each agent's next launch."""
        with self._projects.locked(root) as state:
            return save_permissions(self._fs, state.root, document).to_json()

    def test(self, root: str, agent_id: str | None, capability: str, target: str,
             draft: Any = None) -> PermissionTest:
        """The decision for `capability` on `target` for agent `agent_id` (None: the project
        defaults), under `draft` (the editor's unsaved document) or the saved file, and what
        the OS does with it at that agent's launch (its CLI's folders granted as then).
        Errors: `INVALID` (unknown capability, empty target, an invalid draft naming its field,
        nothing posed), `NOT_FOUND` (agent), `CORRUPT_FILE`."""
        profiles = self._profiles.execute() if agent_id is not None else ()
        with self._projects.locked(root) as state:
            doc = (PermissionsDoc.from_json(draft, form="permissions") if draft is not None
                   else load_permissions(self._fs, state.root))
            # the project defaults: judged with the shell's needs, which every CLI gets
            command = self._resolver.which(self._shell) if self._shell else None
            run_dir = None
            if agent_id is not None:
                agent = require_manifest(state).get(agent_id)
                profile = next((p for p in profiles if p.id == agent.profile_id), None)
                wanted = (profile.command if profile is not None else "") or self._shell
                command = self._resolver.which(wanted) if wanted else None
                run_dir = state.path("run", agent_id)
            return explain_permission(doc, state.root, agent_id, capability, target,
                                      status_of=self._enforcer, needs=self._needs,
                                      command=command, run_dir=run_dir,
                                      endpoint=state.endpoint)

    def denials(self, root: str, agent_id: str) -> list[Denial]:
        """Agent `agent_id`'s recent denials, newest first (IdeA keeps them in memory)."""
        with self._projects.locked(root) as state:
            key = (state.root, agent_id)
        with self._lock:
            return list(reversed(self._denials.get(key, ())))

    def report(self, root: str, agent_id: str, denial: Denial) -> None:
        """A denial learnt outside the event bus (a headless turn launcher's
        `denial_from_turn_event`): kept and published as `DenialReported`."""
        self._events.publish(DenialReported(root, agent_id, denial))

    def on_output(self, chunk: TerminalChunk) -> None:
        """Terminal-output tap (reader thread): a confined agent's terminal printing the
        kernel's refusal (`sh: 1: cannot create /p/x: Permission denied`, see
        `terminal_denials`) reports a denial."""
        with self._lock:
            scanned = self._scanned.get(chunk.session_id)
            found = scanned[2].feed(chunk.text) if scanned is not None else []
        for denial in found:
            assert scanned is not None
            self._events.publish(DenialReported(scanned[0], scanned[1], denial))

    def on_event(self, event: DomainEvent) -> None:
        """Keep `DenialReported` denials; a launch the sandbox refuses reports one; the
        terminal of an agent the OS confines is read for refusals (`on_output`)."""
        if isinstance(event, SessionStarted):
            record = event.session
            if record.agent_id and record.sandbox is not None and record.sandbox.refused:
                self._events.publish(DenialReported(
                    event.root, record.agent_id, launch_refused(record.sandbox.status.message)))
            elif record.agent_id and record.sandbox is not None \
                    and record.sandbox.status.confined:
                with self._lock:
                    self._scanned[record.session_id] = (event.root, record.agent_id,
                                                        TerminalDenialScanner())
        elif isinstance(event, SessionExited):
            with self._lock:
                self._scanned.pop(event.session_id, None)
        elif isinstance(event, DenialReported):
            stamped = replace(event.denial, at_ms=event.denial.at_ms or self._clock.now_ms())
            with self._lock:
                kept = self._denials.setdefault((event.root, event.agent_id),
                                                deque(maxlen=KEPT_DENIALS))
                kept.append(stamped)

