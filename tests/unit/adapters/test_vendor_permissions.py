"""Projections of effective permissions into each vendor's own settings
(app/adapters/vendors/permissions.py), and what an agent's CLI needs in a sandbox
(app/adapters/sandbox/needs.py)."""

import json
from typing import Any

import pytest

from app.adapters.sandbox.needs import cli_needs
from app.adapters.vendors import VendorProjectors
from app.adapters.vendors.permissions import (
    apply_permissions,
    claude_permissions,
    claude_rule_path,
    codex_permissions,
    gemini_permissions,
    permissions_for,
)
from app.core.domain.launch_plan import Delegation, Projection
from app.core.domain.permission_rules import EffectivePermissions, resolve_permissions
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.profiles import builtin_profiles

ROOT = "/home/u/proj"
RUN = f"{ROOT}/.ideai/run/a1"


def rule(capability: str, effect: str, *patterns: str) -> dict[str, Any]:
    key = "commands" if capability == "executeBash" else "paths"
    return {"capability": capability, "effect": effect, key: list(patterns)}


def eff(rules: list[dict[str, Any]], fallback: str = "allow") -> EffectivePermissions:
    doc = PermissionsDoc.from_json({"version": 1, "projectDefaults": {"rules": rules,
                                                                      "fallback": fallback}})
    out = resolve_permissions(doc, "a1", ROOT)
    assert out is not None
    return out


TYPICAL = [rule("read", "allow", "**"), rule("write", "allow", "src/**"),
           rule("write", "deny", "src/secrets/**", "*.env"), rule("delete", "ask", "**"),
           rule("executeBash", "allow", "git status", "npm run *"),
           rule("executeBash", "ask", "git push*"), rule("executeBash", "deny", "rm -rf *")]


# -- Claude Code ----------------------------------------------------------------------------
@pytest.mark.parametrize(("pattern", "path"), [
    ("src/**", "//home/u/proj/src/**"), ("*.env", "//home/u/proj/**/*.env"),
    ("build/", "//home/u/proj/**/build/**"), ("/top.txt", "//home/u/proj/top.txt"),
    ("**", "//home/u/proj/**"), ("a/b.txt", "//home/u/proj/a/b.txt"),
])
def test_claude_paths_are_absolute_gitignore_patterns(pattern: str, path: str) -> None:
    assert claude_rule_path(ROOT, pattern) == path
    assert claude_rule_path("/", "src/**") == "//src/**"


def test_claude_rules_with_a_deny_fallback_use_dont_ask() -> None:
    out = claude_permissions(eff(TYPICAL, fallback="deny"), sandboxed=False)
    assert out.settings == {"permissions": {
        "allow": ["Read(//home/u/proj/**)", "Edit(//home/u/proj/src/**)", "Bash(git status)",
                  "Bash(npm run *)", "mcp__idea"],
        "ask": ["Bash(git push*)"],
        "deny": ["Edit(//home/u/proj/src/secrets/**)", "Edit(//home/u/proj/**/*.env)",
                 "Bash(rm -rf *)"],
        "defaultMode": "dontAsk"}}
    assert any("no delete tool" in n for n in out.notes)
    assert any("dontAsk" in n for n in out.notes)


def test_claude_fallbacks_become_tool_wide_rules_when_they_can() -> None:
    allow = claude_permissions(eff([rule("write", "deny", "secrets/**")]), sandboxed=False)
    assert allow.settings["permissions"] == {
        "allow": ["Read", "Edit", "Bash"], "deny": ["Edit(//home/u/proj/secrets/**)"]}
    deny = claude_permissions(eff([rule("executeBash", "deny", "rm *")], fallback="deny"),
                              sandboxed=False)
    assert deny.settings["permissions"] == {"deny": ["Read", "Edit", "Bash(rm *)", "Bash"]}
    ask = claude_permissions(eff([rule("read", "allow")], fallback="ask"), sandboxed=False)
    assert ask.settings["permissions"] == {"allow": ["Read"], "ask": ["Edit", "Bash"]}


def test_claude_sandbox_is_turned_off_under_ideas() -> None:
    out = claude_permissions(eff([rule("write", "allow", "**")], "deny"), sandboxed=True)
    assert out.settings["sandbox"] == {"enabled": False}
    assert any("Claude Code's own sandbox is off" in n for n in out.notes)
    assert "sandbox" not in claude_permissions(eff([]), sandboxed=False).settings


