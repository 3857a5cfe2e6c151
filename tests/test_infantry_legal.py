"""The menu of the infantry rules (skirmbot.rules.infantry.legal) and autocomplete's options
(skirmbot.rules.infantry.choices): every legal command is accepted by the engine, every move the
engine accepts is offered, and autocomplete offers only values of legal commands."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from skirmbot.rules.commands import Activate, Command, Deploy, EndActivation, Melee
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import legal, views
from skirmbot.rules.infantry.choices import InfantryChoices
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    FireAt,
    Move,
    StandingOrders,
    Take,
    Throw,
)
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.preview import copy_of
from skirmbot.rules.infantry.setup import new_state
from skirmbot.rules.infantry.state import State
from tests.infantry_boards import LASERS, RIFLEMEN, arc_of, deployed
from tests.infantry_helpers import content, knock_out


def started(seed: int, prompt: bool = False) -> InfantryMatch:
    """Riflemen against the Laser Team on Crossroads, both deployed, the first side rolled."""
    match = InfantryMatch(new_state(content()), SeededDice(seed))
    match.apply(Deploy(0, RIFLEMEN))
    match.apply(Deploy(1, LASERS))
    if prompt:
        match.apply(StandingOrders(0, True))
        match.apply(StandingOrders(1, True))
    return match


def deciding_seat(state: State) -> int:
    (decision, *_) = views.deciding(state, lambda s, seat: EndActivation(seat))
    return decision.side


def engine_takes(state: State, command: Command, seed: int) -> bool:
    """Whether a copy of the match with real (seeded) dice accepts the command."""
    try:
        InfantryMatch(copy_of(state), SeededDice(seed)).apply(command)
    except RulesError:
        return False
    return True


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    prompt=st.booleans(),
    picks=st.lists(st.integers(0, 10_000), min_size=10, max_size=30),
)
def test_every_legal_command_is_accepted_by_the_engine(
    seed: int, prompt: bool, picks: list[int]
) -> None:
    """Plan part 6: the menu never offers what the engine refuses - through whole stretches of
    seeded matches, arcs set and moves paused for their owners (prompt) included."""
    match = started(seed, prompt)
    for step, pick in enumerate(picks):
        if match.state.over:
            break
        seat = deciding_seat(match.state)
        offered = legal.legal_commands(match.state, seat)
        assert offered, "the seat that decides always has something to send"
        # every command but the moves, which the next test tries dot by dot
        for command in [c for c in offered if not isinstance(c, Move)] + offered[::25]:
            assert engine_takes(match.state, command, seed + step), command
        assert legal.legal_commands(match.state, 1 - seat) == [] or match.state.moving is None
        match.apply(offered[pick % len(offered)])


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10_000), max_size=6))
def test_every_move_the_engine_accepts_is_offered(seed: int, picks: list[int]) -> None:
    """Basic Movement ¶1-5: the menu's moves are exactly the dots the engine lets a trooper
    reach now - none left out, none refused."""
    match = started(seed)
    for pick in picks:
        state = match.state
        if state.over or state.moving is not None:
            break
        seat = deciding_seat(state)
        offered = legal.legal_commands(state, seat)
        # the trooper activating, else the first ready one: each dot of the map tried
        unit = state.activating or next((c.unit for c in offered if isinstance(c, Move)), None)
        for trooper in [t for t in state.troopers_of(seat) if t.id == unit]:
            moves = {c.square for c in offered if isinstance(c, Move) and c.unit == trooper.id}
            for dot in state.board.dots():
                command = Move(seat, trooper.id, str(dot))
                assert engine_takes(state, command, seed) == (str(dot) in moves), command
        match.apply(offered[pick % len(offered)])


def test_a_paused_move_offers_only_the_owners_answers() -> None:
    """Plan section 3: while a move waits, only `FireAt(fire=True/False)` for the owner."""
    match = started(1, prompt=True)
    state = match.state
    mover_seat = state.to_act
    assert mover_seat is not None
    owner_seat = 1 - mover_seat
    owner = state.troopers_of(owner_seat)[1]
    arc_of(state, owner.id, "G6")
    state.arcs[-1] = replace(state.arcs[-1], width=150)
    for trooper in state.troopers_of(mover_seat):
        for command in legal.legal_commands(state, mover_seat):
            if isinstance(command, Move) and command.unit == trooper.id:
                trial = InfantryMatch(copy_of(state), SeededDice(1))
                trial.apply(command)
                if trial.state.moving is not None:
                    paused = trial.state
                    assert legal.legal_commands(paused, mover_seat) == []
                    assert legal.legal_commands(paused, owner_seat) == [
                        FireAt(owner_seat, owner.id, True),
                        FireAt(owner_seat, owner.id, False),
                    ]
                    return
    raise AssertionError("no move entered the arc")


def test_choices_offer_only_legal_values() -> None:
    """Autocomplete: troopers, dots with their AP, arc widths and orders, melee targets and
    weapons, throw targets - each a value of a command the engine accepts."""
    match = started(5)
    state = match.state
    seat = state.to_act
    assert seat is not None
    choices = InfantryChoices(state, seat)
    offered = legal.legal_commands(state, seat)
    units = {name for name, _ in choices.units((Activate.type,))}
    assert units == {c.unit for c in offered if isinstance(c, Activate)}
    trooper = state.troopers_of(seat)[0]
    squares = choices.squares(trooper.id, Move.type, Move.type)
    legal_moves = {c.square for c in offered if isinstance(c, Move) and c.unit == trooper.id}
    assert squares and {value for value, _ in squares} == legal_moves
    assert all(" AP" in label for _, label in squares)
    widths = choices.values(trooper.id, Arc.type, "width")
    assert [value for value, _ in widths] == ["30", "60", "150"]
    assert widths[1][1].startswith("60° (4 AP, ")
    assert [value for value, _ in choices.values(trooper.id, Arc.type, "order")] == [
        "every", "first", "short", "hold",
    ]  # fmt: skip
    assert InfantryChoices(state, None).units((Activate.type,)) == []


def test_an_arc_is_offered_with_each_order_it_may_fire_by() -> None:
    """Firing Arcs ¶1 (30, 60 or 150 degrees) and the orders of plan section 3: /act offers
    each width with each order (every, the first enemy, short range, hold), in words."""
    match = started(5)
    state = match.state
    seat = state.to_act
    assert seat is not None
    trooper = state.troopers_of(seat)[0]
    offered = [
        c for c in legal.legal_commands(state, seat) if isinstance(c, Arc) and c.unit == trooper.id
    ]
    assert [(c.width, c.order, c.n) for c in offered] == [
        (width, order, 1 if order == "first" else 0)
        for width in (30, 60, 150)
        for order in ("every", "first", "short", "hold")
    ]
    words = [InfantryChoices(state, seat).words(c) or "" for c in offered]
    assert words[5].startswith(f"Arc: {trooper.id} 60° toward ") and ", first 1 (4 AP" in words[5]


def test_melee_and_throw_choices_are_engine_accepted() -> None:
    """Melee Combat ¶1-2 (an adjacent enemy, the weapons the active one allows) and Explosives
    ¶1 (a throw at a dot it sees, 1 AP a dot)."""
    match = started(5)
    state = match.state
    seat = state.to_act
    assert seat is not None
    mine = state.troopers_of(seat)[0]
    enemy = state.troopers_of(1 - seat)[0]
    assert mine.dot is not None
    enemy.dot = next(d for d in mine.dot.neighbours() if state.standing_at(d, 0) is None)
    choices = InfantryChoices(state, seat)
    targets = [name for name, _ in choices.targets(mine.id, Melee.type, None)]
    assert targets == [enemy.id]
    weapons = [name for name, _ in choices.weapons(mine.id, Melee.type, enemy.id)]
    assert "Fists" in weapons and "Bayonet" in weapons
    for weapon in weapons:
        assert engine_takes(state, Melee(seat, mine.id, enemy.id, weapon), 1)
    match.apply(ChangeWeapon(seat, mine.id, "Hand Grenade"))
    choices = InfantryChoices(match.state, seat)
    throws = choices.values(mine.id, Throw.type, "target")
    assert throws and all(" AP" in label for _, label in throws)
    for value, _ in throws:
        assert engine_takes(match.state, Throw(seat, mine.id, value), 1)
    assert Dot.parse(throws[0][0]).distance(mine.dot) == 1  # nearest first


def test_items_to_take_are_offered_from_a_fallen_trooper_beside() -> None:
    """Special Actions ¶2: "6 AP to take a weapon or equipment from another trooper, including
    a dead or unconscious trooper" - on the same or an adjacent dot (our ruling)."""
    match = started(5)
    state = match.state
    seat = state.to_act
    assert seat is not None
    mine = state.troopers_of(seat)[0]
    fallen = state.troopers_of(1 - seat)[0]
    assert mine.dot is not None
    fallen.dot = next(d for d in mine.dot.neighbours() if state.standing_at(d, 0) is None)
    knock_out(fallen)
    mine.secondary = None  # dropped: room for one secondary (the carrying limit)
    choices = InfantryChoices(state, seat)
    items = dict(choices.values(mine.id, Take.type, "item"))
    assert list(items) == [fallen.secondary]  # its primary and grenades would overload
    assert items[str(fallen.secondary)] == (
        f"{fallen.secondary} (from {fallen.id}, unconscious, on {fallen.dot})"
    )
    sources = dict(choices.values(mine.id, Take.type, "source"))
    assert list(sources) == [fallen.id]
    assert engine_takes(state, Take(seat, mine.id, fallen.id, str(fallen.secondary)), 1)


def test_a_dots_label_counts_the_arc_chances_on_its_route() -> None:
    """Plan section 3, "what makes moving sane": each dot of /move says the AP and the enemy
    arc chances its cheapest route gives, with each shot's odds (Laser Rifle, 10 dots, 6+)."""
    state = deployed()
    arc_of(state, "Varga", "D6")
    labels = dict(InfantryChoices(state, 0).squares("Rossi", Move.type, Move.type))
    assert labels["C2"] == "C2 (1 AP)"
    assert labels["D2"] == "D2 (1 AP, 1 arc chance at 72%)"
    assert labels["D4"].startswith("D4 (3 AP, 2 arc chances at 72%")
