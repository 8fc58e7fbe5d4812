"""Roll-log verification (bot/engine/verify.py and ``python -m bot verify FILE``).

Every roll of a turn whose seed is revealed is re-derived from the seed and the roll's key; its
total and result are recomputed from its dice, modifiers and table; and the rolls are chained,
each record carrying the hash of the one before, with each ended turn's chain head published
with its seed. Each kind of forgery the issue names is here, and each must be caught.

The chain is built here independently of the code under test (canonical JSON: keys sorted, no
spaces, non-ASCII escaped; SHA-256), as docs/dice.md states it.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine.aftermath import deserter_check, wounded_check
from bot.engine.battle import exploration_check
from bot.engine.dice import SeededDice, new_turn_seed, roll_key
from bot.engine.errors import VerificationError
from bot.engine.leaders import fate_checks
from bot.engine.model import Cell, Climate, Order, Quality, Season, Territory, Unit, UnitType
from bot.engine.movement import movement_check, roll_initiative
from bot.engine.rolls import record_from_dict
from bot.engine.seasons import weather_check
from bot.engine.trophies import roll_battle_dice, roll_trophy
from bot.engine.verify import verify_log

from .forgeries import (
    FORGERIES,
    SEEDS,
    chained,
    forged,
    honest_log,
    legacy,
    play_turn,
    rechain,
    record_sha,
    reseeded_log,
)

ROOT = Path(__file__).resolve().parents[2]

# --- CC-3 trophy rolls, logged with the table they were read by ------------------------------------

TROPHY_CASES = (
    ("cavalry on infantry, no trophy", UnitType.CAVALRY, lambda labels: labels.endswith(": no trophy")),
    ("cavalry on infantry, Flag + Flag", UnitType.CAVALRY, lambda labels: labels.startswith("Flag + Flag:")),
    ("cavalry on infantry, Flag + Sabre", UnitType.CAVALRY, lambda labels: labels.startswith("Flag + Sabre: cavalry")),
    ("infantry on infantry, Flag + Sabre", UnitType.INFANTRY, lambda labels: labels == "Flag + Sabre: no trophy"),
)
"""Each outcome a trophy roll can have: none, the two winning combinations, and Flag + Sabre for a captor it
does not count for (CC-3)."""


def trophy_records(turn: int, seed: bytes) -> list[dict]:
    """Real CC-3 trophy rolls with the turn's seeded dice, one of each outcome of TROPHY_CASES: the first
    captor (c0, c1, ...) whose key gives it."""
    dice = SeededDice(seed)
    victim = Unit("i1", "Grenzers", 4, UnitType.INFANTRY)
    records = []
    for _name, captor_type, wanted in TROPHY_CASES:
        for n in range(2000):
            captor = Unit(f"c{n}", f"Captor {n}", 3, captor_type)
            key = roll_key(turn, 4, f"battle:1/unit:{captor.id}", f"trophy:{victim.id}")
            roll = roll_trophy(captor, victim, dice, key, ordered=True, took_ground=True).roll
            if wanted(roll.label):
                records.append(roll.to_dict())
                break
    assert len(records) == len(TROPHY_CASES)
    return records


def trophy_log(force) -> dict:
    """The honest log (forgeries.honest_log) with turn 1's four trophy rolls after its first four: rolls 0-3
    and 4-7 (the trophies: none, Flag + Flag, Flag + Sabre, Flag + Sabre that takes nothing) are turn 1,
    8-11 turn 2, 12-13 turn 3."""
    records = {1: play_turn(1, SEEDS[1], force) + trophy_records(1, SEEDS[1]), 2: play_turn(2, SEEDS[2], force),
               3: play_turn(3, SEEDS[3], force, short=True)}
    return chained(records, SEEDS, current=3)


def unchain(log: dict) -> dict:
    """The log without its chain, so that only the recomputation can catch an edit."""
    for r in log["rolls"]:
        del r["prev"]
    for t in log["turns"]:
        t["chain_head"] = None
    return log


def forge_trophy_taken(log: dict) -> dict:
    """CC-3: a trophy roll that took nothing recorded as "trophy taken" (1 Glory, CC-4), its dice kept."""
    entry = log["rolls"][4]
    won = entry["table"]["combinations"][0]
    entry["result"], entry["label"] = won["result"], won["label"]
    return log


@pytest.fixture
def log(make_force) -> dict:
    """Turns 1 and 2 ended, turn 3 in play (see forgeries.honest_log): rolls 0-3 are turn 1, 4-7 turn 2, 8-9 turn 3."""
    return honest_log(make_force(cv=2))


def heads(log: dict) -> list[str]:
    return [f"Turn {t['turn']} chain head {t['chain_head']}: compare it with the one announced when turn {t['turn']} ended."
            for t in log["turns"] if t["chain_head"]]


def problems(log: dict) -> list[str]:
    report = verify_log(log)
    assert not report.ok
    return report.problems


from .test_verify_anchored import CONSISTENT  # noqa: E402

# --- honest logs ------------------------------------------------------------------------------


def test_an_honest_chained_log_checks_out_and_names_its_chain_heads(log):
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok
    assert (report.verified, report.unverifiable, report.recomputed, report.linked) == (8, 2, 10, 10)
    assert report.lines() == [
        "8 rolls verified against their turn seeds.",
        "2 rolls not verifiable yet: turn(s) 3 still in play (seed not revealed).",
        "10 totals and results recomputed from the dice, modifiers and tables.",
        "10 tables are the bot's own rulebook's for their rule.",  # the events too: the house rules' (RU-10)
        "10 rolls linked in the chain.",
        *heads(log),
        CONSISTENT,  # never "check out" before the heads are compared with the announced ones (issue 24)
    ]


def test_a_log_rolled_with_fresh_secret_turn_seeds_verifies_once_they_are_revealed(make_force):
    seeds = {1: new_turn_seed(), 2: new_turn_seed(), 3: new_turn_seed()}
    force = make_force(cv=2)
    log = chained({t: play_turn(t, s, force) for t, s in seeds.items()}, seeds, current=4)
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok and report.verified == 12 and report.unverifiable == 0


def test_an_old_log_without_chain_or_tables_still_checks_out_reported_as_unchained(log):
    report = verify_log(legacy(log))
    assert report.ok
    assert report.lines() == [
        "8 rolls verified against their turn seeds.",
        "2 rolls not verifiable yet: turn(s) 3 still in play (seed not revealed).",
        "10 rolls not recomputed: their records carry no table (logged before tables were recorded).",
        "10 rolls logged before the chain was kept: a roll deleted among them would not show.",
        CONSISTENT,
    ]


def test_a_chain_that_starts_after_older_unchained_rolls_checks_out(log):
    """A campaign upgraded after turn 1: its first chained roll carries the hash of the last old record."""
    rolls = log["rolls"]
    for r in rolls[:4]:  # logged before the upgrade: no chain, no table
        del r["prev"], r["table"]
    rolls[4]["prev"] = record_sha(rolls[3])
    rechain(log, start=4)
    log["turns"][0]["chain_head"] = None  # turn 1 ended before the chain was kept
    log["turns"][1]["chain_head"] = record_sha(rolls[7])
    report = verify_log(log)
    assert report.ok, report.lines()
    assert (report.unchained, report.linked, report.not_recomputed) == (4, 6, 4)


def test_every_kind_of_check_is_recomputed_exactly_as_it_was_rolled(make_force):
    """Each table the engine rolls against, naturals, multipliers, floors and batches included."""
    seed = SEEDS[1]
    dice = SeededDice(seed)
    force = make_force(cv=1)
    defending = make_force(cv=1, order=Order.DEFEND)
    first, second = fate_checks("melee", subject="Lannes")
    records = [
        weather_check(Climate.TEMPERATE, Season.WINTER).roll(dice, "t1/p0/weather"),
        exploration_check(defending, Cell()).roll(dice, "t1/p3/force:f1/explore"),
        first.roll(dice, "t1/p4/leader:l1/fate"),
        second.roll(dice, "t1/p4/leader:l1/fate2"),
        *roll_initiative({"fr": 2, "au": 2}, dice, "t1/p2/initiative").rolls,
        roll_battle_dice(7, dice, "t1/p4/glory/stragglers"),
        movement_check(force, Cell()).roll(dice, "t1/p2/force:f1/movement"),
    ]
    for n in range(40):  # naturals 1 and 6 and every band of the per-SP checks, many times
        records.append(wounded_check(Territory.FRIENDLY).roll(dice, f"t1/p4/unit:u{n}/wounded"))
        records.append(deserter_check(Quality.RAW, routed=True).roll_many(dice, f"t1/p4/unit:u{n}/deserters", 9))
    log = chained({1: [r.to_dict() for r in records]}, {1: seed}, current=2)
    report = verify_log(log)
    assert report.ok, report.lines()
    assert report.recomputed == len(records) and report.not_recomputed == 0


def test_an_honest_log_with_trophy_rolls_recomputes_them_from_their_dice_and_table(make_force):
    """CC-3: every trophy roll, whatever its outcome, is recomputed, none left "not recomputed"."""
    log = trophy_log(make_force(cv=2))
    trophies = log["rolls"][4:8]
    assert [r["rule"] for r in trophies] == ["CC-3"] * 4 and all("table" in r for r in trophies)
    assert [r["result"] for r in trophies] == ["none", "taken", "taken", "none"]
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok, report.lines()
    assert (report.verified, report.recomputed, report.not_recomputed, report.linked) == (12, 14, 0, 14)
    assert "14 totals and results recomputed from the dice, modifiers and tables." in report.lines()


def test_a_trophy_roll_logged_without_a_table_is_not_recomputed_and_still_checks_out(make_force):
    """CC-3 rolls logged before their records carried a table: reported as not recomputed, not as forged."""
    log = unchain(trophy_log(make_force(cv=2)))
    for r in log["rolls"][4:8]:
        del r["table"]
    report = verify_log(log)
    assert report.ok, report.lines()
    assert (report.recomputed, report.not_recomputed) == (10, 4)
    assert "4 rolls not recomputed: their records carry no table (logged before tables were recorded)." \
        in report.lines()


def test_a_forged_trophy_with_the_dice_kept_is_caught_even_without_the_chain(make_force):
    """CC-3: "trophy taken!" (1 Glory, CC-4) recorded for dice that take nothing."""
    log = unchain(trophy_log(make_force(cv=2)))
    honest = copy.deepcopy(log["rolls"][4])
    entry = forge_trophy_taken(log)["rolls"][4]
    (found,) = problems(log)
    assert found == (
        f"rolls[4] ({entry['key']}): recorded total {entry['total']}, result \"taken\", label "
        f"{json.dumps(entry['label'])}, value null, natural false, but its dice and table give total "
        f"{honest['total']}, result \"none\", label {json.dumps(honest['label'])}, value null, natural false"
    )


def test_a_taken_trophy_forged_into_none_and_a_forged_flag_count_are_caught(make_force):
    log = unchain(trophy_log(make_force(cv=2)))
    taken = log["rolls"][5]  # Flag + Flag
    taken["result"], taken["label"] = "none", "Flag + Flag: no trophy"
    log["rolls"][6]["total"] = 2  # Flag + Sabre holds one flag
    keys = [r["key"] for r in log["rolls"]]
    found = problems(log)
    assert len(found) == 2
    assert found[0].startswith(f'rolls[5] ({keys[5]}): recorded total 2, result "none", label "Flag + Flag: no trophy"')
    assert ', but its dice and table give total 2, result "taken", label "Flag + Flag: ' in found[0]
    assert found[1].startswith(f'rolls[6] ({keys[6]}): recorded total 2, result "taken", label "Flag + Sabre: ')
    assert ', but its dice and table give total 1, result "taken", label "Flag + Sabre: ' in found[1]


def test_a_forged_trophy_with_the_chain_kept_also_breaks_the_chain(make_force):
    log = forge_trophy_taken(trophy_log(make_force(cv=2)))
    found = problems(log)
    assert any(p.startswith(f"rolls[4] ({log['rolls'][4]['key']}): recorded total ") for p in found)
    assert any(p.startswith(f"rolls[5] ({log['rolls'][5]['key']}): the chain is broken here") for p in found)


def test_a_trophy_table_forged_to_fit_a_forged_outcome_is_caught_by_the_chain(make_force):
    """CC-3: the forger also writes the dice he kept into the table's winning combinations: the outcome then
    follows from the table, but the record is not the one logged."""
    log = trophy_log(make_force(cv=2))
    entry = forge_trophy_taken(log)["rolls"][4]
    symbols = [entry["table"]["faces"][f - 1] for f in entry["dice"]]
    entry["table"]["combinations"].insert(0, {"symbols": symbols, "result": "taken", "label": entry["label"]})
    entry["total"] = symbols.count("flag")
    found = problems(log)
    assert not any("recorded total" in p for p in found)
    table = f"rolls[4] ({entry['key']}): its table is not the rulebook's table for CC-3"  # issue 24, item 2
    assert found == [table, f"rolls[5] ({log['rolls'][5]['key']}): the chain is broken here: its \"prev\" is not "
                     "the hash of the roll before it (a roll was deleted, inserted or changed)"]
    assert problems(rechain(log)) == [table,
                                      "the chain head of turn 1 is not the hash of any roll in the log: rolls were "
                                      "deleted or changed",
                                      "the chain head of turn 2 is not the hash of any roll in the log: rolls were "
                                      "deleted or changed"]


def test_a_trophy_table_forged_alone_is_caught_by_its_own_record(make_force):
    """CC-3: a winning combination dropped from the table (Flag + Flag no longer takes the trophy), or the
    die's faces renumbered: the recorded outcome no longer follows from the dice."""
    log = unchain(trophy_log(make_force(cv=2)))
    log["rolls"][5]["table"]["combinations"] = log["rolls"][5]["table"]["combinations"][1:]
    log["rolls"][6]["table"]["faces"] = ["flag", "sabre", "infantry", "infantry", "cavalry", "artillery"]
    keys = [r["key"] for r in log["rolls"]]
    held = [f"rolls[{i}] ({keys[i]}): its table is not the rulebook's table for CC-3" for i in (5, 6)]
    found = [p for p in problems(log) if p not in held]  # each table is the rulebook's no more (issue 24, item 2)
    assert len(problems(log)) == 4
    assert [p.startswith(f"rolls[{i}] ({keys[i]}): recorded total ") for i, p in zip((5, 6), found, strict=True)] \
        == [True, True]
    assert all(", but its dice and table give total " in p for p in found)
    assert 'result "none", label "Flag + Flag: no trophy"' in found[0]


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda t: t.pop("faces"), "its table is malformed (bands)"),  # read as a table of bands, which it is not
        (lambda t: t.update(faces=[]), "its table is malformed (faces)"),
        (lambda t: t.update(dice=0), "its table is malformed (dice)"),
        (lambda t: t["labels"].pop("flag"), "its table is malformed (labels)"),
        (lambda t: t.update(count=5), "its table is malformed (count)"),
        (lambda t: t["combinations"].append({"symbols": "flag", "result": "taken", "label": "x"}),
         "its table is malformed (combinations)"),
        (lambda t: t.update(otherwise={"result": "none"}), "its table is malformed (otherwise)"),
    ],
)
def test_a_malformed_trophy_table_is_a_problem(make_force, mangle, message):
    log = unchain(trophy_log(make_force(cv=2)))
    mangle(log["rolls"][4]["table"])
    assert problems(log) == [f"rolls[4] ({log['rolls'][4]['key']}): {message}"]


