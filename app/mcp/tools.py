"""The MCP tools of IdeA (docs/contracts.md §7.5) as data: each maps to one orchestrator command
(§7.1). Pure: the `mcp` SDK types are built from these specs in `app.mcp.server`.

The descriptions are what the agent's model reads to decide when and how to call a tool.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.core.errors import INVALID, AppError

INSTRUCTIONS = (
    "IdeA runs several AI agents side by side on this project. Use these tools to see the other "
    "agents and delegate to them. When a message in your input starts with "
    "`[IdeA · task from <agent> · ticket <T>]`, it is a task from another agent (or the user): "
    "do it, then answer with idea_reply(result=<your full answer>, ticket=\"<T>\") — the asker "
    "is blocked until you do."
)


@dataclass(frozen=True)
class Param:
    """An argument: a string (one of `choices` when given) or, `list`, an array of strings;
    `optional` ones may be omitted or null."""

    name: str
    description: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    list: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, the command `type` it runs, what the model reads, its arguments.

    `waits`: the call blocks until another agent acts (the server reports progress meanwhile).
    `answer`: the result field returned as the tool's text (else the result as compact JSON).
    """

    name: str
    command: str
    description: str
    params: tuple[Param, ...] = ()
    waits: bool = False
    answer: str | None = None
    read_only: bool = False
    destructive: bool = False


_TARGET = Param("target", "The agent: its name (case-insensitive) or its id, as listed by "
                          "idea_list_agents.")
#: The packet fields of a request (docs/contracts.md §8.2, seed 004's context packet).
_REQUEST = (
    Param("signal", "SPAWN (the default: a task to do) or HANDOFF (hand your work over, with "
                    "`decision`).", optional=True, choices=("SPAWN", "HANDOFF")),
    Param("files", "SPAWN only: the files the task concerns (paths in the project).",
          optional=True, list=True),
    Param("zone", "SPAWN only: the zone the task touches.", optional=True,
          choices=("kernel", "project", "personal")),
    Param("decision", "HANDOFF only: the decision taken so far.", optional=True),
)

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "idea_list_agents", "agent.list",
        "List the agents of this IdeA project, to find who to delegate to. Returns compact JSON "
        "{agents: [{agentId, name, profileId, profileName, running, activity, queueDepth}]}: activity is "
        "starting, idle, busy, waiting (for its user's permission or input) or stopped; "
        "queueDepth counts the tasks waiting in its mailbox.",
        read_only=True),
    ToolSpec(
        "idea_ask_agent", "agent.ask",
        "Delegate a task to another agent of this project and WAIT for its answer: this call "
        "blocks until the target replies (after the tasks queued before yours; a turn times "
        "out after 5 minutes) and returns the reply text. The target receives the task in its "
        "own terminal and answers with idea_reply. Write a self-contained task: the target "
        "does not see your conversation. Errors start with a code: NOT_FOUND (no such agent), "
        "CYCLE (the target is, directly or not, waiting for you), INBOX_FULL, TIMEOUT, "
        "NO_REPLY (its turn ended without idea_reply). To send without waiting, use "
        "idea_message_agent.",
        (_TARGET, Param("task", "What the target should do, with everything it needs to know; "
                                "its answer comes back as this tool's result."), *_REQUEST),
        waits=True, answer="reply"),
    ToolSpec(
        "idea_message_agent", "agent.message",
        "Send a message to another agent without waiting (fire and forget): it is queued in "
        "the target's mailbox and typed into its terminal when the target is free. Returns "
        "compact JSON {ticket, position} (position 0 = delivered now). No answer comes back; "
        "use idea_ask_agent when you need one.",
        (_TARGET, Param("text", "The message."), *_REQUEST)),
    ToolSpec(
        "idea_reply", "agent.reply",
        "Answer a task IdeA delivered to you. Such a task arrives in your input as "
        "`[IdeA · task from <agent> · ticket <T>] <task>`; when you are done, call idea_reply "
        "once with your complete answer as `result` and that ticket as `ticket`. The asking "
        "agent is blocked until you do and receives `result` verbatim. Without `ticket` it "
        "answers your current task. Other signals: ERROR (with `context`: you cannot do it; "
        "ends the task), BLOCKED_ON (`context`: what blocks you; the task goes on), CHECKPOINT "
        "(`context`: progress worth keeping), ESCALATE (`options`: 2+ choices only the user can "
        "make — this call waits for the user's choice and returns it). Returns compact JSON "
        "{ticket}, or the user's choice for ESCALATE.",
        (Param("result", "RETURN: your complete answer to the task (plain text or Markdown).",
               optional=True),
         Param("ticket", "The ticket id from the task's `[IdeA · … · ticket <T>]` prefix.",
               optional=True),
         Param("signal", "RETURN (the default), ERROR, BLOCKED_ON, CHECKPOINT or ESCALATE.",
               optional=True, choices=("RETURN", "ERROR", "BLOCKED_ON", "CHECKPOINT",
                                       "ESCALATE")),
         Param("context", "ERROR, BLOCKED_ON, CHECKPOINT: what to report.", optional=True),
         Param("options", "ESCALATE: the choices offered to the user.", optional=True,
               list=True)),
        waits=True, answer="choice"),
    ToolSpec(
        "idea_launch_agent", "agent.run",
        "Start another agent of this project (in a free cell of the IdeA window, else in the "
        "background) so it can take tasks. Returns compact JSON {agentId, sessionId, started}; "
        "started is false when it was already running.",
        (_TARGET,)),
    ToolSpec(
        "idea_stop_agent", "agent.stop",
        "Stop another agent's running session (its CLI process ends; its persona, memory and "
        "conversations stay). Returns compact JSON {agentId, stopped}.",
        (_TARGET,), destructive=True),
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}


