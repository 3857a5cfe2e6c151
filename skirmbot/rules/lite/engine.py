"""The Lite match: Skirm's `Match` with Lite's handlers where the Lite rulebook differs.

Like a python-chess variant board, `LiteMatch` keeps Skirm's engine (all or nothing `apply`,
activations, payment, the roll decisions, deployment, concession) and overrides the rules Lite
changes: its own state (no squad points, no map items), Move/Dash, no repeated actions, Lite
combat, Revive, Sentry Actions and the Lite turn. Skirm-only commands are refused in plain words.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.events import Event
from skirmbot.rules.handlers import Handlers
from skirmbot.rules.lite import actions as lite_actions
from skirmbot.rules.lite import combat as lite_combat
from skirmbot.rules.lite import commands, legal, turns
from skirmbot.rules.lite.agents import SENTRY_MARK, is_downed, is_standing, sentry_used
from skirmbot.rules.lite.costs import (
    DASH,
    DOOR,
    DROP,
    MELEE_ATTACK,
    MOVE,
    PICK_UP,
    RANGED_ATTACK,
    REVIVE,
    REVIVE_ORDERS,
    action_cost,
    check_repeat,
)
from skirmbot.rules.lite.squads import check_building_rules
from skirmbot.rules.maps import BattleMap
from skirmbot.rules.movement import Route
from skirmbot.rules.skirm import actions, combat, environment
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.costs import check_payment, pay
from skirmbot.rules.skirm.engine import Match, state_before_deployment
from skirmbot.rules.skirm.missions import Mission, check_map_fits, mission_items
from skirmbot.rules.skirm.squads import Squad
from skirmbot.rules.skirm.state import (
    Activation,
    ItemState,
    MatchState,
    PendingRoll,
    UnitState,
)
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

MOST_ORDERS_PER_ATTACK = 20  # as many as a squad could roll, as Skirm's reserve of 0 to 20
SENTRY_ACTIONS = {"melee": MELEE, "shoot": RANGED, "ranged": RANGED, "dash": DASH}


def new_state(battle_map: BattleMap, mission: Mission, squads: tuple[Squad, Squad]) -> MatchState:
    """A Lite match before deployment. The map's crates, barrels and turrets stay off the map
    (Lite has none, our ruling); the mission's markers are placed."""
    for squad in squads:
        check_building_rules(squad)
    check_map_fits(mission, battle_map.board, (len(squads[0].units), len(squads[1].units)))
    markers = mission_items(mission, battle_map)
    items = {n: ItemState(n, p.kind, p.square) for n, p in enumerate(markers)}
    return state_before_deployment(battle_map, mission, squads, items)


AS_WRITTEN_VERSION = (
    4  # skirmbot.rules.record: the record version from which Lite's cover is its own
)


# Skirm's actions the Lite rulebook does not have.
SKIRM_ONLY = (
    commands.Infiltrate, commands.Leap, commands.UseSkill, commands.OpenCrate,
    commands.UseTurret, commands.MissionAction, commands.Delay,
)  # fmt: skip


