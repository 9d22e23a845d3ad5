"""ACP session updates as turn events, permission answers, and the agents' error texts."""

import acp
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    EnvVarAuthMethod,
    ImageContentBlock,
    TerminalAuthMethod,
)

from app.adapters.sessions.acp_events import (
    error_text,
    options_of,
    permission_answer,
    update_events,
)
from app.adapters.sessions.acp_session import mcp_entry
from app.core.domain.agent_session import (
    Heartbeat,
    McpServerCommand,
    PermissionOption,
    TextDelta,
    ToolActivity,
)


def test_updates() -> None:
    assert update_events(acp.update_agent_message_text("hi")) == [TextDelta("hi")]
    assert update_events(acp.start_tool_call("c1", "Read a.py", kind="read")) == [
        ToolActivity("Read a.py", "read")]
    assert update_events(acp.start_tool_call("c2", "")) == [ToolActivity("c2", None)]
    assert update_events(acp.update_tool_call("c1", status="completed")) == [Heartbeat()]
    assert update_events(acp.update_agent_thought_text("hmm")) == [Heartbeat()]
    assert update_events(acp.update_plan([acp.plan_entry("step")])) == [Heartbeat()]
    image = ImageContentBlock(type="image", data="", mime_type="image/png")
    assert update_events(acp.update_agent_message(image)) == [Heartbeat()]


def test_permission_answers() -> None:
    options = options_of([acp.schema.PermissionOption(option_id="y", name="Yes",
                                                      kind="allow_once"),
                          acp.schema.PermissionOption(option_id="n", name="No",
                                                      kind="reject_once")])
    assert options == (PermissionOption("y", "Yes", "allow_once"),
                       PermissionOption("n", "No", "reject_once"))
    assert permission_answer(options, "y").outcome == AllowedOutcome(option_id="y",
                                                                     outcome="selected")
    assert permission_answer(options, None).outcome == AllowedOutcome(option_id="n",
                                                                      outcome="selected")
    assert permission_answer(options[:1], None).outcome == DeniedOutcome(outcome="cancelled")


def test_error_texts() -> None:
    assert error_text(acp.RequestError(-32603, "Internal error",
                                       {"details": "Query closed before response received"})) \
        == "Internal error: Query closed before response received"
    methods = [TerminalAuthMethod(id="chatgpt", name="Login with ChatGPT", type="terminal"),
               EnvVarAuthMethod(id="key", name="Use CODEX_API_KEY", type="env_var", vars=[])]
    assert error_text(acp.RequestError(-32000, "Authentication required"), methods) == (
        "Authentication required (log in with: Login with ChatGPT, Use CODEX_API_KEY)")
    assert error_text(acp.RequestError(-32602, "Invalid params"), methods) == "Invalid params"


def test_ideas_mcp_server_as_a_stdio_entry() -> None:
    entry = mcp_entry(McpServerCommand("idea", "/opt/idea", ("mcp-server",),
                                       {"IDEA_TOKEN": "t"}))
    assert entry.model_dump(by_alias=True, exclude_none=True) == {
        "name": "idea", "command": "/opt/idea", "args": ["mcp-server"],
        "env": [{"name": "IDEA_TOKEN", "value": "t"}]}
