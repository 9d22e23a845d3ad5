"""UI polish on the real window: the keyboard focus follows "Open shell", "Launch agent" and
splits, and comes back to the focused cell's terminal after closing a cell, an undo, the
palette, Settings and a tab switch; the New agent form takes it in Name and Escape closes it
(asking "Close without saving?" first when something was typed);
"Profiles…" reopens the wizard on the saved profiles; a narrow cell keeps its header
inside its box and a splitter drag stops at the minimum cell width; a narrow agent cell keeps
its name and its ⋯ menu in view, its buttons giving way first; an agent card's hover actions
leave its name in view; a small empty cell's buttons stack in a tidy column."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import FloatRect, Locator, Page

from e2e.test_agents import create_agent, launch_in, session_of
from e2e.test_grid_layouts import layout_menu
from e2e.test_projects import submit_folder
from e2e.ui import cell_menu, cells, open_shell, read_json, type_in, wait_for, wait_terminal

FOCUSED_SESSION = """() => document.activeElement?.closest('.xterm')
    ?.closest('[data-testid="terminal"]')?.dataset.sessionId ?? null"""


NAME_CUT = """(el) => {
    const text = document.createRange();
    text.selectNodeContents(el);
    return text.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.01;
}"""
"""Whether an element's text is wider than its box (ellipsed, even by a fraction of a pixel)."""


def focused_session(page: Page) -> str | None:
    """Session id of the terminal whose xterm holds the keyboard focus, else None."""
    value = page.evaluate(FOCUSED_SESSION)
    return None if value is None else str(value)


def focus_inside(cell: Locator) -> bool:
    return bool(cell.evaluate("(el) => el.contains(document.activeElement)"))


FOCUSED_CELL_TERMINAL = """() => {
    const el = document.activeElement;
    const cell = el?.closest('[data-testid="cell"]');
    if (!cell?.classList.contains('focused') || !el.closest('.xterm')) return null;
    return el.closest('[data-testid="terminal"]')?.dataset.sessionId ?? null;
}"""


def keys_reach(page: Page, session: str, what: str, word: str) -> None:
    """The terminal of the cell outlined as focused holds the keyboard (document.activeElement),
    and what is typed now, without clicking anything, reaches it."""
    wait_for(lambda: page.evaluate(FOCUSED_CELL_TERMINAL) == session,
             what=f"focus back in {session} after {what}")
    page.keyboard.type(f"echo {word}-$((20+1))\n")
    wait_terminal(page, session, f"{word}-21")


