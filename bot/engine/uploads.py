"""Reading documents members upload or type (scenarios, battle reports): YAML and JSON into plain
data, with the limits every reader needs before it looks at a single field.

- **Nesting**: lists and mappings at most :data:`MAX_DEPTH` deep. Checked before anything recursive
  runs (YAML: on the parser's events, which an iterative parser yields, before the document is
  composed; JSON: on the raw text, before :func:`json.loads`), so a few KB of ``[[[[...`` are
  refused by name instead of exhausting Python's recursion limit.
- **Characters**: no NUL, no other control character except newline and tab, no lone surrogate
  (:func:`bad_character`), in any key or value; PostgreSQL cannot store a NUL and no encoder can
  write a lone surrogate.
- **YAML**: ``safe_load`` without aliases (``*name`` lets a few KB expand into gigabytes); a value
  YAML cannot read (a date like ``0000-01-01``, a number of 5,000 digits) is refused naming its field.

Every refusal is an :class:`UploadProblem`: the field's path (``forces[2].units``), its line when
known, and what is wrong; the caller words it for its document.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Protocol

import yaml

from .errors import InvalidInput
from .text import Msg

MAX_DEPTH = 12
"""How deep lists and mappings may nest in an uploaded document (a scenario needs 6, a report 5)."""
MAX_NUMBER_DIGITS = 30
"""The longest number a document may write (whole numbers of 5,000 digits take Python seconds)."""

_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (C0 except tab and newline, DEL, C1) and surrogates."""
_BAD_IN_YAML = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\U0010ff00-\U0010ff9f]")
"""The same, and the stand-ins :func:`load_yaml` puts for those the YAML reader would refuse."""
_JSON_NOISE = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}"]+')
"""Strings and everything but brackets: what the JSON nesting check skips."""


class UploadProblem(InvalidInput):
    """A problem at one place of an uploaded document: ``field`` (a path like ``sides[0].name``, empty
    for the top), ``line`` (1-based, or None) and ``what`` (a Msg)."""

    def __init__(self, field: str, line: int | None, what: Msg) -> None:
        self.field, self.line, self.what = field, line, what
        where = field or "(top)"
        super().__init__(Msg("{field} (line {line}): {what}", field=where, line=line, what=what) if line
                         else Msg("{field}: {what}", field=where, what=what))


def bad_character(text: str) -> str | None:
    """The first character ``text`` may not hold, as ``U+0000``; None when it is clean. Refused: NUL
    and the other control characters (but newline and tab), and lone surrogates."""
    m = _BAD.search(text)
    return f"U+{ord(m.group()):04X}" if m else None


def bad_character_msg(char: str) -> Msg:
    return Msg("holds the character {char}: control characters (but newline and tab), NUL and lone surrogates "
               "are not allowed", char=char)


def _path(parts: list[Any]) -> str:
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            text = str(p)
            text = text if len(text) <= 40 else text[:40] + "…"
            out += f".{text}" if out else text
    return out


