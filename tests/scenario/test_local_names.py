"""Names members can localise (issue 23, item 4): the scenario format names its title, sides, Forces and
places per language; the bundled scenarios carry them in five; the campaign keeps them (state, codec,
store) and says them in each reader's language (texts, map, autocomplete)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.campaign import codec
from bot.campaign.new import from_scenario
from bot.campaign.save import as_scenario
from bot.engine.errors import InvalidInput
from bot.i18n import names, t
from bot.scenario import LocalName, bundled_scenarios, load_bundled, names_of, parse_scenario

from .conftest import minimal, refused

jsonschema = pytest.importorskip("jsonschema")


def localised() -> dict[str, Any]:
    data = minimal()
    data["name"] = {"en": "Test", "fr": "Essai", "de": "Probe"}
    data["sides"][1]["name"] = {"en": "Austria", "fr": "Autriche", "de": "Österreich"}
    data["forces"][0]["name"] = {"en": "Army of Italy", "it": "Armata d'Italia", "fr": "Armée d'Italie"}
    return data


def test_a_name_may_be_given_in_each_language_and_the_english_is_kept() -> None:
    spec = parse_scenario(localised())
    assert spec.name == "Test" and isinstance(spec.name, LocalName)
    assert spec.sides[1].name == "Austria" and spec.forces[0].name == "Army of Italy"
    found = names_of(spec)
    assert found["side:au"]["de"] == "Österreich" and found["force:" + spec.forces[0].key]["it"] == "Armata d'Italia"
    assert found["title"] == {"en": "Test", "fr": "Essai", "de": "Probe"}
    only_french = minimal()
    only_french["sides"][0]["name"] = {"fr": "France"}
    assert parse_scenario(only_french).sides[0].name == "France"  # no English: the first is kept


def test_a_name_in_an_unknown_language_or_empty_is_refused_naming_its_field() -> None:
    data = minimal()
    data["sides"][1]["name"] = {"en": "Austria", "xx": "?"}
    assert "sides[1].name.xx" in refused(data) and "not a language of the bot" in refused(data)
    data["sides"][1]["name"] = {}
    assert "sides[1].name" in refused(data)
    data["sides"][1]["name"] = {"en": "Austria", "fr": "   "}
    assert "sides[1].name.fr" in refused(data)


def test_the_schema_takes_names_by_language(schema: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(schema)
    assert not list(validator.iter_errors(localised()))
    data = localised()
    data["sides"][1]["name"] = {"xx": "Austria"}
    assert list(validator.iter_errors(data))


@pytest.mark.parametrize("key", sorted(bundled_scenarios()))
def test_every_bundled_scenario_names_its_title_sides_and_forces_in_five_languages(key: str) -> None:
    spec = load_bundled(key)
    found = names_of(spec)
    slots = ["title", *(f"side:{s.key}" for s in spec.sides), *(f"force:{f.key}" for f in spec.forces)]
    for slot in slots:
        assert set(found.get(slot, {})) == {"en", "it", "es", "fr", "de"}, (key, slot)


def test_the_campaign_keeps_them_through_the_codec_and_a_saved_scenario() -> None:
    spec = parse_scenario(localised())
    state = from_scenario(spec, campaign_id=1, name="Essai", gm_id=9)
    assert state.names["side:au"]["fr"] == "Autriche"
    doc = codec.encode(state)
    assert codec.decode(doc).names == state.names
    doc["names"] = {"side:nobody": {"en": "X"}}
    with pytest.raises(InvalidInput, match=r"names\.side:nobody"):
        codec.decode(doc)
    doc["names"] = {"side:au": {"en": "Austria", "xx": "?"}}
    with pytest.raises(InvalidInput, match="not a language of the bot"):
        codec.decode(doc)
    del doc["names"]
    assert codec.decode(doc).names == {}  # a document written before names them in one language
    saved = as_scenario(state)
    assert saved["sides"][1]["name"] == {"en": "Austria", "fr": "Autriche", "de": "Österreich"}


def test_a_reader_is_told_the_names_in_their_language() -> None:
    spec = parse_scenario(localised())
    names.remember(4242, names_of(spec))
    names.use(4242)
    try:
        assert t("fr", "status.you_side", side="Austria").count("Autriche") == 1
        assert t("it", "status.you_side", side="Austria").count("Austria") == 1  # not given in Italian
        assert names.said("de", "Test") == "Probe" and names.said("en", "Austria") == "Austria"
    finally:
        names.use(None)