def test_a_trophy_roll_with_a_die_its_table_lacks_a_dropped_die_or_a_modifier_is_caught(make_force):
    log = unchain(trophy_log(make_force(cv=2)))
    keys = [r["key"] for r in log["rolls"]]
    log["rolls"][4]["table"]["faces"] = log["rolls"][4]["table"]["faces"][:4]
    log["rolls"][4]["dice"] = [5, 5]
    log["rolls"][5]["dice"] = log["rolls"][5]["dice"][:1]
    log["rolls"][6]["modifiers"] = [{"value": 1, "rule": "CC-3", "reason": "the Emperor's favour"}]
    found = problems(log)
    assert f"rolls[4] ({keys[4]}): its table's die has no face 5" in found
    assert f"rolls[5] ({keys[5]}): 1 dice recorded, but its table rolls 2" in found
    assert f"rolls[6] ({keys[6]}): it carries modifiers, but its table reads symbols and takes none" in found


def test_log_entries_are_the_roll_records_themselves(log):
    assert str(record_from_dict(log["rolls"][0])).startswith("Force test (MC-4)")
    assert record_from_dict(log["rolls"][3]).rule == "MC-7.1"
    assert record_from_dict(log["rolls"][0]).to_dict()["table"] == log["rolls"][0]["table"]


