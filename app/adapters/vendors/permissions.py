"""Projections of an agent's effective permissions into each CLI's own settings (SPEC C10):
pure functions, one per vendor, plus `apply_permissions` merging one into a launch's
`Projection`.

Each returns `VendorPermissions`: settings to merge into the vendor's settings file, command
arguments, and `notes` saying what the vendor cannot express (shown by the editor). When IdeA's
Landlock sandbox confines the launch (`sandboxed`), the vendor's own sandbox is turned off: a
Landlocked process cannot mount or create the namespaces bubblewrap needs, and IdeA's rules
replace it.

Sources (checked against the CLIs the tests install, see docs/adr/006-landlock.md):
- Claude Code (settings-reference and permissions docs; the rule validator of 2.1.332):
  `permissions.allow|ask|deny` lists of `Tool` or `Tool(specifier)`; `Read(path)` covers every
  file-reading tool and `Edit(path)` every file-editing one (`Write(path)` is never matched);
  paths follow `.gitignore` rules, `//abs` being an absolute path (a `/path` would be relative to
  the settings file); `Bash(cmd *)` with `*` matching anything; evaluation deny → ask → allow,
  first match wins; `defaultMode: "dontAsk"` refuses what no rule allows; `sandbox.enabled`.
- Codex CLI (docs/config.md, config-reference): `-c approval_policy=…` (`untrusted`,
  `on-request`, `never`), `-c sandbox_mode=…` (`read-only`, `workspace-write`,
  `danger-full-access`), `sandbox_workspace_write.writable_roots`; no per-path or per-command
  rules through config.
- Gemini CLI (docs/reference/configuration.md): `tools.allowed` (no confirmation, e.g.
  `run_shell_command(git)`, matched by prefix), `tools.exclude` (tools or command prefixes taken
  away), `general.defaultApprovalMode` (`default`, `auto_edit`), `tools.sandbox`.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.core.domain.launch_plan import PlannedFile, Projection
from app.core.domain.permission_rules import EffectivePermissions, EffectiveRule
from app.core.domain.permissions import CAPABILITIES, FILE_CAPABILITIES, Capability
from app.core.domain.sandbox_compile import literal_prefix

SANDBOX_NOTE = ("{vendor}'s own sandbox is off: IdeA's OS sandbox (Landlock) confines this "
                "agent instead, and {vendor}'s sandbox cannot start inside it")
CLAUDE_TOOLS: Mapping[Capability, str] = {"read": "Read", "write": "Edit",
                                          "executeBash": "Bash"}
GEMINI_READ_TOOLS = ("read_file", "read_many_files", "list_directory", "glob",
                     "search_file_content")
GEMINI_WRITE_TOOLS = ("write_file", "replace")
GEMINI_SHELL = "run_shell_command"


@dataclass(frozen=True)
class VendorPermissions:
    """What a vendor gets from the permissions: `settings` merged (deeply) into its settings
    file, `args` added to its command line, `notes` for the editor; `project_grant` False
    when the profile's project grant must stay off its command line (see `Projection`)."""

    settings: Mapping[str, Any] = field(default_factory=dict)
    args: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    project_grant: bool = True


def claude_rule_path(project_root: str, pattern: str) -> str:
    """A project-relative `.gitignore` glob as Claude Code's absolute `//…` path pattern
    (`src/**` → `//home/u/p/src/**`; `*.env`, which matches at any depth, →
    `//home/u/p/**/*.env`; `build/` → `//home/u/p/**/build/**`)."""
    anchored = "/" in pattern.rstrip("/")
    body = pattern.lstrip("/") if anchored or pattern == "**" else f"**/{pattern}"
    if body.endswith("/"):
        body += "**"
    root = project_root.strip("/")
    return f"//{root}/{body}" if root else f"//{body}"


