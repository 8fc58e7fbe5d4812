"""A seeded aftermath pinned whole (issue 26 item 5): the engine's hot path may get faster, never
different. Each case rolls a unit's wounded (MC-7.1) and deserter checks (MC-7.2, RU-6, RU-7) with
:class:`SeededDice` and compares everything the result carries (the unit after, the tallies, every
record as the log stores it, its English line, its title's and subject's templates and parameters) with
``golden/aftermath_seeded.json``, written by the code before the hot path was trimmed.

Regenerate only for a deliberate rule change: ``python -m tests.engine.test_aftermath_seeded``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot.engine.aftermath import MercenaryRule, UnitLosses, unit_aftermath
from bot.engine.dice import SeededDice
from bot.engine.model import Outcome, Quality, Territory, Unit, UnitType
from bot.engine.text import Msg

GOLDEN = Path(__file__).parent / "golden" / "aftermath_seeded.json"


def _cases() -> list[tuple[Unit, UnitLosses, Outcome, Territory, MercenaryRule]]:
    """Every quality, territory and outcome; rout and other orders; mercenaries under both RU-6 settings."""
    cases = []
    qualities, territories, outcomes = list(Quality), list(Territory), list(Outcome)
    i = 0
    for outcome in outcomes:
        for territory in territories:
            for quality in qualities:
                for mercenary in (False, True):
                    for setting in ("check_all", "lose_all") if mercenary else ("check_all",):
                        sp = 20 + 7 * (i % 5)
                        losses = UnitLosses(f"u{i}", killed=i % 7 + (0 if i % 11 == 3 else 1),
                                            rout=(3 * i) % 6, other_order=(i // 2) % 5)
                        unit = Unit(f"u{i}", f"Unit {i} d'Italie", sp, type=list(UnitType)[i % len(UnitType)],
                                    quality=quality, mercenary=mercenary, flag=bool(i % 2))
                        cases.append((unit, losses, outcome, territory, setting))  # type: ignore[arg-type]
                        i += 1
    cases.append((Unit("z", "Untouched", 9), UnitLosses("z"), Outcome.LOST, Territory.ENEMY, "check_all"))
    return cases


def _msg(text: str) -> Any:
    return text.to_json() if isinstance(text, Msg) else {"plain": text}


def seeded_results() -> list[dict[str, Any]]:
    out = []
    for n, (unit, losses, outcome, territory, setting) in enumerate(_cases()):
        dice = SeededDice.from_int(1000 + n)
        a = unit_aftermath(unit, losses, outcome, territory, dice, f"t3/p4/battle:{n}/unit:{unit.id}",
                           mercenary=setting)
        out.append({
            "unit": {**asdict(a.unit), "type": a.unit.type.value, "quality": a.unit.quality.value},
            "losses": asdict(a.losses),
            "tallies": [a.lost_outright, a.dead, a.returned_wounded, a.deserted, a.returned],
            "rolls": [{**r.to_dict(), "line": str(r), "title": _msg(r.title),
                       "subject_msg": _msg(r.subject), "record_type": type(r).__name__} for r in a.rolls],
            "wounded_is_first": a.wounded is None or a.rolls[0] is a.wounded,
        })
    return out


def test_issue_26_a_seeded_aftermath_gives_exactly_the_pinned_rolls_and_outcomes():
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = json.loads(json.dumps(seeded_results()))
    assert len(got) == len(expected)
    for n, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g == e, f"case {n} ({e['unit']['id']}) differs from the pinned aftermath"


if __name__ == "__main__":
    rows = (json.dumps(case, ensure_ascii=False, sort_keys=True) for case in seeded_results())
    GOLDEN.write_text("[\n" + ",\n".join(rows) + "\n]\n", encoding="utf-8")  # one case a line
