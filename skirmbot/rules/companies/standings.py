"""Sides in words and their places when the match ends (rulebook End of Game: "total VP ...
to determine the winning side"; our ruling: a side whose every player conceded loses whatever
the VP). Placings are per SIDE: every seat of a side shares its side's place."""

from __future__ import annotations

from skirmbot.rules.companies.scoring import conceded
from skirmbot.rules.companies.state import SIDES, State

ATTACKERS, DEFENDERS = "Attackers", "Defenders"


def side_word(state: State, side: int) -> str:
    """ "Attackers" or "Defenders" once the roll-off is made (rulebook Setup 5), else "Side 1"."""
    if state.attackers is None:
        return f"Side {side + 1}"
    return ATTACKERS if side == state.attackers else DEFENDERS


def placings(state: State) -> tuple[int, ...]:
    """Each side's place: (1, 2), (2, 1), or (1, 1) for equal VP."""
    gone = [conceded(state, side) for side in range(SIDES)]
    if any(gone) and not all(gone):
        return tuple(2 if out else 1 for out in gone)
    best = max(state.vp)
    return tuple(1 if vp == best else 2 for vp in state.vp)


def winner(state: State) -> int | None:
    """The side placed first alone; None for a draw."""
    first = [side for side, place in enumerate(placings(state)) if place == 1]
    return first[0] if len(first) == 1 else None
