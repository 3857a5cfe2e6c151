"""The state of a match: squads, units, items, the turn and the activation in progress.

State is derived from the match record by replaying it; nothing here is the source of truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skirmbot.rules.board import Board
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.maps import TURRET, BattleMap
from skirmbot.rules.skirm.cards import UnitCard
from skirmbot.rules.skirm.missions import EventEntry, Mission
from skirmbot.rules.skirm.squads import Squad
from skirmbot.rules.squares import Square
from skirmbot.words import possessive, shown

READY = "ready"
ACTIVATED = "activated"
TAKEN_OUT = "taken_out"
# Skirm Lite: at 0 HIT an Agent lies Downed on its square until revived or removed at the end
# of the turn (Lite rulebook Damage). Skirm never uses it.
DOWNED = "downed"

DEPLOYMENT = "deployment"
PLAYING = "playing"
ENDED = "ended"

# Rulings: Items. Turrets take damage like units with these stats.
TURRET_HIT = 2
TURRET_ARM = 2


@dataclass
class UnitState:
    id: str
    side: int
    card: UnitCard
    hit: int
    square: Square | None = None
    status: str = READY
    lim_uses_left: dict[str, int] = field(default_factory=dict)
    carrying: int | None = None  # item id of a carried marker
    stunned: bool = False  # STN: one ACT less in its next activation

    @property
    def on_map(self) -> bool:
        return self.square is not None and self.status != TAKEN_OUT

    @property
    def name(self) -> str:
        return self.id

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.card.name,
            "square": str(self.square) if self.square else None,
            "hit": self.hit,
            "max_hit": self.card.hit,
            "status": self.status,
            "lim_uses_left": dict(sorted(self.lim_uses_left.items())),
            "carrying": self.carrying,
            "stunned": self.stunned,
        }


@dataclass
class ItemState:
    id: int
    kind: str
    square: Square | None
    turret_type: str | None = None
    hit: int = 0
    carried_by: str | None = None

    @property
    def label(self) -> str:
        where = str(self.square) if self.square else (self.carried_by or "nowhere")
        name = (
            f"{self.turret_type.replace('_', ' ')} turret"
            if self.kind == TURRET and self.turret_type
            else self.kind
        )
        return f"{name} on {where}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "square": str(self.square) if self.square else None,
            "turret_type": self.turret_type,
            "hit": self.hit,
            "carried_by": self.carried_by,
        }


@dataclass
class SquadState:
    side: int
    squad: Squad
    orders: int = 0  # Tactical Orders left this turn
    mp: int = 0
    delayed_this_turn: bool = False
    deployed: bool = False
    reroll_saves_above: int | None = None  # standing order; None: never spend TO on reactions
    parry: bool = True  # standing order for PAR units: re-roll the attacker's best die
    counter: bool = True  # standing order for CTR units: strike back after a melee attack
    # Skirm Lite's standing order: TO per attack spent the cheapest way on failed saves; None:
    # re-roll failed saves as `reroll_saves_above` says (skirmbot.rules.lite.standing_orders)
    orders_per_attack: int | None = None

    @property
    def name(self) -> str:
        return self.squad.name

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "name": self.name,
            "orders": self.orders,
            "mp": self.mp,
            "delayed_this_turn": self.delayed_this_turn,
            "deployed": self.deployed,
            "reroll_saves_above": self.reroll_saves_above,
            "parry": self.parry,
            "counter": self.counter,
            # Only once set, so the states that old records replay to stay as they were written.
            **({} if self.orders_per_attack is None else {"orders_per_attack": self.orders_per_attack}),
        }


@dataclass
class Die:
    face: int  # the natural face: natural 1s count from this, never from the modified value
    rerolled: bool = False
    modifier: int = 0

    @property
    def value(self) -> int:
        return self.face + self.modifier

    def to_json(self) -> dict[str, Any]:
        return {"face": self.face, "rerolled": self.rerolled, "modifier": self.modifier}


@dataclass
class PendingRoll:
    """The active player's attack roll, waiting for their re-roll/change/accept decision."""

    unit: str
    skill: int
    dice: list[Die]
    attack: dict[str, Any]  # what the attack resumes with once the roll is accepted

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "skill": self.skill,
            "dice": [d.to_json() for d in self.dice],
            "attack": self.attack,
        }


@dataclass
class Activation:
    unit: str
    act_left: int
    uses: dict[str, int] = field(default_factory=dict)  # action -> times done this activation
    attack_weapons: dict[str, list[str]] = field(default_factory=dict)  # kind -> weapon names used
    pending: PendingRoll | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "act_left": self.act_left,
            "uses": dict(sorted(self.uses.items())),
            "attack_weapons": {k: list(v) for k, v in sorted(self.attack_weapons.items())},
            "pending": self.pending.to_json() if self.pending else None,
        }


@dataclass
class SecondaryDraw:
    """The secondary objective a squad drew this turn (rulebook Game Cycle). The card stays
    hidden from the opponent (and out of `to_json`) until it is scored and revealed."""

    card: str  # the card's id in the deck (skirmbot.rules.skirm.secondaries.DECK)
    turn: int
    revealed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card if self.revealed else None,
            "turn": self.turn,
            "revealed": self.revealed,
        }


