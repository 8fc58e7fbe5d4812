"""Malformed and oversized input through the bot's own path (security issue, items 2 and 6).

Each class of input that used to reach the generic "something went wrong" reply (or froze the bot)
must be refused privately with the field or option named, and change nothing: control characters,
NUL and lone surrogates in any slash option; digits that are not ASCII in a square or a battle
number; documents nested past the limit; numbers Python cannot read quickly; scenarios whose ranges
expand past the limits. A scenario upload is acknowledged (deferred) before any work, and parsed
off the event loop."""

from __future__ import annotations

import json
import threading

import pytest

from bot.cogs.battle import load_report_text
from bot.engine.errors import InvalidInput
from bot.engine.uploads import MAX_DEPTH
from bot.scenario import LIMITS, START_DATE_RANGE
from tests.scenario.conftest import minimal
from tests.store.test_battle_flow import REPORT

from .conftest import advance, domain_errors_only, refused, shown, start
from .test_features import locales  # noqa: F401  (a fixture)

NO_CAMPAIGN = "There is no campaign in this channel"
HOSTILE = ["\x00", "\ud800", "\udfff", "\x07", "\x1b", "\x7f", "\x85"]
"""NUL, lone surrogates (high and low), control characters (C0, DEL, C1)."""


def deferred(env, since: int = 0) -> bool:
    return any(isinstance(e.json, dict) and e.json.get("type") == 5 for e in env.http_requests[since:])


# --- the edge: every slash option ------------------------------------------------------------------

OPTIONS = [  # (command, its options, the option made hostile)
    ("campaign create", {"name": "Ulm", "scenario": "tutorial"}, "name"),
    ("campaign create", {"name": "Ulm", "scenario": "tutorial"}, "scenario"),
    ("campaign join", {"side": "fr"}, "side"),
    ("campaign map", {"around": "D4"}, "around"),
    ("campaign settings", {"name": "weather", "value": "false"}, "value"),
    ("order move", {"force": "soult", "path": "D4 E4"}, "path"),
    ("order give", {"force": "soult", "order": "defend"}, "force"),
    ("gm edit", {"force": "soult", "square": "D4"}, "square"),
    ("roll dice", {"expression": "1d6"}, "expression"),
    ("battle brief", {"battle": "1"}, "battle"),
    ("force info", {"force": "soult"}, "force"),
]


@pytest.mark.parametrize("char", HOSTILE)
async def test_control_characters_in_any_slash_option_are_refused_naming_the_option(table, char: str) -> None:
    for command, options, hostile in OPTIONS:
        opts = dict(options)
        opts[hostile] = opts[hostile][:1] + char + opts[hostile][1:]
        r = await table.gm.slash(table.channel, command, **opts)
        assert refused(r, f"`{hostile}`", f"U+{ord(char):04X}"), (command, shown(r))
    status = await table.gm.slash(table.channel, "campaign status")
    assert refused(status, NO_CAMPAIGN)  # nothing was created
    domain_errors_only(table.env)


async def test_the_refusal_names_the_option_in_the_members_language(table, locales) -> None:  # noqa: F811
    locales[table.gm.id] = "it"
    r = await table.gm.slash(table.channel, "campaign create", name="Ul\x00m", scenario="tutorial")
    assert refused(r, "`nome`", "U+0000"), shown(r)
    domain_errors_only(table.env)


