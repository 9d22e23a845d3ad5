"""The project is the agent's to work on (issue 10 item 2), proven with the real CLIs from npm
(tools/, from tools.json), offline and logged out, each with a HOME of its own.

A real launch (bootstrap, the real PTY host, the vendor projections, the project endpoint)
of the built-in profiles starts the real `claude`, `codex` and `gemini` in the agent's run dir;
the kernel's view of the started process (`/proc/<pid>/cmdline`, `cwd`, `environ`) shows they
were granted the project root as their profile declares (`--add-dir`, `--include-directories`)
and the convention file they read says where the project is. The Shell profile starts in the
project root with its context file's path in `IDEA_CONTEXT_FILE`. A profile whose command is an
absolute path launches with the tools folder off the PATH.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("ptyprocess", reason="the agent runs in a POSIX PTY")

from app.adapters.pty.posix import PtyProcessHost  # noqa: E402
from app.bootstrap import Adapters, Config, Container, build  # noqa: E402
from app.core.domain.profiles import Profile, builtin_profiles  # noqa: E402

BIN = Path(__file__).resolve().parents[2] / "tools" / "node_modules" / ".bin"
#: Variables that would log a CLI in on the machine running the tests.
HOST_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
                  "OPENAI_API_KEY", "CODEX_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
                  "IS_SANDBOX", "CLAUDECODE", "CODEX_HOME")
BUILTINS = {p.id: p for p in builtin_profiles()}

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]


@dataclass
class Started:
    """What the kernel says of the launched CLI, and where IdeA put it."""

    argv: list[str]
    cwd: str
    environ: dict[str, str]
    root: Path
    run_dir: Path
    output: Callable[[], str]
    pid: int


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Container]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in HOST_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "data").mkdir()
    container = build(Config(data_dir=str(tmp_path / "data"), shell="/bin/sh"),
                      Adapters.local(PtyProcessHost(kill_grace_ms=500)))
    yield container
    container.shutdown(timeout_ms=1000)


def launch(app: Container, tmp_path: Path, profile: Profile) -> Started:
    s = app.services
    s.profiles.save([profile])
    root = s.projects.create(str(tmp_path / "proj"), "Demo").root
    agent = s.agents.create(root, "Coder", "# Coder\nYou write code.", profile.id).entry.agent_id
    session = s.agents.launch(root, agent, None, 100, 30).session_id
    chunks: list[str] = []
    s.output.attach(session, "test", lambda chunk: chunks.append(chunk.text))
    pid = child_of_this_process(agent)
    return Started(argv=read_cmdline(pid), cwd=os.readlink(f"/proc/{pid}/cwd"),
                   environ=read_environ(pid), root=Path(root),
                   run_dir=Path(root) / ".ideai" / "run" / agent,
                   output=lambda: "".join(chunks), pid=pid)


def child_of_this_process(agent_id: str) -> int:
    """The pid of the process IdeA spawned for `agent_id`: our child whose environment holds
    its id (the PTY host forks it from this process)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
                if ppid == os.getpid() and \
                        read_environ(int(entry)).get("IDEA_AGENT_ID") == agent_id:
                    return int(entry)
            except (OSError, ValueError, IndexError):
                continue
        time.sleep(0.05)
    raise AssertionError(f"no process of this test runs agent {agent_id}")


