"""Where IdeA finds its own files and the user's data (source tree or frozen bundle)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

import platformdirs


def app_root() -> Path:
    """The folder holding ``web/dist``: the PyInstaller bundle (``sys._MEIPASS``) or the repo."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def web_index() -> Path:
    """The built UI entry point, ``web/dist/index.html``; raises ``FileNotFoundError`` if not built."""
    index = app_root() / "web" / "dist" / "index.html"
    if not index.is_file():
        raise FileNotFoundError(
            f"{index} is missing: build the UI with ./idea (it runs `npm run build` in web/)"
        )
    return index


def data_dir(explicit: str | None = None) -> Path:
    """App data dir: ``--data-dir``, else ``$IDEA_DATA_DIR``, else ``platformdirs.user_data_dir``."""
    chosen = explicit or os.environ.get("IDEA_DATA_DIR") or platformdirs.user_data_dir("IdeA")
    path = Path(chosen).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_shell(platform: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The shell a plain terminal runs (SPEC C2).

    POSIX: the login shell ``$SHELL`` when executable, else ``/bin/bash`` or ``/bin/sh``.
    Windows: ``%COMSPEC%`` (cmd.exe) when it exists, else PowerShell (``pwsh`` or
    ``powershell`` on ``PATH``), else ``cmd.exe``; ``$SHELL`` is ignored there (Git Bash and
    MSYS set it to a POSIX path). `platform` defaults to ``sys.platform``, `environ` to
    ``os.environ``.
    """
    env = os.environ if environ is None else environ
    if (platform or sys.platform) == "win32":
        comspec = env.get("COMSPEC") or env.get("ComSpec") or ""
        if comspec and os.path.isfile(comspec):
            return comspec
        for candidate in ("pwsh", "powershell"):
            found = shutil.which(candidate, path=env.get("PATH") or env.get("Path"))
            if found:
                return found
        return "cmd.exe"
    shell = env.get("SHELL", "")
    if shell and os.access(shell, os.X_OK):
        return shell
    for candidate in ("/bin/bash", "/bin/sh"):
        if os.access(candidate, os.X_OK):
            return candidate
    return "sh"
