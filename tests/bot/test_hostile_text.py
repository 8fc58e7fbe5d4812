"""Hostile text through the bot's own path (security issue, items 1 and 4).

A member with no role must never read the bot's secrets or an object's insides through a message
template taken from data (an uploaded export, a stored log entry), nor make the bot act for
strangers of another server. Written against the class of attack: attribute walks, indexing,
nested fields and huge widths, in every text field an export can carry.
"""

from __future__ import annotations

import json

import pytest

from bot.store.models import LogEntry

from .conftest import refused, shown, start, texts

SECRET = "sekret-token-do-not-show"

PAYLOADS = [
    "{x.to_json.__globals__}",
    "{p0.__class__.__mro__[1].__subclasses__}",
    "{x.__init__.__globals__[os].environ}",
    "{0}{}",
    "{x:>1000000000}",
    "{x:.999999999}",
    "{x:{y}}",
    "<@&1>{x[__class__]}",
]
EVALUATED = ("<class", "object at 0x", "mappingproxy", "'__name__'", "environ(", "<built-in", "<function",
             "<bound method", "<slot wrapper")
"""What a template that walked into Python objects would print."""


@pytest.fixture(autouse=True)
def secrets_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("DATABASE_URL", f"postgresql+asyncpg://adc:{SECRET}@db/adc")


async def export_of(table) -> dict:
    r = await table.gm.slash(table.channel, "campaign export")
    return json.loads(await r.response.attachments[0].read())


def poisoned_message(payload: str) -> dict:
    inner = {"msg": {"t": "{n} trophy captured", "p": {"n": 1}}}
    return {"msg": {"t": payload, "p": {"x": inner, "p0": inner, "y": 2}}}


async def test_an_export_whose_log_carries_a_foreign_template_is_refused_naming_the_entry(table) -> None:
    await start(table)
    data = await export_of(table)
    for payload in PAYLOADS:
        data["log"][1]["data"] = poisoned_message(payload)
        other = table.guild.create_text_channel("again")
        r = await table.gm.slash(other, "campaign create", name="Ulm again", scenario="tutorial",
                                 file=("ulm.json", json.dumps(data).encode()))
        assert refused(r, "log[1].data.msg", "not a message of this bot"), shown(r)
        assert SECRET not in shown(r) and not any(e in shown(r) for e in EVALUATED)
        status = await table.outsider.slash(other, "campaign status")
        assert "/campaign create" in shown(status)  # nothing was created
    table.env.errors  # noqa: B018  (the refusals above are recorded as handled errors)


async def test_hostile_names_and_a_poisoned_log_show_no_secret_and_no_object_to_anyone(table) -> None:
    await start(table)
    data = await export_of(table)
    state = data["state"]
    for i, rows in enumerate((state["sides"], state["forces"], state["leaders"],
                              [u for f in state["forces"] for u in f["units"]])):
        for j, row in enumerate(rows):
            row["name"] = PAYLOADS[(i + j) % len(PAYLOADS)][:100]
    for j, entry in enumerate(data["log"]):
        entry["text"] = PAYLOADS[j % len(PAYLOADS)]
    state["glory"] = [
        {"side": side["key"], "turn": 1, "amount": 1, "kind": "award", "reason": payload[:200], "rule": "CC-4",
         "battle": None, "subject": payload[:100]}
        for side in state["sides"] for payload in PAYLOADS
    ]
    state["leader_events"] = [
        {"leader": leader["key"], "turn": 1, "status": "fit", "reason": payload[:200]}
        for leader in state["leaders"] for payload in PAYLOADS[:2]
    ]
    other = table.guild.create_text_channel("again")
    loaded = await table.gm.slash(other, "campaign create", name="{x.__class__}", scenario="tutorial",
                                  file=("ulm.json", json.dumps(data).encode()))
    assert "loaded from an export" in shown(loaded)

    # A log entry poisoned in the database itself (as an older version could have stored it): the
    # stored plain text is shown, the foreign template is never formatted.
    bot = table.env.bot
    async with bot.db.transaction() as s:
        from bot.services.loading import campaign_in_channel

        cid = (await campaign_in_channel(s, other.id)).id
        for payload in PAYLOADS:
            s.add(LogEntry(campaign_id=cid, turn=1, phase=0, kind="event", visibility="public",
                           text="A poisoned entry.", data=poisoned_message(payload)))

    seen = []
    for member in (table.outsider, table.fr, table.au, table.gm):
        for command, options in (("campaign log", {}), ("campaign status", {}), ("leader roster", {}),
                                 ("glory balance", {}), ("battle list", {}), ("order list", {})):
            r = await member.slash(other, command, **options)
            seen.append(shown(r))
            for message in [r.response, *r.followups]:
                for attachment in getattr(message, "attachments", []) or []:
                    if attachment.filename.endswith(".txt"):
                        seen.append((await attachment.read()).decode())
    seen.append(texts(other.history()))
    everything = "\n".join(seen)
    assert SECRET not in everything
    assert not [e for e in EVALUATED if e in everything]
    assert "A poisoned entry." in everything  # shown as stored
    assert max(len(line) for line in everything.splitlines()) < 2_000
    table.env.errors  # noqa: B018


