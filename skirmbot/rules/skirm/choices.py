"""Autocomplete's options in a Skirm (or Skirm Lite) match, as one seat sees it (`Ruleset.choices`):
the values of the rules' own listings (`legal_commands`, `reachable_squares`, `attack_targets`),
labelled in Skirm's words ("Vex (5 sq, in cover)", "C4 (2)", "Die 2: rolled 5")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from skirmbot.rules.commands import Command
from skirmbot.rules.errors import RulesError
from skirmbot.rules.movement import Route
from skirmbot.rules.ruleset import Option
from skirmbot.rules.skirm.actions import CRATE_OPTIONS
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.legal import attack_targets, usable_weapons
from skirmbot.rules.skirm.odds import TargetOdds, target_odds
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.squares import Square
from skirmbot.words import target_label


class _Rules(Protocol):
    """What the options need of the ruleset (Skirm's or Skirm Lite's)."""

    def legal_commands(self, state: MatchState, side: int) -> list[Command]: ...

    def routes(self, state: MatchState, unit: UnitState, action: str) -> dict[Square, Route]: ...


@dataclass(frozen=True)
class SkirmChoices:
    """The options of one match for `side` (None: a watcher, who is offered no command)."""

    state: MatchState
    side: int | None
    rules: _Rules

    # --- the unit an option is about -------------------------------------------------------
    def named(self, name: str) -> str:
        """The unit called `name` (case does not matter); RulesError listing the names."""
        return self.state.unit(name).id

    def unit(self, name: str | None) -> str | None:
        """The unit named (None if there is none such), else the one activating."""
        if name:
            try:
                return self.named(name)
            except RulesError:
                return None
        activation = self.state.activation
        return activation.unit if activation is not None else None

    def side_of(self, unit: str) -> int:
        return self.state.units[unit].side

    def _legal(self, *kinds: str) -> list[Any]:
        if self.side is None:
            return []
        legal = self.rules.legal_commands(self.state, self.side)
        return [c for c in legal if not kinds or c.type in kinds]

    def _of(self, unit: str, *kinds: str) -> list[Any]:
        return [c for c in self._legal(*kinds) if c.unit == unit]

    # --- units ---------------------------------------------------------------------------
    def units(self, kinds: tuple[str, ...]) -> list[Option]:
        """The asker's units that can do one of `kinds` now (activate: the ready units)."""
        state = self.state
        if "activate" in kinds:
            if self.side is None or state.to_act != self.side or state.activation is not None:
                return []
            return [(u.id, _unit_label(u)) for u in state.ready_units(self.side)]
        names = {command.unit for command in self._legal(*kinds) if command.unit}
        return [(u.id, _unit_label(u)) for u in state.units.values() if u.id in names]

    def units_on_map(self) -> list[str]:
        return [unit.name for unit in self.state.on_map()]

    # --- squares, targets, weapons, ... ---------------------------------------------------
    def squares(self, unit: str, kind: str, action: str) -> list[Option]:
        """Squares the unit can end its Move/Dash on, cheapest first: "C4 (2)"."""
        legal = {c.square for c in self._of(unit, kind)}
        routes = self.rules.routes(self.state, self.state.units[unit], action)
        ends = sorted(
            (route.cost, square.y, square.x, str(square))
            for square, route in routes.items()
            if str(square) in legal
        )
        return [(name, f"{name} ({cost})") for cost, _, _, name in ends]

    def values(self, unit: str, kind: str, field: str) -> list[Option]:
        """The values the unit's legal commands of `kind` carry in `field` (a Leap's squares, a
        mission action's names, a door's square, a crate's options, a turret's targets)."""
        label = self._labels(unit).get(kind, _as_it_is)
        values = sorted({v for c in self._of(unit, kind) if (v := getattr(c, field, None))})
        return [(v, label(v)) for v in values]

    def _labels(self, unit: str) -> dict[str, Callable[[str], str]]:
        return {
            "door": lambda v: f"the door toward {v}",
            "crate": lambda v: CRATE_OPTIONS.get(v, v),
            "turret": lambda v: _distance_label(self.state, self.state.units[unit], v),
        }

    def skills(self, unit: str) -> list[Option]:
        """The unit's skills that can be used now: "Field Dressing (1 ACT): regain 2 HIT ..."."""
        usable = {c.skill for c in self._of(unit, "skill")}
        card = self.state.units[unit].card
        return [(s.name, s.summary()) for s in card.skills if s.name in usable]

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        """What the chosen skill can be aimed at: a unit or a square."""
        aims = {c.target for c in self._of(unit, "skill") if c.skill == skill}
        return [(aim, aim) for aim in sorted(a for a in aims if a)]

    def targets(self, unit: str, kind: str, weapon: str | None) -> list[Option]:
        """What the unit can attack now (with `weapon`, if one is chosen): "Vex (5 sq, in
        cover)"."""
        found = self.state.units[unit]
        attack = _attack(kind)
        legal = [
            c for c in self._of(unit, kind)
            if not weapon or c.weapon.casefold() == weapon.casefold()
        ]  # fmt: skip
        labels = {
            option.target: target_label(option.label, option.distance, option.cover)
            for w in usable_weapons(found, attack)
            for option in attack_targets(self.state, found, attack, w)
        }
        aimed = sorted({c.target for c in legal})
        squares = {t: square for t in aimed if (square := self._empty_square(t)) is not None}
        offered = [(t, labels.get(t, t)) for t in aimed if t not in squares]
        where = found.square
        return offered + [
            (t, f"{t} (empty square, {square.distance(where)} sq)" if where else t)
            for t, square in sorted(squares.items(), key=lambda item: (item[1].y, item[1].x))
        ]

    def _empty_square(self, target: str) -> Square | None:
        """The square an attack aims at when it names no unit or item (Skirm Lite's XPL weapon
        may aim at an empty square), else None."""
        if target in self.state.units:
            return None
        try:
            return self.state.board.parse_square(target)
        except RulesError:
            return None

    def weapons(self, unit: str, kind: str, target: str | None) -> list[Option]:
        """The weapons the unit can attack with now (at `target`, if one is chosen)."""
        legal = {
            c.weapon for c in self._of(unit, kind)
            if not target or c.target.casefold() == target.casefold()
        }  # fmt: skip
        found = self.state.units[unit]
        return [
            (w.name, w.summary()) for w in usable_weapons(found, _attack(kind)) if w.name in legal
        ]

    def dice(self, kind: str) -> list[tuple[int, str]]:
        """The dice of the roll waiting for a decision that can be re-rolled (or changed)."""
        activation = self.state.activation
        if activation is None or activation.pending is None:
            return []
        rolled = activation.pending.dice
        numbers = sorted({c.die for c in self._legal(kind)})
        return [(n, f"Die {n}: rolled {rolled[n - 1].value}") for n in numbers]

    # --- /odds ---------------------------------------------------------------------------
    def any_targets(self, unit: str) -> list[Option]:
        """Everything the unit could attack with any of its weapons (enemy units, barrels,
        turrets), whoever asks."""
        attacker = self.state.units[unit]
        return list(
            {
                option.target: option.label
                for kind in (RANGED, MELEE)
                for weapon in usable_weapons(attacker, kind)
                for option in attack_targets(self.state, attacker, kind, weapon)
            }.items()
        )

    def target_odds(
        self, name: str, target: str | None, orders: int
    ) -> tuple[str, list[TargetOdds]]:
        """The unit's name and the exact odds of its attacks (on `target`, if named), spending
        up to `orders` TO; RulesError when it cannot attack from where it is."""
        found = self.state.unit(name)
        if not found.on_map:
            raise RulesError(f"{found.name} is not on the map.")
        return found.name, target_odds(self.state, found, target, orders)

    def words(self, command: Command) -> str | None:
        return None  # Skirm's and Lite's own actions read well as their title and fields


def _as_it_is(value: str) -> str:
    return value


def _attack(kind: str) -> str:
    return RANGED if kind == "shoot" else MELEE


def _unit_label(unit: UnitState) -> str:
    return f"{unit.id} ({unit.hit} HIT, on {unit.square})"


def _distance_label(state: MatchState, unit: UnitState, target: str) -> str:
    """A turret's target and how far it is: "Vex (5 sq)"."""
    where = state.units[target].square if target in state.units else None
    if where is None and "@" in target:
        try:
            where = Square.parse(target.split("@", 1)[1])
        except RulesError:
            where = None
    if where is None or unit.square is None:
        return target
    return f"{target} ({unit.square.distance(where)} sq)"
