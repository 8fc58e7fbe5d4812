"""Fog of war: a member of one side never receives another side's hidden information, through any
command, autocomplete, post or DM."""

from __future__ import annotations

import pytest

from .conftest import advance, domain_errors_only, shown, start, texts

# Austria's Forces are out of France's sight (sight 2; Mack at J5, Werneck at I2; France at C4, C7).
# France probes with the key "mack" (lower case); the bot may echo what France typed, nothing more.
AUSTRIAN_SECRETS = ("Mack", "Werneck", "Riesch", "Hohenzollern", "Croats", "Schwarzenberg", "J5", "I2",
                    "force:mack", "force:werneck")
AUTOCOMPLETE = [
    ("order give", "force"), ("order move", "force"), ("order move", "path"), ("force info", "force"),
    ("gm edit", "force"), ("gm edit", "unit"), ("gm edit", "square"), ("glory spend", "unit"),
    ("leader fate", "leader"), ("trophy roll", "unit"), ("trophy roll", "target"), ("battle brief", "battle"),
    ("battle retreat", "square"), ("battle retreat", "force"), ("campaign join", "side"),
    ("campaign settings", "name"), ("campaign settings", "value"), ("campaign create", "scenario"),
    ("supply buy", "force"), ("supply buy", "unit"), ("order reroll", "force"),
]


def leaks(text: str) -> list[str]:
    return [s for s in AUSTRIAN_SECRETS if s in text]


async def everything_france_can_ask(table) -> str:
    seen = []
    for name, option in AUTOCOMPLETE:
        for typed in ("", "m", "a"):
            choices = await table.fr.autocomplete(table.channel, name, option, typed)
            seen += [f"{c['name']} {c['value']}" for c in choices]
    for name, options in [
        ("campaign status", {}), ("campaign log", {}), ("order list", {}), ("leader roster", {}),
        ("glory balance", {}), ("battle list", {}), ("force info", {"force": "mack"}),
("campaign map", {}), ("campaign map", {"view": "public"}),
        ("order give", {"force": "mack", "order": "defend"}), ("campaign log", {"turn": 1}),
        ("supply status", {}), ("supply buy", {"kind": "scout", "force": "mack"}), ("order reroll", {"force": "mack"}),
    ]:
        seen.append(shown(await table.fr.slash(table.channel, name, **options)))
    seen.append(texts(table.channel.history(viewer=table.fr)))
    dm = table.fr.user.dm_channel
    if dm is not None:
        seen.append(texts(dm.history()))
    return "\n".join(seen)


async def test_a_side_never_sees_the_other_sides_hidden_information(table) -> None:
    await start(table)
    await advance(table)
    # Austria acts: its orders and rolls are private to Austria until (and after) the phase resolves.
    odds = await table.au.slash(table.channel, "order give", force="mack", order="defend")
    assert "Army of Mack" in shown(odds)
    rolled = await table.au.click(odds.response, label="Roll")
    assert rolled.response.ephemeral and "Force test (MC-4) for Army of Mack" in shown(rolled)
    austrian_view = shown(await table.au.slash(table.channel, "campaign log"))
    assert "Army of Mack" in austrian_view  # Austria's own private entries
    assert leaks(await everything_france_can_ask(table)) == []

    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # Phase 1 resolves, publicly
    odds = await table.au.slash(table.channel, "order move", force="werneck", path="I3")
    await table.au.click(odds.response, label="Roll")
    assert leaks(await everything_france_can_ask(table)) == []
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # Phase 2 and the rest of the turn resolve
    assert leaks(await everything_france_can_ask(table)) == []
    domain_errors_only(table.env)


async def test_the_outsider_sees_only_public_information(table) -> None:
    await start(table)
    await advance(table)
    r = await table.outsider.slash(table.channel, "campaign status")
    assert "Forces you can see" not in shown(r)
    for name, option in (("force info", "force"), ("order give", "force"), ("glory spend", "unit")):
        assert await table.outsider.autocomplete(table.channel, name, option, "") == []
    r = await table.outsider.slash(table.channel, "force info", force="soult")
    assert "St-Hilaire" not in shown(r)
    domain_errors_only(table.env)


@pytest.mark.parametrize("who", ["fr", "au"])
async def test_each_side_sees_its_own_forces_in_full(table, who) -> None:
    await start(table)
    member = getattr(table, who)
    force = "soult" if who == "fr" else "mack"
    r = await member.slash(table.channel, "force info", force=force)
    assert r.ephemeral and "Units" in shown(r) and "SP" in shown(r)


async def test_an_enemy_in_sight_shows_only_its_name_and_square(table) -> None:
    from tests.store.test_battle_flow import SCENARIO

    await start(table, scenario="bridge", file=("bridge.yaml", SCENARIO.encode()))  # Mack at E4, next to Lannes
    info = await table.fr.slash(table.channel, "force info", force="mack")
    assert "Army of Mack" in shown(info) and "E4" in shown(info)
    seen = shown(info) + shown(await table.fr.slash(table.channel, "leader roster")) \
        + shown(await table.fr.slash(table.channel, "campaign status"))
    for hidden in ("Riesch", "Jaegers", "Mack (", "CV 1", "raw"):
        assert hidden not in seen, hidden
    choices = await table.fr.autocomplete(table.channel, "force info", "force", "")
    assert {c["value"] for c in choices} == {"lannes", "mack"}
    assert {c["value"] for c in await table.fr.autocomplete(table.channel, "order give", "force", "")} == {"lannes"}
