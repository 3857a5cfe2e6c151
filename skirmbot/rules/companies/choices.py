"""Autocomplete's options in a match of the group rules, as one seat sees it (`Ruleset.choices`):
the values of its legal commands (`legal.legal_commands`), labelled in the rulebook's words. A
square says how far the Group's first model walks in inches ("C5 (4\")"), a target how far it
is and whether it is in Cover, with the R its pool is expected to take ("Knights (9\", in
Cover, 0.8 R)"), and /act's menu gives each order with its activation test ("Retreat: Spearmen
(2d6 ≥ 6)").

The cogs ask by the kernel's verbs: /move's squares are Moves of the whole Group keeping its
shape, /shoot's and /melee's targets are Shoot and Attack orders. A Group has no weapons, skills
or re-rolls to choose.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from skirmbot.rules.commands import Command, Melee, Shoot
from skirmbot.rules.companies import legal, orders
from skirmbot.rules.companies import preview as odds
from skirmbot.rules.companies.captains import activation_minimum
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    Summon,
)
from skirmbot.rules.companies.engine import ORDER_WORDS
from skirmbot.rules.companies.profiles import ATTACK, CAST, MOVE, RETREAT, SHOOT, SUMMON
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.errors import RulesError
from skirmbot.rules.preview import Chance
from skirmbot.rules.ruleset import Option
from skirmbot.rules.squares import Square

ACTIVATE = "activate"  # the kernel's verb: a Group activates by the order it is given
# Each command's order (its activation test's minimum) by its type.
ORDER_OF = {
    Move.type: MOVE, Shoot.type: SHOOT, Melee.type: ATTACK, Retreat.type: RETREAT,
    Cast.type: CAST, Summon.type: SUMMON,
}  # fmt: skip


@dataclass(frozen=True)
class CompaniesChoices:
    """The options of one match for `side` - a seat (None: a watcher, offered no command)."""

    state: State
    side: int | None

    @cached_property
    def _legal(self) -> list[Command]:
        return [] if self.side is None else legal.legal_commands(self.state, self.side)

    def _of(self, unit: str, kinds: tuple[str, ...]) -> list[Any]:
        key = unit.lower()
        return [
            c
            for c in self._legal
            if str(getattr(c, "unit", "")).lower() == key and _kinds(c) & set(kinds)
        ]

    # --- the unit an option is about -------------------------------------------------------
    def named(self, name: str) -> str:
        return self.state.group(name).id

    def unit(self, name: str | None) -> str | None:
        """The Group named; with none named, the attacker whose Attack waits for an answer."""
        if name:
            found = self.state.groups.get(name.lower())
            return found.id if found is not None else None
        return self.state.pending.attacker if self.state.pending is not None else None

    def side_of(self, unit: str) -> int:
        return self.state.group(unit).seat

    def units(self, kinds: tuple[str, ...]) -> list[Option]:
        names = {str(getattr(c, "unit", "")).lower() for c in self._legal if _kinds(c) & set(kinds)}
        return [(g.id, group_label(g)) for g in self.state.groups.values() if g.id.lower() in names]

    def units_on_map(self) -> list[str]:
        return [g.id for g in self.state.groups.values() if g.on_table]

    # --- squares, targets ------------------------------------------------------------------
    def squares(self, unit: str, kind: str, action: str) -> list[Option]:
        """A Move's squares for the Group's first model, nearest first, with the inches it
        walks; a Summon's squares, nearest the summoner first."""
        group = self.state.group(unit)
        if kind == Summon.type:
            places = {c.square for c in self._of(unit, (Summon.type,))}
            spots = [s for s in orders.summon_squares(self.state, group) if str(s) in places]
            return [(str(s), str(s)) for s in _nearest(group, spots)]
        legal_ends = {c.square for c in self._of(unit, (Move.type,))}
        if action != Move.type or not legal_ends:
            return []
        routes = orders.move_routes(self.state, group)
        ends = sorted(
            (cost, square.y, square.x, str(square))
            for square, (cost, _) in routes.items()
            if str(square) in legal_ends
        )
        return [(name, f'{name} ({cost}")') for cost, _, _, name in ends]

    def values(self, unit: str, kind: str, field: str) -> list[Option]:
        found = sorted({str(v) for c in self._of(unit, (kind,)) if (v := getattr(c, field, None))})
        return [(value, value) for value in found]

    def skills(self, unit: str) -> list[Option]:
        return []  # Groups have traits, not skills: the orders name them (Cast, Summon)

    def skill_targets(self, unit: str, skill: str) -> list[Option]:
        return []

    def targets(self, unit: str, kind: str, weapon: str | None) -> list[Option]:
        """The enemy Groups the Group may give an order of `kind` at now, each with how far,
        Cover, and the R its pool is expected to take."""
        aims = [str(c.target) for c in self._of(unit, (kind,)) if getattr(c, "target", None)]
        word = {Shoot.type: odds.SHOOT_WORD, Melee.type: odds.ATTACK_WORD}.get(kind, odds.CAST_WORD)
        known = {c.target: c for c in self._chances(unit) if c.weapon == word}
        return [(t, target_words(known[t]) if t in known else t) for t in dict.fromkeys(aims)]

    def weapons(self, unit: str, kind: str, target: str | None) -> list[Option]:
        return []  # a Group fights with its profile (MI, ME): no weapon to choose

    def dice(self, kind: str) -> list[tuple[int, str]]:
        return []  # no roll waits for a re-roll under the group rules

    def any_targets(self, unit: str) -> list[Option]:
        return [(c.target, target_words(c)) for c in self._chances(unit)]

    def target_odds(self, name: str, target: str | None, orders: int) -> tuple[str, list[Any]]:
        raise RulesError("The group rules' odds are the preview's: /odds gives them.")

    def _chances(self, unit: str) -> tuple[Chance, ...]:
        group = self.state.groups.get(unit.lower())
        if group is None or not group.on_table or self.state.round == 0:
            return ()
        return odds.chances(self.state, group)

    # --- /act ----------------------------------------------------------------------------
    def words(self, command: Command) -> str | None:
        """A command in the rulebook's words, with its activation test: "Retreat: Spearmen
        (2d6 ≥ 6)", "Interrupt: test Defiant (8+)", "Ambition: Glory - 2 VP if ..."."""
        state = self.state
        if isinstance(command, ChooseAmbition):
            ambition = state.catalogue.ambitions[command.ambition]
            condition = ambition.text.rstrip(".")
            return f"Ambition: {ambition.name} - {ambition.vp} VP if {condition[:1].lower()}{condition[1:]}"
        if isinstance(command, EndTurn):
            return "End turn"
        if isinstance(command, Interrupt):
            return _interrupt_words(state, command)
        order = ORDER_OF.get(command.type)
        unit = getattr(command, "unit", None)
        if order is None or unit is None:
            return None
        group = state.group(unit)
        test = f"(2d6 ≥ {activation_minimum(state, group, order)})"
        title = ORDER_WORDS[order]
        target = getattr(command, "target", None)
        square = getattr(command, "square", None)
        if target:
            return f"{title}: {group.id} at {target} {test}"
        if square:
            return f"{title}: {group.id} {'to ' if order == MOVE else 'at '}{square} {test}"
        return f"{title}: {group.id} {test}"


