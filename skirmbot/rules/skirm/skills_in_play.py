"""What a skill does when used (the effects of rules/skills.py), checked before anything changes.

`prepare` checks the skill's target and raises IllegalCommand with what would work; `apply`
then changes the match. An attack skill is declared like any other attack (combat.Declaration):
the engine makes it the way it makes every attack, with every check of an attack.
"""

from __future__ import annotations

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.movement import Route, reachable
from skirmbot.rules.skirm import actions, combat
from skirmbot.rules.skirm.skills import Skill
from skirmbot.rules.skirm.state import MatchState, UnitState

Prepared = UnitState | Route | combat.Declaration | None


def prepare(state: MatchState, unit: UnitState, skill: Skill, target: str | None) -> Prepared:
    """Check the skill can take effect as asked; what `apply` needs to do it."""
    if skill.effect == "heal":
        return _healed(state, unit, skill, target)
    if skill.effect == "dash":
        return _dash_route(state, unit, skill, target)
    if skill.effect == "attack":
        return _attack_declaration(unit, skill, target)
    return None  # orders: nothing to check


def unused_target(skill: Skill, target: str | None) -> str | None:
    """What is wrong with naming `target` for the skill, or None: a skill that gives orders
    takes no target (a heal, a dash and an attack do)."""
    if target is not None and skill.effect == "orders":
        return f"{skill.name} takes no target: leave out 'target'."
    return None


def unused_orders(skill: Skill, orders: int) -> str | None:
    """What is wrong with offering `orders` Tactical Orders for the skill, or None: a TO skill
    costs exactly its TO (offered or not), so any other number is not what it takes."""
    if skill.to and orders not in (0, skill.to):
        return (
            f"{skill.name} costs {skill.to} TO, Tactical Orders only: leave out 'orders' "
            f"(or give {skill.to})."
        )
    return None


def apply(
    state: MatchState, unit: UnitState, skill: Skill, prepared: UnitState | Route | None
) -> list[Event]:
    """The effect of a heal, dash or orders skill (an attack skill is made by the engine)."""
    if isinstance(prepared, UnitState):
        healed = min(skill.amount, prepared.card.hit - prepared.hit)
        prepared.hit += healed
        return [
            Event(
                "healed",
                f"{unit.name} uses {skill.name}: {prepared.name} regains {healed} HIT ({prepared.hit} now).",
                {"unit": prepared.id, "by": unit.id, "hit": healed},
            )
        ]
    if isinstance(prepared, Route):
        return [actions.do_move(state, unit, "dash", prepared)]
    squad = state.squads[unit.side]
    squad.orders += skill.amount
    return [
        Event(
            "orders_gained",
            f"{unit.name} uses {skill.name}: {squad.name} gains {skill.amount} TO ({squad.orders} now).",
            {"side": unit.side, "orders": skill.amount},
        )
    ]


def _healed(state: MatchState, unit: UnitState, skill: Skill, target: str | None) -> UnitState:
    patient = unit if target is None else state.unit(target)
    assert unit.square is not None
    if patient is not unit:
        if skill.reach < 1 or patient.side != unit.side or not patient.on_map:
            raise IllegalCommand(
                f"{skill.name} heals {'only ' + unit.name if skill.reach < 1 else 'this unit or an adjacent squadmate'}."
            )
        assert patient.square is not None
        if not adjacent(state.board, unit.square, patient.square):
            raise IllegalCommand(f"{patient.name} is not adjacent to {unit.name}.")
    if patient.hit >= patient.card.hit:
        raise IllegalCommand(f"{patient.name} has all its HIT already.")
    return patient


def _dash_route(state: MatchState, unit: UnitState, skill: Skill, target: str | None) -> Route:
    if target is None:
        raise IllegalCommand(f"{skill.name} moves {unit.name}: name the square to move to.")
    destination = state.board.parse_square(target)
    assert unit.square is not None
    mover = actions.mover_of(unit)
    options = {
        s: r
        for s, r in reachable(
            state.board, unit.square, skill.amount, mover, state.occupancy()
        ).items()
        if s != unit.square
    }
    if destination not in options:
        listed = ", ".join(str(s) for s in sorted(options, key=lambda s: (s.y, s.x))) or "nowhere"
        raise IllegalCommand(
            f"{skill.name} cannot take {unit.name} to {destination}. It can reach: {listed}."
        )
    return options[destination]


def _attack_declaration(unit: UnitState, skill: Skill, target: str | None) -> combat.Declaration:
    """The attack the skill makes: its weapon, `amount` more attack dice, and its target; after
    a comma, the further targets of a Chain Reaction or Spread weapon (like a Shoot's `also`)."""
    if target is None:
        raise IllegalCommand(f"{skill.name} is an attack: name its target.")
    assert skill.weapon is not None
    carried = unit.card.weapon(skill.weapon)
    assert carried is not None  # checked when the card was read
    weapon = combat.choose_weapon(unit, carried.kind, skill.weapon)
    first, _, further = target.partition(",")
    return combat.Declaration(
        unit,
        carried.kind,
        weapon,
        first.strip(),
        further or None,
        extra_dice=skill.amount,
        note=f"{skill.name}: +{skill.amount} attack dice",
    )
