"""Verify a roll log: every roll re-derived from its turn's seed, recomputed from its table, and
chained to the roll before it. The format is documented in ``docs/dice.md``; in short::

    {"format": "aide-de-camp/roll-log", "version": 2, "current_turn": 3,
     "turns": [{"turn": 1, "seed_sha256": "<hex>", "seed": "<hex or null until the turn ends>",
                "chain_head": "<hex or null>", "reseeded_after": "<hex, when an import drew it anew>"}],
     "rolls": [{<the roll record as logged, with its "table" and "prev">, "turn": 1, "undone": false},
               {"kind": "hidden", "prev": "<hex or null>", "sha256": "<hex>"}]}

A campaign export carries the same object under ``"roll_log"``. The verifier checks:

- each revealed seed against the SHA-256 published when its turn started, and that every turn
  that has ended (any turn before ``current_turn``, or before the last turn listed) has its seed;
- each roll's turn against the turn its key names (``t3/...``), then its faces against the ones
  the seed gives for its key (:mod:`.dice`);
- each roll's total and result against the ones its dice, modifiers and table give (a table of
  bands, or for a CC-3 trophy roll a table read by symbols: the combinations of battle-die symbols
  that take the trophy);
- each roll's table and modifiers against the bot's own rulebook's for its rule id (:mod:`.rollbook`;
  weather and events against the campaign's own tables the log carries under ``"tables"``);
- the chain: every record carries ``prev``, the SHA-256 of the canonical JSON of the record
  before it (:func:`record_hash`; the first carries :data:`GENESIS`), and each ended turn
  publishes its *chain head*, the hash of the last roll logged before it ended. A deleted,
  inserted or changed roll breaks a link or loses a head;
- a turn whose seed an import drew anew: its rolls up to ``reseeded_after`` were made with the seed
  it replaced, and are reported so (not verifiable with the new one), not as forged.

Logs made before the chain and the tables (version 1) still verify: their rolls are reported as
unchained and not recomputed, not as forged.

``bot/engine/verify.html`` is the same verifier in JavaScript, for a browser; the two must give
the same report, line for line (the tests hold them to it). Change both together.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from typing import Any

from .dice import derive_faces, seed_commitment
from .errors import VerificationError
from .text import Msg

FORMAT = "aide-de-camp/roll-log"
VERSION = 3
VERSIONS = (1, 2, 3)
"""Version 3 logs chain each undo (a record of kind ``undo``): a roll's ``undone`` mark must match them."""
GENESIS = "0" * 64
"""The ``prev`` of a campaign's first roll, and the chain head of a turn that ended before any roll."""
OUTSIDE_RECORD = ("turn", "undone")
"""Fields a roll log adds beside a record; they are not part of it (nor of its hash)."""
HIDDEN = "hidden"
UNDO = "undo"
"""A chained record of the GM's undo: every roll after ``after`` (a hash in the chain) up to it is undone."""
FINGERPRINT = re.compile(r"[0-9a-f]{16,64}")
"""A chain head as announced in the channel (the gazette's fingerprint: its first 16 hex digits, or more)."""
OWN_TABLES = ("weather", "events")
"""The scenario's own tables (RU-10) a roll log carries under ``"tables"``: those its rolls are read off."""
MAX_SAFE = 2**53 - 1
"""Numbers a log may hold: whole numbers a browser reads exactly (JavaScript's safe integers)."""
MAX_DICE = 1_000_000
MAX_SIDES = 1 << 16

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEY_TURN = re.compile(r"t([0-9]{1,15})/")
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate, which JavaScript's JSON.stringify escapes."""


# --- the canonical form of a record ---------------------------------------------------------


def _whole(value: Any) -> int | None:
    """``value`` as a whole number a browser reads exactly, or None (floats like 4.0 are whole)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) <= MAX_SAFE else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) <= MAX_SAFE:
        return int(value)
    return None


def _canonical_value(value: Any) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        whole = _whole(value)
        if whole is None:
            raise ValueError("not a whole number")
        return whole
    if isinstance(value, Mapping):
        return {str(k): _canonical_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical_value(v) for v in value]
    raise ValueError(f"not a JSON value: {type(value).__name__}")


def canonical_json(record: Mapping[str, Any]) -> str:
    """The text a record is hashed as: JSON with keys sorted, no spaces, non-ASCII escaped
    (``\\uXXXX``), and numbers whole (written as integers). Raises ValueError for a number that is
    not whole or is beyond 2**53 - 1."""
    return json.dumps(_canonical_value(record), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def record_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of a record's canonical JSON: what the next record carries as ``prev``."""
    return hashlib.sha256(canonical_json(record).encode("ascii")).hexdigest()


def key_turn(key: str) -> int | None:
    """The turn a roll key names (``t3/p2/...`` is turn 3), or None."""
    m = _KEY_TURN.match(key)
    return int(m.group(1)) if m else None


# --- the report -----------------------------------------------------------------------------


def _faces(d: Sequence[int]) -> str:
    return " ".join(map(str, d[:12])) + (" ..." if len(d) > 12 else "")


@dataclass(frozen=True)
class Mismatch:
    turn: int
    key: str
    recorded: tuple[int, ...]
    derived: tuple[int, ...]

    def __str__(self) -> str:
        return str(self.msg())

    def msg(self) -> Msg:
        return Msg("turn {turn} {key}: recorded [{recorded}], seed gives [{derived}]", turn=self.turn, key=self.key,
                   recorded=_faces(self.recorded), derived=_faces(self.derived))


