"""Roll-log verification (bot/engine/verify.py and ``python -m bot verify FILE``): every roll
of a turn whose seed is revealed is re-derived from the seed and the roll's key.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.engine.aftermath import wounded_check
from bot.engine.dice import SeededDice, new_turn_seed, roll_key, seed_commitment
from bot.engine.errors import VerificationError
from bot.engine.force_test import force_test_check
from bot.engine.model import Cell, Territory
from bot.engine.movement import movement_check
from bot.engine.rolls import record_from_dict
from bot.engine.verify import FORMAT, verify_log

ROOT = Path(__file__).resolve().parents[2]


def play_turn(turn: int, seed: bytes, force) -> list[dict]:
    """Roll a few real checks of one turn with seeded dice and return their log entries."""
    dice = SeededDice(seed)
    records = [
        force_test_check(force, Cell(territory="france")).roll(dice, roll_key(turn, 1, "force:f1", "force_test")),
        movement_check(force, Cell()).roll(dice, roll_key(turn, 2, "force:f1", "movement")),
        wounded_check(Territory.ENEMY).roll_many(dice, roll_key(turn, 4, "unit:u1", "wounded"), 25),
    ]
    return [{"turn": turn, **r.to_dict()} for r in records]


def roll_log(seeds: dict[int, bytes], force) -> dict:
    return {
        "format": FORMAT,
        "version": 1,
        "turns": [{"turn": t, "seed_sha256": seed_commitment(s), "seed": s.hex()} for t, s in seeds.items()],
        "rolls": [entry for t, s in seeds.items() for entry in play_turn(t, s, force)],
    }


@pytest.fixture
def log(make_force) -> dict:
    """Two turns rolled with fixed seeds, so that every tampering test is deterministic."""
    seeds = {t: hashlib.sha256(f"test turn {t}".encode()).digest() for t in (1, 2)}
    return roll_log(seeds, make_force(cv=2))


def test_a_log_rolled_with_fresh_secret_turn_seeds_verifies_once_they_are_revealed(make_force):
    log = roll_log({1: new_turn_seed(), 2: new_turn_seed(), 3: new_turn_seed()}, make_force(cv=2))
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok
    assert report.verified == 9


def test_a_log_of_seeded_rolls_with_revealed_seeds_verifies(log):
    report = verify_log(json.loads(json.dumps(log)))
    assert report.ok
    assert report.verified == 6
    assert report.lines() == ["6 rolls verified against their turn seeds.", "All rolls check out."]


def test_log_entries_are_the_roll_records_themselves(log):
    assert str(record_from_dict(log["rolls"][0])).startswith("Force test (MC-4)")
    assert record_from_dict(log["rolls"][2]).rule == "MC-7.1"


def test_a_campaign_export_holding_the_log_verifies(log):
    assert verify_log({"campaign": {"name": "Ulm"}, "roll_log": log}).ok


def test_a_tampered_face_is_reported_as_a_mismatch(log):
    entry = log["rolls"][2]
    original = list(entry["dice"])
    entry["dice"][0] = original[0] % 6 + 1
    report = verify_log(log)
    assert not report.ok
    assert report.verified == 5
    (mismatch,) = report.mismatches
    assert (mismatch.turn, mismatch.key) == (1, "t1/p4/unit:u1/wounded")
    assert mismatch.derived == tuple(original)
    line = str(mismatch)
    assert line.startswith("turn 1 t1/p4/unit:u1/wounded: recorded [")
    assert line.endswith(" ...]")  # 25 dice, shown 12 at a time
    assert f"MISMATCH: {line}" in report.lines()
    assert report.lines()[-1] == "The log does NOT check out."


def test_a_tampered_key_is_reported_as_a_mismatch(log):
    log["rolls"][2]["key"] = "t1/p4/unit:u2/wounded"
    report = verify_log(log)
    assert [m.key for m in report.mismatches] == ["t1/p4/unit:u2/wounded"]


def test_a_revealed_seed_that_does_not_match_its_published_hash_is_a_bad_seed(log):
    log["turns"][0]["seed"] = new_turn_seed().hex()
    report = verify_log(log)
    assert not report.ok
    assert report.bad_seeds == [1]
    assert report.verified == 3  # turn 2 still checks out
    assert "MISMATCH: the revealed seed of turn 1 does not match the SHA-256 published at its start." in report.lines()
    assert report.unrevealed_turns == []
    assert not any("still in play" in line for line in report.lines())


def test_rolls_of_a_turn_still_in_play_are_not_verifiable_yet(log):
    log["turns"][1]["seed"] = None
    report = verify_log(log)
    assert report.ok
    assert (report.verified, report.unverifiable, report.unrevealed_turns) == (3, 3, [2])
    assert "3 rolls not verifiable yet: turn(s) 2 still in play (seed not revealed)." in report.lines()


def test_a_roll_of_a_turn_the_log_does_not_list_is_a_problem(log):
    log["rolls"][0]["turn"] = 9
    report = verify_log(log)
    assert not report.ok
    assert report.problems == ["rolls[0] (t1/p1/force:f1/force_test) belongs to turn 9, which the log does not list"]


def test_a_roll_the_dice_rules_refuse_is_a_problem(log):
    log["rolls"][0]["sides"] = 1
    report = verify_log(log)
    assert report.problems == ["rolls[0] (t1/p1/force:f1/force_test): A die with 1 sides is not allowed: 2 to 65536."]


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda log: [], "A roll log is a JSON object."),
        (lambda log: {**log, "format": "other"}, 'Not a roll log: expected "format": "aide-de-camp/roll-log".'),
        (lambda log: {**log, "rolls": None}, 'A roll log needs a list of "turns" and a list of "rolls".'),
        (lambda log: {**log, "turns": ["x"]}, "turns[0]: expected an object"),
        (lambda log: {**log, "turns": [{**log["turns"][0], "turn": "1"}]}, "turns[0].turn: expected a whole number, got '1'"),
        (lambda log: {**log, "turns": [{**log["turns"][0], "seed": "zz"}]}, "turns[0].seed: not hexadecimal"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "key": ""}]}, "rolls[0].key: expected the roll's key"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "dice": "4"}]}, "rolls[0].dice: expected a list of faces"),
        (lambda log: {**log, "rolls": [{**log["rolls"][0], "dice": [True]}]}, "rolls[0].dice: expected a whole number, got True"),
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
    assert capsys.readouterr().out.splitlines() == ["6 rolls verified against their turn seeds.", "All rolls check out."]


def test_cli_verify_exits_1_on_a_mismatch(tmp_path, log, capsys):
    log["rolls"][0]["dice"] = [log["rolls"][0]["dice"][0] % 6 + 1]
    assert main(["verify", str(write(tmp_path, log))]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH: turn 1 t1/p1/force:f1/force_test" in out
    assert out.rstrip().endswith("The log does NOT check out.")


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
    assert "All rolls check out." in codes[0].stdout
