"""How IdeA calls itself back: the one function that decides it (issue 3, SPEC C15).

Anything IdeA writes or spawns that must run IdeA again (an MCP server declaration in an agent's
run dir, a hook command, the sandbox launcher, the dev-mode supervisor's child) uses
:func:`self_command`, so the same file works from an AppImage, a PyInstaller bundle or the
source tree.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping


def self_command(
    env: Mapping[str, str] | None = None,
    *,
    frozen: bool | None = None,
    executable: str | None = None,
) -> list[str]:
    """The argv prefix that starts IdeA; append a subcommand and its arguments.

    - inside an AppImage (``$APPIMAGE`` names an existing file): ``[$APPIMAGE]`` — the path
      stays valid after this process exits, unlike the AppImage's temporary mount point;
    - in a PyInstaller bundle (``sys.frozen``): ``[sys.executable]``, the frozen executable;
    - from source: ``[sys.executable, "-m", "app"]``.

    ``env``, ``frozen`` and ``executable`` default to ``os.environ``, ``sys.frozen`` and
    ``sys.executable`` (tests pass their own).
    """
    env = os.environ if env is None else env
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    exe = os.path.abspath(executable or sys.executable)
    appimage = env.get("APPIMAGE", "")
    if appimage and os.path.isfile(appimage):
        return [os.path.abspath(appimage)]
    if frozen:
        return [exe]
    return [exe, "-m", "app"]
