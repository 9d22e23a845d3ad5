"""Small user-level helpers for e2e tests: find cells, open shells, type, read terminals."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page


def cells(page: Page) -> Locator:
    return page.locator('[data-testid="cell"]')


def session_in_cell(page: Page, index: int = 0) -> str | None:
    """The session id of cell `index`'s terminal, or None when it holds none (or there is no
    such cell). Read in one step in the page: a count then a `get_attribute` raced a cell
    closing in between (CI), the attribute read then waiting 30 s for a terminal gone."""
    found: str | None = cells(page).evaluate_all(
        "(els, i) => { const t = els[i]?.querySelectorAll('[data-testid=\"terminal\"]');"
        " return t && t.length === 1 ? t[0].getAttribute('data-session-id') : null; }", index)
    return found


def wait_for(predicate: Callable[[], Any], timeout_s: float = 20, what: str = "condition") -> Any:
    """Poll ``predicate`` until truthy; returns its value or raises ``AssertionError``."""
    deadline = time.monotonic() + timeout_s
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
        except Exception as exc:  # noqa: BLE001 - keep polling through transient DOM states
            last = exc
        else:
            if last:
                return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; last value: {last!r}")


def cell_menu(cell: Locator, testid: str) -> None:
    """Click a cell's menu action by its ``data-testid`` (opening the menu first if needed)."""
    action = cell.locator(f'[data-testid="{testid}"]')
    if not action.is_visible():
        cell.locator('[data-testid="cell-menu"]').first.click()
    action.first.click()


def open_shell(page: Page, cell: Locator) -> str:
    """Open a plain shell in ``cell``; returns its session id once the terminal is mounted."""
    cell_menu(cell, "open-shell")
    term = cell.locator('[data-testid="terminal"]')
    term.wait_for(timeout=20_000)
    session = wait_for(lambda: term.get_attribute("data-session-id"), what="session id")
    return str(session)


def terminal_text(page: Page, session_id: str) -> str:
    return str(page.evaluate("(s) => window.__ideaTerminalText(s)", session_id))


def wait_terminal(page: Page, session_id: str, needle: str, timeout_s: float = 20) -> str:
    """Wait until the rendered terminal text contains ``needle``; the text is in the error."""
    try:
        return str(wait_for(lambda: needle in (t := terminal_text(page, session_id)) and t,
                            timeout_s, f"{needle!r} in terminal {session_id}"))
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- terminal text ---\n{terminal_text(page, session_id)}") from None


def type_in(page: Page, cell: Locator, text: str) -> None:
    """Focus the cell's terminal and type like a user (keyboard events into xterm.js)."""
    cell.locator('[data-testid="terminal"]').click()
    page.keyboard.type(text)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def leaf_nodes(tree: dict[str, Any]) -> list[dict[str, Any]]:
    """All leaf payloads of a layouts.json tree root, depth first."""
    kind, node = tree["type"], tree["node"]
    if kind == "leaf":
        return [node]
    if kind == "split":
        return [leaf for child in node["children"] for leaf in leaf_nodes(child["node"])]
    return [leaf for cell in node["cells"] for leaf in leaf_nodes(cell["node"])]


def active_root(project: Path) -> dict[str, Any]:
    doc = read_json(project / ".ideai" / "layouts.json")
    layout = next(item for item in doc["layouts"] if item["id"] == doc["activeId"])
    return dict(layout["tree"]["root"])
