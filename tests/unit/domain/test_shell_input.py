"""How a profile's terminal takes a typed task, and the shell no-op's shape (pure). That real
shells never run it is proven in tests/integration/test_shell_noop.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.delegation import Ticket, delivered_text, printable_line, task_file_text
from app.core.domain.profiles import Profile, builtin_profiles
from app.core.domain.shell_input import done_once_typed, shell_noop, task_input_of


def test_the_shell_profile_and_plain_shells_take_tasks_as_shell_input() -> None:
    kinds = {p.id: task_input_of(p) for p in builtin_profiles()}
    assert kinds == {"claude-code": "prompt", "codex-cli": "prompt", "gemini-cli": "prompt",
                     "aider": "prompt", "shell": "shell"}
    assert task_input_of(Profile(id="z", command="/bin/zsh", args=("-l",))) == "shell"
    assert task_input_of(Profile(id="f", command="fish")) == "shell"
    # a shell running a program (a script, -c) is that program, not a prompt to a shell
    assert task_input_of(Profile(id="s", command="/bin/sh", args=("tui.sh",))) == "prompt"
    assert task_input_of(Profile(id="c", command="bash", args=("-c", "tui"))) == "prompt"
    assert task_input_of(Profile(id="p", command="python3")) == "prompt"
    # the profile says it when the rule guesses wrong
    assert task_input_of(Profile(id="t", command="/bin/bash", task_input="prompt")) == "prompt"
    assert task_input_of(Profile(id="r", command="my-repl", task_input="shell")) == "shell"


def test_task_input_is_kept_in_the_profile_json_only_when_set() -> None:
    assert "taskInput" not in Profile(id="a", command="x").to_json()
    saved = Profile(id="a", command="x", task_input="shell").to_json()
    assert saved["taskInput"] == "shell"
    assert Profile.model_validate(saved).task_input == "shell"


def test_a_quote_or_a_backslash_is_never_left_inside_the_single_quotes() -> None:
    assert shell_noop("2+2") == ": '2+2'"
    assert shell_noop("it's") == ": 'it'\\''s'"
    assert shell_noop("a\\b") == ": 'a'\\\\'b'"
    assert shell_noop("$(x) `y` ; # !z") == ": '$(x) `y` ; # !z'"


@given(st.text())
def test_inside_the_quotes_there_is_never_a_quote_nor_a_backslash(text: str) -> None:
    line = shell_noop(printable_line(text))
    assert line.startswith(": '") and line.endswith("'")
    quoted = line[3:-1].replace("'\\''", "").replace("'\\\\'", "")
    assert "'" not in quoted and "\\" not in quoted


def test_a_shell_gets_the_task_as_a_no_op_naming_the_idea_command_only() -> None:
    ticket = Ticket("T1", "ask", "b", "a", "Alpha", "what is\n2+2")
    line = delivered_text(ticket, task_input="shell")
    assert line == (": '[IdeA · task from Alpha · ticket T1] what is 2+2 (answer with: idea "
                    "reply --ticket T1 \"…\")'")
    assert delivered_text(ticket) == ("[IdeA · task from Alpha · ticket T1] what is 2+2 "
                                      "(answer with idea_reply, ticket T1, or: idea reply "
                                      "--ticket T1 \"…\")")
    kept = task_file_text(ticket, "shell")
    assert "Answer with: idea reply --ticket T1" in kept and "idea_reply" not in kept
    assert "idea_reply (ticket T1)" in task_file_text(ticket)


def test_only_a_message_to_a_shell_is_over_once_typed() -> None:
    assert done_once_typed("shell", "message")
    assert not done_once_typed("shell", "ask")  # it waits for `idea reply`
    assert not done_once_typed("prompt", "message")  # the CLI's prompt or hook ends it