def test_a_campaign_export_holding_the_log_verifies(log):
    assert verify_log({"campaign": {"name": "Ulm"}, "roll_log": log}).ok


def test_undone_rolls_stay_in_the_chain_and_their_flag_is_not_part_of_the_record(log):
    log["rolls"][5]["undone"] = True
    assert verify_log(log).ok


# --- forgery 1: a changed die, its roll relabelled to a turn still in play --------------------


def test_a_changed_die_relabelled_to_a_turn_in_play_is_caught(log):
    entry = log["rolls"][0]
    entry["dice"] = [entry["dice"][0] % 6 + 1]
    entry["turn"] = 3  # "not verifiable yet", hoped the forger
    found = problems(log)
    assert "rolls[0] (t1/p1/force:f1/force_test) is labelled turn 3, but its key is of turn 1" in found
    assert [(m.turn, m.key) for m in verify_log(log).mismatches] == [(1, "t1/p1/force:f1/force_test")]


def test_a_changed_die_whose_key_is_moved_to_a_turn_in_play_breaks_the_chain(log):
    entry = log["rolls"][1]
    entry["dice"] = [entry["dice"][0] % 6 + 1]
    entry["key"] = entry["key"].replace("t1/", "t3/", 1)
    entry["turn"] = 3
    assert any(p.startswith("rolls[2] (t1/p8/side:fr/event): the chain is broken here") for p in problems(log))


