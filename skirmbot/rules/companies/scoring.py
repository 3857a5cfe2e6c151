"""Victory Points and the end of the game (rulebook End of Game: "total VP according to the
scenario guidelines to determine the winning side"; the scenarios and ambitions are our content,
docs/rulings.md, the group rules: Scenarios and Ambitions).

VP belong to sides. `state.vp` holds what was scored during play (objectives, each round); the
rest is counted at the end (`_final`): Routed enemy Groups, breakthrough, each seat's ambition.
`scores` is that count as if the game ended now. Our rulings: the higher side wins, equal VP is a
draw; a side whose every seat conceded loses whatever the VP; a conceding Company's Groups count
as Routed for the scenario's VP but for no ambition; a conceded seat's ambition scores nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.resilience import HOW_ATTACK, HOW_CONCEDED, points_of
from skirmbot.rules.companies.scenarios import BREAKTHROUGH, OBJECTIVES, ROUTED
from skirmbot.rules.companies.state import SIDES, Group, State
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

GLORY, REGICIDE, UNBROKEN, GROUND = "glory", "regicide", "unbroken", "ground"
AMBITIONS = (GLORY, REGICIDE, UNBROKEN, GROUND)
REACH = 3  # inches: "within 3"" of an objective, the enemy's table edge, the centre


def _near(models: list[Square], squares: list[Square]) -> bool:
    return any(geometry.distance(m, s) <= REACH for m in models for s in squares)


def end_of_round(state: State) -> list[Event]:
    """A round is done: each objective one side alone has a model within 3" of scores that
    side the scenario's `vp` (scoring kind `objectives`)."""
    state.rounds_done += 1
    events: list[Event] = []
    for scoring in state.scenario.scoring:
        if scoring.kind != OBJECTIVES:
            continue
        for objective in state.objectives:
            side = holder(state, objective)
            if side is not None:
                state.vp[side] += scoring.vp
                events.append(_scored(state, side, scoring.vp, OBJECTIVES, f"{objective} held"))
    return events


def holder(state: State, objective: Square) -> int | None:
    """The side holding the objective: the only side with a model within 3" of it (None:
    nobody's, or contested)."""
    holders = {g.side for g in state.groups.values() if g.on_table and _near(g.models, [objective])}
    return next(iter(holders)) if len(holders) == 1 else None


def side_name(state: State, side: int) -> str:
    """ "The attackers" or "the defenders" once rolled off (rulebook Setup 5), else "side N"."""
    if state.attackers is None:
        return f"side {side + 1}"
    return "the attackers" if side == state.attackers else "the defenders"


def _scored(state: State, side: int, points: int, reason: str, why: str) -> Event:
    name = side_name(state, side)
    return Event(
        "scored",
        f"{name[0].upper()}{name[1:]} score {points} VP: {why}.",
        {"side": side, "points": points, "reason": reason},
    )


def _sides_left(state: State) -> set[int]:
    return {g.side for g in state.groups.values() if g.on_table}


def game_over(state: State) -> bool:
    """The last round is done, or (once battle began) a side has no Group on the table."""
    if state.over or state.rounds_done >= state.scenario.rounds:
        return True
    return state.round > 0 and len(_sides_left(state)) < SIDES


def _enemy_edge(state: State, side: int) -> list[Square]:
    """The row of the enemy's table edge: side 0 deploys along the top, side 1 the bottom."""
    row = state.board.height - 1 if side == 0 else 0
    return [Square(x, row) for x in range(state.board.width)]


def centre(state: State) -> list[Square]:
    """The table's centre squares: 2x2 on an even side, the middle one on an odd side."""
    xs = sorted({(state.board.width - 1) // 2, state.board.width // 2})
    ys = sorted({(state.board.height - 1) // 2, state.board.height // 2})
    return [Square(x, y) for y in ys for x in xs]


def _routed_enemies(state: State, seat: int) -> list[Group]:
    side = seat % SIDES
    return [g for g in state.groups.values() if g.routed and g.side != side]


def ambition_met(state: State, seat: int) -> bool:
    """Whether the seat's ambition is met now (an unknown or unchosen one: never)."""
    if state.seats[seat].out:
        return False
    ambition = state.seats[seat].ambition
    fought = [g for g in _routed_enemies(state, seat) if g.routed_how != HOW_CONCEDED]
    if ambition == GLORY:
        return any(g.routed_by == seat and g.routed_how == HOW_ATTACK for g in fought)
    if ambition == REGICIDE:
        return any(g.captain for g in fought)
    if ambition == UNBROKEN:
        return not any(g.routed for g in state.groups_of(seat))
    if ambition == GROUND:
        middle = centre(state)
        return any(_near(g.models, middle) for g in state.groups_of(seat))
    return False


def _final(state: State) -> Iterator[tuple[int, int, str, str]]:
    """What the end of the game scores now: (side, VP, reason, words)."""
    for scoring in state.scenario.scoring:
        for side in range(SIDES):
            if scoring.kind == ROUTED:
                points = sum(
                    points_of(g) for g in state.groups.values() if g.routed and g.side != side
                )
                yield side, points * scoring.vp, ROUTED, "enemy Groups Routed"
            elif scoring.kind == BREAKTHROUGH:
                edge = _enemy_edge(state, side)
                through = [
                    g for g in state.groups.values() if g.side == side and _near(g.models, edge)
                ]
                yield side, len(through) * scoring.vp, BREAKTHROUGH, "Groups broke through"
    for seat, company in enumerate(state.seats):
        ambition = state.catalogue.ambitions.get(company.ambition or "")
        if ambition is not None and ambition_met(state, seat):
            yield (
                seat % SIDES,
                ambition.vp,
                ambition.key,
                f"{possessive(company.name)} ambition, {ambition.name}",
            )


def scores(state: State) -> tuple[int, ...]:
    """Each side's VP if the game ended now (with the ambitions met so far)."""
    if state.over:
        return tuple(state.vp)
    vp = list(state.vp)
    for side, points, _, _ in _final(state):
        vp[side] += points
    return tuple(vp)


def conceded(state: State, side: int) -> bool:
    """Every player of the side has conceded: their Companies have all left the table."""
    return all(state.seats[seat].out for seat in state.seats_of(side))


def _all_conceded(state: State) -> int | None:
    """The side whose every seat has conceded, if any."""
    return next((side for side in range(SIDES) if conceded(state, side)), None)


def _result(state: State) -> tuple[int | None, str]:
    """The winning side (None: a draw) and why the game ended."""
    gone = _all_conceded(state)
    if gone is not None:
        return 1 - gone, "conceded"
    reason = "rounds" if state.rounds_done >= state.scenario.rounds else "routed"
    best = max(state.vp)
    leaders = [side for side in range(SIDES) if state.vp[side] == best]
    return (leaders[0] if len(leaders) == 1 else None), reason


def finish(state: State) -> list[Event]:
    """Counts the final VP, decides the winner and ends the match (once)."""
    if state.over:
        return []
    events: list[Event] = []
    for side, points, reason, words in list(_final(state)):
        if points:
            state.vp[side] += points
            events.append(_scored(state, side, points, reason, words))
    winner, state.reason = _result(state)
    state.over = True
    name = side_name(state, winner) if winner is not None else ""
    result = f"{name[0].upper()}{name[1:]} win" if name else "A draw"
    vp = " to ".join(str(v) for v in state.vp)
    events.append(
        Event(
            "match_ended",
            f"{result} ({vp} VP).",
            {"winner": winner, "reason": state.reason, "vp": list(state.vp)},
        )
    )
    return events