class LiteMatch(Match):
    ruleset_title = "Skirm Lite"
    # Skirm's table without Skirm's own actions, and Lite's where the Lite rulebook differs.
    HANDLERS: ClassVar[Handlers] = {
        **{kind: name for kind, name in Match.HANDLERS.items() if kind not in SKIRM_ONLY},
        commands.Activate: "_activate",
        commands.Move: "_lite_move",
        commands.Dash: "_lite_move",
        commands.Shoot: "_lite_attack",
        commands.Melee: "_lite_attack",
        commands.Door: "_lite_door",
        commands.PickUp: "_lite_pick_up",
        commands.Drop: "_lite_drop",
        commands.Revive: "_revive",
        commands.Sentry: "_sentry",
    }

    def started_under(self, version: int) -> None:
        # Before version 4 (issue 28) a Lite match took Cover away as the full game does: from
        # a target below High Ground, and from every Agent caught by a blast.
        self.state.full_game_cover = version < AS_WRITTEN_VERSION

    def _new_state(
        self, battle_map: BattleMap, mission: Mission, squads: tuple[Squad, Squad]
    ) -> MatchState:
        return new_state(battle_map, mission, squads)

    # --- the turn -----------------------------------------------------------------------------
    def _after_deployment(self) -> list[Event]:
        return turns.start_turn(self.state, self.dice)

    def _acting_unit(self, command: Any) -> tuple[UnitState, Activation, bool]:
        unit = self.state.unit(command.unit)
        if unit.side == command.side and is_downed(unit):
            raise IllegalCommand(f"{unit.name} is Downed and cannot activate.")
        return super()._acting_unit(command)

    def _after_action(self) -> list[Event]:
        """A Sentry Action ends with its one action; an activation ends by itself as Skirm's
        does: when its Agent is no longer Standing or nothing it could legally do is left."""
        activation = self.state.activation
        if activation is not None and activation.pending is None and SENTRY_MARK in activation.uses:
            return self._finish_sentry(self.state.units[activation.unit])
        return super()._after_action()

    def _out_of_play(self, unit: UnitState) -> str | None:
        return None if is_standing(unit) else "its agent is no longer Standing"

    def _can_still_act(self, unit: UnitState, activation: Activation) -> bool:
        return legal.can_still_act(self.state, unit, activation)

    def _next_activation(self) -> list[Event]:
        return turns.next_activation(self.state, self.dice)

    def _finish_sentry(self, agent: UnitState) -> list[Event]:
        self.state.activation = None
        return [
            Event(
                "sentry_ended",
                f"{possessive(agent.name)} Sentry Action is done.",
                {"unit": agent.id, "side": agent.side},
            ),
            *turns.next_activation(self.state, self.dice),
        ]

    def _end(self, command: commands.EndActivation) -> list[Event]:
        """With a Sentry Action open and no Agent named, `end` passes it up."""
        state = self.state
        if (
            state.activation is None
            and command.unit is None
            and state.phase != "ended"
            and state.to_act == command.side
            and turns.sentry_open(state, command.side)
        ):
            name = state.squads[command.side].name
            return [
                Event("sentry_passed", f"{name} makes no Sentry Action.", {"side": command.side}),
                *turns.next_activation(state, self.dice),
            ]
        return super()._end(command)

    # --- standing orders and the defender's dice ----------------------------------------------
    def _standing_orders(self, command: commands.SetStandingOrders) -> list[Event]:
        """Skirm's standing orders; with `orders_per_attack`, Lite's on the squad's own save
        dice (skirmbot.rules.lite.standing_orders). Without it, as in every record before it,
        failed saves are re-rolled."""
        per_attack, keep = command.orders_per_attack, command.reroll_saves_above
        if per_attack is not None and (
            not 1 <= per_attack <= MOST_ORDERS_PER_ATTACK or keep is None
        ):
            raise IllegalCommand(
                f"Spend from 1 to {MOST_ORDERS_PER_ATTACK} TO per attack on your saves, with a "
                "number of TO to keep (0 or more); to spend none, choose never."
            )
        events = super()._standing_orders(replace(command, orders_per_attack=None))
        squad = self.state.squads[command.side]
        squad.orders_per_attack = per_attack
        if per_attack is None:
            return events
        rule = (
            "on your Agents' failed saves, the cheapest change that saves each "
            f"(-1 or -2, else a re-roll), at most {per_attack} TO per attack, keeping {keep} TO"
        )
        return [
            Event(
                "standing_orders",
                f"{possessive(squad.name)} standing orders: {rule}.",
                {**events[0].data, "orders_per_attack": per_attack},
            )
        ]

    def _decision(self, command: commands.Command) -> Activation:
        """Only the active player's attack roll waits for a decision; the other player's dice
        are its saves, which its standing orders change as they are rolled."""
        self._playing()
        to_act = self.state.to_act
        if to_act is not None and command.side != to_act:
            raise IllegalCommand(
                f"It is {possessive(self.state.squads[to_act].name)} activation: only its attack "
                "roll waits for a decision. Your save dice are changed or re-rolled with TO by "
                "your standing orders as they are rolled (/match standing, per_attack)."
            )
        return super()._decision(command)

    # --- paying -------------------------------------------------------------------------------
    def _pay_action(
        self,
        unit: UnitState,
        activation: Activation,
        is_new: bool,
        action: str,
        orders: int,
        cost: int,
    ) -> list[Event]:
        """No repeated action (2R/2M aside), then the cost from ACT and `orders` TO. A Sentry
        Action costs nothing and counts against no limit."""
        if SENTRY_MARK in activation.uses:
            activation.uses[action] = activation.uses.get(action, 0) + 1
            return []
        check_repeat(unit, activation, action)
        squad = self.state.squads[unit.side]
        check_payment(unit, squad, activation, action, cost, orders)
        return [
            *self._begin(unit, activation, is_new),
            pay(unit, squad, activation, action, cost, orders),
        ]

    # --- actions ------------------------------------------------------------------------------
    def _lite_move(self, command: commands.Move | commands.Dash) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        action = MOVE if isinstance(command, commands.Move) else DASH
        return self._move_agent(unit, activation, is_new, action, command.square, command.orders)

    def _move_agent(
        self,
        unit: UnitState,
        activation: Activation,
        is_new: bool,
        action: str,
        square: str,
        orders: int,
    ) -> list[Event]:
        forbidden = environment.forbidden(self.state, action)
        if forbidden:
            raise IllegalCommand(forbidden)
        if SENTRY_MARK not in activation.uses:
            check_repeat(unit, activation, action)
        route = self._lite_route(unit, action, self._square(square))
        cost = action_cost(unit, activation, action)
        events = self._pay_action(unit, activation, is_new, action, orders, cost)
        events.append(actions.do_move(self.state, unit, action, route))
        return events + self._after_action()

    def _lite_door(self, command: commands.Door) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        toward = self._square(command.toward) if command.toward else None
        across = actions.check_door(self.state, unit, toward)
        events = self._pay_action(unit, activation, is_new, DOOR, command.orders, 1)
        events.append(actions.do_door(self.state, unit, across))
        return events + self._after_action()

    def _lite_pick_up(self, command: commands.PickUp) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        marker = actions.check_pick_up(self.state, unit)
        events = self._pay_action(unit, activation, is_new, PICK_UP, command.orders, 1)
        events.append(actions.do_pick_up(unit, marker))
        return events + self._after_action()

    def _lite_drop(self, command: commands.Drop) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        actions.check_drop(unit)
        events = self._pay_action(unit, activation, is_new, DROP, command.orders, 1)
        events.append(actions.do_drop(self.state, unit))
        return events + self._after_action()

    def _revive(self, command: commands.Revive) -> list[Event]:
        """Revive (2 TO only) an adjacent Downed squadmate."""
        unit, activation, is_new = self._acting_unit(command)
        target = lite_actions.check_revive(self.state, unit, command.target)
        check_repeat(unit, activation, REVIVE)
        squad = self.state.squads[unit.side]
        if squad.orders < REVIVE_ORDERS:
            raise IllegalCommand(
                f"Revive costs {REVIVE_ORDERS} TO (Tactical Orders only) and your squad has {squad.orders}."
            )
        events = [
            *self._begin(unit, activation, is_new),
            pay(unit, squad, activation, REVIVE, REVIVE_ORDERS, REVIVE_ORDERS),
            lite_actions.do_revive(self.state, unit, target, self.dice),
        ]
        return events + self._after_action()

    # --- combat -------------------------------------------------------------------------------
    def _lite_attack(self, command: commands.Shoot | commands.Melee) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        kind = RANGED if isinstance(command, commands.Shoot) else MELEE
        if command.also is not None:  # (Lite's CR is Critical, not Chain Reaction)
            self._refuse_unused("In Skirm Lite an attack has one target: leave out 'also'.")
        return self._attack_with(
            unit, activation, is_new, kind, command.weapon, command.target, command.orders
        )

    def _attack_with(
        self,
        unit: UnitState,
        activation: Activation,
        is_new: bool,
        kind: str,
        weapon_name: str | None,
        target: str,
        orders: int,
    ) -> list[Event]:
        """Every check first (repeat, weapon, LIM, target), then the cost, then the roll."""
        action = MELEE_ATTACK if kind == MELEE else RANGED_ATTACK
        if SENTRY_MARK not in activation.uses:
            check_repeat(unit, activation, action)
        weapon = combat.choose_weapon(unit, kind, weapon_name)
        aims = lite_combat.declare(self.state, unit, kind, weapon, target)
        cost = action_cost(unit, activation, action, weapon)
        events = self._pay_action(unit, activation, is_new, action, orders, cost)
        if SENTRY_MARK in activation.uses:
            self.state.activation = activation
        activation.attack_weapons.setdefault(kind, []).append(weapon.name)  # HVY looks back
        if weapon.has("LIM"):
            unit.lim_uses_left[weapon.name] -= 1
        rolled, pending = lite_combat.open_fire(self.state, unit, kind, weapon, aims, self.dice)
        return [*events, *rolled, *self._settle(activation, pending)]

    def _resolve_roll(self, pending: PendingRoll) -> tuple[list[Event], PendingRoll | None]:
        return lite_combat.resolve(self.state, pending, self.dice)

    # --- Sentry Actions -----------------------------------------------------------------------
    def _sentry(self, command: commands.Sentry) -> list[Event]:
        """A free Melee, Ranged Combat or Dash by an Agent that has activated, once per Agent
        per turn, when the squad has fewer Agents in play and none left to activate."""
        state = self.state
        self._your_turn(command.side)
        self._no_pending_roll()
        if state.activation is not None or not turns.sentry_open(state, command.side):
            raise IllegalCommand(
                "A Sentry Action is only for a squad with fewer Agents in play than its opponent, "
                "when all its Agents have activated and the opponent still has Agents to activate."
            )
        agent = state.unit(command.unit, command.side)
        if agent.side != command.side:
            raise IllegalCommand(f"{agent.name} is not in your squad.")
        if not is_standing(agent):
            raise IllegalCommand(f"{agent.name} is not Standing.")
        if sentry_used(state, agent):
            raise IllegalCommand(f"{agent.name} has already made its Sentry Action this turn.")
        action = SENTRY_ACTIONS.get(command.action.strip().lower())
        if action is None:
            raise IllegalCommand(
                f"'{command.action}' is not a Sentry Action; choose melee, shoot or dash."
            )
        self._refuse_unused(unused_sentry_fields(command, action))
        activation = Activation(agent.id, 0, uses={SENTRY_MARK: 1})
        opening = Event(
            "sentry",
            f"{agent.name} makes a Sentry Action ({command.action.strip().lower()}).",
            {"unit": agent.id, "side": agent.side, "action": action},
        )
        if action == DASH:
            if not command.square:
                raise IllegalCommand("A Sentry Dash needs the square to dash to.")
            route = self._sentry_route(agent, command.square)
            state.skills_used.append([state.turn, agent.id, SENTRY_MARK])
            state.activation = activation
            moved = actions.do_move(state, agent, DASH, route)
            return [opening, moved, *self._after_action()]
        if not command.target:
            raise IllegalCommand("A Sentry attack needs a target.")
        weapon = combat.choose_weapon(agent, action, command.weapon)
        lite_combat.declare(state, agent, action, weapon, command.target)  # checks only
        state.skills_used.append([state.turn, agent.id, SENTRY_MARK])
        return [
            opening,
            *self._attack_with(agent, activation, False, action, command.weapon, command.target, 0),
        ]

    def _sentry_route(self, agent: UnitState, square: str) -> Any:
        forbidden = environment.forbidden(self.state, DASH)
        if forbidden:
            raise IllegalCommand(forbidden)
        return self._lite_route(agent, DASH, self._square(square))

    def _lite_route(self, agent: UnitState, action: str, destination: Square) -> Route:
        """The Move's or Dash's route; a trusted replay finds it without listing every square
        the Agent could reach (what only a refusal needs)."""
        route = (
            lite_actions.known_route(self.state, agent, action, destination)
            if self.trusted
            else None
        )
        if route is None:
            route = lite_actions.check_move(self.state, agent, action, destination)
        return route


def unused_sentry_fields(command: commands.Sentry, action: str) -> str | None:
    """What a Sentry Action names that its action does not use, or None: a Dash goes to a
    `square`; an attack has a `target` and a `weapon`, and stays where it is."""
    if action == DASH:
        given = [name for name in ("target", "weapon") if getattr(command, name) is not None]
        if given:
            fields = " and ".join(f"'{name}'" for name in given)
            return f"A Sentry Dash only moves, to its 'square': leave out {fields}."
    elif command.square is not None:
        return "A Sentry attack is made from where the Agent stands: leave out 'square'."
    return None


__all__ = ["LiteMatch", "new_state", "unused_sentry_fields"]
