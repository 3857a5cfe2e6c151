"""Testing Resilience, Shaken, Retreat and Rout (rulebook Testing Resilience, Shaken Groups,
Retreating, Turns 1).

Every trigger of a test runs through here: R lost (`after_losses`, once per order), Rally
(`rally`), becoming the last Group of its Company, and the Company-wide tests when its Captain's
Group is Routed or it has lost half its points (`rout`). Our rulings (docs/rulings.md, the group
rules): R lost from a failed test or a blocked Retreat triggers no further test; a Group Routed
while others test is skipped; R 0 Routs; each trigger is a test of its own.

`how` names what Routed a Group (`Group.routed_how`): the order whose losses, test or Retreat
removed it ("attack", "shoot", "hex"), or "test" (a test no order caused: Rally, the Company's),
"retreat" (a Retreat order), "conceded" (its player left: no test follows).
"""

from __future__ import annotations

from collections.abc import Sequence

from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.captains import captain_reach, mo_of, resilience_bonus
from skirmbot.rules.companies.state import Group, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.words import possessive

HOW_ATTACK, HOW_SHOOT, HOW_HEX = "attack", "shoot", "hex"
HOW_TEST, HOW_RETREAT, HOW_CONCEDED = "test", "retreat", "conceded"
ROUTED_HOW = (HOW_ATTACK, HOW_SHOOT, HOW_HEX, HOW_TEST, HOW_RETREAT, HOW_CONCEDED)
PASSED, RALLIED, RETREATS, ROUTED = "passed", "rallied", "retreat", "routed"


def points_of(group: Group) -> int:
    """What a Group counts for its Company's points: a summoned Group was fielded for none."""
    return 0 if group.summoned else group.profile.points


def points_lost(state: State, seat: int) -> int:
    return sum(points_of(g) for g in state.groups_of(seat) if g.routed)


def points_in_play(state: State, seat: int) -> int:
    return sum(points_of(g) for g in state.groups_of(seat) if g.on_table)


def under_half(state: State, seat: int) -> bool:
    """ "the Group's Company has less than half of their total points still in play"."""
    return points_in_play(state, seat) * 2 < state.seats[seat].points


def nearest_enemy(state: State, group: Group) -> Group | None:
    """The enemy Group closest to it (ties: the first in the match's order)."""
    enemies = state.enemies_of(group)
    if not group.models or not enemies:
        return None
    return min(enemies, key=lambda e: geometry.group_distance(group.models, e.models))


def _captain_modifier(state: State, group: Group) -> list[tuple[str, int]]:
    """+1 if its Company's Captain's Group is within 12" (commanding: 18"); the Captain's own
    Group counts, a Shaken Captain's does not (our rulings)."""
    captain = next((g for g in state.groups_of(group.seat) if g.captain and g.on_table), None)
    if captain is None or captain.shaken or not group.models:
        return []
    reach = captain_reach(state, captain)
    if geometry.group_distance(captain.models, group.models) > reach:
        return []
    return [(f'Captain within {reach}"', 1)]


def modifiers(state: State, group: Group, lost: int) -> list[tuple[str, int]]:
    """Testing Resilience 2: each modifier that applies to this test, as (words, value)."""
    found: list[tuple[str, int]] = []
    if lost > 0:
        found.append((f"{lost} R lost", -lost))
    if under_half(state, group.seat):
        found.append(("Company under half its points", -1))
    found += _captain_modifier(state, group)
    steady = resilience_bonus(state, group)
    if steady:
        found.append(("Steady Captain", steady))
    return found


def test_resilience(
    state: State,
    dice: Dice,
    group: Group,
    *,
    lost: int = 0,
    cause: Group | None = None,
    rallying: bool = False,
    how: str = HOW_TEST,
) -> list[Event]:
    """Roll 2d6, modify it, and meet or beat the Group's R now; a failure Retreats it from
    `cause` (None: the nearest enemy Group) and makes it Shaken (already Shaken: it loses 1 R
    instead); a result of 0 or less Routs it."""
    if not group.on_table:
        return []
    faces = [dice.roll(6), dice.roll(6)]
    found = modifiers(state, group, lost)
    total = sum(faces) + sum(value for _, value in found)
    outcome = _outcome(group, total, group.r, rallying)
    events = [_tested(group, faces, found, total, outcome)]
    if outcome == RALLIED:
        group.shaken = False
        events.append(Event("rallied", f"{group.id} is no longer Shaken.", {"unit": group.id}))
    elif outcome == ROUTED:
        events += rout(state, dice, group, cause.seat if cause is not None else None, how)
    elif outcome == RETREATS:
        events += _failed(state, dice, group, cause, how)
    return events


