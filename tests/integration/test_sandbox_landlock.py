"""The OS sandbox on this kernel, through the real launcher (`python -m app sandbox-exec`)
running real commands: the seven invariants of digest §1.8 adapted to the launcher, the
regression guard "write outside the grant is blocked", the endpoint socket from inside, a real
PTY, and the real Claude Code CLI confined.

Plans are compiled the way a launch compiles them: `permissions.json` → effective permissions →
`compile_sandbox_plan` with `cli_needs` → `sandbox_files_and_argv`. Skipped where the kernel has
no Landlock. Nothing asserts a duration except the timeout invariant's generous bound.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.adapters.sandbox.landlock import LandlockEnforcer
from app.adapters.sandbox.needs import cli_needs
from app.core.domain.permission_rules import resolve_permissions
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.sandbox import SandboxContext, SandboxPlan
from app.core.domain.sandbox_compile import compile_sandbox_plan
from app.core.domain.sandbox_launch import sandbox_files_and_argv, sandboxed_spawn
from app.core.domain.sessions import SpawnSpec
from tests.ungranted import ungranted_dir

REPO = pathlib.Path(__file__).resolve().parents[2]
IDEA = (sys.executable, "-m", "app")
ABI, WHY = LandlockEnforcer().abi() if sys.platform.startswith("linux") else (None, "")
pytestmark = [pytest.mark.skipif(ABI is None, reason=f"no Landlock: {WHY}"),
              pytest.mark.timeout(120)]
RESULT_LINE = json.dumps({"type": "result", "subtype": "success", "is_error": False,
                          "result": "ok", "session_id": "conv-sbx-1"})


@pytest.fixture
def outside() -> Iterator[pathlib.Path]:
    """A folder no plan grants anything in (see tests/ungranted.py)."""
    with ungranted_dir("sandbox") as path:
        yield path


def project(root: pathlib.Path, rules: list[dict[str, Any]] | None,
            fallback: str = "deny") -> tuple[pathlib.Path, Any]:
    """A project at `root` with those rules (None: no permissions.json) and agent a1's
    effective permissions."""
    run = root / ".ideai" / "run" / "a1"
    run.mkdir(parents=True, exist_ok=True)
    doc = None if rules is None else PermissionsDoc.from_json(
        {"version": 1, "projectDefaults": {"rules": rules, "fallback": fallback}})
    return run, resolve_permissions(doc, "a1", str(root))


def launch(root: pathlib.Path, rules: list[dict[str, Any]] | None, argv: list[str], *,
           fallback: str = "deny", env: dict[str, str] | None = None,
           endpoint: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Compile, write the plan, run `argv` wrapped (or not) exactly as a launch would."""
    run, effective = project(root, rules, fallback)
    environ = {**os.environ, **(env or {})}
    needs = cli_needs(argv[0], run_dir=str(run), endpoint=endpoint, environ=environ,
                      idea_command=IDEA)
    plan = compile_sandbox_plan(effective, SandboxContext(str(root), str(run), needs))
    files, wrapped = sandbox_files_and_argv(plan, str(run), IDEA, argv)
    for f in files:
        pathlib.Path(f.path).write_text(f.text)
    return subprocess.run(wrapped, cwd=run, env=environ, capture_output=True, text=True,
                          timeout=timeout, check=False)


def writer(denied: pathlib.Path, allowed: pathlib.Path) -> list[str]:
    """`sh` printing the result line, then writing the denied marker FIRST and the allowed one
    after (the allowed marker existing proves the denied attempt already happened)."""
    return ["/bin/sh", "-c", f"printf '%s\\n' '{RESULT_LINE}'; echo outside > '{denied}'; "
                             f"echo inside > '{allowed}'"]


WRITE_IN = [{"capability": "write", "effect": "allow", "paths": ["allowed/**"]}]


