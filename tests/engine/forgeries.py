"""An honest roll log and the forgeries the verifiers must catch (issue "Fair play", item 2), shared
by the Python verifier's tests and the browser verifier's.

The chain is built here independently of the code under test, as docs/dice.md states it: each
record carries ``prev``, the SHA-256 of the canonical JSON (keys sorted, no spaces, non-ASCII
escaped) of the record before it; the first carries 64 zeros.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable

from bot.engine.aftermath import wounded_check
from bot.engine.dice import SeededDice, roll_key, seed_commitment
from bot.engine.force_test import force_test_check
from bot.engine.model import Cell, Territory
from bot.engine.movement import movement_check
from bot.engine.seasons import roll_event

FORMAT = "aide-de-camp/roll-log"
GENESIS = "0" * 64
SEEDS = {t: hashlib.sha256(f"test turn {t}".encode()).digest() for t in (1, 2, 3)}


def sha(record: dict) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def record_sha(entry: dict) -> str:
    """The hash of a roll log entry's record (the log's own ``turn`` and ``undone`` left out)."""
    return sha({k: v for k, v in entry.items() if k not in ("turn", "undone")})


def play_turn(turn: int, seed: bytes, force, *, short: bool = False) -> list[dict]:
    """A few real checks of one turn rolled with seeded dice: their records, as logged."""
    dice = SeededDice(seed)
    records = [
        force_test_check(force, Cell(territory="france")).roll(dice, roll_key(turn, 1, "force:f1", "force_test")),
        movement_check(force, Cell()).roll(dice, roll_key(turn, 2, "force:f1", "movement")),
    ]
    if not short:
        records += [
            roll_event(dice, roll_key(turn, 8, "side:fr", "event"), subject="France").roll,  # 2D6
            wounded_check(Territory.ENEMY).roll_many(dice, roll_key(turn, 4, "unit:u1", "wounded"), 25),
        ]
    return [r.to_dict() for r in records]


def chained(records_by_turn: dict[int, list[dict]], seeds: dict[int, bytes], current: int) -> dict:
    """A version 2 roll log: records chained in order; each ended turn's seed and chain head revealed."""
    prev, rolls, turns = GENESIS, [], []
    for turn, records in records_by_turn.items():
        for record in records:
            record = {**record, "prev": prev}
            prev = sha(record)
            rolls.append({**record, "turn": turn, "undone": False})
        ended = turn < current
        turns.append({"turn": turn, "seed_sha256": seed_commitment(seeds[turn]),
                      "seed": seeds[turn].hex() if ended else None, "chain_head": prev if ended else None})
    return {"format": FORMAT, "version": 2, "current_turn": current, "turns": turns, "rolls": rolls}


def honest_log(force) -> dict:
    """Turns 1 and 2 ended (seeds and chain heads revealed), turn 3 in play, fixed seeds.
    Rolls 0-3 are turn 1 (force test, movement, a 2D6 event, 25 wounded dice), 4-7 turn 2, 8-9 turn 3."""
    records = {1: play_turn(1, SEEDS[1], force), 2: play_turn(2, SEEDS[2], force),
               3: play_turn(3, SEEDS[3], force, short=True)}
    return chained(records, SEEDS, current=3)


def reseeded_log(force) -> dict:
    """As :func:`honest_log`, but turn 2's seed was drawn anew on import after its first two rolls,
    which were made with the seed it replaced (``reseeded_after``: the hash of the second)."""
    replaced = hashlib.sha256(b"the seed the import replaced").digest()
    turn2 = play_turn(2, replaced, force)[:2] + play_turn(2, SEEDS[2], force)[2:]
    log = chained({1: play_turn(1, SEEDS[1], force), 2: turn2, 3: play_turn(3, SEEDS[3], force, short=True)},
                  SEEDS, current=3)
    log["turns"][1]["reseeded_after"] = record_sha(log["rolls"][5])
    return log


def legacy(log: dict) -> dict:
    """The same log as version 1 wrote it: no chain, no tables, no current turn."""
    old = copy.deepcopy(log)
    old["version"] = 1
    del old["current_turn"]
    for t in old["turns"]:
        del t["chain_head"]
    for r in old["rolls"]:
        del r["prev"], r["table"], r["undone"]
    return old


def rechain(log: dict, *, start: int = 0) -> dict:
    """What a forger who knows the format does after an edit: recompute every ``prev`` from
    ``start`` on (the chain heads were announced when their turns ended: the file's stay)."""
    rolls = log["rolls"]
    prev = rolls[start]["prev"] if start else GENESIS
    for entry in rolls[start:]:
        entry["prev"] = prev
        prev = record_sha(entry)
    return log


def _relabel(log: dict) -> dict:
    """A changed die, its roll relabelled to a turn still in play (its seed not revealed)."""
    entry = log["rolls"][0]
    entry["dice"] = [entry["dice"][0] % 6 + 1]
    entry["turn"] = 3
    return log


def _drop(log: dict) -> dict:
    """One die of a 2D6 roll dropped: the die left is still the seed's first."""
    log["rolls"][2]["dice"] = log["rolls"][2]["dice"][:1]
    return log


def _total(log: dict) -> dict:
    """A forged total, the dice kept."""
    log["rolls"][1]["total"] += 3
    return log


def _outcome(log: dict) -> dict:
    """A forged result and label, the dice kept."""
    entry = log["rolls"][0]
    other = next(b for b in entry["table"]["bands"] if b["result"] != entry["result"])
    entry["result"], entry["label"] = other["result"], other["label"]
    return log


def _seed(log: dict) -> dict:
    """An ended turn's revealed seed set to null (its rolls would read as "not verifiable yet")."""
    log["turns"][0]["seed"] = None
    return log


def _delete(log: dict) -> dict:
    """A roll deleted."""
    del log["rolls"][1]
    return log


def _delete_rechained(log: dict) -> dict:
    """A roll deleted and every later ``prev`` recomputed: the published chain head is lost."""
    del log["rolls"][5]
    return rechain(log)


FORGERIES: dict[str, Callable[[dict], dict]] = {
    "relabel": _relabel, "drop": _drop, "total": _total, "outcome": _outcome, "seed": _seed, "delete": _delete,
    "delete-rechained": _delete_rechained,
}


def forged(log: dict, name: str) -> dict:
    return FORGERIES[name](copy.deepcopy(log))
