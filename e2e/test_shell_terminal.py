"""A plain shell in a real PTY, in a cell of the real window (issue 2, item 4)."""

from __future__ import annotations

from pathlib import Path

from e2e.ui import cell_menu, cells, open_shell, terminal_text, type_in, wait_for, wait_terminal

MULTIBYTE_WRITER = (
    "python3 -c \"import sys,time;b=('é€😀'*40).encode();"
    "[(sys.stdout.buffer.write(b[i:i+1]),sys.stdout.flush()) for i in range(len(b))];print()\""
)


def test_shell_runs_echo_and_utf8_split_across_reads(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "echo hello-$((6*7))\n")
    wait_terminal(page, session, "hello-42")
    type_in(page, cell, MULTIBYTE_WRITER + "\n")
    text = wait_terminal(page, session, "é€😀" * 40)
    assert "\ufffd" not in text


def test_resize_follows_the_cell(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "stty size\n")
    before = wait_for(lambda: _stty_size(terminal_text(page, session)), what="stty size")
    cell_menu(cell, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="two cells")
    type_in(page, cells(page).first, "clear; stty size\n")
    after = wait_for(lambda: (s := _stty_size(terminal_text(page, session))) and s != before and s,
                     what="new stty size")
    assert after[1] < before[1], (before, after)  # columns shrank when the cell was split


def test_alternate_screen_program(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    wait_for(lambda: terminal_text(page, session).rstrip().endswith(("$", "#")), what="a prompt")
    type_in(page, cell, "vi -u NONE /tmp/idea-e2e-vi.txt\n")
    # vi's empty screen (its `~` lines), not the typed command's echo: keys typed ahead of
    # vi's start-up are lost to its terminal queries
    wait_for(lambda: "\n~" in terminal_text(page, session), what="vi's screen")
    page.keyboard.type("iwritten-in-vi")
    page.keyboard.press("Escape")
    page.keyboard.type(":wq\n")
    type_in(page, cell, "cat /tmp/idea-e2e-vi.txt\n")
    wait_terminal(page, session, "written-in-vi\n")


def _stty_size(text: str) -> tuple[int, int] | None:
    for line in reversed(text.splitlines()):
        parts = line.strip().split()
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
    return None
