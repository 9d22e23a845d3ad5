"""The orchestrator over the core's fakes: mailbox order, turns, delivery routes, cycle,
timeout, no-reply, readiness, hooks. Asks block, so they run on a thread each; the test only
waits on events, never on time (the scheduler is manual)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from app.core.domain.conversation import conversation_id
from app.core.domain.delegation import AgentCaller, User
from app.core.domain.profiles import ContextInjection, Profile
from app.core.errors import AppError
from app.core.events import AgentActivityChanged, DelegationChanged, DelegationReady
from tests.unit.services.world import ROOT, World, world

PORTAL_PROFILE = Profile(id="tui", name="TUI", command="/bin/bash",
                         context_injection=ContextInjection(strategy="env", target="CONTEXT.md",
                                                            var="IDEA_CONTEXT_FILE"),
                         prompt_ready_pattern="tui> ", task_input="prompt")


class Call:
    """`dispatch` on its own thread; `result()` waits for it."""

    def __init__(self, w: World, caller: Any, command: dict[str, Any]) -> None:
        self.value: dict[str, Any] | None = None
        self.error: AppError | None = None
        self._done = threading.Event()

        def run() -> None:
            try:
                self.value = w.s.orchestrator.dispatch(ROOT, caller, command)
            except AppError as exc:
                self.error = exc
            finally:
                self._done.set()

        threading.Thread(target=run, daemon=True).start()

    def done(self, timeout: float = 0.2) -> bool:
        return self._done.wait(timeout)

    def result(self) -> dict[str, Any]:
        assert self._done.wait(10), "the call never returned"
        if self.error is not None:
            raise self.error
        assert self.value is not None
        return self.value


def setup(w: World, *names: str, profile: str = "shell") -> dict[str, AgentCaller]:
    """Open the project, create and launch `names` (in the background), settle them."""
    if profile == "tui":
        shell = [p for p in w.s.profiles.list() if p.id == "shell"]
        w.s.profiles.save([*shell, PORTAL_PROFILE])
    w.s.projects.create(ROOT, "Demo")
    callers = {}
    for name in names:
        agent_id = w.s.agents.create(ROOT, name, f"# {name}", profile).entry.agent_id
        session = w.s.agents.launch(ROOT, agent_id, None, 80, 24).session_id
        callers[name] = AgentCaller(ROOT, agent_id, name, session)
    w.clock.advance(20)  # no output at all: they settle at the launch deadline
    return callers


def injected(w: World, session: str) -> str:
    return "".join(data for sid, data in w.host.injected if sid == session)


def wait_until(pred: Any) -> None:
    for _ in range(200):
        if pred():
            return
        threading.Event().wait(0.01)
    raise AssertionError("condition not met")


def test_an_ask_is_typed_headless_and_the_reply_comes_back_inline() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "beta", "task": "sum\n1 2"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    text = injected(w, a["Beta"].session_id)
    # Beta runs the Shell profile: the task comes as a no-op the shell shows and never runs
    assert text.startswith(": '[IdeA · task from Alpha · ticket ") and "] sum 1 2 (answer" in text
    assert "idea_reply" not in text and "(answer with: idea reply --ticket " in text
    w.clock.advance(0.06)
    assert injected(w, a["Beta"].session_id).endswith("\r")  # the submit after the delay
    ticket = text.split("ticket ")[1].split("]")[0]
    assert w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "3",
                                                       "ticket": ticket}) == {"ticket": ticket}
    assert ask.result() == {"ticket": ticket, "reply": "3"}
    states = [e.state for e in w.timeline.of(DelegationChanged)]
    assert states == ["queued", "active", "done"]


def test_a_message_to_a_shell_agent_ends_its_turn_once_typed() -> None:
    # Trial finding: nobody answers a message and no shell profile watches for a prompt, so
    # Beta stayed busy for two turn timeouts (10 min) and every later ask queued behind it.
    w = world()
    a = setup(w, "Alpha", "Beta")
    sent = w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.message",
                                                        "target": "Beta", "text": "fyi"})
    assert sent["position"] == 0  # delivered at once
    wait_until(lambda: "fyi" in injected(w, a["Beta"].session_id))
    assert "idea reply" not in injected(w, a["Beta"].session_id)
    assert w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id)[0] == "busy"
    w.clock.advance(2)  # the reply grace, not a turn timeout
    assert w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id)[0] == "idle"
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "next"})
    w.clock.advance(2)  # the CLI settles after the message's end
    wait_until(lambda: "next" in injected(w, a["Beta"].session_id))
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "ok"})
    assert ask.result()["reply"] == "ok"
    assert [e.state for e in w.timeline.of(DelegationChanged)][:3] == ["queued", "active", "done"]


def test_asks_to_one_agent_are_served_one_at_a_time_in_order() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    first = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "one"})
    wait_until(lambda: "one" in injected(w, a["Beta"].session_id))
    second = Call(w, a["Gamma"], {"type": "agent.ask", "target": "Beta", "task": "two"})
    wait_until(lambda: len(w.timeline.of(DelegationChanged)) >= 3)
    assert "two" not in injected(w, a["Beta"].session_id) and not second.done()
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "r1"})
    assert first.result()["reply"] == "r1"
    w.clock.advance(0.5)
    assert "two" not in injected(w, a["Beta"].session_id)  # the CLI is not back yet
    w.clock.advance(1)  # quiet for settle_quiet_s after its reply
    wait_until(lambda: "two" in injected(w, a["Beta"].session_id))
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "r2"})
    assert second.result()["reply"] == "r2"


def test_asks_to_different_agents_run_in_parallel() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    to_beta = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "b"})
    to_gamma = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Gamma", "task": "g"})
    wait_until(lambda: injected(w, a["Beta"].session_id) and injected(w, a["Gamma"].session_id))
    w.s.orchestrator.dispatch(ROOT, a["Gamma"], {"type": "agent.reply", "result": "G"})
    assert to_gamma.result()["reply"] == "G" and not to_beta.done()
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "B"})
    assert to_beta.result()["reply"] == "B"


def test_an_ask_that_would_close_a_cycle_is_refused_before_queueing() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "x"})
    Call(w, a["Beta"], {"type": "agent.ask", "target": "Gamma", "task": "y"})
    wait_until(lambda: injected(w, a["Gamma"].session_id))
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Gamma"], {"type": "agent.ask", "target": "Alpha",
                                                     "task": "z"})
    assert err.value.code == "CYCLE" and "Gamma → Alpha → Beta → Gamma" in err.value.message
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.ask", "target": "Alpha",
                                                     "task": "me"})
    assert err.value.code == "CYCLE"
    # A message to oneself is refused too (trial finding: it was queued, and logged in a
    # conversation with the all-zero id every agent's self-messages would share).
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.message",
                                                     "target": "Alpha", "text": "me"})
    assert err.value.code == "INVALID" and "Alpha cannot send a message to itself" in \
        err.value.message
    assert injected(w, a["Alpha"].session_id) == ""


def test_a_timeout_answers_the_asker_but_types_nothing_into_the_busy_cli() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    late = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "slow"})
    nxt = Call(w, User(), {"type": "agent.ask", "target": "Beta", "task": "next"})
    wait_until(lambda: "slow" in injected(w, a["Beta"].session_id))
    w.clock.advance(300)
    with pytest.raises(AppError) as err:
        late.result()
    assert err.value.code == "TIMEOUT" and w.host.is_alive(a["Beta"].session_id)
    w.clock.advance(60)
    assert "task from user" not in injected(w, a["Beta"].session_id)  # Beta is still at work
    answer = w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply",
                                                         "result": "slow result"})
    assert answer["late"] is True
    log = w.s.conversations.turns(ROOT, conversation_id(a["Alpha"].agent_id,
                                                        a["Beta"].agent_id))
    assert [t.text for t in log][-1] == "slow result"  # the late answer is kept
    w.clock.advance(2)
    wait_until(lambda: "task from user" in injected(w, a["Beta"].session_id))
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "ok"})
    assert nxt.result()["reply"] == "ok"
    states = [(e.kind, e.state, e.reason) for e in w.timeline.of(DelegationChanged)
              if e.requester == a["Alpha"].agent_id]
    assert states == [("ask", "queued", None), ("ask", "active", None),
                      ("ask", "failed", "TIMEOUT")]


def test_an_overdue_turn_ends_for_good_after_a_second_timeout() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    late = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "stuck"})
    Call(w, User(), {"type": "agent.message", "target": "Beta", "text": "after"})
    wait_until(lambda: "stuck" in injected(w, a["Beta"].session_id))
    w.clock.advance(300)
    assert late.done(2)
    w.clock.advance(299)
    assert "after" not in injected(w, a["Beta"].session_id)
    w.clock.advance(2)
    wait_until(lambda: "after" in injected(w, a["Beta"].session_id))


def test_the_clock_of_a_turn_stops_while_its_agent_waits_on_its_own_ask() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    outer = Call(w, User(), {"type": "agent.ask", "target": "Alpha", "task": "big job"})
    wait_until(lambda: "big job" in injected(w, a["Alpha"].session_id))
    w.clock.advance(100)
    inner = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "part"})
    wait_until(lambda: "part" in injected(w, a["Beta"].session_id))
    for _ in range(5):  # Beta takes 250 s: Alpha's own clock stands still meanwhile
        w.clock.advance(50)
        wait_until(lambda: True)
    assert not outer.done(0.05)
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "done"})
    assert inner.result()["reply"] == "done"
    w.clock.advance(150)
    assert not outer.done(0.05)  # 100 + 150 < 300
    w.clock.advance(60)
    with pytest.raises(AppError) as err:
        outer.result()
    assert err.value.code == "TIMEOUT"


def test_an_agent_blocked_in_its_own_ask_outside_a_turn_gets_no_task_until_it_is_answered(
) -> None:
    """Its human typed `idea ask Beta …` in Alpha's terminal: a task for Alpha typed now would
    land in the blocked command's input. Alpha is busy until Beta answers, then gets it."""
    w = world()
    a = setup(w, "Alpha", "Beta")
    alpha = a["Alpha"].agent_id
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "part"})
    wait_until(lambda: "part" in injected(w, a["Beta"].session_id))
    assert w.s.orchestrator.queue_depth(ROOT, alpha) == ("busy", 0)
    out = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.message",
                                                    "target": "Alpha", "text": "note this"})
    assert out["position"] == 1  # queued, not typed into the waiting `idea ask`
    assert "note this" not in injected(w, a["Alpha"].session_id)
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "done"})
    assert ask.result()["reply"] == "done"
    wait_until(lambda: "note this" in injected(w, a["Alpha"].session_id))
    busy = [e.activity for e in w.timeline.of(AgentActivityChanged) if e.agent_id == alpha]
    assert busy[-3:] == ["busy", "idle", "busy"]  # asking, answered, the message's turn


