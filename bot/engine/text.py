"""Text for players that can be said in another language.

The engine and the services speak English. A :class:`Msg` is that English (it *is* a ``str``, so
logs, tests and JSON see plain text) and also remembers its template and parameters, so the bot can
look the template up in a language's catalogue (:mod:`bot.i18n.text`) and fill in the same values.
Text that loses the type (sliced, concatenated) simply stays English.
"""

from __future__ import annotations

import re
import string
from collections.abc import Container, Iterable, Mapping
from functools import lru_cache
from typing import Any

MAX_PARAM_CHARS = 300
"""A parameter read back from data (a name, a reason) is shown as plain text, at most this long."""
MAX_PARAMS = 24
MAX_DEPTH = 6
"""How deep messages read back from data may nest (a roll inside a summary inside a log line)."""
JOIN_SEPARATORS = ("", " ", ", ", "; ")
"""The separators :meth:`Msg.join` takes: a stored join is recognised by its shape, not looked up."""

_SPEC = re.compile(r"[<>^=]?[+\- ]?\d{0,2},?(?:\.\d{1,2})?[bcdeEfFgGnosxX%]?|(?:%[a-zA-Z]|[ :/.,\-])+")
"""The format specs a template may carry: small widths and precisions, signs, thousands, strftime."""
_FORMATTER = string.Formatter()


class _OneQuote(string.Formatter):
    """``{name!r}`` quotes a name one way, 'like this', whatever it holds: ``repr`` would switch to
    double quotes for a name with an apostrophe ("Armée d'Italie") and escape what it finds odd.
    Anything else than printable text keeps ``repr``."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "r" and isinstance(value, str) and value.isprintable():
            return f"'{value}'"
        return super().convert_field(value, conversion)


QUOTING = _OneQuote()


def render(template: str, params: Mapping[str, Any]) -> str:
    """``template`` (checked) filled with ``params``, names quoted one way (:class:`_OneQuote`)."""
    template = checked(template)
    if "!r" not in template:
        # No quoting to change: str.format_map gives the same text in C, not string.Formatter's
        # Python loop (the aftermath's hot path builds a message per deserter check, issue 26 item 5).
        return template.format_map(params)
    return QUOTING.vformat(template, (), params)


class UnsafeTemplate(ValueError):
    """A template that walks attributes, indexes, nests fields or asks for a huge width."""


class UnknownMessage(ValueError):
    """Stored or imported text that is not one of the code's own messages (or is malformed)."""


@lru_cache(maxsize=4096)
def checked(template: str) -> str:
    """``template`` if it is safe to format: every field a plain name (no attribute, no index, no
    positional field), no conversion but ``!r``/``!s``, and a format spec of the few small shapes
    above (no nested field). Anything else raises :class:`UnsafeTemplate`: str.format on a template
    from data is how a message reaches ``os.environ``."""
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError as exc:
        raise UnsafeTemplate(f"malformed template: {exc}") from None
    for _literal, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier() or conversion not in (None, "r", "s") or (spec and not _SPEC.fullmatch(spec)):
            raise UnsafeTemplate(f"unsafe field {name!r} (conversion {conversion!r}, spec {spec!r})")
    return template


