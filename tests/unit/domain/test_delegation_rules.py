"""The pure rules of delegation: commands, the mailbox, the wait-for graph, activity, text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.domain.activity import PromptWatch, accepts_turn, on_notification
from app.core.domain.delegation import (
    MAX_TYPED_BYTES,
    AskAgent,
    Reply,
    Ticket,
    delivered_text,
    parse_command,
    printable_line,
    task_file_text,
)
from app.core.domain.mailbox import Mailbox
from app.core.domain.terminal_text import plain_text, tail
from app.core.domain.wait_for import WaitForGraph
from app.core.errors import AppError


def ticket(n: int, kind: str = "ask") -> Ticket:
    return Ticket(f"t{n}", kind, "beta", "alpha", "Alpha", f"task {n}")  # type: ignore[arg-type]


# -- commands -------------------------------------------------------------------------------
def test_commands_are_validated_with_the_field_named() -> None:
    assert parse_command({"type": "agent.ask", "target": "B", "task": "x"}) == AskAgent(
        type="agent.ask", target="B", task="x")
    assert parse_command({"type": "agent.reply", "result": ""}) == Reply(type="agent.reply",
                                                                        result="")
    cases = {
        "command.task: field required": {"type": "agent.ask", "target": "B"},
        "command.target: string should have at least 1 character":
            {"type": "agent.ask", "target": "", "task": "x"},
        "command.text: is blank: say what to do":  # a trial got it queued and typed
            {"type": "agent.message", "target": "B", "text": " \t\n "},
        "command.task: is blank: say what to do": {"type": "agent.ask", "target": "B", "task": "  "},
        "command.extra: extra inputs are not permitted":
            {"type": "agent.list", "extra": 1},
        "command.event: input should be 'session-start', 'stop', 'stop-failure', "
        "'notification', 'permission-denied' or 'tool-failure'":
            {"type": "agent.hook", "event": "boom"},
    }
    for message, command in cases.items():
        with pytest.raises(AppError) as err:
            parse_command(command)
        assert err.value.code == "INVALID" and err.value.message == message
    with pytest.raises(AppError) as err:
        parse_command({"type": "agent.fly"})
    assert err.value.message.startswith("command.type: unknown command 'agent.fly'; one of")


def test_the_delivered_text_is_one_line_naming_requester_ticket_and_how_to_answer() -> None:
    text = delivered_text(Ticket("T1", "ask", "b", "a", "Alpha", "fix\nthe   bug"))
    assert text == ("[IdeA · task from Alpha · ticket T1] fix the bug (answer with idea_reply, "
                    "ticket T1, or: idea reply --ticket T1 \"…\")")
    assert delivered_text(Ticket("T2", "message", "b", None, "user", "fyi")) == \
        "[IdeA · task from user · ticket T2] fyi"


# -- mailbox ---------------------------------------------------------------------------------
def test_the_mailbox_is_fifo_one_turn_at_a_time() -> None:
    box = Mailbox("Beta")
    assert [box.post(ticket(i)) for i in range(3)] == [1, 2, 3]
    assert box.start_next() == ticket(0) and box.start_next() is None  # a turn is running
    assert box.depth == 2
    assert box.resolve(None) == ticket(0)  # a reply without ticket answers the current turn
    assert box.end_turn() == ticket(0)
    assert box.start_next() == ticket(1)


def test_a_reply_must_name_the_current_turn() -> None:
    box = Mailbox("Beta")
    with pytest.raises(AppError) as err:
        box.resolve(None)
    assert err.value.code == "NOT_FOUND" and "no task in progress" in err.value.message
    box.post(ticket(1))
    box.post(ticket(2))
    box.start_next()
    with pytest.raises(AppError) as err:
        box.resolve("t2")
    assert "has not been delivered yet" in err.value.message
    with pytest.raises(AppError) as err:
        box.resolve("zz")
    assert "is not a task of this agent" in err.value.message
    assert box.resolve("t1") == ticket(1)


def test_a_reply_to_a_turn_over_says_why_it_goes_nowhere() -> None:
    # A trial replied to the UI's "Send task…" in a Shell agent's terminal: it was a message,
    # whose turn ended once typed, and the error only said "no task in progress".
    box = Mailbox("Beta")
    box.post(Ticket("m1", "message", "beta", None, "user", "fyi"))
    box.post(ticket(2, "ask"))
    box.start_next()
    box.end_turn()
    with pytest.raises(AppError) as err:
        box.resolve("m1")
    assert err.value.message == ("ticket m1 was a message from user: it needs no reply, and its "
                                 "turn ended once it was delivered")
    box.start_next()
    with pytest.raises(AppError) as err:
        box.resolve("m1")
    assert err.value.message.endswith("; the current task is t2")
    box.end_turn()
    with pytest.raises(AppError) as err:
        box.resolve("t2")
    assert err.value.code == "NOT_FOUND"
    assert err.value.message == "ticket t2 is over already (answered, timed out or withdrawn)"
    with pytest.raises(AppError) as err:
        box.resolve(None)
    assert err.value.message == "Beta has no task in progress to reply to"


def test_a_reply_without_a_ticket_after_a_message_says_the_message_needs_none() -> None:
    # `idea reply` with no ticket in a Shell agent's terminal after the UI's "Send task…".
    box = Mailbox("Beta")
    box.post(Ticket("m1", "message", "beta", None, "user", "fyi"))
    box.start_next()
    box.end_turn()
    with pytest.raises(AppError) as err:
        box.resolve(None)
    assert err.value.code == "NOT_FOUND"
    assert err.value.message == ("Beta has no task in progress to reply to: its last ticket, m1, "
                                 "was a message from user, which needs no reply")
    # A ticket it never had is named as such (a trial got the hint about m1 instead).
    with pytest.raises(AppError) as err:
        box.resolve("bogus")
    assert err.value.message == ("ticket bogus is not a task of this agent; Beta has no task in "
                                 "progress")


def test_capacity_counts_waiting_tickets_only() -> None:
    box = Mailbox("Beta", capacity=2)
    box.post(ticket(1))
    box.start_next()
    box.post(ticket(2))
    box.post(ticket(3))
    with pytest.raises(AppError) as err:
        box.post(ticket(4))
    assert err.value.code == "INBOX_FULL" and err.value.details == {"capacity": 2}
    assert box.withdraw("t3") == ticket(3) and box.withdraw("t3") is None
    assert box.post(ticket(4)) == 2


@given(st.lists(st.sampled_from(["post", "start", "end"]), max_size=60))
def test_tickets_come_out_in_the_order_they_went_in(ops: list[str]) -> None:
    box, posted, served, n = Mailbox("B", capacity=1000), [], [], 0
    for op in ops:
        if op == "post":
            n += 1
            box.post(ticket(n))
            posted.append(f"t{n}")
        elif op == "start" and (started := box.start_next()) is not None:
            served.append(started.id)
        elif op == "end":
            box.end_turn()
    assert served == posted[:len(served)]
    assert box.depth == len(posted) - len(served)


# -- wait-for graph --------------------------------------------------------------------------
def test_cycles_of_any_length_are_refused_with_the_chain() -> None:
    graph = WaitForGraph()
    names = {"a": "Alpha", "b": "Beta", "c": "Gamma"}
    graph.check("a", "b")
    graph.add("t1", "a", "b")
    graph.add("t2", "b", "c")
    graph.check("a", "c")  # a → b → c and a → c: no cycle
    for waiter, target, chain in (("c", "a", "Gamma → Alpha → Beta → Gamma"),
                                  ("b", "a", "Beta → Alpha → Beta"),
                                  ("a", "a", "Alpha cannot ask itself")):
        with pytest.raises(AppError) as err:
            graph.check(waiter, target, names)
        assert err.value.code == "CYCLE" and chain in err.value.message
    graph.remove("t2")
    graph.check("c", "a")
    assert graph.waiting_on("a") == ["b"]


# -- activity and text -----------------------------------------------------------------------
def test_busy_idle_and_waiting() -> None:
    assert accepts_turn("idle") and not accepts_turn("busy") and not accepts_turn("starting")
    assert on_notification("busy", "permission_prompt") == "waiting"
    assert on_notification("idle", "permission_prompt") == "idle"
    assert on_notification("busy", "auth_success") == "busy"
    assert PromptWatch("tui> ").feed("answer\r\ntui> ")
    with pytest.raises(ValueError):
        PromptWatch("")


def test_terminal_output_as_plain_text() -> None:
    raw = "\x1b[1;32mok\x1b[0m\r\nline\x07 two\rthree\x1b]0;title\x07\x1b(B end"
    assert plain_text(raw) == "ok\nline two\nthree end"
    assert tail("a" * 10 + "\nlast line", 12) == "last line"


@given(st.text())
def test_a_typed_line_is_printable_one_line_whatever_the_task(text: str) -> None:
    typed = delivered_text(Ticket("T", "ask", "b", "a", "Alpha", text))
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in typed)
    assert "  " not in typed and typed == typed.strip()


def test_control_characters_of_a_task_are_dropped_not_typed() -> None:
    assert printable_line("a\x1b[2J\x03b\tc\r\nd\x9b\x7f") == "a[2Jb c d"


def test_a_long_task_is_pointed_to_and_its_file_keeps_it_whole() -> None:
    ticket = Ticket("T9", "ask", "b", "a", "Alpha", "first line\n" + "y" * 6_000,
                    files=("src/a.py",))
    typed = delivered_text(ticket, task_file="/p/.ideai/tasks/T9.md")
    assert "in the file /p/.ideai/tasks/T9.md" in typed and "6,011 characters" in typed
    assert len(typed) < MAX_TYPED_BYTES and "(files: src/a.py)" in typed
    kept = task_file_text(ticket)
    assert kept.startswith("# Task from Alpha\n") and ticket.text in kept
    assert "Ticket: T9" in kept and "Files: src/a.py" in kept


@given(st.text(alphabet="ab> \r\n", max_size=60), st.lists(st.integers(0, 60), max_size=6))
def test_the_prompt_watch_finds_the_same_prompt_however_the_output_is_cut(
        output: str, cuts: list[int]) -> None:
    pieces, last = [], 0
    for cut in sorted(set(cuts)):
        pieces.append(output[last:cut])
        last = max(last, cut)
    pieces.append(output[last:])
    whole, chunked = PromptWatch("a> "), PromptWatch("a> ")
    fired = [chunked.feed(p) for p in pieces]
    assert any(fired) == whole.feed(output)


def test_the_prompt_watch_skips_the_echo_of_the_typed_text() -> None:
    watch = PromptWatch("tui> ", typed="sleep 6 tui> ")
    assert not watch.feed("sleep 6 tu")
    assert not watch.feed("i> \r\nworking")
    assert watch.feed("\r\ntui> ")
