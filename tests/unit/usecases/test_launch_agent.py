import json

import pytest

from app.core.domain.layout_nodes import find_leaf
from app.core.domain.profiles import builtin_profiles
from app.core.domain.sandbox_launch import NOTHING_POSED
from app.core.domain.sessions import SessionRecord, SessionSandbox
from app.core.errors import AppError
from app.core.events import AgentStateChanged, LayoutChanged, SessionStarted
from app.core.usecases.agents import UpdateAgent
from app.core.usecases.launch_agent import LaunchAgent, LaunchConfig
from app.core.usecases.project_state import ProjectState, mark_exited
from tests.unit import samples
from tests.unit.fakes import (
    FakeEventSink,
    FakeFileSystem,
    FakeProjector,
    FakeResolver,
    FakeTerminalHost,
    SequentialIds,
    SequentialTokens,
)
from tests.unit.usecases.builders import ROOT, original_project, sandboxes

PROFILES = builtin_profiles()
CONFIG = LaunchConfig(shell="/bin/sh", idea_command=("/opt/idea/idea",))
NEIGHBOUR = "b9251e74-3bd5-43ee-90e5-e6bb87faab38"
RUN = f"{ROOT}/.ideai/run/{samples.MAIN_ID}"
UNPOSED = SessionSandbox(NOTHING_POSED)


def _setup() -> tuple[FakeFileSystem, SequentialIds, ProjectState, FakeTerminalHost,
                      LaunchAgent]:
    fs, ids, state = original_project()
    pty = FakeTerminalHost()
    resolver = FakeResolver({"claude": "/usr/bin/claude", "aider": "/usr/bin/aider"})
    launch = LaunchAgent(fs, pty, resolver, ids, FakeEventSink(), FakeProjector(),
                         SequentialTokens(), CONFIG, sandboxes=sandboxes(fs))
    return fs, ids, state, pty, launch