def test_a_shell_running_a_program_gets_its_task_once_back_at_its_prompt() -> None:
    """`python3` runs in the Shell agent's terminal: the task typed now would be Python's
    input, lost. It waits, queued, until the shell is in the foreground again."""
    w = world()
    a = setup(w, "Alpha")
    session = a["Alpha"].session_id
    w.host.running[session] = "python3"
    out = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.message", "target": "Alpha",
                                                    "text": "note this"})
    assert out["position"] == 1
    w.clock.advance(5)
    assert "note this" not in injected(w, session)
    assert w.s.orchestrator.queue_depth(ROOT, a["Alpha"].agent_id) == ("idle", 1)
    del w.host.running[session]  # python3 exited: bash is at its prompt
    w.clock.advance(1)
    wait_until(lambda: "note this" in injected(w, session))
    assert injected(w, session).startswith(": '[IdeA · ")  # the shell's no-op


def test_a_reply_names_the_current_ticket_or_nothing() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "?"})
    assert err.value.code == "NOT_FOUND"
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "t"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "x",
                                                    "ticket": "other"})
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.reply", "result": "x"})
    assert err.value.code == "FORBIDDEN"
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "fine"})
    assert ask.result()["reply"] == "fine"


def test_a_full_inbox_refuses_and_a_message_is_queued_not_refused() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    for i in range(101):
        out = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.message",
                                                        "target": "Beta", "text": f"m{i}"})
        assert out["position"] == max(0, i)  # the first is delivered at once, the rest wait
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.message", "target": "Beta",
                                                 "text": "one too many"})
    assert err.value.code == "INBOX_FULL"
    assert w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id) == ("busy", 100)