def test_a_relabelled_roll_with_the_chain_recomputed_loses_the_published_chain_head(log):
    entry = log["rolls"][1]
    entry["dice"] = [entry["dice"][0] % 6 + 1]
    entry["key"], entry["turn"] = entry["key"].replace("t1/", "t3/", 1), 3
    found = problems(rechain(log))
    assert "the chain head of turn 1 is not the hash of any roll in the log: rolls were deleted or changed" in found
    assert "the chain head of turn 2 is not the hash of any roll in the log: rolls were deleted or changed" in found


def test_a_relabelled_roll_with_the_chain_and_the_heads_recomputed_sits_before_a_published_head(log):
    entry = log["rolls"][1]
    entry["dice"] = [entry["dice"][0] % 6 + 1]
    entry["key"], entry["turn"] = entry["key"].replace("t1/", "t3/", 1), 3
    rechain(log)
    log["turns"][0]["chain_head"] = record_sha(log["rolls"][3])
    log["turns"][1]["chain_head"] = record_sha(log["rolls"][7])
    found = problems(log)
    assert ("rolls[1] (t3/p2/force:f1/movement) of turn 3 comes before the chain head of turn 1, which was published "
            "when turn 1 ended") in found


# --- forgery 2: a dropped die ----------------------------------------------------------------


