"""Permissions through the services (contracts §9): get / save / test, the status a launch
records, recent denials per agent (refused launches, the CLI's hooks)."""

from __future__ import annotations

import json

import pytest

from app.core.domain.agent_session import Final, ToolActivity
from app.core.domain.delegation import AgentCaller, User
from app.core.domain.denials import Denial
from app.core.domain.profiles import Profile, builtin_profiles
from app.core.errors import AppError
from app.core.events import DenialReported, SessionStarted
from tests.unit.fakes import FakeAgentSessions, ScriptedTurn
from tests.unit.services.world import ROOT, World, world

FILE = f"{ROOT}/.ideai/permissions.json"
DOC = {"version": 1, "future": {"kept": True}, "projectDefaults": {"rules": [
    {"capability": "write", "effect": "allow", "paths": ["**"], "note": "mine"},
    {"capability": "executeBash", "effect": "deny", "commands": ["git push *"]}],
    "fallback": "deny"}}


def opened(abi: int | None = 7) -> World:
    w = world(abi=abi)
    w.s.projects.create(ROOT, "Demo")
    return w


def shell_agent(w: World, name: str = "Main") -> str:
    return w.s.agents.create(ROOT, name, f"# {name}", "shell").entry.agent_id


def test_get_says_nothing_is_posed_and_what_this_machine_can_enforce() -> None:
    view = opened().s.permissions.get(ROOT)
    assert view.document is None
    assert (view.machine.state, view.machine.message) == ("enforced", "Landlock ABI 7")
    without = opened(abi=None).s.permissions.get(ROOT)
    assert without.machine.state == "unsupported"


def test_save_writes_atomically_and_keeps_unknown_keys_on_the_round_trip() -> None:
    w = opened()
    saved = w.s.permissions.save(ROOT, DOC)
    assert saved["future"] == {"kept": True}
    assert saved["projectDefaults"]["rules"][0]["note"] == "mine"
    assert json.loads(w.fs.files[FILE]) == saved
    assert w.s.permissions.get(ROOT).document == saved
    assert FILE in w.fs.writes


def test_save_refuses_an_invalid_glob_or_capability_naming_the_field() -> None:
    w = opened()
    w.s.permissions.save(ROOT, DOC)
    before = w.fs.files[FILE]
    bad_glob = json.loads(json.dumps(DOC))
    bad_glob["projectDefaults"]["rules"][0]["paths"] = ["src/**", "!keep"]
    with pytest.raises(AppError) as err:
        w.s.permissions.save(ROOT, bad_glob)
    assert err.value.code == "INVALID"
    # named as the editor shows it; the path in the file stays in the details
    assert err.value.details == {"field": "projectDefaults.rules[0].paths[1]",
                                 "label": "Rule 1, path globs"}
    assert err.value.message.startswith("Rule 1, path globs: ")
    assert "negation is not supported" in err.value.message
    bad_cap = {"version": 1, "projectDefaults": {"rules": [], "fallback": "ask"},
               "agents": {"a1": {"rules": [{"capability": "network", "effect": "deny"}],
                                 "fallback": "ask"}}}
    with pytest.raises(AppError) as err:
        w.s.permissions.save(ROOT, bad_cap)
    assert err.value.details == {"field": "agents.a1.rules[0].capability",
                                 "label": "Rule 1, capability"}
    assert w.fs.files[FILE] == before


def test_a_corrupt_file_is_reported_and_never_overwritten() -> None:
    w = opened()
    w.fs.files[FILE] = '{"version": 1, "projectDefaults": '
    with pytest.raises(AppError) as err:
        w.s.permissions.get(ROOT)
    assert err.value.code == "CORRUPT_FILE" and "line 1" in err.value.message
    with pytest.raises(AppError) as err:
        w.s.permissions.save(ROOT, DOC)
    assert err.value.code == "CORRUPT_FILE" and "fix or remove it by hand" in err.value.message
    assert w.fs.files[FILE] == '{"version": 1, "projectDefaults": '