def test_open_shell_split_and_agent_launch_take_the_keyboard_focus(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page

    # Open shell: typing goes to the new terminal without clicking it.
    cells(page).first.locator('[data-testid="open-shell"]').click()
    shell = session_of(page, 0)
    wait_for(lambda: focused_session(page) == shell, what="focus in the new shell")
    page.keyboard.type("PS1='$ '; echo typed-$((40+2))\n")
    wait_terminal(page, shell, "typed-42")

    # Split from the keyboard: the new (empty) cell takes the focus; Enter opens its shell,
    # which takes the focus in turn. No mouse involved.
    page.keyboard.press("Control+Shift+D")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    wait_for(lambda: focus_inside(cells(page).nth(1)), what="focus in the new cell")
    assert "focused" in (cells(page).nth(1).get_attribute("class") or "")
    page.keyboard.press("Enter")
    second = session_of(page, 1)
    assert second != shell
    wait_for(lambda: focused_session(page) == second, what="focus in the second shell")
    page.keyboard.type("echo second-$((1+1))\n")
    wait_terminal(page, second, "second-2")
    assert "second-2" not in page.evaluate("(s) => window.__ideaTerminalText(s)", shell)

    # Launch agent (from the cell menu's picker): its terminal takes the focus.
    create_agent(page, "Helper", "Shell", "You help.")
    page.keyboard.press("Control+Shift+E")  # split down from the focused cell (it has no terminal focus now)
    wait_for(lambda: cells(page).count() == 3, what="3 cells")
    empty = next(i for i in range(3) if cells(page).nth(i).locator('[data-testid="terminal"]').count() == 0)
    launch_in(page, empty, "Helper")
    agent = session_of(page, empty)
    wait_for(lambda: focused_session(page) == agent, what="focus in the launched agent")
    page.keyboard.type("echo agent-$((3+3))\n")
    wait_terminal(page, agent, "agent-6")


def test_the_keyboard_comes_back_to_the_focused_cell_after_commands(launch, tmp_path: Path) -> None:
    """A trial found the cell still outlined while document.activeElement was <body> after these
    commands: typing went nowhere."""
    app = launch(project=tmp_path / "proj")
    page = app.page
    cells(page).first.locator('[data-testid="open-shell"]').click()
    shell = session_of(page, 0)
    wait_for(lambda: focused_session(page) == shell, what="focus in the shell")
    page.keyboard.type("PS1='$ '\n")

    # Ctrl+Shift+W closes the second cell's shell: the first cell's terminal has the keys.
    page.keyboard.press("Control+Shift+D")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    wait_for(lambda: focus_inside(cells(page).nth(1)), what="focus in the new cell")
    page.keyboard.press("Enter")
    second = session_of(page, 1)
    wait_for(lambda: focused_session(page) == second, what="focus in the second shell")
    page.keyboard.press("Control+Shift+W")
    wait_for(lambda: cells(page).count() == 1, what="1 cell")
    keys_reach(page, shell, "Ctrl+Shift+W", "closed")

    # Ctrl+Alt+Z undoes a split made from the keyboard.
    page.keyboard.press("Control+Shift+E")
    wait_for(lambda: cells(page).count() == 2, what="2 cells again")
    wait_for(lambda: focus_inside(cells(page).nth(1)), what="focus in the new cell")
    page.keyboard.press("Control+Alt+Z")
    wait_for(lambda: cells(page).count() == 1, what="the split undone")
    keys_reach(page, shell, "Ctrl+Alt+Z", "undone")

    # Escape in the command palette, then in Settings.
    page.keyboard.press("Control+Shift+P")
    page.locator('[data-testid="palette-input"]').wait_for()
    page.keyboard.press("Escape")
    page.locator('[data-testid="command-palette"]').wait_for(state="detached")
    keys_reach(page, shell, "Escape in the palette", "palette")
    page.keyboard.press("Control+Comma")
    page.locator('[data-testid="settings-font-size"]').wait_for()
    page.keyboard.press("Escape")
    page.locator('[data-testid="settings-dialog"]').wait_for(state="detached")
    keys_reach(page, shell, "Escape in Settings", "settings")

    # A second project tab: Ctrl+Tab and Ctrl+PgDn give each tab's focused cell the keys.
    page.locator('[data-testid="tab-home"]').click()
    submit_folder(page, "new-project", tmp_path / "other")
    page.locator('[data-testid="tab-other"]').wait_for()
    other_layout = page.locator('[data-testid="project-layout"]:visible')
    other_layout.locator('[data-testid="open-shell"]').click()
    other_terminal = other_layout.locator('[data-testid="terminal"]')
    other_terminal.wait_for()
    other = str(wait_for(lambda: other_terminal.get_attribute("data-session-id"), what="other session"))
    wait_for(lambda: focused_session(page) == other, what="focus in the other project's shell")
    page.keyboard.press("Control+Tab")
    keys_reach(page, shell, "Ctrl+Tab", "tabbed")
    page.keyboard.press("Control+PageDown")
    keys_reach(page, other, "Ctrl+PgDn", "paged")

    # New agent: the Name field takes the keys; Escape closes the form, back on +.
    plus = page.locator('[data-testid="new-agent"]')
    plus.click()
    form = page.locator('[data-testid="agent-form"]')
    form.wait_for()
    wait_for(lambda: page.evaluate("() => document.activeElement?.id") == "agent-name", what="focus in Name")
    page.keyboard.type("Draft")
    # Something typed: Escape asks first; Escape again keeps editing; Discard changes closes.
    page.keyboard.press("Escape")
    question = form.locator('[data-testid="agent-form-confirm-close"]')
    question.wait_for()
    assert "Close without saving?" in question.inner_text()
    page.keyboard.press("Escape")
    question.wait_for(state="detached")
    assert form.locator('[name="name"]').input_value() == "Draft"
    page.keyboard.press("Escape")
    form.locator('[data-testid="agent-form-discard"]').click()
    form.wait_for(state="detached")
    assert plus.evaluate("(el) => el === document.activeElement")


def test_profiles_reopen_with_the_saved_profiles(launch, tmp_path: Path) -> None:
    data = tmp_path / "data"
    project = tmp_path / "proj"
    app = launch(first_run=True, data_dir=data, project=project)
    page = app.page
    wizard = page.locator('[data-testid="wizard"]')
    wizard.wait_for()
    wizard.locator('input[name="shell"]').wait_for()
    assert wizard.get_attribute("data-mode") == "first-run"
    assert wizard.locator('[data-testid="wizard-cancel"]').count() == 0
    # First run: Claude Code and Shell ticked (both found), save.
    assert wizard.locator('input[name="claude-code"]').is_checked()
    wizard.locator('button[type="submit"]').click()
    wizard.wait_for(state="detached")

    create_agent(page, "Architect", "Claude Code", "You decide boundaries.")

    # Profiles…: the saved profiles are ticked, detection results shown.
    page.locator('[data-testid="open-profiles"]').click()
    wizard.wait_for()
    assert wizard.get_attribute("data-mode") == "manage"
    wizard.locator('input[name="shell"]').wait_for()
    saved = {p["id"] for p in read_json(data / "profiles.json")["profiles"]}
    for box in wizard.locator('input[type="checkbox"]').all():
        assert box.is_checked() == (box.get_attribute("name") in saved), box.get_attribute("name")
    claude = page.locator('[data-testid="detect-claude-code"]')
    assert "installed" in claude.inner_text()
    assert "not" in page.locator('[data-testid="detect-aider"]').inner_text().lower()

    # Nothing ticked: Save stays disabled.
    for box in wizard.locator('input[type="checkbox"]').all():
        if box.is_checked():
            box.uncheck()
    assert wizard.locator('button[type="submit"]').is_disabled()

    # Shell + Gemini CLI, without Claude Code: saved, and the agent on Claude Code shows a warning.
    wizard.locator('input[name="shell"]').check()
    wizard.locator('input[name="gemini-cli"]').check()
    wizard.locator('button[type="submit"]').click()
    wizard.wait_for(state="detached")
    ids = [p["id"] for p in read_json(data / "profiles.json")["profiles"]]
    assert sorted(ids) == ["gemini-cli", "shell"]
    architect = page.locator('[data-testid="agent-item"]:has-text("Architect")')
    missing = architect.locator('[data-testid="agent-profile-missing"]')
    missing.wait_for()
    assert "claude-code" in missing.inner_text()

    # Cancel closes without saving (a tick changed: after "Close without saving?").
    page.locator('[data-testid="open-profiles"]').click()
    wizard.wait_for()
    assert wizard.locator('input[name="aider"]').is_disabled()  # not installed: not tickable
    wizard.locator('input[name="codex-cli"]').check()
    wizard.locator('[data-testid="wizard-cancel"]').click()
    wizard.locator('[data-testid="wizard-confirm-close"]').wait_for()
    wizard.locator('[data-testid="wizard-discard"]').click()
    wizard.wait_for(state="detached")
    assert sorted(p["id"] for p in read_json(data / "profiles.json")["profiles"]) == ["gemini-cli", "shell"]


def test_narrow_cells_keep_their_header_inside_and_splitters_clamp(launch, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    app = launch(project=project)
    page = app.page
    cell = cells(page).first
    cell.locator('[data-testid="split-row"]').click()
    wait_for(lambda: cells(page).count() == 2, what="2 cells")

    # Drag the splitter far to the right: the right cell stops at ~120 px.
    splitter = page.locator('[data-testid="splitter"]').first
    box = splitter.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 50)
    page.mouse.down()
    page.mouse.move(box["x"] + 5000, box["y"] + 50, steps=5)
    page.mouse.up()
    right = cells(page).nth(1)

    def right_width() -> float:
        box = right.bounding_box()
        return box["width"] if box else 0.0

    wait_for(lambda: 0 < right_width() < 200, what="narrow right cell")
    width = right_width()
    assert 110 <= width <= 130, width

    # Its header controls collapsed into the ⋯ menu and nothing spills out of the cell.
    assert right.locator('[data-testid="split-row"]').count() == 0
    assert right.locator('[data-testid="close-cell"]').count() == 0
    cell_box = right.bounding_box()
    menu_button = right.locator('[data-testid="cell-menu"]').bounding_box()
    assert cell_box is not None and menu_button is not None
    assert menu_button["x"] + menu_button["width"] <= cell_box["x"] + cell_box["width"] + 0.5
    header_overflows = right.locator(".cell-header").evaluate("(h) => h.scrollWidth > h.clientWidth + 1")
    assert not header_overflows

    # The ⋯ menu is whole (inside the window) and still closes the cell.
    right.locator('[data-testid="cell-menu"]').click()
    menu = right.locator('[role="menu"]')
    menu.wait_for()
    menu_box = menu.bounding_box()
    viewport = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    assert menu_box is not None and menu_box["x"] >= 0
    assert menu_box["x"] + menu_box["width"] <= viewport[0]
    menu.locator('button:has-text("Close cell")').click()
    wait_for(lambda: cells(page).count() == 1, what="1 cell")


def test_a_narrow_agent_cell_keeps_its_name_and_tools_in_view(launch, tmp_path: Path) -> None:
    # Trial findings: in a 246 px cell an agent's badges pushed its name to 0 px and its ⋯ and
    # close buttons out of the cell, where nothing could click them; later, a ~170 px cell still
    # lost the name (the activity badge's word took its room: it is a dot in a narrow cell).
    app = launch(project=tmp_path / "proj")
    page = app.page
    create_agent(page, "Reviewer Bot", "Shell", "You review.")
    cells(page).first.locator('[data-testid="split-row"]').click()
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    right = cells(page).nth(1)
    splitter = page.locator('[data-testid="splitter"]').first

    def narrow_to(width: int) -> None:
        box, handle = right.bounding_box(), splitter.bounding_box()
        assert box is not None and handle is not None
        page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + 50)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] - width, handle["y"] + 50, steps=5)
        page.mouse.up()
        wait_for(lambda: abs((right.bounding_box() or {"width": 0})["width"] - width) < 15,
                 what=f"a ~{width} px cell")

    def name_and_tools_in_view(least_name_px: int, maximize: bool = True) -> None:
        cell_box = right.bounding_box()
        title = right.locator(".cell-header .title").bounding_box()
        assert cell_box is not None and title is not None
        assert title["width"] >= least_name_px, f"the agent's name is {title['width']} px wide"
        for tool in ("cell-menu", "maximize-cell") if maximize else ("cell-menu",):
            b = right.locator(f'[data-testid="{tool}"]').bounding_box()
            assert b is not None and b["x"] + b["width"] <= cell_box["x"] + cell_box["width"] + 0.5, \
                tool
        assert not right.locator(".cell-header").evaluate(
            "(h) => h.scrollWidth > h.clientWidth + 1")

    narrow_to(246)
    launch_in(page, 1, "Reviewer Bot")
    session = session_of(page, 1)
    type_in(page, right, "echo up-$((6*7))\n")
    wait_terminal(page, session, "up-42")
    activity = right.locator('[data-testid="cell-activity"]')
    activity.wait_for()
    name_and_tools_in_view(60)
    narrow_to(170)
    # the maximise button gave way to the name (it is in the ⋯ menu, below), which is whole
    name_and_tools_in_view(40, maximize=False)
    assert right.locator('[data-testid="maximize-cell"]').count() == 0
    assert not right.locator(".cell-header .title").evaluate(NAME_CUT)
    # a dot now, its word kept for a screen reader
    assert activity.get_attribute("aria-label") == {"starting": "starting", "idle": "idle"}.get(
        activity.get_attribute("data-activity") or "")
    right.locator('[data-testid="cell-menu"]').click()
    right.locator('[role="menu"] button:has-text("Close cell")').wait_for()
    right.locator('[role="menu"] [data-testid="menu-maximize"]').wait_for()