def test_a_dropped_die_is_caught(log):
    entry = log["rolls"][2]  # the 2D6 event
    entry["dice"] = entry["dice"][:1]
    found = problems(log)
    assert "rolls[2] (t1/p8/side:fr/event): 1 dice recorded, but its table rolls 2" in found
    assert any(p.startswith("rolls[3] (t1/p4/unit:u1/wounded): the chain is broken here") for p in found)


def test_a_dropped_die_is_caught_by_its_table_even_without_the_chain(log):
    for r in log["rolls"]:
        del r["prev"]
    for t in log["turns"]:
        t["chain_head"] = None
    log["rolls"][2]["dice"] = log["rolls"][2]["dice"][:1]
    assert "rolls[2] (t1/p8/side:fr/event): 1 dice recorded, but its table rolls 2" in problems(log)


def test_a_die_dropped_from_a_per_sp_roll_is_caught_by_its_tally(log):
    for r in log["rolls"]:
        del r["prev"]
    for t in log["turns"]:
        t["chain_head"] = None
    entry = log["rolls"][3]
    entry["dice"] = entry["dice"][1:]
    (found,) = problems(log)
    assert found.startswith("rolls[3] (t1/p4/unit:u1/wounded): recorded tally ")
    assert ", but its dice, modifiers and table give " in found


