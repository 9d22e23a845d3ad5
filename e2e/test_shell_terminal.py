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


#: What a TUI does on start (vi asks the same and more): the terminal's identity and the cursor
#: position, read back in raw mode so the answers reach the program, not the shell.
QUERIES = r"""import sys, termios, tty
old = termios.tcgetattr(0)
tty.setraw(0)
try:
    sys.stdout.write("\033[c\033[6n"); sys.stdout.flush()
    got = ""
    while got.count("\033") < 2 or not got.endswith("R"):
        got += sys.stdin.read(1)
finally:
    termios.tcsetattr(0, termios.TCSADRAIN, old)
print("answered-" + str(len(got) > 0))
"""


def test_a_view_coming_back_types_no_answers_to_old_queries(launch, tmp_path: Path) -> None:
    # a trial: after vi, every layout switch (and undo of a close, and a restart) typed
    # `2RR0;276;0c10;rgb:cccc/…` at the shell's prompt: xterm.js answered vi's start-up queries
    # again when the view replayed the scrollback
    script = tmp_path / "queries.py"
    script.write_text(QUERIES)
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "PS1='$ '\n")
    type_in(page, cell, f"python3 {script}\n")
    wait_terminal(page, session, "answered-True\n")

    page.keyboard.press("Control+Alt+Shift+N")  # a new named layout, then back: a new view
    page.locator('[data-testid="layout-name-input"]').fill("Other")
    page.locator('[data-testid="layout-name-ok"]').click()
    wait_for(lambda: page.locator('[data-testid="terminal"]').count() == 0, what="Other shown")
    page.keyboard.press("Control+Alt+PageUp")
    wait_for(lambda: page.locator(f'[data-testid="terminal"][data-session-id="{session}"]')
             .count() == 1, what="the shell's view back")
    type_in(page, cells(page).first, "echo clean-$((6*7))\n")
    text = wait_terminal(page, session, "clean-42\n")
    assert "$ echo clean-$((6*7))\n" in text, text[-400:]


def _stty_size(text: str) -> tuple[int, int] | None:
    for line in reversed(text.splitlines()):
        parts = line.strip().split()
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
    return None


REPAINT = r"""#!/bin/sh
# A TUI's full repaints, as Claude Code does them: inside DEC 2026 synchronized-output blocks,
# erase the scrollback (CSI 3 J), home, clear, then the whole transcript again.
for r in 1 2 3 4 5; do
  printf '\033[?2026h\033[3J\033[H\033[2J'
  seq -f 'transcript-%g' 1 300
  printf '\033[?2026l'
  sleep 0.2
done
echo painted-$((4+4))
"""


def view(page, session: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return dict(page.evaluate("(s) => window.__ideaTerminalView(s)", session))


def test_a_scrolled_back_view_stays_put_while_a_tui_repaints(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "repaint.sh").write_text(REPAINT)
    app = launch(project=project)
    page = app.page
    cell = cells(page).first
    session = open_shell(page, cell)
    # Typing scrolls to the bottom (xterm's scrollOnUserInput): the repaint starts by itself,
    # once the user has scrolled back (the test then creates `go`).
    type_in(page, cell, "seq -f 'transcript-%g' 1 300; echo seeded-$((2*3)); "
                        "until [ -e go ]; do sleep 0.1; done; sh repaint.sh\n")
    wait_terminal(page, session, "seeded-6")

    # The user scrolls back with the wheel, to somewhere in the middle.
    box = cell.locator('[data-testid="terminal"]').bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(40):  # each notch scrolls a few rows
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(30)
    wait_for(lambda: 0 < view(page, session)["viewportY"] < view(page, session)["baseY"] - 40,
             what="the view scrolled back")
    before = view(page, session)["viewportY"]
    assert "transcript" not in terminal_text(page, session).split("seeded-6", 1)[1]
    (project / "go").touch()

    wait_terminal(page, session, "painted-8", timeout_s=30)
    after = view(page, session)
    # Neither to the top (the erase) nor to the bottom (the repaint): where the user left it.
    assert after["viewportY"] == before, (before, after)
    assert 0 < after["viewportY"] < after["baseY"]


def test_the_exit_line_of_a_full_terminal_shows_above_the_session_ended_bar(
        launch, tmp_path: Path) -> None:
    # Trial finding: once output had filled the cell, the "Session ended" bar covered the
    # terminal's last rows, and with them `[process exited with code 7]`.
    page = launch(project=tmp_path / "proj").page
    cell = cells(page).first
    session = open_shell(page, cell)
    type_in(page, cell, "seq 1 300; exit 7\n")
    wait_terminal(page, session, "[process exited with code 7]")
    bar = cell.locator('[data-testid="session-ended"]')
    bar.wait_for()
    terminal = cell.locator('[data-testid="terminal"]')

    def geometry() -> tuple[float, float]:
        t, b = terminal.bounding_box(), bar.bounding_box()
        assert t is not None and b is not None
        return t["y"] + t["height"], b["y"]

    wait_for(lambda: geometry()[0] <= geometry()[1] + 0.5, what="the terminal ends above the bar")
    wait_for(lambda: view(page, session)["viewportY"] == view(page, session)["baseY"],
             what="the view at the bottom")
    screen = page.evaluate("(s) => window.__ideaTerminalTail(s, 3)", session)
    assert "[process exited with code 7]" in screen, screen
    cell.screenshot(path=str(tmp_path / "ended.png"))