async def test_an_uploaded_scenario_with_hostile_names_and_description_shows_them_as_text(table) -> None:
    from .test_battle import SCENARIO

    hostile = SCENARIO.replace("name: Skirmish at the bridge", "name: Skirmish {x.__class__}\n"
                               "description: '{x.to_json.__globals__} {y:>999999999}'")
    for name in ("France", "Austria", "V Corps", "Army of Mack", "Lannes", "Mack", "Suchet", "Riesch"):
        hostile = hostile.replace(f"name: {name}", f"name: '{name} {{x.__class__}}{{0}}'", 1)
    r = await table.gm.slash(table.channel, "campaign create", name="{x.__class__}", scenario="bridge",
                             file=("bridge.yaml", hostile.encode()))
    seen = [shown(r)]
    for command in ("campaign status", "campaign log", "leader roster", "glory balance"):
        seen.append(shown(await table.outsider.slash(table.channel, command)))
    seen.append(texts(table.channel.history()))
    everything = "\n".join(seen)
    assert "{x.__class__}" in everything  # the names as written
    assert SECRET not in everything and not [e for e in EVALUATED if e in everything]
    assert max(len(line) for line in everything.splitlines()) < 2_000
    table.env.errors  # noqa: B018


async def test_an_import_keeps_only_players_who_are_members_of_this_server(table) -> None:
    await start(table)
    data = await export_of(table)
    club2 = table.env.create_guild("Other club")
    there = club2.create_text_channel("campaign")
    gm2 = club2.add_member(table.gm.user)
    club2.add_member(table.fr.user)  # Karl (au) is a stranger to this server
    r = await gm2.slash(there, "campaign create", name="Ulm", scenario="tutorial",
                        file=("ulm.json", json.dumps(data).encode()))
    said = shown(r)
    (post,) = [m for m in r.followups if any("loaded from an export" in (e.title or "") for e in m.embeds)]
    announced = (post.embeds[0].title or "") + (post.embeds[0].description or "")
    assert str(table.au.id) in announced and str(table.fr.id) not in announced  # the strangers left out, named
    assert f"<@{table.au.id}>" not in said  # named, never mentioned
    status = await gm2.slash(there, "campaign status")
    assert "karl" not in shown(status).lower()


def pings(env) -> list[tuple[int, list[int], list[int], bool]]:
    """Every message the bot sent that pinged anyone: (channel, users, roles, everyone)."""
    out = []
    for channel_id, messages in env.backend.messages.items():
        for m in messages.values():
            if m.author_id == env.bot.user.id and (m.ping_user_ids or m.ping_role_ids or m.mention_everyone):
                out.append((channel_id, list(m.ping_user_ids), list(m.ping_role_ids), m.mention_everyone))
    return out


async def test_names_that_look_like_mentions_ping_nobody(table) -> None:
    bystander = table.guild.add_member(table.env.create_user("bystander"))
    role = table.guild.create_role("Everyone-ish", mentionable=True)
    await start(table)
    data = await export_of(table)
    bait = f"<@{bystander.id}> <@&{role.id}> @everyone @here"
    state = data["state"]
    for rows in (state["sides"], state["forces"], state["leaders"], [u for f in state["forces"] for u in f["units"]]):
        for j, row in enumerate(rows):
            row["name"] = f"{bait} {j}"[:100]
    other = table.guild.create_text_channel("again")
    await table.gm.slash(other, "campaign create", name=bait[:100], scenario="tutorial",
                         file=("ulm.json", json.dumps(data).encode()))
    for member in (table.outsider, table.fr, table.gm):
        for command in ("campaign status", "campaign log", "order list", "leader roster", "glory balance"):
            await member.slash(other, command)
    card = await table.gm.slash(other, "gm advance")
    await table.gm.click(card.response, label="Resolve")
    await table.fr.slash(other, "order give", force="soult", order="forced_march")
    await table.gm.slash(other, "gm assign", member=table.outsider, side="fr")
    assert not [p for p in pings(table.env) if bystander.id in p[1] or p[2] or p[3]], pings(table.env)
    # The messages meant to ping ping just their members: the phase card its players, the assignment him.
    assert sorted(sorted(p[1]) for p in pings(table.env)) == sorted([sorted([table.fr.id, table.au.id]),
                                                                     [table.outsider.id]])
    table.env.errors  # noqa: B018


async def test_a_gm_who_joins_a_side_is_announced_publicly_as_playing_it(table) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    player = await table.fr.slash(table.channel, "campaign join", side="fr")
    assert not player.ephemeral and "a GM" not in shown(player)
    r = await table.gm.slash(table.channel, "campaign join", side="au")
    assert not r.ephemeral and "a GM of this campaign, joins Austria" in shown(r)
    log = await table.outsider.slash(table.channel, "campaign log")
    assert "a GM of this campaign, joined Austria and plays it" in shown(log)
