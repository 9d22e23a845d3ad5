"""Ready-made worlds for use case tests (in-memory, deterministic)."""

from __future__ import annotations

from app.core.usecases.permissions import AgentSandboxes
from app.core.usecases.project_state import ProjectState
from app.core.usecases.projects import CreateProject, OpenProject
from tests.unit import samples
from tests.unit.fakes import (
    FakeCliNeeds,
    FakeClock,
    FakeEventSink,
    FakeFileSystem,
    FakePermissionProjector,
    FakeSandboxEnforcer,
    SequentialIds,
)

DATA = "/data"
ROOT = "/home/u/proj"


def new_world() -> tuple[FakeFileSystem, SequentialIds, FakeClock]:
    """An fs with a writable project folder and app data dir."""
    return FakeFileSystem(dirs={ROOT, DATA}), SequentialIds(), FakeClock()


def created_project() -> tuple[FakeFileSystem, SequentialIds, ProjectState]:
    fs, ids, clock = new_world()
    return fs, ids, CreateProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT, "Demo")


def original_project(agents_json: str = samples.AGENTS_JSON,
                     layouts_json: str = samples.LAYOUTS_JSON) -> tuple[FakeFileSystem,
                                                                         SequentialIds,
                                                                         ProjectState]:
    """A project as the original IdeA left it (files from `samples`)."""
    fs, ids, clock = new_world()
    ideai = f"{ROOT}/.ideai"
    fs.make_dirs(f"{ideai}/agents")
    fs.files.update({
        f"{ideai}/agents.json": agents_json,
        f"{ideai}/layouts.json": layouts_json,
        f"{ideai}/CONTEXT.md": "Projet de démonstration.",
        f"{ideai}/agents/main.md": "# Main — orchestrator",
        f"{ideai}/agents/git.md": "# Git — repository",
    })
    return fs, ids, OpenProject(fs, ids, clock, FakeEventSink(), DATA).execute(ROOT)


def sandboxes(fs: FakeFileSystem, abi: int | None = 7) -> AgentSandboxes:
    """The permissions of a launch over fakes: a kernel with Landlock `abi`."""
    return AgentSandboxes(fs, FakeSandboxEnforcer(abi), FakeCliNeeds(), FakePermissionProjector())
