"""What a player may choose now, for autocomplete: `(value, label)` pairs worked out from the
rules' own listings (`legal_commands`, `reachable_squares`, `attack_targets`).

The cogs show these choices and never decide what is legal: a `Situation` is the live match as
one player sees it (`MatchService.situation`), and each method answers one option of one slash
command. Discord's limits (25 choices, 100 characters) are the cogs' business, not this module's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skirmbot.dice.odds import format_target_odds
from skirmbot.rules import commands
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import Chance
from skirmbot.rules.ruleset import Ruleset
from skirmbot.rules.skirm.actions import CRATE_OPTIONS
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.legal import attack_targets, usable_weapons
from skirmbot.rules.skirm.odds import target_odds
from skirmbot.rules.skirm.state import MatchState, UnitState
from skirmbot.rules.squares import Square
from skirmbot.service.actions import encode
from skirmbot.service.errors import ServiceError
from skirmbot.words import shown

Option = tuple[str, str]  # (the value the command gets, what the player reads)
Attack = type[commands.Shoot] | type[commands.Melee]
# A kind of command: a kernel command's class, or a ruleset's own command by its type in records
# ("leap"), since nothing above the rules imports a ruleset's classes.
Kind = type[commands.Command] | str


@dataclass(frozen=True)
class Situation:
    """The live match, and the side of the player asking (None: not one of its players)."""

    state: MatchState
    side: int | None
    rules: Ruleset

    # --- the unit an option is about -------------------------------------------------------
    def unit(self, name: object = None) -> UnitState | None:
        """The unit named in the command's `unit` option, else the one activating."""
        if name:
            try:
                return self.state.unit(str(name))
            except RulesError:
                return None
        activation = self.state.activation
        return self.state.units[activation.unit] if activation is not None else None

    def _legal(self, *kinds: Kind) -> list[Any]:
        if self.side is None:
            return []
        return [c for c in self.rules.legal_commands(self.state, self.side) if _is(c, kinds)]

    def _of(self, unit: UnitState, *kinds: Kind) -> list[Any]:
        return [c for c in self._legal(*kinds) if c.unit == unit.id]

    # --- units ---------------------------------------------------------------------------
    def units(self, *kinds: Kind) -> list[Option]:
        """The asker's units that can do one of `kinds` now (Activate: the ready units)."""
        state = self.state
        if commands.Activate in kinds:
            if self.side is None or state.to_act != self.side or state.activation is not None:
                return []
            return [(u.id, _unit_label(u)) for u in state.ready_units(self.side)]
        names = {command.unit for command in self._legal(*kinds) if command.unit}
        return [(u.id, _unit_label(u)) for u in state.units.values() if u.id in names]

    # --- squares, targets, weapons, ... ---------------------------------------------------
    def squares(
        self, unit: UnitState, kind: type[commands.Move] | type[commands.Dash], action: str
    ) -> list[Option]:
        """Squares the unit can end its Move/Dash on, cheapest first: "C4 (2)"."""
        legal = {c.square for c in self._of(unit, kind)}
        routes = self.rules.routes(self.state, unit, action)
        ends = sorted(
            (route.cost, square.y, square.x, str(square))
            for square, route in routes.items()
            if str(square) in legal
        )
        return [(name, f"{name} ({cost})") for cost, _, _, name in ends]

    def leaps(self, unit: UnitState) -> list[Option]:
        """Squares the unit can Leap to (LPx)."""
        return [(s, s) for s in sorted({c.square for c in self._of(unit, "leap")})]

    def mission_actions(self, unit: UnitState) -> list[Option]:
        """The mission actions the unit can perform now."""
        names = sorted({c.action for c in self._of(unit, "mission")})
        return [(name, name) for name in names]

    def skills(self, unit: UnitState) -> list[Option]:
        """The unit's skills that can be used now: "Field Dressing (1 ACT): regain 2 HIT ..."."""
        usable = {c.skill for c in self._of(unit, "skill")}
        return [(s.name, s.summary()) for s in unit.card.skills if s.name in usable]

    def skill_targets(self, unit: UnitState, skill: str) -> list[Option]:
        """What the chosen skill can be aimed at: a unit or a square."""
        aims = {c.target for c in self._of(unit, "skill") if c.skill == skill}
        return [(aim, aim) for aim in sorted(a for a in aims if a)]

    def targets(self, unit: UnitState, kind: Attack, weapon: object = None) -> list[Option]:
        """What the unit can attack now (with `weapon`, if one is chosen): "Vex (5 sq, in
        cover)"."""
        attack = _attack(kind)
        legal = [
            c for c in self._of(unit, kind)
            if not weapon or c.weapon.casefold() == str(weapon).casefold()
        ]  # fmt: skip
        labels = {
            option.target: _target_label(option.label, option.distance, option.cover)
            for w in usable_weapons(unit, attack)
            for option in attack_targets(self.state, unit, attack, w)
        }
        aimed = sorted({c.target for c in legal})
        squares = {t: square for t in aimed if (square := self._empty_square(t)) is not None}
        offered = [(t, labels.get(t, t)) for t in aimed if t not in squares]
        return offered + [
            (t, f"{t} (empty square, {square.distance(unit.square)} sq)" if unit.square else t)
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

    def weapons(self, unit: UnitState, kind: Attack, target: object = None) -> list[Option]:
        """The weapons the unit can attack with now (at `target`, if one is chosen)."""
        legal = {
            c.weapon for c in self._of(unit, kind)
            if not target or c.target.casefold() == str(target).casefold()
        }  # fmt: skip
        return [
            (w.name, w.summary()) for w in usable_weapons(unit, _attack(kind)) if w.name in legal
        ]

    def doors(self, unit: UnitState) -> list[Option]:
        return self._carried(
            unit, commands.Door, lambda c: c.toward, lambda v: f"the door toward {v}"
        )

    def crate_options(self, unit: UnitState) -> list[Option]:
        return self._carried(unit, "crate", lambda c: c.option, lambda v: CRATE_OPTIONS.get(v, v))

    def turret_targets(self, unit: UnitState) -> list[Option]:
        return self._carried(
            unit,
            "turret",
            lambda c: c.target,
            lambda v: _distance_label(self.state, unit, v),
        )

    def _carried(
        self,
        unit: UnitState,
        kind: Kind,
        value: Callable[[Any], str | None],
        label: Callable[[str], str],
    ) -> list[Option]:
        """Doors, crate options, turret targets: the values legal commands of `kind` carry."""
        values = sorted({v for c in self._of(unit, kind) if (v := value(c))})
        return [(v, label(v)) for v in values]

    def dice(self, kind: type[commands.Reroll] | type[commands.Modify]) -> list[tuple[int, str]]:
        """The dice of the roll waiting for a decision that can be re-rolled (or changed)."""
        activation = self.state.activation
        if activation is None or activation.pending is None:
            return []
        rolled = activation.pending.dice
        numbers = sorted({c.die for c in self._legal(kind)})
        return [(n, f"Die {n}: rolled {rolled[n - 1].value}") for n in numbers]

    # --- the ruleset's own actions ---------------------------------------------------------
    def own_actions(self, covered: set[str], unit: object = None) -> list[Option]:
        """The legal actions whose kind no slash command of its own sends (`covered`: the
        kinds that have one), as (their compact form, words): how a ruleset's own actions,
        such as Skirm Lite's Revive, are reached (/act). Those of `unit` only, if named."""
        found = self.unit(unit) if unit else None
        return [
            (encode(command), command_words(self.rules, command))
            for command in self._legal(commands.Command)
            if command.type not in covered
            and (found is None or getattr(command, "unit", None) == found.id)
        ]

    # --- /odds ---------------------------------------------------------------------------
    def units_on_map(self) -> list[str]:
        return [unit.name for unit in self.state.on_map()]

    def any_targets(self, name: str) -> list[Option]:
        """Everything the unit could attack with any of its weapons (enemy units, barrels,
        turrets), whoever asks."""
        attacker = self.unit(name)
        if attacker is None:
            return []
        if not self.rules.exact_odds:
            try:
                found = _one_per_target(self._previewed(attacker))
            except RulesError:  # Downed, or still placed in secret: nothing to attack
                return []
            return [(c.target, _target_label(c.target, c.distance, c.cover)) for c in found]
        return list(
            {
                option.target: option.label
                for kind in (RANGED, MELEE)
                for weapon in usable_weapons(attacker, kind)
                for option in attack_targets(self.state, attacker, kind, weapon)
            }.items()
        )

    def odds(self, name: str, target: str | None, orders: int, detail: bool) -> str:
        """The odds of the unit's attacks (on `target`, if named), as /odds shows them."""
        if not self.rules.exact_odds:
            return self._preview_odds(name, target)
        try:
            found = self.state.unit(name)
            if not found.on_map:
                raise ServiceError(f"{found.name} is not on the map.")
            listed = target_odds(self.state, found, target, orders)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        if target is not None and not listed:
            raise ServiceError(
                f"{found.name} cannot attack '{shown(target)}' now; leave target empty to "
                "list what it can attack."
            )
        return format_target_odds(found, listed, detail=detail)

    def _preview_odds(self, name: str, target: str | None) -> str:
        """/odds in a ruleset whose attacks only its preview works out (Skirm Lite): the
        preview's own numbers, so the two never disagree."""
        try:
            attacker = self.state.unit(name)
            aimed = self.state.unit(target).id if target else None
            chances = self._previewed(attacker)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        listed = [c for c in chances if aimed is None or c.target == aimed]
        if target is not None and not listed:
            raise ServiceError(
                f"{attacker.name} cannot attack '{shown(target)}' now; leave target empty to "
                "list what it can attack."
            )
        head = f"**{attacker.name}'s targets** ({self.rules.title}, as the preview works them out"
        lines = [f"{head}; chance to hit, expected HIT lost, without TO spent on your dice):"]
        lines += [f"- {chance.words()}" for chance in listed] or ["- no enemy in reach"]
        return "\n".join(lines)

    def _previewed(self, attacker: UnitState) -> tuple[Chance, ...]:
        """The attacks the ruleset's preview works out for the unit where it stands."""
        return self.rules.preview(self.state, attacker.id).attacks

    def by_hand_note(self) -> str:
        """What /odds by hand adds in this match: nothing where they are its rules' odds."""
        if self.rules.exact_odds:
            return ""
        return (
            f"These are Skirm's odds: /odds by hand knows only Skirm's combat. For "
            f"{self.rules.title}'s odds in this match, give unit (and target) instead."
        )


def command_words(rules: Ruleset, command: commands.Command) -> str:
    """An action in words, for a menu: its title in the ruleset, then what it is done with and
    to ("Revive: Mara, Kor (2 TO)")."""
    titles = {rule.name: rule for rule in rules.action_rules()}
    rule = titles.get(command.type)
    parts = [
        str(value)
        for name, value in command.to_json().items()
        if name not in ("type", "side", "orders", "reason") and value not in (None, "", [], {})
    ]
    words = f"{rule.title if rule else command.type}: {', '.join(parts)}"
    return f"{words} ({rule.cost})" if rule else words


def _target_label(name: str, distance: int, cover: bool) -> str:
    """A target, how far and whether in cover: "Vex (5 sq, in cover)"."""
    return f"{name} ({distance} sq{', in cover' if cover else ''})"


def _one_per_target(chances: tuple[Chance, ...]) -> list[Chance]:
    """The first chance against each target (each weapon has one), in the preview's order."""
    first: dict[str, Chance] = {}
    for chance in chances:
        first.setdefault(chance.target, chance)
    return list(first.values())


def _attack(kind: Attack) -> str:
    return RANGED if kind is commands.Shoot else MELEE


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


def _is(command: commands.Command, kinds: tuple[Kind, ...]) -> bool:
    """The command is of one of `kinds` (a class, or a ruleset's own command's type)."""
    return any(
        command.type == kind if isinstance(kind, str) else isinstance(command, kind)
        for kind in kinds
    )
