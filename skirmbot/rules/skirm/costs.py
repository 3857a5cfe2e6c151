"""What an action costs and how it is paid (rulebook Actions, Tactical Orders; rulings: An
activation). The first use of an action costs its listed ACT, each repeat in the same activation
one more; 2MC/2RC make the second attack cost 1 too. Costs are paid from the unit's ACT and/or
the squad's Tactical Orders, as the player chooses (the command's `orders`).
"""

from __future__ import annotations

from skirmbot.rules.errors import IllegalCommand, NeedsOrders
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.cards import MELEE, Weapon
from skirmbot.rules.skirm.specials import heavy_surcharge
from skirmbot.rules.skirm.state import Activation, SquadState, UnitState

MOVE = "move"
DASH = "dash"
RANGED_ATTACK = "ranged"
MELEE_ATTACK = "melee"
DOOR = "door"
PICK_UP_DROP = "pickup/drop"
CRATE = "crate"
TURRET = "turret"
LEAP = "leap"

# Rulebook: Basic Actions; rulings: Items (opening a crate costs 1 ACT).
LISTED_COST: dict[str, int] = {
    MOVE: 1, DASH: 1, RANGED_ATTACK: 1, MELEE_ATTACK: 1, DOOR: 1, PICK_UP_DROP: 1, CRATE: 1, TURRET: 1,
    LEAP: 2,  # LPx: "may spend 2 ACT to move up to x Squares in a straight line"
}  # fmt: skip
ACTION_NAMES: dict[str, str] = {
    MOVE: "Move", DASH: "Dash", RANGED_ATTACK: "Ranged Attack", MELEE_ATTACK: "Melee Attack",
    DOOR: "Open/Close Door", PICK_UP_DROP: "Pick Up/Drop", CRATE: "Open Crate", TURRET: "Use Turret",
    LEAP: "Leap",
}  # fmt: skip
DOUBLE_ATTACK_RULE = {RANGED_ATTACK: "2RC", MELEE_ATTACK: "2MC"}


def action_cost(
    unit: UnitState, activation: Activation, action: str, weapon: Weapon | None = None
) -> int:
    """The ACT this action costs now, in this activation."""
    done = activation.uses.get(action, 0)
    if action == TURRET:
        return LISTED_COST[TURRET]  # rulebook Turrets: 1 ACT for each use, no surcharge
    return _listed_with_repeats(unit, activation, action, weapon, done) + _heavy(
        unit, activation, action, weapon
    )


def _heavy(unit: UnitState, activation: Activation, action: str, weapon: Weapon | None) -> int:
    fired = [unit.card.weapon(name) for name in activation.attack_weapons.get("ranged", [])]
    fired_heavy = any(w is not None and w.has("HVY") for w in fired)
    moved = activation.uses.get(MOVE, 0) > 0
    if action not in (MOVE, RANGED_ATTACK):
        return 0
    return heavy_surcharge(unit, moved, fired_heavy, action == MOVE, weapon)


def _listed_with_repeats(
    unit: UnitState, activation: Activation, action: str, weapon: Weapon | None, done: int
) -> int:
    if (
        done == 1
        and action in DOUBLE_ATTACK_RULE
        and _double_attack(unit, activation, action, weapon)
    ):
        return LISTED_COST[action]
    return LISTED_COST[action] + done


def _double_attack(
    unit: UnitState, activation: Activation, action: str, weapon: Weapon | None
) -> bool:
    """2MC/2RC on the unit, or on the weapon of either of the two attacks (rulebook)."""
    code = DOUBLE_ATTACK_RULE[action]
    if unit.card.has(code):
        return True
    kind = "melee" if action == MELEE_ATTACK else "ranged"
    used = [unit.card.weapon(name) for name in activation.attack_weapons.get(kind, [])]
    candidates = [w for w in used if w is not None] + ([weapon] if weapon else [])
    return any(w.has(code) for w in candidates)


def action_name(action: str) -> str:
    """How a player reads the action's name: mission actions and skills are keyed by their own
    names (skills as `skill:name`)."""
    return ACTION_NAMES.get(action, action.removeprefix("skill:").title())


def check_payment(
    unit: UnitState, squad: SquadState, activation: Activation, action: str, cost: int, orders: int
) -> None:
    """Raise IllegalCommand, with what would work, unless `orders` TO plus ACT can pay `cost`."""
    name = action_name(action)
    if orders < 0:
        raise IllegalCommand("The number of Tactical Orders to spend cannot be negative.")
    if orders > cost:
        raise IllegalCommand(
            f"{name} costs {cost}; you cannot spend {orders} Tactical Orders on it."
        )
    if orders > squad.orders:
        raise IllegalCommand(
            f"You asked to spend {orders} Tactical Orders but your squad has {squad.orders}."
        )
    from_act = cost - orders
    if from_act <= activation.act_left:
        return
    missing = from_act - activation.act_left
    if orders + missing <= squad.orders:
        raise NeedsOrders(
            f"{name} costs {cost} and {unit.name} has {activation.act_left} ACT left: spend "
            f"{orders + missing} Tactical Order{'s' if orders + missing > 1 else ''} to do it "
            f"(your squad has {squad.orders}).",
            orders + missing,
        )
    raise IllegalCommand(
        f"{name} costs {cost}; {unit.name} has {activation.act_left} ACT left and your squad has "
        f"{squad.orders} Tactical Orders, which is not enough."
    )


def pay(
    unit: UnitState, squad: SquadState, activation: Activation, action: str, cost: int, orders: int
) -> Event:
    """Take the cost (already checked) and count the use for the repeat surcharge."""
    activation.act_left -= cost - orders
    squad.orders -= orders
    activation.uses[action] = activation.uses.get(action, 0) + 1
    paid = f"{cost - orders} ACT" + (f" + {orders} TO" if orders else "")
    return Event(
        "cost_paid",
        f"{unit.name}: {action_name(action)} for {paid}.",
        {"unit": unit.id, "action": action, "act": cost - orders, "orders": orders},
    )


def minimum_orders(activation: Activation, cost: int) -> int:
    """The fewest Tactical Orders that pay `cost` with the ACT left (ACT first)."""
    return max(0, cost - activation.act_left)


def attack_action(kind: str) -> str:
    return MELEE_ATTACK if kind == MELEE else RANGED_ATTACK
