"""The kernel's verbs as the d20 rules play them: what /move, /shoot and /melee send in every
ruleset becomes this rulebook's Move (no bonus dice) or Attack (no bonus dice). The d20 rules
have no Tactical Orders and no Chain Reaction or Spread weapons, so `orders` and `also` are
accepted only when unused; bonus dice go with d20's own Move and Attack (/act)."""

from __future__ import annotations

from skirmbot.rules.commands import Command, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.d20.commands import Attack, Move
from skirmbot.rules.d20.state import State
from skirmbot.rules.errors import IllegalCommand

NO_ORDERS = "The d20 rules have no Tactical Orders: action points pay for every action."


def own_form(state: State, command: Command) -> Command:
    """The command as the d20 rules play it (a d20 command as it is); IllegalCommand in words
    for a kernel field the d20 rules have no use for."""
    if isinstance(command, KernelMove):
        _no_orders(command.orders)
        return Move(command.side, command.unit, command.square)
    if isinstance(command, Shoot | Melee):
        _no_orders(command.orders)
        if command.also:
            raise IllegalCommand("A d20 attack has one target.")
        return Attack(command.side, command.unit, command.target, _weapon(state, command))
    return command


def _no_orders(orders: int) -> None:
    if orders != 0:
        raise IllegalCommand(NO_ORDERS)


def _weapon(state: State, command: Shoot | Melee) -> str:
    """The weapon named, of the kind the verb fights with (/shoot: ranged, /melee: melee, as
    rulebook Combat tells them apart); none named: the model's first of that kind."""
    melee = isinstance(command, Melee)
    model = state.model(command.unit)
    kind = "melee" if melee else "ranged"
    if command.weapon is None:
        found = next((w for w in model.profile.weapons if w.melee == melee), None)
        if found is None:
            raise IllegalCommand(f"{model.id} has no {kind} weapon.")
        return found.name
    weapon = model.profile.weapon(command.weapon)
    if weapon is None:
        raise IllegalCommand(f"{model.id} has no weapon called '{command.weapon}'.")
    if weapon.melee != melee:
        raise IllegalCommand(f"{weapon.name} is not a {kind} weapon.")
    return weapon.name
