"""Door 3 end to end: the REAL `python -m app ask|reply|agents|message|hook` processes, as an
agent's terminal runs them (`IDEA_ENDPOINT`, `IDEA_AGENT_ID`, `IDEA_TOKEN`), against the real
endpoint and command door over a fake orchestrator (POSIX only)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fcntl", reason="Unix-socket endpoint (POSIX only)")

from app.core.errors import INBOX_FULL, NOT_FOUND, AppError
from tests.integration.endpoint_world import (
    ALICE,
    BOB,
    REPO,
    TOKENS,
    RawConnection,
    World,
    endpoint_world,
    idea_argv,
)

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def world() -> Iterator[World]:
    with endpoint_world() as w:
        yield w


def agent_env(world: World, agent: str = "a1", token: str | None = None) -> dict[str, str]:
    return {"IDEA_ENDPOINT": world.path, "IDEA_AGENT_ID": agent,
            "IDEA_TOKEN": TOKENS[agent] if token is None else token, "PATH": "/usr/bin:/bin"}


def idea(env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(idea_argv(*args), input=stdin, capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)


def test_ask_blocks_until_reply_and_prints_it(world: World) -> None:
    with subprocess.Popen(idea_argv("ask", "Bob", "review app/x.py"), env=agent_env(world),
                          cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as asker:
        pending = world.dispatcher.wait_pending(1)
        assert asker.poll() is None  # still blocked
        replied = idea(agent_env(world, "b1"), "reply", "--ticket", pending[0].ticket,
                       "LGTM ✓\nsecond line")
        out, err = asker.communicate(timeout=30)
    assert replied.returncode == 0 and replied.stdout == "replied (ticket t1)\n"
    assert asker.returncode == 0 and err == ""
    assert out == "LGTM ✓\nsecond line\n"
    assert world.dispatcher.calls == [
        (ALICE, {"type": "agent.ask", "target": "Bob", "task": "review app/x.py"}),
        (BOB, {"type": "agent.reply", "result": "LGTM ✓\nsecond line", "ticket": "t1"})]


def _default_sigint() -> None:
    """In the child before it runs: ^C as a terminal gives it. A test run launched in the
    background of a shell without job control inherits SIGINT ignored, and Python then never
    raises KeyboardInterrupt (the ask hung for 30 s in such a run)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupted_ask_hangs_up_and_the_ask_is_withdrawn(world: World) -> None:
    with subprocess.Popen(idea_argv("ask", "Bob", "never mind"), env=agent_env(world),
                          cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True,
                          preexec_fn=_default_sigint if sys.platform != "win32" else None
                          ) as asker:
        world.dispatcher.wait_pending(1)
        asker.send_signal(signal.SIGINT)  # ^C in the agent's terminal
        asker.communicate(timeout=30)
    assert world.dispatcher.wait_hung_up(1) == ["t1"]
    assert list(world.dispatcher.pending) == []