# --- forgery 3: a forged total or outcome, the dice kept ---------------------------------------


def test_a_forged_total_with_the_dice_kept_is_caught(log):
    entry = log["rolls"][1]
    entry["total"] += 3
    found = problems(log)
    assert any(p.startswith(f"rolls[1] (t1/p2/force:f1/movement): recorded total {entry['total']}, ") for p in found)


def test_a_forged_outcome_with_the_dice_kept_is_caught_even_without_the_chain(log):
    for r in log["rolls"]:
        del r["prev"]
    for t in log["turns"]:
        t["chain_head"] = None
    entry = log["rolls"][0]
    other = next(b for b in entry["table"]["bands"] if b["result"] != entry["result"])
    entry["result"], entry["label"] = other["result"], other["label"]
    (found,) = problems(log)
    assert found.startswith(f"rolls[0] (t1/p1/force:f1/force_test): recorded total {entry['total']}, result "
                            f"{json.dumps(other['result'])}, label {json.dumps(other['label'])}")
    assert ", but its dice, modifiers and table give total " in found


def test_a_forged_tally_with_the_dice_kept_is_caught(log):
    entry = log["rolls"][3]
    first, second = list(entry["counts"])[:2]
    entry["counts"][first] -= 1
    entry["counts"][second] += 1
    assert any(p.startswith("rolls[3] (t1/p4/unit:u1/wounded): recorded tally") for p in problems(log))


def test_a_forged_modifier_reason_that_changes_no_number_is_caught_by_the_chain(log):
    log["rolls"][0]["modifiers"][0]["reason"] = "the Emperor's favour"
    assert any(p.startswith("rolls[1] (t1/p2/force:f1/movement): the chain is broken here") for p in problems(log))


# --- forgery 4: a revealed seed set to null ----------------------------------------------------


def test_a_revealed_seed_set_to_null_is_caught(log):
    log["turns"][0]["seed"] = None
    found = problems(log)
    assert "turn 1 has ended, but its seed is missing: a turn's seed is revealed when it ends" in found
    assert "turn 1 has a chain head but no seed: both are published when the turn ends" in found
    assert verify_log(log).unverifiable == 2  # turn 3 only: turn 1's rolls are not "still in play"


def test_the_last_ended_turns_seed_set_to_null_with_its_head_is_caught(log):
    log["turns"][1]["seed"] = None
    log["turns"][1]["chain_head"] = None
    assert problems(log) == ["turn 2 has ended, but its seed is missing: a turn's seed is revealed when it ends"]


def test_a_seed_set_to_null_in_an_old_log_is_caught_by_the_turns_after_it(log):
    old = legacy(log)
    old["turns"][0]["seed"] = None
    assert problems(old) == ["turn 1 has ended, but its seed is missing: a turn's seed is revealed when it ends"]


def test_a_log_listing_turns_after_its_current_turn_is_refused(log):
    log["current_turn"] = 2
    assert "turn 3 is listed, but the log was made during turn 2" in problems(log)


# --- forgery 5: a deleted (or inserted) roll ---------------------------------------------------


def test_a_deleted_roll_is_caught(log):
    del log["rolls"][1]
    assert problems(log) == ["rolls[1] (t1/p8/side:fr/event): the chain is broken here: its \"prev\" is not the hash "
                             "of the roll before it (a roll was deleted, inserted or changed)"]


def test_a_deleted_first_roll_is_caught(log):
    del log["rolls"][0]
    assert problems(log)[0].startswith("rolls[0] (t1/p2/force:f1/movement): the chain is broken here")


def test_a_deleted_last_roll_of_an_ended_turn_is_caught_by_its_chain_head(log):
    log["current_turn"] = 4
    log["turns"][2].update(seed=SEEDS[3].hex(), chain_head=record_sha(log["rolls"][-1]))
    assert verify_log(log).ok
    del log["rolls"][-1]
    assert problems(log) == ["the chain head of turn 3 is not the hash of any roll in the log: rolls were deleted or "
                             "changed"]