def read_cmdline(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return [a.decode() for a in f.read().split(b"\0") if a]


def read_environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        pairs = [a.decode(errors="replace").split("=", 1) for a in f.read().split(b"\0") if a]
    return {p[0]: p[1] for p in pairs if len(p) == 2}


def wait_output(started: Started, needle: str = "") -> str:
    """What the real CLI drew in its terminal once it holds `needle` (anything, by default):
    it runs, it is not a stub. Its first bytes may be only escape sequences."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        text = started.output()
        if text.strip() and needle in text:
            return text
        time.sleep(0.1)
    raise AssertionError(f"the CLI never printed {needle!r}: {started.output()[-400:]!r}")


def installed(name: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not (BIN / name).exists(),
                              reason=f"{name}: run scripts/bootstrap.sh test (tools/)")


def tail_after(argv: list[str], script: Path) -> list[str]:
    """The arguments after the CLI's script (`node /…/claude ARGS` or `/…/claude ARGS`)."""
    names = {str(script), str(script.resolve())}
    index = next(i for i, a in enumerate(argv) if a in names or Path(a).resolve() == script.resolve())
    return argv[index + 1:]


@installed("claude")
def test_claude_code_runs_in_its_run_dir_with_the_project_added(
        app: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    started = launch(app, tmp_path, BUILTINS["claude-code"])
    args = tail_after(started.argv, BIN / "claude")
    assert args[:2] == ["--add-dir", str(started.root)]
    assert "--settings" in args  # the projection follows the grant
    assert started.cwd == str(started.run_dir)
    claude_md = (started.run_dir / "CLAUDE.md").read_text()
    assert f"The project you work on is at `{started.root}`" in claude_md
    assert not (started.root / "CLAUDE.md").exists()
    assert "Claude" in wait_output(started, "Claude")  # the real TUI (its welcome screen, logged out)


@installed("codex")
def test_codex_runs_in_its_run_dir_with_the_project_writable(
        app: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    started = launch(app, tmp_path, BUILTINS["codex-cli"])
    args = tail_after(started.argv, BIN / "codex")
    assert args[:2] == ["--add-dir", str(started.root)]
    assert started.cwd == str(started.run_dir)
    assert started.environ["IDEA_PROJECT_ROOT"] == str(started.root)
    assert f"`{started.root}`" in (started.run_dir / "AGENTS.md").read_text()
    # its prompt, and it stays: in read-only, its default in a folder it does not trust (a
    # fresh HOME), Codex refuses the --add-dir grant and quits
    assert ("-c", 'sandbox_mode="workspace-write"') in zip(args, args[1:], strict=False)
    wait_output(started, "Ask Codex")
    time.sleep(3)
    assert "Ignoring --add-dir" not in started.output()
    assert Path(f"/proc/{started.pid}").exists() and \
        "Z" not in Path(f"/proc/{started.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@installed("gemini")
def test_gemini_runs_in_its_run_dir_with_the_project_included(
        app: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    started = launch(app, tmp_path, BUILTINS["gemini-cli"])
    args = tail_after(started.argv, BIN / "gemini")
    assert args[:2] == ["--include-directories", str(started.root)]
    assert started.cwd == str(started.run_dir)
    assert (started.run_dir / "GEMINI.md").exists()


@installed("claude")
def test_a_profile_pointing_at_an_absolute_path_launches_off_the_path(
        app: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                           if Path(p) != BIN)
    monkeypatch.setenv("PATH", path)
    assert app.adapters.resolver.which("claude") is None or \
        Path(app.adapters.resolver.which("claude") or "").parent != BIN
    pointed = BUILTINS["claude-code"].model_copy(update={"command": str(BIN / "claude")})
    detected = app.services.profiles.test(pointed)
    assert detected.installed and "Claude Code" in (detected.version or "")
    started = launch(app, tmp_path, pointed)
    assert tail_after(started.argv, BIN / "claude")[:2] == ["--add-dir", str(started.root)]
    assert started.cwd == str(started.run_dir)
    assert "Claude" in wait_output(started, "Claude")


def test_the_shell_starts_in_the_project_with_its_context_file(app: Container,
                                                               tmp_path: Path) -> None:
    started = launch(app, tmp_path, BUILTINS["shell"])
    assert started.argv[0] in ("/bin/sh", "/usr/bin/sh", "sh")
    assert started.cwd == str(started.root)
    context = Path(started.environ["IDEA_CONTEXT_FILE"])
    assert context == started.run_dir / "CONTEXT.md"
    assert "Your working directory is the project root." in context.read_text()
    assert not (started.root / "CONTEXT.md").exists()
