"""Command-line interface of ``python -m app`` (and of the packaged executable).

``build_parser()`` is the single source of the subcommands, so tests and packaging can enumerate
them. With no subcommand the window starts (``gui``).
"""

from __future__ import annotations

import argparse

from app import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: global options plus one subparser per subcommand."""
    parser = argparse.ArgumentParser(
        prog="idea", description="IdeA — a desktop IDE for people who work through AI coding agents"
    )
    parser.add_argument("--version", action="version", version=f"IdeA {__version__}")
    _window_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gui = sub.add_parser("gui", help="open the IdeA window (the default)")
    _window_options(gui)
    dev = sub.add_parser("dev", help="development mode: Vite dev server + Python restart on change")
    _window_options(dev)
    _agent_commands(sub)
    _sandbox_command(sub)
    return parser


def subcommands(parser: argparse.ArgumentParser) -> tuple[str, ...]:
    """The names of `parser`'s subcommands (those of `build_parser()`: gui, dev, ask …)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return tuple(action.choices)
    return ()


def _sandbox_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The sandbox launcher (SPEC C10): what IdeA runs an agent through when its permissions
    pose file rules."""
    launcher = sub.add_parser(
        "sandbox-exec", help="confine this process to a sandbox plan (Linux Landlock), then "
                             "run COMMAND; exit 126 when the plan demands a sandbox the kernel "
                             "cannot give")
    launcher.add_argument("--plan", required=True, metavar="FILE",
                          help="the plan (JSON, written by IdeA as <run dir>/sandbox-plan.json)")
    launcher.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARG...]",
                          help="the command to run confined and its arguments")


def _agent_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Door 3 and the MCP relay (docs/contracts.md §7.6): what an agent's terminal runs."""
    relay = sub.add_parser(
        "mcp-server", help="stdio MCP server of a project, relayed to its IdeA endpoint "
                           "(what an agent's CLI launches)")
    relay.add_argument("--endpoint", metavar="PATH",
                       help="the project endpoint (default: $IDEA_ENDPOINT)")
    relay.add_argument("--requester", metavar="AGENT_ID",
                       help="the agent speaking (default: $IDEA_AGENT_ID)")
    relay.add_argument("--token", metavar="TOKEN",
                       help="its launch token (default: $IDEA_TOKEN)")
    relay.add_argument("--project", metavar="DIR", help="the project root (informational)")
    ask = sub.add_parser("ask", help="delegate a task to another agent; blocks and prints its "
                                     "reply")
    ask.add_argument("agent", help="the target agent's name or id")
    ask.add_argument("task", help='the task ("-" reads it from stdin)')
    _packet_options(ask)
    reply = sub.add_parser("reply", help="answer a task IdeA delivered to you (or signal "
                                         "ERROR, BLOCKED_ON, CHECKPOINT, ESCALATE)")
    reply.add_argument("--ticket", metavar="T", help="the task's ticket (default: your current "
                                                     "task)")
    reply.add_argument("--signal", default="RETURN",
                       choices=("RETURN", "ERROR", "BLOCKED_ON", "CHECKPOINT", "ESCALATE"),
                       help="RETURN (default: the answer is RESULT); ERROR, BLOCKED_ON, "
                            "CHECKPOINT (RESULT is what you report); ESCALATE (ask the user "
                            "to choose one of the --option values, no RESULT: the packet "
                            "carries only its options; prints the choice)")
    reply.add_argument("--option", action="append", metavar="TEXT",
                       help="ESCALATE: one choice offered to the user (repeat, 2 at least)")
    reply.add_argument("result", nargs="?", default=None,
                       help='your answer or report ("-" reads it from stdin)')
    agents = sub.add_parser("agents", help="list the project's agents: name, id, profile, "
                                           "activity, queue")
    agents.add_argument("--json", action="store_true", help="print the raw JSON result")
    message = sub.add_parser("message", help="send a message to another agent without waiting")
    message.add_argument("agent", help="the target agent's name or id")
    message.add_argument("text", help='the message ("-" reads it from stdin)')
    _packet_options(message)
    hook = sub.add_parser("hook", help="report a vendor CLI hook (its JSON on stdin) to IdeA; "
                                       "always exits 0")
    hook.add_argument("event", help="session-start, stop, stop-failure or notification (the "
                                    "vendor's SessionStart, Stop, ... are accepted)")
    hook.add_argument("payload", nargs="?", default=None,
                      help="the hook's JSON, when the vendor passes it as an argument (Codex "
                           "`notify`); else it is read from stdin")


def _packet_options(parser: argparse.ArgumentParser) -> None:
    """The packet fields of a request (docs/contracts.md §8.2)."""
    parser.add_argument("--signal", default="SPAWN", choices=("SPAWN", "HANDOFF"),
                        help="SPAWN (default): a task; HANDOFF: hand your work over")
    parser.add_argument("--file", action="append", metavar="PATH",
                        help="SPAWN: a file the task concerns (repeat)")
    parser.add_argument("--zone", choices=("kernel", "project", "personal"),
                        help="SPAWN: the zone the task touches")
    parser.add_argument("--decision", metavar="TEXT", help="HANDOFF: the decision so far")


def _window_options(parser: argparse.ArgumentParser) -> None:
    default = argparse.SUPPRESS if parser.prog.endswith((" gui", " dev")) else None
    parser.add_argument(
        "--data-dir", metavar="DIR", default=default,
        help="app data directory (default: $IDEA_DATA_DIR or the platform's user data dir)",
    )
    parser.add_argument(
        "--project", metavar="DIR", action="append", default=default,
        help="open (creating if needed) the project at DIR on start; may be repeated",
    )
