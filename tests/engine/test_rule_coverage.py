"""Every rule ID of RULES.md sections MC and RU is cited by at least one engine test, by its
name (``test_mc_5_1_...``) or its docstring ("... (MC-5.1)").
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

MC_RU_IDS = (
    "MC-0", "MC-1", "MC-2", "MC-3", "MC-4", "MC-5", "MC-5.1", "MC-5.2", "MC-5.3", "MC-6", "MC-6.1", "MC-6.2",
    "MC-7", "MC-7.1", "MC-7.2", "MC-7.3", "MC-7.4", "MC-9", "MC-10",
    *(f"RU-{n}" for n in range(1, 14)),
)

NAME_ID = re.compile(r"(?:^|_)(mc|ru)_(\d+)(?:_(\d)(?=_|$))?")
TEXT_ID = re.compile(r"\b(MC|RU)-(\d+(?:\.\d+)?)\b")


def cited_ids() -> set[str]:
    found: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for kind, major, minor in NAME_ID.findall(node.name):
                    found.add(f"{kind.upper()}-{major}" + (f".{minor}" if minor else ""))
                for kind, number in TEXT_ID.findall(ast.get_docstring(node) or ""):
                    found.add(f"{kind}-{number}")
    return found


def test_every_mc_and_ru_rule_id_is_cited_by_a_test_name_or_docstring():
    cited = cited_ids()
    missing = [rule for rule in MC_RU_IDS if rule not in cited]
    assert missing == []


def test_test_names_are_read_as_rule_ids():
    assert NAME_ID.findall("test_mc_5_1_movement_totals_2_3") == [("mc", "5", "1")]
    assert NAME_ID.findall("test_mc_10_ru_10_one_turn") == [("mc", "10", ""), ("ru", "10", "")]
    assert NAME_ID.findall("test_mc_7_a_unit") == [("mc", "7", "")]
