"""The `idea` agent commands' pure parts: the command each builds, what it prints, hook names
and payloads, the command door's line (docs/contracts.md §7.5-§7.6)."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from app.cli import build_parser
from app.commands.agent_cli import (
    UsageError,
    build_command,
    cells,
    hook_command,
    hook_event,
    read_hook_payload,
    render,
    run,
    said_as_argument,
)
from app.commands.endpoint_client import EndpointError
from app.commands.endpoint_door import parse_command_line
from app.core.errors import INVALID, AppError


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def no_stdin() -> str:
    raise AssertionError("stdin read")


def test_each_subcommand_builds_its_command() -> None:
    assert build_command(parse("ask", "Bob", "review x"), no_stdin) == {
        "type": "agent.ask", "target": "Bob", "task": "review x"}
    assert build_command(parse("message", "Bob", "fyi"), no_stdin) == {
        "type": "agent.message", "target": "Bob", "text": "fyi"}
    assert build_command(parse("reply", "done"), no_stdin) == {
        "type": "agent.reply", "result": "done"}
    assert build_command(parse("reply", "--ticket", "t7", "done"), no_stdin) == {
        "type": "agent.reply", "result": "done", "ticket": "t7"}
    assert build_command(parse("agents"), no_stdin) == {"type": "agent.list"}


def test_packet_options_become_the_commands_fields() -> None:
    assert build_command(parse("ask", "Bob", "fix", "--file", "a.py", "--file", "b.py",
                               "--zone", "project"), no_stdin) == {
        "type": "agent.ask", "target": "Bob", "task": "fix", "files": ["a.py", "b.py"],
        "zone": "project"}
    assert build_command(parse("message", "Bob", "yours now", "--signal", "HANDOFF",
                               "--decision", "keep SQLite"), no_stdin) == {
        "type": "agent.message", "target": "Bob", "text": "yours now", "signal": "HANDOFF",
        "decision": "keep SQLite"}
    assert build_command(parse("reply", "--signal", "BLOCKED_ON", "no network"), no_stdin) == {
        "type": "agent.reply", "signal": "BLOCKED_ON", "context": "no network"}
    assert build_command(parse("reply", "--signal", "ESCALATE", "--option", "A", "--option",
                               "B"), no_stdin) == {
        "type": "agent.reply", "signal": "ESCALATE", "options": ["A", "B"]}
    assert render(parse("reply", "--signal", "ESCALATE", "--option", "A", "--option", "B"),
                  {"choice": "B"}) == "B"
    assert render(parse("reply", "--signal", "CHECKPOINT", "half done"), {"ticket": "t"}) == \
        "reported (ticket t)"


def test_a_bare_reply_asks_for_the_answer_and_an_empty_one_is_said_so() -> None:
    # Trial: a bare `idea reply` went as an empty answer (or NOT_FOUND), never asking for it.
    with pytest.raises(UsageError, match='give your answer: idea reply "..."'):
        build_command(parse("reply"), no_stdin)
    with pytest.raises(UsageError):
        build_command(parse("reply", "--ticket", "t1"), no_stdin)
    assert build_command(parse("reply", ""), no_stdin) == {"type": "agent.reply", "result": ""}
    err = io.StringIO()
    env = {"IDEA_ENDPOINT": "unused", "IDEA_AGENT_ID": "a1", "IDEA_TOKEN": "t"}
    assert run(parse("reply"), env, stdin=io.StringIO(), stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().startswith('idea reply: give your answer: idea reply "..."')


def test_a_refused_field_is_named_as_the_command_lines_argument() -> None:
    # Trial: `idea ask Shelly "   "` printed `INVALID: command.task: is blank: say what to do`.
    blank = EndpointError("INVALID", "command.task: is blank: say what to do", {"field": "task"})
    assert said_as_argument(blank) == "TASK: is blank: say what to do"
    many = EndpointError("INVALID", "command.options: ESCALATE needs at least two options",
                         {"field": "options"})
    assert said_as_argument(many) == "--option: ESCALATE needs at least two options"
    other = EndpointError("NOT_FOUND", "no agent 'Zed'", {"agent": "Zed"})
    assert said_as_argument(other) == "no agent 'Zed'"


def test_a_dash_reads_the_text_from_stdin() -> None:
    assert build_command(parse("reply", "--ticket", "t1", "-"), lambda: "long\nanswer") == {
        "type": "agent.reply", "result": "long\nanswer", "ticket": "t1"}
    assert build_command(parse("ask", "Bob", "-"), lambda: "task")["task"] == "task"


def test_what_each_subcommand_prints() -> None:
    assert render(parse("ask", "Bob", "x"), {"ticket": "t1", "reply": "LGTM"}) == "LGTM"
    assert render(parse("reply", "x"), {"ticket": "t1"}) == "replied (ticket t1)"
    assert render(parse("message", "Bob", "x"), {"ticket": "t2", "position": 0}) == \
        "delivered (ticket t2)"
    assert render(parse("message", "Bob", "x"), {"ticket": "t3", "position": 2}) == \
        "queued at position 2 (ticket t3)"
    agents = {"agents": [
        {"agentId": "b1", "name": "Bob", "profileId": "claude-code", "running": True,
         "activity": "busy", "queueDepth": 2},
        {"agentId": "c1", "name": "Carol", "profileId": "shell", "running": False}]}
    assert render(parse("agents"), agents).splitlines() == [
        "NAME   ACTIVITY  QUEUE  PROFILE      ID",
        "Bob    busy      2      claude-code  b1",
        "Carol  stopped   0      shell        c1"]
    assert json.loads(render(parse("agents", "--json"), agents)) == agents


def test_agents_columns_line_up_with_wide_and_combining_names() -> None:
    agents = {"agents": [
        {"agentId": "j1", "name": "設計者", "profileId": "shell", "activity": "idle"},
        {"agentId": "e1", "name": "Rene\u0301", "profileId": "shell", "activity": "idle"},
        {"agentId": "b1", "name": "Bob", "profileId": "shell", "activity": "busy"}]}
    lines = render(parse("agents"), agents).splitlines()
    assert lines == [
        "NAME    ACTIVITY  QUEUE  PROFILE  ID",
        "設計者  idle      0      shell    j1",
        "Rene\u0301    idle      0      shell    e1",
        "Bob     busy      0      shell    b1"]
    assert cells("設計者") == 6 and cells("Rene\u0301") == 4


@pytest.mark.parametrize(("vendor", "ours"), [
    ("SessionStart", "session-start"), ("Stop", "stop"), ("StopFailure", "stop-failure"),
    ("Notification", "notification"), ("stop-failure", "stop-failure"),
    ("session_start", "session-start")])
def test_vendor_hook_names_map_to_the_contract_names(vendor: str, ours: str) -> None:
    assert hook_event(vendor) == ours
    assert hook_command(vendor, {"a": 1}) == {"type": "agent.hook", "event": ours,
                                              "payload": {"a": 1}}


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_hook_payload_is_the_vendor_json_or_nothing() -> None:
    assert read_hook_payload(Pipe('{"hook_event_name": "Stop", "x": [1]}')) == {
        "hook_event_name": "Stop", "x": [1]}
    assert read_hook_payload(Pipe("")) == {}
    assert read_hook_payload(Pipe("not json")) == {}
    assert read_hook_payload(Pipe("[1, 2]")) == {}
    assert read_hook_payload(Terminal('{"never": "read"}')) == {}


def test_the_command_line_of_the_door() -> None:
    assert parse_command_line(b'{"command": {"type": "agent.list"}}') == {"type": "agent.list"}
    for bad in (b"nope", b"[]", b'{"command": 1}', b'{"cmd": {}}', b"\xff"):
        with pytest.raises(AppError) as caught:
            parse_command_line(bad)
        assert caught.value.code == INVALID


def test_every_agent_subcommand_parses() -> None:
    for argv in (["mcp-server", "--endpoint", "/s", "--requester", "a", "--token", "t"],
                 ["mcp-server"], ["hook", "Stop"], ["agents"]):
        assert parse(*argv).command == argv[0]
    with pytest.raises(SystemExit) as caught:
        parse("ask", "Bob")  # the task is missing: a usage error
    assert caught.value.code == 2


def test_utf8_streams_reencode_what_can_be_and_leave_the_rest() -> None:
    from app.commands.agent_cli import utf8_streams

    raw = io.BytesIO()
    cp1252 = io.TextIOWrapper(raw, encoding="cp1252", errors="strict")  # a redirected stdout
    plain = io.StringIO()
    utf8_streams(cp1252, plain)
    cp1252.write("LGTM ✓\n")
    cp1252.flush()
    assert raw.getvalue() == "LGTM ✓\n".encode() and cp1252.errors == "strict"


def test_ctrl_c_while_an_ask_waits_prints_one_line_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Trial finding: ^C on a blocked `idea ask` printed a 20-line KeyboardInterrupt traceback.
    from app.commands import agent_cli

    def interrupted(*args: object, **kwargs: object) -> dict[str, object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(agent_cli, "call", interrupted)
    env = {name: "x" for name in agent_cli._ENV}
    out, err = io.StringIO(), io.StringIO()
    code = agent_cli.run(parse("ask", "Beta", "review this"), env, stdin=io.StringIO(),
                         stdout=out, stderr=err)
    assert code == 130
    assert err.getvalue() == "idea: interrupted (the ask is withdrawn)\n"
    assert out.getvalue() == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_an_ask_typed_at_a_terminal_says_it_waits_and_a_piped_one_prints_only_the_reply(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Trial finding: a queued `idea ask` printed nothing for as long as it waited; a later one:
    # it said it waited before a refusal that came at once.
    import time

    from app.commands import agent_cli
    from app.commands.endpoint_client import EndpointError

    def slow(*a: object, **k: object) -> dict[str, str]:
        time.sleep(agent_cli.WAITING_LINE_AFTER_S + 0.3)
        return {"ticket": "t1", "reply": "4"}

    monkeypatch.setattr(agent_cli, "call", slow)
    env = {name: "x" for name in agent_cli._ENV}
    out, err = io.StringIO(), _Terminal()
    assert agent_cli.run(parse("ask", "Beta", "2+2?"), env, stdin=io.StringIO(), stdout=out,
                         stderr=err) == 0
    assert err.getvalue() == ("idea: asking Beta; waiting for the answer (Ctrl+C withdraws "
                              "the ask)\n")
    assert out.getvalue() == "4\n"

    def refused(*a: object, **k: object) -> dict[str, str]:
        raise EndpointError("NOT_FOUND", "no agent named Beta")

    monkeypatch.setattr(agent_cli, "call", refused)
    err = _Terminal()
    assert agent_cli.run(parse("ask", "Beta", "2+2?"), env, stdin=io.StringIO(),
                         stdout=io.StringIO(), stderr=err) == 1
    time.sleep(agent_cli.WAITING_LINE_AFTER_S + 0.2)
    assert err.getvalue() == "idea: NOT_FOUND: no agent named Beta\n"
    monkeypatch.setattr(agent_cli, "call", lambda *a, **k: {"ticket": "t1", "reply": "4"})
    piped = io.StringIO()
    agent_cli.run(parse("ask", "Beta", "2+2?"), env, stdin=io.StringIO(), stdout=io.StringIO(),
                  stderr=piped)
    assert piped.getvalue() == ""


def test_an_unknown_command_in_an_agents_terminal_gets_the_agents_usage(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from app.__main__ import main

    monkeypatch.setenv("IDEA_AGENT_ID", "a1")
    assert main(["nosuch"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "idea ask AGENT" in err and "'nosuch'" in err
    assert "ask, reply, agents, message, hook" in err
    assert not any(word in err for word in ("--data-dir", "--project", "sandbox-exec",
                                            "mcp-server", "'dev'"))
    assert main(["--help"]) == 0 and "idea ask AGENT" in capsys.readouterr().out  # as before
    assert main([]) == 2 and "idea ask AGENT" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ask:  # a known command's own usage errors: its own
        main(["ask", "Bob"])
    assert ask.value.code == 2 and "usage: idea ask" in capsys.readouterr().err


def test_an_unknown_command_outside_an_agents_terminal_keeps_the_apps_usage(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from app.__main__ import main

    monkeypatch.delenv("IDEA_AGENT_ID", raising=False)
    with pytest.raises(SystemExit) as done:
        main(["nosuch"])
    assert done.value.code == 2 and "sandbox-exec" in capsys.readouterr().err