def overlaps(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_an_agent_cards_actions_leave_its_name_in_view(launch, tmp_path: Path) -> None:
    # Trial finding: the action bar shown on a hovered card (send task … delete) sat over the
    # card's top right, on the end of its name: "Alph", "Review".
    page = launch(project=tmp_path / "proj").page
    for name in ("Reviewer Bot Extraordinaire", "Alpha", "Documentation Writer"):
        create_agent(page, name, "Shell", "You help.")
    launch_in(page, 0, "Alpha")  # running: its bar has a Stop button too, nine in all
    session_of(page, 0)
    cards = page.locator('[data-testid="agent-item"]')
    alpha = page.locator('[data-testid="agent-item"]:has-text("Alpha")')
    alpha.locator('[data-testid="stop-agent"]').wait_for(state="attached")
    panel = page.locator('[data-testid="agents-panel"]').bounding_box()
    assert panel is not None
    page.mouse.move(5, 5)

    def card_boxes() -> list[FloatRect | None]:
        return [cards.nth(i).bounding_box() for i in range(cards.count())]

    def shown(card: Locator) -> Locator:
        actions = card.locator(".actions")
        wait_for(lambda: actions.evaluate("(e) => getComputedStyle(e).opacity") == "1",
                 what="the card's actions shown")
        return actions

    def leaves_names_in_view(index: int) -> None:
        bar = cards.nth(index).locator(".actions").bounding_box()
        assert bar is not None
        assert panel["x"] <= bar["x"] and bar["x"] + bar["width"] <= panel["x"] + panel["width"] + 0.5
        # its own card's name and activity, and the next card's
        for i in (index, index + 1):
            if i < cards.count():
                for part in (".name", '[data-testid="agent-activity"]'):
                    assert not overlaps(bar, cards.nth(i).locator(part).bounding_box()), (index, i, part)

    still = card_boxes()
    for index in range(cards.count()):
        box = cards.nth(index).bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 30, box["y"] + box["height"] / 2)
        shown(cards.nth(index))
        leaves_names_in_view(index)
        assert card_boxes() == still, "the list moved under the mouse"

    # From the keyboard (Tab into the first card's buttons) they show the same way.
    page.mouse.move(5, 5)
    page.locator('[data-testid="open-project-permissions"]').focus()
    page.keyboard.press("Tab")
    assert cards.first.locator('[data-testid="send-task"]').evaluate("(b) => b === document.activeElement")
    shown(cards.first)
    leaves_names_in_view(0)
    # and they still work
    page.keyboard.press("Enter")
    page.locator('[data-testid="send-dialog"]').wait_for()


