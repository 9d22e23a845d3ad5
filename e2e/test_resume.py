"""Resume after a restart on the real window (issue 10 item 7): two agents running in two cells,
IdeA quits and starts again on the project → the resume panel lists both → Resume all relaunches
each in its own cell with its own CLI session id (a fake CLI records its argv), never
`--continue`. The ids are the ones `providers.json` keeps per (conversation, profile), as the
vendor hooks write them for the real CLIs (tests/integration/test_claude_hooks*.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from app.core.domain.conversation import conversation_id
from app.core.domain.profiles import builtin_profiles
from e2e.test_agents import create_agent, launch_in, session_of
from e2e.ui import cell_menu, cells, read_json, wait_for, wait_terminal

FAKE_CLI = """#!{python}
import json, os, sys
with open({log!r}, "a") as out:
    out.write(json.dumps({{"argv": sys.argv[1:], "agent": os.environ.get("IDEA_AGENT_ID"),
                          "cwd": os.getcwd()}}) + "\\n")
print("fake-cli ready, argv:", " ".join(sys.argv[1:]), flush=True)
for line in sys.stdin:
    print("got:", line.strip(), flush=True)
"""


def fake_cli(folder: Path, log: Path) -> Path:
    """An executable CLI that appends `{argv, agent, cwd}` to `log` and then echoes its input."""
    exe = folder / "fakecli"
    exe.write_text(FAKE_CLI.format(python=sys.executable, log=str(log)))
    os.chmod(exe, 0o755)
    return exe


def write_profiles(data: Path, exe: Path) -> None:
    fake = {"id": "fake-cli", "name": "Fake CLI", "command": str(exe), "args": [],
            "contextInjection": {"strategy": "conventionFile", "target": "AGENTS.md"},
            "session": {"resumeFlag": "--resume"}}
    shell = next(p for p in builtin_profiles() if p.id == "shell")
    data.mkdir(parents=True, exist_ok=True)
    (data / "profiles.json").write_text(json.dumps(
        {"version": 1, "profiles": [shell.to_json(), fake]}))


def calls(log: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def test_quit_restart_resume_each_agent_in_its_own_cell_with_its_own_id(
        launch, tmp_path: Path) -> None:
    data, project, log = tmp_path / "data", tmp_path / "proj", tmp_path / "argv.log"
    write_profiles(data, fake_cli(tmp_path, log))
    app = launch(project=project, data_dir=data)
    page = app.page
    create_agent(page, "Alpha", "Fake CLI", "You write code.")
    create_agent(page, "Beta", "Fake CLI", "You review code.")
    cell_menu(cells(page).first, "split-row")
    wait_for(lambda: cells(page).count() == 2, what="2 cells")
    launch_in(page, 0, "Alpha")
    wait_terminal(page, session_of(page, 0), "fake-cli ready")
    launch_in(page, 1, "Beta")
    wait_terminal(page, session_of(page, 1), "fake-cli ready")
    agents = {a["name"]: a["agentId"] for a in read_json(project / ".ideai" / "agents.json")["agents"]}
    assert [c["argv"] for c in calls(log)] == [[], []]

    # What the vendor hooks keep: each pair's own CLI session id, per profile.
    for name, engine in (("Alpha", "sess-alpha"), ("Beta", "sess-beta")):
        folder = project / ".ideai" / "conversations" / conversation_id(None, agents[name])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "providers.json").write_text(json.dumps({"fake-cli": engine}))
    cell_of = {leaf["agent"]: leaf["id"] for leaf in _leaves(project) if leaf.get("agent")}

    app.stop()
    app = launch(project=project, data_dir=data)
    page = app.page
    panel = page.locator('[data-testid="resume-panel"]')
    panel.wait_for(timeout=20_000)
    rows = panel.locator('[data-testid="resume-row"]')
    wait_for(lambda: rows.count() == 2, what="2 resumable agents")
    listed = {rows.nth(i).get_attribute("data-agent-id"): rows.nth(i) for i in range(2)}
    assert set(listed) == {agents["Alpha"], agents["Beta"]}
    assert "sess-alpha" in listed[agents["Alpha"]].inner_text()
    assert "sess-beta" in listed[agents["Beta"]].inner_text()
    assert listed[agents["Alpha"]].get_attribute("data-node-id") == cell_of[agents["Alpha"]]

    panel.locator('[data-testid="resume-all"]').click()
    wait_for(lambda: len(calls(log)) == 4, what="both agents relaunched")
    resumed = {c["agent"]: c["argv"] for c in calls(log)[2:]}
    assert resumed == {agents["Alpha"]: ["--resume", "sess-alpha"],
                       agents["Beta"]: ["--resume", "sess-beta"]}
    for row in (rows.nth(0), rows.nth(1)):
        wait_for(lambda row=row: row.get_attribute("data-state") == "resumed", what="resumed")

    # Each in its own cell, as before the restart, with a live terminal.
    now = {leaf["agent"]: leaf for leaf in _leaves(project) if leaf.get("agent")}
    assert {a: leaf["id"] for a, leaf in now.items()} == cell_of
    for index in range(2):
        session = session_of(page, index)
        wait_terminal(page, session, "argv: --resume sess-")
    texts = [page.evaluate("(s) => window.__ideaTerminalText(s)", session_of(page, i))
             for i in range(2)]
    by_cell = {leaf["id"]: leaf["agent"] for leaf in now.values()}
    order = [leaf["id"] for leaf in _leaves(project) if leaf.get("agent")]
    expected = {agents["Alpha"]: "sess-alpha", agents["Beta"]: "sess-beta"}
    for text, node in zip(texts, order, strict=True):
        assert expected[by_cell[node]] in text


def _leaves(project: Path) -> list[dict[str, Any]]:
    doc = read_json(project / ".ideai" / "layouts.json")
    active = next(x for x in doc["layouts"] if x["id"] == doc["activeId"])
    out: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        body = node["node"]
        if node["type"] == "leaf":
            out.append(body)
        else:
            for child in body["children"]:
                walk(child["node"])

    walk(active["tree"]["root"])
    return out
