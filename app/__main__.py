"""``python -m app``: dispatch argv to the window or another subcommand."""

from __future__ import annotations

import argparse
import sys

from app.cli import build_parser, subcommands

AGENT_USAGE = """usage: idea COMMAND ...   (inside an IdeA agent's terminal)

  idea agents                      the project's agents and what they are doing
  idea ask AGENT "task"            delegate a task; waits for and prints the reply
  idea message AGENT "text"        send without waiting
  idea reply [--ticket T] "answer" answer the task IdeA typed for you
  idea COMMAND --help              the options of one command
  idea gui                         open an IdeA window (not what an agent wants)
"""
#: `idea --help` in an agent's terminal: its commands, not the window's (gui, dev, sandbox-exec…).
HELP_FLAGS = (["--help"], ["-h"])


def main(argv: list[str] | None = None) -> int:
    import os

    in_agent = bool(os.environ.get("IDEA_AGENT_ID"))
    words = list(sys.argv[1:] if argv is None else argv)
    if in_agent and words in HELP_FLAGS:
        print(AGENT_USAGE, end="")
        return 0
    parser = build_parser()
    if in_agent and words and not words[0].startswith("-") \
            and words[0] not in subcommands(parser):
        # a mistyped command in an agent's terminal: its usage, not the window's (whose
        # options and internal commands argparse's error would list)
        from app.commands.agent_cli import COMMANDS

        print(AGENT_USAGE, end="", file=sys.stderr)
        print(f"idea: error: unknown command {words[0]!r} (the commands: "
              f"{', '.join(COMMANDS)})", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command is None and in_agent:
        # a bare `idea` in an agent's terminal: a usage line, never a second window
        print(AGENT_USAGE, end="", file=sys.stderr)
        return 2
    command = args.command or "gui"
    if command == "gui":
        from app.main import run_gui

        return run_gui(data_dir=args.data_dir, projects=args.project or [])
    if command == "dev":
        from app.main import run_dev

        return run_dev(data_dir=args.data_dir, projects=args.project or [])
    if command == "mcp-server":
        return _relay(args)
    if command == "sandbox-exec":
        from app.adapters.sandbox.launcher import run_sandbox_exec

        return run_sandbox_exec(args.plan, args.argv)
    if command in ("ask", "reply", "agents", "message", "hook"):
        from app.commands.agent_cli import run

        return run(args, os.environ)
    raise SystemExit(f"unknown command {command}")


def _relay(args: argparse.Namespace) -> int:
    import os

    from app.mcp.relay import run_relay

    endpoint = args.endpoint or os.environ.get("IDEA_ENDPOINT", "")
    requester = args.requester or os.environ.get("IDEA_AGENT_ID", "")
    token = args.token if args.token is not None else os.environ.get("IDEA_TOKEN", "")
    if not endpoint or not requester:
        print("idea mcp-server: --endpoint and --requester (or IDEA_ENDPOINT and IDEA_AGENT_ID) "
              "are required", file=sys.stderr)
        return 2
    return run_relay(endpoint, requester, token)


if __name__ == "__main__":
    sys.exit(main())
