"""A match of the group rules before its first round: seats, Companies, deployment, and the
rolls made when deployment is revealed (rulebook Setup).

Each side's points (Setup 1: "Choose points total for each side") are the scenario's `points`,
shared out evenly between its seats (our ruling: team play). Deployment is secret and
simultaneous, in each seat's zone (our ruling: Deployment): a Group is placed by its first
model's square, the rest filled in around it in Cohesion, or by every model's square. When all
are revealed the engine rolls each Captain's trait (Setup 4) and the attackers' roll-off
(Setup 5); our ruling: these come after deployment, since deployment zones are by side and
nothing a player decides in secret depends on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.lists import CompanyList, check_points, company_from_json
from skirmbot.rules.companies.profiles import catalogue_of
from skirmbot.rules.companies.scenarios import scenario_from_json
from skirmbot.rules.companies.state import SIDES, Group, Seat, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

SEATS = (2, 4, 6)  # two sides of 1, 2 or 3 players
SEATS_WORDS = "2, 4 or 6 Companies, one per player: two sides of 1, 2 or 3 players"
TRAIT_DIE = 6  # Setup 4: the Captain's trait, our content's table of 1d6
ROLL_OFF_DIE = 6  # Setup 5: "Roll 1d6 each to determine which side will be attackers"


def seat_points(side_points: int, seats: int) -> int:
    """What one seat's Company may cost: its side's points shared by its side's seats."""
    return side_points // (seats // SIDES)


def new_state(content: dict[str, Any], *, strict: bool = True) -> State:
    """The match as content describes it (map, mission, squads, the catalogue if the record
    carries one); ContentError in plain words. `strict`: each Company within its points."""
    table = geometry.table_of(map_from_json(content.get("map")))
    scenario = scenario_from_json(content.get("mission"))
    catalogue = catalogue_of(content)
    raw = content.get("squads")
    if not isinstance(raw, list) or len(raw) not in SEATS:
        raise ContentError(f"A match of the group rules has {SEATS_WORDS}.")
    companies = [company_from_json(data, catalogue) for data in raw]
    if strict:
        limit = seat_points(scenario.points, len(companies))
        for company in companies:
            check_points(company, limit)
    zones = geometry.deployment_zones(table.board, len(companies))
    check_zones(table.board, tuple(_models(company) for company in companies))
    return State(
        board=table.board,
        map_name=table.name,
        scenario=scenario,
        catalogue=catalogue,
        objectives=table.objectives,
        seats=[Seat(company.name, company.points) for company in companies],
        groups=_groups(companies),
        zones=zones,
        battle_map=table,
    )


def _models(company: CompanyList) -> int:
    return sum(entry.profile.models for entry in company.groups)


def check_zones(table: Board, squad_sizes: tuple[int, ...]) -> None:
    """Whether the table has a zone for each seat with room for its Company's models (one a
    square); ContentError in plain words."""
    if len(squad_sizes) not in SEATS:
        raise ContentError(f"A match of the group rules has {SEATS_WORDS}.")
    zones = geometry.deployment_zones(table, len(squad_sizes))
    for seat, (size, zone) in enumerate(zip(squad_sizes, zones, strict=True)):
        if size > len(zone):
            raise ContentError(
                f"Seat {seat + 1}'s zone on this map has {len(zone)} squares; "
                f"its Company needs {size}."
            )


def _groups(companies: list[CompanyList]) -> dict[str, Group]:
    """Every Group by its id in lower case; a name two Companies share gets its seat's number."""
    groups: dict[str, Group] = {}
    for seat, company in enumerate(companies):
        for entry in company.groups:
            shown = entry.name if entry.name.lower() not in groups else f"{entry.name}{seat + 1}"
            groups[shown.lower()] = Group(
                id=shown,
                name=entry.name,
                seat=seat,
                profile=entry.profile,
                r=entry.profile.r,
                captain=entry.name == company.captain,
            )
    return groups


# --- deployment ---------------------------------------------------------------------------------
def deploy(state: State, seat: int, placements: dict[str, str]) -> None:
    """Place every Group of `seat` in its zone; IllegalCommand names the first mistake."""
    player = state.seats[seat]
    if player.placed:
        raise IllegalCommand(f"{player.name} has already deployed.")
    mine = {g.id.lower(): g for g in state.groups_of(seat) if not g.summoned}
    if not isinstance(placements, dict) or not all(isinstance(k, str) for k in placements):
        raise IllegalCommand(
            'Placements name each Group with its first model\'s square: {"Spearmen": "C3"}.'
        )
    every_once = IllegalCommand(
        f"Place every Group of {player.name} once: {', '.join(g.id for g in mine.values())}."
    )
    typed: dict[str, str] = {}
    for name, text in placements.items():
        group = mine.get(name.lower()) or _by_list_name(mine.values(), name)
        if group is None or group.id.lower() in typed:
            raise every_once
        typed[group.id.lower()] = text
    if set(typed) != set(mine):
        raise every_once
    zone = state.zones[seat]
    taken: set[Square] = set()
    placed: dict[str, tuple[Square, ...]] = {}
    for key, group in mine.items():  # in list order, so a formation fills in as the list reads
        models = _placed(state, group, typed[key], zone, taken)
        taken |= set(models)
        placed[key] = models
    for key, models in placed.items():
        mine[key].models = list(models)
    player.placed = True


