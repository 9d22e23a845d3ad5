"""Resume after a restart (issue 10 item 7, SPEC C5/C9; seed ARCHITECTURE §15, §19.7): which
agents of a project were running in a cell when IdeA last stopped, and how each resumes its
own conversation. Pure: the vendor ids are looked up through the `provider_id` callable.

A cell of the active layout marked `agentWasRunning` whose agent has no live session now is
resumable. The conversation is the pair's (the user ↔ the agent, `conversation_id(None,
agent)`); `providers.json` of that conversation holds the CLI's own id per profile. The agent
resumes with that id through its profile's resume arguments (`--resume <id>`, Codex's `resume
<id>`; never `--continue`, which would pick whichever session was last); a profile that cannot
resume, or a pair with no id kept, relaunches fresh with the handoff injected, and the panel
says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.core.domain.conversation import conversation_id
from app.core.domain.layout_nodes import Leaf, find_leaf, leaves
from app.core.domain.layout_ops import assign
from app.core.domain.profiles import Profile, resume_args, structured_of
from app.core.errors import INVALID, NOT_FOUND, AppError
from app.core.ports import FileSystem
from app.core.usecases.project_files import require_layouts, require_manifest, save_layouts
from app.core.usecases.project_state import ProjectState

#: `resume`: relaunched with the CLI's own id; `fresh`: relaunched without one (handoff injected).
ResumeHow = Literal["resume", "fresh"]
#: The user's answer for one agent of the panel.
Choice = Literal["resume", "new", "ignore"]
CHOICES: tuple[Choice, ...] = ("resume", "new", "ignore")

#: `(conversation id, profile id) -> the CLI's own id`, or None.
ProviderIds = Callable[[str, str], str | None]


@dataclass(frozen=True)
class Resumable:
    """One agent the resume panel lists: the cell `node_id` it ran in, the agent, its profile,
    the CLI's own id `resume_id` (None: none kept), `how` it would come back and `note`, the
    sentence the panel shows (e.g. "resumes Claude Code session 5f1c…")."""

    node_id: str
    agent_id: str
    agent_name: str
    profile_id: str
    profile_name: str
    conversation_id: str
    resume_id: str | None
    how: ResumeHow
    note: str

    def to_json(self) -> dict[str, Any]:
        """`{"nodeId", "agentId", "agentName", "profileId", "profileName", "conversationId",
        "resumeId", "how", "note"}`."""
        return {"nodeId": self.node_id, "agentId": self.agent_id, "agentName": self.agent_name,
                "profileId": self.profile_id, "profileName": self.profile_name,
                "conversationId": self.conversation_id, "resumeId": self.resume_id,
                "how": self.how, "note": self.note}


def plan_resume(agent_id: str, agent_name: str, node_id: str, profile: Profile | None,
                profile_id: str, provider_id: ProviderIds,
                cell_conversation: str | None = None) -> Resumable:
    """How agent `agent_id` (shown in cell `node_id`) comes back under `profile` (None: the
    profile is gone; it is listed all the same and its launch will say why).

    The conversation is the cell's `conversationId` (what the original IdeA stored) when its
    `providers.json` has an id for the profile, else the pair's (`conversation_id(None,
    agent_id)`, where IdeA's vendor hooks keep it)."""
    conversation = conversation_id(None, agent_id)
    name = profile.name or profile.id if profile is not None else profile_id
    if profile is None:
        return Resumable(node_id, agent_id, agent_name, profile_id, name, conversation, None,
                         "fresh", f"its profile '{profile_id}' is not configured")
    found = None
    if cell_conversation and cell_conversation != conversation:
        found = provider_id(cell_conversation, profile.id)
        if found:
            conversation = cell_conversation
    found = found or provider_id(conversation, profile.id)
    can_resume = resume_args(profile, found or "id") is not None
    if found and can_resume:
        return Resumable(node_id, agent_id, agent_name, profile.id, name, conversation, found,
                         "resume", f"resumes its {name} session {found}")
    if found and structured_of(profile) is not None:
        note = (f"{name} has no resume flag: its terminal starts a new conversation (handoff "
                f"injected); its headless turns resume session {found}")
    elif found or not can_resume:
        note = f"{name} cannot resume a session: it starts a new one with the handoff injected"
    else:
        note = f"no {name} session id was kept: it starts a new one with the handoff injected"
    return Resumable(node_id, agent_id, agent_name, profile.id, name, conversation, found,
                     "fresh", note)


def find_resumable(project: ProjectState, profiles: Sequence[Profile],
                   provider_id: ProviderIds) -> list[Resumable]:
    """The agents of `project` to offer in the resume panel, in the active layout's cell
    order: cells marked `agentWasRunning` whose agent exists and has no live session (nor a
    headless turn). Raises `CORRUPT_FILE` when the layouts or the manifest cannot be read."""
    doc = require_layouts(project)
    manifest = require_manifest(project)
    known = {a.agent_id: a for a in manifest.agents}
    by_id = {p.id: p for p in profiles}
    out: list[Resumable] = []
    seen: set[str] = set()
    for leaf in leaves(doc.active.root):
        agent = known.get(leaf.agent or "")
        if not leaf.agent_was_running or agent is None or agent.agent_id in seen:
            continue
        seen.add(agent.agent_id)
        if project.live_agent(agent.agent_id) is not None or agent.agent_id in project.headless:
            continue
        cell_conversation = leaf.extra.get("conversationId")
        out.append(plan_resume(agent.agent_id, agent.name, leaf.id,
                               by_id.get(agent.profile_id), agent.profile_id, provider_id,
                               cell_conversation if isinstance(cell_conversation, str) else None))
    return out


def resumable_in(project: ProjectState, node_id: str, profiles: Sequence[Profile],
                 provider_id: ProviderIds) -> Resumable:
    """The resumable agent of cell `node_id`. Raises `NOT_FOUND` (no such cell, or nothing to
    resume there: already resumed or ignored)."""
    found = next((r for r in find_resumable(project, profiles, provider_id)
                  if r.node_id == node_id), None)
    if found is None:
        raise AppError(NOT_FOUND, f"no agent to resume in cell '{node_id}'",
                       {"nodeId": node_id})
    return found


def check_choice(choice: str) -> Choice:
    """`choice` as a `Choice`. Raises `INVALID` (field `choice`)."""
    for known in CHOICES:
        if choice == known:
            return known
    raise AppError(INVALID, f"choice: expected one of {', '.join(CHOICES)}, got '{choice}'",
                   {"field": "choice"})


def forget_was_running(fs: FileSystem, project: ProjectState, node_id: str) -> None:
    """"Ignore": cell `node_id` keeps its agent but is no longer marked `agentWasRunning`, so
    the panel does not offer it again (no undo step). Raises `NOT_FOUND`, `NOT_WRITABLE`."""
    doc = require_layouts(project)
    leaf = find_leaf(doc.active.root, node_id)
    if not isinstance(leaf, Leaf):
        raise AppError(NOT_FOUND, f"no cell '{node_id}'", {"nodeId": node_id})
    root = assign(doc.active.root, node_id, leaf.session, leaf.agent, agent_was_running=False)
    save_layouts(fs, project, doc.with_active_root(root), record=False)