@dataclass
class Result:
    winner: int | None  # None: a draw
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


@dataclass
class MatchState:
    battle_map: BattleMap
    mission: Mission
    board: Board
    squads: list[SquadState]
    units: dict[str, UnitState]
    items: dict[int, ItemState]
    objectives: list[Square]
    phase: str = DEPLOYMENT
    turn: int = 0
    initiative: int | None = None
    to_act: int | None = None  # the side whose activation is in progress or next
    in_a_row: int = 0  # activations still owed in a row to `to_act` (after a delay)
    activation: Activation | None = None
    crate_options_taken: list[str] = field(default_factory=list)
    taken_out_this_turn: list[tuple[str, int | None]] = field(default_factory=list)
    activations_done: int = 0
    result: Result | None = None
    infiltrators: list[str] = field(default_factory=list)  # INF units still to be placed
    skills_used: list[list[Any]] = field(default_factory=list)  # [turn, unit, skill] of each use
    # Missions (docs/rulings.md, Missions): this turn's environment event, each squad's
    # secondary objective of the turn and the cards it has scored, the crates opened this turn
    # (by side), and which squad armed the beacon of each objective (0-based index).
    event: EventEntry | None = None
    secondaries: list[SecondaryDraw | None] = field(default_factory=lambda: [None, None])
    secondaries_scored: list[list[str]] = field(default_factory=lambda: [[], []])
    crates_opened_this_turn: list[int] = field(default_factory=list)
    beacons: dict[int, int] = field(default_factory=dict)
    # A Skirm Lite match replayed from a record older than Lite's own cover rule (version 4,
    # issue 28) takes Cover away as the full game does (skirmbot.rules.lite.combat.in_cover).
    full_game_cover: bool = False

    # --- look-ups --------------------------------------------------------------------------
    def unit(self, name: str, side: int | None = None) -> UnitState:
        """The unit called `name` (case does not matter); the error lists the names, those of
        `side`'s squad when the command is for one squad's units (a deployment)."""
        found = self.units.get(name) or next(
            (unit for key, unit in self.units.items() if key.casefold() == name.strip().casefold()),
            None,
        )
        if found is None:
            named = self.units if side is None else [u.id for u in self.units_of(side)]
            listed = "Units" if side is None else possessive(self.squads[side].name) + " units"
            raise IllegalCommand(
                f"There is no unit called '{shown(name)}'. {listed}: {', '.join(named)}."
            )
        return found

    def units_of(self, side: int) -> list[UnitState]:
        return [unit for unit in self.units.values() if unit.side == side]

    def on_map(self, side: int | None = None) -> list[UnitState]:
        return [u for u in self.units.values() if u.on_map and (side is None or u.side == side)]

    def ready_units(self, side: int) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == side and u.on_map and u.status == READY]

    def unit_at(self, square: Square) -> UnitState | None:
        return next((u for u in self.units.values() if u.on_map and u.square == square), None)

    def occupancy(self) -> dict[Square, str]:
        """Occupied squares and the squad (side as text) standing there, for the geometry."""
        return {
            u.square: str(u.side) for u in self.units.values() if u.on_map and u.square is not None
        }

    def items_at(self, square: Square, kind: str | None = None) -> list[ItemState]:
        return [
            i
            for i in self.items.values()
            if i.square == square and (kind is None or i.kind == kind)
        ]

    def waiting_for(self) -> int | None:
        """The side the match waits for: to deploy, to infiltrate, or to activate (None: over)."""
        if self.phase == ENDED:
            return None
        if self.phase == DEPLOYMENT:
            undeployed = [s.side for s in self.squads if not s.deployed]
            if undeployed:
                return undeployed[0]
            return self.units[self.infiltrators[0]].side if self.infiltrators else None
        return self.to_act

    def squad(self, side: int) -> SquadState:
        return self.squads[side]

    def to_json(self) -> dict[str, Any]:
        return {
            "map": self.battle_map.name,
            "mission": self.mission.name,
            "phase": self.phase,
            "turn": self.turn,
            "initiative": self.initiative,
            "to_act": self.to_act,
            "in_a_row": self.in_a_row,
            "activations_done": self.activations_done,
            "doors": self.board.door_states(),
            "squads": [squad.to_json() for squad in self.squads],
            "units": [unit.to_json() for unit in self.units.values()],
            "items": [item.to_json() for item in self.items.values()],
            "objectives": [str(square) for square in self.objectives],
            "crate_options_taken": list(self.crate_options_taken),
            "infiltrators": list(self.infiltrators),
            "skills_used": [list(use) for use in self.skills_used],
            "taken_out_this_turn": [
                [victim, by_side] for victim, by_side in self.taken_out_this_turn
            ],
            "activation": self.activation.to_json() if self.activation else None,
            "result": self.result.to_json() if self.result else None,
            "event": self.event.to_json() if self.event else None,
            "secondaries": [draw.to_json() if draw else None for draw in self.secondaries],
            "secondaries_scored": [list(cards) for cards in self.secondaries_scored],
            "crates_opened_this_turn": list(self.crates_opened_this_turn),
            "beacons": {str(n + 1): side for n, side in sorted(self.beacons.items())},
        }
