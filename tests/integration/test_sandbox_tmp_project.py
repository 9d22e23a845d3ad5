"""A project under /tmp (a `tmp_path` project is exactly that), through the real launcher
(`python -m app sandbox-exec`) and a real shell: every CLI's needs grant the temp dirs, and
Landlock only adds rights, so the project's own write rules cannot bind there. The test box's
verdict (`explain_permission`, fed the same `cli_needs` a launch uses) must say what the kernel
then does, and the plan must say the project is exposed; a project outside every temp dir (see
tests/ungranted.py) keeps its rules enforced, verdict and kernel agreeing the other way.
Skipped where the kernel has no Landlock."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

from app.adapters.sandbox.landlock import LandlockEnforcer
from app.adapters.sandbox.needs import HostCliNeeds
from app.core.domain.permission_rules import resolve_permissions
from app.core.domain.permissions import PermissionsDoc
from app.core.domain.sandbox import SandboxContext
from app.core.domain.sandbox_compile import compile_sandbox_plan
from app.core.domain.sandbox_launch import sandbox_files_and_argv
from app.core.usecases.permissions import explain_permission
from tests.ungranted import ungranted_dir

IDEA = (sys.executable, "-m", "app")
ABI, WHY = LandlockEnforcer().abi() if sys.platform.startswith("linux") else (None, "")
pytestmark = [pytest.mark.skipif(ABI is None, reason=f"no Landlock: {WHY}"),
              pytest.mark.timeout(120)]
SRC_ONLY = PermissionsDoc.from_json({"version": 1, "projectDefaults": {"rules": [
    {"capability": "write", "effect": "allow", "paths": ["src/**"]}], "fallback": "deny"}})


def touch_in_sandbox(root: pathlib.Path, name: str) -> tuple[bool, str]:
    """Compile agent a1's plan for `/bin/sh` as a launch does, run `touch <name>` in the project
    root under the real launcher; `(the file exists afterwards, the plan's JSON text)`."""
    run = root / ".ideai" / "run" / "a1"
    run.mkdir(parents=True, exist_ok=True)
    sh = shutil.which("sh")
    assert sh is not None
    needs = HostCliNeeds(IDEA).needs(sh, str(run), None)
    plan = compile_sandbox_plan(resolve_permissions(SRC_ONLY, "a1", str(root)),
                                SandboxContext(str(root), str(run), needs))
    files, argv = sandbox_files_and_argv(plan, str(run), IDEA, [sh, "-c", f"touch {name}"])
    assert files, "writes are confined: the shell must go through sandbox-exec"
    for f in files:
        pathlib.Path(f.path).write_text(f.text)
    subprocess.run(argv, cwd=root, env=dict(os.environ), capture_output=True, text=True,
                   timeout=60, check=False)
    return (root / name).exists(), files[0].text


def verdict(root: pathlib.Path, target: str) -> tuple[bool | None, str, tuple[str, ...]]:
    sh = shutil.which("sh")
    found = explain_permission(SRC_ONLY, str(root), None, "write", target,
                               status_of=LandlockEnforcer(), needs=HostCliNeeds(IDEA),
                               command=sh, run_dir=str(root / ".ideai" / "run" / "a1"))
    assert found.decision.effect == ("allow" if target.startswith("src/") else "deny")
    return found.os.allowed, found.os.message, found.exposed


def test_under_tmp_the_verdict_says_the_kernel_allows_and_the_shell_indeed_writes(
        tmp_path: pathlib.Path) -> None:
    root = tmp_path.resolve()
    assert root.is_relative_to(pathlib.Path(tempfile.gettempdir()).resolve())
    allowed, message, exposed = verdict(root, "x.txt")
    wrote, plan_text = touch_in_sandbox(root, "x.txt")
    assert wrote is True and allowed is True  # the verdict matches the kernel
    assert "granted: temporary files" in message and "the project lies in it" in message
    assert exposed and "the OS cannot enforce write rules inside this project" in exposed[0]
    assert '"exposed"' in plan_text  # the plan file says so too


def test_outside_every_temp_dir_the_verdict_says_eacces_and_the_shell_is_refused() -> None:
    with ungranted_dir("tmp-project") as root:
        allowed, message, exposed = verdict(root, "x.txt")
        wrote, _ = touch_in_sandbox(root, "x.txt")
        assert wrote is False and allowed is False  # the verdict matches the kernel
        assert "EACCES" in message and exposed == ()
        inside, _ = touch_in_sandbox(root, "src-made.txt")
        assert inside is False
        (root / "src").mkdir()
        ok, _ = touch_in_sandbox(root, "src/a.txt")
        assert ok is True and verdict(root, "src/a.txt")[0] is True