# -- 1. parity and the regression guard ----------------------------------------------------
def test_parity_write_inside_the_grant_works_outside_is_blocked(outside: pathlib.Path) -> None:
    root = outside / "proj"
    (root / "allowed").mkdir(parents=True)
    denied, allowed = outside / "denied", root / "allowed" / "marker"
    done = launch(root, WRITE_IN, writer(denied, allowed))
    assert done.stdout.splitlines() == [RESULT_LINE]
    assert allowed.read_text() == "inside\n"
    assert not denied.exists()
    assert "Permission denied" in done.stderr
    assert json.loads((root / ".ideai/run/a1/sandbox-plan.json").read_text())["restrict"] == \
        ["write"]


# -- 2. companion negative -----------------------------------------------------------------
def test_companion_negative_without_a_plan_both_writes_happen(outside: pathlib.Path) -> None:
    root = outside / "proj"
    (root / "allowed").mkdir(parents=True)
    denied, allowed = outside / "denied", root / "allowed" / "marker"
    done = launch(root, None, writer(denied, allowed))
    assert done.stdout.splitlines() == [RESULT_LINE]
    assert denied.exists() and allowed.exists()
    assert not (root / ".ideai/run/a1/sandbox-plan.json").exists()


# -- 3. fail-closed ------------------------------------------------------------------------
STACK_16 = """
import os, sys
from app.adapters.sandbox.landlock import LandlockEnforcer
from app.core.domain.sandbox import PathGrant, SandboxPlan, access_set
# Landlock stacks at most 16 rulesets per process: fill them (each grants everything), so
# the launcher's own ruleset is refused by the kernel (E2BIG), then exec the launcher.
plan = SandboxPlan(restrict=access_set(["write"]),
                   grants=(PathGrant("/", access_set(["write"])),))
for _ in range(16):
    LandlockEnforcer().enforce(plan)
os.execv(sys.argv[1], sys.argv[1:])
"""


def test_fail_closed_nothing_runs_when_the_kernel_refuses(outside: pathlib.Path) -> None:
    root = outside / "proj"
    (root / "allowed").mkdir(parents=True)
    marker = root / "allowed" / "marker"
    run, effective = project(root, WRITE_IN)
    plan = compile_sandbox_plan(effective, SandboxContext(str(root), str(run)))
    assert plan is not None and plan.fail_closed
    files, argv = sandbox_files_and_argv(plan, str(run), IDEA,
                                         ["/bin/sh", "-c", f"echo ran > '{marker}'"])
    pathlib.Path(files[0].path).write_text(files[0].text)
    done = subprocess.run([sys.executable, "-c", STACK_16, *argv], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 126, done.stderr
    assert "idea sandbox-exec: refused to run /bin/sh: the permissions demand an OS sandbox " \
           "and none can be applied (Landlock refused the ruleset:" in done.stderr
    assert not marker.exists()


# -- 4. no-op default ----------------------------------------------------------------------
@pytest.mark.parametrize("rules", [None, [
    {"capability": "read", "effect": "allow", "paths": ["**"]},
    {"capability": "write", "effect": "allow", "paths": ["**"]}]], ids=["nothing", "all-allow"])
def test_no_op_default_runs_natively(outside: pathlib.Path,
                                     rules: list[dict[str, Any]] | None) -> None:
    root = outside / "proj"
    root.mkdir()
    anywhere = outside / "anywhere"
    done = launch(root, rules, ["/bin/sh", "-c", f"echo x > '{anywhere}' && echo done"],
                  fallback="allow")
    assert done.stdout == "done\n" and anywhere.exists()
    assert not (root / ".ideai/run/a1/sandbox-plan.json").exists()  # not even wrapped


# -- 5. confinement between launches -------------------------------------------------------
def test_confinement_does_not_leak_between_launches_or_onto_idea(outside: pathlib.Path) -> None:
    root = outside / "proj"
    for name in ("a", "b"):
        (root / name).mkdir(parents=True)

    def turn(grant: str, other: str) -> None:
        rules = [{"capability": "write", "effect": "allow", "paths": [f"{grant}/**"]}]
        done = launch(root, rules, ["/bin/sh", "-c", f"echo 1 > {root}/{other}/from-{grant}; "
                                                    f"echo 1 > {root}/{grant}/mine"])
        assert (root / grant / "mine").exists(), done.stderr
        assert not (root / other / f"from-{grant}").exists()

    turn("a", "b")
    turn("b", "a")
    (outside / "idea-still-free").write_text("IdeA itself is never confined")
    assert (outside / "idea-still-free").exists()


# -- 6. timeout under sandbox --------------------------------------------------------------
def test_a_confined_command_can_be_timed_out_and_killed(outside: pathlib.Path) -> None:
    root = outside / "proj"
    run, effective = project(root, WRITE_IN)
    plan = compile_sandbox_plan(effective, SandboxContext(str(root), str(run)))
    files, argv = sandbox_files_and_argv(plan, str(run), IDEA, ["sleep", "30"])
    pathlib.Path(files[0].path).write_text(files[0].text)
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=REPO)
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=0.25)
    proc.kill()
    assert proc.wait(timeout=10) == -9  # the launcher exec'd: the pid is sleep itself
    assert time.monotonic() - started < 10


