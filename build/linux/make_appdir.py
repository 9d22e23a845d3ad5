"""Turn the PyInstaller one-dir bundle into an AppDir (the input of appimagetool).

    python build/linux/make_appdir.py BUNDLE_DIR APPDIR

Layout:
    AppRun                          start script (keeps the user's LD_LIBRARY_PATH for children)
    idea.desktop, idea.png, .DirIcon
    usr/bin/idea -> ../lib/idea/idea
    usr/lib/idea/                   the one-dir bundle (executable + _internal/)
    usr/share/applications/idea.desktop
    usr/share/icons/hicolor/<N>x<N>/apps/idea.png, scalable/apps/idea.svg
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import icons  # noqa: E402 - build/icons.py, next to this folder

DESKTOP = """[Desktop Entry]
Type=Application
Name=IdeA
GenericName=AI agents IDE
Comment=A desktop IDE for people who work through AI coding agents
Exec=idea
Icon=idea
Terminal=false
Categories=Development;IDE;
StartupWMClass=IdeA
"""


def make_appdir(bundle: Path, appdir: Path) -> Path:
    if not (bundle / "idea").is_file():
        raise SystemExit(f"{bundle}/idea is missing: run PyInstaller first (build/linux/build.sh)")
    if appdir.exists():
        shutil.rmtree(appdir)
    lib = appdir / "usr" / "lib" / "idea"
    shutil.copytree(bundle, lib, symlinks=True)
    (appdir / "usr" / "bin").mkdir(parents=True)
    os.symlink("../lib/idea/idea", appdir / "usr" / "bin" / "idea")

    apprun = appdir / "AppRun"
    shutil.copyfile(HERE / "AppRun", apprun)
    apprun.chmod(apprun.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    (appdir / "idea.desktop").write_text(DESKTOP)
    apps = appdir / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "idea.desktop").write_text(DESKTOP)

    hicolor = appdir / "usr" / "share" / "icons" / "hicolor"
    for size in icons.SIZES:
        folder = hicolor / f"{size}x{size}" / "apps"
        folder.mkdir(parents=True)
        (folder / "idea.png").write_bytes(icons.png(size, icons.render(size)))
    scalable = hicolor / "scalable" / "apps"
    scalable.mkdir(parents=True)
    (scalable / "idea.svg").write_text(icons.svg())
    os.symlink("usr/share/icons/hicolor/256x256/apps/idea.png", appdir / "idea.png")
    os.symlink("idea.png", appdir / ".DirIcon")
    return appdir


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(make_appdir(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()))
