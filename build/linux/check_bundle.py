"""Check that every ELF file of a one-dir bundle finds its shared libraries.

    python build/linux/check_bundle.py BUNDLE_DIR

Runs ``ldd`` on each ELF file (executables, ``.so``) with the bundle's library folders on
``LD_LIBRARY_PATH`` (as PyInstaller's bootloader and Qt's plugin loader see them) and fails listing
any "not found" library: a guard for the size trimming in build/pyinstaller/idea.spec.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def elf_files(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as f:
                if f.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def missing_libraries(bundle: Path) -> dict[str, list[str]]:
    internal = bundle / "_internal"
    lib_dirs = [internal, internal / "PyQt6" / "Qt6" / "lib"]
    env = dict(os.environ, LD_LIBRARY_PATH=os.pathsep.join(str(d) for d in lib_dirs))
    problems: dict[str, list[str]] = {}
    for path in elf_files(bundle):
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env).stdout
        lost = [line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line]
        if lost:
            problems[str(path.relative_to(bundle))] = lost
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    problems = missing_libraries(Path(sys.argv[1]))
    for name, libs in sorted(problems.items()):
        print(f"{name}: missing {', '.join(libs)}", file=sys.stderr)
    sys.exit(1 if problems else 0)