def test_claude_permissions_merge_into_the_launch_settings_file() -> None:
    profile = next(p for p in builtin_profiles() if p.id == "claude-code")
    delegation = Delegation(endpoint="/run/x.sock", agent_id="a1", token="t",
                            idea_command=("/py", "-m", "app"), run_dir=RUN)
    base = VendorProjectors(environ={"PATH": "/bin"}).project(profile, delegation)
    perms = claude_permissions(eff([rule("write", "allow", "**")], "deny"), sandboxed=True)
    merged = apply_permissions(base, "claude-code", perms, RUN)
    settings = json.loads(next(f.text for f in merged.files
                               if f.path == f"{RUN}/.claude/idea-settings.json"))
    assert settings["crossSessionInbound"] == "refuse" and "hooks" in settings
    assert settings["sandbox"] == {"enabled": False}
    assert "Edit(//home/u/proj/**)" in settings["permissions"]["allow"]
    assert merged.args == base.args and merged.env == base.env and merged.mcp


def test_apply_creates_the_settings_file_when_the_launch_has_none() -> None:
    perms = claude_permissions(eff([rule("read", "deny")]), sandboxed=False)
    out = apply_permissions(Projection(), "claude-code", perms, RUN)
    assert [f.path for f in out.files] == [f"{RUN}/.claude/idea-settings.json"]
    assert out.args == ("--settings", f"{RUN}/.claude/idea-settings.json")


# -- Codex ----------------------------------------------------------------------------------
def test_codex_under_ideas_sandbox_runs_its_own_off() -> None:
    out = codex_permissions(eff(TYPICAL, "deny"), sandboxed=True)
    assert out.args == ("-c", 'approval_policy="untrusted"',
                        "-c", 'sandbox_mode="danger-full-access"')
    assert any("Codex's own sandbox is off" in n for n in out.notes)
    assert any("no per-command rules" in n for n in out.notes)
    assert any("no per-path rules" in n for n in out.notes)


def test_codex_without_ideas_sandbox_maps_writes_to_its_modes() -> None:
    confined = codex_permissions(eff([rule("write", "allow", "src/**", "docs/*.md")], "deny"),
                                 sandboxed=False)
    assert confined.args == (
        "-c", 'approval_policy="untrusted"', "-c", 'sandbox_mode="workspace-write"',
        "-c", 'sandbox_workspace_write.writable_roots=["/home/u/proj/docs", '
              '"/home/u/proj/src"]')
    assert codex_permissions(eff([rule("executeBash", "allow")], "allow"),
                             sandboxed=False).args == (
        "-c", 'approval_policy="never"', "-c", 'sandbox_mode="danger-full-access"')
    read_only = codex_permissions(eff([], "deny"), sandboxed=False)
    assert read_only.args[-1] == 'sandbox_mode="read-only"'
    assert not read_only.project_grant  # Codex read-only quits on an --add-dir
    assert any("not added with --add-dir" in n for n in read_only.notes)
    assert confined.project_grant


def test_a_projection_without_the_grant_keeps_it_off_the_launch() -> None:
    codex = next(p for p in builtin_profiles() if p.id == "codex-cli")
    delegation = Delegation(endpoint="/run/x.sock", agent_id="a1", token="t",
                            idea_command=("/py", "-m", "app"), run_dir=RUN)
    granted = VendorProjectors(environ={"PATH": "/bin"}).project(codex, delegation)
    perms = codex_permissions(eff([], "deny"), sandboxed=False)
    kept = apply_permissions(granted, "codex", perms, RUN)
    assert not kept.project_grant and kept.args[-2:] == ("-c", 'sandbox_mode="read-only"')
    assert apply_permissions(granted, "codex", codex_permissions(eff([]), sandboxed=False),
                             RUN).project_grant


# -- Gemini ---------------------------------------------------------------------------------
def test_gemini_tools_lists_and_sandbox() -> None:
    out = gemini_permissions(eff(TYPICAL, "deny"), sandboxed=True)
    assert out.settings == {"tools": {
        "allowed": ["run_shell_command(git status)", "run_shell_command(npm run)"],
        "exclude": ["run_shell_command(rm -rf)"], "sandbox": False}}
    assert any("Gemini CLI's own sandbox is off" in n for n in out.notes)
    assert any("write: Gemini CLI has no per-path rules" in n for n in out.notes)


