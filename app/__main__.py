"""``python -m app``: dispatch argv to the window or another subcommand."""

from __future__ import annotations

import argparse
import sys

from app.cli import build_parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
        import os

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
