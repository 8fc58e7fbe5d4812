"""Issue 24, item 4: the largest legal campaign's export always comes back under the default import
limit. Its plain JSON at turn 120 was 3.9 MB against a 2 MiB limit; the bot now hands over an export
over the limit gzip-compressed, which the import unpacks (bounded) and reads through the same codec.

The campaign is built at the scenario limits (a 100x100 map, 500 Forces of 10 units: 5,000 units),
and 6,000 log entries of the bot's own messages, each with 48 random hex digits (a roll's
record carries hashes that compress no better), more than a turn-120 export holds."""

from __future__ import annotations

import random

import yaml

from bot.campaign import codec, exports, new
from bot.engine.text import Msg
from bot.limits import Limits
from bot.scenario import LIMITS, parse_scenario_text


def largest_scenario() -> bytes:
    side = LIMITS.map_side
    forces = [{"key": f"f{i}", "name": f"Force {i}", "side": "a" if i % 2 else "b", "leader": {"name": f"L{i}", "cv": 2},
               "square": f"{chr(65 + i % 26)}{1 + i // 26 * 2 + (i % 2)}",
               "units": [{"key": f"f{i}u{j}", "name": f"U{j}", "sp": 4, "type": "infantry", "quality": "average"} for j in range(LIMITS.units // LIMITS.forces)]}
              for i in range(LIMITS.forces)]
    doc = {"name": "Largest", "climate": "temperate", "start_date": "1805-10-07",
           "map": {"width": side, "height": side, "rows": ["." * side] * side},
           "sides": [{"key": "a", "name": "Alpha", "colour": "#224488"}, {"key": "b", "name": "Beta", "colour": "#884422"}],
           "forces": forces}
    return yaml.safe_dump(doc, sort_keys=False).encode()


def test_the_largest_legal_campaign_exports_under_the_default_limit_and_reads_back() -> None:
    raw = largest_scenario()
    assert len(raw) <= LIMITS.file_bytes
    spec = parse_scenario_text(raw, key="largest")
    assert len(spec.forces) == LIMITS.forces and sum(len(f.units) for f in spec.forces) == LIMITS.units
    state = new.from_scenario(spec, campaign_id=1, name="Largest", gm_id=7)
    rnd = random.Random(24)
    log = [{"turn": 1, "phase": 0, "kind": "event", "visibility": "public",
            "text": "", "data": {"msg": Msg("Campaign {name!r} created from scenario {scenario!r} by the GM.",
                                            name=rnd.randbytes(12).hex(), scenario=rnd.randbytes(12).hex()).to_json()},
            "roll_key": None, "undone": False, "created_at": "2026-11-22T22:41:38+00:00"} for _ in range(6_000)]
    for e in log:
        e["text"] = str(Msg.from_json(e["data"]["msg"], known={e["data"]["msg"]["t"]}))
    data = {"format": exports.FORMAT, "version": exports.VERSION,
            "campaign": {"name": "Largest", "scenario": "largest", "language": "en", "deadline": None},
            "state": codec.encode(state), "log": log}
    plain = exports.export_bytes(data)
    limit = Limits().max_import_bytes
    assert len(plain) > 4_000_000 > limit  # what the issue measured (3.9 MB), over the 2 MiB default
    packed = exports.packed(data)
    assert len(packed) <= limit, len(packed)
    back = exports.read(exports.parse_export(packed))
    assert codec.encode(back.state) == codec.encode(state) and len(back.log) == len(log)


def test_a_packed_file_is_unpacked_no_further_than_the_import_limit() -> None:
    import gzip

    import pytest

    from bot.campaign.errors import ImportRejected

    bomb = gzip.compress(b" " * (exports.MAX_IMPORT_BYTES + 10))
    assert len(bomb) < 100_000
    with pytest.raises(ImportRejected, match="unpacks to more than"):
        exports.parse_export(bomb)
    with pytest.raises(ImportRejected, match="a damaged gzip file"):
        exports.parse_export(exports.GZIP_MAGIC + b"\x08\x00 not really")
