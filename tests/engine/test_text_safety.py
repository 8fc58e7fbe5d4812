"""Text is data (DESIGN.md): only templates written in the code are ever formatted.

A template read back from the database or an uploaded export is looked up among the code's own
messages; anything else is refused, and even a template the code wrote may not reach an object's
attributes, index into anything, nest fields or ask for a huge width. Written against the class of
attack (format-string injection), not one payload.
"""

from __future__ import annotations

import os

import pytest

from bot.engine.errors import RuleViolation
from bot.engine.text import Msg, UnknownMessage, UnsafeTemplate, checked
from bot.i18n.text import known_templates, tr

SECRET = "sekret-token-do-not-show"

HOSTILE_TEMPLATES = [
    "{x.__class__}",
    "{x.to_json.__globals__}",
    "{x.to_json.__globals__[__builtins__]}",
    "{x.__init__.__globals__[os].environ}",
    "{x[0]}",
    "{x[__class__]}",
    "{0}",
    "{}",
    "{x:>1000000000}",
    "{x:.1000000000}",
    "{x:,>999999999}",
    "{x!a:>99999999}",
    "{x:{y}}",
    "{x:{y}{y}}",
    "{{{x.__class__}}}",
    "{x:" * 20 + "1" + "}" * 20,
    "}{",
    "{x!z}",
]
"""Attribute access, indexing, positional fields, huge width and precision, nested and broken braces."""


@pytest.fixture(autouse=True)
def secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("DATABASE_URL", f"postgresql+asyncpg://adc:{SECRET}@db/adc")


def nested(template: str) -> dict:
    """A stored message whose parameter ``x`` is itself a message (an object with attributes to walk)."""
    return {"t": template, "p": {"x": {"msg": {"t": "{n} trophy captured", "p": {"n": 3}}}, "y": 5}}


@pytest.mark.parametrize("template", HOSTILE_TEMPLATES)
def test_a_stored_template_the_code_does_not_define_is_refused(template: str) -> None:
    with pytest.raises(UnknownMessage):
        Msg.from_json(nested(template), known=known_templates())


@pytest.mark.parametrize("template", HOSTILE_TEMPLATES)
def test_even_a_known_template_may_not_walk_attributes_index_or_ask_for_huge_widths(template: str) -> None:
    with pytest.raises((UnknownMessage, UnsafeTemplate)):
        Msg.from_json(nested(template), known=frozenset({template}))
    with pytest.raises(UnsafeTemplate):
        Msg(template, x=Msg("{n} trophy captured", n=3), y=5)


@pytest.mark.parametrize("template", HOSTILE_TEMPLATES)
def test_a_translation_that_walks_attributes_is_not_formatted(template: str, monkeypatch) -> None:
    from tests.i18n import override

    override(monkeypatch, "it", "engine", {"{n} trophy captured": template.replace("x", "n"),
                                           "{n} trophies captured": template.replace("x", "n")})
    said = tr("it", Msg("{n} trophy captured", n=3))
    assert said == "3 trophy captured"  # the faulty translation is dropped, the English stays
    assert len(said) < 100


@pytest.mark.parametrize("value", [*HOSTILE_TEMPLATES, "{x.__class__}" * 500, SECRET[:3] + "{DISCORD_TOKEN}"])
def test_parameters_are_shown_as_plain_text_and_capped(value: str) -> None:
    template = "{n} trophy captured"
    msg = Msg.from_json({"t": template, "p": {"n": value}}, known=known_templates())
    for text in (str(msg), tr("it", msg), tr("es", msg)):
        assert SECRET not in text and "<class" not in text and "object at 0x" not in text
        assert len(text) < 1_200
    assert value[:100] in str(msg)


def test_messages_nest_only_a_few_levels_and_take_few_parameters() -> None:
    deep: dict = {"t": "{n} trophy captured", "p": {"n": 1}}
    for _ in range(50):
        deep = {"t": "{n} trophy captured", "p": {"n": {"msg": deep}}}
    with pytest.raises(UnknownMessage):
        Msg.from_json(deep, known=known_templates())
    many = {"t": "{n} trophy captured", "p": {f"k{i}": i for i in range(1000)} | {"n": 1}}
    with pytest.raises(UnknownMessage):
        Msg.from_json(many, known=known_templates())
    for broken in (None, 5, "text", {"t": 5}, {"t": "{n} trophy captured", "p": []},
                   {"t": "{n} trophy captured", "p": {"n": [1, 2]}}, {"t": "{n} trophy captured", "p": {}},
                   {"t": "{n} trophy captured", "p": {"n": 10**30}}):
        with pytest.raises(UnknownMessage):
            Msg.from_json(broken, known=known_templates())


def test_a_join_of_messages_reads_back_and_nothing_else_shaped_like_one() -> None:
    joined = Msg.join("; ", [Msg("{n} trophy captured", n=2), "plain"])
    back = Msg.from_json(joined.to_json(), known=known_templates())
    assert back == joined == "2 trophy captured; plain"
    assert Msg.from_json(Msg.join(", ", []).to_json(), known=known_templates()) == ""
    for fake in ("{p0}{p0.__class__}", "{p1}; {p0}", "{p0} and {p1}", "{p0}; {p1}, {p2}"):
        with pytest.raises((UnknownMessage, UnsafeTemplate)):
            Msg.from_json({"t": fake, "p": {"p0": "a", "p1": "b", "p2": "c"}}, known=known_templates())


def test_every_template_the_code_writes_passes_the_check_and_is_known() -> None:
    from bot.i18n.sources import english_texts

    known = known_templates()
    for template in english_texts():
        assert checked(template) == template
        assert template in known, template


def test_errors_keep_formatting_their_own_templates() -> None:
    err = RuleViolation("{force} cannot move: it is in {square}.", force="IV Corps", square="E4")
    assert str(err) == "IV Corps cannot move: it is in E4."
    assert os.environ["DISCORD_TOKEN"] == SECRET  # the fixture is in force for every test above


def test_a_long_joined_message_is_read_back_from_the_store_as_a_message() -> None:
    """A battle's report lists a line per unit that lost SP: joined, more lines than a message takes
    parameters (MAX_PARAMS), it was stored and read back as plain English (found by the whole campaigns of
    issue 25, read in Italian). Msg.join nests its items so each level stays within the limit."""
    from bot.engine.text import MAX_PARAMS, Msg
    from bot.i18n.text import known_templates

    items = [Msg("{force} {outcome}", force=f"Corps {i}", outcome="won") for i in range(3 * MAX_PARAMS)]
    joined = Msg.join("; ", items)
    back = Msg.from_json(joined.to_json(), known=known_templates() | {"{force} {outcome}"})
    assert str(back) == str(joined) == "; ".join(f"Corps {i} won" for i in range(3 * MAX_PARAMS))