def test_the_test_box_gives_the_rule_the_origin_and_what_the_kernel_does() -> None:
    w = opened()
    w.s.permissions.save(ROOT, DOC)
    inside = w.s.permissions.test(ROOT, None, "write", "src/app.py")
    assert inside.decision.effect == "allow" and inside.decision.rule is not None
    assert inside.decision.rule.where == "projectDefaults.rules[0]"
    assert inside.decision.explain() == ("allow — write allow ** (project rule "
                                         "projectDefaults.rules[0])")
    assert inside.os.enforced and inside.os.allowed
    beside = w.s.permissions.test(ROOT, None, "write", "/home/u/side/x.txt")
    assert beside.decision.effect == "deny" and beside.decision.rule is None
    assert beside.decision.explain() == "deny — no rule matches: the project's fallback"
    assert beside.os.enforced and beside.os.allowed is False
    assert "EACCES" in beside.os.message
    push = w.s.permissions.test(ROOT, None, "executeBash", "git push origin main")
    assert push.decision.effect == "deny" and not push.os.enforced
    assert push.os.message.startswith("advisory")
    read = w.s.permissions.test(ROOT, None, "read", "/etc/passwd")
    assert read.decision.effect == "deny" and not read.os.enforced  # no read rule: open


def test_an_agent_s_test_counts_its_cli_s_own_grants_and_its_overrides() -> None:
    w = opened()
    agent = shell_agent(w)
    doc = json.loads(json.dumps(DOC))
    doc["agents"] = {agent: {"rules": [{"capability": "write", "effect": "allow",
                                        "paths": ["docs/**"]}], "fallback": "deny"}}
    w.s.permissions.save(ROOT, doc)
    temp = w.s.permissions.test(ROOT, agent, "write", "/tmp/scratch")
    assert temp.decision.effect == "deny"  # the rules say no …
    assert temp.os.allowed is True and "temporary files" in temp.os.message  # … the OS allows
    src = w.s.permissions.test(ROOT, agent, "write", "src/app.py")
    assert src.decision.effect == "deny" and src.decision.origin == "agent"
    assert src.os.allowed is False
    docs = w.s.permissions.test(ROOT, agent, "write", "docs/a.md")
    assert docs.decision.rule is not None and docs.decision.rule.where == f"agents.{agent}.rules[0]"


def test_the_test_box_judges_a_draft_and_refuses_bad_input() -> None:
    w = opened()
    draft = {"version": 1, "projectDefaults": {"rules": [], "fallback": "allow"}}
    assert w.s.permissions.test(ROOT, None, "delete", "x", draft).decision.effect == "allow"
    assert w.fs.files.get(FILE) is None  # a draft is never saved by testing it
    cases = [(None, "write", "x", "document"), (draft, "network", "x", "capability"),
             (draft, "write", " ", "target"),
             ({"version": 1, "projectDefaults": {"fallback": "sometimes"}}, "write", "x",
              "projectDefaults.fallback")]
    for doc, capability, target, field in cases:
        with pytest.raises(AppError) as err:
            w.s.permissions.test(ROOT, None, capability, target, doc)
        assert err.value.code == "INVALID" and err.value.details["field"] == field
    with pytest.raises(AppError) as err:
        w.s.permissions.test(ROOT, "nobody", "write", "x", draft)
    assert err.value.code == "NOT_FOUND"


def test_a_launch_records_its_sandbox_status_for_the_session() -> None:
    w = opened()
    w.s.permissions.save(ROOT, DOC)
    agent = shell_agent(w)
    session = w.s.agents.launch(ROOT, agent, w.leaf(), 80, 24).session_id
    [started] = [e for e in w.timeline.of(SessionStarted) if e.session.session_id == session]
    sandbox = started.session.sandbox
    assert sandbox is not None and sandbox.status.state == "enforced" and not sandbox.refused
    assert w.host.specs[-1].command == "/usr/bin/idea"
    assert w.host.specs[-1].args[:2] == ["sandbox-exec", "--plan"]
    assert w.s.permissions.denials(ROOT, agent) == []