def test_asking_a_stopped_agent_launches_it_and_delivers_once_it_settled() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    agent = w.s.agents.create(ROOT, "Beta", "# Beta", "shell").entry.agent_id
    ask = Call(w, User(), {"type": "agent.ask", "target": "Beta", "task": "wake up"})
    wait_until(lambda: w.host.specs)
    session = w.host.specs[0].session_id
    layouts = w.s.projects.view(ROOT).layouts
    assert layouts is not None and layouts.active.root.session == session  # the free cell
    w.host.emit(session, "bash-5.2$ ")
    w.clock.advance(0.5)
    assert injected(w, session) == ""  # not quiet for long enough yet
    w.clock.advance(1.0)
    wait_until(lambda: "wake up" in injected(w, session))
    w.s.orchestrator.dispatch(ROOT, AgentCaller(ROOT, agent, "Beta", session),
                              {"type": "agent.reply", "result": "awake"})
    assert ask.result()["reply"] == "awake"


def test_a_view_showing_the_agent_gets_the_delivery_and_a_view_that_leaves_hands_it_back() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    beta = a["Beta"].session_id
    w.s.terminals.attach(beta, "window-7", lambda c: None)
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "look"})
    wait_until(lambda: w.timeline.of(DelegationReady))
    [ready] = w.timeline.of(DelegationReady)
    assert ready.view == "window-7" and ready.session_id == beta and "look" in ready.text
    assert injected(w, beta) == ""  # the window's portal types it, not the backend
    w.s.terminals.detach(beta, "window-7")  # gone before typing it
    wait_until(lambda: "look" in injected(w, beta))


