"""Delegation between agents (SPEC C8): who calls, what they ask, the ticket that carries it and
the text typed into the target's terminal. Pure values and validation.

Commands are JSON objects with a `type` (docs/contracts.md §7.1); `parse_command` validates them
into the models below and raises `AppError(INVALID)` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.alias_generators import to_camel

from app.core.domain.documents import first_error
from app.core.domain.packets import ANSWER_SIGNALS, REQUEST_SIGNALS, Signal, Zone, check_packet
from app.core.domain.shell_input import TaskInput, shell_noop
from app.core.errors import INVALID, AppError

#: Longest task or message text accepted (characters).
MAX_TEXT_CHARS = 100_000


@dataclass(frozen=True)
class User:
    """The human, through IdeA's own window (trusted door)."""

    kind: Literal["user"] = "user"

    @property
    def label(self) -> str:
        """How the delivered text names this caller."""
        return "user"


@dataclass(frozen=True)
class AgentCaller:
    """An agent of project `root`, authenticated by the token of its live session."""

    root: str
    agent_id: str
    name: str
    session_id: str
    kind: Literal["agent"] = "agent"

    @property
    def label(self) -> str:
        """How the delivered text names this caller (its agent name)."""
        return self.name


Caller = User | AgentCaller


class _Command(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True,
                              extra="forbid")


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("is blank: say what to do")
    return text


#: A task or message: not blank (a whitespace-only one used to be queued and typed).
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS), AfterValidator(_not_blank)]
Target = Annotated[str, Field(min_length=1, max_length=200)]


class ListAgents(_Command):
    """`agent.list`: the project's agents with their state."""

    type: Literal["agent.list"]


class RunAgent(_Command):
    """`agent.run`: launch `target` (in a free cell of the active layout, else in the
    background) unless it runs."""

    type: Literal["agent.run"]
    target: Target


class StopAgent(_Command):
    """`agent.stop`: end `target`'s live session."""

    type: Literal["agent.stop"]
    target: Target


class _Request(_Command):
    """A packet asking for work (docs/contracts.md §8.2): SPAWN (the default; may name
    `files` and a `zone`) or HANDOFF (with the `decision` taken so far)."""

    signal: Signal = "SPAWN"
    files: list[Annotated[str, Field(min_length=1)]] | None = None
    zone: Zone | None = None
    decision: Annotated[str, Field(max_length=MAX_TEXT_CHARS)] | None = None

    def fields(self) -> set[str]:
        """The payload fields given (`task` is always there)."""
        return {"task"} | {f for f in ("files", "zone", "decision")
                           if getattr(self, f) is not None}


class MessageAgent(_Request):
    """`agent.message`: queue `text` for `target`, fire and forget."""

    type: Literal["agent.message"]
    target: Target
    text: Text


class AskAgent(_Request):
    """`agent.ask`: queue `task` for `target` and wait for its reply."""

    type: Literal["agent.ask"]
    target: Target
    task: Text


Text0 = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]


class Reply(_Command):
    """`agent.reply`: the caller's answer packet (§8.2). RETURN (the default) answers `ticket`
    (default: its current turn) with `result`; ERROR ends it with `context`; BLOCKED_ON and
    CHECKPOINT report `context` and the turn goes on; ESCALATE asks the user to choose one of
    `options` and waits for the choice."""

    type: Literal["agent.reply"]
    signal: Signal = "RETURN"
    result: Text0 | None = None
    context: Text0 | None = None
    options: list[Annotated[str, Field(min_length=1, max_length=2_000)]] | None = None
    ticket: str | None = None

    def fields(self) -> set[str]:
        """The payload fields given."""
        return {f for f in ("result", "context", "options") if getattr(self, f) is not None}


class Hook(_Command):
    """`agent.hook`: a vendor hook of the caller's CLI (`payload` = the vendor's JSON)."""

    type: Literal["agent.hook"]
    event: Literal["session-start", "stop", "stop-failure", "notification",
                   "permission-denied", "tool-failure"]
    payload: dict[str, Any] = Field(default_factory=dict)


Command = Annotated[ListAgents | RunAgent | StopAgent | MessageAgent | AskAgent | Reply | Hook,
                    Field(discriminator="type")]
_COMMAND: TypeAdapter[Command] = TypeAdapter(Command)
COMMAND_TYPES = ("agent.list", "agent.run", "agent.stop", "agent.message", "agent.ask",
                 "agent.reply", "agent.hook")


def parse_command(value: Any) -> Command:
    """Validate a command object; raises `AppError(INVALID, "command.<field>: <problem>")`."""
    if isinstance(value, dict) and value.get("type") not in COMMAND_TYPES:
        raise AppError(INVALID, f"command.type: unknown command {value.get('type')!r}; one of "
                                f"{', '.join(COMMAND_TYPES)}", {"field": "type"})
    try:
        command = _COMMAND.validate_python(value)
    except ValidationError as exc:
        path, problem = first_error(exc, value)
        path = path.split(".", 1)[1] if path.startswith("agent.") else path
        raise AppError(INVALID, f"command.{path}: {problem}" if path else f"command: {problem}",
                       {"field": path}) from exc
    if isinstance(command, MessageAgent | AskAgent):
        check_packet(command.signal, command.fields(), REQUEST_SIGNALS)
    elif isinstance(command, Reply):
        check_packet(command.signal, command.fields(), ANSWER_SIGNALS)
        if command.signal == "ESCALATE" and len(command.options or ()) < 2:
            raise AppError(INVALID, "command.options: ESCALATE needs at least two options",
                           {"field": "options"})
    return command


