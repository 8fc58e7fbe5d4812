"""Text for players that can be said in another language.

The engine and the services speak English. A :class:`Msg` is that English (it *is* a ``str``, so
logs, tests and JSON see plain text) and also remembers its template and parameters, so the bot can
look the template up in a language's catalogue (:mod:`bot.i18n.text`) and fill in the same values.
Text that loses the type (sliced, concatenated) simply stays English.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Msg(str):
    """English text from ``template.format(**params)`` that keeps ``template`` and ``params``."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Msg:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params))

    @classmethod
    def join(cls, separator: str, items: Iterable[str]) -> Msg:
        """``separator.join(items)`` keeping each item translatable: the joining template has no words."""
        params = {f"p{i}": item for i, item in enumerate(items)}
        escaped = separator.replace("{", "{{").replace("}", "}}")
        return cls(escaped.join("{" + k + "}" for k in params), **params)


    @classmethod
    def plural(cls, n: int, one: str, many: str, /, **params: Any) -> Msg:
        """``one`` or ``many`` (templates with ``{n}``) for ``n``: each form is its own catalogue entry."""
        return cls(one if n == 1 else many, n=n, **params)  # i18n: passes a template on

    def to_json(self) -> dict[str, Any]:
        """The template and parameters as JSON (parameters that are not numbers become text)."""
        return {"t": self.template, "p": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Any) -> str:
        """The Msg :meth:`to_json` wrote; anything unreadable comes back as plain text."""
        if not isinstance(data, dict) or not isinstance(data.get("t"), str):
            return str(data)
        params = {k: cls.from_json(v["msg"]) if isinstance(v, dict) and "msg" in v else v
                  for k, v in (data.get("p") or {}).items()}
        try:
            return cls(data["t"], **params)
        except (KeyError, IndexError, ValueError):
            return data["t"]


def _param_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, bool | int | float) or value is None:
        return value
    return str(value)


def _rebuild(template: str, params: dict[str, Any]) -> Msg:
    return Msg(template, **params)  # i18n: passes a template on