def test_a_deleted_roll_with_the_chain_recomputed_loses_the_published_chain_heads(log):
    del log["rolls"][5]
    found = problems(rechain(log))
    assert found == ["the chain head of turn 2 is not the hash of any roll in the log: rolls were deleted or changed"]


def test_an_inserted_roll_is_caught(log):
    log["rolls"].insert(2, copy.deepcopy(log["rolls"][1]))  # the same movement roll twice
    assert problems(log) == ["rolls[2] (t1/p2/force:f1/movement): the chain is broken here: its \"prev\" is not the "
                             "hash of the roll before it (a roll was deleted, inserted or changed)"]


def test_a_chain_that_stops_is_broken(log):
    for r in log["rolls"][6:]:
        del r["prev"]
    assert any(p.startswith("rolls[6] (t2/p8/side:fr/event): the chain is broken here: it carries no \"prev\"")
               for p in problems(log))


# --- a turn whose seed an import drew anew ----------------------------------------------------------


def test_rolls_made_before_an_import_drew_their_turns_seed_anew_are_reported_not_forged(make_force):
    log = reseeded_log(make_force(cv=2))
    assert not verify_log({**log, "turns": [{k: v for k, v in t.items() if k != "reseeded_after"}
                                            for t in log["turns"]]}).ok  # with the new seed, they mismatch
    report = verify_log(log)
    assert report.ok, report.lines()
    assert (report.replaced, report.replaced_turns, report.verified) == (2, [2], 6)
    assert "2 rolls of turn(s) 2 were made before the turn's seed was drawn anew on import: not verifiable with it." \
        in report.lines()


def test_a_reseed_point_covers_only_the_rolls_before_it(make_force):
    log = reseeded_log(make_force(cv=2))
    entry = log["rolls"][6]
    entry["dice"] = [entry["dice"][0] % 6 + 1, *entry["dice"][1:]]
    assert [m.key for m in verify_log(log).mismatches] == ["t2/p8/side:fr/event"]


def test_a_reseed_point_that_is_not_in_the_chain_is_a_problem(make_force):
    log = reseeded_log(make_force(cv=2))
    log["turns"][1]["reseeded_after"] = "ab" * 32
    assert "the point where turn 2's seed was drawn anew is not the hash of any roll in the log" in problems(log)


# --- the earlier checks -------------------------------------------------------------------------


def test_a_tampered_face_is_reported_as_a_mismatch(log):
    entry = log["rolls"][3]
    original = list(entry["dice"])
    entry["dice"][0] = original[0] % 6 + 1
    report = verify_log(log)
    assert not report.ok
    (mismatch,) = report.mismatches
    assert (mismatch.turn, mismatch.key) == (1, "t1/p4/unit:u1/wounded")
    assert mismatch.derived == tuple(original)
    line = str(mismatch)
    assert line.startswith("turn 1 t1/p4/unit:u1/wounded: recorded [")
    assert line.endswith(" ...]")  # 25 dice, shown 12 at a time
    assert f"MISMATCH: {line}" in report.lines()
    assert report.lines()[-1] == "The log does NOT check out."


def test_a_tampered_key_is_reported_as_a_mismatch(log):
    log["rolls"][3]["key"] = "t1/p4/unit:u2/wounded"
    report = verify_log(log)
    assert [m.key for m in report.mismatches] == ["t1/p4/unit:u2/wounded"]


def test_a_revealed_seed_that_does_not_match_its_published_hash_is_a_bad_seed(log):
    log["turns"][0]["seed"] = new_turn_seed().hex()
    report = verify_log(log)
    assert not report.ok
    assert report.bad_seeds == [1]
    assert report.verified == 4  # turn 2 still checks out
    assert "MISMATCH: the revealed seed of turn 1 does not match the SHA-256 published at its start." in report.lines()
    assert report.unrevealed_turns == [3]


def test_a_roll_of_a_turn_the_log_does_not_list_is_a_problem(log):
    del log["turns"][2]
    log["current_turn"] = 2
    found = problems(log)
    assert "rolls[8] (t3/p1/force:f1/force_test) belongs to turn 3, which the log does not list" in found


