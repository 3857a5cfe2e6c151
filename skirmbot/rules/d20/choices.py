"""Autocomplete's options in a d20 match, as one seat sees it (`Ruleset.choices`): the values of
its legal commands (`legal.legal_commands`), labelled in the rulebook's words: a square with
the movement's cost in action points ("C4 (1 AP, 3 sq)"), a target with its odds of winning the
opposed roll without bonus dice ("Vask (4 sq, in cover, wins 45%)").

The cogs ask by the kernel's verbs: /move's squares are d20 Moves, /shoot's and /melee's targets
are d20 Attacks with a ranged or a melee weapon."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.rules.commands import Command
from skirmbot.rules.d20 import legal
from skirmbot.rules.d20 import preview as d20_preview
from skirmbot.rules.d20.combat import ATTACK_COST
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift
from skirmbot.rules.d20.engine import MOVE_COSTS, price
from skirmbot.rules.d20.state import Model, State
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import Chance, percent
from skirmbot.rules.ruleset import Option
from skirmbot.words import plural, target_label

ACTIVATE = "activate"  # the kernel's verb: the d20 rules activate a model by its first action


@dataclass(frozen=True)
class D20Choices:
    """The options of one match for `side` (None: a watcher, who is offered no command)."""

    state: State
    side: int | None

    # --- the unit an option is about -------------------------------------------------------
    def named(self, name: str) -> str:
        return self.state.model(name).id

    def unit(self, name: str | None) -> str | None:
        if name:
            found = self.state.models.get(name.lower())
            return found.id if found is not None else None
        return self.state.active

    def side_of(self, unit: str) -> int:
        return self.state.model(unit).side

    def _legal(self, kinds: tuple[str, ...] = ()) -> list[Command]:
        if self.side is None:
            return []
        found = legal.legal_commands(self.state, self.side)
        return [c for c in found if not kinds or self._kind(c) & set(kinds)]

    def _of(self, unit: str, kinds: tuple[str, ...]) -> list[Any]:
        key = unit.lower()
        return [c for c in self._legal(kinds) if str(getattr(c, "unit", "")).lower() == key]

    def _kind(self, command: Command) -> set[str]:
        """The kinds a command answers to: its own type, and the kernel verb that sends it."""
        if isinstance(command, Attack):
            weapon = self.state.model(command.unit).profile.weapon(command.weapon)
            verb = "melee" if weapon is not None and weapon.melee else "shoot"
            return {command.type, verb, ACTIVATE}
        if isinstance(command, Move):
            return {command.type, ACTIVATE}
        return {command.type}

    # --- units ---------------------------------------------------------------------------
    def units(self, kinds: tuple[str, ...]) -> list[Option]:
        names = {str(getattr(c, "unit", "")).lower() for c in self._legal(kinds)}
        return [
            (m.id, _model_label(m)) for m in self.state.models.values() if m.id.lower() in names
        ]

    def units_on_map(self) -> list[str]:
        return [m.id for m in self.state.models.values() if m.standing]

    # --- squares, targets, weapons ----------------------------------------------------------
    def squares(self, unit: str, kind: str, action: str) -> list[Option]:
        """Where one movement takes the model, nearest first, with its cost (rulebook Movement:
        1, 3, 5 AP for the first, second and third)."""
        model = self.state.model(unit)
        legal_ends = {c.square for c in self._of(unit, (Move.type,)) if isinstance(c, Move)}
        if action != Move.type or not legal_ends:
            return []
        cost = MOVE_COSTS[model.moves]
        ends = sorted(
            (len(path) - 1, square.y, square.x, str(square))
            for square, path in legal.moves(self.state, model).items()
            if str(square) in legal_ends
        )
        return [(name, f"{name} ({cost} AP, {steps} sq)") for steps, _, _, name in ends]

    def values(self, unit: str, kind: str, field: str) -> list[Option]:
        found = sorted({str(v) for c in self._of(unit, (kind,)) if (v := getattr(c, field, None))})
        return [(value, value) for value in found]

    def skills(self, unit: str) -> list[Option]:
        return []  # the d20 rules have no skills

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        return []

    def targets(self, unit: str, kind: str, weapon: str | None) -> list[Option]:
        """The enemies the model can attack now, with its odds of winning (no bonus dice)."""
        legal_aims = {
            c.target
            for c in self._of(unit, (kind,))
            if not weapon or str(c.weapon).casefold() == weapon.casefold()
        }
        best = _best_chances(self.state, unit)
        return [(t, _target_words(best[t]) if t in best else t) for t in sorted(legal_aims)]

    def weapons(self, unit: str, kind: str, target: str | None) -> list[Option]:
        legal_weapons = {
            c.weapon
            for c in self._of(unit, (kind,))
            if not target or c.target.casefold() == target.casefold()
        }
        model = self.state.model(unit)
        return [
            (
                w.name,
                f'{w.name} ({"melee" if w.melee else "ranged"}, {w.range}", PEN {w.penetration})',
            )
            for w in model.profile.weapons
            if w.name in legal_weapons
        ]

    def dice(self, kind: str) -> list[tuple[int, str]]:
        return []  # no roll waits for a re-roll in the d20 rules

    # --- /odds ---------------------------------------------------------------------------
    def any_targets(self, unit: str) -> list[Option]:
        return [(t, _target_words(c)) for t, c in _best_chances(self.state, unit).items()]

    def target_odds(self, name: str, target: str | None, orders: int) -> tuple[str, list[Any]]:
        raise RulesError("The d20 rules' odds are the preview's: /odds gives them.")

    def words(self, command: Command) -> str | None:
        """/act's menu in the rulebook's words: how many bonus dice and what they cost now."""
        if isinstance(command, Buy) and self.side is not None:
            seat = self.state.seats[self.side]
            cost = price(seat.bonus, command.dice)
            held = seat.bonus + command.dice
            return f"Purchase Bonus Dice: {plural(command.dice, 'die', 'dice')}, {held} held ({cost} AP)"
        if isinstance(command, Attack):
            weapon = f" with {command.weapon}" if command.weapon else ""
            bonus = (
                f", +{plural(command.bonus, 'bonus die', 'bonus dice')}" if command.bonus else ""
            )
            return f"Combat: {command.unit} at {command.target}{weapon}{bonus} ({ATTACK_COST} AP)"
        if isinstance(command, Defend):
            return f"Defend with {plural(command.dice, 'bonus die', 'bonus dice')}"
        if isinstance(command, Shift):
            to = f"to {command.square}" if command.square else "stays where it is"
            return f"Free move: {command.unit} {to}"
        if isinstance(command, EndTurn):
            return "End turn (action points left are lost)"
        return None


def _best_chances(state: State, unit: str) -> dict[str, Chance]:
    """Each target's best chance from where the model stands (none while deploying)."""
    try:
        chances = d20_preview.preview(state, unit).attacks
    except RulesError:
        return {}
    best: dict[str, Chance] = {}
    for chance in chances:
        if chance.target not in best or chance.hit > best[chance.target].hit:
            best[chance.target] = chance
    return best


def _target_words(chance: Chance) -> str:
    shown = target_label(chance.target, chance.distance, chance.cover)
    return f"{shown[:-1]}, wins {percent(chance.hit)})"


def _model_label(model: Model) -> str:
    size = "Big" if model.big else "Small"
    return f"{model.id} ({model.profile.name}, {size}, on {model.square})"
