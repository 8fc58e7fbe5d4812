"""Issue 24, item 2: a verifier that a rewritten file cannot fool. Three forgeries passed both verifiers
(CLI and browser) with "All rolls check out": an extra modifier, and a rewritten table, each with the
whole chain and its heads recomputed, and a flipped ``undone`` mark (outside the hashed record).

Now the verdict never says the rolls check out unless the log's chain heads match the ones announced in
the channel (the gazette's fingerprints); given them, every rewrite fails; and undo is a chained record,
so a roll's undone mark is checked against it. The page gives the same verdicts as Python."""

from __future__ import annotations

import copy
import json

import pytest

from bot.engine.errors import VerificationError
from bot.engine.verify import GENESIS, parse_announced, verify_log

from .forgeries import honest_log, rechain, record_sha

CONSISTENT = ("The log is consistent with itself, which a rewritten log can be too: it is the campaign's only if "
              "each chain head above is the one announced when its turn ended (the gazette's dice fingerprint).")
MATCHED = "All rolls check out and match the dice announced in the channel."


@pytest.fixture
def log(make_force) -> dict:
    return honest_log(make_force(cv=2))


def announced_of(log: dict) -> dict[int, str]:
    """What the channel was told: each ended turn's fingerprint (the first 16 hex digits of its head)."""
    return {t["turn"]: t["chain_head"][:16] for t in log["turns"] if t["chain_head"]}


def rewrite_heads(log: dict) -> dict:
    """What a forger who knows the whole format does last: every turn's chain head recomputed too."""
    by_turn: dict[int, str] = {}
    for r in log["rolls"]:
        by_turn[r["turn"]] = record_sha(r)
    for t in log["turns"]:
        if t["chain_head"]:
            t["chain_head"] = by_turn[t["turn"]]
    return log


def extra_modifier(log: dict) -> dict:
    """Movement (rolls[1]) with a +1 nobody earned, total and result made to fit, chain and heads rewritten."""
    forged = copy.deepcopy(log)
    roll = forged["rolls"][1]
    roll["modifiers"].append({"value": 1, "rule": "MC-5.1", "reason": "Forced March order"})
    roll["total"] += 1
    band = next(b for b in roll["table"]["bands"]
                if (b["min"] is None or b["min"] <= roll["total"]) and (b["max"] is None or roll["total"] <= b["max"]))
    roll["result"], roll["label"], roll["value"] = band["result"], band["label"], band["value"]
    return rewrite_heads(rechain(forged))


def rewritten_table(log: dict) -> dict:
    """The force test's table (rolls[0]) rewritten so that its total reads the best row, chain and heads
    rewritten."""
    forged = copy.deepcopy(log)
    roll = forged["rolls"][0]
    best = roll["table"]["bands"][-1]
    for b in roll["table"]["bands"]:
        b["min"], b["max"] = (None, None) if b is best else (10**6, 10**6)
    roll["result"], roll["label"], roll["value"] = best["result"], best["label"], best["value"]
    return rewrite_heads(rechain(forged))


def with_undo(log: dict) -> dict:
    """Turn 3's two rolls undone by the GM: a chained undo record after them (as the bot logs it)."""
    out = copy.deepcopy(log)
    out["version"] = 3
    first = out["rolls"][8]
    record = {"kind": "undo", "key": "t3/undo/v9", "after": first["prev"], "prev": record_sha(out["rolls"][-1])}
    for r in out["rolls"][8:]:
        r["undone"] = True
    out["rolls"].append({**record, "turn": 3, "undone": False})
    return out


def test_an_honest_log_is_only_consistent_until_compared_with_the_announced_heads(log):
    alone = verify_log(json.loads(json.dumps(log)))
    assert alone.ok and alone.lines()[-1] == CONSISTENT
    assert "All rolls check out" not in "\n".join(alone.lines())
    compared = verify_log(json.loads(json.dumps(log)), announced_of(log))
    assert compared.ok and compared.lines()[-1] == MATCHED
    for turn, fingerprint in announced_of(log).items():
        head = next(t["chain_head"] for t in log["turns"] if t["turn"] == turn)
        assert f"Turn {turn} chain head {head}: matches the dice announced in the channel ({fingerprint})." \
            in compared.lines()


@pytest.mark.parametrize("forge", [extra_modifier, rewritten_table])
def test_a_rewrite_with_its_whole_chain_recomputed_fails_against_the_announced_heads(log, forge):
    bad = forge(log)
    alone = verify_log(json.loads(json.dumps(bad)))
    # The table and the modifiers are held to the rulebook's for the roll's rule id: each shows on its own.
    if forge is rewritten_table:
        assert alone.problems == ["rolls[0] (t1/p1/force:f1/force_test): its table is not the rulebook's table for "
                                  "MC-4"]
    else:
        assert alone.problems == ['rolls[1] (t1/p2/force:f1/movement): its modifier "Forced March order" of 1 (rule '
                                  '"MC-5.1") is not one the rulebook gives this roll']
    compared = verify_log(json.loads(json.dumps(bad)), announced_of(log))
    assert not compared.ok and compared.lines()[-1] == "The log does NOT check out."
    assert any("is not the one announced in the channel" in p for p in compared.problems)


