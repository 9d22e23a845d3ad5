"""A scratch folder no sandbox plan grants: for the tests of "a write outside the grant is
blocked". Temp dirs (TMPDIR, /tmp, /var/tmp) are granted to every CLI as its scratch space, so
the folder sits under the repo's `.pytest_cache` (IdeA's source tree is only readable) — or,
when the clone itself lives under a temp dir, under `~/.idea-tests` (~/.cache is granted)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _temp_dirs() -> list[Path]:
    names = {os.environ.get("TMPDIR", ""), "/tmp", "/var/tmp", tempfile.gettempdir()}
    return [Path(name).resolve() for name in names if name]


def ungranted_parent(name: str) -> Path:
    """The folder (created) under which ungranted scratch folders called `name` go."""
    parent = REPO / ".pytest_cache" / name
    if any(parent.resolve().is_relative_to(temp) for temp in _temp_dirs()):
        parent = Path.home() / ".idea-tests" / name
    parent.mkdir(parents=True, exist_ok=True)
    return parent


@contextmanager
def ungranted_dir(name: str) -> Iterator[Path]:
    """A fresh folder outside every temp dir, removed afterwards."""
    path = Path(tempfile.mkdtemp(dir=ungranted_parent(name)))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