def test_a_refused_launch_is_listed_as_a_denial_of_its_agent() -> None:
    w = opened(abi=None)
    w.s.permissions.save(ROOT, DOC)
    agent = shell_agent(w)
    w.s.agents.launch(ROOT, agent, w.leaf(), 80, 24)
    [denial] = w.s.permissions.denials(ROOT, agent)
    assert denial.source == "sandbox" and denial.tool == "launch" and denial.at_ms > 0
    assert "the CLI was not run" in denial.message
    assert [e.agent_id for e in w.timeline.of(DenialReported)] == [agent]


def test_the_cli_s_hooks_report_denials_and_other_tool_failures_are_ignored() -> None:
    w = opened()
    agent = shell_agent(w)
    session = w.s.agents.launch(ROOT, agent, None, 80, 24).session_id
    caller = AgentCaller(ROOT, agent, "Main", session)
    hooks = [
        ("permission-denied", {"tool_name": "Bash", "tool_input": {"command": "git push"},
                               "tool_use_id": "t1", "reason": "denied by rule Bash(git push *)"}),
        ("tool-failure", {"tool_name": "Write", "tool_input": {"file_path": "/home/u/side/x"},
                          "tool_use_id": "t2",
                          "error": "EACCES: permission denied, open '/home/u/side/x'"}),
        ("tool-failure", {"tool_name": "Bash", "tool_input": {"command": "false"},
                          "tool_use_id": "t3", "error": "Exit code 1"}),
    ]
    for event, payload in hooks:
        assert w.s.orchestrator.dispatch(ROOT, caller, {"type": "agent.hook", "event": event,
                                                         "payload": payload}) == {}
    newest, oldest = w.s.permissions.denials(ROOT, agent)
    assert (oldest.tool, oldest.target, oldest.message) == (
        "Bash", "git push", "denied by rule Bash(git push *)")
    assert (newest.tool, newest.target) == ("Write", "/home/u/side/x")
    assert newest.source == oldest.source == "cli"


def test_denials_reported_by_a_headless_launcher_are_kept_newest_first_and_bounded() -> None:
    w = opened()
    agent = shell_agent(w)
    for i in range(60):
        w.s.permissions.report(ROOT, agent, Denial("cli", "Edit", f"f{i}", "refused"))
    kept = w.s.permissions.denials(ROOT, agent)
    assert len(kept) == 50 and kept[0].target == "f59" and kept[-1].target == "f10"


def test_a_confined_agent_s_terminal_printing_eacces_reports_a_denial() -> None:
    w = opened()
    w.s.permissions.save(ROOT, DOC)
    agent = shell_agent(w)
    session = w.s.agents.launch(ROOT, agent, w.leaf(), 80, 24).session_id
    w.host.emit(session, "$ echo x > /home/u/side/x\r\nsh: 1: cannot create /home/u/si")
    w.host.emit(session, "de/x: Permission denied\r\n$ ")
    [denial] = w.s.permissions.denials(ROOT, agent)
    assert (denial.source, denial.tool, denial.target) == ("cli", "sh", "/home/u/side/x")
    assert denial.message.startswith("EACCES")
    w.host.exit(session, 0)
    w.host.emit(session, "bash: /x: Permission denied\n")  # no longer read
    assert len(w.s.permissions.denials(ROOT, agent)) == 1


def test_an_unconfined_terminal_s_permission_denied_is_not_a_denial() -> None:
    w = opened()
    agent = shell_agent(w)
    session = w.s.agents.launch(ROOT, agent, w.leaf(), 80, 24).session_id
    w.host.emit(session, "bash: /etc/shadow: Permission denied\r\n")
    assert w.s.permissions.denials(ROOT, agent) == []


