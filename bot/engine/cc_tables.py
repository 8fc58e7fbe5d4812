"""Load and validate the C&C campaign (``rules/cc_campaign.yaml``) and Field Commander
(``rules/field_commander.yaml``) tables.

Built on the helpers of :mod:`.tables` (:class:`~.tables.Node`, :func:`~.tables.read_bands`):
every problem raises :class:`TableError` naming the file, the path inside it, what was found and
what is allowed. The engine fixes the result codes, status names, die symbols and spend names;
every number and every word a player reads is data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import TypeVar

from .cc_model import BattleDieFace, Circumstance, Presence, StragglerEffect, Theatre
from .model import LeaderStatus, Quality, UnitType
from .rolls import BandTable
from .tables import Node, parse_yaml, read_bands, read_yaml, rules_dir

StrEnumT = TypeVar("StrEnumT", bound=StrEnum)

CC_FILE = "cc_campaign.yaml"
FC_FILE = "field_commander.yaml"

ROLL_AGAIN = "roll_again"
FIRST_RESULTS = (LeaderStatus.SLAIN.value, LeaderStatus.MORTAL_WOUND.value, ROLL_AGAIN)
SECOND_RESULTS: Mapping[Circumstance, tuple[str, ...]] = {
    Circumstance.MELEE: ("captured", "crippled", "serious_wound", "moderate_wound", "light_wound"),
    Circumstance.OTHER: ("crippled", "serious_wound", "moderate_wound", "light_wound"),
}


# --- shared readers ---------------------------------------------------------------------------


def _require_rule(node: Node, rule: str) -> str:
    got = node.key("rule").str()
    if got != rule:
        raise node.key("rule").fail(f"this table implements {rule}, not {got!r}")
    return got


def _enum(node: Node, kind: type[StrEnumT], what: str) -> StrEnumT:
    text = node.str()
    try:
        return kind(text)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise node.fail(f"unknown {what} {text!r}; allowed: {allowed}") from None


def _share(node: Node) -> Fraction:
    """A fraction from 0 (excluded) to 1 (included), written as a number (``0.5``)."""
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise node.fail(f"expected a fraction above 0 and at most 1, got {value!r}")
    return Fraction(str(value))


def _top_keys(node: Node, names: set[str]) -> None:
    """The file's sections, plus ``version`` when given (checked by :func:`~.tables.parse_yaml`)."""
    node.keys_exactly(names | ({"version"} & set(map(str, node.mapping()))))


def _d6_bands(node: Node, results: Iterable[str]) -> BandTable:
    """A band table read by one die: every row must be reachable on 1D6 (faces 1 to 6)."""
    table = read_bands(node, results)
    for row, band in zip(node.list(), table.bands, strict=True):
        if not any(band.contains(face) for face in range(1, 7)):
            raise row.fail(f"row {band.result!r} ({band.span()}) can never be rolled on 1D6")
    return table


# --- CC-1 / CC-2 leaders ---------------------------------------------------------------------


@dataclass(frozen=True)
class FateTable:
    """CC-1: one circumstance's table: the first roll and the second ("roll again")."""

    circumstance: Circumstance
    name: str
    first: BandTable
    second: BandTable


@dataclass(frozen=True)
class StatusSpec:
    """CC-2: what a leader status means, in words and at the next battle."""

    status: LeaderStatus
    label: str
    meaning: str
    next_battle: Presence


@dataclass(frozen=True)
class CommandLimits:
    """CC-2: command range, contiguous orders and carriage movement."""

    range: int
    reduced_range: int
    contiguous: int
    reduced_contiguous: int
    carriage_movement: int


@dataclass(frozen=True)
class LeaderTables:
    fate_rule: str
    fate_name: str
    fate: Mapping[Circumstance, FateTable]
    status_rule: str
    statuses: Mapping[LeaderStatus, StatusSpec]
    command: CommandLimits


