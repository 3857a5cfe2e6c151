"""Autocomplete's options in a match of the infantry rules, as one seat sees it (`Ruleset.choices`):
the values of its legal commands (`legal.legal_commands`), labelled in the rulebook's words. A
dot says the AP its cheapest route costs and how many enemy arc chances that route gives
("F6 (3 AP, 2 arc chances)"), an arc's width its AP and shots ("60 (4 AP, 2 shots)"), a melee
target its odds, a throw's target its AP, an item to take where it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from skirmbot.rules.commands import Activate, Command, EndActivation, Melee
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import arcs, legal, preview, terrain
from skirmbot.rules.infantry.blast import throw_ap
from skirmbot.rules.infantry.card import current_hp
from skirmbot.rules.infantry.combat import arc_shots
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
    Take,
    Throw,
)
from skirmbot.rules.infantry.preview import TERMS, reach_of, route_chances
from skirmbot.rules.infantry.sight import Body, sight
from skirmbot.rules.infantry.state import ARC_ORDERS, State, Trooper
from skirmbot.rules.preview import Chance, percent
from skirmbot.rules.ruleset import Option

# Firing Arc AP Costs table: 30° 2 AP, 60° 4 AP, 150° 6 AP.
ARC_AP = {30: 2, 60: 4, 150: 6}
# What each standing order of an arc does, as /arc's `order` offers it.
ORDER_WORDS = {
    "every": "fire at each chance while shots last",
    "first": "only the first N enemies",
    "short": "only at short range",
    "hold": "never unless you answer a prompt",
}
LISTED = 25  # Discord shows at most 25 options
# The AP of each command with a fixed price (Movement and Special Actions tables).
FIXED_AP = {
    Prone.type: terrain.MOVE_COSTS["prone"],
    Stand.type: terrain.MOVE_COSTS["stand"],
    Climb.type: terrain.MOVE_COSTS["level"],
    ChangeWeapon.type: 3,
    Take.type: 6,
    DropItem.type: 0,
    Melee.type: 5,
}


@dataclass(frozen=True)
class InfantryChoices:
    """The options of one match for `side` - a seat (None: a watcher, offered no command)."""

    state: State
    side: int | None

    @cached_property
    def _legal(self) -> list[Command]:
        return [] if self.side is None else legal.legal_commands(self.state, self.side)

    def _of(self, unit: str, kinds: tuple[str, ...]) -> list[Any]:
        key = unit.casefold()
        return [
            c
            for c in self._legal
            if str(getattr(c, "unit", "") or getattr(c, "owner", "")).casefold() == key
            and c.type in kinds
        ]

    # --- the unit an option is about -----------------------------------------------------------
    def named(self, name: str) -> str:
        return self.state.trooper(name).id

    def unit(self, name: str | None) -> str | None:
        """The trooper named; with none named, the one activating, or the arc owner whose answer
        a paused move waits for."""
        if name:
            found = [t for t in self.state.troopers if t.id.casefold() == name.casefold()]
            return found[0].id if found else None
        moving = self.state.moving
        if moving is not None and moving.chances:
            return moving.chances[0]
        return self.state.activating

    def side_of(self, unit: str) -> int:
        return self.state.trooper(unit).seat

    def units(self, kinds: tuple[str, ...]) -> list[Option]:
        names = {
            str(getattr(c, "unit", "") or getattr(c, "owner", "")).casefold()
            for c in self._legal
            if c.type in kinds
        }
        return [(t.id, trooper_label(t)) for t in self.state.troopers if t.id.casefold() in names]

    def units_on_map(self) -> list[str]:
        return [t.id for t in self.state.troopers if t.on_map and t.able]

    # --- dots, values, targets -----------------------------------------------------------------
    def squares(self, unit: str, kind: str, action: str) -> list[Option]:
        """A move's dots, cheapest first, each with its AP and the enemy arc chances its route
        gives: "F6 (3 AP, 2 arc chances at 72% and 58%)"."""
        legal_ends = {c.square for c in self._of(unit, (Move.type,))}
        if kind != Move.type or not legal_ends:
            return []
        costs = reach_of(self.state, self.state.trooper(unit))
        ends = sorted(
            (cost, dot.y, dot.x, dot) for dot, cost in costs.items() if str(dot) in legal_ends
        )
        # One copy for every label: the walk moves the copy's trooper, put back before each.
        copied = preview.copy_of(self.state)
        walker = copied.trooper(unit)
        start, here = walker.dot, walker.attacked_here
        memo: dict[Dot, list[Chance]] = {}
        found: list[Option] = []
        for cost, _, _, dot in ends:
            walker.dot, walker.attacked_here = start, here
            danger = route_chances(copied, walker, preview.route_to(copied, walker, dot), memo)
            found.append((str(dot), f"{dot} ({cost} AP{danger_words(danger)})"))
        return found

    def values(self, unit: str, kind: str, field: str) -> list[Option]:
        """The values the unit's legal commands of `kind` carry in `field`, labelled; for an
        arc, every width, order and enemy dot it may face; for a throw, the dots it reaches."""
        if kind == Arc.type:
            return self._arc_values(unit, field)
        if kind == Throw.type and field == "target":
            return self._throw_targets(unit)
        if kind == Take.type:
            return self._take_values(unit, field)
        found = sorted({str(v) for c in self._of(unit, (kind,)) if (v := getattr(c, field, None))})
        return [(value, value) for value in found]

    def _take_values(self, unit: str, field: str) -> list[Option]:
        """What the trooper may take and from whom (Special Actions ¶2): "Rifle (from Varga,
        unconscious, on D5)"; a source: "Varga (unconscious, on D5)" or "D5 (dropped here)"."""
        found: dict[str, str] = {}
        for command in self._of(unit, (Take.type,)):
            source = self._source_words(command.source)
            if field == "item":
                found.setdefault(command.item, f"{command.item} (from {source})")
            elif field == "source":
                found.setdefault(command.source, f"{command.source} ({source})")
        return sorted(found.items())

    def _source_words(self, source: str) -> str:
        found = [t for t in self.state.troopers if t.id.casefold() == source.casefold()]
        if not found:
            return f"dropped on {source}"
        trooper = found[0]
        state = "dead" if trooper.dead else "unconscious" if trooper.unconscious else "standing"
        return f"{trooper.id}, {state}, on {trooper.dot}"

    def _arc_values(self, unit: str, field: str) -> list[Option]:
        offered = self._of(unit, (Arc.type,))
        if not offered:
            return []
        trooper = self.state.trooper(unit)
        weapon = self.state.arms.weapon(trooper.active)
        if field == "width":
            widths = sorted({c.width for c in offered})
            return [
                (str(w), f"{w}° ({ARC_AP[w]} AP, {arcs.shots_words(arc_shots(w, weapon.shots))})")
                for w in widths
            ]
        if field == "order":
            return [(order, f"{order}: {ORDER_WORDS[order]}") for order in ARC_ORDERS]
        if field == "toward":
            return self._faces(trooper)
        return []

    def _faces(self, trooper: Trooper) -> list[Option]:
        """Dots to face an arc toward (Firing Arcs ¶1: any direction): each enemy's first,
        labelled with who stands there, then every other dot the trooper sees, nearest first.
        All of them: autocomplete keeps those matching what was typed, then the first 25."""
        assert trooper.dot is not None
        here = trooper.dot
        standing: dict[Dot, list[str]] = {}
        for t in self.state.troopers:
            if t.seat != trooper.seat and t.able and t.dot is not None and t.dot != here:
                standing.setdefault(t.dot, []).append(t.id)
        enemies = sorted(standing, key=lambda dot: (here.distance(dot), dot.y, dot.x))
        found = [
            (str(dot), f"{dot} ({', '.join(standing[dot])}, {dots_words(here.distance(dot))})")
            for dot in enemies
        ]
        seen = [dot for dot in self._in_sight(trooper) if dot not in standing]
        return found + [(str(dot), f"{dot} ({dots_words(here.distance(dot))})") for dot in seen]

    def _in_sight(self, trooper: Trooper) -> list[Dot]:
        """The dots the trooper sees (LoS, standing there at its level), nearest first."""
        assert trooper.dot is not None
        here, eye = trooper.dot, arcs.body(trooper)
        others = arcs.others(self.state, trooper)
        dots = sorted(
            (dot for dot in self.state.board.dots() if dot != here),
            key=lambda dot: (here.distance(dot), dot.y, dot.x),
        )
        return [
            dot
            for dot in dots
            if sight(self.state.board, eye, Body(dot, trooper.level), others).clear
        ]

    def _throw_targets(self, unit: str) -> list[Option]:
        trooper = self.state.trooper(unit)
        if not self._of(unit, (Throw.type,)) and trooper.active not in self.state.arms.explosives:
            return []
        explosive = self.state.arms.explosives.get(trooper.active)
        found = legal.throw_targets(self.state, trooper, LISTED)
        labels: list[Option] = []
        for command in found:
            dot = Dot.parse(command.target)
            assert trooper.dot is not None and explosive is not None
            ap = throw_ap(trooper.dot.distance(dot), explosive.ap_per_dot, trooper.prone)
            here = [t.id for t in self.state.troopers if t.dot == dot and t.able]
            who = f", {', '.join(here)}" if here else ""
            labels.append((command.target, f"{command.target} ({ap} AP{who})"))
        return labels

    def skills(self, unit: str) -> list[Option]:
        return []  # troopers have no skills to use: the card's skill level is "Regular" alone

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        return []

    def targets(self, unit: str, kind: str, weapon: str | None) -> list[Option]:
        """The enemies the trooper may melee now (with `weapon`, if chosen), with its odds."""
        if kind != Melee.type:
            return []
        aims = [
            c.target for c in self._of(unit, (Melee.type,)) if weapon is None or c.weapon == weapon
        ]
        known = {(c.target, c.weapon): c for c in self._chances(unit) if c.kind == "melee"}
        found: list[Option] = []
        for target in dict.fromkeys(aims):
            chance = known.get((target, weapon)) if weapon else None
            found.append((target, target_words(chance) if chance else target))
        return found

    def weapons(self, unit: str, kind: str, target: str | None) -> list[Option]:
        """The melee weapons the trooper may swing now (at `target`, if chosen)."""
        if kind != Melee.type:
            return []
        found = [
            c.weapon
            for c in self._of(unit, (Melee.type,))
            if target is None or c.target.casefold() == target.casefold()
        ]
        return [(name, name) for name in dict.fromkeys(found) if name]

    def dice(self, kind: str) -> list[tuple[int, str]]:
        return []  # no roll waits for a re-roll under the infantry rules

    def any_targets(self, unit: str) -> list[Option]:
        return [(c.target, f"{c.weapon}: {target_words(c)}") for c in self._chances(unit)]

    def target_odds(self, name: str, target: str | None, orders: int) -> tuple[str, list[Any]]:
        raise RulesError("The infantry rules' odds are the preview's: /odds gives them.")

    def _chances(self, unit: str) -> tuple[Chance, ...]:
        found = [t for t in self.state.troopers if t.id.casefold() == unit.casefold()]
        if not found or not found[0].on_map or not found[0].able or not all(self.state.deployed):
            return ()
        copied = preview.copy_of(self.state)
        return preview.chances(copied, copied.trooper(found[0].id))

    # --- /act ----------------------------------------------------------------------------------
    def words(self, command: Command) -> str | None:
        """A command in the rulebook's words with its AP: "Move: Rossi to F6 (3 AP)", "Arc:
        Rossi 60° toward F7, every (4 AP, 2 shots)", "Fire: Rossi's arc fires at Kade"."""
        return command_words(self.state, command)


