"""Campaign medals and XP (rulebook Your Squad: the medals list and Spoils Of War).

After each battle every unit is checked against every medal in the rulebook's list. A medal is
decided from the match log (the `taken_out`, `crate_opened` and `match_ended` events, see
events.py) and the final state (who is still Standing, with how many HIT) only: never from the
text of the log, and never typed in by hand (rulings: Campaigns). The readings of the medals the
rulebook leaves open are in docs/rulings.md, "Campaign medals".

`apply_xp` adds a battle's medals to a squad file's data and says how many Spoils Of War each
unit may now take (one for each increment of 5 XP).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skirmbot.rules.errors import ContentError
from skirmbot.rules.medal import Medal
from skirmbot.rules.skirm.cards import MELEE, RANGED, card_from_json
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.squads import spoils_allowed, spoils_taken_field, spoils_used
from skirmbot.rules.skirm.state import UnitState

# Rulebook: the medals and their XP, in the rulebook's order.
MEDAL_XP: dict[str, int] = {
    "Assassin": 2, "Avenger": 1, "Berserker": 2, "Bloodthirsty": 1, "First Blood": 2,
    "Geared Up": 1, "Last Standing": 1, "Merciless": 1, "Marksman": 2, "Resourceful": 1,
    "Scavenger": 1, "Untouchable": 2, "Veteran": 1, "Victor": 1,
}  # fmt: skip
BERSERKER_TAKE_OUTS = 3  # "3 or more enemies out with Melee attacks"
MARKSMAN_TAKE_OUTS = 3  # "3 or more enemies out with Ranged attacks"
BLOODTHIRSTY_TAKE_OUTS = 2  # "two enemy Units in the same Turn"
MERCILESS_OVERKILL = 2  # "2 or more DAM above that enemy's remaining HITs"
ITEMS = ("barrel", "turret")


@dataclass(frozen=True, slots=True)
class TakeOut:
    """One enemy Taken Out by a unit, read from a `taken_out` event."""

    victim: str
    by: str
    weapon: str | None
    kind: str  # "ranged", "melee" or "explosion"
    item: str | None  # "barrel" or "turret" when an item did it
    overkill: int  # unsaved damage beyond the HIT the victim had left
    turn: int


@dataclass(frozen=True, slots=True)
class Battle:
    """What the medals are decided from: the match's take-outs, crates and end."""

    units: dict[str, UnitState]
    take_outs: list[TakeOut]  # enemies Taken Out by a unit, in the order they fell
    crates: list[str]  # the units that opened a crate, in order
    winner: int | None
    ended: bool


# --- reading the log ------------------------------------------------------------------------
def battle_of(match: Match) -> Battle:
    units = match.state.units
    take_outs: list[TakeOut] = []
    crates: list[str] = []
    winner: int | None = None
    ended = False
    for event in match.log:
        data = event.data
        if event.kind == "taken_out":
            if _by_an_enemy(data, units):
                take_outs.append(_take_out(data))
        elif event.kind == "crate_opened" or (
            event.kind == "mission_action" and data.get("item") is not None
        ):
            crates.append(data["unit"])  # a crate stripped by a mission action counts as opened
        elif event.kind == "match_ended":
            winner, ended = data.get("winner"), True
    return Battle(units, take_outs, crates, winner, ended)


def _by_an_enemy(data: Mapping[str, Any], units: Mapping[str, UnitState]) -> bool:
    """Taken Out by a unit of the other squad (not by nobody, not by a squadmate)."""
    by = data.get("by")
    return by is not None and by in units and units[by].side != units[data["unit"]].side


def _take_out(data: Mapping[str, Any]) -> TakeOut:
    unsaved, hit_before = data.get("unsaved"), data.get("hit_before")
    overkill = (
        unsaved - hit_before
        if isinstance(unsaved, int) and isinstance(hit_before, int)
        else int(data.get("overkill", 0))
    )
    return TakeOut(
        victim=data["unit"],
        by=data["by"],
        weapon=data.get("weapon"),
        kind=data.get("kind", ""),
        item=data.get("item"),
        overkill=overkill,
        turn=int(data.get("turn", 0)),
    )


def _name(battle: Battle, unit_id: str) -> str:
    return battle.units[unit_id].name


def _names(battle: Battle, take_outs: Sequence[TakeOut]) -> str:
    names = [_name(battle, t.victim) for t in take_outs]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _standing(unit: UnitState) -> bool:
    return unit.on_map


