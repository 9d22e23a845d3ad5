"""The workspace store on the real disk: a shell's saved output comes back exactly — its `\r`
are carriage returns, not line ends (universal newlines drew it as a staircase)."""

from __future__ import annotations

from pathlib import Path

from app.adapters.stores.filesystem import LocalFileSystem
from app.adapters.stores.workspace_store import JsonWorkspaceStore

OUTPUT = "$ ls\r\nalpha  beta\r\n50%\r100%\r\n$ "


def test_saved_scrollback_reads_back_byte_for_byte(tmp_path: Path) -> None:
    store = JsonWorkspaceStore(LocalFileSystem(), str(tmp_path))
    name = store.write_scrollback("s-1", OUTPUT)
    assert store.read_scrollback(name) == OUTPUT


def test_other_files_still_read_with_universal_newlines(tmp_path: Path) -> None:
    path = tmp_path / "persona.md"
    path.write_bytes(b"---\r\nname: A\r\n---\r\nbody\r\n")
    assert LocalFileSystem().read_text(str(path)) == "---\nname: A\n---\nbody\n"
    assert LocalFileSystem().read_text(str(path), exact=True) == "---\r\nname: A\r\n---\r\nbody\r\n"
