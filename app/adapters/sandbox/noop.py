"""The enforcer where IdeA has no OS sandbox (macOS, Windows): reports, never confines."""

from __future__ import annotations

import sys

from app.core.domain.sandbox import SandboxPlan, SandboxStatus, sandbox_status


class NoopEnforcer:
    """`SandboxEnforcer` that confines nothing. A plan that restricts something gets
    `unsupported` and is never refused, even `fail_closed` (digest §2.4: there is nothing to
    fail against; the editor says the rules bind only the CLI's own settings here)."""

    def __init__(self, platform: str | None = None) -> None:
        self._platform = platform or sys.platform

    def status(self, plan: SandboxPlan | None) -> SandboxStatus:
        return sandbox_status(plan, None, f"no OS sandbox on {self._platform}: the rules bind "
                                          "only the CLI's own settings")

    def enforce(self, plan: SandboxPlan) -> SandboxStatus:
        return self.status(plan)

    def refuses(self, plan: SandboxPlan) -> bool:
        return False