async def test_clean_text_with_newlines_tabs_and_any_script_still_goes_through(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Ulm 1805 — Ульм\tΟὔλμη", scenario="tutorial")
    assert "begins" in shown(r)


# --- squares and battle numbers that are not ASCII ------------------------------------------------

NOT_ASCII = ["A²", "D４", "D٤", "Ａ4"]


@pytest.mark.parametrize("square", NOT_ASCII)
async def test_a_square_with_digits_that_are_not_ascii_is_refused_where_a_member_types_one(table, square) -> None:
    await start(table)
    around = await table.fr.slash(table.channel, "campaign map", around=square)
    assert refused(around, "is not a square name"), shown(around)
    edit = await table.gm.slash(table.channel, "gm edit", force="soult", square=square)
    assert refused(edit, "is not a square name"), shown(edit)
    await advance(table)  # weather
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # Phase 2: movement
    move = await table.fr.slash(table.channel, "order move", force="soult", path=f"D4 {square}")
    assert refused(move, "is not a square name"), shown(move)
    info = await table.fr.slash(table.channel, "force info", force="soult")
    assert "C4" in shown(info)  # where Soult starts: the GM's edit changed nothing
    domain_errors_only(table.env)


@pytest.mark.parametrize("number", ["²", "１", "٣", "9" * 10])
async def test_a_battle_number_that_is_not_ascii_digits_is_refused(table, number: str) -> None:
    await start(table)
    r = await table.fr.slash(table.channel, "battle brief", battle=number)
    assert refused(r), shown(r)
    domain_errors_only(table.env)


# --- scenario uploads -------------------------------------------------------------------------------


def range_bomb() -> bytes:
    corner = "CV100" if LIMITS.map_side >= 100 else "Z26"
    return ("name: Bomb\nstart_date: 1805-10-07\nmap:\n  width: 100\n  height: 100\n  terrain:\n    forest: ["
            + ", ".join([f"A1:{corner}"] * 140) + "]\nsides: [{key: a, name: A}, {key: b, name: B}]\nforces: []\n"
            ).encode()


def nested(depth: int, *, json_text: bool) -> bytes:
    if json_text:
        return ('{"name": ' + "[" * depth + "]" * depth + ', "start_date": "1805-10-07"}').encode()
    return ("name: " + "[" * depth + "]" * depth + "\nstart_date: 1805-10-07\n").encode()


def with_start(date: str) -> bytes:
    import yaml

    data = minimal()
    data["start_date"] = date
    return yaml.safe_dump(data).encode()


UPLOADS = [
    ("range bomb", range_bomb(), f"{LIMITS.squares_per_field:,}"),
    ("nested YAML", nested(5000, json_text=False), f"nested more than {MAX_DEPTH} levels"),
    ("nested JSON", nested(100_000, json_text=True), f"nested more than {MAX_DEPTH} levels"),
    ("barely too nested", nested(MAX_DEPTH, json_text=False), f"nested more than {MAX_DEPTH} levels"),
    ("year 9999", with_start("9999-12-31"), str(START_DATE_RANGE[1])),
    ("NUL", with_start("1805-10-07").replace(b"name: France", b"name: Fr\x00ance"), "sides[0].name"),
    ("escaped surrogate", with_start("1805-10-07").replace(b"name: France", b'name: "Fr\\ud800ance"'), "U+D800"),
]


@pytest.mark.parametrize(("label", "raw", "said"), UPLOADS, ids=[u[0] for u in UPLOADS])
async def test_a_hostile_scenario_upload_is_deferred_then_refused_naming_why(table, label, raw, said) -> None:
    seen = len(table.env.http_requests)
    r = await table.gm.slash(table.channel, "campaign create", name="Bad", scenario="bad", file=("bad.yaml", raw))
    assert refused(r, said), shown(r)
    assert deferred(table.env, seen)
    status = await table.gm.slash(table.channel, "campaign status")
    assert refused(status, NO_CAMPAIGN)
    domain_errors_only(table.env)


async def test_a_scenario_upload_is_acknowledged_first_and_parsed_off_the_event_loop(table, monkeypatch) -> None:
    import bot.scenario

    threads: list[int] = []
    parse = bot.scenario.parse_scenario_text

    def spy(*args, **kwargs):
        threads.append(threading.get_ident())
        return parse(*args, **kwargs)

    monkeypatch.setattr(bot.scenario, "parse_scenario_text", spy)
    import yaml

    seen = len(table.env.http_requests)
    r = await table.gm.slash(table.channel, "campaign create", name="Small", scenario="small",
                             file=("small.yaml", yaml.safe_dump(minimal()).encode()))
    assert "Campaign Small begins" in shown(r)
    first = table.env.http_requests[seen]
    assert isinstance(first.json, dict) and first.json.get("type") == 5  # the first thing the bot does
    assert threads and threading.main_thread().ident not in threads


async def test_a_bundled_scenario_is_read_off_the_event_loop_too(table, monkeypatch) -> None:
    import bot.scenario

    threads: list[int] = []
    load = bot.scenario.load_bundled

    def spy(*args, **kwargs):
        threads.append(threading.get_ident())
        return load(*args, **kwargs)

    monkeypatch.setattr(bot.scenario, "load_bundled", spy)
    r = await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    assert "Campaign Ulm begins" in shown(r)
    assert threads and threading.main_thread().ident not in threads


async def test_the_creation_is_announced_publicly_and_refusals_stay_private(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    public = [m for m in [r.response, *r.followups] if m is not None and not m.ephemeral]
    assert any("Campaign Ulm begins" in (e.title or "") for m in public for e in m.embeds)
    again = await table.gm.slash(table.channel, "campaign create", name="Again", scenario="tutorial")
    assert refused(again, "already runs the campaign 'Ulm'")
    domain_errors_only(table.env)


# --- battle reports (a file or the form) -------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 30_000])
def test_a_battle_report_nested_past_the_limit_is_refused(depth: int) -> None:
    for text in ('{"sides": ' + "[" * depth + "]" * depth + "}", "sides: " + "[" * depth + "]" * depth):
        with pytest.raises(InvalidInput, match=f"nested more than {MAX_DEPTH} levels deep"):
            load_report_text(text.encode())


@pytest.mark.parametrize("char", ["\\u0000", "\\ud800", "\\u001b"])
def test_a_battle_report_with_control_characters_names_the_field(char: str) -> None:
    report = json.dumps(REPORT).replace('"suchet"', f'"such{char}et"')
    with pytest.raises(InvalidInput) as info:
        load_report_text(report)
    assert "sides[0].units[0].unit" in str(info.value) and f"U+{char[2:].upper()}" in str(info.value)
    yaml_report = f'battle: "1"\nsides:\n  - side: "f{char}r"\n'
    with pytest.raises(InvalidInput, match=r"sides\[0\]\.side"):
        load_report_text(yaml_report)


def test_a_typed_report_with_a_raw_nul_names_the_field() -> None:
    with pytest.raises(InvalidInput, match=r"sides\[0\]\.side.*U\+0000"):
        load_report_text("sides:\n  - side: f\x00r\n    outcome: won\n")


@pytest.mark.parametrize("number", ["1" * 5000, "9" * 40])
def test_a_battle_report_number_of_thousands_of_digits_names_the_field(number: str) -> None:
    for text in (json.dumps(REPORT).replace('"killed": 2', f'"killed": {number}', 1),
                 f"sides:\n  - side: fr\n    units: [{{unit: suchet, killed: {number}}}]\n"):
        with pytest.raises(InvalidInput, match=r"sides\[0\]\.units\[0\]\.killed.*at most"):
            load_report_text(text)
