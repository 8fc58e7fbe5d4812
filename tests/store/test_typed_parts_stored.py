"""A campaign stored by the bot before a battle's parts and a declaration's payload were typed (issue 22,
item 1) loads and plays on: the JSON columns keep one shape (:mod:`bot.campaign.plain`), which reads both
what the bot writes now (empty parts left out) and what it wrote before (every part, raw report documents,
moves without their start)."""

from __future__ import annotations

from typing import Any

from sqlmodel import select

from bot.campaign.state import Commander, MovePayload, OrderPayload
from bot.engine.model import Order
from bot.engine.phases import Phase
from bot.services.shell import state as campaign_state
from bot.store.models import BattleRow, Declaration

from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)
from .test_leader_fate import to_aftermath


def _as_before(report: dict[str, Any]) -> dict[str, Any]:
    """A report document as the GM's file gave it and the bot kept it before: its battle number, every
    count written, empty lists."""
    sides = [{**s, "units": [{"rout": 0, "other_order": 0, **u} for u in s.get("units", [])],
              "leader_casualties": s.get("leader_casualties", []), "leaders_captured": []} for s in report["sides"]]
    return {"battle": "1", **report, "sides": sides, "melee_eliminations": report.get("melee_eliminations", []),
            "lost_block": report.get("lost_block", [])}


async def test_a_battle_and_declarations_stored_by_the_old_code_load_typed_and_play_on(db) -> None:
    cid = await to_aftermath(db, "oudinot")
    typed = await campaign_state(db, cid)
    async with db.transaction() as s:  # as the older version left them
        row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == cid))).one()
        a = dict(row.aftermath)
        row.aftermath = {"sp_before": a["sp_before"], "commanders": a["commanders"], "rolled": a["rolled"],
                         "retreats": a.get("retreats", {}), "fates": a.get("fates", {}), "trophies": {}}
        row.report = _as_before(row.report)
        s.add(row)
        for d in (await s.exec(select(Declaration).where(Declaration.campaign_id == cid))).all():
            if d.kind == "move":
                d.payload = {k: v for k, v in d.payload.items() if k not in ("start", "by_water")}
                s.add(d)
    old = await campaign_state(db, cid)
    battle = old.battles[1]
    assert battle.report == typed.battles[1].report  # the parsed BR report, whatever the document's form
    assert battle.aftermath == typed.battles[1].aftermath
    assert battle.aftermath.fates == {"Soult": None} and battle.aftermath.rolled == {"fr": False, "au": False}
    assert isinstance(battle.aftermath.commanders["oudinot"], Commander)
    moves = [d.payload for d in old.declarations if d.phase is Phase.MOVEMENT]
    assert moves and all(isinstance(p, MovePayload) and p.start is None and not p.by_water for p in moves)
    orders = [d.payload for d in old.declarations if d.phase is Phase.ORDERS]
    assert orders and all(isinstance(p, OrderPayload) and p.order is Order.FORCED_MARCH for p in orders)
    res = await advance(db, cid, forced=True)  # Phase 4 ends: the bot rolls what nobody rolled
    assert res.after.turn == 2
    done = await campaign_state(db, cid)
    assert done.battles[1].aftermath.fates["Soult"] is done.leaders["oudinot-leader"].status  # CC-1, rolled
    assert done.battles[1].aftermath.rolled == {"fr": True, "au": True}