# --- the medals, one function each: unit id -> the reason in words ---------------------------
def assassin(battle: Battle) -> dict[str, str]:
    """This Unit took out an enemy Leader in the battle."""
    found: dict[str, str] = {}
    for t in battle.take_outs:
        if battle.units[t.victim].card.is_leader:
            found.setdefault(t.by, f"took out {_name(battle, t.victim)}, the enemy Leader")
    return found


def avenger(battle: Battle) -> dict[str, str]:
    """This Unit took out an enemy Unit after that enemy Unit took their Leader out."""
    found: dict[str, str] = {}
    leader_killers: dict[str, str] = {}  # enemy unit -> the Leader it took out
    for t in battle.take_outs:
        victim = battle.units[t.victim]
        if t.victim in leader_killers and t.by not in found:
            leader = leader_killers[t.victim]
            if battle.units[leader].side == battle.units[t.by].side:
                found[t.by] = (
                    f"took out {victim.name}, who had taken out {_name(battle, leader)}, its Leader"
                )
        if victim.card.is_leader:
            leader_killers.setdefault(t.by, t.victim)
    return found


def berserker(battle: Battle) -> dict[str, str]:
    """This Unit took 3 or more enemies out with Melee attacks in the same battle."""
    return _by_count(battle, MELEE, BERSERKER_TAKE_OUTS, "in melee")


def marksman(battle: Battle) -> dict[str, str]:
    """This Unit took 3 or more enemies out with Ranged attacks in the same battle (with its
    own weapons: a turret's shot is an Item's, see Resourceful)."""
    return _by_count(battle, RANGED, MARKSMAN_TAKE_OUTS, "with ranged attacks")


def _by_count(battle: Battle, kind: str, at_least: int, how: str) -> dict[str, str]:
    by_unit: dict[str, list[TakeOut]] = {}
    for t in battle.take_outs:
        if t.kind == kind and t.item is None:
            by_unit.setdefault(t.by, []).append(t)
    return {
        unit: f"took out {len(outs)} enemies {how} ({_names(battle, outs)})"
        for unit, outs in by_unit.items()
        if len(outs) >= at_least
    }


def bloodthirsty(battle: Battle) -> dict[str, str]:
    """This Unit took out two enemy Units in the same Turn."""
    found: dict[str, str] = {}
    per_turn: dict[tuple[str, int], list[TakeOut]] = {}
    for t in battle.take_outs:
        outs = per_turn.setdefault((t.by, t.turn), [])
        outs.append(t)
        if len(outs) == BLOODTHIRSTY_TAKE_OUTS and t.by not in found:
            found[t.by] = f"took out {_names(battle, outs)} in turn {t.turn}"
    return found


def first_blood(battle: Battle) -> dict[str, str]:
    """This Unit was the first one to take an enemy out in the battle."""
    if not battle.take_outs:
        return {}
    first = battle.take_outs[0]
    return {first.by: f"took out {_name(battle, first.victim)}, the first enemy to fall"}


def geared_up(battle: Battle) -> dict[str, str]:
    """This Unit took out an enemy Unit using an Equipment item (e.g. Grenade): a weapon of its
    card marked `"gear": true`."""
    found: dict[str, str] = {}
    for t in battle.take_outs:
        weapon = battle.units[t.by].card.weapon(t.weapon) if t.weapon else None
        if weapon is not None and weapon.gear:
            found.setdefault(t.by, f"took out {_name(battle, t.victim)} with its {weapon.name}")
    return found


def last_standing(battle: Battle) -> dict[str, str]:
    """This Unit is the last Standing Unit in its Squad at the end of the battle: the only one
    of its squad on the map, its squadmates all Taken Out."""
    found: dict[str, str] = {}
    for side in (0, 1):
        squad = [u for u in battle.units.values() if u.side == side]
        standing = [u for u in squad if _standing(u)]
        if len(squad) > 1 and len(standing) == 1:
            found[standing[0].id] = "was the last of its squad Standing at the end"
    return found


def merciless(battle: Battle) -> dict[str, str]:
    """This Unit took out an enemy by inflicting 2 or more DAM above that enemy's remaining
    HITs: damage that got through its saves (rulebook Combat 3, "Roll Saves - Determine how much
    Damage the Attacker inflicted"), 2 or more beyond the HIT it had left."""
    found: dict[str, str] = {}
    for t in battle.take_outs:
        if t.overkill >= MERCILESS_OVERKILL:
            found.setdefault(
                t.by, f"took out {_name(battle, t.victim)} with {t.overkill} damage to spare"
            )
    return found


def resourceful(battle: Battle) -> dict[str, str]:
    """This Unit took out an enemy Unit using an Item (e.g. Barrel, Turret)."""
    found: dict[str, str] = {}
    for t in battle.take_outs:
        if t.item in ITEMS:
            found.setdefault(t.by, f"took out {_name(battle, t.victim)} with a {t.item}")
    return found


