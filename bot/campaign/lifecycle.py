"""A campaign's members and settings: join a side (straight away, or on the GM's approval when the
bot setting ``join_approval`` is on), the GM's assignments, the rule options (RU-22), the end of the
campaign."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.tables import RuleBook
from bot.engine.text import Msg
from bot.scenario import fold_name

from .authority import Acting, is_gm, require_gm
from .botsettings import requires_approval, setting_name, value_name
from .dice import reveal_turn
from .errors import NotFound, PermissionDenied
from .events import EventKind, Journal
from .seats import Seat, general_plays, seating
from .settings import Settings
from .state import CampaignState, CampaignStatus, JoinRequest, SideState


def find_side(state: CampaignState, text: str) -> SideState:
    """The side ``text`` names: its key first (whatever any side is called), then its name, compared as
    scenarios compare names (:func:`bot.scenario.fold_name`: no case, no invisible characters)."""
    key = text.strip().lower()
    for side in state.sides.values():
        if side.key == key:
            return side
    name = fold_name(text)
    for side in state.sides.values():
        if name and fold_name(side.name) == name:
            return side
    raise NotFound("There is no side {text!r}: sides are {names}.", text=text,
                   names=', '.join(s.name for s in state.sides.values()))


@dataclass(frozen=True)
class Joining:
    """What ``/campaign join`` did: the member plays ``side`` now, or (``pending``) asked the GM to."""

    side: SideState
    pending: bool = False

    @property
    def key(self) -> str:
        return self.side.key

    @property
    def name(self) -> str:
        return self.side.name


def _taken_back(before: CampaignState, after: CampaignState) -> CampaignState:
    """A side the bot general played and no longer plays (a member joined it, the GM switched it off, or
    ``unmanned_sides`` left ``ai``) is awaited again in the phase, done or not (RU-26): it was the general
    who said it was done, and whoever has it now decides."""
    back = [sd for k, sd in after.sides.items() if sd.done and general_plays(before, k) and not general_plays(after, k)]
    return after.with_sides([replace(sd, done=False) for sd in back]) if back else after


def _may_join(state: CampaignState, member_id: int, side: str) -> SideState:
    """The side ``side`` names, if the member may ask for it: the campaign goes on, and the member
    plays no side yet."""
    if state.status is not CampaignStatus.ACTIVE:
        raise InvalidInput("The campaign {name!r} has ended.", name=state.name)
    row = find_side(state, side)
    if row.defeated:
        raise InvalidInput("{name} is in total defeat and has left the campaign (RU-25): choose a side still in play.",
                           name=row.name)
    current = state.players.get(member_id)
    if current is not None:
        if current == row.key:
            raise InvalidInput("You already play {name}.", name=row.name)
        raise PermissionDenied("You already play another side; ask the GM to move you (/gm assign).")
    return row


def join(state: CampaignState, actor: Acting, name: str, side: str,
         journal: Journal) -> tuple[CampaignState, Joining]:
    """``/campaign join``: the member joins the side (:func:`join_side`), or, when the campaign requires
    the GM's approval (bot setting ``join_approval``) and the member is not a GM, asks for it: a
    request the GM approves (:func:`approve_request`) or refuses (:func:`refuse_request`). A member
    has one request at a time; several members may play (and ask for) one side."""
    if not requires_approval(state.options) or is_gm(state, actor.member_id, actor.roles):
        state, row = join_side(state, actor, name, side, journal)
        return state, Joining(row)
    row = _may_join(state, actor.member_id, side)
    asked = state.requests.get(actor.member_id)
    if asked is not None:
        raise InvalidInput("You already asked to join {side}; the GM has not answered yet.",
                           side=state.sides[asked.side].name)
    request = JoinRequest(actor.member_id, row.key, name[:100])
    state = state.evolve(requests={**state.requests, actor.member_id: request})
    journal.say(state, Msg("{member} asked to join {side}; the GM decides.", member=name or Msg("A member"),
                           side=row.name))
    return state, Joining(row, pending=True)


def _request(state: CampaignState, member_id: int) -> JoinRequest:
    request = state.requests.get(member_id)
    if request is None:
        raise NotFound("That member has no request to join waiting: it was withdrawn or already answered.")
    return request


def approve_request(state: CampaignState, gm: Acting, member_id: int,
                    journal: Journal) -> tuple[CampaignState, SideState]:
    """GM: the member's request is granted: they play the side they asked for, announced as a join."""
    require_gm(state, gm)
    request = _request(state, member_id)
    requests = {m: r for m, r in state.requests.items() if m != member_id}
    row = _may_join(state.evolve(requests=requests), member_id, request.side)
    state = _taken_back(state, state.evolve(requests=requests, players={**state.players, member_id: row.key}))
    journal.say(state, Msg("{member} joined {side}.", member=request.name or Msg("A member"), side=row.name))
    return state, row


