"""``python -m app``: dispatch argv to the window or another subcommand."""

from __future__ import annotations

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
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    sys.exit(main())
