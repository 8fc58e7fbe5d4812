"""Alliances in the scenario format (RU-19, docs/scenario-format.md "alliances"): the optional
top-level ``alliances`` list, its checks (each naming the field), the side -> camp mapping the parsed
Scenario exposes, and the bundled Italy 1796 with Austria and Piedmont-Sardinia allied."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from bot.engine.camps import Camps
from bot.scenario import load_bundled, parse_scenario

from .conftest import doc, force, minimal, plain, refused


def three_sides(alliances: Any = None) -> dict[str, Any]:
    """The minimal scenario with a third side, Prussia, and a Force of it."""
    data = minimal()
    data["sides"].append({"key": "pr", "name": "Prussia"})
    data["forces"].append(force("blucher", "pr", "B1"))
    if alliances is not None:
        data["alliances"] = alliances
    return data


def test_ru_19_without_alliances_every_side_is_its_own_camp() -> None:
    s = parse_scenario(minimal())
    assert s.alliances == ()
    assert dict(s.camps) == {"fr": "fr", "au": "au"}
    assert s.camps == Camps.none(["fr", "au"])
    assert s.camp_of("fr") == "fr" and s.camp_of("au") == "au"
    assert s.camps.hostile("fr", "au") and not s.camps.has_alliances
    assert parse_scenario({**three_sides(), "alliances": []}).camps.camps_of(["fr", "au", "pr"]) == ("au", "fr", "pr")


def test_ru_19_an_alliance_is_one_camp_keyed_by_its_sorted_side_keys() -> None:
    s = parse_scenario(three_sides([["pr", "au"]]))
    assert s.alliances == (("pr", "au"),)  # as the file gives it
    assert dict(s.camps) == {"fr": "fr", "au": "au+pr", "pr": "au+pr"}
    assert s.camp_of("pr") == s.camp_of("au") == "au+pr"
    assert s.camp_of("fr") == "fr"
    assert s.camps.allied("au", "pr") and s.camps.hostile("fr", "pr") and s.camps.hostile("au", "fr")
    assert s.camps.allies_of("au") == {"pr"} and s.camps.allies_of("fr") == frozenset()
    with pytest.raises(KeyError):
        s.camp_of("ru")


def test_ru_19_italy1796_makes_austria_and_piedmont_sardinia_allies() -> None:
    s = load_bundled("italy1796")
    names = {side.key: side.name for side in s.sides}
    assert names == {"fr": "France", "au": "Austria", "pi": "Piedmont-Sardinia"}
    assert s.alliances == (("au", "pi"),)
    assert s.camp_of("au") == s.camp_of("pi") == "au+pi"
    assert s.camp_of("fr") == "fr"
    assert s.camps.allied("au", "pi")
    assert s.camps.hostile("fr", "au") and s.camps.hostile("fr", "pi")
    assert s.camps.camps_of(side.key for side in s.sides) == ("au+pi", "fr")


def test_the_tutorial_has_no_alliance() -> None:
    s = load_bundled("tutorial")
    assert s.alliances == () and not s.camps.has_alliances


@pytest.mark.parametrize(
    ("alliances", "message"),
    [
        ([["au", "ru"]], "Scenario field alliances[0][1]: unknown side 'ru'; sides: fr, au, pr"),
        ([["au"]], "Scenario field alliances[0]: an alliance groups at least two sides, got 1"),
        ([[]], "Scenario field alliances[0]: an alliance groups at least two sides, got 0"),
        ([["au", "au"]], "Scenario field alliances[0][1]: side 'au' is listed twice in this alliance"),
        ([["au", "pr"], ["au", "fr"]],
         "Scenario field alliances[1][0]: side 'au' is already in alliances[0]: a side belongs to at most one alliance"),
        ([["fr", "au", "pr"]],
         "Scenario field alliances: every side would be of one camp: a campaign needs at least two camps (RU-19)"),
        ({"au": "pr"}, "Scenario field alliances: expected a list, got dict"),
        (["au"], "Scenario field alliances[0]: expected a list, got str"),
        ([["au", 3]], "Scenario field alliances[0][1]: expected text, got 3"),
        ([["au", "fr", "pr", "au"]], "Scenario field alliances[0]: 4 sides named, but the scenario has 3"),
        ([["au", "pr"]] * 9, "Scenario field alliances: at most 8 alliances"),
    ],
)
def test_ru_19_a_broken_alliance_is_refused_naming_the_field(alliances: Any, message: str) -> None:
    assert refused(three_sides(alliances)) == message


def test_ru_19_two_sides_cannot_be_allied_the_campaign_needs_two_camps() -> None:
    data = minimal()
    data["alliances"] = [["fr", "au"]]
    assert refused(data) == (
        "Scenario field alliances: every side would be of one camp: a campaign needs at least two camps (RU-19)")


def test_ru_19_two_alliances_of_four_sides_are_two_camps() -> None:
    data = three_sides([["au", "pr"], ["fr", "ru"]])
    data["sides"].append({"key": "ru", "name": "Russia"})
    s = parse_scenario(data)
    assert s.camps.camps_of(["fr", "au", "pr", "ru"]) == ("au+pr", "fr+ru")
    assert s.camps.alliances == (("au", "pr"), ("fr", "ru"))


def test_the_docs_error_messages_are_the_parsers() -> None:
    """Every alliances message docs/scenario-format.md quotes is what the parser says."""
    quoted = set(re.findall(r"`(Scenario field alliances[^`]*)`", doc()))
    assert len(quoted) >= 6
    said = {refused(three_sides(a)) for a in (
        [["au", "ru"]], [["au"]], [["au", "au"]], [["au", "pr"], ["au", "fr"]], [["fr", "au", "pr"]], {"au": "pr"})}
    doc_sides = {m.replace("sides: fr, au, pi", "sides: fr, au, pr") for m in quoted}
    assert doc_sides == said


def test_the_docs_example_of_alliances_parses() -> None:
    block = next(b for b in re.findall(r"```yaml\n(.*?)```", doc(), flags=re.S) if b.lstrip().startswith("sides:"))
    data = three_sides()
    part = yaml.safe_load(block)
    data["sides"] = [{**side, "colour": "#808080"} for side in part["sides"]]
    data["forces"] = [force("soult", "fr", "A2"), force("mack", "au", "C1"), force("colli", "pi", "B1")]
    data["alliances"] = part["alliances"]
    assert parse_scenario(plain(data)).camp_of("pi") == "au+pi"


def test_the_schema_knows_alliances(schema: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema)
    ok = plain(three_sides([["au", "pr"]]))
    assert list(validator.iter_errors(ok)) == []
    for bad in ([["au"]], [["au", "au"]], [["AU", "pr"]], "au"):
        assert list(validator.iter_errors(plain(three_sides(bad)))), bad