def test_launch_writes_convention_file_and_spawns_in_run_dir() -> None:
    fs, _, state, pty, launch = _setup()
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 120, 40, PROFILES)
    assert not result.reattached
    [spec] = pty.specs
    assert spec.command == "/usr/bin/claude" and spec.cwd == RUN
    assert spec.args == ["--add-dir", ROOT]  # the project granted (profile data)
    assert spec.env == {"IDEA_AGENT_ID": samples.MAIN_ID, "IDEA_PROJECT_ROOT": ROOT}
    text = fs.files[f"{RUN}/CLAUDE.md"]
    assert "## Project root" in text and "Projet de démonstration." in text
    assert "# Main — orchestrator" in text and "## Skills" not in text
    assert state.live_agent(samples.MAIN_ID) == SessionRecord(result.session_id, "agent", "Main",
                                                              samples.MAIN_ID, sandbox=UNPOSED)
    assert state.layouts is not None and result.layouts == state.layouts
    leaf = find_leaf(state.layouts.active.root, samples.MAIN_LEAF)
    assert leaf is not None and leaf.session == result.session_id
    assert leaf.agent == samples.MAIN_ID and leaf.agent_was_running
    saved = json.loads(fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert saved["docFuture"] == {"a": [1, 2]}


def test_flag_profile_passes_context_path() -> None:
    fs, _, state, pty, launch = _setup()
    UpdateAgent(fs).execute(state, samples.GIT_ID, PROFILES, profile_id="aider")
    launch.execute(state, samples.GIT_ID, NEIGHBOUR, 80, 24, PROFILES)
    run = f"{ROOT}/.ideai/run/{samples.GIT_ID}"
    assert pty.specs[0].args == ["--read", f"{run}/CONVENTIONS.md"]
    assert f"{run}/CONVENTIONS.md" in fs.files


def test_already_running_on_another_cell() -> None:
    _, _, state, _, launch = _setup()
    first = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    with pytest.raises(AppError) as err:
        launch.execute(state, samples.MAIN_ID, NEIGHBOUR, 80, 24, PROFILES)
    assert err.value.code == "AGENT_ALREADY_RUNNING"
    assert err.value.details == {"nodeId": samples.MAIN_LEAF, "sessionId": first.session_id,
                                 "agentId": samples.MAIN_ID}
    assert err.value.message == "Main is already running in another cell"


def test_same_cell_reattaches() -> None:
    _, _, state, pty, launch = _setup()
    first = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    again = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert again.reattached and again.session_id == first.session_id and len(pty.specs) == 1


def test_exited_session_frees_the_agent() -> None:
    _, _, state, pty, launch = _setup()
    first = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    pty.exit(first.session_id)
    ended = mark_exited(state, first.session_id, 0)
    assert ended is not None and not ended.alive and ended.exit_code == 0
    assert mark_exited(state, "other", 0) is None
    second = launch.execute(state, samples.MAIN_ID, NEIGHBOUR, 80, 24, PROFILES)
    assert not second.reattached and len(pty.specs) == 2


def test_dead_session_is_relaunched_even_without_mark_exited() -> None:
    _, _, state, pty, launch = _setup()
    first = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    pty.exit(first.session_id)
    assert not launch.execute(state, samples.MAIN_ID, NEIGHBOUR, 80, 24, PROFILES).reattached


def test_missing_command_is_command_not_found_and_creates_nothing() -> None:
    fs, ids, state = original_project()
    pty = FakeTerminalHost()
    launch = LaunchAgent(fs, pty, FakeResolver({}), ids, FakeEventSink(), FakeProjector(),
                         SequentialTokens(), CONFIG, sandboxes=sandboxes(fs))
    with pytest.raises(AppError) as err:
        launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert err.value.code == "COMMAND_NOT_FOUND"
    assert err.value.message == ("command not found: claude. Install it with: "
                                 "npm install -g @anthropic-ai/claude-code")
    assert err.value.details["install"] == "npm install -g @anthropic-ai/claude-code"
    assert pty.specs == [] and not fs.exists(RUN) and state.sessions == {}


def test_unknown_profile_and_agent() -> None:
    _, _, state, _, launch = _setup()
    with pytest.raises(AppError) as err:
        launch.execute(state, samples.GIT_ID, NEIGHBOUR, 80, 24, PROFILES)
    assert err.value.code == "INVALID"
    with pytest.raises(AppError) as err:
        launch.execute(state, "nobody", NEIGHBOUR, 80, 24, PROFILES)
    assert err.value.code == "NOT_FOUND"


def test_skills_are_injected() -> None:
    fs, _, state, _, launch = _setup()
    assert state.manifest is not None
    main = state.manifest.get(samples.MAIN_ID).model_copy(update={"skills": ("tdd",)})
    state.manifest = state.manifest.with_agent(main)
    fs.files[f"{ROOT}/.ideai/skills/tdd.md"] = "Write the test first."
    launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert "### tdd\n\nWrite the test first." in fs.files[f"{RUN}/CLAUDE.md"]


def test_launch_publishes_started_running_and_the_layout_in_that_order() -> None:
    fs, ids, state = original_project()
    events = FakeEventSink()
    launch = LaunchAgent(fs, FakeTerminalHost(), FakeResolver({"claude": "/usr/bin/claude"}),
                         ids, events, FakeProjector(), SequentialTokens(), CONFIG, sandboxes=sandboxes(fs))
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    record = SessionRecord(result.session_id, "agent", "Main", samples.MAIN_ID, sandbox=UNPOSED)
    assert events.events == [
        SessionStarted(ROOT, record),
        AgentStateChanged(ROOT, samples.MAIN_ID, "running", result.session_id),
        LayoutChanged(ROOT, result.layouts),
    ]
    events.events.clear()
    again = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert again.reattached and events.events == []  # already shown there: nothing changed


def test_with_an_endpoint_the_agent_gets_a_token_the_projection_and_the_orchestration_text() -> None:
    fs, ids, state = original_project()
    state.endpoint = "/run/idea/p.sock"
    projector, pty = FakeProjector(), FakeTerminalHost()
    launch = LaunchAgent(fs, pty, FakeResolver({"claude": "/usr/bin/claude"}), ids,
                         FakeEventSink(), projector, SequentialTokens(), CONFIG, sandboxes=sandboxes(fs))
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert result.token == "token-1"
    [(profile_id, delegation)] = projector.calls
    assert profile_id == "claude-code" and delegation.endpoint == "/run/idea/p.sock"
    assert delegation.token == "token-1" and delegation.idea_command == ("/opt/idea/idea",)
    assert delegation.run_dir == RUN and delegation.agent_id == samples.MAIN_ID
    assert pty.specs[0].env["IDEA_TOKEN"] == "token-1"
    assert f"{RUN}/bin/idea" in fs.executable
    text = fs.files[f"{RUN}/CLAUDE.md"]
    assert "## Orchestration" in text and "Other agents: Git" in text
    assert "idea_ask_agent(target, task)" in text and 'idea ask <agent> "task"' in text


def test_without_an_endpoint_there_is_no_token_and_no_orchestration_text() -> None:
    fs, _, state, pty, launch = _setup()
    result = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    assert result.token is None and "IDEA_TOKEN" not in pty.specs[0].env
    assert "## Orchestration" not in fs.files[f"{RUN}/CLAUDE.md"]


def test_a_background_launch_shows_the_agent_in_no_cell() -> None:
    fs, _, state, pty, launch = _setup()
    before = state.layouts
    result = launch.execute(state, samples.MAIN_ID, None, 120, 32, PROFILES)
    assert not result.reattached and state.layouts == before == result.layouts
    assert state.live_agent(samples.MAIN_ID) is not None
    again = launch.execute(state, samples.MAIN_ID, None, 80, 24, PROFILES)
    assert again.reattached and again.session_id == result.session_id and len(pty.specs) == 1


def test_the_handoffs_of_the_agents_conversations_are_injected_at_launch() -> None:
    fs, _, state, _, launch = _setup()
    from app.core.domain.conversation import conversation_id

    with_git = conversation_id(samples.MAIN_ID, samples.GIT_ID)
    with_user = conversation_id(samples.MAIN_ID, None)
    folder = f"{ROOT}/.ideai/conversations"
    fs.make_dirs(f"{folder}/{with_git}")
    fs.make_dirs(f"{folder}/{with_user}")
    fs.files[f"{folder}/{with_git}/handoff.md"] = (
        "---\nupTo: t2\nobjective: merge the branch\n---\n**Objectif :** merge the branch\n\n"
        "- **Prompt:** merge the branch\n- **Response:** merged\n")
    fs.files[f"{folder}/{with_user}/handoff.md"] = (
        "---\nupTo: t9\nobjective: plan\n---\n**Objectif :** plan\n\n- **Prompt:** plan\n")
    launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    text = fs.files[f"{RUN}/CLAUDE.md"]
    handoff = text.split("## Handoff\n\n", 1)[1]
    assert handoff.startswith("### With the user\n\n**Objectif :** plan")
    assert "### With Git\n\n**Objectif :** merge the branch" in handoff
    assert "upTo:" not in handoff  # the front matter is IdeA's bookkeeping
