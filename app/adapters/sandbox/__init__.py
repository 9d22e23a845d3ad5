"""OS sandbox adapters (SPEC C10): Landlock on Linux, a no-op elsewhere, and the
`idea sandbox-exec` launcher that applies a plan in the child before it runs the CLI."""

from __future__ import annotations

import sys

from app.adapters.sandbox.landlock import LandlockEnforcer
from app.adapters.sandbox.noop import NoopEnforcer


def default_enforcer(platform: str | None = None) -> LandlockEnforcer | NoopEnforcer:
    """`LandlockEnforcer` on Linux, `NoopEnforcer` elsewhere."""
    platform = platform or sys.platform
    return LandlockEnforcer() if platform.startswith("linux") else NoopEnforcer(platform)
