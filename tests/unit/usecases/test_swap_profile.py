"""Hot swap of an agent's profile: the pure rules (`SwapProfile.plan` / `commit`) on fakes."""

import json

import pytest

from app.core.domain.conversation import conversation_id
from app.core.domain.profiles import builtin_profiles
from app.core.errors import AppError
from app.core.usecases.launch_agent import LaunchAgent, LaunchConfig
from app.core.usecases.project_state import ProjectState, mark_exited
from app.core.usecases.swap_profile import SwapProfile
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
RESOLVER = FakeResolver({"claude": "/usr/bin/claude", "codex": "/usr/bin/codex",
                         "/bin/sh": "/bin/sh"})
NEIGHBOUR = "b9251e74-3bd5-43ee-90e5-e6bb87faab38"


def _world() -> tuple[FakeFileSystem, ProjectState, LaunchAgent, SwapProfile]:
    fs, ids, state = original_project()
    launch = LaunchAgent(fs, FakeTerminalHost(), RESOLVER, SequentialIds(), FakeEventSink(),
                         FakeProjector(), SequentialTokens(), LaunchConfig(shell="/bin/sh"),
                         sandboxes=sandboxes(fs))
    return fs, state, launch, SwapProfile(fs, RESOLVER, "/bin/sh")


def test_a_live_agent_in_a_cell_stops_and_comes_back_in_that_cell() -> None:
    _, state, launch, swap = _world()
    live = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    plan = swap.plan(state, samples.MAIN_ID, "codex-cli", PROFILES)
    assert plan.stop_session == live.session_id and plan.relaunch
    assert plan.node_id == samples.MAIN_LEAF
    assert plan.old_profile_id == "claude-code" and plan.profile.id == "codex-cli"
    assert not plan.stop_headless and plan.name == "Main"
    # the pair conversation with the user: the same id whatever the profile
    assert plan.conversation_id == conversation_id(None, samples.MAIN_ID)


def test_a_detached_live_agent_relaunches_in_the_background() -> None:
    _, state, launch, swap = _world()
    live = launch.execute(state, samples.MAIN_ID, None, 80, 24, PROFILES)
    plan = swap.plan(state, samples.MAIN_ID, "shell", PROFILES)
    assert plan.stop_session == live.session_id and plan.relaunch and plan.node_id is None


def test_an_agent_with_no_live_session_only_changes_profile() -> None:
    _, state, launch, swap = _world()
    live = launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    mark_exited(state, live.session_id, 0)  # ended, still shown in its cell
    plan = swap.plan(state, samples.MAIN_ID, "shell", PROFILES)
    assert plan.stop_session is None and not plan.relaunch and plan.node_id is None


def test_a_running_headless_turn_is_stopped_and_nothing_relaunches() -> None:
    _, state, _, swap = _world()
    state.headless[samples.MAIN_ID] = "turn-session"
    plan = swap.plan(state, samples.MAIN_ID, "shell", PROFILES)
    assert plan.stop_headless and not plan.relaunch


def test_refusals_name_the_problem_and_change_nothing() -> None:
    fs, state, launch, swap = _world()
    launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, PROFILES)
    before = dict(fs.files)
    with pytest.raises(AppError) as err:
        swap.plan(state, samples.MAIN_ID, "nope", PROFILES)
    assert err.value.code == "INVALID" and err.value.details["field"] == "profileId"
    with pytest.raises(AppError) as err:
        swap.plan(state, samples.MAIN_ID, "claude-code", PROFILES)
    assert err.value.code == "INVALID" and err.value.message == "Main already uses Claude Code"
    with pytest.raises(AppError) as err:  # gemini is not installed: the session keeps running
        swap.plan(state, samples.MAIN_ID, "gemini-cli", PROFILES)
    assert err.value.code == "COMMAND_NOT_FOUND"
    assert err.value.message == ("command not found: gemini (Main keeps its profile and its "
                                 "session). Install it with: npm install -g @google/gemini-cli")
    assert err.value.details["install"] == "npm install -g @google/gemini-cli"
    with pytest.raises(AppError) as err:
        swap.plan(state, "no-such-agent", "shell", PROFILES)
    assert err.value.code == "NOT_FOUND"
    assert fs.files == before


def test_the_shell_profile_needs_the_users_shell() -> None:
    fs, _, state = original_project()
    swap = SwapProfile(fs, FakeResolver({}), "")
    with pytest.raises(AppError) as err:
        swap.plan(state, samples.MAIN_ID, "shell", PROFILES)
    assert err.value.code == "COMMAND_NOT_FOUND" and "$SHELL" in err.value.message


def test_commit_writes_the_new_profile_and_keeps_the_rest_of_the_entry() -> None:
    fs, state, _, swap = _world()
    manifest = f"{ROOT}/.ideai/agents.json"
    old = next(a for a in json.loads(fs.files[manifest])["agents"]
               if a.get("agentId") == samples.MAIN_ID)
    plan = swap.plan(state, samples.MAIN_ID, "shell", PROFILES)
    entry = swap.commit(state, plan)
    assert entry.profile_id == "shell"
    new = next(a for a in json.loads(fs.files[manifest])["agents"]
               if a.get("agentId") == samples.MAIN_ID)
    assert new == {**old, "profileId": "shell"}  # unknown keys and spellings kept
    assert state.manifest is not None and state.manifest.get(samples.MAIN_ID).profile_id == \
        "shell"


def test_the_next_launch_uses_the_new_profile_with_persona_and_handoff() -> None:
    fs, state, launch, swap = _world()
    pair = conversation_id(None, samples.MAIN_ID)
    fs.files[f"{ROOT}/.ideai/conversations/{pair}/handoff.md"] = "# Handoff\nFix the parser."
    swap.commit(state, swap.plan(state, samples.MAIN_ID, "codex-cli", PROFILES))
    pty = FakeTerminalHost()
    LaunchAgent(fs, pty, RESOLVER, SequentialIds(), FakeEventSink(), FakeProjector(),
                SequentialTokens(), LaunchConfig(shell="/bin/sh"), sandboxes=sandboxes(fs)).execute(
        state, samples.MAIN_ID, NEIGHBOUR, 80, 24, PROFILES)
    assert pty.specs[0].command == "/usr/bin/codex"
    text = fs.files[f"{ROOT}/.ideai/run/{samples.MAIN_ID}/AGENTS.md"]
    assert "# Main — orchestrator" in text and "Fix the parser." in text
