"""Firing arcs in the match (rulebook 002: Firing Arcs, Resolving Fire ¶1-¶10; plan section 3).

An arc holds the dots `dots.in_arc` gives from its vertex (every level of them: the level
matters through sight, Line of Sight ¶3). An enemy trooper that activates in an arc, moves into
it, climbs within it or stands up in it gives the arc's owner a *chance*: one shot (our ruling)
if it can see the trooper within its weapon's long range, the arc has shots left, its owner is
able and has not already attacked the trooper on its present position (Resolving Fire ¶2).
Chances come oldest arc first (our ruling: a fixed order, so replays agree), and only in the
other side's turn (Resolving Fire ¶1: the mover's side is the side whose turn it is).

Unasked, an arc fires by its order: "every" chance while shots last; "first" N: only at the
first N enemy troopers it shoots at (each of them at every chance); "short": only within its
weapon's short range (no +2); "hold": never. The last shot removes the arc (¶10).
"""

from __future__ import annotations

from dataclasses import replace

from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Dot, bearing, in_arc
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import combat
from skirmbot.rules.infantry.arms import Weapon
from skirmbot.rules.infantry.card import damage_modifier
from skirmbot.rules.infantry.sight import Body, sight
from skirmbot.rules.infantry.state import EVERY, FIRST, HOLD, SHORT, Arc, State, Trooper
from skirmbot.rules.infantry.wounds import drop_arc, hurt

# The Firing Arc AP Costs table: degrees -> AP (its shots are combat.ARC_BASE_SHOTS).
ARC_AP: dict[int, int] = {30: 2, 60: 4, 150: 6}


def shots_words(shots: int) -> str:
    """An arc's shots in words: "1 shot", "4 shots"."""
    return f"{shots} shot{'s' if shots != 1 else ''}"


def order_words(arc: Arc) -> str:
    """The arc's order as a player writes it: "every", "first 2", "short", "hold"."""
    return f"first {arc.n}" if arc.order == FIRST else arc.order


def body(trooper: Trooper) -> Body:
    """Where a trooper is, as sight reads it (the dead and unconscious lie prone)."""
    assert trooper.dot is not None, "only a deployed trooper is seen"
    return Body(trooper.dot, trooper.level, trooper.prone or not trooper.able)


def others(state: State, *besides: Trooper) -> list[Body]:
    """Every trooper on the map but `besides`: they give cover between (LoS ¶1)."""
    ids = {t.id for t in besides}
    return [body(t) for t in state.troopers if t.on_map and t.id not in ids]


def new_arc(
    state: State, trooper: Trooper, width: int, toward: Dot | float, order: str, n: int
) -> Arc:
    """The arc `trooper` would establish now with its active weapon, facing the dot `toward`
    (its bearing from the vertex) or `toward` degrees (checked by the engine)."""
    assert trooper.dot is not None
    weapon = state.arms.weapon(trooper.active)
    facing = bearing(trooper.dot, toward) if isinstance(toward, Dot) else float(toward) % 360
    return Arc(
        owner=trooper.id,
        vertex=trooper.dot,
        level=trooper.level,
        facing=facing,
        width=width,
        weapon=weapon.name,
        shots_left=combat.arc_shots(width, weapon.shots),
        order=order,
        n=n,
    )


def covers(arc: Arc, dot: Dot) -> bool:
    """Whether the dot lies in the arc (Firing Arcs ¶1: closed edges, not the vertex)."""
    return in_arc(arc.vertex, arc.facing, arc.width, dot)


def target_number(state: State, arc: Arc, target: Trooper) -> int | None:
    """The 2D6 number the arc's owner needs to hit `target` where it is, or None when it has no
    shot: out of the arc, out of sight, or beyond the weapon's long range."""
    owner = state.trooper(arc.owner)
    if target.dot is None or not covers(arc, target.dot):
        return None
    firer = Body(arc.vertex, arc.level, owner.prone)
    seen = sight(state.board, firer, body(target), others(state, owner, target))
    if not seen.clear:
        return None
    weapon = state.arms.weapon(arc.weapon)
    return combat.fire_target_number(
        distance=arc.vertex.distance(target.dot),
        short=weapon.short,
        long=weapon.long if weapon.long is not None else weapon.short,
        damage_modifier=combat_modifier(owner),
        cover=seen.cover,
        firer_prone=owner.prone,
        target_prone=target.prone,
    )


def combat_modifier(trooper: Trooper) -> int:
    """The damage modifier its card adds to every target number it rolls (Unit Card ¶5)."""
    return damage_modifier(trooper.track)


def chances_at(state: State, trooper: Trooper) -> list[Arc]:
    """The arcs that get a chance at `trooper` on its present position, oldest first."""
    if not trooper.able or trooper.dot is None:
        return []
    return [arc for arc in state.arcs if _has_chance(state, arc, trooper)]


def _has_chance(state: State, arc: Arc, trooper: Trooper) -> bool:
    owner = state.trooper(arc.owner)
    return (
        owner.seat != trooper.seat
        and owner.seat != state.to_act  # Resolving Fire ¶1: in the enemy's turn only
        and owner.able
        and arc.shots_left > 0
        and owner.id not in trooper.attacked_here
        and target_number(state, arc, trooper) is not None
    )


def wants(state: State, arc: Arc, trooper: Trooper) -> bool:
    """Whether the arc fires at this chance by its own order (no one asked)."""
    if arc.order == EVERY:
        return True
    if arc.order == FIRST:
        return trooper.id in arc.fired_at or len(arc.fired_at) < arc.n
    if arc.order == SHORT:
        assert trooper.dot is not None
        return arc.vertex.distance(trooper.dot) <= _weapon(state, arc).short
    assert arc.order == HOLD
    return False


def _weapon(state: State, arc: Arc) -> Weapon:
    return state.arms.weapon(arc.weapon)


def shoot(state: State, dice: Dice, arc: Arc, target: Trooper) -> list[Event]:
    """One shot of the arc at `target` (Resolving Fire ¶3-¶10): the 2D6 check, on a hit the 2D6
    naming the first cell and the damage; the arc loses a shot and goes with its last."""
    owner = state.trooper(arc.owner)
    number = target_number(state, arc, target)
    assert number is not None and target.dot is not None, "a shot needs a chance"
    weapon = _weapon(state, arc)
    rolled = combat.attack(dice, number)
    verdict = "hits" if rolled.hit else "misses"
    events = [
        Event(
            "attack",
            f"{owner.id} fires its {weapon.name} at {target.id} on {target.dot}: "
            f"{rolled.roll} against {number}+, {verdict}.",
            {
                "attacker": owner.id,
                "target": target.id,
                "weapon": weapon.name,
                "kind": "ranged",
                "from": str(arc.vertex),
                "to": str(target.dot),
                "roll": rolled.roll,
                "tn": number,
                "hit": rolled.hit,
                "distance": arc.vertex.distance(target.dot),
            },
        )  # fmt: skip
    ]
    spent = replace(
        arc,
        shots_left=arc.shots_left - 1,
        fired_at=arc.fired_at if target.id in arc.fired_at else (*arc.fired_at, target.id),
    )
    state.arcs[state.arcs.index(arc)] = spent
    target.attacked_here = (*target.attacked_here, owner.id)
    if rolled.damage_roll is not None:
        damage = weapon.damage(owner.max_ap)
        events += hurt(
            state, target, damage, rolled.damage_roll, by=owner, weapon=weapon.name, kind="ranged"
        )
    if spent.shots_left == 0 and spent in state.arcs:
        events += drop_arc(state, owner.id, "its last shot is fired")
    return events
