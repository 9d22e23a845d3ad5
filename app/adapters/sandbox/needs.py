"""What an agent's CLI must reach whatever its permissions say (`SandboxContext.cli_needs`):
the system's programs and libraries, devices, temp dirs, the CLI's own install and home,
IdeA itself (the `idea` wrapper and the MCP relay run IdeA's interpreter), and the endpoint's
folder. Digest §2.7: a CLI that loses its home (`~/.claude`, `~/.codex`) loses credentials and
its session cache, hence resume.

Folders of a CLI's home are marked `create`: the launcher makes them when missing (Landlock can
only grant what exists; Claude Code that cannot create `~/.claude` keeps no session, so no
resume). A missing file (`~/.claude.json` on a machine where Claude never ran) cannot be
granted: the CLI then runs without it. Only the access classes a plan confines matter: `read`
needs count only when a read rule confines reads, `write`/`delete` needs only when writes or
deletions are confined.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence

from app.adapters.endpoint.pipe_name import PIPE_PREFIX
from app.core.domain.sandbox import CliNeed, access_set

READ = access_set(["read"])
READ_WRITE = access_set(["read", "write"])
ALL = access_set(["read", "write", "delete"])

#: Read (and execute) for programs, libraries, configuration and kernel views.
SYSTEM_READ = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
               "/proc", "/sys", "/run", "/var", "/snap", "/nix", "/dev")
#: Devices a terminal program writes to (a file grant: the device itself).
DEVICES_RW = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts")
#: Per CLI (by command name): folders and files of its home it writes to.
VENDOR_HOMES: Mapping[str, tuple[str, ...]] = {
    "claude": (".claude", ".claude.json", ".claude.json.backup", ".config/claude"),
    "codex": (".codex",),
    "gemini": (".gemini",),
    "aider": (".aider", ".aider.conf.yml"),
}
#: Shared caches every Node/Python CLI writes to.
COMMON_HOME = (".cache", ".npm", ".local/state", ".local/share")


def cli_needs(command: str, *, run_dir: str, endpoint: str | None = None,
              environ: Mapping[str, str] | None = None,
              idea_command: Sequence[str] | None = None) -> tuple[CliNeed, ...]:
    """The needs of `command` (a name on `PATH` or a path) launched in `run_dir`.

    `endpoint`: the project endpoint's socket path (its folder is granted); `environ`
    (default `os.environ`) gives `HOME`, `TMPDIR`, `CODEX_HOME`, `PATH`; `idea_command`
    (default `self_command()`'s interpreter) is what the agent's `idea` wrapper runs.
    Paths that do not exist are kept: the enforcer skips them.
    """
    env = os.environ if environ is None else environ
    needs: list[CliNeed] = [CliNeed(p, READ, "system programs and libraries")
                            for p in SYSTEM_READ]
    needs += [CliNeed(p, READ_WRITE, "terminal and null devices") for p in DEVICES_RW]
    needs.append(CliNeed("/dev/shm", ALL, "shared memory"))
    temps = {env.get("TMPDIR", ""), "/tmp", "/var/tmp", tempfile.gettempdir()}
    needs += [CliNeed(t, ALL, "temporary files") for t in sorted(t for t in temps if t)]
    needs.append(CliNeed(run_dir, ALL, "the agent's run dir"))
    if endpoint and not endpoint.lower().startswith(PIPE_PREFIX):  # a pipe is no folder
        needs.append(CliNeed(posixpath.dirname(endpoint), READ, "the project endpoint"))
    needs += _install(command, env)
    needs += _home(command, env)
    needs += _idea(idea_command)
    return tuple(needs)


def _install(command: str, env: Mapping[str, str]) -> list[CliNeed]:
    """The CLI's own files: its resolved binary's folder and, for an npm install, the
    `node_modules` folder holding it (read and execute)."""
    found = command if "/" in command else shutil.which(command, path=env.get("PATH"))
    if not found:
        return []
    found = os.path.abspath(found)
    real = os.path.realpath(found)
    out = [CliNeed(posixpath.dirname(found), READ, f"{command}'s launcher"),
           CliNeed(posixpath.dirname(real), READ, f"{command}'s program")]
    parts = real.split("/")
    if "node_modules" in parts:
        top = "/".join(parts[:parts.index("node_modules") + 1])
        out.append(CliNeed(top, READ, f"{command}'s npm packages"))
    return out


def _home(command: str, env: Mapping[str, str]) -> list[CliNeed]:
    home = env.get("HOME", "")
    if not home:
        return []
    name = posixpath.basename(command).lower().removesuffix(".exe")
    out = [CliNeed(posixpath.join(home, p), ALL, f"{name}'s home", create=_is_folder(p))
           for p in VENDOR_HOMES.get(name, ())]
    if name == "codex" and env.get("CODEX_HOME"):
        out.append(CliNeed(env["CODEX_HOME"], ALL, "codex's home", create=True))
    out += [CliNeed(posixpath.join(home, p), ALL, "shared caches", create=True)
            for p in COMMON_HOME]
    return out


def _is_folder(name: str) -> bool:
    """Home entries without a suffix are folders (`.claude`), the others files
    (`.claude.json`): only folders are created when missing."""
    return "." not in name.lstrip(".").split("/")[-1]


def _idea(idea_command: Sequence[str] | None) -> list[CliNeed]:
    """IdeA's interpreter and source: the `idea` wrapper and the MCP relay run them."""
    out = [CliNeed(p, READ, "IdeA (the idea command, the MCP relay)")
           for p in dict.fromkeys((sys.prefix, sys.base_prefix, sys.exec_prefix))]
    package = posixpath.dirname(posixpath.dirname(posixpath.abspath(__file__)))
    out.append(CliNeed(posixpath.dirname(posixpath.dirname(package)), READ,
                       "IdeA (the idea command, the MCP relay)"))
    if idea_command:
        out.append(CliNeed(posixpath.dirname(os.path.realpath(idea_command[0])), READ,
                           "IdeA's executable"))
    return out


class HostCliNeeds:
    """`CliNeedsSource` on this machine: `cli_needs` with IdeA's own command line
    (`self_command()`) and the environment `environ` (default `os.environ`, read at each call:
    `HOME`, `TMPDIR`, `CODEX_HOME`, `PATH`)."""

    def __init__(self, idea_command: Sequence[str],
                 environ: Mapping[str, str] | None = None) -> None:
        self._idea, self._environ = tuple(idea_command), environ

    def needs(self, command: str, run_dir: str, endpoint: str | None) -> tuple[CliNeed, ...]:
        return cli_needs(command, run_dir=run_dir, endpoint=endpoint, environ=self._environ,
                         idea_command=self._idea)
