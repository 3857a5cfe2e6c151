"""Team play in words: which seats play together, and a match's players side by side.

A match has sides of one or more seats (`Ruleset.sides_of`: ((0, 2), (1, 3)) for two teams of
two); each seat is one player with their own squad (Company). Placings and scores are a side's
(`Outcome`), squads and standings a seat's (`SideView`). Everything here reads the sides from
the ruleset, so a ruleset without teams (every seat a side of its own) reads as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skirmbot.rules.ruleset import Outcome, Ruleset
from skirmbot.rules.view import MatchView
from skirmbot.words import ordinal


def teams_of(rules: Ruleset, players: int) -> tuple[tuple[int, ...], ...]:
    """The sides of a match of `players`, when some side has several seats; () otherwise."""
    sides = rules.sides_of(players)
    return sides if any(len(side) > 1 for side in sides) else ()


def side_of(sides: Sequence[Sequence[int]], seat: int) -> int:
    """The side the seat plays on."""
    return next(number for number, seated in enumerate(sides) if seat in seated)


def listed(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _seats_words(seats: Sequence[int]) -> str:
    """`seat 1`, `seats 1 and 3`: seats counted from 1, as players read them."""
    numbers = [str(seat + 1) for seat in seats]
    return f"seat{'s' if len(numbers) > 1 else ''} {listed(numbers)}"


def seating_line(teams: tuple[tuple[int, ...], ...]) -> str:
    """Who plays with whom in a team match: "Seats 1 and 3 play together against seats 2 and
    4."; "" without teams."""
    if not teams:
        return ""
    first, *others = (_seats_words(side) for side in teams)
    verb = "plays" if len(teams[0]) == 1 else "play together"
    return f"{first[0].upper()}{first[1:]} {verb} against {listed(others)}."


def joined_side(teams: tuple[tuple[int, ...], ...], seat: int, names: Sequence[str]) -> str:
    """Which side a player joined, with their teammates seated so far: ", on side 1 with
    Alice"; "" without teams."""
    if not teams:
        return ""
    side = side_of(teams, seat)
    mates = [names[other] for other in teams[side] if other != seat and names[other]]
    return f", on side {side + 1}" + (f" with {listed(mates)}" if mates else "")


def squad_names(
    view: MatchView, outcome: Outcome | None, sides: Sequence[Sequence[int]]
) -> list[str]:
    """Each seat's squad name, seat by seat; in a finished match of more than two seats, with
    its side's placing ("Gold Breakers, 1st"), which a two-seat result's words already say."""
    names = [seat.name for seat in view.sides]
    if outcome is None or len(names) <= 2:
        return names
    return [
        f"{name}, {ordinal(outcome.placings[side_of(sides, seat)])}"
        for seat, name in enumerate(names)
    ]


def by_side(
    teams: tuple[tuple[int, ...], ...], player: Callable[[int], str], squad: Callable[[int], str]
) -> str:
    """Every seat's player and squad grouped by side: "Side 1: Alice (Hill Wardens), Carol
    (Red Band) · Side 2: Bob (...), Dave (...)"."""
    return " · ".join(
        f"Side {number + 1}: " + ", ".join(f"{player(seat)} ({squad(seat)})" for seat in side)
        for number, side in enumerate(teams)
    )


def acting_seats(view: MatchView) -> tuple[int, ...]:
    """The seats that may act now and are still in the match (a seat out is never asked)."""
    out = {seat.side for seat in view.sides if seat.out}
    return tuple(seat for seat in view.seats_acting() if seat not in out)