def test_a_delivery_is_typed_once_even_when_views_come_and_go() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    beta = a["Beta"].session_id
    w.s.terminals.attach(beta, "window-1", lambda c: None)
    w.s.terminals.attach(beta, "window-2", lambda c: None)
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "once"})
    wait_until(lambda: w.timeline.of(DelegationReady))
    assert [r.view for r in w.timeline.of(DelegationReady)] == ["window-1"]
    w.s.terminals.detach(beta, "window-2")  # not the one typing it: nothing changes
    w.s.terminals.detach_view("window-1")  # the page of window-1 reloads: nobody shows it
    assert [r.view for r in w.timeline.of(DelegationReady)] == ["window-1"]
    assert injected(w, beta).count("once") == 1  # so the headless portal typed it
    w.s.terminals.attach(beta, "window-1", lambda c: None)
    w.clock.advance(1)
    assert injected(w, beta).count("once") == 1


def test_delivered_then_prompt_back_without_reply_gives_no_reply_with_the_output() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", profile="tui")
    beta = a["Beta"].session_id
    w.s.terminals.attach(beta, "window-1", lambda c: None)
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "q"})
    wait_until(lambda: w.timeline.of(DelegationReady))
    ready = w.timeline.of(DelegationReady)[-1]
    w.host.emit(beta, "tui> ")  # before delivery: ignored
    w.s.orchestrator.delivered(ROOT, ready.ticket)
    w.host.emit(beta, "thinking…\r\nthe answer is \x1b[1m42\x1b[0m\r\ntu")
    w.host.emit(beta, "i> ")
    w.clock.advance(1.5)
    with pytest.raises(AppError) as err:
        ask.result()
    assert err.value.code == "NO_REPLY"
    assert "the answer is 42" in err.value.details["outputTail"]


def test_a_stop_hook_ends_the_turn_after_a_grace_unless_the_reply_comes() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "q"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    hook = {"type": "agent.hook", "event": "stop", "payload": {"last_assistant_message": "42"}}
    w.s.orchestrator.dispatch(ROOT, a["Beta"], hook)
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "forty-two"})
    w.clock.advance(2)
    assert ask.result()["reply"] == "forty-two"
    second = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "q2"})
    wait_until(lambda: "q2" in injected(w, a["Beta"].session_id))
    w.s.orchestrator.dispatch(ROOT, a["Beta"], hook)
    w.clock.advance(2)
    with pytest.raises(AppError) as err:
        second.result()
    assert err.value.code == "NO_REPLY" and err.value.details["outputTail"] == "42"


def test_notifications_tell_waiting_apart_and_session_start_settles_early() -> None:
    w = world()
    w.s.projects.create(ROOT, "Demo")
    agent = w.s.agents.create(ROOT, "Beta", "# Beta", "shell").entry.agent_id
    session = w.s.agents.launch(ROOT, agent, None, 80, 24).session_id
    beta = AgentCaller(ROOT, agent, "Beta", session)
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.hook", "event": "session-start"})
    assert w.timeline.of(AgentActivityChanged)[-1].activity == "idle"
    Call(w, User(), {"type": "agent.message", "target": "Beta", "text": "go"})
    wait_until(lambda: injected(w, session))
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.hook", "event": "notification",
                                           "payload": {"notification_type": "permission_prompt"}})
    assert w.timeline.of(AgentActivityChanged)[-1].activity == "waiting"


def test_an_exit_mid_turn_fails_its_asker_and_the_waiting_asks() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    current = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "1"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    queued = Call(w, User(), {"type": "agent.ask", "target": "Beta", "task": "2"})
    wait_until(lambda: len(w.timeline.of(DelegationChanged)) >= 3)
    w.host.exit(a["Beta"].session_id, 1)
    for call in (current, queued):
        with pytest.raises(AppError) as err:
            call.result()
        assert err.value.code == "NO_REPLY"
    assert w.timeline.of(AgentActivityChanged)[-1].activity == "stopped"


def test_list_run_and_stop() -> None:
    w = world()
    a = setup(w, "Alpha")
    beta = w.s.agents.create(ROOT, "Beta", "# Beta", "shell").entry.agent_id
    listed = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.list"})["agents"]
    assert [(x["name"], x["running"], x["activity"]) for x in listed] == [
        ("Alpha", True, "idle"), ("Beta", False, "stopped")]
    run = w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.run", "target": beta})
    assert run["started"] is True and run["agentId"] == beta
    again = w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.run", "target": "Beta"})
    assert again == {**run, "started": False}
    stopped = w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.stop", "target": "beta"})
    assert stopped == {"agentId": beta, "stopped": True}
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.run", "target": "Nobody"})
    assert err.value.code == "NOT_FOUND" and "Alpha, Beta" in err.value.message
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.ask", "target": "Alpha"})
    assert err.value.code == "INVALID" and err.value.message == "command.task: field required"


