"""The campaign repository: a state loaded and saved unchanged writes nothing; a change writes only
the rows it touches, in a few statements whatever the number of Forces."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import event

from bot.campaign.state import ForceStatus
from bot.engine.model import Order
from bot.services import campaigns
from bot.store import repository

from .conftest import GM
from .test_campaign_flow import fixed_seeds  # noqa: F401  (fixture re-used)


async def _created(db) -> int:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Ulm", scenario="tutorial")
    return created.campaign_id


def _count(db):
    seen: list[str] = []

    def listener(conn, cursor, statement, *args):
        seen.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", listener)
    return seen, lambda: event.remove(db.engine.sync_engine, "before_cursor_execute", listener)


async def test_round_trip_writes_only_what_changed(db) -> None:
    cid = await _created(db)
    async with db.transaction() as s:
        loaded = await repository.load(s, cid, lock=True)
    state = loaded.state
    assert state.forces and state.sides and state.map.width > 0
    first = next(iter(state.forces))
    async with db.transaction() as s:
        loaded = await repository.load(s, cid, lock=True)
        seen, stop = _count(db)
        await repository.save(s, loaded, loaded.state)
        stop()
        assert not [q for q in seen if q.lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))]
        f = loaded.state.forces[first]
        new = loaded.state.with_forces([replace(f, order=Order.DEFEND, status=ForceStatus.REMOVED,
                                                units=(replace(f.units[0], sp=1), *f.units[1:]))])
        seen, stop = _count(db)
        await repository.save(s, loaded, new)
        stop()
        writes = [q for q in seen if q.lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))]
        assert len(writes) == 3, writes  # the Force, its unit, the campaign row's write stamp
    async with db.transaction() as s:
        again = (await repository.load(s, cid)).state
    assert again.forces[first].order is Order.DEFEND
    assert again.forces[first].status is ForceStatus.REMOVED
    assert again.forces[first].units[0].sp == 1
    assert again.forces[first].units[1:] == state.forces[first].units[1:]
    others = {k: v for k, v in state.forces.items() if k != first}
    assert {k: v for k, v in again.forces.items() if k != first} == others
