"""States of the group rules for tests, built by hand: an open table, Groups of profiles made
to measure, Groups stood where a test needs them, scripted dice.

`table()` is a 24x24 open table (two seats, "clash" scoring Routed enemy Groups); `put` stands
a Group of a seat on squares written as a command writes them ("C3 D3 E3").
"""

from __future__ import annotations

from collections.abc import Mapping

from skirmbot.rules.board import parse_board
from skirmbot.rules.companies.captains import CAPTAIN_TRAITS
from skirmbot.rules.companies.profiles import (
    ATTACK,
    MOVE,
    SHOOT,
    Ambition,
    CaptainTrait,
    Catalogue,
    Profile,
    Trait,
)
from skirmbot.rules.companies.scenarios import ATTACKERS, ROUTED, Scenario, Scoring
from skirmbot.rules.companies.state import Group, Seat, State
from skirmbot.rules.squares import Square

SIZE = 24
AMBITION_VP = {"glory": 2, "regicide": 3, "unbroken": 2, "ground": 2}


def profile(
    key: str = "spearmen",
    *,
    models: int = 3,
    mo: int = 6,
    mi: int | None = None,
    range_: int = 0,
    me_attack: int | None = 4,
    me_defend: int = 4,
    t: int = 2,
    r: int = 6,
    points: int = 6,
    activation: Mapping[str, int] | None = None,
    traits: tuple[str, ...] = (),
) -> Profile:
    orders = activation or {MOVE: 5, ATTACK: 6, **({SHOOT: 6} if mi is not None else {})}
    return Profile(
        key, key.title(), models, mo, mi, range_, me_attack, me_defend, t, r, points, orders, traits
    )


def catalogue(*profiles: Profile) -> Catalogue:
    return Catalogue(
        profiles={p.key: p for p in profiles},
        traits={"defiant": Trait("defiant", "Defiant", "Counter-charges.", 7)},
        captain_traits=tuple(
            CaptainTrait(n + 1, key, key.title(), key) for n, key in enumerate(CAPTAIN_TRAITS)
        ),
        ambitions={k: Ambition(k, k.title(), k, vp) for k, vp in AMBITION_VP.items()},
        source={},
    )


def scenario(*scoring: tuple[str, int], rounds: int = 6, points: int = 24) -> Scenario:
    kinds = scoring or ((ROUTED, 1),)
    return Scenario("Test", "", rounds, points, ATTACKERS, tuple(Scoring(k, vp) for k, vp in kinds))


def table(
    *,
    seats: int = 2,
    edges: list[str] | None = None,
    rows: list[str] | None = None,
    objectives: tuple[str, ...] = (),
    scoring: tuple[tuple[str, int], ...] = (),
    rounds: int = 6,
) -> State:
    """A match in play (round 1, side 0's turn) on an open 24x24 table, no Group yet; each
    Company's points are those of the Groups `put` fields for it."""
    board = parse_board(rows or [" ".join(["."] * SIZE)] * SIZE, edges or [])
    return State(
        board=board,
        map_name="Open",
        scenario=scenario(*scoring, rounds=rounds),
        catalogue=catalogue(),
        objectives=tuple(Square.parse(s) for s in objectives),
        seats=[Seat(f"Company {n}", 0) for n in range(seats)],  # `put` adds each Group's points
        groups={},
        zones=tuple(frozenset() for _ in range(seats)),
        attackers=0,
        round=1,
        active=0,
    )


def put(
    state: State,
    seat: int,
    name: str,
    squares: str,
    kind: Profile | None = None,
    *,
    captain: bool = False,
    r: int | None = None,
    shaken: bool = False,
    summoned: bool = False,
) -> Group:
    """Stands a Group of the seat's Company on `squares` ("C3 D3 E3", its models in order)."""
    models = [Square.parse(s) for s in squares.split()]
    kind = kind or profile(models=len(models))
    group = Group(
        name,
        name,
        seat,
        kind,
        kind.r if r is None else r,
        models,
        shaken=shaken,
        captain=captain,
        summoned=summoned,
    )
    state.groups[name.lower()] = group
    if not summoned:
        state.seats[seat].points += kind.points
    return group


def captain_trait(state: State, seat: int, key: str) -> None:
    state.seats[seat].captain_trait = next(
        t for t in state.catalogue.captain_traits if t.key == key
    )
