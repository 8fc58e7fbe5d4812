"""RU-27: a quick battle's rolls in a roll log are recomputed by ``python -m bot verify`` and by the HTML
verifier alike (they are ordinary checks with their tables); a forged battle result is caught."""

from __future__ import annotations

import copy

from bot.engine.dice import SeededDice, roll_key
from bot.engine.model import Quality
from bot.engine.quick import resolve
from bot.engine.verify import verify_log

from .forgeries import SEEDS, chained, rechain
from .test_quick import OPEN, camp
from .test_verify_browser import browser, page_result, python_result  # noqa: F401  (fixture re-used)


def quick_log() -> dict:
    """Turn 1 ended with one quick battle (its rolls), turn 2 in play."""
    battle = resolve((camp("fr", 18), camp("au", 12, quality=Quality.VETERAN)), OPEN, SeededDice(SEEDS[1]),
                     lambda subject, procedure: roll_key(1, 3, f"battle:1/{subject}", procedure))
    return chained({1: [r.to_dict() for r in battle.rolls], 2: []}, SEEDS, current=2)


def forged_result(log: dict) -> dict:
    """The battle roll's result turned into the other camp's decisive defeat, the chain recomputed."""
    bad = copy.deepcopy(log)
    entry = bad["rolls"][0]
    assert entry["key"].endswith("/quick-battle")
    entry["result"], entry["label"] = "decisive_defeat", "decisive defeat"
    return rechain(bad)


def test_python_recomputes_every_quick_battle_roll_and_catches_a_forged_result() -> None:
    log = quick_log()
    report = verify_log(log)
    assert report.ok and report.recomputed == len(log["rolls"])
    bad = verify_log(forged_result(log))
    assert not bad.ok and any("quick-battle" in line for line in bad.lines())


def test_the_page_recomputes_quick_battle_rolls_as_python_does(browser, tmp_path) -> None:  # noqa: F811
    log = quick_log()
    for one in (log, forged_result(log)):
        assert page_result(browser, one, tmp_path) == python_result(one)
