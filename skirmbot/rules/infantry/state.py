"""The state of a match under the infantry rules (rulebook 002, "3 Infantry"): two seats, each a
player's squad of troopers on a map of dots, the firing arcs standing, a move paused for an
arc's owner, melee attacks and explosive tokens waiting, dropped weapons, the round and whose
turn it is (the infantry package owns it).

Nothing outside `skirmbot/rules/infantry/` reads it but through the ruleset's views. Plan:
docs/plans/infantry.md, sections 2 (the turn sequence, arcs lasting) and 3 (fire during the
enemy's movement).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmbot.rules.commands import Command
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.infantry import card
from skirmbot.rules.infantry.arms import Arms
from skirmbot.rules.infantry.blast import Token
from skirmbot.rules.infantry.maps import DotMap
from skirmbot.rules.infantry.scenarios import Scenario
from skirmbot.rules.infantry.squads import Recruit

SIDES = 2  # two players (our ruling: the chapter has two sides)
# How an arc fires without asking its owner (plan section 3): at every chance while its shots
# last; only at the first `n` enemy troopers to enter it; only at short range; never.
EVERY, FIRST, SHORT, HOLD = "every", "first", "short", "hold"
ARC_ORDERS = (EVERY, FIRST, SHORT, HOLD)


@dataclass
class Trooper:
    """A trooper in the match: its squad file's row (`recruit`), its card's damage (`track`,
    whose `armour` is the body armour cells left), where it is and what it did this turn."""

    id: str  # unique in the match ("Rossi"; "Rossi2" if both squads have one)
    seat: int
    recruit: Recruit
    track: card.Track  # HP cells and armour cells left
    active: str  # the active weapon's name (Special Actions ¶1)
    primary: str | None  # what it carries now: Take and Drop change these
    secondary: str | None
    grenades: int  # hand grenades left; a satchel charge is the `secondary`
    dot: Dot | None = None  # None before deployment
    level: int = 0
    prone: bool = False
    spent: int = 0  # AP spent this turn (reset when its side's turn starts)
    moved: int = 0  # movement AP spent this activation (terrain.MOVE_CAP)
    activated: bool = False  # done this turn
    combat: bool = False  # this activation has taken a combat action: no more movement
    threw: bool = False  # this activation threw an explosive: no arc after (Explosives ¶1)
    attacked_here: tuple[str, ...] = ()  # arc owners that shot at it on its present position
    # The weapon active before it switched to an explosive: it switches back to it for 0 AP
    # after the throw (Special Actions ¶1; our ruling: the one switched from).
    switched_from: str | None = None

    @property
    def armour(self) -> int:
        """Body armour cells left (the track keeps them: damage takes them first)."""
        return self.track.armour

    @property
    def max_ap(self) -> int:
        """The AP row's value at its current HP less its armour's cost (Unit Card ¶4)."""
        return card.max_ap(self.track, self.recruit.kit.armour_cost)

    @property
    def left(self) -> int:
        """AP it may still spend this turn."""
        return max(0, self.max_ap - self.spent)

    @property
    def dead(self) -> bool:
        return card.is_dead(self.track)

    @property
    def unconscious(self) -> bool:
        return card.is_unconscious(self.track)

    @property
    def able(self) -> bool:
        """Neither dead nor unconscious: it still activates, fires and blocks a dot."""
        return card.is_able(self.track)

    @property
    def on_map(self) -> bool:
        return self.dot is not None


@dataclass(frozen=True)
class Arc:
    """A firing arc (Firing Arcs ¶1): its vertex is the dot its owner stood on; `facing` in
    `dots.bearing` degrees; `shots_left` of the arc's shots; `order` what it does unasked
    (ARC_ORDERS; `n` for FIRST); `fired_at`: the enemy troopers it has shot at, in order."""

    owner: str
    vertex: Dot
    level: int
    facing: float
    width: int  # 30, 60 or 150
    weapon: str
    shots_left: int
    order: str = EVERY
    n: int = 0
    fired_at: tuple[str, ...] = ()


@dataclass(frozen=True)
class Moving:
    """A move paused for an arc's owner to decide (plan section 3): the mover, the steps still
    to take after its present position, the arc owners still to decide there (oldest arc
    first), and what resumes after ("move", "activate", "stand", "climb")."""

    unit: str
    steps: tuple[Dot, ...]
    chances: tuple[str, ...]
    action: str
    # The order that started the activation, carried out once the chances at the start are
    # decided ("activates in": Firing Arcs ¶2); None for a move (its steps are the rest).
    then: Command | None = None


@dataclass(frozen=True)
class PendingMelee:
    """A melee attack made, resolved when its target next activates (Melee ¶1)."""

    attacker: str
    target: str
    weapon: str


@dataclass(frozen=True)
class Thrown:
    """An explosive's token, resolved at the end of its side's turn (Explosives ¶3)."""

    seat: int
    thrower: str
    weapon: str
    token: Token


@dataclass(frozen=True)
class Item:
    """A dropped weapon lying on a dot (Special Actions ¶2): anyone may take it."""

    dot: Dot
    level: int
    name: str


@dataclass
class Seat:
    """One player and their squad. `prompt`: their standing order to be asked live whenever
    one of their arcs gets a chance (otherwise the arc's own order decides)."""

    name: str  # the player's squad's name
    squad: str
    prompt: bool = False
    out: bool = False  # conceded


@dataclass
class State:
    board: DotMap
    map_name: str
    scenario: Scenario
    arms: Arms
    seats: list[Seat]
    troopers: list[Trooper]
    deployed: list[bool]
    round: int = 0  # 0 during set-up; a round is one turn of each side
    first: int | None = None  # the seat whose turn opens each round (rolled off)
    to_act: int | None = None  # the seat whose turn it is
    activating: str | None = None  # the trooper whose activation is in progress
    acted: int = 0  # activations done in the match
    arcs: list[Arc] = field(default_factory=list)  # in the order established
    moving: Moving | None = None
    melees: list[PendingMelee] = field(default_factory=list)
    tokens: list[Thrown] = field(default_factory=list)  # in throw order
    items: list[Item] = field(default_factory=list)
    over: bool = False
    winner: int | None = None  # the winning seat; None: a draw (or not over)
    result: str = ""  # why the match ended, in words
    turns: int = 0  # side turns begun so far

    def trooper(self, id: str) -> Trooper:
        """The trooper called `id` (any case); IllegalCommand naming them all if none is."""
        if isinstance(id, str):
            for trooper in self.troopers:
                if trooper.id.casefold() == id.casefold():
                    return trooper
        names = ", ".join(t.id for t in self.troopers)
        raise IllegalCommand(f"There is no trooper called '{id}' in this match: there are {names}.")

    def troopers_of(self, seat: int) -> list[Trooper]:
        return [t for t in self.troopers if t.seat == seat]

    def arc_of(self, owner: str) -> Arc | None:
        """The arc `owner` has standing, if any (one a trooper: our ruling)."""
        return next((arc for arc in self.arcs if arc.owner == owner), None)

    def standing_at(self, dot: Dot, level: int) -> Trooper | None:
        """The able trooper on `dot` at `level`, if any (two never share a position)."""
        return next(
            (t for t in self.troopers if t.able and t.dot == dot and t.level == level), None
        )
