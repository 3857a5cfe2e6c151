"""A match of the infantry rules before its first round: the map, the scenario, the weapons
tables, two squads and their deployment (plan section 2, "The turn sequence": each side deploys
in its scenario zone in secret, all standing, at level 0).

The record keeps the weapons tables beside the map, mission and squads (`match_content`), so a
later change to the shipped tables never changes an old match.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.infantry import card
from skirmbot.rules.infantry.arms import Arms, load_arms, parse_arms
from skirmbot.rules.infantry.maps import map_from_json
from skirmbot.rules.infantry.scenarios import check_zones_fit, parse_scenario
from skirmbot.rules.infantry.squads import Recruit, Squad, parse_squad
from skirmbot.rules.infantry.state import SIDES, Seat, State, Trooper

SEATS = (2,)  # two players, one squad each
UNLIMITED = 10**9  # the points limit of a squad when not strict


def match_content(content: dict[str, Any]) -> dict[str, Any]:
    """The content a new match's record keeps: as chosen, with the shipped weapons tables
    added under "arms" unless it has them already."""
    if "arms" in content:
        return dict(content)
    text = (
        resources.files("skirmbot.content").joinpath("infantry", "weapons.json").read_text("utf-8")
    )
    return {**content, "arms": json.loads(text)}


def arms_of(content: dict[str, Any]) -> Arms:
    """The weapons tables the record keeps, or the shipped ones for content without them."""
    return parse_arms(content["arms"]) if "arms" in content else load_arms()


def new_state(content: dict[str, Any], *, strict: bool = True) -> State:
    """The match as content describes it (map, mission, squads, arms); ContentError in plain
    words. `strict`: each squad within the scenario's points."""
    board = map_from_json(content.get("map"))
    scenario = parse_scenario(content.get("mission"))
    check_zones_fit(scenario, board.height)
    arms = arms_of(content)
    raw = content.get("squads")
    if not isinstance(raw, list) or len(raw) not in SEATS:
        raise ContentError("A match of the infantry rules has two squads, one per player.")
    for seat, data in enumerate(raw):
        if data is None:
            raise ContentError(f"Seat {seat + 1} has not chosen its squad yet.")
    limit = scenario.points if strict else UNLIMITED
    squads = [parse_squad(arms, data, limit) for data in raw]
    return State(
        board=board,
        map_name=board.name,
        scenario=scenario,
        arms=arms,
        seats=[Seat(squad.name, squad.name) for squad in squads],
        troopers=_troopers(squads),
        deployed=[False] * SIDES,
    )


def _troopers(squads: list[Squad]) -> list[Trooper]:
    """Every trooper of both squads; a name the first squad has already gets its seat's
    number ("Rossi2")."""
    troopers: list[Trooper] = []
    taken: set[str] = set()
    for seat, squad in enumerate(squads):
        for recruit in squad.troopers:
            shown = (
                recruit.name
                if recruit.name.casefold() not in taken
                else f"{recruit.name}{seat + 1}"
            )
            taken.add(shown.casefold())
            troopers.append(new_trooper(shown, seat, recruit))
    return troopers


def new_trooper(id: str, seat: int, recruit: Recruit) -> Trooper:
    """A trooper as the game starts: a clean track with its armour's cells, its primary active,
    its kit carried (Weapons and Equipment ¶1)."""
    kit = recruit.kit
    return Trooper(
        id=id,
        seat=seat,
        recruit=recruit,
        track=card.new_track(kit.armour_cells),
        active=kit.primary.name,
        primary=kit.primary.name,
        secondary=None if kit.secondary is None else kit.secondary.name,
        grenades=kit.grenades,
    )


# --- deployment ---------------------------------------------------------------------------------
def zone_rows(state: State, seat: int) -> tuple[int, int]:
    """The seat's zone's first and last rows, counted from 1 at the top."""
    return state.scenario.zones[seat].rows(state.board.height)


def zone_dots(state: State, seat: int) -> list[Dot]:
    """Every dot a trooper of `seat` may deploy on: its zone's rows, not impassable."""
    first, last = zone_rows(state, seat)
    return [
        Dot(x, y)
        for y in range(first - 1, last)
        for x in range(state.board.width)
        if not state.board.impassable(Dot(x, y))
    ]


def placement_help(state: State, seat: int) -> str:
    """How `seat` deploys, in words: every trooper once, on a dot of its zone's rows."""
    first, last = zone_rows(state, seat)
    rows = f"row {first}" if first == last else f"rows {first} to {last}"
    names = ", ".join(t.id for t in state.troopers_of(seat))
    corner = Dot(state.board.width - 1, last - 1)
    return (
        f"Place each of {names} on its own open dot of {rows} "
        f'(A{first} to {corner}), like {{"{state.troopers_of(seat)[0].id}": "C{first}"}}.'
    )


def deploy(state: State, seat: int, placements: dict[str, str]) -> None:
    """Place every trooper of `seat` in its zone, standing at level 0; IllegalCommand names the
    first mistake, and nothing is placed then."""
    if state.deployed[seat]:
        raise IllegalCommand(f"{state.seats[seat].name} has already deployed.")
    mine = state.troopers_of(seat)
    if not isinstance(placements, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in placements.items()
    ):
        raise IllegalCommand(placement_help(state, seat))
    named = {k.casefold(): v for k, v in placements.items()}
    if set(named) != {t.id.casefold() for t in mine} or len(named) != len(placements):
        raise IllegalCommand("Place every trooper once. " + placement_help(state, seat))
    allowed = set(zone_dots(state, seat))
    dots: dict[str, Dot] = {}
    for trooper in mine:
        text = named[trooper.id.casefold()]
        try:
            dot = Dot.parse(text)
        except RulesError as error:
            raise IllegalCommand(f"{trooper.id}: {error}") from error
        if dot not in allowed:
            raise IllegalCommand(
                f"{trooper.id} cannot deploy on {dot}: it is not an open dot of its zone. "
                + placement_help(state, seat)
            )
        if dot in dots.values():
            raise IllegalCommand(f"Two troopers cannot deploy on {dot}.")
        dots[trooper.id] = dot
    for trooper in mine:
        trooper.dot, trooper.level, trooper.prone = dots[trooper.id], 0, False
    state.deployed[seat] = True