# -- packets, the access matrix, escalation ------------------------------------------------
def test_a_receivers_matrix_refuses_a_sender_it_does_not_list() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    w.s.agents.update(ROOT, a["Beta"].agent_id,
                      persona="---\nipc:\n  receives_from: [human, Gamma]\n---\n# Beta\n")
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.ask", "target": "Beta",
                                                     "task": "x"})
    assert err.value.code == "FORBIDDEN"
    assert err.value.message == "Beta's ipc.receives_from [human, Gamma] does not include Alpha"
    assert injected(w, a["Beta"].session_id) == ""  # nothing queued
    Call(w, a["Gamma"], {"type": "agent.ask", "target": "Beta", "task": "allowed"})
    wait_until(lambda: "allowed" in injected(w, a["Beta"].session_id))


def test_an_unreadable_matrix_refuses_naming_the_persona_file_and_the_field() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    beta = a["Beta"].agent_id
    path = f"{ROOT}/.ideai/agents/beta.md"
    w.s.agents.update(ROOT, beta, persona="---\nipc:\n  sends_to: [Alpha\n---\n# Beta\n")
    with pytest.raises(AppError) as err:
        w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.ask", "target": "Beta",
                                                     "task": "x"})
    assert (err.value.code, err.value.details) == ("FORBIDDEN", {"agent": "Beta"})
    assert err.value.message.startswith(
        f"Beta's access matrix cannot be read: {path}: front matter: not YAML at line 3")
    with pytest.raises(AppError) as read:  # the card's and the matrix editor's reading
        w.s.agents.ipc(ROOT, beta)
    assert read.value.code == "INVALID"
    assert read.value.message.startswith(f"{path}: front matter: not YAML at line 3")
    with pytest.raises(AppError) as kept:  # a save never overwrites it, and says where
        w.s.agents.set_ipc(ROOT, beta, None)
    assert kept.value.code == "INVALID" and kept.value.message.startswith(f"{path}: ")
    w.s.agents.update(ROOT, beta, persona="---\nipc:\n  sends_to: Alpha\n---\n# Beta\n")
    with pytest.raises(AppError) as field:
        w.s.orchestrator.dispatch(ROOT, a["Alpha"], {"type": "agent.ask", "target": "Beta",
                                                     "task": "x"})
    assert field.value.message == (f"Beta's access matrix cannot be read: {path}: "
                                   "ipc.sends_to: expected a list of names")


def test_error_blocked_and_checkpoint_answers() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "deploy"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    beta = a["Beta"]
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.reply", "signal": "BLOCKED_ON",
                                           "context": "waiting for the database"})
    last = w.timeline.of(AgentActivityChanged)[-1]
    assert (last.activity, last.blocked_on) == ("blocked", "waiting for the database")
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.reply", "signal": "CHECKPOINT",
                                           "context": "schema migrated"})
    assert not ask.done(0.05)  # neither ends the turn
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.reply", "signal": "ERROR",
                                           "context": "the deploy key is revoked"})
    with pytest.raises(AppError) as err:
        ask.result()
    assert err.value.code == "AGENT_ERROR"
    assert err.value.message == "Beta reported an error: the deploy key is revoked"
    assert w.timeline.of(AgentActivityChanged)[-1].activity == "idle"
    from app.core.domain.conversation import conversation_id

    said = [t.text for t in w.s.conversations.turns(ROOT, conversation_id(
        a["Alpha"].agent_id, beta.agent_id))]
    assert said == ["deploy", "[CHECKPOINT] schema migrated", "ERROR: the deploy key is revoked"]


def test_an_escalation_waits_for_the_users_choice() -> None:
    from app.core.events import EscalationRaised, EscalationResolved

    w = world()
    a = setup(w, "Alpha", "Beta")
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "pick a database"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    escalate = Call(w, a["Beta"], {"type": "agent.reply", "signal": "ESCALATE",
                                   "options": ["PostgreSQL", "SQLite"]})
    wait_until(lambda: w.timeline.of(EscalationRaised))
    [raised] = w.timeline.of(EscalationRaised)
    assert raised.options == ("PostgreSQL", "SQLite") and raised.task == "pick a database"
    assert w.s.escalations.pending(ROOT) == [raised]
    assert not escalate.done(0.05)
    w.s.escalations.decide(ROOT, raised.ticket, "SQLite")
    assert escalate.result() == {"choice": "SQLite"}
    assert w.timeline.of(EscalationResolved)[-1].choice == "SQLite"
    with pytest.raises(AppError) as err:
        w.s.escalations.decide(ROOT, raised.ticket, "again")
    assert err.value.code == "NOT_FOUND"


