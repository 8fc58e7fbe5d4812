"""Command line: ``python -m bot [run|verify FILE|health|demo|scenario generate|paint|palette]``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.campaign.botsettings import LANGUAGES
from bot.engine.errors import InvalidInput, VerificationError
from bot.engine.verify import parse_announced, verify_log
from bot.settings import Settings, SettingsError

NO_TOKEN = """\
Aide-de-Camp needs a Discord bot token to log in.

  1. Create an application and a bot at https://discord.com/developers/applications
  2. Put its token in the environment or in a file named .env next to README.md:
         DISCORD_TOKEN=your-token-here
  3. Run again: python -m bot

No token at hand? Try the offline demo, which plays two turns without Discord:
  python -m bot demo --scenario tutorial --turns 2 --seed 7 --out out/demo
  python -m bot verify out/demo/roll-log.json      check every roll of its log
  (see README.md, "Offline")"""

BAD_TOKEN = """\
Discord refused the bot token (login failed).

  Check DISCORD_TOKEN in the environment or in .env next to README.md: it must be the token of
  the bot (Developer Portal -> your application -> Bot -> Reset Token), not the client secret or
  the application id. A token that was reset is no longer valid."""

EXIT_USAGE = 2
EXIT_NO_TOKEN = 78  # EX_CONFIG
EXIT_BAD_TOKEN = 78  # EX_CONFIG too: the configuration is wrong either way
EXIT_UNREACHABLE = 69  # EX_UNAVAILABLE
EXIT_UNHEALTHY = 1

UNREACHABLE = """\
Cannot reach Discord (network error: {reason}).

  Check the machine's internet connection, proxy and DNS, then run again."""

DISCORD_DOWN = """\
Discord could not log the bot in: it answered HTTP {status} ({reason}), a problem on Discord's side.

  Nothing is wrong with the token or this machine. Check https://discordstatus.com and run again
  later (a supervisor such as Docker's restart policy can do it for you)."""

BAD_SETTING = """\
A setting in the environment (or .env) is wrong: {error}

  See the table of variables in README.md."""

HEALTH_MAX_AGE = 300.0
"""Seconds: the watchdog writes the heartbeat every minute (the deadline interval)."""


class KeyValueFormatter(logging.Formatter):
    """One ``key=value`` line per record (``ts level logger msg`` first), exceptions on the lines after."""

    def __init__(self, secrets: Sequence[str] = ()) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        msg = record.getMessage()
        line = (f"ts={self.formatTime(record, '%Y-%m-%dT%H:%M:%S')} level={record.levelname.lower()} "
                f"logger={record.name} ")
        line += msg if "=" in msg.split(" ", 1)[0] else f"msg={json.dumps(msg)}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        for secret in self.secrets:  # never print the token, wherever it came from
            line = line.replace(secret, "[token]")
        return line


def configure_logging(level: int = logging.INFO, *, secrets: Sequence[str] = (),
                      stream: object = None) -> logging.Handler:
    """Structured logs on stderr for the bot and discord.py."""
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    handler.setFormatter(KeyValueFormatter(secrets))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, KeyValueFormatter)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    return handler


async def _run_bot(settings: Settings) -> None:
    import discord

    from bot.app import create_bot

    discord.VoiceClient.warn_nacl = False  # the bot has no voice: no warnings about voice libraries
    discord.VoiceClient.warn_dave = False

    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):  # SIGTERM (docker stop): close cleanly
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
    async with bot:
        await bot.start(settings.discord_token or "")