def _load_leaders(fate: Node, status: Node) -> LeaderTables:
    tables_node = fate.key("tables")
    tables_node.keys_exactly(c.value for c in Circumstance)
    tables: dict[Circumstance, FateTable] = {}
    for name, spec in tables_node.items():
        circ = Circumstance(name)
        spec.keys_exactly({"name", "first", "second"})
        tables[circ] = FateTable(
            circ,
            spec.key("name").str(),
            _d6_bands(spec.key("first"), FIRST_RESULTS),
            _d6_bands(spec.key("second"), SECOND_RESULTS[circ]),
        )

    cmd = status.key("command")
    cmd.keys_exactly({"range", "reduced_range", "contiguous", "reduced_contiguous", "carriage_movement"})
    command = CommandLimits(
        cmd.key("range").int(1, 10),
        cmd.key("reduced_range").int(0, 10),
        cmd.key("contiguous").int(1, 10),
        cmd.key("reduced_contiguous").int(0, 10),
        cmd.key("carriage_movement").int(0, 10),
    )
    if command.reduced_range > command.range:
        raise cmd.key("reduced_range").fail(f"{command.reduced_range} is above the normal range {command.range}")
    if command.reduced_contiguous > command.contiguous:
        raise cmd.key("reduced_contiguous").fail(
            f"{command.reduced_contiguous} is above the normal {command.contiguous} contiguous units"
        )

    statuses: dict[LeaderStatus, StatusSpec] = {}
    snode = status.key("statuses")
    snode.keys_exactly(s.value for s in LeaderStatus)
    for name, spec in snode.items():
        spec.keys_exactly({"label", "next_battle", "meaning"})
        st = LeaderStatus(name)
        statuses[st] = StatusSpec(
            st, spec.key("label").str(), spec.key("meaning").str(), _enum(spec.key("next_battle"), Presence, "presence")
        )
    # The rule itself fixes who stays fit and who leaves (CC-2): only the wording is free.
    if statuses[LeaderStatus.FIT].next_battle is not Presence.COMMANDS:
        raise snode.key("fit").key("next_battle").fail("a fit leader commands at the next battle")
    for st in (LeaderStatus.SLAIN, LeaderStatus.MORTAL_WOUND, LeaderStatus.CAPTURED, LeaderStatus.CRIPPLED):
        if statuses[st].next_battle is not Presence.GONE:
            raise snode.key(st.value).key("next_battle").fail(f"a {st.value} leader is gone for good (CC-2)")

    return LeaderTables(
        _require_rule(fate, "CC-1"),
        fate.key("name").str(),
        tables,
        _require_rule(status, "CC-2"),
        statuses,
        command,
    )


# --- CC-3 battle die and trophies --------------------------------------------------------------


@dataclass(frozen=True)
class BattleDie:
    """CC-3: the symbol on each face of a C&C battle die (face 1 first)."""

    rule: str
    name: str
    faces: tuple[BattleDieFace, ...]
    labels: Mapping[BattleDieFace, str]

    def face(self, n: int) -> BattleDieFace:
        return self.faces[n - 1]

    def label(self, face: BattleDieFace) -> str:
        return self.labels[face]

    def table(self) -> BandTable:
        """The die read as a table (face 1 gives the first symbol...), for :class:`~.rolls.Check`."""
        return BandTable.by_face([f.value for f in self.faces], {f.value: t for f, t in self.labels.items()})


@dataclass(frozen=True)
class TrophyCombination:
    """CC-3: symbols that take a trophy; ``captor``/``flag_of`` narrow it (Flag+Sabre)."""

    faces: tuple[BattleDieFace, ...]
    label: str
    captor: UnitType | None = None
    flag_of: UnitType | None = None

    def applies(self, captor: UnitType, flag_of: UnitType) -> bool:
        return (self.captor is None or self.captor is captor) and (self.flag_of is None or self.flag_of is flag_of)

    def matches(self, rolled: Iterable[BattleDieFace]) -> bool:
        return sorted(rolled) == sorted(self.faces)