OUTCOME_WORDS = {
    PASSED: "holds",
    RALLIED: "rallies",
    RETREATS: "fails and Retreats",
    ROUTED: "is Routed",
}


def _tested(
    group: Group, faces: list[int], found: list[tuple[str, int]], total: int, outcome: str
) -> Event:
    return Event(
        "resilience",
        f"{group.id} tests Resilience: {faces[0]}+{faces[1]}"
        + "".join(f" {value:+d} ({text})" for text, value in found)
        + f" = {total} against R {group.r}: {OUTCOME_WORDS[outcome]}.",
        {
            "unit": group.id,
            "faces": faces,
            "modifiers": [[text, value] for text, value in found],
            "total": total,
            "needed": group.r,
            "outcome": outcome,
        },
    )


def _outcome(group: Group, total: int, needed: int, rallying: bool) -> str:
    if total >= needed:
        return RALLIED if rallying and group.shaken else PASSED
    return RETREATS if total > 0 else ROUTED


def _failed(state: State, dice: Dice, group: Group, cause: Group | None, how: str) -> list[Event]:
    """ "the Group Retreats and becomes Shaken (if already Shaken, they lose 1 R instead)"."""
    if not group.shaken:
        return retreat(state, dice, group, cause, shaken=True, how=how)
    by = cause.seat if cause is not None else None
    events = lose_r(group, 1, cause)
    if group.r <= 0:
        return events + rout(state, dice, group, by, how)
    return events + retreat(state, dice, group, cause, shaken=True, how=how)


def lose_r(group: Group, lost: int, cause: Group | None) -> list[Event]:
    """Takes `lost` R from the Group (never below 0); the r_lost event, none if it lost none."""
    lost = min(lost, group.r)
    if lost <= 0:
        return []
    group.r -= lost
    return [
        Event(
            "r_lost",
            f"{group.id} loses {lost} R ({group.r} left).",
            {"unit": group.id, "lost": lost, "r": group.r, "by": cause.id if cause else None},
        )
    ]


def after_losses(
    state: State,
    dice: Dice,
    losses: Sequence[tuple[Group, int, Group | None]],
    *,
    how: str = HOW_TEST,
) -> list[Event]:
    """ "If the target lost any R, it must Test Resilience": each Group in `losses` (in order:
    the defender first in melee) that lost R tests once with -1 per R lost, or Routs at R 0."""
    events: list[Event] = []
    for group, lost, cause in losses:
        if lost <= 0 or not group.on_table:
            continue
        if group.r <= 0:
            events += rout(state, dice, group, cause.seat if cause else None, how)
        else:
            events += test_resilience(state, dice, group, lost=lost, cause=cause, how=how)
    return events


def rally(state: State, dice: Dice, side: int) -> list[Event]:
    """Turns 1: every Shaken Group of the side tests to Rally (in the match's Group order: our
    ruling); failing, it loses 1 R and Retreats from the nearest enemy Group. A Group that
    Rallied, or tried to, may not activate this turn."""
    events: list[Event] = []
    shaken = [g for g in state.groups.values() if g.side == side and g.on_table and g.shaken]
    for group in shaken:
        if not group.on_table:
            continue  # Routed by an earlier Group's test (the Company's triggers)
        group.activated = True
        events += test_resilience(state, dice, group, rallying=True)
    return events


