"""How a match of the infantry rules is won (plan section 2, "Victory", our ruling).

A side whose troopers are all dead or unconscious, or whose player conceded, loses at once
(both at once: a draw). Otherwise, after the scenario's last round each side scores the PV of
the enemy troopers it has put out (dead or unconscious); more wins, equal is a draw.
"""

from __future__ import annotations

from skirmbot.rules.infantry.state import SIDES, State


def scores(state: State) -> tuple[int, ...]:
    """Each seat's PV of enemy troopers put out so far (dead or unconscious)."""
    return tuple(
        sum(t.recruit.pv for t in state.troopers if t.seat != seat and not t.able)
        for seat in range(SIDES)
    )


def outcome(state: State) -> tuple[int | None, str] | None:
    """(the winning seat or None for a draw, why) once the match is decided; None while it
    goes on. Before both squads are deployed nothing is decided but by conceding."""
    out = [seat for seat in range(SIDES) if state.seats[seat].out]
    if out:
        return _last_standing(state, out, "conceded")
    if state.round == 0:
        return None
    beaten = [seat for seat in range(SIDES) if not any(t.able for t in state.troopers_of(seat))]
    if beaten:
        return _last_standing(state, beaten, "has no trooper left standing")
    if state.round > state.scenario.rounds:
        return _on_points(state)
    return None


def _last_standing(state: State, lost: list[int], why: str) -> tuple[int | None, str]:
    names = " and ".join(state.seats[seat].name for seat in lost)
    if len(lost) == SIDES:
        return None, f"{names} both {_plural(why)}: a draw."
    winner = 1 - lost[0]
    return winner, f"{names} {why}: {state.seats[winner].name} wins."


def _plural(why: str) -> str:
    return why.replace("has no", "have no")


def _on_points(state: State) -> tuple[int | None, str]:
    """The winner on PV after the last round, in words; each side's PV follows in the result
    (views.pv_words), so they are not said here as well."""
    a, b = scores(state)
    told = f"after {state.scenario.rounds} rounds"
    if a == b:
        return None, f"A draw {told}."
    winner = 0 if a > b else 1
    return winner, f"{state.seats[winner].name} wins {told}."
