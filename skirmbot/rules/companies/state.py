"""The state of a match under the group rules: seats (each a player's Company), sides, Groups,
the round and whose turn it is (the companies package owns it).

Nothing outside `skirmbot/rules/companies/` reads it: the rest of skirmbot sees it through
`Ruleset.view`, `card` and `deciding`. Team play: a match has two sides (rulebook Setup 5), each
of one or more seats; seat n is on side n % 2 (`SIDES`), so seats (0, 2) face (1, 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmbot.rules.board import Board
from skirmbot.rules.companies.profiles import CaptainTrait, Catalogue, Profile
from skirmbot.rules.companies.scenarios import Scenario
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.maps import BattleMap
from skirmbot.rules.squares import Square

SIDES = 2  # attackers and defenders (rulebook Setup 5); which is which is rolled off


def side_of_seat(seat: int) -> int:
    return seat % SIDES


@dataclass
class Group:
    """A Group of models (rulebook General: "Distance and Range are measured between the
    closest models in each Group")."""

    id: str  # unique in the match: what commands name ("Spearmen", "Spearmen2")
    name: str  # its name in its company list
    seat: int  # the player (Company) commanding it
    profile: Profile
    r: int  # Resilience now (the profile's at the start)
    models: list[Square] = field(default_factory=list)  # each model's square; [] off the table
    shaken: bool = False
    activated: bool = False  # activated, rallied or checked for Reckless this turn
    captain: bool = False  # the Captain's Group
    summoned: bool = False  # brought by a Summon order: fielded for no points
    routed: bool = False  # removed from play (Routed, R 0, or its player conceded)
    routed_by: int | None = None  # the seat whose Group caused its Rout, if any
    # How it was Routed (resilience.ROUTED_HOW: "attack", "shoot", "hex", "test", "retreat",
    # "conceded"): the order whose losses, test or Retreat removed it, for ambitions (glory).
    routed_how: str = ""
    has_summoned: bool = False  # its Summon order has been given (once per game)

    @property
    def side(self) -> int:
        return side_of_seat(self.seat)

    @property
    def on_table(self) -> bool:
        return bool(self.models) and not self.routed

    @property
    def bloodied(self) -> bool:
        """Our ruling (Bloodied): at half its starting R or less, rounded down."""
        return self.r <= self.profile.r // 2

    @property
    def lost(self) -> int:
        """R lost so far."""
        return self.profile.r - self.r


@dataclass
class Seat:
    """One player and their Company."""

    name: str  # the Company's name
    points: int  # the points it fielded (its list's)
    captain_trait: CaptainTrait | None = None  # rolled when deployment is revealed
    ambition: str | None = None  # chosen after deployment (rulebook Setup 7)
    placed: bool = False  # deployed
    ended: bool = False  # ended its part of its side's turn
    out: bool = False  # conceded: its Company has left the table
    halved: bool = False  # the half-points test (Testing Resilience) has been taken
    # Standing orders: test Defiant / Elusive when attacked, without being asked; `prompt`: ask
    # me instead, and use these when I do not answer within the reaction window.
    defiant: bool = True
    elusive: bool = True
    prompt: bool = False


@dataclass
class PendingAttack:
    """An Attack waiting for the defending player's decision to test an interrupt trait."""

    attacker: str  # group ids
    target: str
    trait: str  # DEFIANT or ELUSIVE


@dataclass
class State:
    board: Board  # the table: the map at 2x2 squares of 1 inch per map square (geometry)
    map_name: str
    scenario: Scenario
    catalogue: Catalogue
    objectives: tuple[Square, ...]  # on the table's squares
    seats: list[Seat]
    groups: dict[str, Group]  # by id in lower case
    zones: tuple[frozenset[Square], ...]  # each seat's deployment zone
    attackers: int | None = None  # the side that won the roll-off
    round: int = 0  # 0 during set-up; a round is one turn of each side
    active: int | None = None  # the side whose turn it is
    reckless: list[str] = field(default_factory=list)  # must still attempt their Attack
    pending: PendingAttack | None = None
    vp: list[int] = field(default_factory=lambda: [0] * SIDES)
    over: bool = False
    reason: str = ""
    turns: int = 0  # turns begun so far
    acted: int = 0  # orders given in the turn in progress: taking one back goes no further
    # Added for the view (issue 30): the table as a map (`geometry.table_of`), which pictures
    # draw terrain from; and the orders given so far in the match, each one activation (the
    # turn clock's and one-line orders' count: `MatchView.activations`).
    battle_map: BattleMap | None = None
    orders: int = 0
    rounds_done: int = 0  # rounds ended (scoring.end_of_round counts them): the game's clock

    def group(self, name: str) -> Group:
        found = self.groups.get(name.lower()) if isinstance(name, str) else None
        if found is None:
            raise IllegalCommand(f"There is no Group called '{name}' in this match.")
        return found

    def group_at(self, square: Square) -> Group | None:
        return next((g for g in self.groups.values() if g.on_table and square in g.models), None)

    def occupied(self) -> dict[Square, Group]:
        return {square: g for g in self.groups.values() if g.on_table for square in g.models}

    def seats_of(self, side: int) -> list[int]:
        return [n for n in range(len(self.seats)) if side_of_seat(n) == side]

    def groups_of(self, seat: int) -> list[Group]:
        return [g for g in self.groups.values() if g.seat == seat]

    def enemies_of(self, group: Group) -> list[Group]:
        return [g for g in self.groups.values() if g.on_table and g.side != group.side]
