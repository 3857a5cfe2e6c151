"""Properties of the group rules and their automatic player, over random seeds and 1 v 1, 2 v 2
and 3 v 3: the automatic player never sends a command the engine refuses, and sends one of the
legal commands; every Group it moves ends in Cohesion and at least 3" from enemy Groups (rulebook
Moving) unless in melee; no two models share a square; R stays between 0 and the profile's; an
illegal command changes nothing (rulebook-free: our engine's all-or-nothing); and the record of
what was played replays to the same match."""

from __future__ import annotations

from typing import Any

from companies_auto import RULES, deployed, match_content
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmbot.rules.commands import Command, Concede, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.companies import geometry, orders
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    Summon,
)
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.ruleset import RULESET
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.record import record_of, replay

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("Spearmen", "Archers", "Knights", "Levy", "Scouts", "Hexers", "Spirits", "Nobody")
SQUARES = ("A1", "C3", "F6", "K12", "L12", "M20", "X24", "Z9")
AMBITIONS = ("glory", "regicide", "unbroken", "ground", "fame")


def random_commands(seats: int) -> st.SearchStrategy[Command]:
    side, name, square = st.integers(0, seats - 1), st.sampled_from(NAMES), st.sampled_from(SQUARES)
    return st.one_of(
        st.builds(Move, side, name, square),
        st.builds(KernelMove, side, name, square),
        st.builds(Shoot, side, name, name),
        st.builds(Melee, side, name, name),
        st.builds(Retreat, side, name),
        st.builds(Cast, side, name, name),
        st.builds(Summon, side, name, square),
        st.builds(EndTurn, side),
        st.builds(Interrupt, side, st.booleans()),
        st.builds(ChooseAmbition, side, st.sampled_from(AMBITIONS)),
    )


def check_invariants(match: CompaniesMatch) -> None:
    state = match.state
    squares = [
        square for group in state.groups.values() if group.on_table for square in group.models
    ]
    assert len(squares) == len(set(squares)), "two models on one square"
    assert all(state.board.on_board(square) for square in squares)
    for group in state.groups.values():
        assert 0 <= group.r <= group.profile.r, f"{group.id} has R {group.r}"


def check_moved(match: CompaniesMatch, command: Command, events: list[Any]) -> None:
    """Rulebook Moving: "at the end of their movement, all models in the Group must be within 3"
    of at least one other model in the same Group" and "at least 3" from enemy Groups"."""
    if not isinstance(command, Move) or not any(e.kind == "moved" for e in events):
        return
    state = match.state
    group = state.group(command.unit)
    if not group.on_table or orders.in_melee(state, group):
        return
    assert geometry.cohesive(group.models), f"{group.id} out of Cohesion"
    enemies = [s for enemy in state.enemies_of(group) for s in enemy.models]
    assert geometry.clear_of(group.models, enemies), f'{group.id} within 3" of an enemy'


def automatic_step(match: CompaniesMatch) -> bool:
    """The first deciding seat's automatic command, which is one of the seat's legal commands
    and which the engine accepts; False when nobody must decide."""
    deciding = RULESET.deciding(match.state)
    if not deciding:
        return False
    seat = deciding[0].side
    command = RULESET.automatic_command(match.state, seat)
    assert command in RULESET.legal_commands(match.state, seat)
    events = match.apply(command)  # IllegalCommand here fails the test
    check_moved(match, command, events)
    return True


def illegal_step(match: CompaniesMatch, command: Command) -> None:
    """A random command: refused, it changes nothing (state, log, commands)."""
    before = RULESET.state_json(match.state)
    log, taken = len(match.log), len(match.commands)
    try:
        match.apply(command)
    except IllegalCommand:
        assert RULESET.state_json(match.state) == before
        assert (len(match.log), len(match.commands)) == (log, taken)


@SETTINGS
@given(st.data(), st.sampled_from([2, 4, 6]), st.integers(0, 10_000))
def test_the_automatic_player_plays_legally_and_illegal_commands_change_nothing(
    data: Any, seats: int, seed: int
) -> None:
    scenario = data.draw(st.sampled_from(("clash", "hold-the-field", "breakthrough")))
    content = match_content(seats, scenario, shift=seed % 3)
    match = deployed(content, seed)
    for _ in range(400):
        if data.draw(st.integers(0, 3)) == 0:
            illegal_step(match, data.draw(random_commands(seats)))
        elif not automatic_step(match):
            break
        check_invariants(match)
    record = record_of(match, content, [f"P{n}" for n in range(seats)], ruleset=RULES)
    again = replay(record)
    assert RULESET.state_json(again.state) == RULESET.state_json(match.state)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]


@SETTINGS
@given(
    st.sampled_from([2, 4, 6]),
    st.integers(0, 10_000),
    st.sampled_from(("foundry", "ruined-chapel")),
)
def test_the_automatic_player_always_keeps_cohesion_and_ends_the_match(
    seats: int, seed: int, map_name: str
) -> None:
    content = match_content(seats, "hold-the-field", map_name, shift=seed % 3)
    match = deployed(content, seed)
    for _ in range(3000):
        if not automatic_step(match):
            break
        check_invariants(match)
    assert match.state.over and RULESET.outcome(match.state) is not None


@SETTINGS
@given(st.sampled_from([4, 6]), st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 5))
def test_teammates_of_a_conceding_player_play_on_legally_to_the_end(
    seats: int, seed: int, after: int, leaver: int
) -> None:
    """Our ruling (team play): the conceding player's Company leaves the table; their teammates
    play on, and the automatic players still send only legal commands."""
    content = match_content(seats, "clash", shift=seed % 3)
    match = deployed(content, seed)
    for _ in range(after):
        if not automatic_step(match):
            break
    if match.state.over:
        return
    match.apply(Concede(leaver % seats))
    assert not any(g.on_table for g in match.state.groups_of(leaver % seats))
    for _ in range(3000):
        if not automatic_step(match):
            break
        check_invariants(match)
    assert match.state.over and RULESET.outcome(match.state) is not None
