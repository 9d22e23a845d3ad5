"""Hot swap of an agent's profile (SPEC C5 `ChangeAgentProfile`, issue 10 item 6; digest §5.2).

The agent keeps everything IdeA owns — its persona, skills, memory, its pair conversations
(the ids are the parties' XOR, so they do not change) and their handoffs, which every launch
injects into the convention file — and loses only what the old vendor held: its own session
history. The old vendor's resume id stays in `providers.json` under the old profile's key
(`{profileId: resumeId}` per conversation) and is never read for the new profile, which starts
from its own id, if it ever had one, or fresh.

The rules here are pure: `plan` decides what a swap does (which session stops, where the agent
comes back, what is refused) before anything is touched; `commit` writes the new profile into
`agents.json`. Stopping the session and relaunching it is the services' part
(`app/services/profile_swap.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.domain.agents import AgentEntry
from app.core.domain.conversation import conversation_id
from app.core.domain.layout import LayoutDoc
from app.core.domain.layout_nodes import leaves
from app.core.domain.profiles import Profile, install_hint, missing_command_message
from app.core.errors import COMMAND_NOT_FOUND, INVALID, AppError
from app.core.ports import CommandResolver, FileSystem
from app.core.usecases.project_files import require_layouts, require_manifest, save_manifest
from app.core.usecases.project_state import ProjectState


@dataclass(frozen=True)
class SwapPlan:
    """What swapping agent `agent_id` (`name`) from `old_profile_id` to `profile` does.

    - `conversation_id`: the pair conversation of the user with the agent, the same before and
      after (its log, handoff and `providers.json` stay where they are);
    - `stop_session`: the live terminal session to stop (None: no terminal runs);
    - `stop_headless`: a headless turn is running, its structured session is closed (the turn
      ends with an error for its asker);
    - `node_id`: the cell of the active layout showing `stop_session`, where the agent
      relaunches (None with a `stop_session`: it ran in no cell of the active layout and
      relaunches in the background);
    - `relaunch`: a terminal ran, so the agent starts again under `profile`; otherwise only its
      profile changes and its next launch or headless turn uses the new one.
    """

    agent_id: str
    name: str
    old_profile_id: str
    profile: Profile
    conversation_id: str
    stop_session: str | None
    stop_headless: bool
    node_id: str | None

    @property
    def relaunch(self) -> bool:
        """True when a terminal session ran and the agent comes back under the new profile."""
        return self.stop_session is not None


class SwapProfile:
    """Plan and commit the hot swap of an agent's profile."""

    def __init__(self, fs: FileSystem, resolver: CommandResolver, shell: str) -> None:
        self._fs, self._resolver, self._shell = fs, resolver, shell

    def plan(self, project: ProjectState, agent_id: str, profile_id: str,
             profiles: Sequence[Profile]) -> SwapPlan:
        """Decide the swap of agent `agent_id` to profile `profile_id`; nothing is changed.

        `project.sessions` and `project.headless` say what runs; a session record still marked
        alive is taken as running. Raises `NOT_FOUND` (agent), `INVALID` (unknown profile,
        `details.field == "profileId"`; the profile it already has), `COMMAND_NOT_FOUND`
        ("command not found: <cmd>": the new profile cannot start here, so the live session
        is not stopped), `CORRUPT_FILE` (`agents.json` or, with a live session,
        `layouts.json`).
        """
        entry = require_manifest(project).get(agent_id)
        profile = next((p for p in profiles if p.id == profile_id), None)
        if profile is None:
            raise AppError(INVALID, f"unknown profile '{profile_id}'",
                           {"field": "profileId", "profileId": profile_id})
        if profile.id == entry.profile_id:
            raise AppError(INVALID, f"{entry.name} already uses {profile.name or profile.id}",
                           {"field": "profileId", "profileId": profile_id})
        command = profile.command or self._shell
        if not command or self._resolver.which(command) is None:
            raise AppError(COMMAND_NOT_FOUND,
                           missing_command_message(
                               command, profile, f"{entry.name} keeps its profile and its session"),
                           {"command": command, "profileId": profile_id,
                            "install": install_hint(profile)})
        live = project.live_agent(agent_id)
        stop = live.session_id if live is not None else None
        node = cell_showing(require_layouts(project), stop) if stop is not None else None
        return SwapPlan(agent_id=agent_id, name=entry.name, old_profile_id=entry.profile_id,
                        profile=profile, conversation_id=conversation_id(None, agent_id),
                        stop_session=stop, stop_headless=agent_id in project.headless,
                        node_id=node)

    def commit(self, project: ProjectState, plan: SwapPlan) -> AgentEntry:
        """Write `plan.profile` as the agent's profile in `agents.json` (the rest of its entry,
        unknown keys included, untouched). Raises `NOT_FOUND` (deleted meanwhile),
        `CORRUPT_FILE`, `NOT_WRITABLE`."""
        manifest = require_manifest(project)
        entry = manifest.get(plan.agent_id).model_copy(update={"profile_id": plan.profile.id})
        save_manifest(self._fs, project, manifest.with_agent(entry))
        return entry


def cell_showing(doc: LayoutDoc, session_id: str) -> str | None:
    """The id of the leaf of the active layout that shows `session_id`, or None."""
    return next((leaf.id for leaf in leaves(doc.active.root) if leaf.session == session_id),
                None)
