"""Placings per seat (our ruling: How to win): the seats still playing by score, highest first,
equal scores sharing a place; a seat that conceded or lost every model places below them, the
later gone out higher."""

from __future__ import annotations

from skirmbot.rules.d20.state import State


def placings(state: State) -> tuple[int, ...]:
    def rank(seat: int) -> tuple[int, int, int]:
        player = state.seats[seat]
        return (1 if player.out else 0, -player.out_at, -player.score if not player.out else 0)

    ranks = [rank(seat) for seat in range(len(state.seats))]
    return tuple(1 + sum(1 for other in ranks if other < mine) for mine in ranks)


def winner(state: State) -> int | None:
    """The seat placed first alone; None when first place is shared."""
    places = placings(state)
    first = [seat for seat, place in enumerate(places) if place == 1]
    return first[0] if len(first) == 1 else None
