"""Fixtures for the scenario tests (bot/scenario.py): a small valid scenario as plain data, to break
one field at a time, and helpers to turn loaded YAML into JSON-like data for the JSON Schema."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.engine.errors import InvalidInput
from bot.scenario import parse_scenario, parse_scenario_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "docs" / "scenario.schema.json"
DOC_PATH = ROOT / "docs" / "scenario-format.md"


def force(key: str, side: str, square: str, *units: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"key": key, "name": key.title(), "side": side, "square": square, "leader": {"name": key.title(), "cv": 1},
            "units": list(units) or [{"key": f"{key}-1", "name": "Line", "sp": 6}], **fields}


def minimal() -> dict[str, Any]:
    """A 4x3 map: open and cultivated squares, a hill row, the sea down column D; France and Austria."""
    return {
        "name": "Test",
        "start_date": "1805-10-07",
        "map": {
            "width": 4,
            "height": 3,
            "rows": ["..cS", "..cS", "hh~S"],
            "strongholds": {"fr": ["A1"], "au": ["C2"]},
            "capitals": {"fr": "A1", "au": "C2"},
        },
        "sides": [{"key": "fr", "name": "France", "colour": "#1f4e9c"}, {"key": "au", "name": "Austria"}],
        "forces": [force("soult", "fr", "A2"), force("mack", "au", "C1")],
    }


def doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


def worked_examples() -> list[str]:
    """The complete scenarios among the doc's YAML blocks (those with a name and a start date)."""
    blocks = re.findall(r"```yaml\n(.*?)```", doc(), flags=re.S)
    return [b for b in blocks if re.search(r"^name:", b, re.M) and re.search(r"^start_date:", b, re.M)]


def plain(value: Any) -> Any:
    """Loaded YAML as JSON would hold it: dates as ISO text, mapping keys as text."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


@pytest.fixture(scope="session")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def refused(data: Any) -> str:
    """The message of the refusal ``parse_scenario`` gives ``data``."""
    with pytest.raises(InvalidInput) as exc:
        parse_scenario(data)
    return str(exc.value)


def refused_text(text: str | bytes) -> str:
    """The message of the refusal ``parse_scenario_text`` gives ``text``."""
    with pytest.raises(InvalidInput) as exc:
        parse_scenario_text(text)
    return str(exc.value)