# -- 7. resume id preserved ----------------------------------------------------------------
FAKE_CLAUDE = """#!/bin/sh
# A fake Claude Code: keeps its session in ~/.claude like the real one, resumes it.
mkdir -p "$HOME/.claude/projects"
if [ "$1" = "--resume" ]; then
  cat "$HOME/.claude/projects/$2.jsonl"
  printf '%s\\n' '{"type":"result","is_error":false,"result":"resumed","session_id":"'"$2"'"}'
  exit 0
fi
printf '%s\\n' '{"type":"system","subtype":"init","session_id":"conv-sbx-1","cwd":"'"$PWD"'","tools":[]}'
printf '%s\\n' '{"type":"user","session":"conv-sbx-1"}' > "$HOME/.claude/projects/conv-sbx-1.jsonl"
printf '%s\\n' '%RESULT%'
"""


def test_resume_id_and_session_survive_confined_launches(outside: pathlib.Path) -> None:
    root, home = outside / "proj", outside / "home"
    home.mkdir()
    fake = outside / "bin" / "claude"
    fake.parent.mkdir()
    fake.write_text(FAKE_CLAUDE.replace("%RESULT%", RESULT_LINE))
    fake.chmod(0o755)
    rules = [{"capability": "write", "effect": "allow", "paths": ["**"]}]
    first = launch(root, rules, [str(fake), "-p", "hi"], env={"HOME": str(home)})
    events = [json.loads(line) for line in first.stdout.splitlines()]
    finals = [e for e in events if e["type"] == "result"]
    assert len(finals) == 1 and finals[0]["session_id"] == "conv-sbx-1", first.stderr
    assert events[0]["session_id"] == "conv-sbx-1"
    again = launch(root, rules, [str(fake), "--resume", "conv-sbx-1"], env={"HOME": str(home)})
    assert again.stdout.splitlines()[0] == '{"type":"user","session":"conv-sbx-1"}'
    assert json.loads(again.stdout.splitlines()[-1])["result"] == "resumed"
    denied = launch(root, rules, ["/bin/sh", "-c", f"echo x > '{home}/elsewhere'"],
                    env={"HOME": str(home)})
    assert "Permission denied" in denied.stderr  # the home is granted only where CLIs live