@dataclass
class VerificationReport:
    verified: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    unrevealed_turns: list[int] = field(default_factory=list)
    unverifiable: int = 0
    """Rolls of turns whose seed is not revealed yet."""
    replaced: int = 0
    """Rolls made with a seed an import replaced (``reseeded_after``): not verifiable with the new one."""
    replaced_turns: list[int] = field(default_factory=list)
    bad_seeds: list[int] = field(default_factory=list)
    """Turns whose revealed seed does not match the published hash."""
    problems: list[Msg] = field(default_factory=list)
    """Each said in English (the CLI's) and in the reader's language through the catalogue (issue 23)."""
    hidden: int = 0
    """Stretches of rolls this view of the log hides (private to a side, or of a turn in play)."""
    recomputed: int = 0
    not_recomputed: int = 0
    """Records without a table to recompute them by (logged before tables were recorded)."""
    linked: int = 0
    unchained: int = 0
    """Rolls logged before the chain was kept."""
    heads: list[tuple[int, str]] = field(default_factory=list)
    announced: dict[int, str] = field(default_factory=dict)
    """The chain heads announced in the channel that the log was compared with (turn -> fingerprint)."""
    undone: int = 0
    """Rolls undone by a chained undo record, their marks checked against it."""
    undone_unchecked: int = 0
    """Rolls marked undone in a log made before undo was chained (version 2 or older): the mark is the file's."""
    rulebook: int = 0
    """Rolls whose table is the bot's own rulebook's for their rule id (compared, not only read), their
    modifiers held to the ones the rules give it."""
    tables: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """The rulebook the log is held to (:func:`rulebook_tables`)."""

    @property
    def ok(self) -> bool:
        return not (self.mismatches or self.bad_seeds or self.problems)

    @property
    def matches_announced(self) -> bool:
        """Every chain head of the log was compared with the one announced in the channel, and matched."""
        return bool(self.heads) and all(t in self.announced for t, _ in self.heads)

    def verdict(self) -> Msg:
        """Never an unqualified "check out": a rewritten log is consistent with itself too (issue 24, item
        2); only the heads announced in the channel tell it from the real one."""
        if not self.ok:
            return Msg("The log does NOT check out.")
        if self.matches_announced:
            return Msg("All rolls check out and match the dice announced in the channel.")
        return Msg("The log is consistent with itself, which a rewritten log can be too: it is the campaign's only if "
                   "each chain head above is the one announced when its turn ended (the gazette's dice fingerprint).")

    def lines(self) -> list[Msg]:
        out = [Msg("{verified} rolls verified against their turn seeds.", verified=self.verified)]
        if self.unverifiable:
            turns = ", ".join(map(str, self.unrevealed_turns))
            out.append(Msg("{unverifiable} rolls not verifiable yet: turn(s) {turns} still in play (seed not revealed).",
                           unverifiable=self.unverifiable, turns=turns))
        if self.replaced:
            turns = ", ".join(map(str, self.replaced_turns))
            out.append(Msg("{replaced} rolls of turn(s) {turns} were made before the turn's seed was drawn anew on "
                           "import: not verifiable with it.", replaced=self.replaced, turns=turns))
        if self.hidden:
            out.append(Msg("{hidden} stretches of the log hidden from this view (rolls private to a side, or of a turn "
                           "still in play): only their place in the chain is checked.", hidden=self.hidden))
        if self.recomputed:
            out.append(Msg("{recomputed} totals and results recomputed from the dice, modifiers and tables.",
                           recomputed=self.recomputed))
        if self.rulebook:
            out.append(Msg("{rulebook} tables are the bot's own rulebook's for their rule.", rulebook=self.rulebook))
        if self.not_recomputed:
            out.append(Msg("{not_recomputed} rolls not recomputed: their records carry no table (logged before tables "
                           "were recorded).", not_recomputed=self.not_recomputed))
        if self.linked:
            out.append(Msg('{linked} rolls linked in the chain.', linked=self.linked))
        if self.unchained:
            out.append(Msg("{unchained} rolls logged before the chain was kept: a roll deleted among them would not "
                           "show.", unchained=self.unchained))
        if self.undone:
            out.append(Msg("{undone} rolls undone by the GM, each by an undo recorded in the chain.",
                           undone=self.undone))
        if self.undone_unchecked:
            out.append(Msg("{undone_unchecked} rolls marked undone in a log made before undo was chained: the mark "
                           "cannot be checked.", undone_unchecked=self.undone_unchecked))
        for turn, head in self.heads:
            if turn in self.announced:
                out.append(Msg("Turn {turn} chain head {head}: matches the dice announced in the channel ({announced}).",
                               turn=turn, head=head, announced=self.announced[turn]))
            else:
                out.append(Msg("Turn {turn} chain head {head}: compare it with the one announced when turn {turn} "
                               "ended.", turn=turn, head=head))
        for t in self.bad_seeds:
            out.append(Msg("MISMATCH: the revealed seed of turn {turn} does not match the SHA-256 published at its "
                           "start.", turn=t))
        out += [Msg("MISMATCH: {mismatch}", mismatch=m.msg()) for m in self.mismatches]
        out += [Msg("PROBLEM: {problem}", problem=p) for p in self.problems]
        out.append(self.verdict())
        return out


# --- reading the log ------------------------------------------------------------------------


