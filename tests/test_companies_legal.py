"""The group rules' legal commands (`legal.legal_commands`): every command listed is accepted by
the engine, every command refused is absent, over seeded positions of 1 v 1 and 2 v 2 matches;
and the menus of the moments when only some orders may be given (Reckless Groups, an Attack
waiting for the defender's answer, ambitions before round 1)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from skirmbot.rules.commands import Command, Melee, Shoot
from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    StandingOrders,
    Summon,
)
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.legal import legal_commands
from skirmbot.rules.companies.profiles import Trait
from skirmbot.rules.companies.state import State
from skirmbot.rules.dice import ScriptedDice, SeededDice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.squares import Square
from tests.companies_builders import profile, put, table
from tests.companies_play import deployed, play_randomly

PASS = [6, 6]
TRAITS = {
    "defiant": Trait("defiant", "Defiant", "Counter-charges.", 7),
    "reckless": Trait("reckless", "Reckless", "Must attack."),
}


def accepted(state: State, command: Command) -> bool:
    """Whether the engine accepts the command on a copy of the state."""
    copied = copy.deepcopy(
        state, {id(state.board): state.board, id(state.battle_map): state.battle_map}
    )
    try:
        CompaniesMatch(copied, SeededDice(0)).apply(command)
    except RulesError:
        return False
    return True


def candidates(state: State, seat: int, rng: random.Random) -> list[Command]:
    """Commands a seat might send, legal or not: for each of its Groups on the table, a Move to
    some squares near it, an order of each kind at every enemy Group, a Retreat, a Summon near it;
    the answers to an Attack, the end of its part, an ambition; another seat's Group moved."""
    found: list[Command] = [EndTurn(seat), Interrupt(seat, True), Interrupt(seat, False),
                            ChooseAmbition(seat, "glory")]  # fmt: skip
    for group in state.groups.values():
        if not group.on_table:
            continue
        if group.seat != seat:  # another seat's Group: one Move is enough to be refused
            found.append(Move(seat, group.id, str(group.models[0].offset(0, 1))))
            continue
        first = group.models[0]
        near = [
            s
            for s in state.board.squares()
            if geometry.distance(first, s) <= group.profile.mo + 2 and s != first
        ]
        for square in rng.sample(near, min(12, len(near))):
            found.append(Move(seat, group.id, str(square)))
        found.append(Summon(seat, group.id, str(rng.choice(near))))
        found.append(Retreat(seat, group.id))
        for other in state.groups.values():
            if other.on_table and other is not group:
                found += [kind(seat, group.id, other.id) for kind in (Shoot, Melee, Cast)]
    return found


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 2), (3, 4), (4, 4)])
def test_every_legal_command_is_accepted_and_every_refused_one_is_absent(
    seed: int, players: int
) -> None:
    """Activation 2: "Assign a valid order to the chosen Group" - the menu the automatic player,
    /act and autocomplete read holds exactly what the engine accepts, seat by seat, in
    positions reached by seeded random play (1 v 1 and 2 v 2)."""
    rng = random.Random(seed)
    played = deployed(seed, players)
    for _ in range(2):
        play_randomly(played, rng.randrange(1000), 10)
        if played.state.over:
            break
        state = played.state
        for seat in range(players):
            menu = legal_commands(state, seat)
            assert all(accepted(state, c) for c in menu), seat
            listed = set(menu)
            refused = [c for c in candidates(state, seat, rng) if c not in listed]
            assert not [c for c in refused if accepted(state, c)], seat


def test_a_seat_of_the_side_not_in_its_turn_has_nothing_to_send() -> None:
    """Turns: "The active side attempts to activate Groups" - the other side's seats wait."""
    played = deployed(5, 4)
    active = played.state.active
    assert active is not None
    for seat in range(4):
        menu = legal_commands(played.state, seat)
        assert bool(menu) == (seat % 2 == active)
        assert not menu or menu[-1] == EndTurn(seat)


def reckless_state() -> State:
    """Side 1's turn: Berserkers (Reckless) within their MO of Spears, Others far away."""
    state = table()
    state.catalogue = dataclasses.replace(state.catalogue, traits=TRAITS)
    put(state, 0, "Spears", "C5 D5 E5")
    put(state, 1, "Berserkers", "C10 D10 E10", profile("berserkers", traits=("reckless",)))
    put(state, 1, "Others", "P20 Q20 R20")
    return state


