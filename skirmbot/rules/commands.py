"""Commands: what a player (or the turn timer, or the automatic player) asks the engine to do.

Commands are plain data that round-trip through JSON, so a match record is just the ordered list
of the commands the engine accepted. `side` is 0 or 1: the squad whose player sends it.
`orders` is how many Tactical Orders to spend on the action's cost (the rest comes from ACT).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from skirmbot.rules.errors import RulesError


@dataclass(frozen=True)
class Command:
    type: ClassVar[str] = ""
    side: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True)
class UnitCommand(Command):
    """A command that one unit carries out (its activation starts with it if need be)."""

    unit: str = ""


@dataclass(frozen=True)
class Deploy(Command):
    """Place every unit of the squad in its deployment zone: {unit id: square}."""

    type: ClassVar[str] = "deploy"
    placements: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Infiltrate(Command):
    """Place the squad's INF units after both deployments: {unit id: square}."""

    type: ClassVar[str] = "infiltrate"
    placements: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SetStandingOrders(Command):
    """Reactions for when the player is not online: re-roll failed saves while the squad has more
    than `reroll_saves_above` TO (None: never spend TO on reactions). Rulings: Tactical Orders.

    Skirm Lite: with `orders_per_attack`, each failed save is changed the cheapest way that
    saves it (-1 or -2, else a re-roll), at most that many TO per attack on one Agent (rulings:
    Skirm Lite). None, as in every record before it, keeps the plain re-roll of failed saves."""

    type: ClassVar[str] = "standing_orders"
    reroll_saves_above: int | None = None
    parry: bool = True  # PAR units re-roll the attacker's best die
    counter: bool = True  # CTR units strike back after a melee attack
    orders_per_attack: int | None = None


@dataclass(frozen=True)
class Activate(UnitCommand):
    type: ClassVar[str] = "activate"


@dataclass(frozen=True)
class Move(UnitCommand):
    type: ClassVar[str] = "move"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Dash(UnitCommand):
    type: ClassVar[str] = "dash"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Leap(UnitCommand):
    """LPx: leap to a square up to x away in a straight line (2 ACT)."""

    type: ClassVar[str] = "leap"
    square: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Shoot(UnitCommand):
    """Ranged Attack. `target` is a unit id, a square, or `barrel@E5` / `turret@E5`."""

    type: ClassVar[str] = "shoot"
    target: str = ""
    weapon: str | None = None
    orders: int = 0
    # Further targets, comma-separated: for Chain Reaction (CRx) or Spread (SPR) weapons.
    also: str | None = None


@dataclass(frozen=True)
class Melee(UnitCommand):
    type: ClassVar[str] = "melee"
    target: str = ""
    weapon: str | None = None
    orders: int = 0
    # Further targets, comma-separated: for Chain Reaction (CRx) or Spread (SPR) weapons.
    also: str | None = None


@dataclass(frozen=True)
class UseSkill(UnitCommand):
    """A skill from the unit's card; `target` is a unit or square when the skill needs one."""

    type: ClassVar[str] = "skill"
    skill: str = ""
    target: str | None = None
    orders: int = 0


@dataclass(frozen=True)
class Door(UnitCommand):
    """Open or close the door on an edge of the unit's square; `toward` is the square across it."""

    type: ClassVar[str] = "door"
    toward: str | None = None
    orders: int = 0


@dataclass(frozen=True)
class PickUp(UnitCommand):
    type: ClassVar[str] = "pickup"
    orders: int = 0


@dataclass(frozen=True)
class Drop(UnitCommand):
    type: ClassVar[str] = "drop"
    orders: int = 0


@dataclass(frozen=True)
class OpenCrate(UnitCommand):
    """`option` is one of mp, medpack, ammo, to (rulebook Crate)."""

    type: ClassVar[str] = "crate"
    option: str = ""
    orders: int = 0


@dataclass(frozen=True)
class UseTurret(UnitCommand):
    type: ClassVar[str] = "turret"
    target: str = ""
    orders: int = 0
    also: str | None = None  # further targets for the machine gun's Spread (SPR)


@dataclass(frozen=True)
class MissionAction(UnitCommand):
    """A mission action by its name, e.g. "Arm the beacon" (rulebook Mission Actions)."""

    type: ClassVar[str] = "mission"
    action: str = ""
    orders: int = 0


@dataclass(frozen=True)
class Revive(UnitCommand):
    """Skirm Lite: revive the Downed squadmate `target` in an adjacent square (2 TO only)."""

    type: ClassVar[str] = "revive"
    target: str = ""


@dataclass(frozen=True)
class Sentry(UnitCommand):
    """Skirm Lite: a free Sentry action by an Agent that has already activated, when its squad
    has fewer Agents in play and none left to activate. `action` is "melee", "shoot" or "dash";
    `target` (and `weapon`) for an attack, `square` for a Dash."""

    type: ClassVar[str] = "sentry"
    action: str = ""
    target: str | None = None
    weapon: str | None = None
    square: str | None = None


@dataclass(frozen=True)
class EndActivation(Command):
    type: ClassVar[str] = "end"
    unit: str | None = None
    reason: str = "ended by its player"


@dataclass(frozen=True)
class Reroll(Command):
    """Spend 1 TO to re-roll die number `die` (1-based) of the roll waiting for a decision."""

    type: ClassVar[str] = "reroll"
    die: int = 1


@dataclass(frozen=True)
class Modify(Command):
    """Spend 1 TO to change die number `die` by `delta` (+1 or -1)."""

    type: ClassVar[str] = "modify"
    die: int = 1
    delta: int = -1


@dataclass(frozen=True)
class Accept(Command):
    """Accept the roll waiting for a decision; the attack goes on."""

    type: ClassVar[str] = "accept"


@dataclass(frozen=True)
class Delay(Command):
    type: ClassVar[str] = "delay"


@dataclass(frozen=True)
class Concede(Command):
    type: ClassVar[str] = "concede"
    reason: str = "conceded"


@dataclass(frozen=True)
class AgreeDraw(Command):
    """Both players agreed to a draw (the service collects the agreement; `side` proposed it)."""

    type: ClassVar[str] = "draw"


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        Deploy, Infiltrate, SetStandingOrders, Activate, Move, Dash, Leap, Shoot, Melee, UseSkill, Door, PickUp, Drop,
        OpenCrate, UseTurret, MissionAction, EndActivation, Reroll, Modify, Accept, Delay, Concede, AgreeDraw,
        Revive, Sentry,
    )
}  # fmt: skip


def command_from_json(data: Any) -> Command:
    """Build a command from its JSON form; a RulesError names what is wrong."""
    if not isinstance(data, dict) or data.get("type") not in COMMAND_TYPES:
        known = ", ".join(COMMAND_TYPES)
        raise RulesError(f"{data!r} is not a command; a command has a 'type' of {known}.")
    cls = COMMAND_TYPES[data["type"]]
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise RulesError(f"A {cls.type} command has no field {', '.join(sorted(unknown))}.")
    if data.get("side") not in (0, 1):
        raise RulesError(f"A {cls.type} command needs a 'side' of 0 or 1.")
    try:
        return cls(**{key: value for key, value in data.items() if key != "type"})
    except TypeError as error:
        raise RulesError(f"A {cls.type} command is malformed: {error}.") from error
