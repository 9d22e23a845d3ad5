"""Size and start-up of the packaged app (issue 3): bundle/AppDir size, start to interactive window.

    .venv/bin/python bench/frozen_startup.py [--out build/out] [--runs 3] [--json out.json]

Needs a build (build/linux/build.sh; ``--out`` is its output dir). Start-up = from spawning the
command to ``window.__ideaReady`` (the UI asked Python for ``app.info()``, opened the startup
project and can be used), read through the e2e harness (Xvfb + CDP), with a temp data dir and
project each run. Measured for ``IdeA.AppDir/AppRun`` and, as the reference, ``python -m app``
from source. "cold" runs first drop the kernel page cache (root only: /proc/sys/vm/drop_caches),
like a first start after boot; "warm" runs follow each other. Figures only, nothing asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from e2e.harness import REPO, IdeaApp, Xvfb  # noqa: E402


def du_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) / 1e6


def drop_caches() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def start_once(playwright, display: str, command: list[str]) -> float:  # type: ignore[no-untyped-def]
    tmp = Path(tempfile.mkdtemp(prefix="idea-startup-"))
    app = IdeaApp(playwright, display, tmp / "data", tmp / "proj", command=command)
    t0 = time.monotonic()
    try:
        app.start(timeout_s=120)
        return time.monotonic() - t0
    finally:
        app.stop()
        shutil.rmtree(tmp, ignore_errors=True)


#: The app from this checkout (the `./idea` launcher without its bootstrap).
SOURCE = [sys.executable, "-m", "app"]


def start_ups(playwright, command: list[str], runs: int) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Seconds from spawning `command` to an interactive window, `runs` times cold (the page
    cache dropped first; root only, else none) then `runs` times warm, under one Xvfb:
    `{"cold_s": [...], "cold_median_s": s | None, "warm_s": [...], "warm_median_s": s}`."""
    xvfb = Xvfb()
    display = xvfb.start()
    try:
        cold = []
        for _ in range(runs):
            if not drop_caches():
                break
            cold.append(start_once(playwright, display, command))
        warm = [start_once(playwright, display, command) for _ in range(runs)]
    finally:
        xvfb.stop()
    return {"cold_s": [round(x, 2) for x in cold],
            "cold_median_s": round(statistics.median(cold), 2) if cold else None,
            "warm_s": [round(x, 2) for x in warm],
            "warm_median_s": round(statistics.median(warm), 2)}


def build(out: Path) -> Path:
    """`build/linux/build.sh` into `out` (the venv's PyInstaller, no bootstrap; ~30 s on 2
    cores); returns `out/IdeA.AppDir/AppRun`. Raises RuntimeError with the build's tail."""
    env = dict(os.environ, IDEA_BUILD_OUT=str(out), IDEA_BUILD_NO_BOOTSTRAP="1")
    env.pop("APPIMAGETOOL", None)
    done = subprocess.run([str(REPO / "build" / "linux" / "build.sh")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=900)
    apprun = out / "IdeA.AppDir" / "AppRun"
    if not apprun.is_file():
        raise RuntimeError(f"build failed ({done.returncode}): {done.stderr[-2000:]}")
    return apprun


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "build" / "out"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    out = Path(args.out)
    apprun = out / "IdeA.AppDir" / "AppRun"
    if not apprun.is_file():
        raise SystemExit(f"{apprun} is missing: run build/linux/build.sh first")
    result: dict[str, object] = {
        "bundle_mb": round(du_mb(out / "dist" / "idea"), 1),
        "appdir_mb": round(du_mb(out / "IdeA.AppDir"), 1),
    }
    images = sorted(out.glob("IdeA-*.AppImage"))
    if images:
        result["appimage_mb"] = round(images[0].stat().st_size / 1e6, 1)
    commands = {"frozen (AppRun)": [str(apprun)], "source (python -m app)": SOURCE}
    with sync_playwright() as pw:
        for name, command in commands.items():
            result[name] = start_ups(pw, command, args.runs)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