def test_gemini_fallbacks() -> None:
    allow = gemini_permissions(eff([rule("executeBash", "ask", "git push*")]), sandboxed=False)
    assert allow.settings == {"tools": {"allowed": ["run_shell_command"]},
                              "general": {"defaultApprovalMode": "auto_edit"}}
    deny = gemini_permissions(eff([rule("executeBash", "allow", "*test*")], "deny"),
                              sandboxed=False)
    assert deny.settings["tools"]["exclude"] == [
        "read_file", "read_many_files", "list_directory", "glob", "search_file_content",
        "write_file", "replace"]
    assert any("by prefix only" in n for n in deny.notes)


def test_nothing_posed_projects_nothing() -> None:
    assert permissions_for("claude-code", None, sandboxed=False).settings == {}
    assert permissions_for(None, eff([]), sandboxed=False).notes


# -- CLI needs ------------------------------------------------------------------------------
def test_cli_needs_cover_system_devices_temps_home_and_endpoint(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bin_dir = tmp_path / "node_modules" / "pkg" / "bin"
    bin_dir.mkdir(parents=True)
    exe = bin_dir / "claude"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    needs = {n.path: n for n in cli_needs(
        "claude", run_dir=RUN, endpoint="/run/user/1/idea/ab.sock",
        environ={"HOME": "/home/u", "PATH": str(bin_dir), "TMPDIR": "/scratch"})}
    assert needs["/usr"].access == {"read"} and needs["/dev/null"].access == {"read", "write"}
    for temp in ("/tmp", "/scratch", RUN, "/home/u/.claude", "/home/u/.cache"):
        assert needs[temp].access == {"read", "write", "delete"}
    assert needs["/home/u/.claude"].create and not needs["/home/u/.claude.json"].create
    assert needs["/run/user/1/idea"].access == {"read"}
    assert str(tmp_path / "node_modules") in needs
    assert all(path.startswith("/") for path in needs)


def test_a_named_pipe_endpoint_is_no_folder_to_grant() -> None:
    needs = cli_needs("sh", run_dir=RUN, endpoint=r"\\.\pipe\idea-u-0123456789abcdef",
                      environ={"HOME": "/home/u", "PATH": "/bin"})
    assert all(n.path and n.path.startswith("/") for n in needs)
    assert not any("project endpoint" in n.why for n in needs)


def test_the_permission_projector_port_merges_into_the_launch_and_returns_the_notes() -> None:
    projectors = VendorProjectors(environ={"PATH": "/bin"})
    claude = next(p for p in builtin_profiles() if p.id == "claude-code")
    shell = next(p for p in builtin_profiles() if p.id == "shell")
    effective = eff([rule("write", "allow", "**")], "deny")
    merged, notes = projectors.project_permissions(claude, effective, True, RUN, Projection())
    settings = json.loads(merged.files[0].text)
    assert settings["sandbox"] == {"enabled": False}
    assert merged.args == ("--settings", f"{RUN}/.claude/idea-settings.json")
    assert any("IdeA's OS sandbox (Landlock) confines this agent" in n for n in notes)
    plain, shell_notes = projectors.project_permissions(shell, effective, True, RUN, Projection())
    assert plain == Projection()
    assert shell_notes == ("this CLI has no settings IdeA can write: the permissions bind only "
                           "through the OS sandbox",)


def test_claude_reports_its_denials_through_idea_hooks() -> None:
    profile = next(p for p in builtin_profiles() if p.id == "claude-code")
    delegation = Delegation(endpoint="/run/x.sock", agent_id="a1", token="t",
                            idea_command=("/py", "-m", "app"), run_dir=RUN)
    out = VendorProjectors(environ={"PATH": "/bin"}).project(profile, delegation)
    settings = json.loads(next(f.text for f in out.files if f.path.endswith("settings.json")))
    hooks = settings["hooks"]
    assert hooks["PermissionDenied"][0]["hooks"][0]["command"].endswith(
        "bin/idea hook permission-denied")
    assert hooks["PostToolUseFailure"][0]["hooks"][0]["command"].endswith(
        "bin/idea hook tool-failure")


def test_host_cli_needs_is_cli_needs_with_ideas_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.adapters.sandbox.needs import HostCliNeeds

    env = {"HOME": str(tmp_path), "PATH": "/bin"}
    needs = HostCliNeeds(("/opt/idea/idea",), env).needs("/bin/sh", str(tmp_path / "run"), None)
    assert needs == cli_needs("/bin/sh", run_dir=str(tmp_path / "run"), environ=env,
                              idea_command=("/opt/idea/idea",))
