"""What IdeA can attribute to an agent as a denial (app/core/domain/denials.py)."""

from app.core.domain.agent_session import TextDelta, ToolActivity
from app.core.domain.denials import (
    Denial,
    denial_from_hook,
    denial_from_turn_event,
    launch_refused,
    tool_target,
)


def test_claude_s_permission_denied_hook_is_a_denial() -> None:
    payload = {"hook_event_name": "PermissionDenied", "tool_name": "Edit",
               "tool_input": {"file_path": "/p/secrets/a"}, "tool_use_id": "t",
               "reason": "Permission to use Edit has been denied"}
    assert denial_from_hook("permission-denied", payload) == Denial(
        "cli", "Edit", "/p/secrets/a", "Permission to use Edit has been denied")
    assert denial_from_hook("permission-denied", {}) == Denial(
        "cli", "tool", "", "denied by the CLI's permission rules")


def test_a_tool_failure_is_a_denial_only_when_the_os_refused() -> None:
    refusals = ["EACCES: permission denied, open '/x'", "sh: 1: cannot create /x: Permission denied",
                "touch: cannot touch '/x': Operation not permitted", "EROFS: read-only file system",
                "EPERM: operation not permitted, unlink '/x'"]
    for error in refusals:
        found = denial_from_hook("tool-failure", {"tool_name": "Bash", "error": error,
                                                  "tool_input": {"command": "touch /x"}})
        assert found is not None and found.target == "touch /x" and found.message == error
    for error in ["Exit code 1", "File has not been read yet", ""]:
        assert denial_from_hook("tool-failure", {"tool_name": "Bash", "error": error}) is None
    interrupted = {"tool_name": "Bash", "error": "Permission denied", "is_interrupt": True}
    assert denial_from_hook("tool-failure", interrupted) is None
    assert denial_from_hook("stop", {"error": "EACCES"}) is None


def test_a_headless_turn_s_permission_denials_and_a_refused_launch() -> None:
    event = ToolActivity("Write", "permission denied: /p/out.txt")
    assert denial_from_turn_event(event) == Denial("cli", "Write", "/p/out.txt",
                                                   "refused by the CLI's permission rules")
    assert denial_from_turn_event(ToolActivity("Write", "/p/out.txt")) is None
    assert denial_from_turn_event(TextDelta("permission denied")) is None
    refused = launch_refused("no Landlock")
    assert refused.source == "sandbox" and refused.tool == "launch"
    assert "(no Landlock)" in refused.message


def test_the_target_of_a_tool_call() -> None:
    assert tool_target({"command": "ls"}) == "ls"
    assert tool_target({"notebook_path": "/n.ipynb", "x": 1}) == "/n.ipynb"
    assert tool_target({"content": "…"}) == "" and tool_target(None) == ""
    assert len(tool_target({"command": "x" * 900})) == 500