def test_an_escalation_is_withdrawn_when_its_agent_exits() -> None:
    from app.core.events import EscalationRaised

    w = world()
    a = setup(w, "Beta")
    escalate = Call(w, a["Beta"], {"type": "agent.reply", "signal": "ESCALATE",
                                   "options": ["yes", "no"]})
    wait_until(lambda: w.timeline.of(EscalationRaised))
    w.host.exit(a["Beta"].session_id, 0)
    with pytest.raises(AppError) as err:
        escalate.result()
    assert "exited before you answered" in err.value.message
    assert w.s.escalations.pending(ROOT) == []


def test_the_graph_lists_active_and_queued_delegations() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "1"})
    wait_until(lambda: injected(w, a["Beta"].session_id))
    w.s.orchestrator.dispatch(ROOT, User(), {"type": "agent.message", "target": "Beta",
                                             "text": "2"})
    graph = w.s.orchestrator.graph(ROOT)
    assert [(g["from"], g["to"], g["kind"], g["state"]) for g in graph] == [
        (a["Alpha"].agent_id, a["Beta"].agent_id, "ask", "active"),
        ("user", a["Beta"].agent_id, "message", "queued")]


class Hangup:
    """A door's hang-up signal, fired by the test."""

    def __init__(self) -> None:
        self.callbacks: list[Any] = []

    def on_hangup(self, callback: Any) -> None:
        self.callbacks.append(callback)

    def fire(self) -> None:
        for callback in self.callbacks:
            callback()


def ask_in_thread(w: Any, asker: Any, target: str, task: str,
                  hangup: Hangup) -> tuple[threading.Thread, dict[str, Any]]:
    """`asker` asks `target` in a thread of its own (as `idea ask` would wait); the result
    dict gets the error `code` the ask ended with."""
    result: dict[str, Any] = {}

    def ask() -> None:
        try:
            w.s.orchestrator.dispatch(ROOT, asker, {"type": "agent.ask", "target": target,
                                                    "task": task}, hangup)
        except AppError as exc:
            result["code"] = exc.code

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread, result


def test_an_asker_that_hangs_up_withdraws_its_queued_ask() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    Call(w, a["Gamma"], {"type": "agent.ask", "target": "Beta", "task": "first"})
    wait_until(lambda: "first" in injected(w, a["Beta"].session_id))
    hangup = Hangup()
    thread, result = ask_in_thread(w, a["Alpha"], "Beta", "unheard", hangup)
    wait_until(lambda: hangup.callbacks)
    hangup.fire()  # ^C on `idea ask`
    thread.join(5)
    assert result == {"code": "CANCELLED"}
    assert w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id) == ("busy", 0)
    assert [(e.state, e.reason) for e in w.timeline.of(DelegationChanged)
            if e.requester == a["Alpha"].agent_id][-1] == ("failed", "CANCELLED")
    # Alpha waits on nothing any more: Beta may ask it without a false cycle
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.message", "target": "Alpha",
                                                "text": "hello"})
    Call(w, a["Beta"], {"type": "agent.ask", "target": "Alpha", "task": "fine"})
    wait_until(lambda: "fine" in injected(w, a["Alpha"].session_id)
               or "hello" in injected(w, a["Alpha"].session_id))


def test_an_asker_that_hangs_up_mid_turn_orphans_the_ask_and_its_reply_goes_to_nobody() -> None:
    w = world()
    a = setup(w, "Alpha", "Gamma")
    alpha, gamma = a["Alpha"].agent_id, a["Gamma"].agent_id
    hangup = Hangup()
    thread, result = ask_in_thread(w, a["Alpha"], "Gamma", "long work", hangup)
    wait_until(lambda: "long work" in injected(w, a["Gamma"].session_id))
    assert [(g["from"], g["to"]) for g in w.s.orchestrator.graph(ROOT)] == [(alpha, gamma)]
    hangup.fire()  # `timeout 8 idea ask Gamma …` killed the client
    thread.join(5)
    assert result == {"code": "CANCELLED"}
    states = [(e.state, e.reason) for e in w.timeline.of(DelegationChanged)
              if e.requester == alpha]
    assert states[-1] == ("failed", "CANCELLED")  # the cards stop showing it
    assert w.s.orchestrator.graph(ROOT) == []
    assert w.s.orchestrator.queue_depth(ROOT, gamma) == ("busy", 0)  # Gamma works on
    # Alpha waits on nothing: Gamma may ask it (no false cycle)
    Call(w, a["Gamma"], {"type": "agent.message", "target": "Alpha", "text": "hi"})
    # Gamma's reply is accepted and logged, answered to nobody, and not reported again
    w.s.orchestrator.dispatch(ROOT, a["Gamma"], {"type": "agent.reply", "result": "finished"})
    said = [t.text for t in w.s.conversations.turns(ROOT, conversation_id(alpha, gamma))]
    # … marked so: the log and the handoff do not read as an answer Alpha received
    assert said[-1] == ("[CANCELLED] answered after the ask was withdrawn; nobody received it: "
                        "finished")
    after = [(e.state, e.reason) for e in w.timeline.of(DelegationChanged)
             if e.requester == alpha]
    assert after == states
    wait_until(lambda: w.s.orchestrator.queue_depth(ROOT, gamma)[0] == "idle")


