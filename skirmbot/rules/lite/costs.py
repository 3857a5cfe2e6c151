"""What a Lite action costs (Lite rulebook Actions, Tactical Orders; HVY).

Every basic action costs 1 ACT, paid with ACT and/or Tactical Orders. Unlike Skirm, an action is
never repeated in one activation at a higher price: it may not be repeated at all, except a
second Ranged Combat with `2R` or a second Melee with `2M`. Revive costs 2 TO and nothing else.
"""

from __future__ import annotations

from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.skirm.cards import Weapon
from skirmbot.rules.skirm.state import Activation, UnitState

MOVE = "move"
DASH = "dash"
RANGED_ATTACK = "ranged"
MELEE_ATTACK = "melee"
DOOR = "door"
PICK_UP = "pick up"
DROP = "drop"
REVIVE = "revive"

BASIC_COST = 1
REVIVE_ORDERS = 2
HEAVY_COST = 2  # HVY: "costs 2 ACT (instead of 1)"
ACTION_TITLES = {
    MOVE: "Move", DASH: "Dash", RANGED_ATTACK: "Ranged Combat", MELEE_ATTACK: "Melee Combat",
    DOOR: "Open/Close Door", PICK_UP: "Pick Up", DROP: "Drop", REVIVE: "Revive",
}  # fmt: skip
DOUBLE_RULE = {RANGED_ATTACK: "2R", MELEE_ATTACK: "2M"}


def times_allowed(agent: UnitState, action: str) -> int:
    """How often the action may be done in one activation: twice with 2R/2M, otherwise once."""
    code = DOUBLE_RULE.get(action)
    return 2 if code is not None and agent.card.has(code) else 1


def repeat_problem(agent: UnitState, activation: Activation, action: str) -> str | None:
    """Why the action cannot be done again in this activation, or None."""
    if activation.uses.get(action, 0) < times_allowed(agent, action):
        return None
    title = ACTION_TITLES.get(action, action)
    twice = " twice" if times_allowed(agent, action) == 2 else ""
    return (
        f"{agent.name} has already performed {title}{twice} in this activation; "
        "an Agent may not repeat an Action (only 2R and 2M allow a second attack)."
    )


def check_repeat(agent: UnitState, activation: Activation, action: str) -> None:
    problem = repeat_problem(agent, activation, action)
    if problem:
        raise IllegalCommand(problem)


def _fired_heavy(agent: UnitState, activation: Activation) -> bool:
    fired = [agent.card.weapon(name) for name in activation.attack_weapons.get("ranged", [])]
    return any(weapon is not None and weapon.has("HVY") for weapon in fired)


def action_cost(
    agent: UnitState, activation: Activation, action: str, weapon: Weapon | None = None
) -> int:
    """ACT the action costs now: 1, or 2 for HVY (shooting it after a Move, a Move after it)."""
    if action == RANGED_ATTACK and weapon is not None and weapon.has("HVY"):
        return HEAVY_COST if activation.uses.get(MOVE, 0) else BASIC_COST
    if action == MOVE and _fired_heavy(agent, activation):
        return HEAVY_COST
    return BASIC_COST


def minimum_orders(activation: Activation, cost: int) -> int:
    """The fewest Tactical Orders that pay `cost` with the ACT left (ACT first)."""
    return max(0, cost - activation.act_left)