@dataclass(frozen=True)
class TrophyTables:
    rule: str
    name: str
    dice: int
    captures: Mapping[UnitType, frozenset[UnitType]]
    """Which flags each unit type may take."""
    combinations: tuple[TrophyCombination, ...]


def _load_battle_die(node: Node) -> BattleDie:
    node.keys_exactly({"rule", "name", "faces", "labels"})
    faces_node = node.key("faces")
    rows = faces_node.list()
    if len(rows) != 6:
        raise faces_node.fail(f"give the symbol of each face 1 to 6: {len(rows)} given")
    faces = tuple(_enum(r, BattleDieFace, "battle die symbol") for r in rows)
    if missing := [f.value for f in BattleDieFace if f not in faces]:
        raise faces_node.fail(f"every symbol must be on some face; missing {', '.join(missing)}")
    labels_node = node.key("labels")
    labels_node.keys_exactly(f.value for f in BattleDieFace)
    labels = {BattleDieFace(k): v.str() for k, v in labels_node.items()}
    return BattleDie(_require_rule(node, "CC-3"), node.key("name").str(), faces, labels)


def _load_trophy(node: Node) -> TrophyTables:
    node.keys_exactly({"rule", "name", "dice", "captures", "combinations"})
    dice = node.key("dice").int(1, 4)
    cap = node.key("captures")
    cap.keys_exactly(t.value for t in UnitType)
    captures = {
        UnitType(k): frozenset(_enum(t, UnitType, "unit type") for t in v.list()) for k, v in cap.items()
    }
    combos = []
    combos_node = node.key("combinations")
    for row in combos_node.list():
        allowed = {"faces", "label", "captor", "flag_of"}
        if extra := sorted(set(map(str, row.mapping())) - allowed):
            raise row.fail(f"unknown {', '.join(extra)}; allowed: {', '.join(sorted(allowed))}")
        faces = tuple(_enum(f, BattleDieFace, "battle die symbol") for f in row.key("faces").list())
        if len(faces) != dice:
            raise row.key("faces").fail(f"a combination names one symbol per die: {dice} expected, {len(faces)} given")
        captor = None if row.opt("captor").value is None else _enum(row.key("captor"), UnitType, "unit type")
        flag_of = None if row.opt("flag_of").value is None else _enum(row.key("flag_of"), UnitType, "unit type")
        combos.append(TrophyCombination(faces, row.key("label").str(), captor, flag_of))
    if not combos:
        raise combos_node.fail("at least one combination must take a trophy")
    return TrophyTables(_require_rule(node, "CC-3"), node.key("name").str(), dice, captures, tuple(combos))


# --- CC-4 glory -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GloryAwardTables:
    loser: int
    loser_banner_share: Fraction
    winner_base: int
    winner_divisor: int
    per_leader_captured: int
    per_trophy: int


@dataclass(frozen=True)
class GlorySpendTables:
    heroic_cost: int
    heroic_per_battle: int
    heroic_types: frozenset[UnitType]
    rally_cost: int
    rally_blocks: int
    leadership_cost: int
    leadership_dice: int
    stragglers_cost: int
    stragglers_share: Fraction
    anti_guerrilla_cost: int
    anti_guerrilla_theatre: Theatre
    ordenanza_cost: int
    ordenanza_theatre: Theatre


@dataclass(frozen=True)
class StragglerRow:
    effect: StragglerEffect
    label: str


@dataclass(frozen=True)
class GloryTables:
    rule: str
    award: GloryAwardTables
    spend: GlorySpendTables
    stragglers: Mapping[BattleDieFace, StragglerRow]


_UNIT_FACES = {BattleDieFace.INFANTRY, BattleDieFace.CAVALRY, BattleDieFace.ARTILLERY}