def claude_permissions(effective: EffectivePermissions, sandboxed: bool) -> VendorPermissions:
    """Claude Code's `permissions` (and `sandbox`) settings for `effective`; see the module
    doc. The fallback becomes tool-wide rules where that keeps specific rules working, else
    `defaultMode: "dontAsk"` (with IdeA's own MCP tools allowed)."""
    lists: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    notes: list[str] = []
    dont_ask = False
    for cap in CAPABILITIES:
        rules = effective.rules_for(cap)
        tool = CLAUDE_TOOLS.get(cap)
        if tool is None:
            if rules:
                notes.append("delete: Claude Code has no delete tool; deletions go through "
                             "Bash (its rules apply) and, when IdeA's sandbox is on, the OS")
            continue
        for rule in rules:
            entries = [tool] if rule.whole else [_claude_entry(effective, tool, rule, p)
                                                 for p in rule.patterns]
            lists[rule.effect] += [e for e in entries if e not in lists[rule.effect]]
        if any(r.whole for r in rules):
            continue
        effects = {r.effect for r in rules}
        fallback = effective.fallback
        if fallback == "allow":
            lists["allow"].append(tool)
        elif fallback == "ask" and "allow" not in effects:
            lists["ask"].append(tool)
        elif fallback == "deny":
            if effects & {"allow", "ask"}:
                dont_ask = True
            else:
                lists["deny"].append(tool)
    settings: dict[str, Any] = {"permissions": {k: v for k, v in lists.items() if v}}
    if dont_ask:
        settings["permissions"]["defaultMode"] = "dontAsk"
        settings["permissions"].setdefault("allow", []).append("mcp__idea")
        notes.append("Claude Code runs in dontAsk mode (the fallback is deny): any tool call "
                     "no rule allows is refused, IdeA's own tools excepted")
    if sandboxed:
        settings["sandbox"] = {"enabled": False}
        notes.append(SANDBOX_NOTE.format(vendor="Claude Code"))
    return VendorPermissions(settings=settings, notes=tuple(notes))


def codex_permissions(effective: EffectivePermissions, sandboxed: bool) -> VendorPermissions:
    """Codex's approval policy and sandbox mode as `-c` overrides; see the module doc."""
    notes: list[str] = []
    grant = True
    bash = effective.rules_for("executeBash")
    bash_default = effective.default("executeBash").effect
    bash_effects = {r.effect for r in bash} | {bash_default}
    approval = "never" if bash_effects == {"allow"} else "untrusted"
    if bash and any(not r.whole for r in bash):
        notes.append("Codex has no per-command rules in its settings: it asks before commands "
                     "it does not trust, and the command patterns stay advisory")
    overrides: dict[str, str] = {"approval_policy": json.dumps(approval)}
    if sandboxed:
        overrides["sandbox_mode"] = json.dumps("danger-full-access")
        notes.append(SANDBOX_NOTE.format(vendor="Codex"))
    else:
        write = effective.rules_for("write")
        default = effective.default("write").effect
        roots = sorted({posixpath.join(effective.project_root, literal_prefix(p)).rstrip("/")
                        for r in write if r.effect != "deny" for p in r.patterns})
        if default == "allow":
            overrides["sandbox_mode"] = json.dumps("danger-full-access")
        elif roots:
            overrides["sandbox_mode"] = json.dumps("workspace-write")
            overrides["sandbox_workspace_write.writable_roots"] = json.dumps(roots)
        else:
            overrides["sandbox_mode"] = json.dumps("read-only")
            grant = False
            notes.append("Codex runs read-only: it reads the whole disk and takes no writable "
                         "roots, so the project is not added with --add-dir (Codex quits on it)")
    if any(not r.whole and r.effect != "allow" for cap in FILE_CAPABILITIES
           for r in effective.rules_for(cap)):
        notes.append("Codex has no per-path rules: path denials bind only through IdeA's OS "
                     "sandbox, where it can enforce them")
    args: list[str] = []
    for key, value in overrides.items():
        args += ["-c", f"{key}={value}"]
    return VendorPermissions(args=tuple(args), notes=tuple(notes), project_grant=grant)


