"""What Skirm shows of a match (`MatchView`) and of a unit (`CardView`), and its skin: the stat
boxes, weapon stats, special rules' titles and status words of its cards.

Skirm Lite plays on the same state with its own skin (skirmbot.rules.lite.view); both views are
built here so the pictures never read a `MatchState`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skirmbot.rules.skirm.cards import RANGED, SpecialRule, UnitCard, Weapon
from skirmbot.rules.skirm.scoring import objective_controller
from skirmbot.rules.skirm.state import (
    ACTIVATED,
    DEPLOYMENT,
    DOWNED,
    ENDED,
    TAKEN_OUT,
    ItemState,
    MatchState,
    UnitState,
)
from skirmbot.rules.skirm.state import READY as SKIRM_READY
from skirmbot.rules.view import ACTIVATED as VIEW_ACTIVATED
from skirmbot.rules.view import DOWNED as VIEW_DOWNED
from skirmbot.rules.view import (
    OUT,
    OVER,
    PLAYING,
    READY,
    SETUP,
    CardView,
    MarkerView,
    MatchView,
    PieceView,
    SideView,
    WeaponView,
)

Stats = list[tuple[str, str]]

PHASES = {DEPLOYMENT: SETUP, ENDED: OVER}  # any other phase is play
STATUSES = {SKIRM_READY: READY, ACTIVATED: VIEW_ACTIVATED, DOWNED: VIEW_DOWNED, TAKEN_OUT: OUT}
CARRIED = "marker"  # what a unit carries: Skirm's markers are all alike


@dataclass(frozen=True)
class Skin:
    """What a ruleset's cards show of a unit on Skirm's state."""

    unit_stats: Callable[[UnitCard], Stats]  # the boxes before HIT, which every skin shows
    weapon_stats: Callable[[Weapon], Stats]
    unit_rule_titles: dict[str, str]  # code -> title ("{x}" is the rule's number)
    weapon_rule_titles: dict[str, str]
    status_words: dict[str, str]  # a unit's status -> what the card says (else "Ready")
    shows_points: bool  # the EP line (Skirm's Equipment Points)


def with_range(weapon: Weapon, stats: Stats) -> Stats:
    return [*stats, ("RG", str(weapon.range))] if weapon.kind == RANGED else stats


# Skirm rulebook: Unit Special Rules, Weapon/Gear Special Rules (plus XPL: the Rocket Launcher
# Turret's blast, rulings).
SKIRM = Skin(
    unit_stats=lambda card: [
        ("ACT", str(card.act)), ("MSK", str(card.msk)), ("RSK", str(card.rsk)),
        ("ARM", str(card.arm)),
    ],
    weapon_stats=lambda weapon: with_range(
        weapon, [("ROA", str(weapon.roa)), ("DAM", str(weapon.dam))]
    ),
    unit_rule_titles={
        "2MC": "Double Melee", "2RC": "Double Ranged", "BLS": "Blast Shield", "BR": "Brutal {x}",
        "CAM": "Camouflage", "CTR": "Counter", "DLS": "Duellist", "FLY": "Flying",
        "INF": "Infiltrator", "LD": "Leader {x}", "LP": "Leap {x}", "NEQ": "No Equipment",
        "NMB": "Nimble", "PAR": "Parry", "PR": "Precise {x}", "RGR": "Ranger", "SWF": "Swift",
        "TCH": "Technician", "TG": "Tough {x}", "UNQ": "Unique",
    },
    weapon_rule_titles={
        "*": "Unique", "+SK": "Improve Skill", "2MC": "Double Melee", "2RC": "Double Ranged",
        "AH": "Autohit {x}", "BLS": "Blast", "BR": "Brutal {x}", "CR": "Chain Reaction {x}",
        "DD": "Deadly {x}", "HVY": "Heavy", "LIM": "Limited Ammo", "LNR": "Linear",
        "MCR": "Melee Combat Ranged", "NCV": "No Cover", "PR": "Precise {x}", "RG": "Range {x}",
        "RLT": "Relentless", "RND": "Rending", "SK": "Skill {x}", "SPR": "Spread", "STN": "Stun",
        "UWD": "Unwieldy", "XP": "Min XP {x}", "XPL": "Explosive",
    },
    status_words={ACTIVATED: "Activated", TAKEN_OUT: "Taken Out"},
    shows_points=True,
)  # fmt: skip


# --- the match -----------------------------------------------------------------------------
def match_view(state: MatchState, ruleset: str) -> MatchView:
    """The match as pictures and captions see it. The board is the live one (doors change):
    draw the view before the match goes on."""
    mission = state.mission
    return MatchView(
        ruleset=ruleset,
        phase=PHASES.get(state.phase, PLAYING),
        turn=state.turn,
        turns=mission.turns,
        title=mission.name,
        board=state.board,
        map_name=state.battle_map.name,
        sides=tuple(_side(state, squad.side) for squad in state.squads),
        pieces=tuple(_piece(unit) for unit in state.units.values()),
        markers=(*_objectives(state), *(_item(item) for item in state.items.values())),
        to_act=state.to_act,
        activating=state.activation.unit if state.activation is not None else None,
        notes=(f"Event: {state.event.name}",) if state.event is not None else (),
        battle_map=state.battle_map,
        outcome=_outcome(state),
        out_word="Taken Out",
        activations=state.activations_done,
        rolling=_rolling(state),
    )


def _rolling(state: MatchState) -> str | None:
    """The unit whose roll waits for its player's decision, if one does."""
    activation = state.activation
    return activation.pending.unit if activation and activation.pending else None


