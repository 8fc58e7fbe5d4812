"""Command line: ``python -m bot [run|verify FILE]``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.engine.errors import VerificationError
from bot.engine.verify import verify_log
from bot.settings import Settings

NO_TOKEN = """\
Aide-de-Camp needs a Discord bot token to log in.

  1. Create an application and a bot at https://discord.com/developers/applications
  2. Put its token in the environment or in a file named .env next to README.md:
         DISCORD_TOKEN=your-token-here
  3. Run again: python -m bot

No token at hand? Everything the engine does works offline:
  python -m bot verify FILE      check an exported roll log
  (see README.md, "Offline")"""

EXIT_USAGE = 2
EXIT_NO_TOKEN = 78  # EX_CONFIG


def cmd_run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_NO_TOKEN
    print(
        "The Discord interface is not part of this release yet; the rules engine is "
        "(see README.md, \"Status\").",
        file=sys.stderr,
    )
    return EXIT_NO_TOKEN


def cmd_verify(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"Cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except json.JSONDecodeError as exc:
        print(f"{path} is not JSON: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        report = verify_log(data)
    except VerificationError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Aide-de-Camp, the map-campaign bot.")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run the Discord bot (the default)")
    run.set_defaults(func=cmd_run)
    verify = sub.add_parser("verify", help="re-derive every roll of an exported roll log from its turn seeds")
    verify.add_argument("file", help="a roll log or campaign export (JSON)")
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return cmd_run(args)
    return int(args.func(args))