def command_words(state: State, command: Command) -> str | None:
    unit = getattr(command, "unit", None)
    if isinstance(command, FireAt):
        return _fire_words(state, command)
    if isinstance(command, StandingOrders):
        return "Standing orders: " + ("ask me live" if command.prompt else "arcs follow orders")
    if isinstance(command, EndActivation):
        if state.activating is not None:
            return f"End: {state.activating}'s activation"
        if unit:
            return f"End: {unit} does nothing this turn"
        return "End the turn: troopers not yet activated stay where they are"
    if isinstance(command, Activate):
        return f"Activate: {unit}"
    if isinstance(command, Move):
        trooper = state.trooper(command.unit)
        cost = reach_of(state, trooper).get(Dot.parse(command.square)) if command.square else None
        return f"Move: {unit} to {command.square}" + (f" ({cost} AP)" if cost else "")
    if isinstance(command, Arc):
        return _arc_words(state, command)
    if isinstance(command, Throw):
        level = f" level {command.level}" if command.level is not None else ""
        return f"Throw: {unit} {state.trooper(command.unit).active} at {command.target}{level}"
    if isinstance(command, Melee):
        return f"Melee: {unit} at {command.target} with {command.weapon} (5 AP)"
    if isinstance(command, ChangeWeapon):
        return f"Change weapon: {unit} to {command.weapon} (3 AP)"
    if isinstance(command, Take):
        return f"Take: {unit} takes {command.item} from {command.source} (6 AP)"
    if isinstance(command, DropItem):
        return f"Drop: {unit} drops {command.item} (0 AP)"
    if isinstance(command, Climb):
        return f"Climb: {unit} to level {command.level} ({FIXED_AP[Climb.type]} AP)"
    if isinstance(command, Prone | Stand):
        title = "Go prone" if isinstance(command, Prone) else "Stand up"
        return f"{title}: {unit} ({FIXED_AP[command.type]} AP)"
    return None


