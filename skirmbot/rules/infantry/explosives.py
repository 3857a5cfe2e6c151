"""Explosives in the match (rulebook 002: Explosives ¶1-¶7): throwing one, and its token's
resolution at the end of its side's turn. The arithmetic and dice are `blast`'s; this module
asks the map the two questions `blast` needs and checks a throw before anything changes.

Our rulings (docs/plans/infantry.md §2): a throw at a dot on the thrower's level needs sight to
that dot (its cover counts: "resolved in the same way as ranged combat"); a throw up or down
stairs or a ladder does not (the rulebook names its own condition), and its target is the stair
or ladder dot at the other level. A throw at the thrower's own dot is refused (it costs 0 AP).
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Dot, Edge, line
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import blast
from skirmbot.rules.infantry.arcs import body, combat_modifier, others
from skirmbot.rules.infantry.arms import GRENADE, Explosive
from skirmbot.rules.infantry.maps import DotMap, Feature, Ground
from skirmbot.rules.infantry.sight import Body, sight
from skirmbot.rules.infantry.state import State, Thrown, Trooper
from skirmbot.rules.infantry.wounds import hurt


@dataclass(frozen=True)
class Plan:
    """A throw checked and priced: its AP and the token it places."""

    ap: int
    token: blast.Token


def active_explosive(state: State, trooper: Trooper) -> Explosive:
    """The explosive the trooper has active and still carries (Explosives ¶1: "must be the
    trooper's current active weapon"); IllegalCommand otherwise."""
    if trooper.active not in state.arms.explosives:
        raise IllegalCommand(
            f"{trooper.id}'s active weapon is its {trooper.active}: change to an explosive "
            "first (3 AP)."
        )
    if trooper.active == GRENADE and trooper.grenades == 0:
        raise IllegalCommand(f"{trooper.id} has no hand grenades left.")
    if trooper.active != GRENADE and trooper.secondary != trooper.active:
        raise IllegalCommand(f"{trooper.id} no longer carries a {trooper.active}.")
    return state.arms.explosive(trooper.active)


def plan_throw(state: State, trooper: Trooper, target: Dot, level: int | None) -> Plan:
    """The throw's AP and token, or IllegalCommand in words (nothing changes)."""
    explosive = active_explosive(state, trooper)
    assert trooper.dot is not None
    if not state.board.on_map(target):
        raise IllegalCommand(f"{target} is not on the map.")
    if level is None or level == trooper.level:
        return _level_throw(state, trooper, explosive, target)
    return _stairs_throw(state, trooper, explosive, target, level)


def _level_throw(state: State, trooper: Trooper, explosive: Explosive, target: Dot) -> Plan:
    assert trooper.dot is not None
    if target == trooper.dot:
        raise IllegalCommand(f"{trooper.id} cannot throw at its own dot.")
    if not state.board.has_level(target, trooper.level):
        raise IllegalCommand(f"{target} has no floor at level {trooper.level} to throw onto.")
    seen = sight(
        state.board,
        body(trooper),
        Body(target, trooper.level, False),
        others(state, trooper),
    )
    if not seen.clear:
        raise IllegalCommand(f"{trooper.id} cannot see {target} to throw at it.")
    ap = blast.throw_ap(trooper.dot.distance(target), explosive.ap_per_dot, trooper.prone)
    number = blast.throw_target_number(
        ap_used=ap,
        damage_modifier=combat_modifier(trooper),
        cover=seen.cover,
        thrower_prone=trooper.prone,
    )
    start = blast.scatter_start(trooper.dot, target, _windows(state.board, trooper.level))
    return Plan(ap, blast.Token(target, trooper.level, start, number, _values(explosive)))


def _stairs_throw(
    state: State, trooper: Trooper, explosive: Explosive, target: Dot, level: int
) -> Plan:
    assert trooper.dot is not None
    board = state.board
    if board.ground(target) not in (Ground.STAIRS, Ground.LADDER) or not board.has_level(
        target, level
    ):
        raise IllegalCommand(
            f"A throw to level {level} goes to a stairwell or ladder dot with that level; "
            f"{target} is not one."
        )
    on, beside = target == trooper.dot, target.distance(trooper.dot) == 1
    if not blast.level_throw_allowed(level - trooper.level, on, beside):
        raise IllegalCommand(
            "Explosives go down stairs or a ladder any number of levels (from on or beside "
            "them) or up one level (standing on them)."
        )
    ap = blast.level_throw_ap(trooper.prone)
    number = blast.throw_target_number(
        ap_used=ap,
        damage_modifier=combat_modifier(trooper),
        cover=0,
        thrower_prone=trooper.prone,
    )
    return Plan(ap, blast.Token(target, level, target, number, _values(explosive)))


def _values(explosive: Explosive) -> tuple[int, int, int]:
    near, next_, far = explosive.blast
    return near, next_, far


def _windows(board: DotMap, level: int) -> list[Edge]:
    return [
        side
        for (side, at), kind in board.features.items()
        if at == level and kind is Feature.WINDOW
    ]


# --- resolution at the end of the turn ---------------------------------------------------------


def resolve(state: State, dice: Dice, seat: int) -> list[Event]:
    """Every token `seat` placed this turn, in throw order (Explosives ¶3)."""
    events: list[Event] = []
    mine = [thrown for thrown in state.tokens if thrown.seat == seat]
    state.tokens = [thrown for thrown in state.tokens if thrown.seat != seat]
    for thrown in mine:
        events += _explode(state, dice, thrown)
    return events


def _explode(state: State, dice: Dice, thrown: Thrown) -> list[Event]:
    token = thrown.token
    exposed = [
        blast.Exposed(t.id, t.dot, t.level, t.prone or not t.able)
        for t in state.troopers
        if t.dot is not None and not t.dead
    ]
    board = state.board
    result = blast.explode(
        dice,
        token,
        exposed,
        lambda a, b: _barred(board, token.level, a, b),
        lambda a, b: _between(board, token.level, a, b),
    )
    verdict = "on target" if result.hit else "off target"
    events = [
        Event(
            "token_resolved",
            f"{thrown.thrower}'s {thrown.weapon} at {token.target}: {result.roll} against "
            f"{token.target_number}+, {verdict}.",
            {
                "unit": thrown.thrower,
                "weapon": thrown.weapon,
                "target": str(token.target),
                "level": token.level,
                "roll": result.roll,
                "tn": token.target_number,
                "hit": result.hit,
                "centre": str(result.centre),
            },
        )  # fmt: skip
    ]
    if result.scatter is not None:
        moved = result.scatter
        events.append(
            Event(
                "scatter",
                f"It scatters ({moved.roll}) from {token.start} and lands on {moved.centre}.",
                {
                    "unit": thrown.thrower,
                    "roll": moved.roll,
                    "direction": int(moved.direction),
                    "from": str(token.start),
                    "to": str(moved.centre),
                },
            )  # fmt: skip
        )
    events.append(
        Event(
            "blast",
            f"The {thrown.weapon} explodes on {result.centre}.",
            {"unit": thrown.thrower, "from": str(token.target), "square": str(result.centre)},
        )
    )
    thrower = state.trooper(thrown.thrower)
    for hit in result.hits:
        victim = state.trooper(hit.name)
        if victim.dead:
            continue
        events += hurt(
            state,
            victim,
            (hit.lethal, 0),
            hit.damage_roll,
            by=thrower,
            weapon=thrown.weapon,
            kind="blast",
        )
    return events


def _barred(board: DotMap, level: int, a: Dot, b: Dot) -> bool:
    """A scatter step meets an impassable obstacle: the map's edge, an impassable dot, a high
    wall on the side at the blast's level."""
    return not board.on_map(b) or board.impassable(b) or board.feature(a, b, level) is Feature.WALL


def _between(board: DotMap, level: int, centre: Dot, dot: Dot) -> frozenset[str]:
    """The kinds of obstacle on the line from the blast's centre to a trooper's dot, at the
    blast's level: the sides' features, and "impassable" for a tree or rock between."""
    drawn = line(centre, dot)
    kinds = {
        str(kind)
        for side in drawn.edges
        for at, kind in board.features_on(side).items()
        if at == level
    }
    if any(board.impassable(d) for d in drawn.dots - {centre, dot}):
        kinds.add("impassable")
    return frozenset(kinds)