@dataclass(frozen=True)
class Ticket:
    """One piece of work in a target's mailbox.

    `kind`: `ask` (someone waits for the reply) or `message` (fire and forget). `requester` is
    the caller's agent id, or None for the user; `label` how the delivered text names it. The
    packet's `signal`, `files`, `zone` and `decision` ride along (§8.2).
    """

    id: str
    kind: Literal["ask", "message"]
    target: str
    requester: str | None
    label: str
    text: str
    signal: Signal = "SPAWN"
    files: tuple[str, ...] = ()
    zone: str | None = None
    decision: str | None = None


#: Longest line typed into a terminal (UTF-8 bytes): a terminal in canonical (line) mode keeps
#: 4,095 bytes of a line (Linux n_tty `N_TTY_BUF_SIZE`), so a longer task goes in a file.
MAX_TYPED_BYTES = 4_000
#: How much of a task kept in a file the typed line still shows (characters).
TASK_PREVIEW_CHARS = 300


def check_message_target(requester: str | None, target: str, name: str) -> None:
    """Raise `AppError(INVALID)` when agent `requester` messages itself (`target`, named
    `name`): it would be typed into its own terminal, logged in no conversation. An ask to
    oneself is refused as a `CYCLE` (`wait_for`)."""
    if requester is not None and requester == target:
        raise AppError(INVALID, f"refused: {name} cannot send a message to itself",
                       {"target": name})


def printable_line(text: str) -> str:
    """`text` as one line a terminal takes as typed characters: whitespace runs become one
    space and every other control character (C0, DEL, C1: Ctrl-C, Esc, …) is dropped, so a
    task can neither press keys nor submit early."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or not _is_control(ch))
    return " ".join(kept.split())


def _is_control(ch: str) -> bool:
    code = ord(ch)
    return code < 0x20 or 0x7F <= code <= 0x9F


def delivered_text(ticket: Ticket, task_file: str | None = None,
                   task_input: TaskInput = "prompt") -> str:
    """The line typed into the target's terminal for `ticket` (no newline: the profile's submit
    sequence follows), printable characters only (`printable_line`). With `task_file` (the
    task was too long to type, `MAX_TYPED_BYTES`), the line shows the task's beginning and
    points to the file holding all of it. With `task_input` `shell` (the terminal is a shell,
    `shell_input.task_input_of`) the line is the no-op `: '<line>'` (`shell_noop`): it shows
    and never runs, and it tells to answer with the `idea reply` command only (a shell has no
    MCP tool).
    """
    what = "handoff" if ticket.signal == "HANDOFF" else "task"
    extra = []
    if ticket.files:
        extra.append(f"files: {', '.join(ticket.files)}")
    if ticket.zone:
        extra.append(f"zone: {ticket.zone}")
    if ticket.decision and task_file is None:
        extra.append(f"decision so far: {ticket.decision}")
    scope = f" ({'; '.join(extra)})" if extra else ""
    shell = task_input == "shell"
    answer = "" if ticket.kind != "ask" else (
        f" (answer with: idea reply --ticket {ticket.id} \"…\")" if shell else
        f" (answer with idea_reply, ticket {ticket.id}, or: idea reply --ticket "
        f"{ticket.id} \"…\")")
    body = ticket.text
    if task_file is not None:
        preview = printable_line(ticket.text)[:TASK_PREVIEW_CHARS]
        body = (f"The whole {what} ({len(ticket.text):,} characters) is in the file "
                f"{task_file} - read it first. It begins: {preview}…")
    line = printable_line(f"[IdeA · {what} from {ticket.label} · ticket {ticket.id}] "
                          f"{body}{scope}{answer}")
    return shell_noop(line) if shell else line


def task_file_text(ticket: Ticket, task_input: TaskInput = "prompt") -> str:
    """The Markdown file holding a task too long to type: the request's header and its text
    as given (newlines kept). For a shell (`task_input` `shell`) it names the `idea reply`
    command only."""
    lines = [f"# {'Handoff' if ticket.signal == 'HANDOFF' else 'Task'} from {ticket.label}",
             "", f"Ticket: {ticket.id}"]
    if ticket.kind == "ask" and task_input == "shell":
        lines.append(f"Answer with: idea reply --ticket {ticket.id} \"…\"")
    elif ticket.kind == "ask":
        lines.append(f"Answer with idea_reply (ticket {ticket.id}) or: idea reply --ticket "
                     f"{ticket.id} \"…\"")
    if ticket.files:
        lines.append(f"Files: {', '.join(ticket.files)}")
    if ticket.zone:
        lines.append(f"Zone: {ticket.zone}")
    if ticket.decision:
        lines += ["", "## Decision so far", "", ticket.decision]
    return "\n".join([*lines, "", "## Text", "", ticket.text, ""])
