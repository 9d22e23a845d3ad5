"""`agents.json`, `permissions.json`, `layouts.json` and a persona edited outside IdeA while
their project is open, in the real window (SPEC §1 file watching; a trial found such edits
ignored until the project was reopened, and written over by IdeA's next save): a new agent
shows up in the panel, a new layout in the grid, a broken file is reported and left as it is,
fixing it brings the agents or the layouts back or clears the problem."""

from __future__ import annotations

import json
import time
from pathlib import Path

from e2e.test_agents import create_agent
from e2e.ui import cells, open_shell, session_in_cell, type_in, wait_for, wait_terminal


def names(page) -> list[str]:  # type: ignore[no-untyped-def]
    cards = page.locator('[data-testid="agent-item"] .name')
    return [cards.nth(i).inner_text() for i in range(cards.count())]


def test_agents_json_edited_on_disk_is_read_again(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "proj"
    page = launch(project=project).page
    create_agent(page, "Alpha", "Shell", "You write code.")
    agents = project / ".ideai" / "agents.json"
    doc = json.loads(agents.read_text())
    (project / ".ideai" / "agents" / "beta.md").write_text("# Beta\nYou review.\n")
    doc["agents"].append({"agentId": "b0b0b0b0-0000-4000-8000-000000000002", "name": "Beta",
                          "mdPath": "agents/beta.md", "profileId": "shell"})
    agents.write_text(json.dumps(doc, indent=2))
    wait_for(lambda: names(page) == ["Alpha", "Beta"], what="Beta listed from the edited file")

    broken = agents.read_text().replace('"agents"', '"agents" 1', 1)
    agents.write_text(broken)
    problem = page.locator('[data-testid="agents-problem"]')
    problem.wait_for()
    assert "agents.json" in problem.inner_text() and "left untouched" in problem.inner_text()
    assert names(page) == []
    time.sleep(1.0)
    assert agents.read_text() == broken, "IdeA wrote over the broken file"

    agents.write_text(json.dumps(doc, indent=2))
    wait_for(lambda: names(page) == ["Alpha", "Beta"], what="the agents back once fixed")
    wait_for(lambda: problem.count() == 0, what="the problem gone")


def test_a_broken_permissions_file_is_said_at_open_and_cleared_once_fixed(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Trial finding: a broken permissions.json was said only at a launch or in its editor.
    project = tmp_path / "proj"
    (project / ".ideai").mkdir(parents=True)
    permissions = project / ".ideai" / "permissions.json"
    permissions.write_text('{"version": 1, "projectDefaults": ')
    page = launch(project=project).page
    item = page.locator('[data-testid="banner-item"]').filter(has_text="permissions.json")
    item.wait_for()
    permissions.write_text('{"version": 1, "projectDefaults": {"rules": [], "fallback": "allow"}}')
    wait_for(lambda: item.count() == 0, what="the problem cleared once the file was fixed")


def test_a_persona_broken_on_disk_is_said_in_the_banner_and_cleared_if_fixed(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Trial finding: a persona card said nothing of a broken front matter until it was read.
    project = tmp_path / "proj"
    page = launch(project=project).page
    create_agent(page, "Alpha", "Shell", "You write code.")
    persona = project / ".ideai" / "agents" / "alpha.md"
    broken = "---\nipc:\n  sends_to: Beta\n---\nYou write code.\n"
    persona.write_text(broken)
    item = page.locator('[data-testid="banner-item"]').filter(has_text="alpha.md")
    item.wait_for()
    assert "ipc.sends_to: expected a list of names" in item.inner_text()
    card = page.locator('[data-testid="agent-item"]:has-text("Alpha")')
    card.locator('[data-testid="agent-ipc-error"]').wait_for()  # the card says so too
    time.sleep(1.0)
    assert persona.read_text() == broken, "IdeA wrote over the broken persona"
    persona.write_text("---\nipc:\n  sends_to: [Beta]\n---\nYou write code.\n")
    wait_for(lambda: item.count() == 0, what="the problem cleared once the persona was fixed")
    summary = card.locator('[data-testid="agent-ipc"]')
    summary.wait_for()
    assert "to: Beta" in summary.inner_text()


def test_a_persona_edited_on_disk_while_its_form_is_open_is_not_written_over(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The agent form read the persona once; saving wrote the form's text over whatever an editor
    # or another agent had written to the .md since.
    project = tmp_path / "proj"
    page = launch(project=project).page
    create_agent(page, "Alpha", "Shell", "You write code.")
    persona = project / ".ideai" / "agents" / "alpha.md"
    card = page.locator('[data-testid="agent-item"]:has-text("Alpha")')
    card.hover()  # the card's buttons show on hover
    card.locator('[data-testid="edit-agent"]').click()
    form = page.locator('[data-testid="agent-form"]')
    box = form.locator('[name="persona"]')
    wait_for(lambda: box.input_value() == "You write code.", what="the persona in the form")
    persona.write_text("# Alpha\nYou write code, and tests.\n")

    box.fill("You write docs.")
    form.locator('[data-testid="agent-save"]').click()
    conflict = form.locator('[data-testid="persona-conflict"]')
    conflict.wait_for()
    assert "agents/alpha.md changed on disk" in conflict.inner_text()
    assert persona.read_text() == "# Alpha\nYou write code, and tests.\n"
    assert box.input_value() == "You write docs."

    form.locator('[data-testid="persona-take-disk"]').click()
    assert box.input_value() == "# Alpha\nYou write code, and tests.\n"
    box.fill("# Alpha\nYou write code, tests and docs.\n")
    form.locator('[data-testid="agent-save"]').click()
    form.wait_for(state="detached")
    assert persona.read_text() == "# Alpha\nYou write code, tests and docs.\n"


def test_layouts_json_edited_on_disk_is_taken_and_its_shell_keeps_running(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "proj"
    page = launch(project=project).page
    shell = open_shell(page, cells(page).first)
    type_in(page, cells(page).first, "echo before-$((2*3))\n")
    wait_terminal(page, shell, "before-6")
    layouts = project / ".ideai" / "layouts.json"
    doc = json.loads(layouts.read_text())
    active = next(lay for lay in doc["layouts"] if lay["id"] == doc["activeId"])
    shown = active["tree"]["root"]
    active["tree"]["root"] = {"type": "split", "node": {"id": "disk-split", "direction": "row",
                              "children": [{"node": shown, "weight": 1},
                                           {"node": {"type": "leaf", "node": {"id": "disk-b"}},
                                            "weight": 2}]}}
    layouts.write_text(json.dumps(doc, indent=2))
    wait_for(lambda: cells(page).count() == 2, what="the split from the file in the grid")
    assert session_in_cell(page, 0) == shell
    type_in(page, cells(page).first, "echo after-$((3*3))\n")  # the same shell, still running
    wait_terminal(page, shell, "after-9")

    broken = layouts.read_text().replace('"layouts"', '"layouts" 1', 1)
    layouts.write_text(broken)
    item = page.locator('[data-testid="banner-item"]').filter(has_text="layouts.json")
    item.wait_for()
    assert cells(page).count() == 2  # the grid keeps what it shows
    cells(page).nth(1).locator('[data-testid="split-column"]').click()
    wait_for(lambda: cells(page).count() == 3, what="an edit while the file is broken")
    time.sleep(1.0)
    assert layouts.read_text() == broken, "IdeA wrote over the broken file"

    layouts.write_text(json.dumps(doc, indent=2))
    wait_for(lambda: item.count() == 0, what="the problem cleared once the file was fixed")
    wait_for(lambda: cells(page).count() == 2, what="the fixed file's layout in the grid")
    assert session_in_cell(page, 0) == shell