def _arc_words(state: State, command: Arc) -> str:
    trooper = state.trooper(command.unit)
    weapon = state.arms.weapons.get(trooper.active)
    shots = arc_shots(command.width, weapon.shots) if weapon and weapon.long else 0
    order = f"first {command.n}" if command.order == "first" else command.order
    ap = ARC_AP.get(command.width, 0)
    return (
        f"Arc: {command.unit} {command.width}° toward {command.toward}, {order} "
        f"({ap} AP, {arcs.shots_words(shots)})"
    )


def dots_words(far: int) -> str:
    """ "1 dot", "6 dots"."""
    return f"{far} dot{'s' if far != 1 else ''}"


def _fire_words(state: State, command: FireAt) -> str:
    moving = state.moving
    target = moving.unit if moving is not None else "the mover"
    if command.fire:
        return f"Fire: {command.owner}'s arc fires at {target}"
    return f"Hold: {command.owner}'s arc holds its fire at {target}"


def danger_words(danger: list[Chance]) -> str:
    """ ", 2 arc chances, 42% and 17%" or "" for a route no arc sees."""
    if not danger:
        return ""
    odds = " and ".join(percent(c.hit) for c in danger[:3])
    more = "…" if len(danger) > 3 else ""
    count = f"{len(danger)} arc chance{'s' if len(danger) != 1 else ''}"
    return f", {count} at {odds}{more}"


def trooper_label(trooper: Trooper) -> str:
    """A trooper as autocomplete names it: "Rossi (Corporal, HP 8, AP 6/8, prone, at C4)"."""
    where = f"at {trooper.dot}" if trooper.dot is not None else "not deployed"
    level = f" level {trooper.level}" if trooper.level else ""
    prone = ", prone" if trooper.prone else ""
    return (
        f"{trooper.id} ({trooper.recruit.rank}, HP {current_hp(trooper.track)}, "
        f"AP {trooper.left}/{trooper.max_ap}{prone}, {where}{level})"
    )


def target_words(chance: Chance) -> str:
    """A target as autocomplete lists it: "Kade (1 dots, hits 58%, 1.6 HP expected)"."""
    cover = ", in cover" if chance.cover else ""
    return (
        f"{chance.target} ({chance.distance}{TERMS.distance}{cover}, hits {percent(chance.hit)}, "
        f"{float(chance.damage):.1f} {TERMS.lost})"
    )
