"""The bot general's figures (RU-26; issue 25 item 4), printed, not asserted:

    python bench/general.py [--seeds 4]

1. Its decisions for a side of 50 Forces on a 100x100 generated map: time per phase (Phase 1 orders and
   Force tests, Phase 2 moves), from the side's view to its decisions (goal: under 200 ms).
2. Win rates: per bundled scenario and seed, the general plays one side through the services against
   a side nobody plays that only holds (``unmanned_sides: hold``), battles by the tests' stand-in for
   the table; each side in turn. Wins, turns to the end and battles per campaign.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.campaign.dice import Context, turn_dice
from bot.campaign.events import Journal
from bot.campaign.general import decide, side_view
from bot.campaign.new import from_scenario
from bot.campaign.state import CampaignStatus
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.generate import Params, generate_scenario
from bot.scenario import bundled_scenarios, load_bundled, parse_scenario


def big_side() -> None:
    rules = default_rulebook()
    spec = parse_scenario(generate_scenario(Params(width=100, height=100, sides=2, seed=7)))
    state = from_scenario(spec, campaign_id=1, name="bench", gm_id=1, options={"unmanned_sides": "ai"})
    side = next(iter(state.sides))
    model = next(f for f in state.active() if f.side == side)
    land = [sq for sq in state.map.squares() if not state.map.cell(sq).terrain.is_water]
    extra = [replace(model, key=f"bench{i}", name=f"Bench {i}", square=str(land[(i * 7919) % len(land)]))
             for i in range(50 - len(state.side_forces(side)))]
    state = state.with_forces(extra)
    ctx = Context(lambda: hashlib.sha256(b"bench").digest(), rules)
    print(f"side {side}: {sum(f.active for f in state.side_forces(side))} Forces on a 100x100 map")
    for phase in (Phase.ORDERS, Phase.MOVEMENT):
        s = state.evolve(phase=phase)
        s, dice = turn_dice(s, Journal(), ctx)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            made = decide(side_view(s, side), dice, rules)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"  {phase.spec.title}: {len(made.items)} decisions, median {statistics.median(times):.0f} ms, "
              f"worst {max(times):.0f} ms")


async def one_campaign(scenario: str, general_side: str, seed: int) -> tuple[bool | None, int, int]:
    from bot.demo import stand_in_report
    from bot.services import campaigns, general, loading, resolution, shell, views
    from bot.services.actors import Actor
    from bot.store.db import Database

    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"bench/{seed}/{next(counter)}".encode()).digest())
    general.use_reporter(lambda st, b: stand_in_report(st, b))
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/b.db")
        await db.upgrade()
        gm = Actor(1, name="GM")
        cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="B",
                                               scenario=scenario)).campaign_id
        await campaigns.seat_general(db, cid, gm, general_side, True)
        while True:
            sv = await views.status(db, cid, gm)
            if sv.status != "active" or sv.position.turn > 60:
                break
            if sv.waiting:  # a battle the holding side fights: the stand-in reports it as the GM would
                from bot.services import aftermath
                st = await shell.state(db, cid)
                for b in st.turn_battles():
                    if b.status.value == "pending":
                        await aftermath.report_battle(db, cid, gm, b.number, stand_in_report(st, b))
                sv = await views.status(db, cid, gm)
            await resolution.resolve_phase(db, cid, gm, expected_version=sv.version, forced=True)
        st = await shell.state(db, cid)
        await db.dispose()
    won = None
    if st.status is CampaignStatus.ENDED:
        won = not st.sides[general_side].defeated and any(sd.defeated for sd in st.sides.values())
    return won, st.turn, len(st.battles)


def win_rates(seeds: int) -> None:
    for scenario in sorted(bundled_scenarios()):
        for side in (s.key for s in load_bundled(scenario).sides):
            results = [asyncio.run(one_campaign(scenario, side, seed)) for seed in range(seeds)]
            wins = sum(1 for w, _, _ in results if w)
            print(f"  {scenario} general={side}: won {wins}/{seeds}, turns {[t for _, t, _ in results]}, "
                  f"battles {[b for _, _, b in results]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-campaigns", action="store_true")
    args = parser.parse_args()
    big_side()
    if not args.no_campaigns:
        print("the general against a side that only holds:")
        win_rates(args.seeds)