def grid_column_to(page: Page, width: float) -> None:
    """Drags the first column boundary of the grid so that its left column is ``width`` px wide
    (the grid keeps every cell at least 120 px)."""
    handle = page.locator('[data-testid="grid-splitter"][data-axis="col"]').first
    left, box = cells(page).first.bounding_box(), handle.bounding_box()
    assert left is not None and box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(left["x"] + width, box["y"] + 100, steps=6)
    page.mouse.up()
    wait_for(lambda: abs((cells(page).first.bounding_box() or {"width": 0})["width"]
                         - max(width, 120)) < 8, what=f"a ~{width} px column")


def test_narrow_grid_cells_keep_the_agents_name_before_their_buttons(launch, tmp_path: Path) -> None:
    # Trial finding: "narrow cells lose the agent's name": in a 2 × 2 grid a ~150 px cell read
    # "AL…" for Alpha while its sandbox badge and maximise button kept their room, and a
    # ~120 px cell showed nothing of "Reviewer Bot Extraordinaire".
    page = launch(project=tmp_path / "proj").page
    create_agent(page, "Alpha", "Shell", "You code.")
    create_agent(page, "Reviewer Bot Extraordinaire", "Shell", "You review.")
    layout_menu(page, "preset-2x2")
    wait_for(lambda: cells(page).count() == 4, what="4 cells")
    launch_in(page, 0, "Alpha")
    session_of(page, 0)
    launch_in(page, 2, "Reviewer Bot Extraordinaire")  # below Alpha: the same column
    session_of(page, 2)
    alpha, reviewer = cells(page).nth(0), cells(page).nth(2)
    for cell in (alpha, reviewer):
        cell.locator('[data-testid="cell-sandbox"]').wait_for()

    def header(cell: Locator) -> dict[str, object]:
        box = cell.bounding_box()
        menu = cell.locator('[data-testid="cell-menu"]').bounding_box()
        title = cell.locator(".cell-header .title")
        assert box is not None and menu is not None
        assert menu["x"] + menu["width"] <= box["x"] + box["width"] + 0.5, "⋯ out of the cell"
        assert not cell.locator(".cell-header").evaluate("(h) => h.scrollWidth > h.clientWidth + 1")
        return {"cut": title.evaluate(NAME_CUT), "name_px": (title.bounding_box() or {"width": 0})["width"],
                "maximize": cell.locator('[data-testid="maximize-cell"]').count(),
                "sandbox": cell.locator('[data-testid="cell-sandbox"]').count()}

    grid_column_to(page, 260)
    roomy = header(alpha)
    assert (roomy["cut"], roomy["maximize"], roomy["sandbox"]) == (False, 1, 1), roomy
    # ~150 px: the buttons give way, "ALPHA" stays whole
    grid_column_to(page, 150)
    assert header(alpha)["cut"] is False
    # the narrowest cell: Alpha whole; the long name cut only once both gave way, still readable
    grid_column_to(page, 100)
    assert header(alpha)["cut"] is False
    long = header(reviewer)
    assert long["cut"] is True and long["maximize"] == 0 and long["sandbox"] == 0, long
    assert float(str(long["name_px"])) >= 45, long
    # what gave way is in the ⋯ menu
    reviewer.locator('[data-testid="cell-menu"]').click()
    reviewer.locator('[role="menu"] [data-testid="menu-maximize"]').wait_for()
    reviewer.locator('[role="menu"] [data-testid="menu-permissions"]').wait_for()
    page.keyboard.press("Escape")
    # wide again: everything comes back (a name this long is ellipsed by a wide cell's tools)
    grid_column_to(page, 420)
    for cell in (alpha, reviewer):
        wide = header(cell)
        assert (wide["maximize"], wide["sandbox"]) == (1, 1), wide
        assert cell.locator('[data-testid="split-row"]').count() == 1
    assert header(alpha)["cut"] is False