def scavenger(battle: Battle) -> dict[str, str]:
    """This Unit opened a Crate in the battle."""
    count = Counter(battle.crates)
    return {
        unit: f"opened {n} crate{'s' if n > 1 else ''}"
        for unit, n in count.items()
        if unit in battle.units
    }


def untouchable(battle: Battle) -> dict[str, str]:
    """This Unit was still Standing at the end of the battle and had all its HIT remaining
    (its card's HIT, looked at when the battle ends)."""
    return {
        u.id: f"was Standing at the end with all its {u.card.hit} HIT"
        for u in battle.units.values()
        if _standing(u) and u.hit >= u.card.hit
    }


def veteran(battle: Battle) -> dict[str, str]:
    """This Unit was still Standing at the end of the battle."""
    return {u.id: "was still Standing at the end" for u in battle.units.values() if _standing(u)}


def victor(battle: Battle) -> dict[str, str]:
    """This Unit's Squad won the battle (every unit of it, Standing or Taken Out)."""
    if battle.winner is None:
        return {}
    return {u.id: "its squad won" for u in battle.units.values() if u.side == battle.winner}


MEDALS: dict[str, Callable[[Battle], dict[str, str]]] = {
    "Assassin": assassin, "Avenger": avenger, "Berserker": berserker,
    "Bloodthirsty": bloodthirsty, "First Blood": first_blood, "Geared Up": geared_up,
    "Last Standing": last_standing, "Merciless": merciless, "Marksman": marksman,
    "Resourceful": resourceful, "Scavenger": scavenger, "Untouchable": untouchable,
    "Veteran": veteran, "Victor": victor,
}  # fmt: skip


def medals(match: Match) -> dict[str, list[Medal]]:
    """Every unit's medals for a finished match (unit id -> medals, in the rulebook's order;
    every unit has an entry). A match that never reached its first turn earns nothing."""
    battle = battle_of(match)
    earned: dict[str, list[Medal]] = {unit_id: [] for unit_id in battle.units}
    if not battle.ended or match.state.turn < 1:
        return earned
    for name, rule in MEDALS.items():
        for unit_id, reason in rule(battle).items():
            earned[unit_id].append(Medal(name, MEDAL_XP[name], reason))
    return earned


def squad_medals(match: Match, side: int) -> dict[str, list[Medal]]:
    """One squad's medals by unit name as in its squad file (match ids can carry a suffix)."""
    earned = medals(match)
    return {u.card.name: earned[u.id] for u in match.state.units.values() if u.side == side}


# --- XP and Spoils Of War -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Spoils:
    """What a unit may take after the battle (rulebook Spoils Of War)."""

    unit: str
    xp: int  # its total XP now: each Spoil taken must have XPx at most this
    gained: int  # XP gained in this battle
    allowed: int  # Spoils its XP allows in all: one per 5 XP
    taken: int  # Spoils it already holds (XPx gear and `spoils_taken`)
    neq: bool = False  # NEQ units gain no XP and take no Spoils

    @property
    def available(self) -> int:
        return max(0, self.allowed - self.taken)


def xp_gained(neq: bool, earned: Sequence[Medal]) -> int:
    """NEQ units do not gain XP; the others gain every medal's XP."""
    return 0 if neq else sum(medal.xp for medal in earned)


def apply_xp(
    squad_data: Mapping[str, Any], awards: Mapping[str, Sequence[Medal]]
) -> tuple[dict[str, Any], dict[str, Spoils]]:
    """The squad file's data with each unit's medals added to its `xp` (units by name, as
    `squad_medals` gives them), and the Spoils Of War each unit may take now, by name. The data
    given is not changed; NEQ units gain nothing."""
    data = copy.deepcopy(dict(squad_data))
    units = data.get("units")
    if not isinstance(units, list):
        raise ContentError("A squad must be an object with a 'name' and a list of 'units'.")
    spoils: dict[str, Spoils] = {}
    for unit in units:
        card = card_from_json(unit, f"Squad {data.get('name')}")
        gained = xp_gained(card.has("NEQ"), awards.get(card.name, ()))
        unit["xp"] = card.xp + gained
        taken = spoils_used(card, spoils_taken_field(unit, f"Squad {data.get('name')}"))
        allowed = 0 if card.has("NEQ") else spoils_allowed(unit["xp"])
        spoils[card.name] = Spoils(card.name, unit["xp"], gained, allowed, taken, card.has("NEQ"))
    return data, spoils
