"""Resume after a restart (issue 10 item 7): which agents the panel lists and how each comes
back, with the original IdeA's project (two agents were running in two cells)."""

import json

import pytest

from app.core.domain.conversation import conversation_id
from app.core.domain.layout_nodes import find_leaf
from app.core.domain.profiles import Profile, SessionStrategy, builtin_profiles
from app.core.domain.sessions import SessionRecord
from app.core.errors import AppError
from app.core.usecases.launch_agent import LaunchAgent, LaunchConfig
from app.core.usecases.resume import (
    ProviderIds,
    check_choice,
    find_resumable,
    forget_was_running,
    plan_resume,
    resumable_in,
)
from tests.unit import samples
from tests.unit.fakes import (
    FakeEventSink,
    FakeProjector,
    FakeResolver,
    FakeTerminalHost,
    SequentialTokens,
)
from tests.unit.usecases.builders import ROOT, original_project, sandboxes

GIT_LEAF = "69dc2e23-86f5-4770-84c4-b1b4b2c25299"
GIT_PROFILE = "664cc20c-47b8-53ad-9351-dce3c09c0de4"
PAIR_MAIN = conversation_id(None, samples.MAIN_ID)
CODEXISH = Profile(id=GIT_PROFILE, name="Codexish", command="codex",
                   session=SessionStrategy(resume_args=("resume", "{resumeId}")))


def ids(store: dict[tuple[str, str], str]) -> ProviderIds:
    return lambda conversation, profile: store.get((conversation, profile))


def test_lists_each_agent_that_was_running_in_its_own_cell_with_its_own_id() -> None:
    _, _, state = original_project()
    store = {(PAIR_MAIN, "claude-code"): "claude-1",
             (conversation_id(None, samples.GIT_ID), GIT_PROFILE): "thread-9"}
    found = find_resumable(state, [*builtin_profiles(), CODEXISH], ids(store))
    assert [(r.node_id, r.agent_name, r.resume_id, r.how) for r in found] == [
        (samples.MAIN_LEAF, "Main", "claude-1", "resume"),
        (GIT_LEAF, "Git", "thread-9", "resume")]
    assert found[0].to_json()["note"] == "resumes its Claude Code session claude-1"
    assert found[0].to_json()["conversationId"] == PAIR_MAIN


def test_the_cell_conversation_of_the_original_ideai_is_read_first() -> None:
    _, _, state = original_project()
    store = {("conv-1", "claude-code"): "from-original", (PAIR_MAIN, "claude-code"): "ours"}
    [main, _] = find_resumable(state, builtin_profiles(), ids(store))
    assert (main.conversation_id, main.resume_id) == ("conv-1", "from-original")
    [main, _] = find_resumable(state, builtin_profiles(), ids({(PAIR_MAIN, "claude-code"): "x"}))
    assert (main.conversation_id, main.resume_id) == (PAIR_MAIN, "x")


def test_without_an_id_or_a_resume_flag_it_starts_fresh_and_says_so() -> None:
    no_resume = Profile(id="p", name="Plain", command="plain")
    row = plan_resume("a", "A", "n", no_resume, "p", ids({(conversation_id(None, "a"), "p"): "i"}))
    assert row.how == "fresh" and "cannot resume" in row.note and "handoff" in row.note
    claude = builtin_profiles()[0]
    row = plan_resume("a", "A", "n", claude, claude.id, ids({}))
    assert row.how == "fresh" and row.resume_id is None and "no Claude Code session id" in row.note
    acp = Profile(id="acp", name="ACP", command="x", structured="acp")
    row = plan_resume("a", "A", "n", acp, "acp", ids({(conversation_id(None, "a"), "acp"): "s"}))
    assert row.how == "fresh" and "headless turns resume session s" in row.note
    row = plan_resume("a", "A", "n", None, "gone", ids({}))
    assert row.how == "fresh" and "not configured" in row.note


def test_a_live_agent_is_not_listed_and_ignore_forgets_the_cell() -> None:
    fs, _, state = original_project()
    state.sessions["s1"] = SessionRecord("s1", "agent", "Main", samples.MAIN_ID)
    assert [r.agent_name for r in find_resumable(state, builtin_profiles(), ids({}))] == ["Git"]
    forget_was_running(fs, state, GIT_LEAF)
    assert find_resumable(state, builtin_profiles(), ids({})) == []
    assert state.layouts is not None
    leaf = find_leaf(state.layouts.active.root, GIT_LEAF)
    assert leaf is not None and leaf.agent == samples.GIT_ID and not leaf.agent_was_running
    saved = json.loads(fs.files[f"{ROOT}/.ideai/layouts.json"])
    assert "agentWasRunning" not in json.dumps(saved["layouts"][0]).split(GIT_LEAF)[1][:200]
    with pytest.raises(AppError) as err:
        resumable_in(state, GIT_LEAF, builtin_profiles(), ids({}))
    assert err.value.code == "NOT_FOUND"


def test_a_resume_launch_passes_the_profile_resume_args_first() -> None:
    fs, ids_, state = original_project()
    pty = FakeTerminalHost()
    launch = LaunchAgent(fs, pty, FakeResolver({"claude": "/usr/bin/claude", "codex": "/c"}),
                         ids_, FakeEventSink(), FakeProjector(), SequentialTokens(),
                         LaunchConfig(shell="/bin/sh"), sandboxes=sandboxes(fs))
    profiles = [*builtin_profiles(), CODEXISH]
    launch.execute(state, samples.MAIN_ID, samples.MAIN_LEAF, 80, 24, profiles, "claude-1")
    launch.execute(state, samples.GIT_ID, GIT_LEAF, 80, 24, profiles, "thread-9")
    assert pty.specs[0].args == ["--resume", "claude-1", "--add-dir", ROOT]
    assert pty.specs[1].args[:2] == ["resume", "thread-9"]
    assert "--continue" not in pty.specs[0].args + pty.specs[1].args


def test_choice_is_checked() -> None:
    assert check_choice("new") == "new"
    with pytest.raises(AppError) as err:
        check_choice("later")
    assert err.value.details == {"field": "choice"}