def _load_glory(node: Node) -> GloryTables:
    node.keys_exactly({"rule", "award", "spend", "stragglers"})
    aw = node.key("award")
    aw.keys_exactly({"loser", "loser_banner_share", "winner_base", "winner_divisor", "per_leader_captured", "per_trophy"})
    award = GloryAwardTables(
        aw.key("loser").int(0, 20),
        _share(aw.key("loser_banner_share")),
        aw.key("winner_base").int(0, 20),
        aw.key("winner_divisor").int(1, 20),
        aw.key("per_leader_captured").int(0, 20),
        aw.key("per_trophy").int(0, 20),
    )
    sp = node.key("spend")
    sp.keys_exactly({"heroic", "rally", "leadership", "stragglers", "anti_guerrilla", "ordenanza"})
    heroic, rally, lead = sp.key("heroic"), sp.key("rally"), sp.key("leadership")
    strag, anti, orden = sp.key("stragglers"), sp.key("anti_guerrilla"), sp.key("ordenanza")
    heroic.keys_exactly({"cost", "per_battle", "unit_types"})
    rally.keys_exactly({"cost", "blocks"})
    lead.keys_exactly({"cost", "extra_dice"})
    strag.keys_exactly({"cost", "share"})
    anti.keys_exactly({"cost", "theatre"})
    orden.keys_exactly({"cost", "theatre"})
    heroic_types = frozenset(_enum(t, UnitType, "unit type") for t in heroic.key("unit_types").list())
    if UnitType.ARTILLERY in heroic_types:
        raise heroic.key("unit_types").fail("artillery units may not be Heroic (CC-4)")
    spend = GlorySpendTables(
        heroic.key("cost").int(1, 20),
        heroic.key("per_battle").int(1, 20),
        heroic_types,
        rally.key("cost").int(1, 20),
        rally.key("blocks").int(1, 10),
        lead.key("cost").int(1, 20),
        lead.key("extra_dice").int(1, 10),
        strag.key("cost").int(1, 20),
        _share(strag.key("share")),
        anti.key("cost").int(1, 20),
        _enum(anti.key("theatre"), Theatre, "theatre"),
        orden.key("cost").int(1, 20),
        _enum(orden.key("theatre"), Theatre, "theatre"),
    )
    st = node.key("stragglers")
    st.keys_exactly(f.value for f in BattleDieFace)
    stragglers: dict[BattleDieFace, StragglerRow] = {}
    for face, row in st.items():
        row.keys_exactly({"effect", "label"})
        effect = _enum(row.key("effect"), StragglerEffect, "straggler effect")
        f = BattleDieFace(face)
        if effect is StragglerEffect.REMOVE_BLOCK and f not in _UNIT_FACES:
            raise row.key("effect").fail(f"only a unit symbol says which type loses a block, not {f.value!r}")
        stragglers[f] = StragglerRow(effect, row.key("label").str())
    return GloryTables(_require_rule(node, "CC-4"), award, spend, stragglers)


# --- the C&C campaign book --------------------------------------------------------------------


@dataclass(frozen=True)
class CcTables:
    """Everything the CC procedures need, loaded once and passed in (``tables=``)."""

    leaders: LeaderTables
    battle_die: BattleDie
    trophy: TrophyTables
    glory: GloryTables


def load_cc(node: Node) -> CcTables:
    _top_keys(node, {"leader_fate", "leader_status", "battle_die", "trophy", "glory"})
    return CcTables(
        leaders=_load_leaders(node.key("leader_fate"), node.key("leader_status")),
        battle_die=_load_battle_die(node.key("battle_die")),
        trophy=_load_trophy(node.key("trophy")),
        glory=_load_glory(node.key("glory")),
    )


def parse_cc_tables(text: str, source: str = CC_FILE) -> CcTables:
    """Read C&C campaign tables from YAML text (an upload, or a test)."""
    return load_cc(parse_yaml(text, source))


def load_cc_tables(directory: Path | None = None) -> CcTables:
    return load_cc(read_yaml((directory or rules_dir()) / CC_FILE))