def _by_list_name(groups: Iterable[Group], name: str) -> Group | None:
    return next((g for g in groups if g.name.lower() == name.strip().lower()), None)


def _placed(
    state: State, group: Group, text: Any, zone: frozenset[Square], taken: set[Square]
) -> tuple[Square, ...]:
    """The Group's squares as typed: one square (its first model's, the rest in Cohesion around
    it) or every model's."""
    if not isinstance(text, str) or not text.split():
        raise IllegalCommand(f"{group.id}: write its first model's square, like C3.")
    squares = [square_on(state.board, word) for word in text.replace(",", " ").split()]
    count = group.profile.models
    outside = next((s for s in squares if s not in zone), None)
    if outside is not None:
        raise IllegalCommand(
            f"{group.id} must deploy in {possessive(state.seats[group.seat].name)} zone; {outside} is not."
        )
    if len(squares) == 1 and count > 1:
        found = geometry.formation_at(
            geometry.Terrain(state.board), squares[0], count, zone - taken, taken
        )
        if found is None:
            raise IllegalCommand(
                f"{possessive(group.id)} {count} models do not fit around {squares[0]} in the zone: "
                "choose another square, or give every model's square."
            )
        return found
    if len(squares) != count:
        raise IllegalCommand(
            f"{group.id} has {count} models: give its first model's square, or one for each."
        )
    clash = next((s for s in squares if s in taken or squares.count(s) > 1), None)
    if clash is not None:
        raise IllegalCommand(f"{group.id} would stand two models on {clash}.")
    if not geometry.cohesive(squares):
        raise IllegalCommand(
            f"{possessive(group.id)} models must stand in Cohesion: each within "
            f'{geometry.COHESION}" of another.'
        )
    return tuple(squares)


def square_on(board: Board, text: object) -> Square:
    """The square typed, on this table; IllegalCommand in plain words otherwise."""
    if not isinstance(text, str):
        raise IllegalCommand(f"{text!r} is not a square: write one like C4.")
    try:
        return board.parse_square(text)
    except RulesError as error:
        raise IllegalCommand(str(error)) from error


def placement_help(state: State, seat: int) -> str:
    """What `seat` places and where, in words for its player."""
    player = state.seats[seat]
    zone = state.zones[seat]
    groups = ", ".join(
        f"{g.id} ({g.profile.models} model{'s' if g.profile.models > 1 else ''})"
        for g in state.groups_of(seat)
        if not g.summoned
    )
    return (
        f"Deploy {player.name} in your zone ({_zone_words(zone)}): {groups}. Place each Group "
        "by its first model's square (`Spearmen C3`: the rest stand around it in Cohesion) "
        "or by every model's square (`Spearmen C3 D3 E3 F3`), as /deploy reads them."
    )


def _zone_words(zone: frozenset[Square]) -> str:
    if not zone:
        return "no squares"
    first = min(zone, key=lambda s: (s.y, s.x))
    last = max(zone, key=lambda s: (s.y, s.x))
    return f"{first} to {last}"


# --- revealed -----------------------------------------------------------------------------------
def reveal(state: State, dice: Dice) -> list[Event]:
    """Every seat has deployed: each Captain's trait (1d6, in seat order), then the roll-off
    for attackers (1d6 per side, side 0 first, "higher result is the attacker. Reroll ties")."""
    events = [Event("deployed", "Every Company is deployed.", {})]
    for seat, player in enumerate(state.seats):
        if player.out:
            continue
        face = dice.roll(TRAIT_DIE)
        trait = state.catalogue.captain_traits[face - 1]
        player.captain_trait = trait
        events.append(
            Event(
                "captain_trait",
                f"{possessive(player.name)} Captain rolls {face}: {trait.name}.",
                {"side": seat, "trait": trait.key, "roll": face},
            )
        )
    return events + [roll_off(state, dice)]


def roll_off(state: State, dice: Dice) -> Event:
    """Setup 5: each side rolls 1d6, higher attacks, ties rolled again; `rolls` holds each
    roll's pair of faces, side 0's first."""
    rolls: list[list[int]] = []
    while not rolls or rolls[-1][0] == rolls[-1][1]:
        rolls.append([dice.roll(ROLL_OFF_DIE) for _ in range(SIDES)])
    attackers = 0 if rolls[-1][0] > rolls[-1][1] else 1
    state.attackers = attackers
    names = " and ".join(f"{a}-{b}" for a, b in rolls)
    return Event(
        "roll_off",
        f"Roll-off {names}: side {attackers + 1} ({side_names(state, attackers)}) attacks.",
        {"rolls": rolls, "attackers": attackers},
    )


def side_names(state: State, side: int) -> str:
    """The side's Companies by name: "Hill Wardens and Red Band"; "Lone Lance, Wild Hunt and
    Shield Oath" for three."""
    names = [state.seats[seat].name for seat in state.seats_of(side)]
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"