def test_a_small_empty_cells_buttons_stack_in_a_tidy_column(launch, tmp_path: Path) -> None:
    # Trial finding: in a small cell "Open shell" and "Launch agent…" wrapped into two rows
    # spread apart (a quarter and three quarters down the cell); in a short one the second was
    # cut off.
    page = launch(project=tmp_path / "proj").page
    layout_menu(page, "preset-2x2")
    wait_for(lambda: cells(page).count() == 4, what="4 cells")
    open_shell(page, cells(page).nth(3))
    cell_menu(cells(page).nth(3), "clear-cell")  # detached: empty cells offer "Show bash 1"
    cell = cells(page).first
    buttons = cell.locator(".cell-body button")
    wait_for(lambda: buttons.count() == 3, what="Open shell, Launch agent…, Show bash 1")
    page.mouse.move(5, 5)

    def boxes() -> list[FloatRect]:
        found = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
        assert all(b is not None for b in found)
        return [b for b in found if b is not None]

    grid_column_to(page, 420)
    row = boxes()
    assert len({round(b["y"]) for b in row}) == 1, "one row in a wide cell"
    line_px = row[0]["height"]

    for width in (150, 100):
        grid_column_to(page, width)
        body = cell.locator(".cell-body").bounding_box()
        column = boxes()
        assert body is not None
        assert len({round(b["x"]) for b in column}) == 1, "one left edge"
        assert len({round(b["width"]) for b in column}) == 1, "one width"
        for b in column:
            assert abs(b["height"] - line_px) < 1, "a label on one line"
            assert body["x"] <= b["x"] and b["x"] + b["width"] <= body["x"] + body["width"] + 0.5
        for above, below in zip(column, column[1:], strict=False):
            assert 0 <= below["y"] - (above["y"] + above["height"]) <= 10, "rows side by side"
        middle = (column[0]["y"] + column[-1]["y"] + column[-1]["height"]) / 2
        assert abs(middle - (body["y"] + body["height"] / 2)) <= 2, "centred in the cell"

    # A cell too short for them: they start at its top and scroll, none cut off for good.
    handle = page.locator('[data-testid="grid-splitter"][data-axis="row"]').first
    top, box = cell.bounding_box(), handle.bounding_box()
    assert top is not None and box is not None
    page.mouse.move(box["x"] + 30, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, top["y"] + 60, steps=6)
    page.mouse.up()
    wait_for(lambda: (cell.bounding_box() or {"height": 999})["height"] < 100, what="a short cell")
    body = cell.locator(".cell-body").bounding_box()
    assert body is not None
    assert boxes()[0]["y"] >= body["y"]
    cell.locator(".empty").evaluate("(e) => { e.scrollTop = e.scrollHeight; }")
    last = boxes()[-1]
    assert last["y"] + last["height"] <= body["y"] + body["height"] + 0.5, "the last one reachable"


