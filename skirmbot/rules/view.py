"""What a ruleset shows of its state: the only picture of a match the rest of skirmbot reads.

A ruleset owns its state (Skirm's `MatchState`, the d20 rules' own); nothing above `rules/`
reads it. Pictures, captions, status lines, timers, pings and autocomplete's labels read a
`MatchView` (`Ruleset.view`), a unit's card reads a `CardView` (`Ruleset.card`), and the clock
asks `Ruleset.deciding` who must decide now. Plain frozen data, so a view can be compared,
cached and drawn without knowing which rulebook made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from skirmbot.rules.board import Board
from skirmbot.rules.commands import Command
from skirmbot.rules.dots import Dot
from skirmbot.rules.maps import BattleMap

# A match's phase as the rest of skirmbot needs it: set-up (placing units, in secret), play, over.
SETUP = "setup"
PLAYING = "playing"
OVER = "over"

# A piece's state as pictures draw it; a ruleset's words for it are in its skin and its card.
READY = "ready"
ACTIVATED = "activated"  # done for this turn or round
DOWNED = "downed"  # lying on its side: may come back or be removed (Lite, the d20 rules)
OUT = "out"  # removed from play (Skirm's Taken Out, a casualty)

# Why the commands a missed deadline sends (`Decision.on_timeout`) were sent: what the log shows.
MISSED = "the turn timer ran out"


class Position(Protocol):
    """A place on a ruleset's board as the rest of skirmbot holds it: opaque, hashable and
    named by `str()` in the notation players type ("C4"). The ruleset reads typed text into one
    (`Ruleset.position`) and only it looks inside, so the service, cogs and console never know
    which grid a match is on: Skirm's `Square` is one, the infantry rules' `Dot` another."""

    def __hash__(self) -> int: ...

    def __str__(self) -> str: ...


# Which grid a board is, as pictures lay it out (`MatchView.grid`): the kernel's squares (Skirm,
# Lite, d20, the group rules) or the infantry rules' dots (hexagons, skirmbot.rules.dots).
SQUARES = "squares"
DOTS = "dots"

# What a dot of a DotBoardView may be besides open ground (its `ground`): a tree trunk or rock
# no trooper enters, or a dot with stairs or a ladder up to the next level.
GROUND_KINDS = ("impassable", "stairs", "ladder")
# What may sit on the side between two dots (an EdgeView's kind): a low wall, a hedge or fence
# ("light" cover), a wall, a door, a window (rulebook 002's Line of Sight and Movement).
EDGE_KINDS = ("low", "light", "wall", "door", "window")


@dataclass(frozen=True)
class EdgeView:
    """A feature on the side between neighbouring dots `a` and `b` (named "C4"), at `level`."""

    a: str
    b: str
    kind: str  # one of EDGE_KINDS
    level: int = 0


@dataclass(frozen=True)
class DotBoardView:
    """A board of dots (the infantry rules' hexagons, skirmbot.rules.dots) as pictures draw it:
    the ruleset describes it in plain names, so the picture needs no infantry map."""

    width: int  # dots across (at most 26: the columns are the letters A-Z)
    height: int  # rows of dots
    ground: tuple[tuple[str, str], ...] = ()  # (dot name, one of GROUND_KINDS); others open
    levels: tuple[tuple[str, int], ...] = ()  # (dot name, its top level); others level 0
    edges: tuple[EdgeView, ...] = ()

    def parse(self, text: str) -> Dot:
        """A dot's name ("C4") read back: what events and markers name positions by."""
        return Dot.parse(text)

    def dots(self) -> list[Dot]:
        """Every dot of the board, row by row."""
        return [Dot(x, y) for y in range(self.height) for x in range(self.width)]

    def ground_of(self, dot: Dot) -> str:
        """The dot's kind of ground: one of GROUND_KINDS, or "" for open ground."""
        return dict(self.ground).get(str(dot), "")

    def level(self, dot: Dot) -> int:
        return dict(self.levels).get(str(dot), 0)


@dataclass(frozen=True)
class ArcView:
    """A firing arc on the board (rulebook 002, Firing Arcs): a wedge from its vertex."""

    owner: str  # the trooper that set it
    side: int  # its seat: the wedge's colour
    vertex: str  # the dot it is fired from ("C4")
    level: int
    facing: float  # the wedge's middle, in dots.bearing degrees (clockwise from north-east)
    width: int  # degrees: 30, 60 or 150
    shots: int  # shots left in it


# Facing, for a piece whose rules care which way it looks (the d20 rules' Big Models).
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


@dataclass(frozen=True)
class PieceView:
    """One unit (agent, model) as the picture and autocomplete show it."""

    id: str  # unique in the match: what commands name ("Remus")
    side: int  # the seat that commands it
    kind: str  # its profile's name ("Warden Scout")
    squares: tuple[Position, ...] = ()  # the cells it covers (a Big Model may cover several)
    status: str = READY
    hit: int | None = None  # hit points now; None: the rulebook has none
    max_hit: int | None = None
    facing: str | None = None  # one of FACINGS, for a piece with facing
    carrying: str = ""  # what it carries, in words ("intel")
    marks: tuple[str, ...] = ()  # short marks on its token ("STN", "SEN")
    leader: bool = False  # a leader's token wears a star
    name: str = ""  # its squad file's name for it, if not its id (two "Remus" in one match)
    # Added for groups (issue 30): True, a Group of several models, one standing on each of
    # `squares` (the first is the model its label and marks are drawn on); False, one body
    # covering `squares` (a Big Model).
    group: bool = False
    # Added for the infantry rules (issue 31): the level it stands on (a building's floor), lying
    # prone, and its armour cells left of how many (None: the rulebook has no armour track).
    level: int = 0
    prone: bool = False
    armour: int | None = None
    max_armour: int | None = None

    @property
    def square(self) -> Position | None:
        """Where it stands (its first cell); None off the map."""
        return self.squares[0] if self.squares else None

    @property
    def on_map(self) -> bool:
        return bool(self.squares) and self.status != OUT


@dataclass(frozen=True)
class MarkerView:
    """Something on the board that is not a unit: an objective, an item, a beacon, a token."""

    kind: str  # "objective", "intel", "crate", "turret", "beacon", ...
    square: Position | None  # None: off the board (a carried marker, a destroyed turret)
    label: str  # in words: "Objective 2", "crate on C4"
    side: int | None = None  # who holds or controls it; None: nobody
    hit: int | None = None  # a turret's hit points
    id: int | None = None  # what events name it by (an item's number), if they name it
    number: int = 0  # the number drawn on it (objective 2); 0: none
    variant: str = ""  # which of its kind, when the picture tells them apart ("machine_gun")


@dataclass(frozen=True)
class SideView:
    """One seat's line in the header and the status: its name and its standing in a few words."""

    side: int
    name: str  # the squad's (company's, warband's) name
    standing: str  # "2 MP · 3 TO · 4 up · 1 out"; the d20 rules: "AP 7 · 3 bonus dice"
    score: int = 0
    out: bool = False  # conceded or eliminated: the others play on


@dataclass(frozen=True)
class MatchView:
    """The match as everything outside the rules sees it."""

    ruleset: str
    phase: str  # SETUP, PLAYING or OVER
    turn: int  # the turn (round) now; 0 before the first
    turns: int | None  # how many there are; None: the rulebook does not fix it
    title: str  # the mission's (scenario's) name
    board: Board | DotBoardView  # squares (the kernel's Board) or dots, as `grid` says
    map_name: str
    sides: tuple[SideView, ...]
    pieces: tuple[PieceView, ...]
    markers: tuple[MarkerView, ...] = ()
    to_act: int | None = None  # whose turn or activation it is; None in set-up or when over
    activating: str | None = None  # the unit activating now, if any
    turn_word: str = "Turn"  # what the rulebook calls a turn ("Round")
    notes: tuple[str, ...] = ()  # more header text: "Next: Ash Runners", "Event: Fog"
    # Added for the pictures (issue 29):
    battle_map: BattleMap | None = None  # the map played on (its source keys drawn terrain)
    outcome: str = ""  # when over, in a few words: "Iron Wardens wins", "Draw"
    out_word: str = "Taken Out"  # what the rulebook calls a piece removed from play
    activations: int = 0  # activations (moves) done so far in the match: the turn clock's key
    # the unit whose roll waits for its own player's decision (accept it, re-roll a die); None:
    # no roll waits (a ruleset without such decisions leaves it None)
    rolling: str | None = None
    # Added for the words (issue 29): what the rulebook calls a piece removed from play (one,
    # after its name: "Taken Out", "a casualty") and one knocked down, and whether an attack
    # takes HIT (hit points) at all: False, it only downs the loser of the roll (the d20 rules).
    casualty_word: str = "Taken Out"
    down_word: str = "Downed"
    hits: bool = True
    # Added for team play (issue 30): the seats grouped into sides when a side has several
    # (`Ruleset.sides_of`: ((0, 2), (1, 3)) for two teams of two); (): every seat a side of its
    # own. Pictures shade a side's seats in its colour.
    teams: tuple[tuple[int, ...], ...] = ()
    # Every seat that may act now when several may (the seats of the side whose turn it is);
    # (): only `to_act`. `to_act` is the first of them.
    acting: tuple[int, ...] = ()
    # Added for positions (issue 31): which grid `board` is (SQUARES or DOTS), so the picture
    # picks its layout without knowing the ruleset.
    grid: str = SQUARES
    # The firing arcs on the board (the infantry rules), drawn as wedges from their vertex.
    arcs: tuple[ArcView, ...] = ()

    def seats_acting(self) -> tuple[int, ...]:
        """The seats that may act now: `acting`, else `to_act` alone; () in set-up or when over."""
        if self.acting:
            return self.acting
        return () if self.to_act is None else (self.to_act,)

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats of `seat`'s side (itself alone when every seat is a side of its own)."""
        return next((team for team in self.teams if seat in team), (seat,))

    def piece(self, unit: str) -> PieceView | None:
        """The piece called `unit`, if any."""
        return next((piece for piece in self.pieces if piece.id == unit), None)

    def pieces_of(self, side: int) -> tuple[PieceView, ...]:
        return tuple(piece for piece in self.pieces if piece.side == side)

    def ready(self, side: int) -> tuple[PieceView, ...]:
        """The side's units on the map that may still activate this turn."""
        return tuple(p for p in self.pieces_of(side) if p.on_map and p.status == READY)


@dataclass(frozen=True)
class Decision:
    """A seat that must decide now, and what a missed deadline sends for it.

    More than one seat may decide at once, and a seat may decide outside its own turn (a
    defender's bonus dice in the d20 rules). The clock runs, reminds and pings per Decision."""

    side: int
    why: str  # in words, for the reminder: "Remus is activating: act, or /end it"
    on_timeout: tuple[Command, ...] = ()  # sent in order when the deadline passes
    turn: bool = True  # the seat's own turn or activation (False: a reaction in another's)
    # What the deadline belongs to: the same key keeps its time, a new key is a new decision
    # with fresh time (Skirm: one activation, "t2:a3:s1"; misses are kept under it).
    key: str = ""
    # What a missed deadline's `on_timeout` does, in words after "missed the deadline: "
    # (added for the group rules, issue 30, where a miss ends a player's part of the turn).
    missed: str = "the activation ends where it stands"


# How a cell of a card's track is marked (rulebook 002's unit card): clean, half crossed (\:
# bludgeoning), fully crossed (X: lethal) or marked off before the game (an armour cell unused).
TRACK_MARKS = ("", "half", "full", "unused")


@dataclass(frozen=True)
class TrackView:
    """A row of cells on a card that damage crosses out (the infantry rules' HP cells 10 to 1,
    their armour cells), with rows of values aligned under the cells ("AP", ("8", "8", ...)):
    the card reads the value under the cell of the unit's present state."""

    title: str  # "HP", "Armour"
    labels: tuple[str, ...]  # each cell's label, left to right ("10", "9", ... "1")
    marks: tuple[str, ...]  # each cell's mark, one of TRACK_MARKS
    rows: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (title, one value per cell)
    note: str = ""  # a few words after it ("Basic"): what the cells are
    # the column whose row values apply now (the infantry rules: the current HP's); None: none
    column: int | None = None

    def __post_init__(self) -> None:
        if len(self.marks) != len(self.labels):
            raise ValueError(f"{self.title}: {len(self.labels)} cells, {len(self.marks)} marks")
        if any(mark not in TRACK_MARKS for mark in self.marks):
            raise ValueError(f"{self.title}: a cell's mark is one of {TRACK_MARKS}")
        if any(len(values) != len(self.labels) for _, values in self.rows):
            raise ValueError(f"{self.title}: every row has a value under each cell")
        if self.column is not None and not 0 <= self.column < len(self.labels):
            raise ValueError(f"{self.title}: no column {self.column}")


# How a track's marks read aloud (`track_words`): a screen reader says "8 crossed".
MARK_WORDS = {"": "", "half": "half crossed", "full": "crossed", "unused": "unused"}


def track_words(track: TrackView) -> tuple[str, ...]:
    """The track as lines a screen reader reads: "HP: 10, 9 crossed, 8, 7 half crossed, ..."
    then each row under it ("AP: 8 8 8 7 ..."), from the same TrackView the picture draws."""
    cells = ", ".join(
        f"{label} {MARK_WORDS[mark]}" if mark else label
        for label, mark in zip(track.labels, track.marks, strict=True)
    )
    note = f" ({track.note})" if track.note else ""
    head = f"{track.title}{note}: {cells}"
    return (head, *(_row_words(track, title, values) for title, values in track.rows))


def _row_words(track: TrackView, title: str, values: tuple[str, ...]) -> str:
    """A row under a track: "AP 7 now: 8 8 8 7 ..." (the value in `column` first)."""
    now = f" {values[track.column]} now" if track.column is not None else ""
    return f"{title}{now}: {' '.join(values)}"


@dataclass(frozen=True)
class CardView:
    """A unit's card: what `/card` draws and reads out."""

    name: str  # the unit's name in the match
    kind: str  # its profile's name
    side: int
    squad: str  # its squad's name
    stats: tuple[tuple[str, str], ...]  # boxes before HIT: ("ACT", "3"), ("MOV", "6\"")
    hit: int | None = None
    max_hit: int | None = None
    weapons: tuple[WeaponView, ...] = ()
    rules: tuple[str, ...] = ()  # its special rules' titles ("Tough 1")
    status: str = "Ready"  # in the ruleset's words
    points: int | None = None  # what it costs, if the skin shows points
    notes: tuple[str, ...] = ()  # more lines: XP, spoils, facing
    # Added for the card picture (issue 29):
    leader: bool = False  # the LEADER badge
    codes: tuple[str, ...] = ()  # each of `rules`' short code, for its pill ("TG1")
    # Lines after the stats, each a label and its words: ("EP", "10 unit + 5 gear = 15").
    costs: tuple[tuple[str, str], ...] = ()
    status_kind: str = READY  # the piece's status as pictures draw it (READY ... OUT)
    # Added for the infantry rules' card (issue 31): rows of cells damage crosses out, drawn as
    # the rulebook's card draws them (HP, armour); (): the ruleset has none.
    tracks: tuple[TrackView, ...] = ()


@dataclass(frozen=True)
class WeaponView:
    name: str
    melee: bool
    stats: tuple[tuple[str, str], ...]  # ("ROA", "2"), ("RG", "8")
    rules: tuple[str, ...] = field(default_factory=tuple)
    spent: bool = False  # a one-use weapon already used
    codes: tuple[str, ...] = ()  # each of `rules`' short code, for its pill ("LIM")
    spent_by: str = ""  # the code of the rule that spends it ("LIM"): its chip alerts when spent


def activation_key(turn: int, done_before: int, side: int) -> str:
    """A `Decision.key` for one activation of a ruleset that plays activation by activation
    (Skirm's family): the turn, the activations done before it in that turn, the side. A miss
    is kept under it, and the recap reads it back from the log's events."""
    return f"t{turn}:a{done_before}:s{side}"
