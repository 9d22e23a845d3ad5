"""The whole services graph over the core's fakes (the real bootstrap, fake adapters)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.bootstrap import Adapters, Config, Container, build
from app.core.domain.sessions import TerminalChunk
from app.core.events import DomainEvent
from app.core.ports import AgentSessions
from tests.unit.fakes import (
    FakeCliNeeds,
    FakeClock,
    FakeDetector,
    FakeFileSystem,
    FakePermissionProjector,
    FakeProjector,
    FakeResolver,
    FakeSandboxEnforcer,
    FakeTerminalHost,
    ManualScheduler,
    SequentialIds,
    SequentialTokens,
)

DATA = "/data"
ROOT = "/home/u/proj"
OTHER = "/home/u/other"


@dataclass
class Timeline:
    """What one window would see, in order: chunks of the sessions it attached and events."""

    items: list[Any] = field(default_factory=list)

    def chunk(self, chunk: TerminalChunk) -> None:
        self.items.append(chunk)

    def event(self, event: DomainEvent) -> None:
        self.items.append(event)

    def of(self, kind: type) -> list[Any]:
        return [i for i in self.items if isinstance(i, kind)]


@dataclass
class World:
    container: Container
    fs: FakeFileSystem
    host: FakeTerminalHost
    timeline: Timeline
    clock: ManualScheduler

    @property
    def s(self):  # noqa: ANN201 - the AppServices, short for tests
        return self.container.services

    def leaf(self, root: str = ROOT) -> str:
        layouts = self.s.projects.view(root).layouts
        assert layouts is not None
        return layouts.active.root.id


def world(resolver: dict[str, str] | None = None, abi: int | None = 7,
          sessions: Mapping[str, AgentSessions] | None = None) -> World:
    """The services over fakes; `abi`: the pretend kernel's Landlock ABI (None: none);
    `sessions`: structured session adapters by protocol (headless turns)."""
    fs = FakeFileSystem(dirs={ROOT, OTHER, DATA})
    host = FakeTerminalHost()
    installed = {"/bin/bash": "/bin/bash", **(resolver or {})}
    scheduler = ManualScheduler()
    adapters = Adapters(fs=fs, terminals=host, resolver=FakeResolver(installed),
                        detector=FakeDetector(), clock=FakeClock(), ids=SequentialIds(),
                        tokens=SequentialTokens(), projector=FakeProjector(),
                        scheduler=scheduler, enforcer=FakeSandboxEnforcer(abi),
                        cli_needs=FakeCliNeeds(), permissions=FakePermissionProjector(),
                        sessions=dict(sessions or {}))
    container = build(Config(data_dir=DATA, shell="/bin/bash", scrollback_chars=1000,
                             idea_command=("/usr/bin/idea",)), adapters)
    timeline = Timeline()
    container.services.events.subscribe(timeline.event)
    return World(container, fs, host, timeline, scheduler)