def test_an_ask_withdrawn_before_its_portal_typed_it_frees_the_target() -> None:
    # Trial finding: an ask held by the window's portal (the CLI's sign-in screen showed) and
    # then withdrawn (^C on `idea ask`) left the target busy for good, the prompt logged as a
    # turn with no answer.
    w = world()
    a = setup(w, "Alpha", "Beta")
    alpha, beta = a["Alpha"].agent_id, a["Beta"].agent_id
    w.s.terminals.attach(a["Beta"].session_id, "window-7", lambda c: None)
    hangup = Hangup()
    thread, result = ask_in_thread(w, a["Alpha"], "Beta", "say hi", hangup)
    wait_until(lambda: w.timeline.of(DelegationReady))  # the portal holds it, types nothing
    assert w.s.orchestrator.queue_depth(ROOT, beta) == ("busy", 0)
    hangup.fire()
    thread.join(5)
    assert result == {"code": "CANCELLED"}
    assert w.s.orchestrator.queue_depth(ROOT, beta) == ("idle", 0)
    assert [(e.state, e.reason) for e in w.timeline.of(DelegationChanged)
            if e.requester == alpha][-1] == ("failed", "CANCELLED")  # the portal drops it
    said = [t.text for t in w.s.conversations.turns(ROOT, conversation_id(alpha, beta))]
    assert said[-1].startswith("[CANCELLED] withdrawn before it was typed")
    assert w.s.orchestrator.graph(ROOT) == []
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "next one"})
    wait_until(lambda: len(w.timeline.of(DelegationReady)) == 2)  # Beta takes the next task


def test_an_asker_that_exits_leaves_no_ticket_and_no_false_cycle() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", "Gamma")
    Call(w, a["Gamma"], {"type": "agent.ask", "target": "Beta", "task": "busy"})
    wait_until(lambda: "busy" in injected(w, a["Beta"].session_id))
    gone = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "for alpha"})
    wait_until(lambda: w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id)[1] == 1)
    w.host.exit(a["Alpha"].session_id, 129)
    with pytest.raises(AppError) as err:
        gone.result()
    assert err.value.code == "CANCELLED"
    assert w.s.orchestrator.queue_depth(ROOT, a["Beta"].agent_id)[1] == 0
    alpha = w.s.agents.launch(ROOT, a["Alpha"].agent_id, None, 80, 24).session_id
    w.clock.advance(20)
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "r"})
    w.clock.advance(2)
    again = AgentCaller(ROOT, a["Beta"].agent_id, "Beta", a["Beta"].session_id)
    ask = Call(w, again, {"type": "agent.ask", "target": "Alpha", "task": "no cycle"})
    wait_until(lambda: "no cycle" in injected(w, alpha))
    assert not ask.done(0.05)


def test_a_task_cannot_press_keys_and_a_long_one_is_kept_in_a_file() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    Call(w, a["Alpha"], {"type": "agent.message", "target": "Beta",
                         "text": "compute 1\u001b[2J\u0003+1\u0004\u009b"})
    wait_until(lambda: "compute" in injected(w, a["Beta"].session_id))
    typed = injected(w, a["Beta"].session_id)
    assert "compute 1[2J+1" in typed
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in typed.rstrip("\r"))
    w.clock.advance(301)
    w.clock.advance(301)
    long_task = "line one\n" + "x" * 5_000 + "\nEND"
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": long_task})
    wait_until(lambda: "line one" in injected(w, a["Beta"].session_id))
    line = injected(w, a["Beta"].session_id)[len(typed):]
    assert len(line.encode()) < 4_000 and "(answer with: idea reply --ticket" in line
    path = line.split("is in the file ")[1].split(" - read it first")[0]
    assert path.startswith(f"{ROOT}/.ideai/tasks/") and path.endswith(".md")
    kept = w.fs.read_text(path)
    assert kept is not None and long_task in kept and "Task from Alpha" in kept
    assert "idea_reply" not in kept and "Answer with: idea reply --ticket" in kept


def typed_task(task: str, profile: str = "shell") -> tuple[str, str]:
    """What reaches Beta's terminal (agents of `profile`) when Alpha asks it `task`, and the
    ticket it names."""
    w = world()
    a = setup(w, "Alpha", "Beta", profile=profile)
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": task})
    wait_until(lambda: "touch" in injected(w, a["Beta"].session_id))
    text = injected(w, a["Beta"].session_id)
    return text, text.split("ticket ")[1].split("]")[0]