class Msg(str):
    """English text from ``template.format(**params)`` that keeps ``template`` and ``params``."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Msg:
        self = str.__new__(cls, render(template, params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params))

    @classmethod
    def join(cls, separator: str, items: Iterable[str]) -> Msg:
        """``separator.join(items)`` keeping each item translatable: the joining template has no words."""
        if separator not in JOIN_SEPARATORS:
            raise ValueError(f"Msg.join takes one of {JOIN_SEPARATORS}, not {separator!r}")
        listed = list(items)
        if len(listed) > MAX_PARAMS:  # nested, so that each level is read back from the store (from_json)
            listed = [cls.join(separator, listed[i:i + MAX_PARAMS]) for i in range(0, len(listed), MAX_PARAMS)]
            return cls.join(separator, listed)
        params = {f"p{i}": item for i, item in enumerate(listed)}
        escaped = separator.replace("{", "{{").replace("}", "}}")
        return cls(escaped.join("{" + k + "}" for k in params), **params)


    @classmethod
    def plural(cls, n: int, one: str, many: str, /, **params: Any) -> Msg:
        """``one`` or ``many`` (templates with ``{n}``) for ``n``: each form is its own catalogue entry."""
        return cls(one if n == 1 else many, n=n, **params)  # i18n: passes a template on

    @classmethod
    def reparse(cls, text: str, templates: Iterable[str]) -> Msg | None:
        """``text`` read back as one of ``templates`` (English kept as plain text, like a Glory reason
        in its database column), so it can be said in another language; None if none fits.
        Whole numbers come back as numbers (a plural's ``n``)."""
        for template in templates:
            match = _pattern(template).fullmatch(text)
            if match:
                params = {k: int(v) if v.isdigit() else v for k, v in match.groupdict().items()}
                return cls(template, **params)
        return None

    def to_json(self) -> dict[str, Any]:
        """The template and parameters as JSON (parameters that are not numbers become text)."""
        return {"t": self.template, "p": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Any, *, known: Container[str], depth: int = 0) -> Msg:
        """The Msg :meth:`to_json` wrote, read back from the database or an upload.

        Its template must be one of ``known`` (the code's own messages) or the shape of a
        :meth:`join`; its parameters are plain values shown as text (capped), or messages in turn.
        Anything else raises :class:`UnknownMessage`: the caller shows the stored plain text instead,
        or refuses the import."""
        if depth > MAX_DEPTH:
            raise UnknownMessage(f"messages nest more than {MAX_DEPTH} deep")
        if not isinstance(data, dict) or not isinstance(data.get("t"), str) or not isinstance(data.get("p", {}), dict):
            raise UnknownMessage("a message is an object with a template \"t\" and parameters \"p\"")
        template, raw = data["t"], data.get("p") or {}
        if len(raw) > MAX_PARAMS:
            raise UnknownMessage(f"a message has at most {MAX_PARAMS} parameters")
        if template not in known and not _is_join(template):
            raise UnknownMessage(f"not a message of this bot: {template[:80]!r}")
        params = {str(k): _param_from_json(v, known, depth) for k, v in raw.items()}
        fields = {name for _lit, name, _spec, _conv in _FORMATTER.parse(checked(template)) if name is not None}
        if fields != set(params):
            raise UnknownMessage(f"the parameters {sorted(params)} do not fit the template {template[:80]!r}")
        try:
            return cls(template, **params)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise UnknownMessage(f"the parameters do not fit the template {template[:80]!r}: {exc}") from None


@lru_cache(maxsize=256)
def _pattern(template: str) -> re.Pattern[str]:
    parts = []
    for literal, name, _spec, _conv in _FORMATTER.parse(checked(template)):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts), re.DOTALL)


def _param_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, bool | int | float) or value is None:
        return value
    return str(value)


def _param_from_json(value: Any, known: Container[str], depth: int) -> Any:
    if isinstance(value, dict) and set(value) == {"msg"}:
        return Msg.from_json(value["msg"], known=known, depth=depth + 1)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > 2**63:
            raise UnknownMessage("a number in a message is too large")
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        return value if len(value) <= MAX_PARAM_CHARS else value[: MAX_PARAM_CHARS - 1] + "…"
    raise UnknownMessage(f"a message's parameter is a {type(value).__name__}")


def _is_join(template: str) -> bool:
    """Whether ``template`` is what :meth:`Msg.join` writes: ``{p0}`` ``{p1}`` ... with one of its separators."""
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError:
        return False
    if not parts:
        return True  # the join of nothing
    names = [name for _lit, name, _spec, _conv in parts]
    if names[-1] is None:  # a trailing literal: a join ends on its last field
        return False
    if names != [f"p{i}" for i in range(len(parts))] or any(spec or conv for _l, _n, spec, conv in parts):
        return False
    separators = {literal for literal, *_ in parts[1:]}
    return parts[0][0] == "" and len(separators) <= 1 and separators <= set(JOIN_SEPARATORS)


def _rebuild(template: str, params: dict[str, Any]) -> Msg:
    return Msg(template, **params)  # i18n: passes a template on