def test_a_narrow_side_panel_keeps_the_sessions_buttons_inside(launch, tmp_path: Path) -> None:
    # Trial finding: at the side panel's 160 px minimum, a session's "Move to focused cell"
    # overflowed the panel (a horizontal scrollbar under the list).
    page = launch(project=tmp_path / "proj").page
    open_shell(page, cells(page).first)
    cell_menu(cells(page).first, "split-row")  # the new cell takes the focus
    wait_for(lambda: cells(page).count() == 2, what="two cells")
    cells(page).nth(1).click()
    move = page.locator('[data-testid="session-open-here"]')
    move.wait_for()
    resizer = page.locator('[data-testid="side-panel-resizer"]')
    resizer.focus()
    page.keyboard.press("End")  # the narrowest the panel goes
    wait_for(lambda: resizer.get_attribute("aria-valuenow") == "160", what="a 160 px panel")
    sessions = page.locator('[data-testid="sessions-panel"]')
    wait_for(lambda: sessions.evaluate("(e) => e.scrollWidth <= e.clientWidth"),
             what="no horizontal overflow in the sessions panel")
    panel, button = sessions.bounding_box(), move.bounding_box()
    assert panel is not None and button is not None
    assert button["x"] + button["width"] <= panel["x"] + panel["width"] + 0.5
    assert move.get_attribute("title") == "Move it to the focused cell"