def test_an_announced_turn_the_log_has_no_head_for_is_a_problem(log):
    report = verify_log(json.loads(json.dumps(log)), {**announced_of(log), 3: "ab" * 8})
    assert report.problems == [f"turn 3's dice were announced ({'ab' * 8}), but the log has no chain head for it"]


def test_an_undo_is_chained_and_a_flipped_undone_mark_shows(log):
    undone = with_undo(log)
    report = verify_log(json.loads(json.dumps(undone)))
    assert report.ok and report.undone == 2
    assert "2 rolls undone by the GM, each by an undo recorded in the chain." in report.lines()
    shown = copy.deepcopy(undone)
    shown["rolls"][8]["undone"] = False  # an undone roll passed off as standing
    assert "rolls[8] (t3/p1/force:f1/force_test) was undone by rolls[10], but is not marked undone" \
        in verify_log(shown).problems
    hidden = copy.deepcopy(undone)
    hidden["rolls"][4]["undone"] = True  # a standing roll passed off as undone
    assert any(p.startswith("rolls[4] (") and p.endswith("is marked undone, but no undo in the chain undid it")
               for p in verify_log(hidden).problems)
    dropped = copy.deepcopy(undone)
    del dropped["rolls"][10]  # the undo record removed: its marks have nothing to stand on
    assert not verify_log(dropped).ok


def test_an_older_log_says_its_undone_marks_cannot_be_checked(log):
    old = copy.deepcopy(log)
    old["rolls"][9]["undone"] = True  # version 2: no undo was chained then
    report = verify_log(old)
    assert report.ok and report.undone_unchecked == 1
    assert "1 rolls marked undone in a log made before undo was chained: the mark cannot be checked." in report.lines()


def test_announced_heads_are_read_as_a_member_copies_them():
    assert parse_announced("1: 2315d3c9fcf5cf10, 2: 8D6AF4BEEA411629\n3=ffffffffffffffff") == {
        1: "2315d3c9fcf5cf10", 2: "8d6af4beea411629", 3: "ffffffffffffffff"}
    with pytest.raises(VerificationError, match="Not an announced chain head"):
        parse_announced("1: 2315d3c9")  # too short to mean anything
    assert parse_announced("  ") == {}
    assert GENESIS.startswith("0" * 16)


def test_the_cli_compares_with_the_announced_heads(tmp_path, log):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(log), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(extra_modifier(log)), encoding="utf-8")
    told = ", ".join(f"{t}: {f}" for t, f in announced_of(log).items())
    runs = [subprocess.run([sys.executable, "-m", "bot", "verify", str(p), *extra], cwd=root, capture_output=True,
                           text=True) for p, extra in ((good, []), (good, ["--announced", told]),
                                                       (bad, ["--announced", told]))]
    assert [r.returncode for r in runs] == [0, 0, 1]
    assert runs[0].stdout.rstrip().endswith(CONSISTENT) and runs[1].stdout.rstrip().endswith(MATCHED)
    assert "is not the one announced in the channel" in runs[2].stdout


def test_the_page_gives_the_same_verdicts(log, tmp_path):
    """The browser verifier over the same logs and announced heads (skipped without Chromium)."""
    import shutil

    from .test_verify_browser import BROWSERS, checked_in_browser

    browser = next((p for name in BROWSERS if (p := shutil.which(name))), None)
    if browser is None:
        pytest.skip("no Chromium binary installed")
    told = ", ".join(f"{t}: {f}" for t, f in announced_of(log).items())
    cases = [[log, ""], [log, told], [extra_modifier(log), ""], [extra_modifier(log), told],
             [rewritten_table(log), told], [with_undo(log), ""], [with_undo(log), told]]
    flipped = with_undo(log)
    flipped["rolls"][8]["undone"] = False
    cases.append([flipped, told])
    got = checked_in_browser(browser, tmp_path, cases, "check(c[0], c[1])")
    for (one, told_text), g in zip(cases, got, strict=True):
        report = verify_log(json.loads(json.dumps(one)), parse_announced(told_text) if told_text else None)
        assert g == {"ok": report.ok, "matched": report.ok and report.matches_announced, "lines": report.lines()}
    assert [g["lines"][-1] for g in got] == [CONSISTENT, MATCHED, "The log does NOT check out.",
                                            "The log does NOT check out.",
                                            "The log does NOT check out.", CONSISTENT, MATCHED,
                                            "The log does NOT check out."]