def gemini_permissions(effective: EffectivePermissions, sandboxed: bool) -> VendorPermissions:
    """Gemini CLI's `tools` and `general` settings; see the module doc."""
    tools: dict[str, Any] = {}
    general: dict[str, Any] = {}
    notes: list[str] = []
    allowed: list[str] = []
    excluded: list[str] = []
    for rule in effective.rules_for("executeBash"):
        if rule.effect == "ask":
            continue  # Gemini confirms shell commands unless allowed
        target = allowed if rule.effect == "allow" else excluded
        if rule.whole:
            target.append(GEMINI_SHELL)
            continue
        for pattern in rule.patterns:
            prefix = _command_prefix(pattern)
            if prefix is None:
                notes.append(f"Gemini CLI matches commands by prefix only: {pattern!r} stays "
                             "advisory")
            else:
                target.append(f"{GEMINI_SHELL}({prefix})")
    bash_default = effective.default("executeBash")
    if bash_default.rule is None:  # the fallback decides unmatched commands
        if bash_default.effect == "allow":
            allowed.append(GEMINI_SHELL)
        elif bash_default.effect == "deny" and not any(
                r.effect != "deny" for r in effective.rules_for("executeBash")):
            excluded.append(GEMINI_SHELL)
    gemini_files: tuple[tuple[Capability, tuple[str, ...]], ...] = (
        ("read", GEMINI_READ_TOOLS), ("write", GEMINI_WRITE_TOOLS))
    for cap, names in gemini_files:
        rules = effective.rules_for(cap)
        default = effective.default(cap).effect
        if default == "deny" and not any(r.effect != "deny" for r in rules):
            excluded += names
        elif cap == "write" and default == "allow":
            general["defaultApprovalMode"] = "auto_edit"
        if any(not r.whole for r in rules):
            notes.append(f"{cap}: Gemini CLI has no per-path rules; they bind only through "
                         "IdeA's OS sandbox, where it can enforce them")
    if allowed:
        tools["allowed"] = list(dict.fromkeys(allowed))
    if excluded:
        tools["exclude"] = list(dict.fromkeys(excluded))
    if sandboxed:
        tools["sandbox"] = False
        notes.append(SANDBOX_NOTE.format(vendor="Gemini CLI"))
    settings: dict[str, Any] = {}
    if tools:
        settings["tools"] = tools
    if general:
        settings["general"] = general
    return VendorPermissions(settings=settings, notes=tuple(notes))


VENDOR_PERMISSIONS = {"claude-code": claude_permissions, "codex": codex_permissions,
                      "gemini": gemini_permissions}
#: The settings file each vendor reads, relative to the run dir (see the vendor modules).
SETTINGS_FILES = {"claude-code": ".claude/idea-settings.json",
                  "gemini": ".gemini/settings.json"}


def permissions_for(vendor: str | None, effective: EffectivePermissions | None,
                    sandboxed: bool) -> VendorPermissions:
    """The projection for `vendor` (`vendor_of(profile)`); nothing when nothing is posed or
    the CLI has no projector (then the permissions bind only through the OS sandbox)."""
    if effective is None:
        return VendorPermissions()
    project = VENDOR_PERMISSIONS.get(vendor or "")
    if project is None:
        return VendorPermissions(notes=("this CLI has no settings IdeA can write: the "
                                        "permissions bind only through the OS sandbox",))
    return project(effective, sandboxed)


def apply_permissions(projection: Projection, vendor: str | None, perms: VendorPermissions,
                      run_dir: str) -> Projection:
    """`projection` with `perms` merged in: its settings deep-merged into the vendor's
    settings file among `projection.files` (created when missing; Claude Code then also gets
    `--settings <file>`), its args appended; the project grant kept only if `perms` keeps it."""
    files = list(projection.files)
    args = [*projection.args, *perms.args]
    name = SETTINGS_FILES.get(vendor or "")
    if perms.settings and name:
        path = posixpath.join(run_dir, name)
        index = next((i for i, f in enumerate(files) if f.path == path), None)
        current: dict[str, Any] = json.loads(files[index].text) if index is not None else {}
        text = json.dumps(_merge(current, perms.settings), indent=2) + "\n"
        if index is None:
            files.append(PlannedFile(path, text))
            if vendor == "claude-code":
                args += ["--settings", path]
        else:
            files[index] = PlannedFile(path, text, files[index].executable)
    return Projection(files=tuple(files), args=tuple(args), env=dict(projection.env),
                      mcp=projection.mcp,
                      project_grant=projection.project_grant and perms.project_grant)


def _claude_entry(effective: EffectivePermissions, tool: str, rule: EffectiveRule,
                  pattern: str) -> str:
    if rule.capability == "executeBash":
        return f"{tool}({pattern})"
    return f"{tool}({claude_rule_path(effective.project_root, pattern)})"


def _command_prefix(pattern: str) -> str | None:
    """`git push*` / `git push *` / `git push` → `git push`; `None` when a wildcard is not
    trailing."""
    body = " ".join(pattern.split())
    body = body[:-1].rstrip() if body.endswith("*") else body
    return None if not body or set("*?[") & set(body) else body


def _merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        elif isinstance(value, list) and isinstance(out.get(key), list):
            out[key] = [*out[key], *[v for v in value if v not in out[key]]]
        else:
            out[key] = value
    return out