def test_a_tui_gets_the_task_as_typed_and_a_shell_gets_it_as_a_no_op() -> None:
    text, ticket = typed_task("hi; touch x #", profile="tui")
    assert text == (f"[IdeA · task from Alpha · ticket {ticket}] hi; touch x # (answer with "
                    f"idea_reply, ticket {ticket}, or: idea reply --ticket {ticket} \"…\")")
    text, ticket = typed_task("it's; touch x #")
    assert text == (f": '[IdeA · task from Alpha · ticket {ticket}] it'\\''s; touch x # "
                    f"(answer with: idea reply --ticket {ticket} \"…\")'")


def test_a_prompt_inside_the_typed_task_is_its_echo_not_the_cli_coming_back() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", profile="tui")
    beta = a["Beta"].session_id
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "sleep 6 tui> "})
    wait_until(lambda: "sleep 6" in injected(w, beta))
    w.host.emit(beta, injected(w, beta))  # the terminal echoes the typed line
    w.clock.advance(2)
    assert not ask.done(0.05)
    w.host.emit(beta, "\r\nslept\r\ntui> ")
    w.clock.advance(2)
    with pytest.raises(AppError) as err:
        ask.result()
    assert err.value.code == "NO_REPLY" and "slept" in err.value.details["outputTail"]


def test_a_fast_answer_counts_from_the_portals_first_write() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", profile="tui")
    beta = a["Beta"].session_id
    w.s.terminals.attach(beta, "window-1", lambda c: None)
    ask = Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "quick"})
    wait_until(lambda: w.timeline.of(DelegationReady))
    ready = w.timeline.of(DelegationReady)[-1]
    w.s.terminals.write(beta, 0, ready.text, ready.ticket)
    w.host.emit(beta, "answer: 4\r\ntui> ")  # before the portal's acknowledgement
    w.s.terminals.write(beta, 1, "\r", ready.ticket)
    w.s.orchestrator.delivered(ROOT, ready.ticket)
    w.clock.advance(2)
    with pytest.raises(AppError) as err:
        ask.result()
    assert err.value.code == "NO_REPLY" and "answer: 4" in err.value.details["outputTail"]


def test_a_line_left_with_text_holds_the_headless_delivery_until_it_is_clean() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta")
    beta = a["Beta"].session_id
    w.s.terminals.attach(beta, "window-1", lambda c: None)
    w.s.orchestrator.human_line(ROOT, beta, True)  # the user typed "hello", no Enter
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "wait for me"})
    wait_until(lambda: w.timeline.of(DelegationReady))
    assert w.timeline.of(DelegationReady)[-1].line_dirty is True
    w.s.terminals.detach(beta, "window-1")  # the cell closes before typing it
    w.clock.advance(5)
    assert "wait for me" not in injected(w, beta)
    w.s.orchestrator.human_line(ROOT, beta, False)  # cleared in another view
    wait_until(lambda: "wait for me" in injected(w, beta))


def test_after_a_reply_the_next_task_waits_for_the_prompt() -> None:
    w = world()
    a = setup(w, "Alpha", "Beta", profile="tui")
    beta = a["Beta"].session_id
    Call(w, a["Alpha"], {"type": "agent.ask", "target": "Beta", "task": "one"})
    Call(w, User(), {"type": "agent.message", "target": "Beta", "text": "two"})
    wait_until(lambda: "one" in injected(w, beta))
    w.s.orchestrator.dispatch(ROOT, a["Beta"], {"type": "agent.reply", "result": "1"})
    w.host.emit(beta, "replied (ticket …)\r\n")
    w.clock.advance(0.5)
    w.host.emit(beta, "still printing\r\n")
    w.clock.advance(0.75)
    assert "two" not in injected(w, beta)
    w.host.emit(beta, "tui> ")
    wait_until(lambda: "two" in injected(w, beta))


def test_a_hook_naming_the_clis_session_keeps_it_as_the_cells_resume_id() -> None:
    w = world()
    a = setup(w, "Beta")
    beta = a["Beta"]
    user_beta = conversation_id(None, beta.agent_id)
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.hook", "event": "session-start",
                                           "payload": {"session_id": "claude-abc",
                                                       "source": "startup"}})
    assert w.s.conversations.provider_id(ROOT, user_beta, "shell") == "claude-abc"
    w.s.orchestrator.dispatch(ROOT, beta, {"type": "agent.hook", "event": "stop",
                                           "payload": {"thread-id": "codex-thread-9"}})
    assert w.s.conversations.provider_id(ROOT, user_beta, "shell") == "codex-thread-9"
    stranger = AgentCaller(ROOT, beta.agent_id, "Beta", "another-session")
    w.s.orchestrator.dispatch(ROOT, stranger, {"type": "agent.hook", "event": "stop",
                                               "payload": {"session_id": "forged"}})
    assert w.s.conversations.provider_id(ROOT, user_beta, "shell") == "codex-thread-9"
