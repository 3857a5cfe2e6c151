"""Properties of the d20 rules, whatever is played: every listed command is accepted, an illegal
one changes nothing, no two models share a square, action points never fall below 0, bonus dice
stay 0 to 6, and the record of what was accepted replays to the same match."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from d20_builders import content, shipped
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmbot.rules.commands import Command, Concede, EndActivation
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift, StandingOrders
from skirmbot.rules.d20.engine import D20Match
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.record import record_of, replay

WARBANDS = ("red-lancers", "blue-hunters", "gold-breakers", "green-wardens")
NAMES = ("Vask", "Orrin", "Grawl", "Fen", "Hulk", "Elm", "Nobody")
SQUARES = ("A1", "C3", "F6", "F7", "L12", "M1", "E5")


def commands(seats: int) -> st.SearchStrategy[Command]:
    side = st.integers(0, seats - 1)
    name, square, count = st.sampled_from(NAMES), st.sampled_from(SQUARES), st.integers(-1, 7)
    return st.one_of(
        st.builds(Buy, side, count),
        st.builds(Move, side, name, square, count),
        st.builds(
            Attack, side, name, name, st.sampled_from((None, "Rifle", "Claws", "Knife")), count
        ),
        st.builds(Defend, side, count),
        st.builds(Shift, side, name, st.one_of(st.none(), square)),
        st.builds(EndTurn, side),
        st.builds(EndActivation, side, st.one_of(st.none(), name)),
        st.builds(StandingOrders, side, count, st.booleans()),
        st.builds(Concede, side),
    )


def data_of(seats: int) -> dict[str, Any]:
    return content(
        [shipped("squads", name) for name in WARBANDS[:seats]],
        shipped("maps", "ruined-chapel"),
        shipped("missions", "hold-the-ground"),
    )


def started(seats: int, seed: int) -> D20Match:
    match = RULESET.new_match(data_of(seats), SeededDice(seed))
    for seat in range(seats):
        match.apply(RULESET.automatic_placement(match.state, seat))
    return match


def check_invariants(match: D20Match) -> None:
    view = RULESET.view(match.state)
    cells = [cell for piece in view.pieces if piece.on_map for cell in piece.squares]
    assert len(cells) == len(set(cells)), "two models on one square"
    assert all(view.board.is_open(cell) for cell in cells)
    for seat in match.state.seats:
        assert seat.ap >= 0 and 0 <= seat.bonus <= 6


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([2, 3, 4]), st.integers(0, 10_000))
def test_listed_commands_are_accepted_and_illegal_ones_change_nothing(
    data: Any, seats: int, seed: int
) -> None:
    match = started(seats, seed)
    for _ in range(60):
        deciding = RULESET.deciding(match.state)
        if not deciding:
            break
        if data.draw(st.booleans()):
            command = data.draw(commands(seats))
            before, taken = RULESET.view(match.state), len(match.commands)
            try:
                match.apply(command)
            except IllegalCommand:
                assert RULESET.view(match.state) == before and len(match.commands) == taken
        else:
            side = deciding[0].side
            listed = RULESET.legal_commands(match.state, side)
            assert listed, "a seat that must decide has something to send"
            match.apply(data.draw(st.sampled_from(listed)))
        check_invariants(match)
    record = record_of(match, data_of(seats), [f"P{n}" for n in range(seats)], ruleset="d20")
    again = replay(record)
    assert replace(RULESET.view(again.state), board=match.state.board) == RULESET.view(match.state)