def test_reply_reads_a_long_answer_from_stdin(world: World) -> None:
    answer = "line\n" * 5000
    with subprocess.Popen(idea_argv("ask", "Bob", "-"), env=agent_env(world), cwd=REPO,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as asker:
        assert asker.stdin is not None
        asker.stdin.write("a task from stdin")
        asker.stdin.close()
        pending = world.dispatcher.wait_pending(1)
        assert pending[0].command["task"] == "a task from stdin"
        assert idea(agent_env(world, "b1"), "reply", "--ticket", "t1", "-",
                    stdin=answer).returncode == 0
        assert asker.stdout is not None
        out = asker.stdout.read()
        assert asker.wait(30) == 0
    assert out == answer + "\n"


def test_agents_and_message(world: World) -> None:
    world.dispatcher.answers["agent.list"] = {"agents": [
        {"agentId": "b1", "name": "Bob", "profileId": "claude-code", "profileName": "Claude Code",
         "running": True, "activity": "idle", "queueDepth": 0}]}
    world.dispatcher.answers["agent.message"] = {"ticket": "t9", "position": 3}
    listed = idea(agent_env(world), "agents")
    assert listed.returncode == 0 and listed.stdout == (
        "NAME  ACTIVITY  QUEUE  PROFILE      ID\n"
        "Bob   idle      0      Claude Code  b1\n")
    raw = idea(agent_env(world), "agents", "--json")
    assert json.loads(raw.stdout) == world.dispatcher.answers["agent.list"]
    sent = idea(agent_env(world), "message", "Bob", "fyi: build is green")
    assert sent.returncode == 0 and sent.stdout == "queued at position 3 (ticket t9)\n"
    assert world.dispatcher.calls[-1] == (ALICE, {"type": "agent.message", "target": "Bob",
                                                  "text": "fyi: build is green"})


def test_errors_print_code_and_message_and_exit_1(world: World) -> None:
    world.dispatcher.answers["agent.message"] = AppError(INBOX_FULL, "Bob's inbox is full (100)")
    world.dispatcher.answers["agent.reply"] = AppError(NOT_FOUND, "nothing pending for you")
    full = idea(agent_env(world), "message", "Bob", "hi")
    assert (full.returncode, full.stdout) == (1, "")
    assert full.stderr == "idea: INBOX_FULL: Bob's inbox is full (100)\n"
    nothing = idea(agent_env(world, "b1"), "reply", "done")
    assert nothing.returncode == 1 and nothing.stderr.startswith("idea: NOT_FOUND: ")


def test_a_wrong_token_is_forbidden(world: World) -> None:
    done = idea(agent_env(world, "a1", token="tok-b"), "agents")
    assert done.returncode == 1 and done.stderr.startswith("idea: FORBIDDEN: ")
    assert world.dispatcher.calls == []


def test_a_bare_idea_in_an_agents_terminal_prints_usage_not_a_window(world: World) -> None:
    bare = idea(agent_env(world))
    assert bare.returncode == 2 and "idea ask AGENT" in bare.stderr and bare.stdout == ""
    for flag in ("--help", "-h"):  # the agent's commands, not the window's
        helped = idea(agent_env(world), flag)
        assert helped.returncode == 0 and "idea ask AGENT" in helped.stdout
        assert "sandbox-exec" not in helped.stdout and "dev" not in helped.stdout.split()
    assert "sandbox-exec" in idea({"PATH": "/usr/bin:/bin"}, "--help").stdout  # outside: all
    typo = idea(agent_env(world), "nosuch")  # the agent's usage too, naming the word
    assert typo.returncode == 2 and "idea ask AGENT" in typo.stderr and "'nosuch'" in typo.stderr
    assert "sandbox-exec" not in typo.stderr and "--data-dir" not in typo.stderr


def test_usage_errors_exit_2(world: World) -> None:
    missing = idea({"PATH": "/usr/bin:/bin"}, "agents")
    assert missing.returncode == 2
    assert "IDEA_ENDPOINT, IDEA_AGENT_ID, IDEA_TOKEN not set" in missing.stderr
    assert idea(agent_env(world), "ask", "Bob").returncode == 2  # no task


def test_an_unreachable_endpoint_is_said_promptly(tmp_path: Any) -> None:
    env = {"IDEA_ENDPOINT": str(tmp_path / "gone.sock"), "IDEA_AGENT_ID": "a1",
           "IDEA_TOKEN": "t", "PATH": "/usr/bin:/bin"}
    start = time.monotonic()
    done = idea(env, "ask", "Bob", "x")
    assert done.returncode == 1 and done.stderr.startswith("idea: UNREACHABLE: no IdeA answers")
    assert time.monotonic() - start < 10


def test_hook_reports_the_vendor_json_and_exits_0(world: World) -> None:
    payload = {"session_id": "abc", "hook_event_name": "Stop", "stop_hook_active": False}
    done = idea(agent_env(world), "hook", "Stop", stdin=json.dumps(payload))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert world.dispatcher.calls == [
        (ALICE, {"type": "agent.hook", "event": "stop", "payload": payload})]


def test_hook_takes_the_json_as_an_argument_as_codex_notify_passes_it(world: World) -> None:
    payload = {"type": "agent-turn-complete", "last-assistant-message": "done"}
    done = idea(agent_env(world), "hook", "stop", json.dumps(payload), stdin="")
    assert done.returncode == 0
    assert world.dispatcher.calls == [
        (ALICE, {"type": "agent.hook", "event": "stop", "payload": payload})]


def test_hook_never_fails_the_vendor(world: World, tmp_path: Any) -> None:
    gone = {"IDEA_ENDPOINT": str(tmp_path / "gone.sock"), "IDEA_AGENT_ID": "a1",
            "IDEA_TOKEN": "t", "PATH": "/usr/bin:/bin"}
    world.dispatcher.answers["agent.hook"] = AppError(NOT_FOUND, "no such event")
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(tmp_path / "mute.sock"))
    mute.listen(1)  # never answers
    try:
        for env, stdin in ((gone, "{}"), ({"PATH": "/usr/bin:/bin"}, ""),
                           (agent_env(world), "garbage"),
                           ({**gone, "IDEA_ENDPOINT": str(tmp_path / "mute.sock")}, "{}")):
            start = time.monotonic()
            done = idea(env, "hook", "SessionStart", stdin=stdin)
            assert done.returncode == 0 and done.stdout == ""
            assert time.monotonic() - start < 10
    finally:
        mute.close()
    assert world.dispatcher.calls[-1][1] == {"type": "agent.hook", "event": "session-start",
                                             "payload": {}}


def test_the_command_door_answers_malformed_lines(world: World) -> None:
    for line, says in ((b"nope", "not JSON"), (b'{"cmd": 1}', 'expected {"command"')):
        raw = RawConnection(world.path, kind="command")
        try:
            assert raw.hello_answer == {"ok": True}
            raw.send_line(line)
            error = raw.read_json()["error"]
            assert isinstance(error, dict) and error["code"] == "INVALID"
            assert says in str(error["message"])
            with pytest.raises(EOFError):
                raw.read_line()  # one command per connection
        finally:
            raw.close()