def refuse_request(state: CampaignState, gm: Acting, member_id: int,
                   journal: Journal) -> tuple[CampaignState, SideState]:
    """GM: the member's request is refused (they may ask again); the side they asked for."""
    require_gm(state, gm)
    request = _request(state, member_id)
    state = state.evolve(requests={m: r for m, r in state.requests.items() if m != member_id})
    row = state.sides[request.side]
    journal.say(state, Msg("The GM refused the request of {member} to join {side}.",
                           member=request.name or Msg("a member"), side=row.name), kind=EventKind.GM)
    return state, row


def withdraw_request(state: CampaignState, actor: Acting, journal: Journal) -> tuple[CampaignState, SideState]:
    """The member takes back their request to join; the side they had asked for."""
    request = state.requests.get(actor.member_id)
    if request is None:
        raise NotFound("You have no request to join waiting.")
    state = state.evolve(requests={m: r for m, r in state.requests.items() if m != actor.member_id})
    row = state.sides[request.side]
    journal.say(state, Msg("{member} withdrew the request to join {side}.", member=request.name or Msg("A member"),
                           side=row.name))
    return state, row


def join_side(state: CampaignState, actor: Acting, name: str, side: str,
              journal: Journal) -> tuple[CampaignState, SideState]:
    """A member joins a side; a member plays one side per campaign. ``name``: the member's name
    (empty: "A member"). A GM who plays a side is announced as one (fair play: the GM sees every
    secret). A request to join the member had waiting is dropped."""
    row = _may_join(state, actor.member_id, side)
    requests = {m: r for m, r in state.requests.items() if m != actor.member_id}
    state = _taken_back(state, state.evolve(players={**state.players, actor.member_id: row.key},
                                            **({"requests": requests} if len(requests) != len(state.requests) else {})))
    member = name or Msg("A member")
    if is_gm(state, actor.member_id, actor.roles):
        journal.say(state, Msg("{member}, a GM of this campaign, joined {side} and plays it.", member=member,
                               side=row.name))
    else:
        journal.say(state, Msg("{member} joined {side}.", member=member, side=row.name))
    return state, row


def assign(state: CampaignState, gm: Acting, member_id: int, side: str, journal: Journal, *,
           member_name: str = "") -> tuple[CampaignState, SideState]:
    """GM: put a member on a side (moving them if they played another)."""
    require_gm(state, gm)
    row = find_side(state, side)
    requests = {m: r for m, r in state.requests.items() if m != member_id}  # the GM answered it so
    state = _taken_back(state, state.evolve(players={**state.players, member_id: row.key},
                                            **({"requests": requests} if len(requests) != len(state.requests) else {})))
    journal.say(state, Msg("The GM put {member} on {side}.", member=member_name or Msg("a member"), side=row.name),
                kind=EventKind.GM)
    return state, row


