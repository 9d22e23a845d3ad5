"""Wire forms of the bridge (docs/contracts.md §4): camelCase, optional keys omitted."""

from app.bridge.dto import attach_dto, detection_dto, event_dto, session_dto
from app.core.domain.detection import Detection
from app.core.domain.layout import default_layout_doc
from app.core.domain.profiles import builtin_profiles
from app.core.domain.sessions import SessionRecord
from app.core.events import (
    AgentStateChanged,
    KillPending,
    LayoutChanged,
    ProblemRaised,
    SessionExited,
    SessionReleased,
    SessionStarted,
)
from app.core.usecases.profiles import ProfileDetection
from app.services.terminals import Attached
from tests.unit.fakes import SequentialIds

SHELL = SessionRecord("s1", "shell", "bash")


def test_events_on_the_wire() -> None:
    doc = default_layout_doc(SequentialIds().new_id)
    assert event_dto(ProblemRaised("/p/.ideai/agents.json", "bad")).wire() == {
        "type": "problem", "file": "/p/.ideai/agents.json", "message": "bad"}
    assert event_dto(ProblemRaised("f", "m", "/p")).wire()["root"] == "/p"
    assert event_dto(LayoutChanged("/p", doc)).wire() == {
        "type": "layoutChanged", "root": "/p", "layouts": doc.to_json()}
    assert event_dto(SessionStarted("/p", SHELL)).wire() == {
        "type": "sessionStarted", "root": "/p",
        "session": {"sessionId": "s1", "kind": "shell", "alive": True, "exitCode": None,
                    "title": "bash"}}
    assert event_dto(SessionExited("/p", "s1", None)).wire() == {
        "type": "sessionExited", "root": "/p", "sessionId": "s1", "exitCode": None}
    assert event_dto(SessionReleased("/p", "s1")).wire() == {
        "type": "sessionReleased", "root": "/p", "sessionId": "s1"}
    assert event_dto(KillPending("/p", "s1", 30_000)).wire() == {
        "type": "killPending", "root": "/p", "sessionId": "s1", "graceMs": 30_000}
    assert event_dto(AgentStateChanged("/p", "a1", "running", "s2")).wire() == {
        "type": "agentStateChanged", "root": "/p", "agentId": "a1", "state": "running",
        "sessionId": "s2"}
    assert "sessionId" not in event_dto(AgentStateChanged("/p", "a1", "stopped")).wire()


def test_session_and_attach_dtos() -> None:
    agent = SessionRecord("s2", "agent", "Main", "a1", alive=False, exit_code=3)
    assert session_dto(agent).wire() == {"sessionId": "s2", "kind": "agent", "agentId": "a1",
                                         "alive": False, "exitCode": 3, "title": "Main"}
    assert attach_dto(Attached("hi", 2, True, None)).wire() == {
        "scrollback": "hi", "end": 2, "alive": True, "exitCode": None, "sizes": []}


def test_input_forms_are_validated_with_the_field_named() -> None:
    import pytest

    from app.bridge.dto import AgentChange, AgentForm, parse
    from app.core.errors import AppError

    form = parse(AgentForm, {"name": "Dev", "profileId": "shell"}, "agent")
    assert (form.name, form.persona, form.profile_id) == ("Dev", "", "shell")
    assert parse(AgentChange, {"persona": "x"}, "agent").name is None
    with pytest.raises(AppError) as err:
        parse(AgentForm, {"name": 3, "profileId": "shell"}, "agent")
    assert err.value.code == "INVALID" and err.value.message.startswith("agent.name: ")


def test_an_agent_session_carries_its_sandbox_and_denials_are_pushed() -> None:
    from app.bridge.dto import denial_dto
    from app.core.domain.denials import Denial
    from app.core.domain.sandbox import SandboxStatus
    from app.core.domain.sessions import SessionSandbox
    from app.core.events import DenialReported

    sandbox = SessionSandbox(SandboxStatus("degraded", "Landlock ABI 2: …"), ("note",), False)
    agent = SessionRecord("s3", "agent", "Main", "a1", sandbox=sandbox)
    assert session_dto(agent).wire()["sandbox"] == {
        "state": "degraded", "message": "Landlock ABI 2: …", "notes": ["note"], "refused": False,
        "exposed": []}
    exposed = SessionSandbox(SandboxStatus("enforced", "Landlock ABI 7"), (), False,
                             ("the project lies in /tmp, …",))
    assert session_dto(SessionRecord("s4", "agent", "Main", "a1", sandbox=exposed)).wire()[
        "sandbox"]["exposed"] == ["the project lies in /tmp, …"]
    assert "sandbox" not in session_dto(SHELL).wire()
    assert session_dto(agent.ended(0)).wire()["sandbox"]["state"] == "degraded"
    denial = Denial("cli", "Write", "/x", "EACCES", 5)
    assert denial_dto(denial).wire() == {"source": "cli", "tool": "Write", "target": "/x",
                                         "message": "EACCES", "atMs": 5}
    assert event_dto(DenialReported("/p", "a1", denial)).wire() == {
        "type": "permissionDenied", "root": "/p", "agentId": "a1",
        "denial": {"source": "cli", "tool": "Write", "target": "/x", "message": "EACCES",
                   "atMs": 5}}


def test_a_permission_test_on_the_wire() -> None:
    from app.bridge.dto import permission_test_dto
    from app.core.domain.permission_rules import decide, resolve_permissions
    from app.core.domain.permissions import PermissionsDoc
    from app.core.domain.sandbox import SandboxStatus
    from app.core.usecases.permissions import OsVerdict, PermissionTest

    doc = PermissionsDoc.from_json({"version": 1, "projectDefaults": {"rules": [
        {"capability": "write", "effect": "allow", "paths": ["src/**"]}], "fallback": "deny"}})
    effective = resolve_permissions(doc, "a1", "/p")
    assert effective is not None
    found = PermissionTest(decide(effective, "write", "src/x"),
                           OsVerdict(True, True, "the kernel allows it"),
                           SandboxStatus("enforced", "Landlock ABI 7"))
    assert permission_test_dto(found).wire() == {
        "effect": "allow",
        "explanation": "allow — write allow src/** (project rule projectDefaults.rules[0])",
        "origin": "project",
        "rule": {"where": "projectDefaults.rules[0]", "origin": "project", "capability": "write",
                 "effect": "allow", "patterns": ["src/**"]},
        "os": {"enforced": True, "allowed": True, "message": "the kernel allows it"},
        "sandbox": {"state": "enforced", "message": "Landlock ABI 7"}, "exposed": []}
    fallback = PermissionTest(decide(effective, "write", "/q"), OsVerdict(False, None, "n"),
                              SandboxStatus("off", ""))
    assert permission_test_dto(fallback).wire()["rule"] is None


def test_a_detection_on_the_wire_says_how_to_install_the_cli() -> None:
    codex = next(p for p in builtin_profiles() if p.id == "codex-cli")
    found = ProfileDetection(codex, False, None, Detection("missing"), "npm install -g @openai/codex")
    wire = detection_dto(found).wire()
    assert wire["state"] == "missing" and wire["install"] == "npm install -g @openai/codex"
    assert detection_dto(ProfileDetection(codex, True, "0.1", Detection("installed"))).wire()[
        "install"] is None