@cache
def default_cc_tables() -> CcTables:
    """The bundled ``rules/cc_campaign.yaml``, loaded on first use."""
    return load_cc_tables()


# --- Field Commander -------------------------------------------------------------------------


@dataclass(frozen=True)
class FcTables:
    """FC-1 overwhelm ratio, FC-2 supply costs, FC-3 scout re-roll and the FC quality order."""

    overwhelm_rule: str
    overwhelm_name: str
    overwhelm_ratio: int
    supply_rule: str
    supply_name: str
    refit_cost: int
    scout_cost: int
    forced_march_cost: int
    scout_rule: str
    scout_name: str
    scouts_per_reroll: int
    quality_rule: str
    quality_order: tuple[str, ...]
    """FC quality letters, lowest first (C -> P -> L -> V -> E)."""
    quality_ladder: Mapping[str, Quality]
    quality_labels: Mapping[str, str]


_RU7 = (Quality.RAW, Quality.AVERAGE, Quality.VETERAN, Quality.ELITE)


def load_fc(node: Node) -> FcTables:
    _top_keys(node, {"overwhelm", "supply", "scouts", "quality"})
    ow, sup, sc, q = node.key("overwhelm"), node.key("supply"), node.key("scouts"), node.key("quality")
    ow.keys_exactly({"rule", "name", "ratio"})
    sup.keys_exactly({"rule", "name", "costs"})
    sc.keys_exactly({"rule", "name", "per_reroll"})
    q.keys_exactly({"rule", "order", "ladder", "labels"})
    costs = sup.key("costs")
    costs.keys_exactly({"refit", "scout", "forced_march_per_unit"})

    order_node = q.key("order")
    order = tuple(n.str() for n in order_node.list())
    if not order:
        raise order_node.fail("name at least one quality letter")
    if len(set(order)) != len(order):
        raise order_node.fail(f"each letter may appear once: {', '.join(order)}")
    ladder_node = q.key("ladder")
    ladder_node.keys_exactly(order)
    ladder = {str(k): _enum(v, Quality, "quality") for k, v in ladder_node.items()}
    # Lowest first means never stepping down the RU-7 ladder along the order.
    for before, after in pairwise(order):
        if _RU7.index(ladder[after]) < _RU7.index(ladder[before]):
            raise ladder_node.fail(
                f"{after!r} ({ladder[after].value}) comes after {before!r} ({ladder[before].value}) "
                "but is lower on the RU-7 ladder: the order runs lowest first"
            )
    labels_node = q.key("labels")
    labels_node.keys_exactly(order)

    return FcTables(
        overwhelm_rule=_require_rule(ow, "FC-1"),
        overwhelm_name=ow.key("name").str(),
        overwhelm_ratio=ow.key("ratio").int(2, 10),
        supply_rule=_require_rule(sup, "FC-2"),
        supply_name=sup.key("name").str(),
        refit_cost=costs.key("refit").int(0, 20),
        scout_cost=costs.key("scout").int(0, 20),
        forced_march_cost=costs.key("forced_march_per_unit").int(0, 20),
        scout_rule=_require_rule(sc, "FC-3"),
        scout_name=sc.key("name").str(),
        scouts_per_reroll=sc.key("per_reroll").int(1, 5),
        quality_rule=_require_rule(q, "FC"),
        quality_order=order,
        quality_ladder=ladder,
        quality_labels={str(k): v.str() for k, v in labels_node.items()},
    )


def parse_fc_tables(text: str, source: str = FC_FILE) -> FcTables:
    """Read Field Commander tables from YAML text (an upload, or a test)."""
    return load_fc(parse_yaml(text, source))


def load_fc_tables(directory: Path | None = None) -> FcTables:
    return load_fc(read_yaml((directory or rules_dir()) / FC_FILE))


@cache
def default_fc_tables() -> FcTables:
    """The bundled ``rules/field_commander.yaml``, loaded on first use."""
    return load_fc_tables()
