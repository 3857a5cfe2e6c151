"""The state of a d20 match: seats, models, the round and the turn (the d20 package owns it).

Nothing outside `skirmbot/rules/d20/` reads it: the rest of skirmbot sees it through
`Ruleset.view`, `card` and `deciding`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmbot.rules.board import Board
from skirmbot.rules.d20.armory import Profile
from skirmbot.rules.d20.scenarios import Scenario
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.squares import Square
from skirmbot.rules.view import ACTIVATED, DOWNED, FACINGS, OUT, READY

MAX_BONUS_DICE = 6  # "Each player can have no more than 6 Bonus Dice at time."
# The turn's steps: "Purchase Bonus Dice", "Action Phase", "Purchase Bonus Dice" (the Command
# Phase's roll is the engine's, as the turn starts).
BEFORE, ACTION, AFTER = "before", "action", "after"


@dataclass
class Model:
    id: str
    side: int
    profile: Profile
    square: Square | None = None  # a Big Model's top-left cell
    facing: str | None = None  # Big Models only, one of FACINGS
    status: str = READY  # READY, ACTIVATED, DOWNED or OUT
    moves: int = 0  # movements in this activation
    fought: bool = False  # combat in this activation
    moved_then_fought: bool = False  # "cannot move, perform combat, and move again"
    downed_by: int | None = None  # the seat whose model downed it (casualties score for it)

    @property
    def big(self) -> bool:
        return self.profile.big

    @property
    def cells(self) -> tuple[Square, ...]:
        """The squares it covers: a Big Model 2x2 from its top-left cell (our ruling: Scale)."""
        if self.square is None or self.status == OUT:
            return ()
        if not self.big:
            return (self.square,)
        x, y = self.square
        return (self.square, Square(x + 1, y), Square(x, y + 1), Square(x + 1, y + 1))

    @property
    def standing(self) -> bool:
        return self.square is not None and self.status in (READY, ACTIVATED)


@dataclass
class Seat:
    name: str  # the warband's name
    ap: int = 0  # action points left this turn
    bonus: int = 0  # bonus dice held
    out: bool = False  # conceded, or no model left
    out_at: int = 0  # the order seats went out in (a later one places higher)
    score: int = 0
    defend: int = 0  # standing order: defend with up to this many bonus dice
    prompt: bool = False  # wait for the seat's own Defend instead of its standing order
    placed: bool = False


@dataclass
class PendingAttack:
    """An attack waiting for the defender's bonus dice (the defender asked to be prompted)."""

    attacker: str
    target: str
    weapon: str
    bonus: int  # the attacker's bonus dice


@dataclass
class State:
    board: Board
    map_name: str
    scenario: Scenario
    objectives: tuple[Square, ...]
    seats: list[Seat]
    models: dict[str, Model]
    zones: tuple[frozenset[Square], ...]  # each seat's deployment zone
    round: int = 0  # 0 during deployment
    order: list[int] = field(default_factory=list)  # this round's initiative order
    to_act: int | None = None  # the seat whose turn it is
    step: str = BEFORE
    active: str | None = None  # the model activating now
    pending: PendingAttack | None = None
    free_move: str | None = None  # the melee winner that may still take its free move
    over: bool = False
    reason: str = ""
    went_out: int = 0  # seats gone out so far
    turns: int = 0  # turns begun so far
    acted: int = 0  # actions taken in the turn in progress: taking one back goes no further

    def model(self, name: str) -> Model:
        found = self.models.get(name.lower()) if isinstance(name, str) else None
        if found is None:
            raise IllegalCommand(f"There is no model called '{name}' in this match.")
        return found

    def model_at(self, square: Square) -> Model | None:
        return next((m for m in self.models.values() if square in m.cells), None)

    def occupied(self, ignore: Model | None = None) -> dict[Square, Model]:
        return {
            cell: model
            for model in self.models.values()
            if model is not ignore
            for cell in model.cells
        }

    def in_play(self) -> list[int]:
        """The seats still playing."""
        return [n for n, seat in enumerate(self.seats) if not seat.out]


__all__ = ["ACTIVATED", "DOWNED", "FACINGS", "OUT", "READY", "Model", "Seat", "State"]