def retreat(
    state: State,
    dice: Dice,
    group: Group,
    cause: Group | None,
    *,
    shaken: bool,
    how: str = HOW_RETREAT,
) -> list[Event]:
    """Retreating: half its MO (rounded down) directly away from `cause` (None, or gone: the
    nearest enemy Group; no enemy left: towards its own table edge). Off the table: the whole
    Group Routs. Blocked: "roll 1d6 vs their current R; if lower, they lose R equal to the roll
    and stop moving" (R 0: Routed)."""
    by = cause.seat if cause is not None else None
    if cause is None or not cause.on_table:
        cause = nearest_enemy(state, group)
    move = retreat_move(state, group, cause)
    if move.off_table:
        return rout(state, dice, group, by, how)
    events = [_moved(group, move)] if any(len(path) > 1 for path in move.paths) else []
    group.models = list(move.models)
    if move.blocked:
        events += _blocked(group, dice.roll(6), cause)
        if group.r <= 0:
            return events + rout(state, dice, group, by, how)
    if shaken and not group.shaken:
        group.shaken = True
        events.append(Event("shaken", f"{group.id} is Shaken.", {"unit": group.id}))
    return events


def retreat_move(state: State, group: Group, cause: Group | None) -> geometry.RetreatMove:
    """Our ruling (Retreat through friends): only "terrain or enemy Groups" block a Retreat; it
    passes through friendly Groups but never ends on one, stopping short of them instead (no
    roll: nothing the rulebook names blocked it)."""
    enemies = [s for g in state.enemies_of(group) for s in g.models]
    friends = {
        s for g in state.groups.values() if g.on_table and g.side == group.side for s in g.models
    } - set(group.models)
    terrain = geometry.Terrain(state.board)
    away_from = cause.models if cause is not None else []
    # side 0 deploys along the top edge, side 1 along the bottom: with no enemy, go home
    for inches in range(mo_of(state, group) // 2, -1, -1):
        move = geometry.retreat(
            terrain, group.models, away_from, inches, enemies, enemies, home_edge=group.side
        )
        if move.off_table or not friends.intersection(move.models):
            return move
    raise AssertionError("a Retreat of 0 inches ends where the Group stands")


def _moved(group: Group, move: geometry.RetreatMove) -> Event:
    path = list(move.paths[0])
    return Event(
        "moved",
        f"{group.id} Retreats to {move.models[0]}.",
        {
            "unit": group.id,
            "path": [str(s) for s in path],
            "cost": max(len(path) - 1, 0),
            "action": "retreat",
            "paths": [[str(s) for s in p] for p in move.paths],
        },
    )


def _blocked(group: Group, face: int, cause: Group | None) -> list[Event]:
    """The blocked Retreat's roll: lower than R now loses that much R (no test follows)."""
    lower = face < group.r
    event = Event(
        "retreat_blocked",
        f"{possessive(group.id)} Retreat is blocked: rolls {face} against R {group.r}"
        + (f", lower: loses {face} R." if lower else ", not lower: it stops."),
        {"unit": group.id, "faces": [face], "needed": group.r, "lost": face if lower else 0},
    )
    return [event] + (lose_r(group, face, cause) if lower else [])


def rout(state: State, dice: Dice, group: Group, by: int | None, how: str) -> list[Event]:
    """Removes the Group from play (Routed); then, unless its player conceded, the tests its
    Rout triggers in its Company (Testing Resilience: the Captain's Group Routed, half the
    points lost, the last Group)."""
    if group.routed:
        return []
    group.models = []
    group.routed = True
    group.routed_by = by
    group.routed_how = how
    state.reckless = [name for name in state.reckless if name.lower() != group.id.lower()]
    events = [
        Event(
            "routed",
            f"{group.id} is Routed and removed from play.",
            {"unit": group.id, "side": group.seat, "by": by, "reason": how},
        )
    ]
    if how == HOW_CONCEDED:
        return events
    return events + _company_tests(state, dice, group)


def _company_tests(state: State, dice: Dice, routed: Group) -> list[Event]:
    seat = state.seats[routed.seat]
    left = [g for g in state.groups_of(routed.seat) if g.on_table]
    events: list[Event] = []
    if routed.captain:
        events += _test_each(state, dice, left)
    if not seat.halved and points_lost(state, routed.seat) * 2 >= seat.points > 0:
        seat.halved = True
        events += _test_each(state, dice, left)
    if len(left) == 1:  # it became the last Group by this Rout (not by one during these tests)
        events += test_resilience(state, dice, left[0])
    return events


def _test_each(state: State, dice: Dice, groups: list[Group]) -> list[Event]:
    events: list[Event] = []
    for group in groups:
        events += test_resilience(state, dice, group)  # a Group Routed meanwhile is skipped
    return events
