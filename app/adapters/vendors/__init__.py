"""Vendor projections (SPEC C4, C8): how each CLI is told about IdeA — its MCP server, settings
and hooks — plus what every agent gets, the `idea` wrapper on its PATH. One module per vendor;
`VendorProjectors` implements the core's `LaunchProjector` port."""

from __future__ import annotations

import os
import posixpath
import sys
from collections.abc import Callable, Mapping

from app.adapters.vendors import claude_code, codex, gemini
from app.adapters.vendors.permissions import apply_permissions, permissions_for
from app.adapters.vendors.wrapper import idea_wrapper
from app.core.domain.launch_plan import Delegation, Projection
from app.core.domain.permission_rules import EffectivePermissions
from app.core.domain.profiles import Profile

#: `(profile, delegation, path of the idea wrapper) -> projection`
Vendor = Callable[[Profile, Delegation, str], Projection]

VENDORS: Mapping[str, Vendor] = {
    "claude-code": claude_code.project,
    "codex": codex.project,
    "gemini": gemini.project,
}
#: A profile that names no projector is recognised by its command (e.g. a custom profile
#: whose command is `/opt/bin/claude`).
BY_COMMAND: Mapping[str, str] = {"claude": "claude-code", "codex": "codex", "gemini": "gemini"}


def vendor_of(profile: Profile) -> str | None:
    """The projector for `profile`: its `projector`, else by its command's name, else none."""
    if profile.projector:
        return profile.projector if profile.projector in VENDORS else None
    name = posixpath.basename(profile.command.replace("\\", "/")).lower()
    return BY_COMMAND.get(name.removesuffix(".exe").removesuffix(".cmd"))


class VendorProjectors:
    """`LaunchProjector`: the `idea` wrapper and environment for every agent, then the
    vendor's own declaration. `environ` (default `os.environ`) gives the PATH the wrapper's
    folder is put in front of. Also the `PermissionProjector`: the agent's permissions in the
    vendor's settings (`app/adapters/vendors/permissions.py`)."""

    def __init__(self, environ: Mapping[str, str] | None = None,
                 platform: str | None = None) -> None:
        self._environ = os.environ if environ is None else environ
        self._platform = platform or sys.platform

    def project(self, profile: Profile, delegation: Delegation) -> Projection:
        bin_dir = posixpath.join(delegation.run_dir, "bin")
        wrapper = idea_wrapper(bin_dir, delegation.idea_command, self._platform)
        separator = ";" if self._platform == "win32" else ":"
        path = self._environ.get("PATH", "")
        env = {
            "IDEA_ENDPOINT": delegation.endpoint,
            "IDEA_AGENT_ID": delegation.agent_id,
            "IDEA_TOKEN": delegation.token,
            "PATH": f"{bin_dir}{separator}{path}" if path else bin_dir,
        }
        vendor = vendor_of(profile)
        own = VENDORS[vendor](profile, delegation, wrapper.path) if vendor else Projection()
        return Projection(files=(wrapper, *own.files), args=own.args, env={**env, **own.env},
                          mcp=own.mcp)

    def project_permissions(self, profile: Profile, effective: EffectivePermissions,
                            sandboxed: bool, run_dir: str,
                            projection: Projection) -> tuple[Projection, tuple[str, ...]]:
        """`projection` with `effective` merged into the vendor's settings (Claude Code's
        `--settings` file, Codex's `-c` overrides, Gemini's `.gemini/settings.json`), the
        vendor's own sandbox off when `sandboxed`; and the projection's notes."""
        vendor = vendor_of(profile)
        perms = permissions_for(vendor, effective, sandboxed)
        return apply_permissions(projection, vendor, perms, run_dir), perms.notes