# -- the endpoint socket -------------------------------------------------------------------
CLIENT = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
address = sys.argv[1]
s.connect("\\0" + address[1:] if address.startswith("@") else address)
s.sendall(b"ping\\n")
print(s.recv(100).decode().strip())
"""


def _serve(sock: socket.socket) -> None:
    conn, _ = sock.accept()
    with conn:
        if conn.recv(100) == b"ping\n":
            conn.sendall(b"pong\n")


@pytest.mark.parametrize("abstract", [False, True], ids=["path", "abstract"])
def test_the_endpoint_socket_stays_connectable_from_inside(outside: pathlib.Path,
                                                           abstract: bool) -> None:
    """A path socket in a granted folder connects (Landlock ≤ ABI 7 never controls connect on
    a path socket); an abstract one too, because IdeA's rulesets handle no scope (ABI 6's
    LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET would cut it)."""
    root = outside / "proj"
    endpoint_dir = outside / "endpoint"
    endpoint_dir.mkdir(mode=0o700)
    address = f"@idea-test-{os.getpid()}" if abstract else str(endpoint_dir / "p.sock")
    server = socket.socket(socket.AF_UNIX)
    server.bind("\0" + address[1:] if abstract else address)
    server.listen(1)
    thread = threading.Thread(target=_serve, args=(server,), daemon=True)
    thread.start()
    try:
        rules = [{"capability": "read", "effect": "allow", "paths": ["**"]},
                 {"capability": "write", "effect": "allow", "paths": ["**"]}]
        done = launch(root, rules, [sys.executable, "-c", CLIENT, address],
                      endpoint=None if abstract else address)
        assert done.stdout == "pong\n", done.stderr
        plan = SandboxPlan.from_json(json.loads(
            (root / ".ideai/run/a1/sandbox-plan.json").read_text()))
        assert plan.restrict == {"read", "write"}
    finally:
        thread.join(timeout=5)
        server.close()


# -- a real PTY ----------------------------------------------------------------------------
def test_pty_host_shows_permission_denied(outside: pathlib.Path) -> None:
    pytest.importorskip("ptyprocess")
    from app.adapters.pty.posix import PtyProcessHost
    from tests.pty_recorder import Recorder, wait_until

    root = outside / "proj"
    (root / "allowed").mkdir(parents=True)
    run, effective = project(root, WRITE_IN)
    needs = cli_needs("/bin/sh", run_dir=str(run), idea_command=IDEA)
    plan = compile_sandbox_plan(effective, SandboxContext(str(root), str(run), needs))
    spec = SpawnSpec(command="/bin/sh", args=["-c", f"echo x > '{outside}/outside'; "
                                                    "echo in > ../../../allowed/f; echo end"],
                     cwd=str(run))
    files, wrapped = sandboxed_spawn(spec, plan, str(run), IDEA)
    for f in files:
        pathlib.Path(f.path).write_text(f.text)
    rec = Recorder()
    host = PtyProcessHost(rec, kill_grace_ms=500)
    try:
        sid = host.spawn(wrapped)
        assert wait_until(lambda: sid in rec.exits)
        text = rec.text(sid)
        assert "Permission denied" in text and "end" in text, text
        assert not (outside / "outside").exists()
        assert (root / "allowed" / "f").read_text() == "in\n"
    finally:
        host.close_all(timeout_ms=1000)


# -- the real Claude Code CLI --------------------------------------------------------------
CLAUDE = REPO / "tools" / "node_modules" / ".bin" / "claude"


@pytest.mark.slow
@pytest.mark.skipif(not CLAUDE.exists(), reason="scripts/bootstrap.sh test installs claude")
def test_real_claude_runs_confined_and_keeps_its_session(outside: pathlib.Path) -> None:
    """Digest §2.7: a confined CLI must still reach its binary, libraries and home. Claude Code
    2.1.332 offline, not logged in: one genuine stream-json turn (an error Final) whose session
    lands in ~/.claude, created by the launcher before confining."""
    root, home = outside / "proj", outside / "home"
    home.mkdir()
    rules = [{"capability": "read", "effect": "allow", "paths": ["**"]},
             {"capability": "write", "effect": "allow", "paths": ["**"]}]
    done = launch(root, rules, [str(CLAUDE), "-p", "hello", "--output-format", "stream-json",
                                "--verbose"], env={"HOME": str(home)}, timeout=90)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert events and events[0]["type"] == "system", done.stderr[-2000:]
    finals = [e for e in events if e["type"] == "result"]
    assert len(finals) == 1 and finals[0]["session_id"] == events[0]["session_id"]
    assert (home / ".claude" / "projects").is_dir()