_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader when PyYAML has it (about five times faster, and far fewer Python objects)."""
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_INT, _FLOAT, _TIMESTAMP = (f"tag:yaml.org,2002:{t}" for t in ("int", "float", "timestamp"))
_NUMERIC_START = frozenset("0123456789+-.")
"""How a plain scalar YAML 1.1 reads as a number or a date starts (``.inf`` and ``.nan`` too)."""
_PLAIN_NUMBER = re.compile(r"[-+]?(0|[1-9][0-9]*)|[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?"
                           r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
"""A number as YAML 1.1 and 1.2 both read it: decimal digits (and a decimal float)."""
_RAW_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
"""The control characters the YAML reader itself refuses (it reads CR and NEL as line breaks)."""
_STAND_IN = 0x10FF00
"""Plane 16 (private use) stand-ins for them, which the reader lets through to :func:`_check_events`."""


class _Frame:
    """An open list or mapping while the events are walked."""

    __slots__ = ("expect_key", "index", "is_key", "key", "mapping", "part", "path")

    def __init__(self, mapping: bool, part: Any, is_key: bool, path: tuple[Any, ...]) -> None:
        self.mapping, self.part, self.is_key, self.path = mapping, part, is_key, path
        self.expect_key, self.key, self.index = True, "?", 0


class Watch(Protocol):
    """What a reader counts while the events stream by, before anything is built (the scenario's
    limits: bot/scenario.py); it raises to refuse the document there."""

    def __call__(self, parent: tuple[Any, ...], part: Any, event: Any) -> None:
        """A node starts: ``parent`` is the path of the list or mapping that holds it (``()`` for the
        top, ``("forces", 3, "units")``), ``part`` its index or key there (None for the top), ``event``
        its YAML event (a scalar or the start of a list or mapping). Mapping keys are not passed."""


def _check_events(events: Any, watch: Watch | None = None) -> None:
    """Walk the document's events (an iterative parser: no recursion however deep it nests) and
    refuse, by field and line, what :func:`load_yaml` promises to refuse, and what ``watch`` refuses.
    Composing the document afterwards recurses only as deep as :data:`MAX_DEPTH`."""
    frames: list[_Frame] = []

    def where(part: Any) -> str:
        return _path([f.part for f in frames if f.part is not None] + ([] if part is None else [part]))

    def next_part() -> tuple[Any, bool]:
        """What names the node that starts now, and whether it is a mapping's key."""
        if not frames:
            return None, False
        top = frames[-1]
        if not top.mapping:
            top.index += 1
            return top.index - 1, False
        return (None, True) if top.expect_key else (top.key, False)

    def done(key: str | None) -> None:
        """A node ended: the next node of a mapping is a key again, or the value of this key."""
        if frames and frames[-1].mapping:
            top = frames[-1]
            if top.expect_key:
                top.key, top.expect_key = ("?" if key is None else key), False
            else:
                top.expect_key = True

    for event in events:
        if isinstance(event, yaml.AliasEvent):
            raise UploadProblem(where(next_part()[0]), event.start_mark.line + 1,
                                Msg("YAML anchors and aliases are not allowed (&name, *name)"))
        if isinstance(event, yaml.ScalarEvent):
            part, is_key = next_part()
            problem = _check_scalar(event)
            if problem is not None:
                raise UploadProblem(where(part), event.start_mark.line + 1, problem)
            if watch is not None and not is_key:
                watch(frames[-1].path if frames else (), part, event)
            done(event.value if is_key else None)
        elif isinstance(event, yaml.CollectionStartEvent):
            part, is_key = next_part()
            if len(frames) + 1 > MAX_DEPTH:
                raise UploadProblem(where(part), event.start_mark.line + 1,
                                    Msg("lists and mappings are nested more than {limit} levels deep", limit=MAX_DEPTH))
            parent = frames[-1].path if frames else ()
            if watch is not None and not is_key:
                watch(parent, part, event)
            frames.append(_Frame(isinstance(event, yaml.MappingStartEvent), part, is_key,
                                 parent if part is None else (*parent, part)))
        elif isinstance(event, yaml.CollectionEndEvent):
            frames.pop()
            done(None)


def _check_scalar(event: Any) -> Msg | None:
    """What is wrong with a scalar, if anything."""
    value = event.value
    m = _BAD_IN_YAML.search(value)
    if m is not None:
        code = ord(m.group())
        code -= _STAND_IN if code >= _STAND_IN else 0
        return bad_character_msg(f"U+{code:04X}")
    if event.tag not in (None, "!"):
        tag = event.tag
        construct = _CONSTRUCTOR.yaml_constructors.get(tag)
        if construct is not None and tag not in (_INT, _FLOAT):
            try:  # an explicit !!bool, !!timestamp, !!binary...: PyYAML's own constructor may fail in any way
                construct(_CONSTRUCTOR, yaml.ScalarNode(tag, value))
            except Exception:  # any failure means the value cannot be read
                return Msg("{value!r} cannot be read: quote it, or write a date like 1805-10-07", value=value[:40])
    elif event.implicit[0] and value[:1] in _NUMERIC_START:  # only these can read as a number or a date
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
    else:
        return None
    if tag in (_INT, _FLOAT) and len(value) > MAX_NUMBER_DIGITS:
        return Msg("a number of {n:,} characters: at most {limit} (quote it if it is text)", n=len(value),
                   limit=MAX_NUMBER_DIGITS)
    if tag in (_INT, _FLOAT) and event.tag is None and not _PLAIN_NUMBER.fullmatch(value):
        # YAML 1.1 reads 0x10 as 16, 010 as 8, 1:30 as 90 and 1_000 as 1000: nobody writing a scenario means
        # that (issue 24, item 7), and YAML 1.2 reads them otherwise
        return Msg("{value!r} would be read as a YAML 1.1 number (hexadecimal, octal, base 60 or with _): write "
                   "the number in plain decimal digits, or quote it if it is text", value=value[:40])
    if tag in (_INT, _FLOAT, _TIMESTAMP):
        try:
            _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, value))  # not cached: no leak
        except Exception:  # e.g. 0000-01-01, 1805-13-45: any failure means the value cannot be read
            return Msg("{value!r} cannot be read: quote it, or write a date like 1805-10-07", value=value[:40])
    return None


