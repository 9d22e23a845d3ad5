"""`idea sandbox-exec` without a kernel: a fake enforcer and a recording execvp
(app/adapters/sandbox/launcher.py); the real Landlock runs in tests/integration."""

import io
import json
import pathlib
import subprocess
import sys

import pytest

from app.adapters.sandbox import default_enforcer
from app.adapters.sandbox.landlock import LandlockEnforcer
from app.adapters.sandbox.launcher import run_sandbox_exec
from app.adapters.sandbox.noop import NoopEnforcer
from app.cli import build_parser
from app.core.domain.sandbox import SandboxPlan, access_set
from tests.unit.fakes import FakeSandboxEnforcer

PLAN = SandboxPlan(restrict=access_set(["write"]), fail_closed=True)


class Exec:
    def __init__(self, error: OSError | None = None) -> None:
        self.calls: list[tuple[str, list[str]]] = []
        self.error = error

    def __call__(self, file: str, args: list[str]) -> None:
        self.calls.append((file, args))
        if self.error:
            raise self.error


@pytest.fixture
def plan_file(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "sandbox-plan.json"
    path.write_text(json.dumps(PLAN.to_json()))
    return str(path)


def test_enforces_then_execs(plan_file: str) -> None:
    enforcer, execvp, err = FakeSandboxEnforcer(abi=7), Exec(), io.StringIO()
    assert run_sandbox_exec(plan_file, ["--", "sh", "-c", "x"], enforcer=enforcer,
                            stderr=err, execvp=execvp) == 0
    assert enforcer.confined == [PLAN] and execvp.calls == [("sh", ["sh", "-c", "x"])]
    assert err.getvalue() == ""


def test_fail_closed_refuses_without_running(plan_file: str) -> None:
    execvp, err = Exec(), io.StringIO()
    code = run_sandbox_exec(plan_file, ["claude"], enforcer=FakeSandboxEnforcer(abi=None),
                            stderr=err, execvp=execvp)
    assert code == 126 and execvp.calls == []
    assert err.getvalue() == ("idea sandbox-exec: refused to run claude: the permissions demand "
                              "an OS sandbox and none can be applied (no Landlock here)\n")


def test_fail_open_plan_warns_and_runs(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(SandboxPlan(restrict=access_set(["read"])).to_json()))
    execvp, err = Exec(), io.StringIO()
    assert run_sandbox_exec(str(path), ["sh"], enforcer=FakeSandboxEnforcer(abi=None),
                            stderr=err, execvp=execvp) == 0
    assert execvp.calls and "running without an OS sandbox" in err.getvalue()


def test_degraded_warns(plan_file: str) -> None:
    err = io.StringIO()
    run_sandbox_exec(plan_file, ["sh"], enforcer=FakeSandboxEnforcer(abi=2), stderr=err,
                     execvp=Exec())
    assert "warning: the OS sandbox is partial: Landlock ABI 2" in err.getvalue()


@pytest.mark.parametrize(("text", "says"), [
    (None, "No such file"), ("{", "Expecting"), ('{"version": 9}', "plan.version")])
def test_unreadable_plan_refuses(tmp_path: pathlib.Path, text: str | None, says: str) -> None:
    path = tmp_path / "p.json"
    if text is not None:
        path.write_text(text)
    execvp, err = Exec(), io.StringIO()
    assert run_sandbox_exec(str(path), ["sh"], enforcer=FakeSandboxEnforcer(), stderr=err,
                            execvp=execvp) == 126
    assert execvp.calls == [] and says in err.getvalue()


def test_exec_failures(plan_file: str) -> None:
    err = io.StringIO()
    assert run_sandbox_exec(plan_file, ["nope"], enforcer=FakeSandboxEnforcer(), stderr=err,
                            execvp=Exec(FileNotFoundError(2, "No such file"))) == 127
    assert err.getvalue() == "idea sandbox-exec: command not found: nope\n"
    err = io.StringIO()
    assert run_sandbox_exec(plan_file, ["x"], enforcer=FakeSandboxEnforcer(), stderr=err,
                            execvp=Exec(PermissionError(13, "Permission denied"))) == 126
    assert "cannot run x: Permission denied (outside the sandbox's grants?)" in err.getvalue()
    assert run_sandbox_exec(plan_file, ["--"], enforcer=FakeSandboxEnforcer(),
                            stderr=io.StringIO(), execvp=Exec()) == 2


def test_parser_keeps_the_command_verbatim() -> None:
    args = build_parser().parse_args(["sandbox-exec", "--plan", "/p.json", "--", "claude",
                                      "--project", "x", "--", "-y"])
    assert args.command == "sandbox-exec" and args.plan == "/p.json"
    assert args.argv == ["--", "claude", "--project", "x", "--", "-y"]


def test_launcher_imports_no_pydantic() -> None:
    code = ("import sys, app.__main__, app.adapters.sandbox.launcher, app.adapters.sandbox; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pydantic', 'pathspec', 'yaml', 'mcp')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=pathlib.Path(__file__).parents[3])
    assert out.stdout.strip() == "[]"


def test_default_enforcer_by_platform() -> None:
    assert isinstance(default_enforcer("linux"), LandlockEnforcer)
    noop = default_enforcer("darwin")
    assert isinstance(noop, NoopEnforcer)
    assert noop.status(PLAN).state == "unsupported" and noop.enforce(PLAN).state == "unsupported"
    assert "no OS sandbox on darwin" in noop.enforce(PLAN).message
    assert noop.status(None).state == "off"
    assert not noop.refuses(PLAN)  # nothing to fail against: the CLI's settings bind