def _side(state: MatchState, side: int) -> SideView:
    """A squad's standing: MP, TO and its units up (and Downed, in Skirm Lite)."""
    squad = state.squads[side]
    downed = sum(1 for unit in state.on_map(side) if unit.status == DOWNED)
    up = len(state.on_map(side)) - downed
    standing = f"{squad.mp} MP · {squad.orders} TO · {up} up"
    standing += f" · {downed} Downed" if downed else ""
    return SideView(side, squad.name, standing, squad.mp)


def _piece(unit: UnitState) -> PieceView:
    return PieceView(
        id=unit.id,
        side=unit.side,
        kind=unit.card.unit_type,
        squares=(unit.square,) if unit.square is not None else (),
        status=STATUSES.get(unit.status, READY),
        hit=unit.hit,
        max_hit=unit.card.hit,
        carrying=CARRIED if unit.carrying is not None else "",
        marks=("STN",) if unit.stunned else (),
        leader=unit.card.is_leader,
        name=unit.card.name,
    )


def _objectives(state: MatchState) -> list[MarkerView]:
    """Each objective with its holder, followed by the beacon armed on it (Signal Fires)."""
    found: list[MarkerView] = []
    for index, square in enumerate(state.objectives):
        number = index + 1
        holder = objective_controller(state, index)
        found.append(MarkerView("objective", square, f"Objective {number}", holder, number=number))
        if index in state.beacons:
            armed = state.beacons[index]
            label = f"beacon on objective {number}"
            found.append(MarkerView("beacon", square, label, armed, number=number))
    return found


def _item(item: ItemState) -> MarkerView:
    return MarkerView(
        kind=item.kind,
        square=item.square,
        label=item.label,
        hit=item.hit if item.turret_type else None,
        id=item.id,
        variant=item.turret_type or "",
    )


def _outcome(state: MatchState) -> str:
    if state.phase != ENDED or state.result is None:
        return ""
    winner = state.result.winner
    return "Draw" if winner is None else f"{state.squads[winner].name} wins"


# --- a unit's card -------------------------------------------------------------------------
def rule_title(rule: SpecialRule, titles: dict[str, str]) -> str:
    """The rule's short title with its x filled in ("Leader 2"); unknown codes: the code."""
    title = titles.get(rule.code)
    if title is None:
        return str(rule)
    return title.replace("{x}", str(rule.value if rule.value is not None else "x"))


def lim_used(unit: UnitState, weapon: Weapon) -> bool:
    """Whether a LIM weapon has been used up. A unit built without LIM counts has used none."""
    return weapon.has("LIM") and unit.lim_uses_left.get(weapon.name, 1) <= 0


def card_view(state: MatchState, name: str, look: Skin) -> CardView:
    """The card of the unit called `name`, in the skin `look`; IllegalCommand when none is."""
    unit = state.unit(name)
    return unit_card_view(unit, state.squads[unit.side].name, look)


def unit_card_view(unit: UnitState, squad: str, look: Skin) -> CardView:
    """The card of `unit` of the squad called `squad`, in the skin `look`."""
    card = unit.card
    word = look.status_words.get(unit.status, "Ready")
    return CardView(
        name=card.name,
        kind=card.unit_type,
        side=unit.side,
        squad=squad,
        stats=tuple(look.unit_stats(card)),
        hit=unit.hit,
        max_hit=card.hit,
        weapons=tuple(_weapon(unit, weapon, look) for weapon in card.weapons),
        rules=tuple(rule_title(rule, look.unit_rule_titles) for rule in card.specials),
        status=f"{word}  ·  carrying a marker" if unit.carrying is not None else word,
        points=card.total_ep if look.shows_points else None,
        leader=card.is_leader,
        codes=tuple(str(rule) for rule in card.specials),
        costs=(("EP", _ep_words(card)),) if look.shows_points else (),
        status_kind=STATUSES.get(unit.status, READY),
    )


def _ep_words(card: UnitCard) -> str:
    return f"{card.ep} unit + {card.total_ep - card.ep} gear = {card.total_ep}"


def _weapon(unit: UnitState, weapon: Weapon, look: Skin) -> WeaponView:
    shown = [rule for rule in weapon.specials if rule.code != "RG"]  # RG is a stat
    return WeaponView(
        name=weapon.name,
        melee=weapon.kind != RANGED,
        stats=tuple(look.weapon_stats(weapon)),
        rules=tuple(rule_title(rule, look.weapon_rule_titles) for rule in shown),
        spent=lim_used(unit, weapon),
        codes=tuple(str(rule) for rule in shown),
        spent_by=next((str(rule) for rule in shown if rule.code == "LIM"), ""),
    )
