"""Whole campaigns played to the end (issue 25 item 3; RU-25, RU-26, RU-27): bot generals on every side,
battles settled quickly (``battles: quick``, no scripted reporter), through the services, on each
bundled scenario and on generated maps of 2 to 4 sides with alliances. Each fails on a phase the
generals leave awaited, an exception, an action the core refused a general, or a campaign not ended
within 60 turns; what members read of it is rendered in each of the five languages and fails on a
message the catalogue lacks or English left in it.

CI plays one seed of each, created in the five languages in turn and read through in all five (``ADC_WHOLE_CAMPAIGNS``
seeds when set: ``scripts/properties --campaigns N`` plays many)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.campaign.state import CampaignStatus
from bot.scenario import Scenario, bundled_scenarios
from bot.store.db import Database
from tests.databases import migrated_sqlite

from .campaigns import TURNS, create, generated, journal_texts, play_out, seeded
from .languages import LANGUAGES, untranslated

SEEDS = int(os.environ.get("ADC_WHOLE_CAMPAIGNS", "1"))
"""Seeds per scenario (1 in CI)."""

GENERATED = (2, 3, 4)
"""Sides of the generated maps (from 3 on, with alliances: :func:`.campaigns.generated`)."""

FIRST_MAP = 0
"""The generator's seed of CI's first maps (``scripts/properties --campaigns N`` plays N of them: not every
generated map ends within 60 turns yet, see the README)."""


async def play(tmp_path: Path, label: str, scenario: str | Scenario, language: str, **options: object) -> None:
    seeded(label)
    db = Database(migrated_sqlite(tmp_path / "whole.db"))
    try:
        cid = await create(db, scenario, language=language, options=options)
        played = await play_out(db, cid)  # raises Stuck: awaited, refused, or not ended within TURNS
        assert played.state.status is CampaignStatus.ENDED and played.turns <= TURNS
        # every language's catalogue holds every message, and every language is read through for English left
        # in it (issue 25 item 3: the same run in each of the five languages; 2 s more for the seven campaigns)
        found = untranslated(await journal_texts(db, cid), LANGUAGES)
        assert not any(found.values()), "\n".join(f"{lang}: {line}" for lang, lines in found.items()
                                                  for line in lines[:20])
    finally:
        await db.dispose()


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
async def test_ru_25_generals_play_each_bundled_scenario_to_its_end_with_quick_battles(
        scenario: str, seed: int, tmp_path: Path) -> None:
    language = LANGUAGES[(sorted(bundled_scenarios()).index(scenario) + seed) % len(LANGUAGES)]
    await play(tmp_path, f"whole/{scenario}/{seed}", scenario, language)


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("sides", GENERATED)
async def test_ru_25_generals_play_generated_maps_of_2_to_4_sides_to_their_end(sides: int, seed: int,
                                                                              tmp_path: Path) -> None:
    # with FC-2 supply and FC-3 re-rolls on 3 sides: the general's refits, units bought back, recruits, scouts and
    # forced marches (RU-24), its scouts' re-rolls
    await play(tmp_path, f"whole/generated{sides}/{seed}", generated(sides, FIRST_MAP + seed),
               LANGUAGES[(sides + seed) % len(LANGUAGES)], supply=sides == 3, scout_rerolls=sides == 3)
