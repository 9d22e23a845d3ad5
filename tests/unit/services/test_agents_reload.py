"""`agents.json` edited outside IdeA (the file watcher calls `AgentService.reload`): the agents
are read again, an unreadable file is reported and never written, and fixing it brings them
back (SPEC §1 file watching; the trial found edits on disk ignored until a restart)."""

from __future__ import annotations

import json

import pytest

from app.core.errors import AppError
from app.core.events import AgentsChanged, ProblemRaised, ProblemResolved
from app.core.usecases.project_state import Problem
from tests.unit.services.world import ROOT, world

FILE = f"{ROOT}/.ideai/agents.json"


def entry(agent_id: str, name: str) -> dict[str, object]:
    return {"agentId": agent_id, "name": name, "mdPath": f"agents/{name.lower()}.md",
            "profileId": "shell"}


def test_an_edit_on_disk_is_read_again_and_a_broken_file_is_reported_not_written() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    w.s.agents.create(ROOT, "Alpha", "# Alpha", "shell")
    doc = json.loads(w.fs.files[FILE])
    doc["agents"].append(entry("b0b0b0b0-0000-4000-8000-000000000002", "Beta"))
    w.fs.files[FILE] = json.dumps(doc)

    w.s.agents.reload(ROOT)
    assert [a.entry.name for a in w.s.projects.view(ROOT).agents] == ["Alpha", "Beta"]
    assert w.timeline.of(AgentsChanged) == [AgentsChanged(ROOT)]
    w.s.agents.reload(ROOT)  # nothing new (IdeA's own writes are reported too)
    assert len(w.timeline.of(AgentsChanged)) == 1

    broken = w.fs.files[FILE].replace('"agents"', '"agents" 1', 1)
    w.fs.files[FILE] = broken
    w.s.agents.reload(ROOT)
    [problem] = w.timeline.of(ProblemRaised)
    assert problem.file == FILE and problem.root == ROOT
    assert w.s.projects.view(ROOT).agents == ()
    with pytest.raises(AppError) as err:
        w.s.agents.create(ROOT, "Gamma", "# Gamma", "shell")
    assert err.value.code == "CORRUPT_FILE" and w.fs.files[FILE] == broken  # never written

    w.fs.files[FILE] = json.dumps(doc)
    w.s.agents.reload(ROOT)
    assert w.timeline.of(ProblemResolved) == [ProblemResolved(FILE, ROOT)]
    assert [a.entry.name for a in w.s.projects.view(ROOT).agents] == ["Alpha", "Beta"]
    assert len(w.timeline.of(AgentsChanged)) == 3


def test_a_project_not_open_is_left_alone() -> None:
    w = world()
    w.s.agents.reload("/home/u/other")
    assert w.timeline.of(AgentsChanged) == []


def test_a_broken_permissions_file_is_reported_at_open_and_resolved_once_fixed() -> None:
    # Trial finding: it was said only at a launch or in the permissions editor.
    w = world()
    w.s.projects.create(ROOT, "Demo")
    permissions = f"{ROOT}/.ideai/permissions.json"
    w.fs.files[permissions] = '{"version": 1, "projectDefaults": '
    w.s.projects.close(ROOT)
    w.s.open_projects.remove(ROOT)
    view = w.s.projects.open(ROOT)
    [problem] = [p for p in view.problems if p.file == permissions]
    assert "permissions.json" in problem.file
    w.s.permissions.recheck(ROOT)  # nothing new
    assert not w.timeline.of(ProblemResolved)
    w.fs.files[permissions] = '{"version": 1, "projectDefaults": {"rules": [], "fallback": "allow"}}'
    w.s.permissions.recheck(ROOT)
    assert w.timeline.of(ProblemResolved) == [ProblemResolved(permissions, ROOT)]
    assert not [p for p in w.s.projects.view(ROOT).problems if p.file == permissions]
    w.fs.files[permissions] = "nope"
    w.s.permissions.recheck(ROOT)
    assert w.timeline.of(ProblemRaised)[-1].file == permissions


def test_a_persona_whose_front_matter_breaks_is_reported_and_resolved_once_fixed() -> None:
    # Seen in a trial: a persona card said nothing of a broken front matter until it was read.
    w = world()
    w.s.projects.create(ROOT, "Demo")
    alpha = w.s.agents.create(ROOT, "Alpha", "# Alpha", "shell")
    persona = f"{ROOT}/.ideai/{alpha.entry.md_path}"
    w.s.agents.personas_changed(ROOT)  # IdeA's own write: nothing to say
    assert w.timeline.of(ProblemRaised) == []

    w.fs.files[persona] = "---\nipc:\n  sends_to: Beta\n---\n# Alpha\n"
    w.s.agents.personas_changed(ROOT)
    [problem] = w.timeline.of(ProblemRaised)
    assert (problem.file, problem.root) == (persona, ROOT)
    assert problem.message == "ipc.sends_to: expected a list of names"
    w.s.agents.personas_changed(ROOT)  # the same problem is not said twice
    assert len(w.timeline.of(ProblemRaised)) == 1
    assert [p.file for p in w.s.projects.view(ROOT).problems] == [persona]

    w.fs.files[persona] = "---\nipc:\n  sends_to: [Beta]\n---\n# Alpha\n"
    w.s.agents.personas_changed(ROOT)
    assert w.timeline.of(ProblemResolved) == [ProblemResolved(persona, ROOT)]
    assert w.s.projects.view(ROOT).problems == ()


def test_personas_are_checked_at_open_and_when_agents_json_changes() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    alpha = w.s.agents.create(ROOT, "Alpha", "# Alpha", "shell")
    persona = f"{ROOT}/.ideai/{alpha.entry.md_path}"
    w.fs.files[persona] = "---\nipc: [oops\n---\n# Alpha\n"
    w.s.projects.close(ROOT)
    w.s.open_projects.remove(ROOT)
    view = w.s.projects.open(ROOT)
    [problem] = view.problems
    assert problem.file == persona and problem.message.startswith("front matter: not YAML at line 2")

    beta = f"{ROOT}/.ideai/agents/beta.md"
    w.fs.files[beta] = "---\nipc:\n  recieves_from: [Alpha]\n---\n"
    doc = json.loads(w.fs.files[FILE])
    doc["agents"] = [entry("b0b0b0b0-0000-4000-8000-000000000002", "Beta")]  # Alpha removed
    w.fs.files[FILE] = json.dumps(doc)
    w.s.agents.reload(ROOT)
    assert w.timeline.of(ProblemResolved) == [ProblemResolved(persona, ROOT)]  # no persona now
    [raised] = [p for p in w.timeline.of(ProblemRaised) if p.file == beta]
    assert "did you mean receives_from?" in raised.message
    assert [p.file for p in w.s.projects.view(ROOT).problems] == [beta]


def test_reading_the_personas_again_leaves_other_problems_alone() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    w.s.agents.create(ROOT, "Alpha", "# Alpha", "shell")
    state = w.s.open_projects.find(ROOT).state  # type: ignore[union-attr]
    other = Problem(f"{ROOT}/.ideai", "delegation is off: the endpoint could not start")
    state.problems.append(other)
    w.s.agents.personas_changed(ROOT)
    w.s.agents.reload(ROOT)
    assert w.timeline.of(ProblemResolved) == []
    assert list(w.s.projects.view(ROOT).problems) == [other]
