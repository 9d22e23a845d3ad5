"""A task delegated to a Shell agent (the user's shell in a PTY) in the real window: it shows in
the target's terminal as the no-op `: '…'` and never runs, whatever it holds (the fresh-user
trial: `idea ask Gamma 'hi; touch /tmp/trial-pwned #'` created the file), and the answer typed
in the target's terminal with `idea reply` still comes back to the asker, which meanwhile is busy
(a message for it waits for the answer); a message leaves the Shell agent free for the next task
at once."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page

from e2e.test_delegation import activity, card, launch_pair
from e2e.ui import cells, terminal_text, type_in, wait_for, wait_terminal


def shell_pair(launch, tmp_path: Path) -> tuple[Page, str, str]:  # type: ignore[no-untyped-def]
    """Shell agents Alpha and Gamma side by side, each at a short prompt, Gamma settled:
    `(page, Alpha's session, Gamma's session)`."""
    page = launch(project=tmp_path / "proj").page
    alpha, gamma = launch_pair(page, "Shell", "Alpha", "Gamma")
    # A short prompt: bash redraws a wrapped long prompt on every resize, erasing lines above.
    for index, session in ((0, alpha), (1, gamma)):
        type_in(page, cells(page).nth(index), "PS1='$ '; echo ready-$((20+1))\n")
        wait_terminal(page, session, "ready-21")
    wait_for(lambda: activity(page, "Gamma") == "idle", what="Gamma settled")
    return page, alpha, gamma


def test_a_task_reaches_a_shell_agent_visibly_and_never_runs(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    marker = tmp_path / "trial-pwned"
    page, alpha, gamma = shell_pair(launch, tmp_path)

    type_in(page, cells(page).nth(0), f"idea ask Gamma 'hi; touch {marker} #' "
                                      "&& echo asked-$((1+2))\n")

    # Gamma's own terminal shows the task, as a no-op naming how to answer, and runs nothing.
    text = wait_terminal(page, gamma, ": '[IdeA · task from Alpha · ticket ", timeout_s=30)
    wait_terminal(page, gamma, f"hi; touch {marker} # (answer with: idea reply --ticket ")
    found = re.search(r": '\[IdeA · task from Alpha · ticket ([^\]\s]+)\]", text)
    assert found, text
    ticket = found.group(1)
    assert "idea_reply" not in terminal_text(page, gamma)
    type_in(page, cells(page).nth(1), "echo gamma-$((3+4))\n")  # its prompt is back after it
    wait_terminal(page, gamma, "gamma-7")
    gamma_text = terminal_text(page, gamma)
    assert "syntax error" not in gamma_text and "command not found" not in gamma_text
    assert not marker.exists()
    assert activity(page, "Gamma") == "busy"

    # Alpha, blocked in its own `idea ask`, is busy: a message for it waits for the answer
    # instead of being typed into the waiting command (trial finding).
    wait_for(lambda: activity(page, "Alpha") == "busy", what="Alpha busy while it asks")
    type_in(page, cells(page).nth(1), "idea message Alpha 'while-you-wait'\n")
    wait_for(lambda: card(page, "Alpha").locator('[data-testid="agent-queue"]').count() == 1,
             what="the message queued for Alpha")
    assert "] while-you-wait'" not in terminal_text(page, alpha)

    # Gamma answers from its terminal; the answer comes back to Alpha's `idea ask`.
    type_in(page, cells(page).nth(1), f'idea reply --ticket {ticket} "4"\n')
    wait_terminal(page, alpha, "asked-3", timeout_s=30)
    alpha_lines = [line.strip() for line in terminal_text(page, alpha).splitlines()]
    assert alpha_lines[alpha_lines.index("asked-3") - 1] == "4"
    text = wait_terminal(page, alpha, "] while-you-wait'", timeout_s=30)  # now it is typed
    assert text.index("asked-3") < text.index("] while-you-wait'")
    wait_for(lambda: activity(page, "Alpha") == "idle", timeout_s=15, what="Alpha idle again")
    wait_for(lambda: activity(page, "Gamma") == "idle", timeout_s=30, what="Gamma idle again")
    assert not marker.exists()

    # A message is fire and forget: Gamma shows it, runs nothing, and is free again at once
    # (trial finding: it stayed busy for two turn timeouts and queued every later ask).
    type_in(page, cells(page).nth(0), f"idea message Gamma 'fyi; touch {marker} #'\n")
    wait_terminal(page, gamma, f"] fyi; touch {marker} #'", timeout_s=30)
    wait_for(lambda: activity(page, "Gamma") == "idle", timeout_s=15,
             what="Gamma idle after a message")
    # Replying to it says why it goes nowhere (a trial got "no task in progress").
    told = re.findall(r": '\[IdeA · task from Alpha · ticket ([^\]\s]+)\] fyi",
                      terminal_text(page, gamma))[-1]
    type_in(page, cells(page).nth(1), f'idea reply --ticket {told} "ok"\n')
    wait_terminal(page, gamma, f"ticket {told} was a message from Alpha: it needs no reply")
    type_in(page, cells(page).nth(1), 'idea reply "ok"\n')  # no ticket: the last one is meant
    wait_terminal(page, gamma, f"Gamma has no task in progress to reply to: its last ticket, "
                               f"{told}, was a message from Alpha, which needs no reply")
    type_in(page, cells(page).nth(0), "idea ask Gamma 'again' && echo asked-again\n")
    text = wait_terminal(page, gamma, "again (answer with: idea reply --ticket ", timeout_s=30)
    assert not marker.exists()
    second = re.findall(r": '\[IdeA · task from Alpha · ticket ([^\]\s]+)\]", text)[-1]
    type_in(page, cells(page).nth(1), f'idea reply --ticket {second} "ok"\n')
    wait_terminal(page, alpha, "asked-again", timeout_s=30)



def test_a_task_waits_while_a_program_runs_in_the_shell_agents_terminal(launch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Trial finding: a task for a Shell agent running `python3` was typed into Python (an
    error there, the task lost). It waits until the shell is back at its prompt."""
    page, alpha, gamma = shell_pair(launch, tmp_path)
    type_in(page, cells(page).nth(1), "python3 -q\n")
    wait_terminal(page, gamma, ">>>")

    type_in(page, cells(page).nth(0), "idea message Gamma 'after-python' && echo sent-$((2*3))\n")
    wait_terminal(page, alpha, "sent-6", timeout_s=30)
    wait_for(lambda: card(page, "Gamma").locator('[data-testid="agent-queue"]').count() == 1,
             what="the message queued while python3 runs")
    time.sleep(2.5)  # two re-checks: still not typed into Python
    assert "after-python" not in terminal_text(page, gamma)

    type_in(page, cells(page).nth(1), "exit()\n")
    text = wait_terminal(page, gamma, "] after-python'", timeout_s=30)
    assert "SyntaxError" not in text and "NameError" not in text
    wait_for(lambda: activity(page, "Gamma") == "idle", timeout_s=15, what="Gamma idle again")
