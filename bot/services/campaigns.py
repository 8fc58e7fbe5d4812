"""Campaign lifecycle: create from a scenario, join a side, GM assignments, settings, end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import select

from bot.engine.errors import InvalidInput
from bot.engine.phases import first_position
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.scenario import Scenario, load_bundled, parse_scenario_text
from bot.store.db import Database
from bot.store.models import Campaign, ForceRow, LeaderRow, MapSquare, Player, SideRow, UnitRow

from .actors import Actor, require_gm
from .errors import NotFound, PermissionDenied
from .loading import get_campaign, turn_dice
from .logbook import log_event


@dataclass(frozen=True)
class Created:
    campaign_id: int
    name: str
    scenario: str
    sides: tuple[tuple[str, str], ...]
    seed_sha256: str


def check_options(options: dict[str, Any], rules: RuleBook) -> dict[str, Any]:
    """Campaign options: the rules' defaults, overridden by known settings with allowed values."""
    specs = rules.mc.options
    out = rules.mc.default_options()
    for name, value in options.items():
        if name not in specs:
            raise InvalidInput("Unknown campaign option {name!r}: options are {specs}.", name=name, specs=', '.join(specs))
        spec = specs[name]
        if value not in spec.choices:
            allowed = ", ".join(str(c).lower() for c in spec.choices)
            raise InvalidInput("Option {name!r} cannot be {value!r} ({rule}): choose {allowed}.", name=name, value=value, rule=spec.rule, allowed=allowed)
        out[name] = value
    return out


async def create_campaign(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    gm: Actor,
    name: str,
    scenario: str | None = None,
    scenario_text: str | bytes | None = None,
    options: dict[str, Any] | None = None,
    rules: RuleBook | None = None,
) -> Created:
    """A new campaign bound to a channel, from a bundled scenario or an uploaded YAML."""
    rules = rules or default_rulebook()
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise InvalidInput("A campaign name is 1 to 100 characters.")
    if scenario_text is not None:
        spec = parse_scenario_text(scenario_text, key=scenario or "uploaded")
    elif scenario:
        spec = load_bundled(scenario)
    else:
        raise InvalidInput("Choose a bundled scenario or upload a scenario file.")
    # The map's adjacency (RU-11) is the default; the scenario's or the GM's options may override it.
    opts = check_options({"adjacency": spec.map.adjacency, **spec.options, **(options or {})}, rules)
    async with db.transaction() as s:
        existing = (
            await s.exec(select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active"))
        ).first()
        if existing is not None:
            raise InvalidInput(
                "This channel already runs the campaign {name!r}: end it first, or use another channel.", name=existing.name
            )
        pos = first_position(opts)
        campaign = Campaign(
            guild_id=guild_id, channel_id=channel_id, name=name, scenario=spec.key, gm_id=gm.member_id,
            options=opts, climate=spec.climate.value, start_date=spec.start_date, turn=pos.turn, phase=int(pos.phase),
            map_width=spec.map.width, map_height=spec.map.height,
            adjacency=int(opts.get("adjacency", spec.map.adjacency)), sight=spec.sight,
        )
        s.add(campaign)
        await s.flush()
        await _populate(s, campaign, spec)
        await log_event(s, campaign, Msg("Campaign {name!r} created from scenario {scenario!r} by the GM.", name=name,
                                         scenario=spec.name))
        await turn_dice(s, campaign)  # creates turn 1's seed and logs its hash
        seed_hash = await _seed_hash(s, campaign)
        return Created(campaign.id or 0, name, spec.name, tuple((sd.key, sd.name) for sd in spec.sides), seed_hash)


async def _seed_hash(s: Any, campaign: Campaign) -> str:
    from bot.store.models import TurnSeed

    row = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == campaign.id, TurnSeed.turn == campaign.turn))).one()
    return row.sha256


