"""Hot swap of an agent's profile as every door drives it (issue 10 item 6): the rules are
`SwapProfile` (app/core/usecases/swap_profile.py); this carries them out.

Order: plan (refusals happen before anything stops) → stop the live terminal and wait until
its end has been recorded (so the orchestrator has closed the old session's turn and forgotten
its engine id before the new one starts) → write the new profile → relaunch in the same cell.
A running headless turn is closed instead; the agent had no cell, so nothing relaunches.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from app.core.errors import TIMEOUT, AppError
from app.core.ports import TerminalHost
from app.core.usecases.launch_agent import LaunchResult
from app.core.usecases.profiles import LoadProfiles
from app.core.usecases.swap_profile import SwapPlan, SwapProfile
from app.services.agents import BACKGROUND_SIZE, AgentService
from app.services.headless import HeadlessTurns
from app.services.open_projects import OpenProjects
from app.services.terminal_bus import TerminalOutputBus
from app.services.views import AgentView, agent_view

#: How long the old terminal may take to end once hung up (seconds; the PTY host force-kills
#: it after its own grace, well within this).
STOP_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class Swapped:
    """The outcome of a swap: the agent as it is now, the `plan` carried out and, when a
    terminal ran, the `launch` of the new one (None otherwise)."""

    agent: AgentView
    plan: SwapPlan
    launch: LaunchResult | None


class ProfileSwapService:
    """Swaps agents' profiles on open projects. Thread-safe (one swap waits on its own
    session's end; the project lock is never held while waiting)."""

    def __init__(self, projects: OpenProjects, agents: AgentService, terminals: TerminalHost,
                 output: TerminalOutputBus, headless: HeadlessTurns, profiles: LoadProfiles,
                 swap: SwapProfile, stop_timeout_s: float = STOP_TIMEOUT_S) -> None:
        self._projects, self._agents, self._terminals = projects, agents, terminals
        self._headless, self._profiles, self._swap = headless, profiles, swap
        self._stop_timeout_s = stop_timeout_s
        self._lock = threading.Lock()
        self._ended: dict[str, threading.Event] = {}
        self._agent_locks: dict[tuple[str, str], threading.Lock] = {}
        # Registered after the session keeper's tap: it runs once the end is recorded.
        output.tap_exits(self._on_exit)

    def swap(self, root: str, agent_id: str, profile_id: str,
             size: tuple[int, int] = BACKGROUND_SIZE) -> Swapped:
        """Swap agent `agent_id` of project `root` to profile `profile_id`; a relaunched
        terminal gets `size` (cols, rows) until its cell fits it. Errors of
        `SwapProfile.plan` and `commit`; of `LaunchAgent` for the relaunch (the agent is then
        stopped, under its new profile: the message says so, `details.swapped` is true and
        `details.profileId` names the new profile); and `TIMEOUT` when the old terminal does
        not end (nothing changed). Swaps of one agent run one after the other (the second is planned
        once the first is done)."""
        with self._lock:
            one_at_a_time = self._agent_locks.setdefault((root, agent_id), threading.Lock())
        with one_at_a_time:
            return self._swap_now(root, agent_id, profile_id, size)

    def _swap_now(self, root: str, agent_id: str, profile_id: str,
                  size: tuple[int, int]) -> Swapped:
        profiles = self._profiles.execute()
        with self._projects.locked(root) as state:
            plan = self._swap.plan(state, agent_id, profile_id, profiles)
        if plan.stop_session is not None:
            self._stop_terminal(root, plan)
        if plan.stop_headless:
            self._headless.stop(root, agent_id)
        with self._projects.locked(root) as state:
            entry = self._swap.commit(state, plan)
        launch = None
        if plan.relaunch:
            try:
                launch = self._agents.launch(root, agent_id, plan.node_id, *size)
            except AppError as exc:  # the swap itself is done: say so, and why it stopped
                new = plan.profile.name or plan.profile.id
                raise AppError(exc.code, f"{plan.name} now uses {new}, but its relaunch "
                                         f"failed: {exc.message}",
                               {**exc.details, "swapped": True,
                                "profileId": plan.profile.id}) from exc
        with self._projects.locked(root) as state:
            return Swapped(agent_view(state, entry), plan, launch)

    def _stop_terminal(self, root: str, plan: SwapPlan) -> None:
        session_id = plan.stop_session
        assert session_id is not None
        ended = threading.Event()
        with self._lock:
            self._ended[session_id] = ended
        try:
            with self._projects.locked(root) as state:
                record = state.sessions.get(session_id)
                running = record is not None and record.alive
            if not running:
                return
            self._terminals.kill(session_id)
            if not ended.wait(self._stop_timeout_s):
                raise AppError(TIMEOUT, f"{plan.name}'s session did not end; its profile is "
                                        "unchanged", {"sessionId": session_id,
                                                      "timeoutS": self._stop_timeout_s})
        finally:
            with self._lock:
                self._ended.pop(session_id, None)

    def _on_exit(self, session_id: str, exit_code: int | None) -> None:
        """Exit tap (reader thread): a session a swap waits on has ended."""
        with self._lock:
            ended = self._ended.get(session_id)
        if ended is not None:
            ended.set()
