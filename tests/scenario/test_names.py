"""Names in a scenario (bot/scenario.py): a name must have a visible character, may not be another
side's (Force's, unit's) key, and may not repeat another name of its kind, compared without case and
without invisible (Unicode format, Cf) characters."""

from __future__ import annotations

import pytest

from bot.scenario import parse_scenario

from .conftest import force, minimal, refused

INVISIBLE = ["\u200b", "\u200b \u200c", " \ufeff\u2060 ", "\u200d\u200e\u200f"]


@pytest.mark.parametrize("name", INVISIBLE)
@pytest.mark.parametrize(("path", "field"), [
    (("sides", 1, "name"), "sides[1].name"),
    (("forces", 0, "name"), "forces[0].name"),
    (("forces", 0, "leader", "name"), "forces[0].leader.name"),
    (("forces", 0, "units", 0, "name"), "forces[0].units[0].name"),
    (("name",), "name"),
])
def test_a_name_of_invisible_characters_only_is_refused(name, path, field) -> None:
    data = minimal()
    where = data
    for part in path[:-1]:
        where = where[part]
    where[path[-1]] = name
    assert refused(data).startswith(f"Scenario field {field}: ")
    assert "no visible character" in refused(data)


def test_a_side_named_like_another_sides_key_is_refused() -> None:
    data = minimal()
    data["sides"][0]["name"] = "AU"
    assert refused(data) == ("Scenario field sides[0].name: 'AU' is the key of another side (au): a side's name "
                             "may not be another side's key")


def test_a_side_may_be_named_like_its_own_key() -> None:
    data = minimal()
    data["sides"][0]["name"] = "FR"
    assert parse_scenario(data).side("fr").name == "FR"


@pytest.mark.parametrize("twin", ["France", "FRANCE", "fr\u200bance", "\u2060France\u200b", " france "])
def test_two_sides_with_the_same_name_are_refused(twin) -> None:
    data = minimal()
    data["sides"][1]["name"] = twin
    assert refused(data) == (f"Scenario field sides[1].name: {twin.strip()!r} is also the name of sides[0].name "
                             "(names are compared without case and invisible characters)")


def test_a_force_named_like_another_forces_key_is_refused() -> None:
    data = minimal()
    data["forces"][0]["name"] = "Mack"
    assert refused(data) == ("Scenario field forces[0].name: 'Mack' is the key of another Force (mack): a Force's "
                             "name may not be another Force's key")


def test_two_forces_with_the_same_name_are_refused_reinforcements_included() -> None:
    data = minimal()
    data["forces"][0]["name"] = "IV Corps"
    data["reinforcements"] = [{"turn": 2, "force": {**force("ney", "fr", "A3"), "name": "iv\u200b corps"}}]
    assert refused(data) == ("Scenario field reinforcements[0].force.name: 'iv\\u200b corps' is also the name of "
                             "forces[0].name (names are compared without case and invisible characters)")


def test_a_unit_named_like_another_units_key_is_refused() -> None:
    data = minimal()
    data["forces"][0]["units"] = [{"key": "line", "name": "Line", "sp": 6}, {"key": "guard", "name": "mack-1", "sp": 4}]
    assert refused(data) == ("Scenario field forces[0].units[1].name: 'mack-1' is the key of another unit (mack-1): a "
                             "unit's name may not be another unit's key")


def test_two_units_of_a_force_with_the_same_name_are_refused_but_two_forces_may_share_one() -> None:
    data = minimal()
    data["forces"][0]["units"] = [{"key": "l1", "name": "Line", "sp": 6}, {"key": "l2", "name": "LINE\u200b", "sp": 4}]
    assert refused(data) == ("Scenario field forces[0].units[1].name: 'LINE\\u200b' is also the name of "
                             "forces[0].units[0].name (names are compared without case and invisible characters)")
    ok = minimal()  # both Forces have a unit named "Line" (the helper's default): each Force names its own
    assert [u.name for f in parse_scenario(ok).forces for u in f.units] == ["Line", "Line"]


def test_two_leaders_with_the_same_name_are_refused() -> None:
    data = minimal()
    data["forces"][1]["leader"]["name"] = "soult"
    assert refused(data) == ("Scenario field forces[1].leader.name: 'soult' is also the name of "
                             "forces[0].leader.name (names are compared without case and invisible characters)")


def test_a_name_keeps_its_inner_invisible_characters_but_compares_without_them() -> None:
    data = minimal()
    data["sides"][0]["name"] = "Fran\u200dce"  # a joiner inside a name is kept as written
    assert parse_scenario(data).side("fr").name == "Fran\u200dce"
    from bot.scenario import fold_name  # how every name is compared (bot/services/campaigns.py too)

    assert fold_name(" Fran\u200dce\u200b ") == fold_name("FRANCE") == "france"