def cmd_run(args: argparse.Namespace) -> int:
    import aiohttp
    import discord

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(BAD_SETTING.format(error=exc), file=sys.stderr)
        return EXIT_NO_TOKEN
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_NO_TOKEN
    configure_logging(secrets=[settings.discord_token])
    log = logging.getLogger("adc.cli")
    log.info("event=starting database=%s shard=%s shard_count=%s shard_ids=%s dev_guild=%s",
             _safe_url(settings.database_url), settings.shard, settings.shard_count,
             ",".join(map(str, settings.shard_ids)) if settings.shard_ids is not None else "all", settings.dev_guild)
    try:
        asyncio.run(_run_bot(settings))
    except discord.LoginFailure:
        log.error("event=login_failed reason=bad_token")
        print(BAD_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        log.error("event=login_failed reason=privileged_intents")
        return EXIT_BAD_TOKEN
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        log.error("event=unreachable reason=%s", type(exc).__name__)
        print(UNREACHABLE.format(reason=type(exc).__name__), file=sys.stderr)
        return EXIT_UNREACHABLE
    except discord.DiscordServerError as exc:  # 5xx, after discord.py's own retries
        log.error("event=unreachable reason=server_error status=%s", exc.status)
        print(DISCORD_DOWN.format(status=exc.status, reason=getattr(exc.response, "reason", None) or "server error"),
              file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        log.info("event=stopped reason=interrupt")
    return 0


def _safe_url(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is shown as its scheme only
        return url.split(":", 1)[0]


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
        announced = parse_announced(args.announced) if args.announced else None
        report = verify_log(data, announced)
    except VerificationError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    lang = getattr(args, "lang", None) or "en"
    if lang != "en":
        from bot.i18n.text import tr  # the catalogues only when asked for another language

        for line in report.lines():
            print(tr(lang, line))
    else:
        for line in report.lines():
            print(line)
    return 0 if report.ok else 1


def cmd_health(args: argparse.Namespace) -> int:
    """Healthy (0) when the bot's heartbeat file is younger than ``--max-age`` seconds; no Discord needed."""
    import time

    if args.file:
        path = Path(args.file)
    else:
        try:
            path = Settings.from_env().heartbeat_file
        except SettingsError as exc:
            print(f"unhealthy: {exc}", file=sys.stderr)
            return EXIT_UNHEALTHY
    try:
        age = time.time() - path.stat().st_mtime
        beat = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        print(f"unhealthy: no heartbeat at {path} (is the bot running?)", file=sys.stderr)
        return EXIT_UNHEALTHY
    except json.JSONDecodeError:
        beat = {}
    loops = beat.get("loops") if isinstance(beat, dict) else None
    detail = f"pid={beat.get('pid')} ready={beat.get('ready')} loops={loops}" if isinstance(beat, dict) else ""
    if age > args.max_age:
        print(f"unhealthy: the heartbeat is {age:.0f} s old (more than {args.max_age:.0f} s) {detail}", file=sys.stderr)
        return EXIT_UNHEALTHY
    print(f"healthy: heartbeat {age:.0f} s ago {detail}")
    return 0


def _argument(parse: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse type from a parser of bot.generate: its refusal becomes argparse's own error, which
    names the argument (``argument --size: A map size is ...``) and exits 2, without a traceback."""
    def convert(text: str) -> object:
        try:
            return parse(text)
        except InvalidInput as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = parse.__name__.removeprefix("parse_")
    return convert


def cmd_generate(args: argparse.Namespace) -> int:
    """MC-0: draw a scenario from the parameters and a seed; YAML to ``-o`` (or stdout), a summary line."""
    import secrets

    from bot import generate
    from bot.scenario import parse_scenario

    width, height = args.size
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    checks: tuple[tuple[str, Callable[[], None]], ...] = (
        ("--sides", lambda: generate.check_sides(args.sides)),
        ("--size", lambda: generate.check_size(width, height, args.sides)),
        ("--seed", lambda: generate.check_seed(seed)),
        ("--alliance", lambda: generate.check_alliances(args.alliance, args.sides)),
    )
    for name, check in checks:
        try:
            check()
        except InvalidInput as exc:
            print(f"python -m bot scenario generate: error: argument {name}: {exc}", file=sys.stderr)
            return EXIT_USAGE
    params = generate.Params(args.climate, args.season, width, height, args.sides, tuple(args.alliance), seed)
    world = generate.generate_world(params)
    data = generate.scenario_data(world, params)
    spec = parse_scenario(data, key="generated")  # what an upload goes through: a generator defect shows here
    text = scenario_yaml(data)
    if not _written(text, args.output):
        return EXIT_USAGE
    summary = (f"{spec.name}: {params.width}x{params.height}, {params.season.value} {spec.start_date}, "
               f"{len(spec.sides)} sides ({', '.join(s.key for s in spec.sides)}), {len(world.rivers)} rivers, "
               f"{len(data['map']['roads'])} road squares, {len(data['map']['bridges'])} bridges, "
               f"{len(world.strongholds)} strongholds, {len(spec.forces)} Forces"
               + (f" -> {args.output}" if args.output else ""))
    # With -o the summary is the output; without, the YAML is, and the summary goes to stderr.
    print(summary, file=sys.stdout if args.output else sys.stderr)
    return 0


def _written(text: str, output: str | None) -> bool:
    """``text`` written to ``output`` (stdout when None); False, said on stderr, when it cannot be."""
    if not output:
        sys.stdout.write(text)
        return True
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"Cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def cmd_paint(args: argparse.Namespace) -> int:
    """A scenario from a painted map and a small YAML (docs/scenario-format.md, "Painted maps"): YAML to
    ``-o`` (or stdout), a summary line; a refusal names the colour or field, exit code 2."""
    from bot.paint import painted_scenario
    from bot.scenario import parse_scenario_text

    try:
        image = Path(args.image).read_bytes()
        small = Path(args.yaml).read_bytes()
    except OSError as exc:
        print(f"Cannot read {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        text = painted_scenario(image, small)
        spec = parse_scenario_text(text, key="painted")  # what an upload goes through
    except InvalidInput as exc:
        print(f"python -m bot scenario paint: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not _written(text, args.output):
        return EXIT_USAGE
    summary = (f"{spec.name}: {spec.map.width}x{spec.map.height} from {args.image}, {len(spec.sides)} sides "
               f"({', '.join(s.key for s in spec.sides)}), {len(spec.forces)} Forces"
               + (f" -> {args.output}" if args.output else ""))
    print(summary, file=sys.stdout if args.output else sys.stderr)
    return 0


def cmd_palette(args: argparse.Namespace) -> int:
    """The painted maps' palette as a PNG legend: a swatch, the terrain and its hex code per line."""
    from bot.paint import palette_png

    try:
        Path(args.output).write_bytes(palette_png(args.scale))
    except OSError as exc:
        print(f"Cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"palette: {args.output}")
    return 0


def scenario_yaml(data: dict[str, object]) -> str:
    """A scenario as YAML, always the same text for the same data: keys in the order given, the map's
    rows one per line (a picture of the map), other short lists and mappings inline."""
    import yaml

    class Rows(list):  # type: ignore[type-arg]
        """The map's rows: written one per line."""

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(Rows, lambda dumper, rows: dumper.represent_sequence("tag:yaml.org,2002:seq", rows,
                                                                                flow_style=False))
    out = dict(data)
    if isinstance(out.get("map"), dict) and "rows" in out["map"]:  # type: ignore[operator]
        out["map"] = {**out["map"], "rows": Rows(out["map"]["rows"])}  # type: ignore[index,dict-item]
    return yaml.dump(out, Dumper=Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Aide-de-Camp, the map-campaign bot.")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run the Discord bot (the default)")
    run.set_defaults(func=cmd_run)
    verify = sub.add_parser("verify", help="re-derive every roll of an exported roll log from its turn seeds")
    verify.add_argument("file", help="a roll log or campaign export (JSON)")
    verify.add_argument("--announced", help="the chain heads announced in the channel (each turn's gazette "
                        "fingerprint), like '1: 2315d3c9fcf5cf10, 2: 8d6af4beea411629'")
    verify.add_argument("--lang", choices=LANGUAGES, default="en",
                        help="the language of the report (default: English; issue 23)")
    verify.set_defaults(func=cmd_verify)
    health = sub.add_parser("health", help="exit 0 when the running bot's heartbeat file is fresh (for HEALTHCHECK)")
    health.add_argument("--file", help="the heartbeat file (default: ADC_HEARTBEAT, or heartbeat in ADC_DATA_DIR)")
    health.add_argument("--max-age", type=float, default=HEALTH_MAX_AGE, help="seconds (default %(default)s)")
    health.set_defaults(func=cmd_health)
    scenario = sub.add_parser("scenario", help="scenario tools: generate, paint, palette")
    scenario_sub = scenario.add_subparsers(dest="scenario_command", required=True)
    _add_generate(scenario_sub)
    _add_paint(scenario_sub)
    # Listed for --help; main() hands its arguments to bot.demo's own parser.
    sub.add_parser("demo", help="play scripted turns offline: a PNG per phase and a Markdown log (demo --help)")
    return parser


def _add_generate(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from bot import generate
    from bot.engine.model import Climate, Season

    gen = sub.add_parser("generate", help="draw a new scenario from a climate, a season, a size, sides and a seed (MC-0)",
                         description="Draw a playable scenario (MC-0): terrain, rivers, roads, territories, capitals, "
                                     "strongholds and Forces. The same arguments give the same scenario.")
    gen.add_argument("--climate", type=_argument(generate.parse_climate), default=Climate.TEMPERATE,
                     help=f"climate zone: {', '.join(c.value for c in Climate)} (default temperate)")
    gen.add_argument("--season", type=_argument(generate.parse_season), default=Season.SPRING,
                     help=f"season of the start: {', '.join(s.value for s in Season)} (default spring)")
    gen.add_argument("--size", type=_argument(generate.parse_size), default=generate.DEFAULT_SIZE,
                     help=f"WIDTHxHEIGHT in squares, {generate.MIN_SIDE} to {generate.MAX_SIDE} each (default 36x26)")
    gen.add_argument("--sides", type=int, default=2,
                     help=f"{generate.MIN_SIDES} to {generate.MAX_SIDES}: {', '.join(generate.SIDE_KEYS)}, in that "
                          "order (default 2)")
    gen.add_argument("--alliance", type=_argument(generate.parse_alliance), action="append", default=[],
                     help="side keys fighting together, like fr,au (RU-19); may be given again")
    gen.add_argument("--seed", type=int, help="a whole number from 0 (default: a random one, printed)")
    gen.add_argument("-o", "--output", help="write the YAML here (default: standard output)")
    gen.set_defaults(func=cmd_generate)


def _add_paint(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    paint = sub.add_parser("paint", help="a scenario from a map painted in the terrain palette and a small YAML",
                           description="Read the terrain of a painted map (one pixel per square, or a larger image "
                                       "divided into map.width x map.height squares) and merge it into a YAML of "
                                       "everything else: name, start date, sides, Forces, rivers, roads... "
                                       "(docs/scenario-format.md, \"Painted maps\").")
    paint.add_argument("image", help="the painted map: PNG (best), GIF, BMP, JPEG or WebP")
    paint.add_argument("yaml", help="the scenario without map.rows")
    paint.add_argument("-o", "--output", help="write the scenario YAML here (default: standard output)")
    paint.set_defaults(func=cmd_paint)
    palette = sub.add_parser("palette", help="write the painted maps' terrain palette as a PNG legend")
    palette.add_argument("--scale", type=int, default=32, help="swatch size in pixels, 8 to 128 (default 32)")
    palette.add_argument("-o", "--output", default="palette.png", help="the PNG to write (default palette.png)")
    palette.set_defaults(func=cmd_palette)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["demo"]:
        from bot.demo import main as demo_main

        return demo_main(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    if args.command is None:
        return cmd_run(args)
    return int(args.func(args))
