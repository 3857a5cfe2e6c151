"""What a player may choose now, for autocomplete: `(value, label)` pairs worked out by the
match's ruleset (`Ruleset.choices`: the values of its legal commands, labelled in its words).

The cogs show these choices and never decide what is legal: a `Situation` is the live match as
one player sees it (`MatchService.situation`), and each method answers one option of one slash
command. Units are named by their id. Discord's limits (25 choices, 100 characters) are the
cogs' business, not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from skirmbot.dice.hand import hand_rules
from skirmbot.dice.odds import format_target_odds
from skirmbot.rules.commands import Command
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import Chance
from skirmbot.rules.ruleset import HAND_ODDS, Choices, Option, Ruleset
from skirmbot.service.actions import encode
from skirmbot.service.errors import ServiceError
from skirmbot.words import possessive, shown, target_label

__all__ = ["Option", "Situation", "command_words"]

Kind = str | type[Command]  # a command's type ("shoot"), or its class


@dataclass(frozen=True)
class Situation:
    """The live match, and the side of the player asking (None: not one of its players)."""

    state: Any  # the ruleset's own: passed back to it whole, never read here
    side: int | None
    rules: Ruleset

    @cached_property
    def _choices(self) -> Choices:
        return self.rules.choices(self.state, self.side)

    # --- the unit an option is about -------------------------------------------------------
    def unit(self, name: object = None) -> str | None:
        """The unit named in the command's `unit` option, else the one activating."""
        return self._choices.unit(str(name) if name else None)

    def side_of(self, unit: str) -> int:
        return self._choices.side_of(unit)

    def _legal(self) -> list[Command]:
        return [] if self.side is None else self.rules.legal_commands(self.state, self.side)

    # --- units ---------------------------------------------------------------------------
    def units(self, *kinds: Kind) -> list[Option]:
        """The asker's units that can do one of `kinds` now (Activate: the ready units)."""
        return self._choices.units(tuple(_kind(kind) for kind in kinds))

    # --- squares, targets, weapons, ... ---------------------------------------------------
    def squares(self, unit: str, kind: Kind, action: str) -> list[Option]:
        """Squares the unit can end its Move/Dash on, cheapest first: "C4 (2)"."""
        return self._choices.squares(unit, _kind(kind), action)

    def leaps(self, unit: str) -> list[Option]:
        """Squares the unit can Leap to (LPx)."""
        return self._choices.values(unit, "leap", "square")

    def mission_actions(self, unit: str) -> list[Option]:
        """The mission actions the unit can perform now."""
        return self._choices.values(unit, "mission", "action")

    def skills(self, unit: str) -> list[Option]:
        """The unit's skills that can be used now: "Field Dressing (1 ACT): regain 2 HIT ..."."""
        return self._choices.skills(unit)

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        """What the chosen skill can be aimed at: a unit or a square."""
        return self._choices.skill_targets(unit, skill)

    def targets(self, unit: str, kind: Kind, weapon: object = None) -> list[Option]:
        """What the unit can attack now (with `weapon`, if one is chosen): "Vex (5 sq, in
        cover)"."""
        return self._choices.targets(unit, _kind(kind), str(weapon) if weapon else None)

    def weapons(self, unit: str, kind: Kind, target: object = None) -> list[Option]:
        """The weapons the unit can attack with now (at `target`, if one is chosen)."""
        return self._choices.weapons(unit, _kind(kind), str(target) if target else None)

    def own_values(self, unit: str, kind: str, field: str) -> list[Option]:
        """What a field of the ruleset's own command of `kind` may hold for the unit, labelled
        (an infantry arc's widths, dots to face, orders; a throw's dots): none in a ruleset
        without such a command."""
        if kind not in self.rules.command_types:
            return []
        return self._choices.values(unit, kind, field)

    def doors(self, unit: str) -> list[Option]:
        return self._choices.values(unit, "door", "toward")

    def crate_options(self, unit: str) -> list[Option]:
        return self._choices.values(unit, "crate", "option")

    def turret_targets(self, unit: str) -> list[Option]:
        return self._choices.values(unit, "turret", "target")

    def dice(self, kind: Kind) -> list[tuple[int, str]]:
        """The dice of the roll waiting for a decision that can be re-rolled (or changed)."""
        return self._choices.dice(_kind(kind))

    # --- the ruleset's own actions ---------------------------------------------------------
    def own_actions(self, covered: set[str], unit: object = None) -> list[Option]:
        """The legal actions whose kind no slash command of its own sends (`covered`: the
        kinds that have one), as (their compact form, words): how a ruleset's own actions,
        such as Skirm Lite's Revive, are reached (/act). Those of `unit` only, if named."""
        found = self.unit(unit) if unit else None
        return [
            (encode(command), self._choices.words(command) or command_words(self.rules, command))
            for command in self._legal()
            if command.type not in covered
            and (found is None or getattr(command, "unit", None) == found)
        ]

    # --- /deploy ---------------------------------------------------------------------------
    def placement_help(self) -> str:
        """Where the asker's units may be placed in the set-up stage, in the ruleset's words."""
        return "" if self.side is None else self.rules.placement_help(self.state, self.side)

    def placements(self) -> list[Option]:
        """A whole deployment for the asker, as /deploy reads it ("Halden C2, Brann D2"): the
        one the automatic player would make, to take as it is or to start from."""
        if self.side is None:
            return []
        placed = getattr(self.rules.automatic_placement(self.state, self.side), "placements", {})
        text = ", ".join(f"{unit} {square}" for unit, square in placed.items())
        return [(text, text)] if text else []

    # --- /odds ---------------------------------------------------------------------------
    def units_on_map(self) -> list[str]:
        return self._choices.units_on_map()

    def any_targets(self, name: str) -> list[Option]:
        """Everything the unit could attack with any of its weapons (enemy units, barrels,
        turrets), whoever asks."""
        attacker = self.unit(name)
        if attacker is None:
            return []
        if self.rules.exact_odds:
            return self._choices.any_targets(attacker)
        try:
            found = _one_per_target(self._previewed(attacker))
        except RulesError:  # Downed, or still placed in secret: nothing to attack
            return []
        return [(c.target, target_label(c.target, c.distance, c.cover)) for c in found]

    def odds(self, name: str, target: str | None, orders: int, detail: bool) -> str:
        """The odds of the unit's attacks (on `target`, if named), as /odds shows them."""
        if not self.rules.exact_odds:
            return self._preview_odds(name, target)
        try:
            attacker, listed = self._choices.target_odds(name, target, orders)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        if target is not None and not listed:
            raise _cannot_attack(attacker, target)
        return format_target_odds(attacker, listed, detail=detail)

    def _preview_odds(self, name: str, target: str | None) -> str:
        """/odds in a ruleset whose attacks only its preview works out (Skirm Lite): the
        preview's own numbers, so the two never disagree."""
        try:
            attacker = self._choices.named(name)
            aimed = self._choices.named(target) if target else None
            shown = self.rules.preview(self.state, attacker)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        listed = [c for c in shown.attacks if aimed is None or c.target == aimed]
        if target is not None and not listed:
            raise _cannot_attack(attacker, target)
        head = (
            f"**{possessive(attacker)} targets** ({self.rules.title}, as the preview works them out"
        )
        if any(chance.opposed for chance in listed):
            what = "the exact chance to win the opposed roll, by the bonus dice you add"
        else:
            what = shown.terms.odds
        lines = [f"{head}; {what}):"]
        lines += [f"- {chance.words()}" for chance in listed] or ["- no enemy in reach"]
        return "\n".join(lines)

    def _previewed(self, attacker: str) -> tuple[Chance, ...]:
        """The attacks the ruleset's preview works out for the unit where it stands."""
        return self.rules.preview(self.state, attacker).attacks

    def by_hand_note(self) -> str:
        """What /odds by hand adds in this match: nothing where they are its rules' odds."""
        if HAND_ODDS in self.rules.features:
            return ""
        hand = hand_rules().title
        return (
            f"These are {hand}'s odds: /odds by hand knows only {hand}'s combat. For "
            f"{self.rules.title}'s odds in this match, give unit (and target) instead."
        )


def command_words(rules: Ruleset, command: Command) -> str:
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


def _kind(kind: Kind) -> str:
    return kind if isinstance(kind, str) else kind.type


def _cannot_attack(attacker: str, target: str) -> ServiceError:
    return ServiceError(
        f"{attacker} cannot attack '{shown(target)}' now; leave target empty to "
        "list what it can attack."
    )


def _one_per_target(chances: tuple[Chance, ...]) -> list[Chance]:
    """The first chance against each target (each weapon has one), in the preview's order."""
    first: dict[str, Chance] = {}
    for chance in chances:
        first.setdefault(chance.target, chance)
    return list(first.values())
