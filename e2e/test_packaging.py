"""The packaged app (issue 3): PyInstaller one-dir bundle + AppDir built by build/linux/build.sh.

Builds once per module into a temp dir (~30 s on 2 cores), then: every subcommand of the frozen
executable answers ``--help`` (enumerated from ``app.cli.build_parser()``, so new subcommands
are covered), and ``AppDir/AppRun`` starts the real window, opens a project and runs a shell in a
cell whose environment has the user's ``LD_LIBRARY_PATH`` back (and so does the bare bundle).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import build_parser
from e2e.harness import REPO
from e2e.ui import cells, open_shell, type_in, wait_terminal

pytestmark = pytest.mark.slow

#: A library path the "user" had before starting IdeA; the bundle must hand it back to children.
USER_LD_LIBRARY_PATH = "/opt/idea-e2e-user-lib"


@pytest.fixture(scope="module")
def build_out(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("build-out")
    env = dict(os.environ, IDEA_BUILD_OUT=str(out), IDEA_BUILD_NO_BOOTSTRAP="1")
    env.pop("APPIMAGETOOL", None)
    done = subprocess.run([str(REPO / "build" / "linux" / "build.sh")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-8000:]
    if shutil.which("appimagetool") is None:
        assert "appimagetool not found" in done.stderr  # the documented stop after the AppDir
    yield out
    shutil.rmtree(out, ignore_errors=True)


def subcommands(parser: argparse.ArgumentParser) -> list[str]:
    """Names of the parser's subcommands, from its own subparsers action."""
    for action in parser._actions:  # noqa: SLF001 - argparse exposes subparsers no other way
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            return list(action.choices)
    return []


def test_bundle_and_appdir_layout(build_out: Path) -> None:
    bundle = build_out / "dist" / "idea"
    assert (bundle / "idea").is_file()
    internal = bundle / "_internal"
    assert (internal / "web" / "dist" / "index.html").is_file()
    assert (internal / "webview" / "js" / "api.js").is_file()  # pywebview hook
    qt = internal / "PyQt6" / "Qt6"
    assert (qt / "libexec" / "QtWebEngineProcess").is_file()
    assert (qt / "resources" / "qtwebengine_resources.pak").is_file()
    assert (qt / "resources" / "icudtl.dat").is_file()
    appdir = build_out / "IdeA.AppDir"
    assert os.access(appdir / "AppRun", os.X_OK)
    assert (appdir / "usr" / "bin" / "idea").resolve() == (appdir / "usr" / "lib" / "idea" / "idea")
    desktop = (appdir / "idea.desktop").read_text()
    assert "Exec=idea" in desktop and "Icon=idea" in desktop
    for size in (16, 32, 48, 64, 128, 256, 512):
        png = appdir / f"usr/share/icons/hicolor/{size}x{size}/apps/idea.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (appdir / ".DirIcon").resolve().is_file()


def test_every_subcommand_of_the_frozen_executable_answers_help(build_out: Path) -> None:
    exe = build_out / "IdeA.AppDir" / "usr" / "bin" / "idea"
    names = subcommands(build_parser())
    assert {"gui", "dev"} <= set(names)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    for argv in ([], *[[name] for name in names]):
        done = subprocess.run([str(exe), *argv, "--help"], capture_output=True, text=True,
                              timeout=60, env=env)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        assert done.stdout.startswith(f"usage: idea {' '.join(argv)}".rstrip()), (argv, done.stdout)
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith("IdeA "), version


@pytest.mark.parametrize("entry, user_lib", [
    ("IdeA.AppDir/AppRun", USER_LD_LIBRARY_PATH),  # AppRun exports LD_LIBRARY_PATH_ORIG
    ("dist/idea/idea", None),  # the bare bundle, user without LD_LIBRARY_PATH: children get none
], ids=["apprun-user-lib", "bundle-no-lib"])
def test_packaged_window_runs_a_shell_with_the_users_library_path(
        launch, build_out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        entry: str, user_lib: str | None) -> None:
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    monkeypatch.delenv("LD_LIBRARY_PATH_ORIG", raising=False)
    app = launch(project=tmp_path / "proj", command=[str(build_out / entry)],
                 extra_env={"LD_LIBRARY_PATH": user_lib} if user_lib else {})
    page = app.page
    assert "/_internal/web/dist/index.html" in page.url and str(build_out) in page.url
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "/bin/sh -c 'ldd /bin/ls >/dev/null && echo ok-$((40+2))'\n")
    wait_terminal(page, session, "ok-42")
    type_in(page, cell, 'echo "lib=[$LD_LIBRARY_PATH]"\n')
    wait_terminal(page, session, f"lib=[{user_lib or ''}]")