def seat_general(state: CampaignState, gm: Acting, side: str, seat: Seat, journal: Journal) -> tuple[CampaignState, str]:
    """GM (``/gm assign side general:bot|off``): put the bot general on a side, or take it off (RU-26). Seating
    it moves the side's members off it (they may join again: a member's seat always wins); taking it off
    leaves the side to ``unmanned_sides`` (held, or awaited). Returns the side's name."""
    require_gm(state, gm)
    row = find_side(state, side)
    if seat is Seat.BOT:
        if row.defeated:
            raise RuleViolation("{side} is in total defeat and has left the campaign (RU-25): nobody plays it.",
                                side=row.name)
        players = {m: s for m, s in state.players.items() if s != row.key}
        state = state.evolve(players=players, options=seating(state.options, row.key, Seat.BOT))
        journal.say(state, Msg("The GM gave {side} to the bot general (RU-26).", side=row.name), kind=EventKind.GM)
    else:
        state = _taken_back(state, state.evolve(options=seating(state.options, row.key, Seat.OFF)))
        journal.say(state, Msg("The GM took {side} from the bot general (RU-26).", side=row.name), kind=EventKind.GM)
    return state, row.name


# --- the rule options (RU-22) -------------------------------------------------------------------------


def check_options(options: Mapping[str, Any], rules: RuleBook) -> dict[str, Any]:
    """Campaign options: the rules' defaults, overridden by known settings with allowed values."""
    specs = rules.mc.options
    out = rules.mc.default_options()
    for name, value in options.items():
        if name not in specs:
            raise InvalidInput("Unknown campaign option {name!r}: options are {specs}.", name=name, specs=', '.join(specs))
        spec = specs[name]
        if value not in spec.choices:
            allowed = ", ".join(str(c).lower() for c in spec.choices)
            raise InvalidInput("Option {name!r} cannot be {value!r} ({rule}): choose {allowed}.", name=name, value=value,
                               rule=spec.rule, allowed=allowed)
        out[name] = value
    return out


def _coerce(text: str, choices: tuple[Any, ...]) -> Any:
    for c in choices:
        if str(c).lower() == text.strip().lower():
            return c
    return text


def _choice(value: Any, choices: tuple[Any, ...]) -> Any:
    """The choice ``value`` equals, of its own type first (``1`` is ``True``'s equal, not its type)."""
    return next((c for c in choices if c == value and type(c) is type(value)),
                next((c for c in choices if c == value), value))


def change_setting(state: CampaignState, gm: Acting, name: str, value: Any, journal: Journal,
                   rules: RuleBook) -> tuple[CampaignState, dict[str, Any]]:
    """GM: change one campaign option (validated against the rules' choices); every rule option as it
    now stands. A value typed as text is read as the choice it names ("false", "4")."""
    require_gm(state, gm)
    spec = rules.mc.options.get(name)
    if spec is not None and isinstance(value, str):
        value = _coerce(value, spec.choices)
    merged = check_options({**state.settings.as_options(), name: value}, rules)
    settings = Settings.from_options({k: _choice(v, rules.mc.options[k].choices) for k, v in merged.items()}, rules)
    cmap = state.map if state.map.adjacency == settings.adjacency else replace(state.map, adjacency=settings.adjacency)
    state = _taken_back(state, state.evolve(settings=settings, options={**state.options, **merged}, map=cmap))
    # RU-22: a module turned off takes its effects with it from the next roll on (RU-10's weather and events).
    if not settings.weather and state.weather is not None:
        state = state.evolve(weather=None)
    if not settings.random_events:
        state = state.with_sides([replace(sd, movement_modifier=0) for sd in state.sides.values() if sd.movement_modifier])
    journal.say(state, Msg("The GM set {name} to {value}.", name=setting_name(name), value=value_name(value)),
                kind=EventKind.GM)  # named in the reader's words (issue 23), not `mercenary_desertion`
    return state, merged


def end_campaign(state: CampaignState, gm: Acting, journal: Journal) -> CampaignState:
    """GM: the campaign ends (archived: kept, never deleted). The current turn's seed is revealed, as
    at the end of any turn: no roll of the campaign is left that nobody can check."""
    require_gm(state, gm)
    state = reveal_turn(state.evolve(status=CampaignStatus.ENDED), journal)
    journal.say(state, "The GM ended the campaign.", kind=EventKind.GM)
    return state