def load_yaml(text: str, watch: Callable[[], Watch] | None = None) -> Any:
    """Plain data from YAML ``text`` (one document); :class:`UploadProblem` names what is wrong and
    where. Other YAML errors (syntax, tags, two documents) raise :class:`yaml.YAMLError`.

    Two passes: the events are checked first (:func:`_check_events`, with a fresh ``watch()`` if
    given: a reader's own limits, refused there, as soon as one is exceeded, before the document is
    built), then the document is built by libyaml when PyYAML has it. Where libyaml refuses what
    PyYAML's own reader accepts (an escaped lone surrogate) or words an error differently, the
    pure-Python parser reads it again, so the member is told the same thing either way."""
    if _RAW_BAD.search(text):  # the reader would refuse them with a position only: let the check name the field
        text = _RAW_BAD.sub(lambda m: chr(_STAND_IN + ord(m.group())), text)
    loader: type[yaml.SafeLoader] = _FAST
    try:
        _check_events(yaml.parse(text, Loader=loader), watch() if watch else None)
    except yaml.YAMLError:
        if loader is yaml.SafeLoader:
            raise
        loader = yaml.SafeLoader
        _check_events(yaml.parse(text, Loader=loader), watch() if watch else None)
    try:
        return yaml.load(text, Loader=loader)  # a SafeLoader or CSafeLoader, checked above
    except yaml.YAMLError:
        if loader is yaml.SafeLoader:
            raise
        return yaml.load(text, Loader=yaml.SafeLoader)  # the same refusal, in PyYAML's words
    except RecursionError:  # the last resort: the check keeps every document well below the limit
        raise UploadProblem("", None, Msg("lists and mappings are nested more than {limit} levels deep",
                                          limit=MAX_DEPTH)) from None


def load_json(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Plain data from JSON ``text``, at most ``max_depth`` deep, with clean characters only.
    A syntax error raises :class:`json.JSONDecodeError`; the rest :class:`UploadProblem`."""
    depth = 0
    for m in re.finditer(r"[\[\]{}]", _JSON_NOISE.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > max_depth:
            raise UploadProblem("", None, Msg("lists and mappings are nested more than {limit} levels deep",
                                              limit=max_depth))
    try:
        data = json.loads(text, parse_int=_json_int, parse_constant=_Unreadable)
    except RecursionError:  # the last resort: the check above keeps it from happening
        raise UploadProblem("", None, Msg("lists and mappings are nested more than {limit} levels deep",
                                          limit=max_depth)) from None
    check_plain(data, max_depth=max_depth)
    return data


class _Unreadable:
    """A JSON value kept aside to be refused by :func:`check_plain`, which knows its field."""

    def __init__(self, text: str) -> None:
        self.text = text


def _json_int(text: str) -> int | _Unreadable:
    return _Unreadable(text) if len(text) > MAX_NUMBER_DIGITS else int(text)


def check_plain(data: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Every key and text in ``data`` (lists and mappings of plain values) holds clean characters, and
    it nests at most ``max_depth`` deep; walked without recursion."""
    stack: list[tuple[Any, list[Any]]] = [(data, [])]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, dict | list) and len(parts) >= max_depth:
            raise UploadProblem(_path(parts), None, Msg("lists and mappings are nested more than {limit} levels deep",
                                                        limit=max_depth))
        if isinstance(value, str):
            char = bad_character(value)
            if char is not None:
                raise UploadProblem(_path(parts), None, bad_character_msg(char))
        elif isinstance(value, _Unreadable):
            if len(value.text) > MAX_NUMBER_DIGITS:
                raise UploadProblem(_path(parts), None,
                                    Msg("a number of {n:,} characters: at most {limit} (quote it if it is text)",
                                        n=len(value.text), limit=MAX_NUMBER_DIGITS))
            raise UploadProblem(_path(parts), None, Msg("{value!r} is not a number JSON allows", value=value.text))
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and (char := bad_character(k)) is not None:
                    raise UploadProblem(_path(parts), None, bad_character_msg(char))
                stack.append((v, [*parts, k]))
        elif isinstance(value, list):
            stack.extend((v, [*parts, i]) for i, v in enumerate(value))
