"""Names are quoted one way in every message (issue 13, small things: "names quoted three ways")."""

from __future__ import annotations

from bot.engine.text import Msg
from bot.i18n.text import tr


def test_a_name_with_an_apostrophe_is_quoted_like_any_other() -> None:
    plain = Msg("There is no Force {text!r} in this campaign.", text="Soult")
    apostrophe = Msg("There is no Force {text!r} in this campaign.", text="Armée d'Italie")
    assert str(plain) == "There is no Force 'Soult' in this campaign."
    assert str(apostrophe) == "There is no Force 'Armée d'Italie' in this campaign."  # repr said "Armée d'Italie"
    assert "'Armée d'Italie'" in tr("it", apostrophe) and "'Armée d'Italie'" in tr("es", apostrophe)


def test_what_is_not_printable_text_keeps_repr() -> None:
    assert str(Msg("{text!r}", text="a\nb")) == "'a\\nb'"  # a line break never splits a message
    assert str(Msg("{text!r}", text=[1, 2])) == "[1, 2]"
