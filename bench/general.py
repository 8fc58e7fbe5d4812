"""The bot general's figures (RU-26; issue 25 item 4), printed, not asserted:

    python bench/general.py [--seeds 40] [--opponent hold|random] [--jobs N] [--personality cautious|balanced|bold]
                            [--on overwhelm|supply|scout_rerolls ...] [--no-timing] [--no-campaigns]

1. Its decisions for a side of 50 Forces on a 100x100 generated map: time per phase (Phase 1 orders and
   Force tests, Phase 2 moves), from the side's view to its decisions (goal: under 200 ms).
2. Win rates: per bundled scenario, each camp in turn, seeded campaigns played through the campaign core
   (:mod:`opponents`), battles settled quickly (RU-27): the general against a side that only holds, and
   against a side that plays random legal actions. Wins (its camp the one left, RU-25, within 60 turns),
   campaigns ended, turns and battles per campaign. ``--on`` turns on a Field Commander module (FC-1
   ``overwhelm``, FC-2 ``supply``, FC-3 ``scout_rerolls``; RU-22), off in every bundled scenario.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import statistics
import sys
import time
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.campaign.dice import Context, turn_dice
from bot.campaign.events import Journal
from bot.campaign.general import decide, side_view
from bot.campaign.new import from_scenario
from bot.campaign.settings import Personality
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.generate import Params, generate_scenario
from bot.scenario import bundled_scenarios, load_bundled, parse_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opponents import Opponent, Outcome, campaign


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
        times, cpu = [], []
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            made = decide(side_view(s, side), dice, rules)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        # the CPU time is the work itself; the wall time also counts what other processes took of the cores
        print(f"  {phase.spec.title}: {len(made.items)} decisions, median {statistics.median(times):.0f} ms, "
              f"worst {max(times):.0f} ms (CPU: median {statistics.median(cpu):.0f} ms, worst {max(cpu):.0f} ms)")


FIELD_COMMANDER = ("overwhelm", "supply", "scout_rerolls")
"""The Field Commander modules (FC-1 to FC-3, RU-22): campaign settings, off in every bundled scenario."""


def _play(job: tuple[str, tuple[str, ...], str, int, str, tuple[str, ...]]) -> Outcome:
    scenario, sides, opponent, seed, personality, on = job
    return campaign(load_bundled(scenario), sides, Opponent(opponent), seed,
                    options={"general": personality, **dict.fromkeys(on, True)})


def win_rates(seeds: int, opponent: Opponent, jobs: int = 1, personality: str = "balanced",
              on: tuple[str, ...] = ()) -> None:
    """Each camp of each bundled scenario played by the general against ``opponent`` on every other side
    (``jobs`` processes: each campaign is its own seeded run, so the figures do not depend on it)."""
    total = wins = 0
    plan: list[tuple[str, tuple[str, ...]]] = []
    per_scenario: dict[str, tuple[int, int]] = {}  # won, played: the goals are per bundled scenario
    for scenario in sorted(bundled_scenarios()):
        state = from_scenario(load_bundled(scenario), campaign_id=1, name="bench", gm_id=1)
        camps: dict[str, list[str]] = {}
        for side in state.sides:
            camps.setdefault(state.camps.camp_of(side), []).append(side)
        plan += [(scenario, tuple(sides)) for sides in camps.values()]
    with multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else nullcontext() as pool:
        for scenario, sides in plan:
            t0 = time.perf_counter()
            work = [(scenario, sides, opponent.value, seed, personality, on) for seed in range(seeds)]
            results = pool.map(_play, work) if pool is not None else [_play(w) for w in work]
            won = sum(r.won for r in results)
            ended = [r for r in results if r.ended]
            total, wins = total + seeds, wins + won
            done = per_scenario.get(scenario, (0, 0))
            per_scenario[scenario] = (done[0] + won, done[1] + seeds)
            print(f"  {scenario} general={'+'.join(sides)}: won {won}/{seeds} ({100 * won // seeds}%), ended "
                  f"{len(ended)}, turns to the end median "
                  f"{statistics.median(r.turns for r in ended) if ended else '-'}, battles per campaign "
                  f"{statistics.mean(r.battles for r in results):.1f} ({time.perf_counter() - t0:.0f} s)", flush=True)
    for scenario, (won, played) in sorted(per_scenario.items()):
        print(f"  {scenario}, every camp: won {won}/{played} ({100 * won // played}%)")
    print(f"  all: won {wins}/{total} ({100 * wins // max(1, total)}%)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=40, help="campaigns per scenario, camp and opponent")
    parser.add_argument("--opponent", choices=[o.value for o in Opponent], action="append",
                        help="hold, random (default: both)")
    parser.add_argument("--no-campaigns", action="store_true")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="campaigns played in parallel (processes)")
    parser.add_argument("--personality", choices=[p.value for p in Personality], default=Personality.BALANCED.value,
                        help="the general's personality (RU-26, rules/general.yaml)")
    parser.add_argument("--on", choices=FIELD_COMMANDER, action="append", default=[],
                        help="turn on a Field Commander module: FC-1 overwhelm, FC-2 supply, FC-3 scout_rerolls")
    args = parser.parse_args()
    if not args.no_timing:
        big_side()
    if not args.no_campaigns:
        for opponent in map(Opponent, args.opponent or [o.value for o in Opponent]):
            print(f"the general against a side that {'only holds' if opponent is Opponent.HOLD else 'plays at random'}:")
            win_rates(args.seeds, opponent, args.jobs, args.personality, tuple(args.on))
