"""Vendor projections: what each CLI is told about IdeA (files, args, env), from data."""

import json
import shlex

from app.adapters.vendors import VendorProjectors, vendor_of
from app.core.domain.launch_plan import Delegation
from app.core.domain.profiles import ContextInjection, Profile, builtin_profiles

PROFILES = {p.id: p for p in builtin_profiles()}
RUN = "/p/.ideai/run/a1"
DELEGATION = Delegation(endpoint="/run/idea/x.sock", agent_id="a1", token="secret",
                        idea_command=("/usr/bin/python3", "-m", "app"), run_dir=RUN)


def project(profile_id: str, **kw):  # type: ignore[no-untyped-def]
    return VendorProjectors(environ={"PATH": "/usr/bin:/bin"}, **kw).project(
        PROFILES[profile_id], DELEGATION)


def files(projection) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {f.path: f.text for f in projection.files}


def test_every_agent_gets_the_idea_wrapper_and_its_identity() -> None:
    shell = project("shell")
    wrapper = next(f for f in shell.files if f.path == f"{RUN}/bin/idea")
    assert wrapper.executable and wrapper.text.startswith("#!/bin/sh\n")
    assert "exec /usr/bin/python3 -m app \"$@\"" in wrapper.text
    assert shell.env == {"IDEA_ENDPOINT": "/run/idea/x.sock", "IDEA_AGENT_ID": "a1",
                         "IDEA_TOKEN": "secret", "PATH": f"{RUN}/bin:/usr/bin:/bin"}
    assert not shell.mcp and shell.args == ()
    windows = VendorProjectors(environ={"PATH": r"C:\bin"}, platform="win32").project(
        PROFILES["shell"], DELEGATION)
    assert [f.path for f in windows.files] == [f"{RUN}/bin/idea.cmd"]
    assert windows.env["PATH"] == f"{RUN}/bin;C:\\bin"


def test_claude_code_gets_mcp_json_settings_and_hooks_without_the_token_on_disk() -> None:
    claude = project("claude-code")
    written = files(claude)
    server = json.loads(written[f"{RUN}/.mcp.json"])["mcpServers"]["idea"]
    assert server["command"] == "/usr/bin/python3"
    assert server["args"] == ["-m", "app", "mcp-server", "--endpoint", "/run/idea/x.sock",
                              "--requester", "a1", "--token=${IDEA_TOKEN}"]
    assert "secret" not in "".join(written.values())
    settings_file = f"{RUN}/.claude/idea-settings.json"
    assert claude.args == ("--settings", settings_file) and claude.mcp
    settings = json.loads(written[settings_file])
    assert settings["enabledMcpjsonServers"] == ["idea"]
    assert settings["crossSessionInbound"] == "refuse"
    stop = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert shlex.split(stop) == [f"{RUN}/bin/idea", "hook", "stop"]


def test_codex_gets_overrides_a_long_tool_timeout_and_notify() -> None:
    codex = project("codex-cli")
    pairs = dict(codex.args[i + 1].split("=", 1) for i in range(0, len(codex.args), 2))
    assert all(codex.args[i] == "-c" for i in range(0, len(codex.args), 2))
    assert json.loads(pairs["mcp_servers.idea.command"]) == "/usr/bin/python3"
    assert json.loads(pairs["mcp_servers.idea.args"])[-4:] == ["--endpoint", "/run/idea/x.sock",
                                                               "--requester", "a1"]
    assert "IDEA_TOKEN" in json.loads(pairs["mcp_servers.idea.env_vars"])
    assert int(pairs["mcp_servers.idea.tool_timeout_sec"]) >= 600
    assert json.loads(pairs["notify"]) == [f"{RUN}/bin/idea", "hook", "stop"]
    # read-only, Codex's default in a folder it does not trust, quits on the --add-dir grant
    assert json.loads(pairs["sandbox_mode"]) == "workspace-write"
    assert codex.project_grant


def test_gemini_gets_its_settings_and_trusts_the_run_dir() -> None:
    gemini = project("gemini-cli")
    server = json.loads(files(gemini)[f"{RUN}/.gemini/settings.json"])["mcpServers"]["idea"]
    assert server["env"] == {"IDEA_TOKEN": "$IDEA_TOKEN"} and server["trust"] is True
    assert gemini.env["GEMINI_CLI_TRUST_WORKSPACE"] == "true"


def test_the_vendor_is_the_profiles_projector_else_its_command() -> None:
    custom = Profile(id="mine", name="Mine", command="/opt/claude/bin/claude",
                     context_injection=ContextInjection(strategy="conventionFile",
                                                        target="CLAUDE.md"))
    assert vendor_of(custom) == "claude-code"
    assert vendor_of(custom.model_copy(update={"projector": "codex"})) == "codex"
    assert vendor_of(custom.model_copy(update={"projector": "unknown"})) is None
    assert vendor_of(PROFILES["aider"]) is None and vendor_of(PROFILES["shell"]) is None