def test_a_roll_the_dice_rules_refuse_is_a_problem(log):
    log["rolls"][0]["sides"] = 1
    assert "rolls[0] (t1/p1/force:f1/force_test): A die with 1 sides is not allowed: 2 to 65536." in problems(log)


def test_a_whole_number_written_as_a_float_is_the_same_number(log):
    log["rolls"][0]["total"] = float(log["rolls"][0]["total"])
    assert verify_log(log).ok


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda log: [], "A roll log is a JSON object."),
        (lambda log: {**log, "format": "other"}, 'Not a roll log: expected "format": "aide-de-camp/roll-log".'),
        (lambda log: {**log, "version": 4}, "Unsupported roll log version 4: this verifier reads versions 1 to 3."),
        (lambda log: {**log, "rolls": None}, 'A roll log needs a list of "turns" and a list of "rolls".'),
        (lambda log: {**log, "turns": ["x"]}, "turns[0]: expected an object"),
        (lambda log: {**log, "turns": [{**log["turns"][0], "turn": "1"}]}, 'turns[0].turn: expected a whole number, got "1"'),
        (lambda log: {**log, "turns": [{**log["turns"][0], "seed": "zz"}]}, "turns[0].seed: not hexadecimal"),
        (lambda log: {**log, "turns": [{**log["turns"][0], "chain_head": "ab"}]},
         "turns[0].chain_head: expected 64 hexadecimal digits or null"),
        (lambda log: {**log, "current_turn": 2.5}, "current_turn: expected a whole number, got 2.5"),
        (lambda log: {**log, "rolls": [7]}, "rolls[0]: expected an object"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "key": ""}]}, "rolls[0].key: expected the roll's key"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "dice": "4"}]}, "rolls[0].dice: expected a list of faces"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "dice": [True]}]}, "rolls[0].dice: expected a whole number, got true"),
        (lambda log: {**log, "rolls": [{"kind": "hidden", "prev": None}]}, "rolls[0].sha256: expected 64 hexadecimal digits"),
    ],
)
def test_a_malformed_log_is_refused_with_a_readable_message(log, mangle, message):
    with pytest.raises(VerificationError) as info:
        verify_log(mangle(log))
    assert str(info.value) == message


# --- the command line --------------------------------------------------------------------


def write(tmp_path: Path, data: object, name: str = "log.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_cli_verify_exits_0_when_every_roll_checks_out(tmp_path, log, capsys):
    assert main(["verify", str(write(tmp_path, log))]) == 0
    assert capsys.readouterr().out.splitlines() == verify_log(log).lines()


def test_cli_verify_exits_1_on_a_mismatch(tmp_path, log, capsys):
    log["rolls"][0]["dice"] = [log["rolls"][0]["dice"][0] % 6 + 1]
    assert main(["verify", str(write(tmp_path, log))]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH: turn 1 t1/p1/force:f1/force_test" in out
    assert out.rstrip().endswith("The log does NOT check out.")


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_cli_verify_exits_1_on_each_forgery(tmp_path, log, name):
    assert main(["verify", str(write(tmp_path, forged(log, name)))]) == 1


def test_cli_verify_exits_1_on_a_bad_seed(tmp_path, log):
    log["turns"][1]["seed"] = new_turn_seed().hex()
    assert main(["verify", str(write(tmp_path, log))]) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ('{"format": "something else"}', "Not a roll log"),
    ],
)
def test_cli_verify_exits_2_on_a_file_that_is_not_a_roll_log(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_cli_verify_exits_2_on_a_missing_file(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "Cannot read" in capsys.readouterr().err


def test_python_m_bot_verify_runs_as_a_command(tmp_path, log):
    good = write(tmp_path, log, "good.json")
    log["rolls"][1]["dice"] = [log["rolls"][1]["dice"][0] % 6 + 1]
    bad = write(tmp_path, log, "bad.json")
    codes = [
        subprocess.run([sys.executable, "-m", "bot", "verify", str(p)], cwd=ROOT, capture_output=True, text=True)
        for p in (good, bad, tmp_path / "none.json")
    ]
    assert [c.returncode for c in codes] == [0, 1, 2]
    assert CONSISTENT in codes[0].stdout