def show(value: Any) -> str:
    """A value from the file as the report quotes it (JSON, as the browser verifier writes it)."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    whole = _whole(value)
    if whole is not None:
        return str(whole)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _js_number(value)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def _js_number(value: float) -> str:
    """A number as JavaScript writes it (what a browser reads from the file): shortest digits, plain
    up to 21 digits, "null" for one too large to read."""
    try:
        number = float(value)
    except OverflowError:
        return "null"
    if not math.isfinite(number):
        return "null"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    shortest = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(map(str, shortest.digits))
    k = len(digits)
    n = k + int(shortest.exponent)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    rest = "." + digits[1:] if k > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


def _int(value: Any, where: str) -> int:
    whole = _whole(value)
    if whole is None:
        raise VerificationError(f"{where}: expected a whole number, got {show(value)}")
    return whole


def _hex64(value: Any, where: str, *, null: bool) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise VerificationError(f"{where}: expected 64 hexadecimal digits" + (" or null" if null else ""))
    return value


def _well_formed(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


_IN_PLAY, _MISSING, _BAD = "in play", "missing", "bad"


@dataclass
class _Turn:
    turn: int
    published: Any
    seed: bytes | None
    head: str | None
    reseeded: str | None


def parse_announced(text: str) -> dict[int, str]:
    """Announced chain heads as a member copies them from the channel: ``1: 2315d3c9fcf5cf10, 2: 8d6a...``
    (a turn, a colon, at least 16 hex digits; commas, spaces or new lines between)."""
    out: dict[int, str] = {}
    for part in re.split(r"[,;\s]+(?=\d+\s*[:=])", text.strip()):
        if not part.strip():
            continue
        m = re.fullmatch(r"\s*(\d{1,9})\s*[:=]\s*([0-9a-fA-F]+)\s*", part)
        if m is None or not FINGERPRINT.fullmatch(m[2].lower()):
            raise VerificationError(f"Not an announced chain head: \"{part.strip()[:40]}\" (write turn: fingerprint, "
                                    "like 1: 2315d3c9fcf5cf10)")
        out[int(m[1])] = m[2].lower()
    return out


def rulebook_tables() -> dict[str, Any]:
    """The bot's rulebook as the verifiers hold every roll to it, by rule id (:func:`.rollbook.rollbook`):
    each rule's tables with their modifiers, and the house rules' weather and events (issue 24, item 2: a
    table rewritten, or a modifier added, to fit a result shows even with the chain recomputed)."""
    from .rollbook import rollbook

    return rollbook()


def _table_key(table: Mapping[str, Any], sides: Any) -> str | None:
    """What of a roll the rulebook fixes (:func:`.rollbook.table_key`) as canonical JSON; None: unreadable."""
    from .rollbook import table_key

    try:
        return canonical_json(table_key(table, sides))
    except ValueError:
        return None


Spec = Mapping[str, Any]
_Book = dict[str, list[tuple[str, list[Spec]]]]


def _weather_book(data: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The table keys of a weather table (one per climate and season, read off the die as the bot reads it:
    :meth:`.rolls.BandTable.by_face`) and the movement modifier each kind of weather gives (MC-10)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("kinds"), Mapping) \
            or not isinstance(data.get("table"), Mapping):
        raise _Malformed("weather")
    labels: dict[str, str] = {}
    specs: list[dict[str, Any]] = []
    for name, kind in data["kinds"].items():
        movement = _whole(kind.get("movement")) if isinstance(kind, Mapping) else None
        if movement is None or not isinstance(kind.get("label"), str):
            raise _Malformed("weather")
        labels[name] = kind["label"]
        if movement:
            specs.append({"reason": f"weather: {kind['label']}", "values": [movement]})
    keys: list[str] = []
    for seasons in data["table"].values():
        if not isinstance(seasons, Mapping):
            raise _Malformed("weather")
        for row in seasons.values():
            if not isinstance(row, list) or not row or not all(isinstance(r, str) and r in labels for r in row):
                raise _Malformed("weather")
            bands = [{"min": None if i == 1 else i, "max": None if i == len(row) else i, "result": r,
                      "label": labels[r], "value": None} for i, r in enumerate(row, start=1)]
            keys.append(canonical_json({"dice": 1, "multiplier": 1, "floor": None, "naturals": [], "bands": bands,
                                        "sides": 6}))
    return keys, specs


def _events_book(data: Any) -> tuple[list[str], list[int]]:
    """The table key of a random-events table and the movement modifiers its events give (RU-10)."""
    if not isinstance(data, Mapping) or _whole(data.get("dice")) is None or (_whole(data.get("dice")) or 0) < 1 \
            or not isinstance(data.get("bands"), list) or not data["bands"]:
        raise _Malformed("events")
    bands, moves = [], []
    for row in data["bands"]:
        if not isinstance(row, Mapping) or not isinstance(row.get("result"), str) \
                or not isinstance(row.get("label"), str) or not isinstance(row.get("effect", {}), Mapping):
            raise _Malformed("events")
        bands.append({"min": _opt_whole(row.get("min"), "events"), "max": _opt_whole(row.get("max"), "events"),
                      "result": row["result"], "label": row["label"], "value": _opt_whole(row.get("value"), "events")})
        move = _opt_whole(row.get("effect", {}).get("movement"), "events")
        if move and move not in moves:
            moves.append(move)
    key = canonical_json({"dice": data["dice"], "multiplier": 1, "floor": None, "naturals": [], "bands": bands,
                          "sides": 6})
    return [key], sorted(moves)


def _book(report: VerificationReport, given: Any) -> _Book:
    """The rulebook's entries by rule id, with the campaign's own weather and events tables (RU-10) the log
    carries under ``"tables"`` (the house rules' for a table it does not carry) and the modifiers they give."""
    house = report.tables["house"]
    chosen = {"weather": house["weather"], "events": house["events"]}
    if given is not None:
        if not isinstance(given, Mapping):
            report.problems.append(Msg("the log's \"tables\" (the campaign's own weather and events) is not an object"))
        else:
            chosen |= {k: given[k] for k in ("weather", "events") if k in given}
    try:
        weather_keys, weather_specs = _weather_book(chosen["weather"])
    except _Malformed:
        report.problems.append(Msg("the campaign's own weather table that the log carries is malformed"))
        weather_keys, weather_specs = [], []
    try:
        event_keys, moves = _events_book(chosen["events"])
    except _Malformed:
        report.problems.append(Msg("the campaign's own random-events table that the log carries is malformed"))
        event_keys, moves = [], []

    def expand(specs: Sequence[Spec]) -> list[Spec]:
        out: list[Spec] = []
        for spec in specs:
            rest = {k: v for k, v in spec.items() if k != "from"}
            if spec.get("from") == "weather":
                out += [{**rest, **w} for w in weather_specs]
            elif spec.get("from") == "events":
                out += [{**rest, "values": moves}] if moves else []
            else:
                out.append(spec)
        return out

    book: _Book = {rule: [(e["table"], expand(e["modifiers"])) for e in entries]
                   for rule, entries in report.tables["rolls"].items()}
    book.setdefault(house["rule"], []).extend((k, []) for k in weather_keys + event_keys)
    return book


def _held(report: VerificationReport, book: _Book, label: str, r: Mapping[str, Any]) -> list[Spec] | None:
    """The roll's table against its rule's in the rulebook: the modifiers the rules give it, or None."""
    rule = r.get("rule")
    if not isinstance(rule, str) or rule not in book:
        report.problems.append(Msg("{label}: no rule of the bot's rulebook rolls it (rule {rule})",
                                   label=label, rule=show(rule)))
        return None
    key = _table_key(r["table"], r.get("sides", 6))
    entry = next((specs for table, specs in book[rule] if table == key), None)
    if entry is None:
        report.problems.append(Msg("{label}: its table is not the rulebook's table for {rule}", label=label, rule=rule))
        return None
    report.rulebook += 1
    return entry


_COUNT = re.compile(r"[1-9][0-9]{0,5}")


def _fits(spec: Spec, rule: Any, reason: Any, value: int) -> bool:
    """Whether a modifier is the one ``spec`` describes (the module doc of :mod:`.rollbook`)."""
    if spec["rule"] != rule or not isinstance(reason, str):
        return False
    if "suffix" in spec:
        named = len(reason) > len(spec["suffix"]) and reason.endswith(spec["suffix"])
        return named and spec["min"] <= value <= spec["max"]
    if reason == spec["reason"]:
        return value in spec["values"] if "values" in spec else spec["min"] <= value <= spec["max"]
    times = reason[len(spec["reason"]) + 2:]
    return bool(spec.get("count")) and reason.startswith(spec["reason"] + " x") and _COUNT.fullmatch(times) is not None \
        and int(times) >= 2 and value == spec["values"][0] * int(times)


def _modifiers_held(report: VerificationReport, label: str, mods: Sequence[Mapping[str, Any]],
                    values: Sequence[int], specs: Sequence[Spec]) -> None:
    """Each modifier is one the rules give this roll, at most one of a group, and none always given is missing."""
    used: dict[str, Any] = {}
    matched: set[int] = set()
    for m, value in zip(mods, values, strict=True):
        reason, rule = m.get("reason"), m.get("rule")
        k = next((k for k, spec in enumerate(specs) if _fits(spec, rule, reason, value)), None)
        if k is None:
            report.problems.append(Msg("{label}: its modifier {reason} of {value} (rule {rule}) is not one the rulebook"
                                       " gives this roll",
                                       label=label, reason=show(reason), value=value, rule=show(rule)))
            continue
        matched.add(k)
        group = specs[k]["group"]
        if group in used and not specs[k].get("repeat"):
            report.problems.append(Msg("{label}: its modifiers {used} and {reason} cannot both apply (the rulebook "
                                       "gives one of them at most)",
                                       label=label, used=show(used[group]), reason=show(reason)))
        used.setdefault(group, reason)
    for k, spec in enumerate(specs):
        if spec.get("required") and k not in matched:
            named = spec.get("reason", "..." + str(spec.get("suffix")))
            report.problems.append(Msg("{label}: it lacks the modifier the rulebook always gives it ({named})",
                                       label=label, named=show(named)))


def verify_log(data: Mapping[str, Any], announced: Mapping[int, str] | None = None,
               tables: Mapping[str, Any] | None = None) -> VerificationReport:
    """Check every roll of a roll log (or of a campaign export holding one); see the module doc.
    ``announced``: the chain heads announced in the channel (turn -> fingerprint, at least 16 hex digits),
    which the log's heads must match."""
    if not isinstance(data, Mapping):
        raise VerificationError("A roll log is a JSON object.")
    log = data.get("roll_log", data)
    if not isinstance(log, Mapping) or log.get("format") != FORMAT:
        raise VerificationError(f"Not a roll log: expected \"format\": \"{FORMAT}\".")
    version = log.get("version", 1)
    if _whole(version) not in VERSIONS:
        raise VerificationError(f"Unsupported roll log version {show(version)}: this verifier reads versions 1 to 3.")
    turns = log.get("turns")
    rolls = log.get("rolls")
    if not isinstance(turns, list) or not isinstance(rolls, list):
        raise VerificationError("A roll log needs a list of \"turns\" and a list of \"rolls\".")
    current = log.get("current_turn")
    current = None if current is None else _int(current, "current_turn")
    report = VerificationReport(tables=rulebook_tables() if tables is None else tables)
    book = _book(report, log.get("tables"))

    # Turns: each seed against its published hash; a turn that has ended must have its seed.
    listed: list[_Turn] = []
    for i, t in enumerate(turns):
        if not isinstance(t, Mapping):
            raise VerificationError(f"turns[{i}]: expected an object")
        turn = _int(t.get("turn"), f"turns[{i}].turn")
        revealed = t.get("seed")
        seed = None
        if revealed is not None:
            if not isinstance(revealed, str) or not _HEX.fullmatch(revealed):
                raise VerificationError(f"turns[{i}].seed: not hexadecimal")
            seed = bytes.fromhex(revealed)
        head = _hex64(t.get("chain_head"), f"turns[{i}].chain_head", null=True)
        reseeded = _hex64(t.get("reseeded_after"), f"turns[{i}].reseeded_after", null=True)
        listed.append(_Turn(turn, t.get("seed_sha256"), seed, head, reseeded))
    last = current if current is not None else max((t.turn for t in listed), default=0)
    seeds: dict[int, bytes | str] = {}
    heads: dict[int, str] = {}
    reseeds: dict[int, str] = {}
    for t in listed:
        if t.turn in seeds:
            report.problems.append(Msg('turn {turn} is listed twice', turn=t.turn))
            continue
        if current is not None and t.turn > current:
            report.problems.append(Msg("turn {turn} is listed, but the log was made during turn {current}",
                                       turn=t.turn, current=current))
        if t.seed is None:
            if t.turn < last:
                report.problems.append(Msg("turn {turn} has ended, but its seed is missing: a turn's seed is revealed "
                                           "when it ends", turn=t.turn))
                seeds[t.turn] = _MISSING
            else:
                seeds[t.turn] = _IN_PLAY
            if t.head is not None:
                report.problems.append(Msg("turn {turn} has a chain head but no seed: both are published when the turn "
                                           "ends", turn=t.turn))
        elif seed_commitment(t.seed) != t.published:
            report.bad_seeds.append(t.turn)
            seeds[t.turn] = _BAD
        else:
            seeds[t.turn] = t.seed
        if t.head is not None:
            heads[t.turn] = t.head
        if t.reseeded is not None:
            reseeds[t.turn] = t.reseeded

    # Rolls: the chain, the turn, the table, the dice. A reseed point is found first: the rolls of its
    # turn up to it were made with the seed an import replaced.
    hashes = [_entry_hash(r) for r in rolls]
    reseed_at = {t: -1 if h == GENESIS else hashes.index(h) for t, h in reseeds.items() if h == GENESIS or h in hashes}
    chain = _Chain(report)
    turn_at: list[tuple[int, int, str]] = []  # (index, turn, key) of every roll shown in full
    undone_by: dict[int, int] = {}  # roll index -> the undo record's index that undid it
    for i, r in enumerate(rolls):
        if not isinstance(r, Mapping):
            raise VerificationError(f"rolls[{i}]: expected an object")
        if r.get("kind") == HIDDEN:
            prev = _hex64(r.get("prev"), f"rolls[{i}].prev", null=True)
            sha = _hex64(r.get("sha256"), f"rolls[{i}].sha256", null=False)
            report.hidden += 1
            chain.link(i, f"rolls[{i}] (hidden)", prev, sha)
            continue
        if r.get("kind") == UNDO:
            _undo(report, chain, rolls, hashes, i, r, undone_by, turn_at)
            continue
        key = r.get("key")
        if not isinstance(key, str) or not key or not _well_formed(key):
            raise VerificationError(f"rolls[{i}].key: expected the roll's key")
        turn = _int(r.get("turn"), f"rolls[{i}].turn")
        dice = r.get("dice")
        if not isinstance(dice, list):
            raise VerificationError(f"rolls[{i}].dice: expected a list of faces")
        recorded = tuple(_int(d, f"rolls[{i}].dice") for d in dice)
        sides = _int(r.get("sides", 6), f"rolls[{i}].sides")
        label = f"rolls[{i}] ({key})"
        digest = hashes[i]
        if digest is None:
            report.problems.append(Msg("{label}: holds a number that is not a whole number (or is too large to check)",
                                       label=label))
        prev = r.get("prev")
        if prev is not None and not (isinstance(prev, str) and _HEX64.fullmatch(prev)):
            report.problems.append(Msg('{label}: its "prev" is not 64 hexadecimal digits', label=label))
            chain.broken(digest)
        else:
            chain.link(i, label, prev, digest)
        named = key_turn(key)
        if named is None:
            report.problems.append(Msg('{label}: its key does not start with its turn (t<turn>/)', label=label))
        elif named != turn:
            report.problems.append(Msg("{label} is labelled turn {turn}, but its key is of turn {named}",
                                       label=label, turn=turn, named=named))
            turn = named
        turn_at.append((i, turn, key))
        _recompute(report, book, label, r, recorded)
        if turn not in seeds:
            report.problems.append(Msg("{label} belongs to turn {turn}, which the log does not list",
                                       label=label, turn=turn))
            continue
        if i <= reseed_at.get(turn, -1):
            report.replaced += 1
            if turn not in report.replaced_turns:
                report.replaced_turns.append(turn)
            continue
        seed = seeds[turn]
        if seed in (_MISSING, _BAD):
            continue  # reported once for the turn; these rolls are not "still in play"
        if seed == _IN_PLAY:
            report.unverifiable += 1
            if turn not in report.unrevealed_turns:
                report.unrevealed_turns.append(turn)
            continue
        if not 2 <= sides <= MAX_SIDES:
            report.problems.append(Msg("{label}: A die with {sides} sides is not allowed: 2 to {max_sides}.",
                                       label=label, sides=sides, max_sides=MAX_SIDES))
            continue
        if len(recorded) > MAX_DICE:
            report.problems.append(Msg("{label}: Cannot roll {n_recorded} dice: between 0 and 1,000,000 per roll.",
                                       label=label, n_recorded=len(recorded)))
            continue
        assert isinstance(seed, bytes)
        derived = derive_faces(seed, key, len(recorded), sides)
        if derived != recorded:
            report.mismatches.append(Mismatch(turn, key, recorded, derived))
        else:
            report.verified += 1

    _undone_marks(report, rolls, undone_by, _whole(version) or 1)
    for turn in sorted(reseeds):
        if turn not in reseed_at:
            report.problems.append(Msg("the point where turn {turn}'s seed was drawn anew is not the hash of any roll "
                                       "in the log", turn=turn))
    # Heads: each is the hash of a roll in the chain, and no roll before it is of a later turn.
    for turn in sorted(heads):
        head = heads[turn]
        report.heads.append((turn, head))
        if head == GENESIS:
            pos = -1
        elif head in chain.positions:
            pos = chain.positions[head]
        else:
            report.problems.append(Msg("the chain head of turn {turn} is not the hash of any roll in the log: rolls "
                                       "were deleted or changed", turn=turn))
            continue
        late = next(((i, u, key) for i, u, key in turn_at if i <= pos and u > turn), None)
        if late is not None:
            i, u, key = late
            report.problems.append(Msg("rolls[{i}] ({key}) of turn {its_turn} comes before the chain head of turn "
                                       "{turn}, which was published when turn {turn} ended",
                                       i=i, key=key, its_turn=u, turn=turn))
    _compare_announced(report, dict(heads), announced or {})
    return report


def _compare_announced(report: VerificationReport, heads: Mapping[int, str], announced: Mapping[int, str]) -> None:
    """Each announced chain head against the log's head of its turn (issue 24, item 2): a log rewritten
    with its whole chain recomputed is consistent with itself, but not with what the channel was told."""
    for turn in sorted(announced):
        fingerprint = str(announced[turn]).lower()
        if not FINGERPRINT.fullmatch(fingerprint):
            raise VerificationError(f"The announced chain head of turn {turn} is not 16 to 64 hex digits.")
        head = heads.get(turn)
        if head is None:
            report.problems.append(Msg("turn {turn}'s dice were announced ({fingerprint}), but the log has no chain "
                                       "head for it", turn=turn, fingerprint=fingerprint))
        elif not head.startswith(fingerprint):
            report.problems.append(Msg("turn {turn}'s chain head {head} is not the one announced in the channel "
                                       "({fingerprint}): this log is not the campaign's",
                                       turn=turn, head=head, fingerprint=fingerprint))
        else:
            report.announced[turn] = fingerprint


def _undo(report: VerificationReport, chain: _Chain, rolls: Sequence[Any], hashes: Sequence[str | None], i: int,
          r: Mapping[str, Any], undone_by: dict[int, int], turn_at: list[tuple[int, int, str]]) -> None:
    """A chained undo: linked like a roll; every roll after its ``after`` (up to it) is undone."""
    key = r.get("key")
    if not isinstance(key, str) or not key or not _well_formed(key):
        raise VerificationError(f"rolls[{i}].key: expected the undo's key")
    label = f"rolls[{i}] ({key})"
    prev = r.get("prev")
    if not (isinstance(prev, str) and _HEX64.fullmatch(prev)):
        report.problems.append(Msg('{label}: its "prev" is not 64 hexadecimal digits', label=label))
        chain.broken(hashes[i])
    else:
        chain.link(i, label, prev, hashes[i])
    turn = key_turn(key)
    if turn is None:
        report.problems.append(Msg('{label}: its key does not start with its turn (t<turn>/)', label=label))
    else:
        turn_at.append((i, turn, key))
    after = r.get("after")
    if not (isinstance(after, str) and _HEX64.fullmatch(after)):
        report.problems.append(Msg('{label}: its "after" is not 64 hexadecimal digits', label=label))
        return
    start = 0 if after == GENESIS else next((j + 1 for j in range(i - 1, -1, -1) if hashes[j] == after), None)
    if start is None:
        report.problems.append(Msg("{label}: it undoes the rolls after {after}, which is no roll before it",
                                   label=label, after=after))
        return
    for j in range(start, i):
        if isinstance(rolls[j], Mapping) and rolls[j].get("kind") not in (HIDDEN, UNDO):
            undone_by.setdefault(j, i)


def _undone_marks(report: VerificationReport, rolls: Sequence[Any], undone_by: Mapping[int, int], version: int) -> None:
    """Each roll's ``undone`` mark (outside its hashed record) against the chained undo records."""
    for j, r in enumerate(rolls):
        if not isinstance(r, Mapping) or r.get("kind") in (HIDDEN, UNDO):
            continue
        marked = r.get("undone", False) is True
        label = f"rolls[{j}] ({r.get('key')})"
        if j in undone_by:
            if marked:
                report.undone += 1
            else:
                report.problems.append(Msg("{label} was undone by rolls[{undone_by}], but is not marked undone",
                                           label=label, undone_by=undone_by[j]))
        elif marked:
            if version >= 3 or undone_by:
                report.problems.append(Msg('{label} is marked undone, but no undo in the chain undid it', label=label))
            else:
                report.undone_unchecked += 1


def _entry_hash(r: Any) -> str | None:
    """The hash a roll log entry stands for (a hidden stretch's given one), or None."""
    if not isinstance(r, Mapping):
        return None
    if r.get("kind") == HIDDEN:
        sha = r.get("sha256")
        return sha if isinstance(sha, str) and _HEX64.fullmatch(sha) else None
    try:
        return record_hash({k: v for k, v in r.items() if k not in OUTSIDE_RECORD})
    except ValueError:
        return None


class _Chain:
    """Follows ``prev`` from roll to roll."""

    def __init__(self, report: VerificationReport) -> None:
        self.report = report
        self.last: str | None = None
        self.started = False
        self.chained = False
        self.positions: dict[str, int] = {}

    def link(self, i: int, label: str, prev: str | None, digest: str | None) -> None:
        if prev is None:
            if self.chained:
                self.report.problems.append(Msg('{label}: the chain is broken here: it carries no "prev", but rolls '
                                                "before it do", label=label))
            else:
                self.report.unchained += 1
        else:
            self.chained = True
            expected = self.last if self.started else GENESIS
            if prev != expected:
                self.report.problems.append(Msg('{label}: the chain is broken here: its "prev" is not the hash of the '
                                                "roll before it (a roll was deleted, inserted or changed)",
                                                label=label))
            else:
                self.report.linked += 1
        self.broken(digest)
        if digest is not None:
            self.positions.setdefault(digest, i)

    def broken(self, digest: str | None) -> None:
        """Move past a roll (its own link already judged)."""
        self.started = True
        self.last = digest


# --- totals and results ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Band:
    low: int | None
    high: int | None
    result: str
    label: str
    value: int | None


class _Malformed(Exception):
    pass


def _opt_whole(value: Any, part: str) -> int | None:
    if value is None:
        return None
    whole = _whole(value)
    if whole is None:
        raise _Malformed(part)
    return whole


def _read_table(table: Any) -> tuple[int, int, int | None, list[_Band], list[tuple[int, str]]]:
    if not isinstance(table, Mapping):
        raise _Malformed("table")
    dice = _whole(table.get("dice"))
    if dice is None or dice < 1:
        raise _Malformed("dice")
    multiplier = _whole(table.get("multiplier", 1))
    if multiplier is None:
        raise _Malformed("multiplier")
    floor = _opt_whole(table.get("floor"), "floor")
    rows = table.get("bands")
    if not isinstance(rows, list) or not rows:
        raise _Malformed("bands")
    bands = []
    for row in rows:
        if not isinstance(row, Mapping) or not isinstance(row.get("result"), str) or not isinstance(row.get("label"), str):
            raise _Malformed("bands")
        bands.append(_Band(_opt_whole(row.get("min"), "bands"), _opt_whole(row.get("max"), "bands"), row["result"],
                           row["label"], _opt_whole(row.get("value"), "bands")))
    naturals = []
    nat_rows = table.get("naturals", [])
    if not isinstance(nat_rows, list):
        raise _Malformed("naturals")
    for row in nat_rows:
        if not isinstance(row, Mapping) or _whole(row.get("face")) is None or not isinstance(row.get("result"), str) \
                or not any(b.result == row["result"] for b in bands):
            raise _Malformed("naturals")
        naturals.append((_whole(row["face"]) or 0, row["result"]))
    return dice, multiplier, floor, bands, naturals


def _band(bands: list[_Band], naturals: list[tuple[int, str]], faces: Sequence[int], modifier: int, multiplier: int,
          floor: int | None) -> tuple[int, _Band | None, bool]:
    """Total, table row and whether a natural face decided it: as :meth:`.rolls.Check.band_for`."""
    total = (sum(faces) + modifier) * multiplier
    if floor is not None and total < floor:
        total = floor
    if len(faces) == 1:
        for face, result in naturals:
            if faces[0] == face:
                return total, next(b for b in bands if b.result == result), True
    row = next((b for b in bands if (b.low is None or total >= b.low) and (b.high is None or total <= b.high)), None)
    return total, row, False


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _outcome(pairs: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{name} {show(value)}" for name, value in pairs)


def _tally(counts: Mapping[str, Any], order: Sequence[str]) -> str:
    keys = [k for k in order if k in counts] + sorted((k for k in counts if k not in order), key=_code_points)
    return ", ".join(f"{show(k)} {show(counts[k])}" for k in keys) or "nothing"


def _code_points(text: str) -> list[int]:
    return [ord(c) for c in text]


def _recompute(report: VerificationReport, book: _Book, label: str, r: Mapping[str, Any],
               faces: tuple[int, ...]) -> None:
    """The record's table and modifiers against the rulebook's for its rule, and its total and result (or
    tally) against those its dice, modifiers and table give."""
    if r.get("table") is None:
        report.not_recomputed += 1
        return
    if isinstance(r["table"], Mapping) and "faces" in r["table"]:
        _recompute_symbols(report, book, label, r, faces)
        return
    try:
        dice, multiplier, floor, bands, naturals = _read_table(r["table"])
    except _Malformed as exc:
        report.problems.append(Msg('{label}: its table is malformed ({exc})', label=label, exc=str(exc)))
        return
    specs = _held(report, book, label, r)
    mods = r.get("modifiers", [])
    values = [_whole(m.get("value")) if isinstance(m, Mapping) else None for m in mods] if isinstance(mods, list) else [None]
    if any(v is None for v in values):
        report.problems.append(Msg('{label}: its modifiers are malformed', label=label))
        return
    if specs is not None:
        _modifiers_held(report, label, mods, [v or 0 for v in values], specs)
    modifier = sum(v or 0 for v in values)
    order = list(dict.fromkeys(b.result for b in bands))
    if r.get("kind") == "batch":
        if dice != 1:
            report.problems.append(Msg('{label}: its table is malformed (dice)', label=label))
            return
        computed = dict.fromkeys(order, 0)
        for face in faces:
            _total, row, _nat = _band(bands, naturals, (face,), modifier, multiplier, floor)
            if row is None:
                report.problems.append(Msg("{label}: no row of its table holds the total of a {face}",
                                           label=label, face=face))
                return
            computed[row.result] += 1
        counts = r.get("counts")
        if not isinstance(counts, Mapping) or set(counts) != set(computed) \
                or not all(_same(counts[k], computed[k]) for k in computed):
            shown = counts if isinstance(counts, Mapping) else {}
            report.problems.append(Msg("{label}: recorded tally {tally}, but its dice, modifiers and table give "
                                       "{tally2}",
                                       label=label, tally=_tally(shown, order), tally2=_tally(computed, order)))
        labels = r.get("labels")
        wanted = {b.result: b.label for b in bands}
        if not isinstance(labels, Mapping) or set(labels) != set(wanted) \
                or not all(_same(labels[k], wanted[k]) for k in wanted):
            report.problems.append(Msg('{label}: its labels do not match its table', label=label))
        report.recomputed += 1
        return
    if len(faces) != dice:
        report.problems.append(Msg("{label}: {n_faces} dice recorded, but its table rolls {dice}",
                                   label=label, n_faces=len(faces), dice=dice))
    if not _same(r.get("multiplier", 1), multiplier):
        report.problems.append(Msg("{label}: recorded multiplier {value}, but its table's is {multiplier}",
                                   label=label, value=show(r.get('multiplier', 1)), multiplier=multiplier))
    total, row, natural = _band(bands, naturals, faces, modifier, multiplier, floor)
    if row is None:
        report.problems.append(Msg('{label}: no row of its table holds a total of {total}', label=label, total=total))
        return
    names = ("total", "result", "label", "value", "natural")
    recorded = [r.get("total"), r.get("result"), r.get("label"), r.get("value"), r.get("natural", False)]
    expected = [total, row.result, row.label, row.value, natural]
    if not all(_same(a, b) for a, b in zip(recorded, expected, strict=True)):
        report.problems.append(Msg("{label}: recorded {outcome}, but its dice, modifiers and table give {outcome2}",
                                   label=label, outcome=_outcome(list(zip(names, recorded, strict=True))),
                                   outcome2=_outcome(list(zip(names, expected, strict=True)))))
    report.recomputed += 1


# --- rolls read by symbols (CC-3 trophies) --------------------------------------------------


SHOWN = "{shown}"
"""In the ``otherwise`` label of a table read by symbols: the labels of the symbols rolled, joined by " + "."""


@dataclass(frozen=True)
class _Combination:
    symbols: tuple[str, ...]
    result: str
    label: str


@dataclass(frozen=True)
class _Symbols:
    """A table that reads each die as a symbol (``faces``) rather than summing them (docs/dice.md)."""

    dice: int
    faces: tuple[str, ...]
    labels: Mapping[str, str]
    count: str
    combinations: tuple[_Combination, ...]
    otherwise: _Combination


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _outcome_row(value: Any, part: str) -> tuple[str, str]:
    if not isinstance(value, Mapping) or not isinstance(value.get("result"), str) \
            or not isinstance(value.get("label"), str):
        raise _Malformed(part)
    return value["result"], value["label"]


def _read_symbols(table: Mapping[str, Any]) -> _Symbols:
    """The table as its parts, each checked in this order (the page checks them in the same)."""
    dice = _whole(table.get("dice"))
    if dice is None or dice < 1:
        raise _Malformed("dice")
    faces = table.get("faces")
    if not _strings(faces) or not faces:
        raise _Malformed("faces")
    labels = table.get("labels")
    if not isinstance(labels, Mapping) or not all(isinstance(labels.get(f), str) for f in faces):
        raise _Malformed("labels")
    count = table.get("count")
    if not isinstance(count, str):
        raise _Malformed("count")
    rows = table.get("combinations")
    if not isinstance(rows, list):
        raise _Malformed("combinations")
    combinations = []
    for row in rows:
        if not isinstance(row, Mapping) or not _strings(row.get("symbols")):
            raise _Malformed("combinations")
        combinations.append(_Combination(tuple(row["symbols"]), *_outcome_row(row, "combinations")))
    otherwise = _Combination((), *_outcome_row(table.get("otherwise"), "otherwise"))
    return _Symbols(dice, tuple(faces), dict(labels), count, tuple(combinations), otherwise)


def _recompute_symbols(report: VerificationReport, book: _Book, label: str, r: Mapping[str, Any],
                       faces: tuple[int, ...]) -> None:
    """A roll read by symbols (CC-3): the total counts the dice showing ``count``; the result is the first
    combination holding exactly the symbols rolled (in any order), else ``otherwise``. A forged "trophy
    taken" over dice that take nothing shows here."""
    try:
        if r.get("kind") == "batch":
            raise _Malformed("faces")  # a per-SP roll is tallied by bands, one die at a time
        t = _read_symbols(r["table"])
    except _Malformed as exc:
        report.problems.append(Msg('{label}: its table is malformed ({exc})', label=label, exc=str(exc)))
        return
    _held(report, book, label, r)
    mods = r.get("modifiers", [])
    if not isinstance(mods, list) or mods:
        report.problems.append(Msg("{label}: it carries modifiers, but its table reads symbols and takes none",
                                   label=label))
    if len(faces) != t.dice:
        report.problems.append(Msg("{label}: {n_faces} dice recorded, but its table rolls {dice}",
                                   label=label, n_faces=len(faces), dice=t.dice))
    if not _same(r.get("multiplier", 1), 1):
        report.problems.append(Msg("{label}: recorded multiplier {value}, but its table's is 1",
                                   label=label, value=show(r.get('multiplier', 1))))
    missing = next((f for f in faces if not 1 <= f <= len(t.faces)), None)
    if missing is not None:
        report.problems.append(Msg("{label}: its table's die has no face {missing}", label=label, missing=missing))
        return
    rolled = [t.faces[f - 1] for f in faces]
    # Sorted by code point, as the page sorts: any one order tells whether the symbols are the same.
    wanted = sorted(rolled, key=_code_points)
    row = next((c for c in t.combinations if sorted(c.symbols, key=_code_points) == wanted), t.otherwise)
    shown = " + ".join(t.labels[s] for s in rolled)
    names = ("total", "result", "label", "value", "natural")
    recorded = [r.get("total"), r.get("result"), r.get("label"), r.get("value"), r.get("natural", False)]
    expected = [rolled.count(t.count), row.result, row.label.replace(SHOWN, shown), None, False]
    if not all(_same(a, b) for a, b in zip(recorded, expected, strict=True)):
        report.problems.append(Msg("{label}: recorded {outcome}, but its dice and table give {outcome2}",
                                   label=label, outcome=_outcome(list(zip(names, recorded, strict=True))),
                                   outcome2=_outcome(list(zip(names, expected, strict=True)))))
    report.recomputed += 1


# --- the page for browsers ------------------------------------------------------------------

PAGE = "verify.html"
PAGE_SLOT = "/*ROLL-LOG*/null"
RULEBOOK_SLOT = "/*RULEBOOK*/{}"


def verifier_template() -> str:
    """The page with the bot's rulebook tables filled in (no log yet)."""
    template = resources.files(__package__).joinpath(PAGE).read_text(encoding="utf-8")
    book = json.dumps(rulebook_tables(), ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
    return template.replace(RULEBOOK_SLOT, book, 1)


WORDS_SLOT = "/*WORDS*/null"
SHOWN_SLOT = "/*SHOWN*/null"


def verifier_html(log: Mapping[str, Any], *, title: str = "Roll log", words: Mapping[str, str] | None = None,
                  shown: Mapping[str, Any] | None = None) -> str:
    """A self-contained HTML page that checks ``log`` offline in a browser (``verify.html``). ``words``: the
    page's texts in the reader's language, by the ``data-t`` of their element (and ``lang``; English
    otherwise); ``shown``: ``rolls``, the public rolls as the channel showed them (``key``, ``line``), each
    marked by the page against its turn's seed, and ``fingerprints`` (``line``, ``fingerprint``), each
    turn's, highlighted (issue 23, item 6)."""
    template = verifier_template()
    name = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    before, after = template.split(PAGE_SLOT, 1)
    after = after.replace(WORDS_SLOT, _script_json(words), 1).replace(SHOWN_SLOT, _script_json(shown), 1)
    return before.replace("<!--TITLE-->", name) + _script_json(log) + after


def _script_json(value: Any) -> str:
    """JSON inside <script>: "<" escaped so no "</script>" or "<!--" can end or bend the element."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
