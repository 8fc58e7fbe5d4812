"""Map pictures per reader: fog of war, last-seen markers, the GM's full view (issue 6 views)."""

from __future__ import annotations

import pytest

from bot.services import gm, maps, views
from bot.services.errors import PermissionDenied

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)

PNG = b"\x89PNG\r\n\x1a\n"


async def test_each_reader_gets_the_map_fog_of_war_allows(db) -> None:
    cid = await tutorial(db)
    png, report = await maps.map_png(db, cid, FRENCH)
    assert png.startswith(PNG) and len(png) < 2_000_000
    assert "IV Corps" in report and "Army of Mack" not in report
    png, report = await maps.map_png(db, cid, GM, view="full")
    assert "IV Corps" in report and "Army of Mack" in report
    _, report = await maps.map_png(db, cid, OUTSIDER)
    assert "IV Corps" not in report and "Army of Mack" not in report
    with pytest.raises(PermissionDenied, match="Only the GM may see the full map"):
        await maps.map_png(db, cid, FRENCH, view="full")
    png, _ = await maps.map_png(db, cid, AUSTRIAN, around="J5", radius=2)
    assert png.startswith(PNG)


async def test_an_enemy_that_leaves_sight_stays_as_a_faded_last_seen_marker(db) -> None:
    cid = await tutorial(db)
    await gm.edit_force(db, cid, GM, "mack", square="E4")  # within 2 squares of Soult at C4
    await advance(db, cid)  # resolving records what each side sees
    snap, _ = await maps.snapshot(db, cid, FRENCH)
    seen = {c.key: c for c in snap.counters}
    assert not seen["mack"].faded and seen["mack"].sp is None  # an enemy's strength stays hidden
    await gm.edit_force(db, cid, GM, "mack", square="K8")
    await advance(db, cid, forced=True)
    snap, _ = await maps.snapshot(db, cid, FRENCH)
    faded = {c.key: c for c in snap.counters}
    assert faded["mack"].faded and str(faded["mack"].square) == "E4"
    french = await views.status(db, cid, FRENCH)
    assert "mack" not in {f.key for f in french.forces}
