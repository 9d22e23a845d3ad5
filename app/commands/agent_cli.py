"""The `idea` command of an agent's terminal (docs/contracts.md §7.6, SPEC C8's universal
floor): `idea ask <agent> "task"` (blocks, prints the reply), `idea reply [--ticket T]
"result"`, `idea agents`, `idea message <agent> "text"`, `idea hook <event>` (a vendor hook:
reads the hook's JSON on stdin, never fails the vendor).

Each runs one command over the project endpoint named by `IDEA_ENDPOINT`, as the agent
`IDEA_AGENT_ID` with its launch token `IDEA_TOKEN`. Output: the result on stdout; errors as
`idea: <CODE>: <message>` on stderr with exit code 1 (2 for usage errors). Standard library
only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from app.commands.endpoint_client import EndpointError, call

COMMANDS = ("ask", "reply", "agents", "message", "hook")
#: The hook command's bounds (s): it must never hold the vendor CLI up.
HOOK_STDIN_TIMEOUT_S = 2.0
HOOK_CONNECT_TIMEOUT_S = 2.0
HOOK_ANSWER_TIMEOUT_S = 5.0
#: `idea ask` at a terminal says it waits once no answer came within this (s).
WAITING_LINE_AFTER_S = 0.5
_ENV = ("IDEA_ENDPOINT", "IDEA_AGENT_ID", "IDEA_TOKEN")


def utf8_streams(*streams: TextIO) -> None:
    """Make `streams` UTF-8 (keeping their error handling). On Windows a redirected standard
    stream defaults to the ANSI code page, where a reply's `✓` cannot be written; the CLIs that
    capture `idea` (Node) read UTF-8. A console is UTF-8 already; a stream without
    `reconfigure` (a test's StringIO) is left alone."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")


def run(args: argparse.Namespace, env: Mapping[str, str], *, stdin: TextIO | None = None,
        stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the parsed subcommand `args.command` (one of `COMMANDS`); returns the exit code
    (130 after Ctrl+C, with one line on stderr instead of a traceback)."""
    if sys.platform == "win32":
        utf8_streams(sys.stdin, sys.stdout, sys.stderr)
    inp, out, err = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    hook = args.command == "hook"
    missing = [name for name in _ENV if not env.get(name)]
    if missing:
        print(f"idea: {', '.join(missing)} not set: run this in an agent's terminal launched "
              "by IdeA", file=err)
        return 0 if hook else 2
    endpoint, agent, token = (env[name] for name in _ENV)
    try:
        if hook:
            given = getattr(args, "payload", None)
            payload = parse_payload(given) if given is not None else read_hook_payload(inp)
            command = hook_command(args.event, payload)
            call(endpoint, agent, token, command, timeout_s=HOOK_ANSWER_TIMEOUT_S,
                 connect_timeout_s=HOOK_CONNECT_TIMEOUT_S)
            return 0
        command = build_command(args, lambda: inp.read())
        waiting = None
        if args.command == "ask" and _is_tty(err):  # a human at the terminal: say it waits,
            # once it does (a refusal comes at once: no waiting line before it)
            waiting = threading.Timer(WAITING_LINE_AFTER_S, lambda: print(
                f"idea: asking {args.agent}; waiting for the answer (Ctrl+C withdraws the ask)",
                file=err, flush=True))
            waiting.daemon = True
            waiting.start()
        try:
            result = call(endpoint, agent, token, command)
        finally:
            if waiting is not None:
                waiting.cancel()
    except EndpointError as exc:
        print(f"idea{' hook' if hook else ''}: {exc.code}: {said_as_argument(exc)}", file=err)
        return 0 if hook else 1
    except UsageError as exc:  # as argparse's own usage errors: exit 2
        print(f"idea {args.command}: {exc}", file=err)
        return 2
    except KeyboardInterrupt:  # Ctrl+C while waiting: the closed connection withdraws an ask
        what = " (the ask is withdrawn)" if args.command == "ask" else ""
        print(f"idea{' hook' if hook else ''}: interrupted{what}", file=err)
        return 0 if hook else 130
    text = render(args, result)
    if text:
        print(text, file=out)
    return 0


#: The command's fields (docs/contracts.md §7.5) as the `idea` command line names them.
_ARGUMENTS = {"target": "AGENT", "task": "TASK", "text": "TEXT", "result": "RESULT",
              "context": "RESULT", "ticket": "--ticket", "options": "--option",
              "files": "--file", "zone": "--zone", "decision": "--decision",
              "signal": "--signal"}


def said_as_argument(exc: EndpointError) -> str:
    """`exc`'s message with a refused field named as the command line's argument (`TASK: is
    blank: say what to do`) rather than as the protocol's (`command.task: …`, which the MCP
    tools and the file protocol keep)."""
    field = exc.details.get("field")
    prefix = f"command.{field}: "
    if isinstance(field, str) and field in _ARGUMENTS and exc.message.startswith(prefix):
        return f"{_ARGUMENTS[field]}: {exc.message[len(prefix):]}"
    return exc.message


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class UsageError(ValueError):
    """A command line that names no endpoint error: the user left something out."""


def build_command(args: argparse.Namespace, read_stdin: Callable[[], str]) -> dict[str, Any]:
    """The command of `ask|reply|agents|message` (a text argument `-` is read from stdin).
    Raises `UsageError` for `reply` with neither an answer nor another signal."""
    def text(value: str) -> str:
        return read_stdin() if value == "-" else value

    def packet(command: dict[str, Any]) -> dict[str, Any]:
        if getattr(args, "signal", "SPAWN") != "SPAWN":
            command["signal"] = args.signal
        for option, key in (("file", "files"), ("zone", "zone"), ("decision", "decision")):
            value = getattr(args, option, None)
            if value is not None:
                command[key] = value
        return command

    if args.command == "ask":
        return packet({"type": "agent.ask", "target": args.agent, "task": text(args.task)})
    if args.command == "message":
        return packet({"type": "agent.message", "target": args.agent, "text": text(args.text)})
    if args.command == "reply":
        signal = getattr(args, "signal", "RETURN")
        command: dict[str, Any] = {"type": "agent.reply"}
        if signal != "RETURN":
            command["signal"] = signal
        if args.result is not None:
            command["context" if signal in ("ERROR", "BLOCKED_ON", "CHECKPOINT") else
                    "result"] = text(args.result)
        elif signal == "RETURN":  # a bare `idea reply` is a forgotten answer, not an empty one
            raise UsageError('give your answer: idea reply "..." ("" for an empty one, "-" '
                             "reads it from stdin)")
        if getattr(args, "option", None):
            command["options"] = args.option
        if args.ticket:
            command["ticket"] = args.ticket
        return command
    if args.command == "agents":
        return {"type": "agent.list"}
    raise ValueError(f"not an agent command: {args.command}")


def render(args: argparse.Namespace, result: dict[str, Any]) -> str:
    """What a command prints: the reply of an ask, one line per agent, a ticket."""
    if args.command == "ask":
        reply = result.get("reply")
        return reply if isinstance(reply, str) else json.dumps(result, ensure_ascii=False)
    if args.command == "agents":
        if args.json:
            return json.dumps(result, ensure_ascii=False)
        return agents_table([a for a in result.get("agents", []) if isinstance(a, dict)])
    if args.command == "message":
        position = result.get("position")
        where = "delivered" if position == 0 else f"queued at position {position}"
        return f"{where} (ticket {result.get('ticket')})"
    if args.command == "reply":
        if isinstance(result.get("choice"), str):
            return str(result["choice"])
        return f"{'replied' if args.signal == 'RETURN' else 'reported'} (ticket " \
               f"{result.get('ticket')})"
    return json.dumps(result, ensure_ascii=False)


def agents_table(agents: list[dict[str, Any]]) -> str:
    """`idea agents`: one aligned row per agent under a header (spaces, not tabs, so narrow
    terminals keep the columns apart); the name first, the id last; the profile by its name
    (its id where the listing has no name)."""
    rows = [("NAME", "ACTIVITY", "QUEUE", "PROFILE", "ID")]
    for agent in agents:
        state = agent.get("activity") or ("running" if agent.get("running") else "stopped")
        rows.append((str(agent.get("name")), str(state), str(agent.get("queueDepth", 0)),
                     str(agent.get("profileName") or agent.get("profileId")),
                     str(agent.get("agentId"))))
    widths = [max(cells(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join([*(cell + " " * (w - cells(cell))
                                  for cell, w in zip(row, widths, strict=False)),
                                row[-1]]) for row in rows)


def cells(text: str) -> int:
    """Terminal columns `text` takes: 2 for East Asian wide and fullwidth characters, 0 for
    combining marks and format characters, 1 otherwise (Unicode's East Asian Width, UAX #11,
    through `unicodedata`: this command is standard library only, so no `wcwidth`)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Me", "Mn", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def hook_event(name: str) -> str:
    """A vendor's hook name in the contract's spelling: `SessionStart` → `session-start`,
    `StopFailure` → `stop-failure`; kebab-case names are kept."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).replace("_", "-").lower()


def hook_command(event: str, payload: dict[str, Any]) -> dict[str, Any]:
    """`agent.hook` for `event` (normalised by `hook_event`) and the vendor's JSON."""
    return {"type": "agent.hook", "event": hook_event(event), "payload": payload}


def read_hook_payload(stdin: TextIO, timeout_s: float = HOOK_STDIN_TIMEOUT_S) -> dict[str, Any]:
    """The hook's JSON object from `stdin` (empty, unreadable within `timeout_s`, or not an
    object → `{}`); never reads a terminal."""
    try:
        if stdin.isatty():
            return {}
    except ValueError:  # closed
        return {}
    box: list[str] = []

    def read() -> None:
        try:
            raw = getattr(stdin, "buffer", None)
            box.append(raw.read().decode("utf-8", "replace") if raw else stdin.read())
        except (OSError, ValueError):
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout_s)
    return parse_payload(box[0] if box else "")


def parse_payload(text: str) -> dict[str, Any]:
    """A hook's JSON object; anything else (empty, not JSON, not an object) is `{}`."""
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
