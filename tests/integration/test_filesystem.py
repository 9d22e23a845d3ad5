"""The atomic file store on a real disk: app/adapters/stores/filesystem.py."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from app.adapters.stores.filesystem import LocalFileSystem
from app.core.errors import AppError

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


@posix_only
def test_new_files_get_the_usual_mode_not_mkstemps_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        LocalFileSystem().write_text_atomic(str(tmp_path / "agents.json"), "{}")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "agents.json").stat().st_mode)
    assert mode == 0o666 & ~0o022, oct(mode)


@posix_only
def test_a_rewrite_keeps_the_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "layouts.json"
    target.write_text("{}")
    target.chmod(0o640)
    LocalFileSystem().write_text_atomic(str(target), '{"version": 1}')
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_text() == '{"version": 1}'


def test_write_is_atomic_and_leaves_no_temp_file(tmp_path: Path) -> None:
    fs = LocalFileSystem()
    for i in range(3):
        fs.write_text_atomic(str(tmp_path / "x.json"), f'{{"n": {i}}}')
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]
    assert fs.read_text(str(tmp_path / "x.json")) == '{"n": 2}'


def test_unwritable_directory_is_not_writable_error(tmp_path: Path) -> None:
    with pytest.raises(AppError) as err:
        LocalFileSystem().write_text_atomic(str(tmp_path / "missing" / "x.json"), "{}")
    assert err.value.code == "NOT_WRITABLE"
