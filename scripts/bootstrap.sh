#!/usr/bin/env bash
# Brings a fresh checkout to a runnable state; every step is skipped when already done.
#   scripts/bootstrap.sh app    -> Python venv + runtime deps, npm deps, web build
#   scripts/bootstrap.sh test   -> the same plus test deps, the real vendor CLIs (tools/),
#                                  and, as root on Debian, Xvfb and the Qt WebEngine libraries
#   scripts/bootstrap.sh build  -> the app plus PyInstaller (build/linux/build.sh)
set -euo pipefail
mode="${1:-app}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
say() { printf '\033[1;34m[bootstrap]\033[0m %s\n' "$*" >&2; }

stamp_ok() {  # stamp_ok NAME FILE... -> 0 when the stamp matches the files' hash
  local name="$1"; shift
  local want; want="$(cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1)"
  [ -f ".venv/.stamp-$name" ] && [ "$(cat ".venv/.stamp-$name")" = "$want" ]
}
stamp_set() { local name="$1"; shift; cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1 > ".venv/.stamp-$name"; }

# 1. Debian packages the real window needs (root only; others get a hint).
debs=(xvfb xauth libxcb-cursor0 libxkbcommon-x11-0 libnss3 libxcomposite1 libxdamage1 libxrandr2
      libxtst6 libegl1 libgl1 libxkbfile1 libxshmfence1 libasound2 libxcb-icccm4 libxcb-image0
      libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1
      libfontconfig1 libdbus-1-3 fonts-dejavu-core)
if [ "$mode" = test ]; then debs+=(vim-tiny chromium zsh fish xdotool); fi
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      say "installing Debian packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >/dev/null
      apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      say "missing Debian packages (install them with sudo): apt-get install ${missing[*]}"
    fi
  fi
fi

# 2. Python virtualenv at .venv.
py="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  "$py" -m venv .venv
fi
extra=""; [ "$mode" = test ] && extra="[test]"; [ "$mode" = build ] && extra="[build]"
if ! stamp_ok "py$mode" pyproject.toml; then
  say "installing Python dependencies (.${extra:-})"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".${extra}"
  stamp_set "py$mode" pyproject.toml
fi

# 3. npm dependencies and the web build (rebuilt when web sources are newer than dist).
if ! stamp_ok npm web/package.json web/package-lock.json || [ ! -d web/node_modules ]; then
  say "installing npm dependencies (web/)"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
  stamp_set npm web/package.json web/package-lock.json
fi
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html web/vite.config.ts web/package.json -newer web/dist/index.html -print -quit 2>/dev/null)" ]; then
  say "building web/ (vite)"
  (cd web && npm run --silent build >/dev/null)
fi

# 4. Test-only tools: the real vendor CLIs of tools.json, in the repo's own tools/ folder.
if [ "$mode" = test ]; then
  if ! stamp_ok tools tools.json || [ ! -x tools/node_modules/.bin/claude ]; then
    say "installing test tools from tools.json into tools/"
    mkdir -p tools
    cp tools.json tools/package.json
    (cd tools && npm install --no-audit --no-fund --loglevel=error >/dev/null)
    stamp_set tools tools.json
  fi
fi