async def _populate(s: Any, campaign: Campaign, spec: Scenario) -> None:
    cid = campaign.id
    for side in spec.sides:
        capital = next((str(sq) for sq, c in spec.map.cells.items() if c.capital and c.stronghold == side.key), None)
        s.add(SideRow(campaign_id=cid, key=side.key, name=side.name, colour=side.colour, nation=side.nation,
                      capital=capital, supply=spec.supply.get(side.key, 0)))
    for sq, cell in spec.map.cells.items():
        s.add(MapSquare(campaign_id=cid, col=sq.col, row=sq.row, terrain=cell.terrain.value,
                        features=sorted(f.value for f in cell.features), territory=cell.territory,
                        stronghold=cell.stronghold, capital=cell.capital, river_flow=cell.river_flow))
    for f in spec.forces:
        pending = f.arrives_turn is not None
        s.add(ForceRow(campaign_id=cid, side_key=f.side, key=f.key, name=f.name,
                       square=str(f.square), order=f.order.value, scouts=f.scouts,
                       state="pending" if pending else "active", arrives_turn=f.arrives_turn))
        s.add(LeaderRow(campaign_id=cid, force_key=f.key, key=f"{f.key}-leader", name=f.leader.name, cv=f.leader.cv))
        for u in f.units:
            s.add(UnitRow(campaign_id=cid, force_key=f.key, key=u.key, name=u.name, sp=u.sp, original_sp=u.sp,
                          type=u.type.value, quality=u.quality.value, mercenary=u.mercenary, flag=u.flag))


async def join_side(db: Database, campaign_id: int, actor: Actor, side: str) -> SideRow:
    """Join a side. A member plays one side per campaign."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        if campaign.status != "active":
            raise InvalidInput("The campaign {name!r} has ended.", name=campaign.name)
        row = await _side(s, campaign, side)
        current = (
            await s.exec(select(Player).where(Player.campaign_id == campaign_id, Player.member_id == actor.member_id))
        ).first()
        if current is not None:
            if current.side_key == row.key:
                raise InvalidInput("You already play {name}.", name=row.name)
            raise PermissionDenied("You already play another side; ask the GM to move you (/gm assign).")
        s.add(Player(campaign_id=campaign_id, side_key=row.key, member_id=actor.member_id))
        await log_event(s, campaign, Msg("{member} joined {side}.", member=actor.name or Msg("A member"), side=row.name))
        return row


async def assign(db: Database, campaign_id: int, gm: Actor, member_id: int, side: str, *, member_name: str = "") -> SideRow:
    """GM: put a member on a side (moving them if they played another)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        row = await _side(s, campaign, side)
        current = (
            await s.exec(select(Player).where(Player.campaign_id == campaign_id, Player.member_id == member_id))
        ).first()
        if current is None:
            s.add(Player(campaign_id=campaign_id, side_key=row.key, member_id=member_id))
        else:
            current.side_key = row.key
            s.add(current)
        await log_event(s, campaign, Msg("The GM put {member} on {side}.", member=member_name or Msg("a member"),
                                         side=row.name), kind="gm")
        return row


async def _side(s: Any, campaign: Campaign, text: str) -> SideRow:
    sides = (await s.exec(select(SideRow).where(SideRow.campaign_id == campaign.id))).all()
    for row in sides:
        if text.strip().lower() in (row.key, row.name.lower()):
            return row
    raise NotFound("There is no side {text!r}: sides are {names}.", text=text, names=', '.join(r.name for r in sides))


async def change_setting(db: Database, campaign_id: int, gm: Actor, name: str, value: Any,
                         *, rules: RuleBook | None = None) -> dict[str, Any]:
    """GM: change one campaign option (validated against the rules' choices)."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        spec = rules.mc.options.get(name)
        if spec is not None and isinstance(value, str):
            value = _coerce(value, spec.choices)
        rule_options = {k: v for k, v in campaign.options.items() if k in rules.mc.options}
        merged = check_options({**rule_options, name: value}, rules)
        campaign.options = {**campaign.options, **merged}
        if name == "adjacency":
            campaign.adjacency = int(value)
            from .loading import forget_map

            forget_map(campaign_id)
        s.add(campaign)
        await log_event(s, campaign, Msg("The GM set {name} to {value!r}.", name=name, value=value), kind="gm")
        return merged


def _coerce(text: str, choices: tuple[Any, ...]) -> Any:
    for c in choices:
        if str(c).lower() == text.strip().lower():
            return c
    return text


async def end_campaign(db: Database, campaign_id: int, gm: Actor) -> None:
    """GM: archive the campaign (kept, never deleted)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        campaign.status = "ended"
        s.add(campaign)
        await log_event(s, campaign, "The GM ended the campaign.", kind="gm")