def input_schema(tool: ToolSpec) -> dict[str, Any]:
    """The tool's JSON Schema: an object of string (or string array) properties, optional ones
    also null, choices as an enum."""
    properties: dict[str, Any] = {}
    for p in tool.params:
        kind = "array" if p.list else "string"
        prop: dict[str, Any] = {"type": [kind, "null"] if p.optional else kind,
                                "description": p.description}
        if p.list:
            prop["items"] = {"type": "string"}
        if p.choices:
            prop["enum"] = [*p.choices, *([None] if p.optional else [])]
        properties[p.name] = prop
    return {"type": "object", "properties": properties,
            "required": [p.name for p in tool.params if not p.optional],
            "additionalProperties": False}


def to_command(tool: ToolSpec, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The command of a call: `{"type": tool.command, <arguments>}` (a null optional argument
    left out). Raises `AppError(INVALID)` for an unknown, missing or non-string argument."""
    args = dict(arguments or {})
    known = {p.name for p in tool.params}
    unknown = sorted(set(args) - known)
    if unknown:
        raise AppError(INVALID, f"{tool.name}: unknown argument {unknown[0]!r}; it takes "
                                f"{', '.join(sorted(known)) or 'no arguments'}", {"field": unknown[0]})
    command: dict[str, Any] = {"type": tool.command}
    for p in tool.params:
        value = args.get(p.name)
        if value is None and p.optional:
            continue
        if value is None:
            raise AppError(INVALID, f"{tool.name}: missing argument {p.name!r}", {"field": p.name})
        if p.list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise AppError(INVALID, f"{tool.name}: {p.name!r} must be a list of strings",
                               {"field": p.name})
        elif not isinstance(value, str):
            raise AppError(INVALID, f"{tool.name}: {p.name!r} must be a string",
                           {"field": p.name})
        elif p.choices and value not in p.choices:
            raise AppError(INVALID, f"{tool.name}: {p.name!r} must be one of "
                                    f"{', '.join(p.choices)}", {"field": p.name})
        command[p.name] = value
    return command


def render(tool: ToolSpec, result: dict[str, Any]) -> str:
    """The text of a successful call: the `answer` field when the tool has one and it is a
    string, else the result as compact JSON."""
    if tool.answer is not None and isinstance(result.get(tool.answer), str):
        return str(result[tool.answer])
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def error_text(error: AppError) -> str:
    """`<CODE>: <message>`, the text of a failed call."""
    return f"{error.code}: {error.message}"
