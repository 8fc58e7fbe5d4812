"""A refusal never tells a player whether a Force they cannot see exists (fog of war): the services
answer a hidden enemy Force exactly as one that does not exist, naming only what was typed."""

from __future__ import annotations

import pytest

from bot.engine.errors import EngineError
from bot.services import orders

from .conftest import FRENCH
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)


async def refusal(call) -> str:
    with pytest.raises(EngineError) as caught:
        await call
    return str(caught.value)


@pytest.mark.parametrize("action", ["give_order", "order_odds", "declare_move", "move_odds"])
async def test_a_hidden_enemy_force_is_refused_as_one_that_does_not_exist(db, action) -> None:
    cid = await tutorial(db)  # Austria's Army of Mack is at J5, out of France's sight
    await advance(db, cid)  # weather -> orders
    if action in ("declare_move", "move_odds"):
        await advance(db, cid, forced=True)  # orders -> movement

    def ask(force: str):
        if action in ("give_order", "order_odds"):
            return getattr(orders, action)(db, cid, FRENCH, force, "defend")
        return getattr(orders, action)(db, cid, FRENCH, force, "J6")

    hidden, made_up = await refusal(ask("mack")), await refusal(ask("zzkq"))
    assert hidden.replace("mack", "?") == made_up.replace("zzkq", "?")
    assert "Army of Mack" not in hidden
    assert await refusal(ask("Army of Mack")) == made_up.replace("zzkq", "Army of Mack")


async def test_a_leader_or_unit_of_another_side_is_refused_as_one_that_does_not_exist(db) -> None:
    from bot.services import cc

    from .conftest import AUSTRIAN
    from .test_leader_fate import to_aftermath

    cid = await to_aftermath(db, "victor")  # Soult (France) fell in battle 1: his fate is France's to roll
    other, made_up = await refusal(cc.leader_fate(db, cid, AUSTRIAN, "Soult")), \
        await refusal(cc.leader_fate(db, cid, AUSTRIAN, "Ghost"))
    assert other.replace("Soult", "?") == made_up.replace("Ghost", "?")
    other, made_up = await refusal(cc.trophy_roll(db, cid, AUSTRIAN, 1, "st-hilaire", "riesch")), \
        await refusal(cc.trophy_roll(db, cid, AUSTRIAN, 1, "ghost", "riesch"))
    assert other.replace("st-hilaire", "?") == made_up.replace("ghost", "?")
