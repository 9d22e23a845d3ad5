"""The profile detector on real files: why a command given as a path is not a program."""

from __future__ import annotations

import os
from pathlib import Path

from app.adapters.system.commands import PathCommandResolver, SubprocessProfileDetector


def test_a_path_that_is_no_program_says_why(tmp_path: Path) -> None:
    # A trial got "/etc/passwd: no such executable file" for a file that exists.
    detector = SubprocessProfileDetector(PathCommandResolver())
    plain = tmp_path / "notes.txt"
    plain.write_text("x")
    program = tmp_path / "cli"
    program.write_text("#!/bin/sh\necho cli 1.2\n")
    os.chmod(program, 0o755)
    assert detector.detect(str(plain), ["--version"], 2000).output == (
        f"{plain}: is not executable (chmod +x it, or name the program that runs it)")
    assert detector.detect(str(tmp_path), ["--version"], 2000).output == (
        f"{tmp_path}: is a folder, not a program")
    assert detector.detect(str(tmp_path / "gone"), ["--version"], 2000).output == (
        f"{tmp_path / 'gone'}: no such file")
    found = detector.detect(str(program), ["--version"], 2000)
    assert found.state == "installed" and found.version == "cli 1.2"
