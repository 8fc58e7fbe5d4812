"""``/campaign status`` on a large campaign (issue 26 item 2): the embed builds only the Forces it shows,
and says exactly what it said when it was built from every Force in sight.

A generated campaign of 3 sides and 420 Forces (some arriving later, some on Defend), in Phase 1 with
Force tests taken and in Phase 2 with moves declared, read by the GM, each side and a member on no
side, in English, Italian and German. ``golden/status_large.json`` holds the embeds as the code
built them before the change (from the whole view); regenerate it only for a deliberate change of
the embed: ``python -m tests.bot.test_status_large``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot import formatting as fmt
from bot.campaign import orders, views
from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.sight import GM, Reader
from bot.campaign.state import CampaignState
from bot.campaign.turn import resolve
from bot.engine.errors import EngineError
from bot.engine.model import Order, Square
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import parse_scenario_text

GOLDEN = Path(__file__).parent / "golden" / "status_large.json"
CTX = Context(lambda: hashlib.sha256(b"status-large").digest(), default_rulebook())
SIDES = {"fr": 2001, "au": 3001, "ru": 4001}
READERS = {"gm": GM, "fr": Reader(side="fr"), "au": Reader(side="au"), "ru": Reader(side="ru"), "none": Reader()}
LANGS = ("en", "it", "de")
FORCES, WIDTH, HEIGHT = 420, 60, 40


def scenario_text() -> str:
    """420 Forces on a 60x40 map, their names out of the order of their keys and sides (the status sorts
    them), about one in seven on Defend and one in twenty arriving on turn 3."""
    rng = random.Random(26)
    squares = rng.sample([(c, r) for c in range(WIDTH) for r in range(HEIGHT)], FORCES)
    numbers = rng.sample(range(1000, 9999), FORCES)
    lines, later = [], []
    for i, (col, row) in enumerate(squares):
        side = ("fr", "au", "ru")[i % 3]
        order = ", order: defend" if i % 7 == 3 else ""
        force = (f"{{key: f{i}, name: Corps {numbers[i]}, side: {side}, square: {Square(col, row).name}{order},"
                 f" leader: {{name: L{i}, cv: {i % 4}}}, units: [{{key: u{i}a, name: U{i}a, sp: {4 + i % 9}}},"
                 f" {{key: u{i}b, name: U{i}b, sp: 3, type: cavalry}}]}}")
        if i % 20 == 11:
            later.append(f"  - {{turn: 3, force: {force}}}")
        else:
            lines.append(f"  - {force}")
    return (f"name: Large\nstart_date: 1805-10-07\nmap: {{width: {WIDTH}, height: {HEIGHT}}}\n"
            "sides: [{key: fr, name: France}, {key: au, name: Austria}, {key: ru, name: Russia}]\n"
            "forces:\n" + "\n".join(lines) + "\nreinforcements:\n" + "\n".join(later) + "\n")


def _to(state: CampaignState, phase: Phase) -> CampaignState:
    while state.phase is not phase:
        state = resolve(state, Journal(), CTX, forced=True).state
    return state


def campaigns() -> dict[str, CampaignState]:
    """The campaign in Phase 1 (a third of each side's Forces took a Force test) and in Phase 2 (half of
    the Forces not on Defend declared a move one square east)."""
    spec = parse_scenario_text(scenario_text(), key="large")
    state = from_scenario(spec, campaign_id=26, name="Large", gm_id=1)
    state = replace(state, players={member: side for side, member in SIDES.items()})
    state = _to(state, Phase.ORDERS)
    for n, key in enumerate(sorted(state.forces)):
        f = state.forces[key]
        if n % 3 == 0 and f.side in SIDES:
            with contextlib.suppress(EngineError):
                state, _ = orders.give_order(state, SIDES[f.side], key, Order.FORCED_MARCH, Journal(), CTX)
    at_orders = state
    state = _to(state, Phase.MOVEMENT)
    for n, key in enumerate(sorted(state.forces)):
        f = state.forces[key]
        if n % 2 == 0 and f.square:
            sq = Square.parse(f.square)
            with contextlib.suppress(EngineError):
                state, _ = orders.declare_move(state, SIDES[f.side], key, Square(sq.col + 1, sq.row).name,
                                               Journal(), CTX)
    return {"orders": at_orders, "movement": state}


def embeds(build: Any) -> dict[str, Any]:
    """Every reader's status embed in every language, from ``build(state, reader)`` (a status view)."""
    out = {}
    for phase, state in campaigns().items():
        for who, reader in READERS.items():
            sv = build(state, reader)
            for lang in LANGS:
                out[f"{phase}/{who}/{lang}"] = fmt.status_embed(sv, lang).to_dict()
    return out


def whole(state: CampaignState, reader: Reader) -> views.StatusView:
    return views.status(state, reader, version=3)


def card(state: CampaignState, reader: Reader) -> views.StatusView:
    return views.status_card(state, reader, version=3)


def assert_golden(build: Any) -> None:
    """The embeds ``build`` gives, in every language and for every reader, are the golden ones."""
    got = json.loads(json.dumps(embeds(build)))
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key


def test_issue_26_the_large_status_embed_is_the_one_built_from_every_force_in_sight():
    assert_golden(whole)


def test_issue_26_the_status_card_builds_only_the_forces_it_shows_and_says_the_same():
    assert_golden(card)
    state = campaigns()["movement"]
    french, everything = card(state, READERS["fr"]), card(state, GM)
    assert len(french.forces) == fmt.STATUS_FORCES + 2 * fmt.STATUS_NAMES  # of 300 and more in sight
    assert len(everything.forces) == 3 * fmt.STATUS_NAMES
    whole_view = whole(state, READERS["fr"])
    assert french.counts == tuple((side, whole_view.seen_count(side)) for side in ("au", "fr", "ru"))
    assert all(f == next(w for w in whole_view.forces if w.key == f.key) for f in french.forces)  # the same views
    assert card(state, READERS["none"]).forces == ()


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(embeds(whole), ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