def test_while_reckless_groups_must_attack_only_their_attacks_are_legal() -> None:
    """Turns 2: Reckless Groups within range of an enemy "must attempt to activate to Attack an
    enemy Group of your choice in range" - nothing else first, not even ending the turn."""
    state = reckless_state()
    played = CompaniesMatch(state, ScriptedDice([]))
    played.apply(EndTurn(0))
    assert legal_commands(played.state, 1) == [Melee(1, "Berserkers", "Spears")]
    played.dice = ScriptedDice([1, 1])  # the Reckless test fails: the turn goes on
    played.apply(Melee(1, "Berserkers", "Spears"))
    menu = legal_commands(played.state, 1)
    assert {c.type for c in menu} == {"move", "end_turn"}
    assert all(getattr(c, "unit", "Others") == "Others" for c in menu)


def test_an_attack_waiting_for_its_answer_offers_only_the_interrupt() -> None:
    """Attacking 1: the defending Group "may test to activate that trait" - its player, who
    asked to be prompted, is offered to test it or stand; nobody else may send anything."""
    state = table()
    state.catalogue = dataclasses.replace(state.catalogue, traits=TRAITS)
    put(state, 0, "Spears", "C5 D5 E5")
    put(state, 1, "Guards", "C9 D9 E9", profile("guards", traits=("defiant",)))
    played = CompaniesMatch(state, ScriptedDice(PASS))
    played.apply(StandingOrders(1, prompt=True))
    played.apply(Melee(0, "Spears", "Guards"))
    assert legal_commands(played.state, 1) == [Interrupt(1, True), Interrupt(1, False)]
    assert legal_commands(played.state, 0) == []


def test_before_round_one_each_seat_is_offered_the_ambitions_until_it_chooses() -> None:
    """Setup 7: "Choose ambitions" - once deployment is revealed, each player who has not
    chosen one yet is offered the four; nothing else."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3")
    put(state, 1, "Foes", "C20 D20 E20")
    state.round, state.active, state.attackers = 0, None, 1
    for seat in state.seats:
        seat.placed = True
    played = CompaniesMatch(state, ScriptedDice([]))
    every = [ChooseAmbition(0, key) for key in ("glory", "regicide", "unbroken", "ground")]
    assert legal_commands(played.state, 0) == every
    played.apply(ChooseAmbition(0, "ground"))
    assert legal_commands(played.state, 0) == []
    assert len(legal_commands(played.state, 1)) == 4


def test_nothing_is_legal_before_deployment_is_revealed_or_once_the_match_is_over() -> None:
    """Setup 6: deployment comes first (placed in secret through the set-up, not the menu)."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3")
    put(state, 1, "Foes", "C20 D20 E20")
    state.round, state.active, state.attackers = 0, None, None
    assert legal_commands(state, 0) == []
    state.round, state.active, state.attackers, state.over = 1, 0, 0, True
    assert legal_commands(state, 0) == []


def test_a_whole_group_move_lists_every_square_its_first_model_reaches() -> None:
    """Moving: the Group moves up to its MO keeping Cohesion, at least 3" from enemy Groups -
    the menu lists a Move to every square the engine's formation move reaches."""
    state = table()
    put(state, 0, "Spears", "C3 D3 E3")
    put(state, 1, "Foes", "C20 D20 E20")
    moves = [c for c in legal_commands(state, 0) if isinstance(c, Move)]
    assert Move(0, "Spears", "C9") in moves and Move(0, "Spears", "C10") not in moves
    assert all(Square.parse(c.square).distance(Square.parse("C3")) <= 6 for c in moves)


def test_a_two_v_two_mid_game_menu_is_quick() -> None:
    """The automatic player asks for the menu before every command: a 2 v 2 mid-game call
    stays well under a tenth of a second (measured about 10 ms)."""
    import time

    played = deployed(6, 4)
    play_randomly(played, 6, 12)
    seat = next(s for s in range(4) if legal_commands(played.state, s))
    started = time.perf_counter()
    legal_commands(played.state, seat)
    assert time.perf_counter() - started < 0.25