def _kinds(command: Command) -> set[str]:
    """The kinds a command answers to: its own type, and the kernel verb that sends it."""
    if command.type in ORDER_OF:
        return {command.type, ACTIVATE}
    return {command.type}


def _interrupt_words(state: State, command: Interrupt) -> str:
    pending = state.pending
    if not command.use or pending is None:
        return "Stand (no interrupt)"
    trait = state.catalogue.traits[pending.trait]
    return f"Interrupt: test {trait.name} ({trait.minimum}+)"


def _nearest(group: Group, squares: list[Square]) -> list[Square]:
    return sorted(squares, key=lambda s: (min(s.distance(m) for m in group.models), s.y, s.x))


def group_label(group: Group) -> str:
    """A Group as autocomplete names it: "Spearmen (Spearmen, 3 models, R 5/6, at C3)"."""
    count = len(group.models)
    states = [word for word, on in (("Shaken", group.shaken), ("Bloodied", group.bloodied)) if on]
    where = f"at {group.models[0]}" if group.models else "off the table"
    extra = f", {', '.join(states)}" if states else ""
    models = f"{count} model{'s' if count != 1 else ''}"
    return f"{group.id} ({group.profile.name}, {models}, R {group.r}/{group.profile.r}{extra}, {where})"


def target_words(chance: Chance) -> str:
    """A target as autocomplete lists it: 'Knights (9", in Cover, 0.8 R)'."""
    cover = ", in Cover" if chance.cover else ""
    return f'{chance.target} ({chance.distance}"{cover}, {float(chance.damage):.1f} R)'
