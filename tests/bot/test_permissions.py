"""Who may do what: every GM command and every player command, as a player, the GM and an outsider.

Refusals come from the services (permissions live there, not only in the cogs) and reach the member
as a short private message."""

from __future__ import annotations

import pytest

from .conftest import advance, domain_errors_only, refused, shown, start

GM_ONLY = "Only the GM"
NO_SIDE = "not on a side"

# (command, options, who is allowed: "gm" / "player" / "all", the refusal others get)
MATRIX = [
    ("campaign status", {}, "all", None),
    ("campaign log", {}, "all", None),
    ("order list", {}, "player", NO_SIDE),
    ("order give", {"force": "soult", "order": "forced_march"}, "player", NO_SIDE),
    ("force info", {"force": "soult"}, "gm+player", "in your sight"),
    ("campaign away", {"days": 2}, "player", NO_SIDE),
    ("glory spend", {"kind": "anti_guerrilla"}, "player-ruled", NO_SIDE),
    ("gm advance", {}, "gm", GM_ONLY),
    ("gm deadline", {"hours": 48.0}, "gm", GM_ONLY),
    ("gm undo", {}, "gm", GM_ONLY),
    ("gm edit", {"force": "lannes", "order": "defend"}, "gm", GM_ONLY),
    ("gm assign", {"member": "newbie", "side": "au"}, "gm", GM_ONLY),
    ("campaign export", {}, "gm", GM_ONLY),
    ("campaign settings", {}, "gm", GM_ONLY),
    ("campaign settings", {"name": "auto_resolve", "value": "false"}, "gm", GM_ONLY),
    ("battle report", {"battle": "1"}, "gm+player-ruled", NO_SIDE),  # BR: each camp reports its own part
    ("order done", {}, "player", NO_SIDE),
    ("campaign end", {}, "gm", GM_ONLY),
]


@pytest.fixture
async def newbie(table):
    return table.guild.add_member(table.env.create_user("newbie"))


async def test_the_permission_matrix_of_every_gm_and_player_command(table, newbie) -> None:
    await start(table)
    await advance(table)  # Phase 1: orders
    checked = 0
    for name, options, allowed, refusal in MATRIX:
        opts = {k: (newbie if v == "newbie" else v) for k, v in options.items()}
        for who, actor in (("outsider", table.outsider), ("player", table.fr), ("gm", table.gm)):
            r = await actor.slash(table.channel, name, **opts)
            may = allowed == "all" or who in allowed.split("-")[0].split("+")
            if may and not allowed.endswith("ruled"):
                assert not refused(r), (name, who, shown(r))
            elif may:  # allowed to ask, but the rules of the moment may still refuse: never for permission
                assert refusal not in shown(r), (name, who, shown(r))
            else:
                assert refused(r, refusal), (name, who, shown(r))
            checked += 1
    assert checked == 3 * len(MATRIX)
    assert domain_errors_only(table.env) > 0


async def test_a_gm_role_makes_its_members_gms(table) -> None:
    await start(table)
    helper = table.guild.add_member(table.env.create_user("helper"), roles=[table.gm_role])
    r = await helper.slash(table.channel, "gm advance")
    assert refused(r, GM_ONLY)
    await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=str(table.gm_role.id))
    r = await helper.slash(table.channel, "gm advance")
    assert not refused(r) and "Resolve" in str(r.response.components)
    domain_errors_only(table.env)