GEM = Profile(id="gem", name="Gem CLI", command="gem-cli", structured_adapter="acp")


def headless_world(abi: int | None) -> tuple[World, FakeAgentSessions, str]:
    sessions = FakeAgentSessions([ScriptedTurn(events=[
        ToolActivity("Write", "permission denied: /home/u/side/x"),
        Final(text="done", engine_session_id="e1")])])
    w = world(resolver={"gem-cli": "/usr/bin/gem-cli"}, abi=abi, sessions={"acp": sessions})
    w.s.profiles.save([*(p for p in builtin_profiles() if p.id == "shell"), GEM])
    w.s.projects.create(ROOT, "Demo")
    w.s.permissions.save(ROOT, DOC)
    agent = w.s.agents.create(ROOT, "Gem", "# Gem", "gem").entry.agent_id
    return w, sessions, agent


def test_a_headless_turn_runs_through_sandbox_exec_and_its_cli_s_denials_are_kept() -> None:
    w, sessions, agent = headless_world(abi=7)
    out = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.ask", "target": "Gem",
                                                   "task": "write"})
    assert out["reply"] == "done"
    [session] = sessions.started
    assert session.spec.command[:3] == ("/usr/bin/idea", "sandbox-exec", "--plan")
    assert "/usr/bin/gem-cli" in session.spec.command
    [denial] = w.s.permissions.denials(ROOT, agent)
    assert (denial.source, denial.tool, denial.target) == ("cli", "Write", "/home/u/side/x")


def test_a_headless_turn_the_sandbox_must_refuse_is_not_run_and_says_why() -> None:
    w, sessions, agent = headless_world(abi=None)
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.ask", "target": "Gem",
                                                 "task": "write"})
    assert "Gem was not run: its permissions demand an OS sandbox" in err.value.message
    assert sessions.started == []
    [denial] = w.s.permissions.denials(ROOT, agent)
    assert denial.source == "sandbox" and denial.tool == "launch"


TMP_ROOT = "/tmp/proj"
SRC_ONLY = {"version": 1, "projectDefaults": {"rules": [
    {"capability": "write", "effect": "allow", "paths": ["src/**"]}], "fallback": "deny"}}


def test_a_project_under_tmp_is_said_exposed_and_the_test_box_follows_the_kernel() -> None:
    w = world()
    w.fs.dirs.add(TMP_ROOT)
    w.s.projects.create(TMP_ROOT, "Scratch")
    view = w.s.permissions.get(TMP_ROOT)  # nothing posed yet: the warning stands already
    assert len(view.exposed) == 1 and view.exposed[0].startswith("the project lies in /tmp")
    w.s.permissions.save(TMP_ROOT, SRC_ONLY)
    found = w.s.permissions.test(TMP_ROOT, None, "write", "x.txt")  # the project defaults
    assert found.decision.effect == "deny"  # the rules say no …
    assert found.os.enforced and found.os.allowed is True  # … and the kernel lets it through
    assert "granted: temporary files (/tmp)" in found.os.message
    assert found.exposed and found.exposed[0].startswith("the project lies in /tmp")
    agent = shell_agent_in(w, TMP_ROOT)
    assert w.s.permissions.test(TMP_ROOT, agent, "write", "x.txt").os.allowed is True
    session = w.s.agents.launch(TMP_ROOT, agent, w.leaf(TMP_ROOT), 80, 24).session_id
    [started] = [e for e in w.timeline.of(SessionStarted) if e.session.session_id == session]
    sandbox = started.session.sandbox
    assert sandbox is not None and sandbox.status.state == "enforced"
    assert sandbox.exposed == found.exposed  # the cell says "partly sandboxed", and why
    assert opened().s.permissions.get(ROOT).exposed == ()


def shell_agent_in(w: World, root: str) -> str:
    return w.s.agents.create(root, "Main", "# Main", "shell").entry.agent_id
