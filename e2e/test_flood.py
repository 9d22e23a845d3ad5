"""A flood in one cell (`yes`) never freezes the window or the other cells; Ctrl-C stops it
(SPEC §5 flow control). Paste goes to the PTY like typed text."""

from __future__ import annotations

from pathlib import Path

from e2e.ui import cell_menu, cells, open_shell, terminal_text, type_in, wait_for, wait_terminal


def test_flood_in_one_cell_keeps_the_other_responsive(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    flood = open_shell(page, cells(page).nth(0))
    quiet = open_shell(page, cells(page).nth(1))
    type_in(page, cells(page).nth(0), "yes flood-line\n")
    wait_terminal(page, flood, "flood-line\nflood-line")

    type_in(page, cells(page).nth(1), "echo quiet-$((20+3))\n")
    wait_terminal(page, quiet, "quiet-23")

    cells(page).nth(0).locator('[data-testid="terminal"]').click()
    page.keyboard.press("Control+C")
    type_in(page, cells(page).nth(0), "echo stopped-$((5+5))\n")
    wait_terminal(page, flood, "stopped-10", timeout_s=30)


def test_paste_reaches_the_shell(launch, tmp_path: Path) -> None:
    app = launch(project=tmp_path / "proj")
    page = app.page
    session = open_shell(page, cells(page).first)
    cells(page).first.locator('[data-testid="terminal"]').click()
    page.evaluate(
        """(text) => {
            const area = document.querySelector('[data-testid="terminal"] textarea');
            const data = new DataTransfer();
            data.setData('text/plain', text);
            area.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true,
                                                            cancelable: true}));
        }""",
        "echo pasted-$((3*3))",
    )
    page.keyboard.press("Enter")
    wait_terminal(page, session, "pasted-9")
    assert "pasted-9" in terminal_text(page, session)
