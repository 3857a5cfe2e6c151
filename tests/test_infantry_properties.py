"""Properties of the infantry engine over random, legal-looking commands (hypothesis).

- a refused command changes nothing (the whole state as JSON is equal) and rolls no die;
- AP spent stay within the maximum AP (but after a hit lowered it: then the trooper lies prone
  and its activation is over, Resolving Fire ¶9 as we read it);
- no two able troopers stand on one dot at one level;
- replaying the accepted commands with the same dice gives the same state;
- a prompt answered as its timeout answers (the arc's own order) plays as no prompt at all.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmbot.rules.commands import Activate, Command, Deploy, EndActivation, Melee
from skirmbot.rules.dice import RecordingDice, SeededDice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
    Take,
    Throw,
)
from skirmbot.rules.infantry.engine import InfantryMatch, default_answer
from skirmbot.rules.infantry.export import state_json
from skirmbot.rules.infantry.setup import new_state
from skirmbot.rules.infantry.state import ARC_ORDERS, State
from tests.infantry_helpers import content

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Both squads start in the middle rows, so fire, melee and blasts come early.
START = [
    {"Hale": "C4", "Rossi": "F4", "Brandt": "I4", "Okafor": "L5"},
    {"Ishida": "D8", "Varga": "G8", "Nkemelu": "J8", "Sorensen": "M7"},
]
WEAPONS = ["Rifle", "Pistol", "Hand Grenade", "Laser SMG", "Laser Rifle", "Laser Pistol"]


def started(seed: int) -> InfantryMatch:
    """Both squads deployed, then set down in the middle rows; seeded dice, each roll kept."""
    match = InfantryMatch(new_state(content()), RecordingDice(SeededDice(seed)))
    for seat, placements in enumerate(START):
        match.apply(
            Deploy(
                seat, {unit: _zone_dot(match.state, seat, n) for n, unit in enumerate(placements)}
            )
        )
    for placements in START:
        for unit, dot in placements.items():
            match.state.trooper(unit).dot = Dot.parse(dot)
    return match


def _zone_dot(state: State, seat: int, n: int) -> str:
    from skirmbot.rules.infantry.setup import zone_dots

    return str(zone_dots(state, seat)[2 * n])


def replayed(seed: int, commands: list[Command]) -> InfantryMatch:
    match = started(seed)
    for command in commands:
        match.apply(command)
    return match


def candidate(data: st.DataObject, state: State, standing: bool = True) -> Command:
    """A legal-looking command for the seat that acts now (the arc owner when a move waits)."""
    answer = default_answer(state)
    if answer is not None:
        fire = data.draw(st.booleans())
        return FireAt(answer.side, answer.owner, fire)
    seat = state.to_act if state.to_act is not None else 0
    mine = [t.id for t in state.troopers_of(seat)]
    ready = [t.id for t in state.troopers_of(seat) if t.able and not t.activated] or mine
    enemies = [t.id for t in state.troopers if t.seat != seat]
    unit = state.activating or data.draw(st.sampled_from(ready))
    near = _near(state, unit, data)
    toward = data.draw(st.sampled_from([*_enemy_dots(state, seat), near]))
    choices: list[Command] = [
        Activate(seat, unit),
        Move(seat, unit, near),
        Move(seat, unit, near),
        Move(seat, unit, path=" ".join(_near(state, unit, data) for _ in range(2))),
        Arc(seat, unit, data.draw(st.sampled_from([30, 60, 150, 90])), toward,
            data.draw(st.sampled_from(ARC_ORDERS)), data.draw(st.integers(0, 2))),
        Arc(seat, unit, data.draw(st.sampled_from([30, 60, 150])), toward),
        Prone(seat, unit),
        Stand(seat, unit),
        Climb(seat, unit, data.draw(st.integers(0, 1))),
        ChangeWeapon(seat, unit, data.draw(st.sampled_from(WEAPONS))),
        Take(seat, unit, data.draw(st.sampled_from([*state_ids(state), near])),
             data.draw(st.sampled_from(WEAPONS))),
        DropItem(seat, unit, data.draw(st.sampled_from(WEAPONS))),
        Throw(seat, unit, toward),
        Melee(seat, unit, data.draw(st.sampled_from(enemies)), None),
        EndActivation(seat),
        Activate(1 - seat, data.draw(st.sampled_from(enemies))),
    ]  # fmt: skip
    if standing:
        choices.append(StandingOrders(data.draw(st.integers(0, 1)), data.draw(st.booleans())))
    return data.draw(st.sampled_from(choices))


def _enemy_dots(state: State, seat: int) -> list[str]:
    return [str(t.dot) for t in state.troopers if t.seat != seat and t.dot is not None]


def state_ids(state: State) -> list[str]:
    return [t.id for t in state.troopers]


def _near(state: State, unit: str, data: st.DataObject) -> str:
    trooper = state.trooper(unit)
    here = trooper.dot or Dot(0, 0)
    ring = here.within(3)
    return str(data.draw(st.sampled_from(ring)))


def check_invariants(state: State) -> None:
    places: set[tuple[Dot, int]] = set()
    for trooper in state.troopers:
        if trooper.spent > trooper.max_ap:
            assert not trooper.able or (trooper.prone and trooper.activated), trooper.id
        if trooper.able and trooper.dot is not None:
            place = (trooper.dot, trooper.level)
            assert place not in places, f"two troopers on {place}"
            places.add(place)


def play_random(
    data: st.DataObject, match: InfantryMatch, steps: int, standing: bool = True
) -> list[Command]:
    """Up to `steps` random commands; the accepted ones, in order."""
    accepted: list[Command] = []
    dice = match.dice
    assert isinstance(dice, RecordingDice)
    for _ in range(steps):
        if match.state.over:
            break
        command = candidate(data, match.state, standing)
        before, rolled = state_json(match.state), len(dice.rolls)
        try:
            match.apply(command)
        except RulesError:
            assert state_json(match.state) == before, command
            assert len(dice.rolls) == rolled, f"{command} rolled dice and was refused"
            continue
        accepted.append(command)
        check_invariants(match.state)
    return accepted


@SETTINGS
@given(st.data(), st.integers(0, 10_000))
def test_refusals_change_nothing_ap_stays_in_bounds_and_replays_agree(
    data: st.DataObject, seed: int
) -> None:
    """A refused command changes nothing; AP spent within max AP; one trooper a position; the
    record (the accepted commands) replays to the same state."""
    match = started(seed)
    accepted = play_random(data, match, 80)
    assert state_json(replayed(seed, accepted).state) == state_json(match.state)


def _without_prompts(state: State) -> dict[str, Any]:
    data = state_json(state)
    for seat in data["seats"]:
        seat["prompt"] = False
    return data


@SETTINGS
@given(st.data(), st.integers(0, 10_000))
def test_a_prompt_answered_by_its_timeout_replays_the_same(data: st.DataObject, seed: int) -> None:
    """Plan section 3: a missed prompt answers with the arc's own order, so a match whose owners
    asked to be prompted and let every prompt time out plays exactly as one that never asked."""
    plain = started(seed)
    commands = play_random(data, plain, 80, standing=False)
    prompted = started(seed)
    prompted.apply(StandingOrders(0, True))
    prompted.apply(StandingOrders(1, True))
    for command in commands:
        prompted.apply(command)
        while (answer := default_answer(prompted.state)) is not None:
            prompted.apply(answer)
    assert _without_prompts(prompted.state) == _without_prompts(plain.state)
