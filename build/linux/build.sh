#!/usr/bin/env bash
# Build IdeA for Linux: PyInstaller one-dir bundle -> AppDir -> AppImage (when appimagetool is
# available). Outputs, under build/out/ (or $IDEA_BUILD_OUT):
#   dist/idea/              the one-dir bundle (run dist/idea/idea)
#   IdeA.AppDir/            the AppDir (run IdeA.AppDir/AppRun)
#   IdeA-x86_64.AppImage    with appimagetool on PATH or in $APPIMAGETOOL
# IDEA_BUILD_NO_BOOTSTRAP=1 skips scripts/bootstrap.sh (the tests bootstrap beforehand).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
say() { printf '\033[1;34m[build]\033[0m %s\n' "$*" >&2; }

if [ "${IDEA_BUILD_NO_BOOTSTRAP:-}" != 1 ]; then
  scripts/bootstrap.sh build
fi
out="${IDEA_BUILD_OUT:-$repo/build/out}"
mkdir -p "$out"
py="$repo/.venv/bin/python"

say "PyInstaller one-dir bundle -> $out/dist/idea"
start=$(date +%s)
"$py" -m PyInstaller --noconfirm --log-level "${IDEA_PYINSTALLER_LOG:-WARN}" \
  --distpath "$out/dist" --workpath "$out/work" build/pyinstaller/idea.spec
"$py" build/linux/check_bundle.py "$out/dist/idea"  # every ELF file finds its libraries
say "bundle built in $(( $(date +%s) - start )) s: $(du -sh "$out/dist/idea" | cut -f1)"

say "AppDir -> $out/IdeA.AppDir"
"$py" build/linux/make_appdir.py "$out/dist/idea" "$out/IdeA.AppDir" >/dev/null
say "AppDir: $(du -sh "$out/IdeA.AppDir" | cut -f1)"

tool="${APPIMAGETOOL:-$(command -v appimagetool || true)}"
if [ -z "$tool" ]; then
  cat >&2 <<MSG
[build] appimagetool not found: stopped after the AppDir ($out/IdeA.AppDir; run its AppRun).
[build] To make the .AppImage, download appimagetool-x86_64.AppImage from
[build] https://github.com/AppImage/appimagetool/releases (chmod +x it), then run
[build]   APPIMAGETOOL=/path/to/appimagetool-x86_64.AppImage build/linux/build.sh
[build] (or put it on PATH as appimagetool). Without FUSE, also export APPIMAGE_EXTRACT_AND_RUN=1.
MSG
  exit 0
fi
arch="${ARCH:-$(uname -m)}"
say "AppImage -> $out/IdeA-$arch.AppImage ($tool)"
ARCH="$arch" "$tool" --no-appstream "$out/IdeA.AppDir" "$out/IdeA-$arch.AppImage"
say "AppImage: $(du -sh "$out/IdeA-$arch.AppImage" | cut -f1)"
