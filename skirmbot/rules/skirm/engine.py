"""The match engine: applies commands to a match, one at a time, all or nothing.

`Match` holds the state, the dice and the accepted commands. `apply` checks a command against
every rule before it changes anything: an illegal command raises IllegalCommand, with a message
for the player, and leaves the match exactly as it was (no die is rolled either).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.handlers import Handlers, handler_of
from skirmbot.rules.maps import TURRET as TURRET_ITEM
from skirmbot.rules.maps import BattleMap
from skirmbot.rules.movement import Route
from skirmbot.rules.skirm import (
    actions,
    combat,
    commands,
    environment,
    legal,
    mission_actions,
    skills_in_play,
    specials,
    turns,
)
from skirmbot.rules.skirm.cards import MELEE, RANGED, Weapon
from skirmbot.rules.skirm.costs import CRATE as CRATE_ACTION
from skirmbot.rules.skirm.costs import (
    DASH,
    DOOR,
    LEAP,
    MOVE,
    PICK_UP_DROP,
    TURRET,
    action_cost,
    attack_action,
    check_payment,
    pay,
)
from skirmbot.rules.skirm.missions import Mission, check_map_fits, mission_items
from skirmbot.rules.skirm.skills import Skill
from skirmbot.rules.skirm.squads import Squad, check_building_rules
from skirmbot.rules.skirm.state import (
    ACTIVATED,
    DEPLOYMENT,
    ENDED,
    PLAYING,
    READY,
    TURRET_HIT,
    Activation,
    ItemState,
    MatchState,
    PendingRoll,
    SquadState,
    UnitState,
)
from skirmbot.rules.squares import Square
from skirmbot.words import possessive


def new_state(battle_map: BattleMap, mission: Mission, squads: tuple[Squad, Squad]) -> MatchState:
    """A match before deployment: the squads' units off the map, the map's items in place."""
    for squad in squads:
        check_building_rules(squad, mission.ep_limit)
    check_map_fits(mission, battle_map.board, (len(squads[0].units), len(squads[1].units)))
    items = {
        n: ItemState(n, p.kind, p.square, p.turret_type, TURRET_HIT if p.kind == TURRET_ITEM else 0)
        for n, p in enumerate([*battle_map.items, *mission_items(mission, battle_map)])
    }
    return state_before_deployment(battle_map, mission, squads, items)


def state_before_deployment(
    battle_map: BattleMap,
    mission: Mission,
    squads: tuple[Squad, Squad],
    items: dict[int, ItemState],
) -> MatchState:
    """A match before deployment, with these items on the map: the squads' units off it."""
    return MatchState(
        battle_map=battle_map,
        mission=mission,
        board=battle_map.board.copy(),
        squads=[SquadState(0, squads[0]), SquadState(1, squads[1])],
        units=unit_states(squads),
        items=items,
        objectives=list(battle_map.objectives),
    )


def unit_states(squads: tuple[Squad, Squad]) -> dict[str, UnitState]:
    """Every unit of both squads, off the map, by id: its card's name, with the squad's number
    after it when both squads field a unit of that name ("Remus 1", "Remus 2")."""
    names = [card.name.casefold() for squad in squads for card in squad.units]
    units: dict[str, UnitState] = {}
    for side, squad in enumerate(squads):
        for card in squad.units:
            unit_id = (
                card.name if names.count(card.name.casefold()) == 1 else f"{card.name} {side + 1}"
            )
            lim = {w.name: 1 for w in card.weapons if w.has("LIM")}
            units[unit_id] = UnitState(unit_id, side, card, card.hit, lim_uses_left=lim)
    return units


INFILTRATION_DISTANCE = 3  # INF: "at least 3 Squares away from enemy Units and objectives"


def infiltration_squares(state: MatchState, side: int) -> list[Square]:
    """Where `side`'s infiltrators may deploy: empty squares at least 3 away from every enemy
    unit already deployed and every objective; if there are none, the squares as far from them
    as the map allows (rulebook INF). Enemy infiltrators are not counted (docs/rulings.md)."""
    board = state.board
    keep_away = [
        u.square
        for u in state.on_map(1 - side)
        if u.square is not None and u.id not in state.infiltrators
    ]
    keep_away += state.objectives
    empty = [s for s in board.squares() if board.is_open(s) and state.unit_at(s) is None]
    if not keep_away:
        return empty
    reach = {s: min(s.distance(other) for other in keep_away) for s in empty}
    far = [s for s in empty if reach[s] >= INFILTRATION_DISTANCE]
    if far:
        return far
    best = max(reach.values(), default=0)
    return [s for s in empty if reach[s] == best]


class Match:
    def __init__(
        self, battle_map: BattleMap, mission: Mission, squads: tuple[Squad, Squad], dice: Dice
    ) -> None:
        self.state = self._new_state(battle_map, mission, squads)
        self.dice = dice
        self.commands: list[commands.Command] = []
        self.log: list[Event] = []
        self._last_events: list[Event] = []  # what the last accepted command did
        # A version-1 record's `end` for an activation that had already ended by itself is a
        # no-op (skirmbot.rules.record.READABLE_VERSIONS); in play it is refused as any End.
        self.late_end_is_no_op = False
        # A recorded command may carry a field its action did not use (releases before issue 28
        # took them): replaying a record allows it; in play such a command is refused
        # (`_refuse_unused`; skirmbot.rules.record._play_on).
        self.unused_fields_allowed = False
        # A command replayed from our own store was checked when it was accepted: a trusted
        # replay (skirmbot.rules.record) skips the checks that only refuse, never what changes
        # the state or rolls the dice. Off in play, for an import and for `skirmbot verify`.
        self.trusted = False

    ruleset_title = "Skirm"  # named when a command's action does not exist in this ruleset
    # The method that plays each kind of command (skirmbot.rules.handlers).
    HANDLERS: ClassVar[Handlers] = {
        commands.Deploy: "_deploy",
        commands.Infiltrate: "_infiltrate",
        commands.SetStandingOrders: "_standing_orders",
        commands.Activate: "_activate",
        commands.Move: "_move",
        commands.Dash: "_move",
        commands.Leap: "_leap",
        commands.Shoot: "_shoot",
        commands.Melee: "_melee",
        commands.UseTurret: "_turret",
        commands.Door: "_door",
        commands.UseSkill: "_skill",
        commands.PickUp: "_pick_up",
        commands.Drop: "_drop",
        commands.OpenCrate: "_crate",
        commands.MissionAction: "_mission_action",
        commands.EndActivation: "_end",
        commands.Reroll: "_reroll",
        commands.Modify: "_modify",
        commands.Accept: "_accept",
        commands.Delay: "_delay",
        commands.Concede: "_concede",
        commands.AgreeDraw: "_draw",
    }

    def _new_state(
        self, battle_map: BattleMap, mission: Mission, squads: tuple[Squad, Squad]
    ) -> MatchState:
        """The match before deployment; a variant with its own squad building rules overrides it."""
        return new_state(battle_map, mission, squads)

    def started_under(self, version: int) -> None:
        """The full game's rules have not changed with a record version since version 1 (whose
        late `end` and unused fields `start_match` allows for)."""

    def apply(self, command: commands.Command) -> list[Event]:
        """Apply one command: its events, or IllegalCommand and no change at all."""
        if command.side not in (0, 1):
            raise IllegalCommand("A command comes from side 0 or side 1.")
        handler = handler_of(self, self.HANDLERS, command)
        if handler is None:
            raise IllegalCommand(f"There is no '{command.type}' action in {self.ruleset_title}.")
        events = handler(command)
        self.commands.append(command)
        self.log.extend(events)
        self._last_events = events
        return events

    # --- checks shared by the handlers ----------------------------------------------------
    def _playing(self) -> None:
        if self.state.phase == DEPLOYMENT:
            raise IllegalCommand("The match has not started: both squads must deploy first.")
        if self.state.phase == ENDED:
            raise IllegalCommand("The match is over.")

    def _your_turn(self, side: int) -> None:
        self._playing()
        if self.state.to_act != side:
            assert self.state.to_act is not None
            raise IllegalCommand(
                f"It is {possessive(self.state.squads[self.state.to_act].name)} activation, not yours."
            )

    def _no_pending_roll(self) -> None:
        activation = self.state.activation
        if activation is not None and activation.pending is not None:
            raise IllegalCommand(
                "A roll is waiting for your decision: re-roll a die, change one, or accept it first."
            )

    def _square(self, text: str) -> Square:
        """A square of this map; a mistyped or off-map square makes the command illegal."""
        try:
            return self.state.board.parse_square(text)
        except RulesError as error:
            raise IllegalCommand(str(error)) from error

    def _acting_unit(self, command: Any) -> tuple[UnitState, Activation, bool]:
        """The unit a command acts with, and its activation (a new one if it starts now)."""
        self._your_turn(command.side)
        self._no_pending_roll()
        unit = self.state.unit(command.unit)
        if unit.side != command.side:
            raise IllegalCommand(f"{unit.name} is not in your squad.")
        if not unit.on_map:
            raise IllegalCommand(f"{unit.name} has been Taken Out.")
        current = self.state.activation
        if current is not None:
            if current.unit != unit.id:
                raise IllegalCommand(
                    f"{current.unit} is activating; end its activation before activating {unit.name}."
                )
            return unit, current, False
        if unit.status != READY:
            ready = ", ".join(u.name for u in self.state.ready_units(unit.side))
            raise IllegalCommand(f"{unit.name} has already activated this turn. Ready: {ready}.")
        return unit, Activation(unit.id, specials.activation_act(unit)), True

    def _begin(self, unit: UnitState, activation: Activation, is_new: bool) -> list[Event]:
        if not is_new:
            return []
        self.state.activation = activation
        stun = (
            " — stunned, 1 ACT less (STN)"
            if unit.stunned and activation.act_left < unit.card.act
            else ""
        )
        unit.stunned = False
        return [
            Event(
                "activation_started",
                f"{unit.name} activates ({activation.act_left} ACT{stun}, {self.state.squads[unit.side].orders} TO).",
                {"unit": unit.id, "side": unit.side},
            )
        ]

    def _pay(
        self,
        unit: UnitState,
        activation: Activation,
        is_new: bool,
        action: str,
        orders: int,
        weapon: Weapon | None = None,
        cost: int | None = None,
    ) -> list[Event]:
        """Check and pay what the action costs now (ACT first, `orders` TO); begin the
        activation if this action starts it. `cost`: a price set by the action itself (skills)."""
        cost = action_cost(unit, activation, action, weapon) if cost is None else cost
        squad = self.state.squads[unit.side]
        check_payment(unit, squad, activation, action, cost, orders)
        return [
            *self._begin(unit, activation, is_new),
            pay(unit, squad, activation, action, cost, orders),
        ]

    def _after_action(self) -> list[Event]:
        """End the activation by itself when the unit is gone or nothing it could still legally
        do is left. The legal actions decide, not the ACT left: a TCH unit's first mission
        action may cost 0 ACT (docs/rulings.md, An activation)."""
        activation = self.state.activation
        if activation is None or activation.pending is not None:
            return []
        unit = self.state.units[activation.unit]
        gone = self._out_of_play(unit)
        if gone is not None:
            return self._finish_activation(unit, gone)
        if self._can_still_act(unit, activation):
            return []
        spent = activation.act_left == 0 and self.state.squads[unit.side].orders == 0
        return self._finish_activation(
            unit, "no ACT or Tactical Orders left" if spent else "nothing more it can do"
        )

    def _finish_activation(self, unit: UnitState, reason: str) -> list[Event]:
        self.state.activation = None
        if self._out_of_play(unit) is None:
            unit.status = ACTIVATED
        self.state.activations_done += 1
        events = [
            Event(
                "activation_ended",
                f"{possessive(unit.name)} activation ends ({reason}).",
                {"unit": unit.id, "side": unit.side, "reason": reason},
            )
        ]
        return events + self._next_activation()

    # --- what a variant of Skirm's rules changes (Skirm Lite overrides these) ---------------
    def _out_of_play(self, unit: UnitState) -> str | None:
        """Why the unit can act no more, in words; None while it can."""
        return None if unit.on_map else "its unit was Taken Out"

    def _can_still_act(self, unit: UnitState, activation: Activation) -> bool:
        return legal.can_still_act(self.state, unit, activation)

    def _next_activation(self) -> list[Event]:
        return turns.next_activation(self.state, self.dice)

    # --- set-up ---------------------------------------------------------------------------
    def _deploy(self, command: commands.Deploy) -> list[Event]:
        state = self.state
        if state.phase != DEPLOYMENT:
            raise IllegalCommand("Deployment is over.")
        squad = state.squads[command.side]
        if squad.deployed:
            raise IllegalCommand(f"{squad.name} has already deployed.")
        placements = self._check_placements(command.side, command.placements)
        for unit_id, square in placements.items():
            state.units[unit_id].square = square
        squad.deployed = True
        where = ", ".join(f"{unit_id} {square}" for unit_id, square in placements.items())
        events = [
            Event(
                "deployed",
                f"{squad.name} deploys: {where}.",
                {"side": command.side, "placements": {u: str(s) for u, s in placements.items()}},
            )
        ]
        if all(s.deployed for s in state.squads):
            events += self._after_deployment()
        return events

    def _after_deployment(self) -> list[Event]:
        """INF units left out of the deployment infiltrate next; then turn 1 begins."""
        state = self.state
        waiting = [u.id for u in state.units.values() if u.square is None and u.card.has("INF")]
        if not waiting:
            return turns.start_turn(state, self.dice)
        state.infiltrators = waiting
        names = ", ".join(waiting)
        return [
            Event(
                "infiltration",
                f"Both squads are down; {names} will infiltrate.",
                {"units": waiting},
            )
        ]

    def _infiltrate(self, command: commands.Infiltrate) -> list[Event]:
        state = self.state
        mine = [uid for uid in state.infiltrators if state.units[uid].side == command.side]
        if state.phase != DEPLOYMENT or not mine:
            raise IllegalCommand("Your squad has no Infiltrator (INF) waiting to be placed.")
        allowed = set(infiltration_squares(state, command.side))
        chosen: dict[str, Square] = {}
        for name, text in command.placements.items():
            unit = state.unit(name, command.side)
            if unit.id not in mine:
                raise IllegalCommand(
                    f"{unit.name} is not one of your infiltrators waiting to be placed."
                )
            square = state.board.parse_square(text)
            if square not in allowed or square in chosen.values():
                raise IllegalCommand(
                    f"{unit.name} cannot infiltrate to {square}: an Infiltrator deploys on an empty square at least "
                    f"{INFILTRATION_DISTANCE} squares from every enemy unit and objective (or as far as the map allows)."
                )
            chosen[unit.id] = square
        missing = [uid for uid in mine if uid not in chosen]
        if missing:
            raise IllegalCommand(
                f"Every infiltrator must be placed; missing: {', '.join(missing)}."
            )
        for uid, square in chosen.items():
            state.units[uid].square = square
        state.infiltrators = [uid for uid in state.infiltrators if uid not in chosen]
        where = ", ".join(f"{uid} {square}" for uid, square in chosen.items())
        events = [
            Event(
                "infiltrated",
                f"{state.squads[command.side].name} infiltrates: {where}.",
                {"side": command.side, "placements": {u: str(s) for u, s in chosen.items()}},
            )
        ]
        if not state.infiltrators:
            events += turns.start_turn(state, self.dice)
        return events

    def _check_placements(self, side: int, placements: dict[str, str]) -> dict[str, Square]:
        state = self.state
        zone = state.mission.zones[side]
        mine = state.units_of(side)
        chosen: dict[str, Square] = {}
        for name, text in placements.items():
            unit = state.unit(name, side)
            if unit.side != side:
                raise IllegalCommand(f"{unit.name} is not in your squad.")
            square = self._square(text)
            if not zone.contains(state.board, square):
                raise IllegalCommand(
                    f"{unit.name} must deploy in your zone, {zone.describe()}; {square} is not in it."
                )
            if not state.board.is_open(square):
                raise IllegalCommand(
                    f"{unit.name} cannot deploy on {square}: {square} is impassable, no unit can stand there."
                )
            if square in chosen.values() or state.unit_at(square) is not None:
                raise IllegalCommand(f"Two units cannot deploy on {square}.")
            chosen[unit.id] = square
        missing = [u.name for u in mine if u.id not in chosen and not u.card.has("INF")]
        if missing:
            raise IllegalCommand(f"Every unit must deploy; missing: {', '.join(missing)}.")
        return chosen

    def _standing_orders(self, command: commands.SetStandingOrders) -> list[Event]:
        if self.state.phase == ENDED:
            raise IllegalCommand("The match is over.")
        if command.orders_per_attack is not None:
            raise IllegalCommand(
                "TO per attack is a Skirm Lite standing order; here standing orders re-roll "
                "failed saves while more than a number of TO are left, or never."
            )
        threshold = command.reroll_saves_above
        if threshold is not None and not 0 <= threshold <= 20:
            raise IllegalCommand(
                "Keep a number of Tactical Orders from 0 to 20 in reserve, or choose never."
            )
        squad = self.state.squads[command.side]
        squad.reroll_saves_above = threshold
        squad.parry, squad.counter = command.parry, command.counter
        rule = (
            "never spend TO on saves"
            if threshold is None
            else f"re-roll failed saves while more than {threshold} TO are left"
        )
        rule += f"; PAR units {'parry' if command.parry else 'never parry'}"
        rule += f"; CTR units {'strike back' if command.counter else 'never strike back'}"
        return [
            Event(
                "standing_orders",
                f"{possessive(squad.name)} standing orders: {rule}.",
                {
                    "side": command.side,
                    "reroll_saves_above": threshold,
                    "parry": command.parry,
                    "counter": command.counter,
                },
            )
        ]

    def _refuse_unused(self, problem: str | None) -> None:
        """Refuse a command with a field its action does not use (`problem` says which), so
        that a record holds only what its commands used; replaying a record keeps what was
        accepted when it was played (`unused_fields_allowed`)."""
        if problem is not None and not self.unused_fields_allowed:
            raise IllegalCommand(problem)

    # --- activations ----------------------------------------------------------------------
    def _activate(self, command: commands.Activate) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        if not is_new:
            raise IllegalCommand(f"{unit.name} is already activating.")
        return self._begin(unit, activation, True) + self._after_action()

    def _end(self, command: commands.EndActivation) -> list[Event]:
        already = self._ended_by_itself(command) if self.late_end_is_no_op else None
        if already is not None:
            return [already]
        self._your_turn(command.side)
        self._no_pending_roll()
        activation = self.state.activation
        if activation is None:
            if command.unit is None:
                raise IllegalCommand(
                    "No unit is activating; name the Ready unit whose activation to end."
                )
            unit, activation, _ = self._acting_unit(command)
            return self._begin(unit, activation, True) + self._finish_activation(
                unit, command.reason
            )
        unit = self.state.units[activation.unit]
        if command.unit is not None and self.state.unit(command.unit) is not unit:
            raise IllegalCommand(f"{unit.name} is activating, not {command.unit}.")
        return self._finish_activation(unit, command.reason)

    def _ended_by_itself(self, command: commands.EndActivation) -> Event | None:
        """In a version-1 record, an End for the unit whose activation the last command ended
        by itself: that version ended such activations with an End (docs/rulings.md,
        Activations)."""
        if command.unit is None:
            return None
        for event in self._last_events:
            if (
                event.kind == "activation_ended"
                and event.data.get("side") == command.side
                and str(event.data.get("unit")).casefold() == command.unit.strip().casefold()
            ):
                name = self.state.units[event.data["unit"]].name
                return Event(
                    "activation_already_ended",
                    f"{possessive(name)} activation had already ended "
                    f"({event.data.get('reason')}).",
                    {"unit": event.data["unit"], "side": command.side},
                )
        return None

    def _delay(self, command: commands.Delay) -> list[Event]:
        self._your_turn(command.side)
        if self.state.activation is not None:
            raise IllegalCommand("A unit is activating; delay before choosing a unit.")
        problem = turns.can_delay(self.state, command.side)
        if problem:
            raise IllegalCommand(problem)
        return turns.delay(self.state, command.side)

    def _concede(self, command: commands.Concede) -> list[Event]:
        if self.state.phase == ENDED:
            raise IllegalCommand("The match is over.")
        loser = self.state.squads[command.side].name
        winner = 1 - command.side
        text = f"{loser} {command.reason}: {self.state.squads[winner].name} wins."
        return turns.finish(self.state, winner, text)

    def _draw(self, command: commands.AgreeDraw) -> list[Event]:
        if self.state.phase == ENDED:
            raise IllegalCommand("The match is over.")
        return turns.finish(self.state, None, "Both players agreed to a draw.")

    # --- actions --------------------------------------------------------------------------
    def _move(self, command: commands.Move | commands.Dash) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        action = MOVE if isinstance(command, commands.Move) else DASH
        forbidden = environment.forbidden(self.state, action)
        if forbidden:
            raise IllegalCommand(forbidden)
        route = self._route(unit, action, self._square(command.square))
        events = self._pay(unit, activation, is_new, action, command.orders)
        events.append(actions.do_move(self.state, unit, action, route))
        return events + self._after_action()

    def _route(self, unit: UnitState, action: str, destination: Square) -> Route:
        """The Move's or Dash's route; a trusted replay finds it without listing every square
        the unit could reach (what only a refusal needs)."""
        route = actions.known_route(self.state, unit, action, destination) if self.trusted else None
        if route is None:
            route = actions.check_move(self.state, unit, action, destination)
        return route

    def _leap(self, command: commands.Leap) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        route = actions.check_leap(self.state, unit, self.state.board.parse_square(command.square))
        events = self._pay(unit, activation, is_new, LEAP, command.orders)
        events.append(actions.do_move(self.state, unit, LEAP, route))
        return events + self._after_action()

    def _skill(self, command: commands.UseSkill) -> list[Event]:
        """A skill from the card: its cost, then its effect (rules/skills.py)."""
        unit, activation, is_new = self._acting_unit(command)
        skill = unit.card.skill(command.skill)
        if skill is None:
            listed = ", ".join(s.summary() for s in unit.card.skills) or "none"
            raise IllegalCommand(
                f"{unit.name} has no skill called '{command.skill}'. Its skills: {listed}."
            )
        used = [self.state.turn, unit.id, skill.name]
        if skill.once_per_turn and used in self.state.skills_used:
            raise IllegalCommand(
                f"{skill.name} can be used once per turn, and {unit.name} has used it this turn."
            )
        self._refuse_unused(skills_in_play.unused_target(skill, command.target))
        self._refuse_unused(skills_in_play.unused_orders(skill, command.orders))
        effect = skills_in_play.prepare(self.state, unit, skill, command.target)

        def pay() -> list[Event]:
            events = self._pay_skill(unit, activation, is_new, skill, command.orders)
            self.state.skills_used.append(used)
            return events

        if isinstance(effect, combat.Declaration):
            return self._make_attack(activation, effect, pay)
        events = pay()
        return events + skills_in_play.apply(self.state, unit, skill, effect) + self._after_action()

    def _pay_skill(
        self, unit: UnitState, activation: Activation, is_new: bool, skill: Skill, orders: int
    ) -> list[Event]:
        """A TO skill costs Tactical Orders only; an ACT skill is paid like any action."""
        if skill.to:
            squad = self.state.squads[unit.side]
            if squad.orders < skill.to:
                raise IllegalCommand(
                    f"{skill.name} costs {skill.to} TO (Tactical Orders only) and your squad has {squad.orders}."
                )
            return self._pay(unit, activation, is_new, skill.action, skill.to, cost=skill.to)
        cost = skill.act + activation.uses.get(skill.action, 0)
        return self._pay(unit, activation, is_new, skill.action, orders, cost=cost)

    def _door(self, command: commands.Door) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        toward = self._square(command.toward) if command.toward else None
        across = actions.check_door(self.state, unit, toward)
        events = self._pay(unit, activation, is_new, DOOR, command.orders)
        events.append(actions.do_door(self.state, unit, across))
        return events + self._after_action()

    def _pick_up(self, command: commands.PickUp) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        marker = actions.check_pick_up(self.state, unit)
        events = self._pay(unit, activation, is_new, PICK_UP_DROP, command.orders)
        events.append(actions.do_pick_up(unit, marker))
        return events + self._after_action()

    def _drop(self, command: commands.Drop) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        actions.check_drop(unit)
        events = self._pay(unit, activation, is_new, PICK_UP_DROP, command.orders)
        events.append(actions.do_drop(self.state, unit))
        return events + self._after_action()

    def _crate(self, command: commands.OpenCrate) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        crate = actions.check_crate(self.state, unit, command.option)
        events = self._pay(unit, activation, is_new, CRATE_ACTION, command.orders)
        events += actions.do_crate(self.state, unit, crate, command.option, self.dice)
        self.state.crates_opened_this_turn.append(unit.side)  # for missions (rulings: Missions)
        return events + self._after_action()

    # --- combat ---------------------------------------------------------------------------
    def _shoot(self, command: commands.Shoot) -> list[Event]:
        return self._attack(command, RANGED)

    def _melee(self, command: commands.Melee) -> list[Event]:
        return self._attack(command, MELEE)

    def _attack(self, command: commands.Shoot | commands.Melee, kind: str) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        weapon = combat.choose_weapon(unit, kind, command.weapon)
        self._refuse_unused(combat.unused_also(weapon, command.also))
        action = attack_action(kind)

        def pay() -> list[Event]:
            events = self._pay(unit, activation, is_new, action, command.orders, weapon)
            # HVY and 2RC/2MC look back at the weapons this activation attacked with
            activation.attack_weapons.setdefault(kind, []).append(weapon.name)
            return events

        declared = combat.Declaration(unit, kind, weapon, command.target, command.also)
        return self._make_attack(activation, declared, pay)

    def _turret(self, command: commands.UseTurret) -> list[Event]:
        unit, activation, is_new = self._acting_unit(command)
        assert unit.square is not None
        turrets = self.state.items_at(unit.square, TURRET_ITEM)
        if not turrets:
            raise IllegalCommand(
                f"There is no turret on {unit.square}; {unit.name} must stand on a turret to use it."
            )
        turret = turrets[0]
        assert turret.turret_type is not None
        weapon = combat.TURRET_WEAPONS[turret.turret_type]
        self._refuse_unused(combat.unused_also(weapon, command.also))
        declared = combat.Declaration(
            unit, RANGED, weapon, command.target, command.also, turret=turret
        )
        return self._make_attack(
            activation,
            declared,
            lambda: self._pay(unit, activation, is_new, TURRET, command.orders),
        )

    def _make_attack(
        self, activation: Activation, declared: combat.Declaration, pay: Callable[[], list[Event]]
    ) -> list[Event]:
        """Every attack is made this way, whatever makes it (a Ranged or Melee Attack, a turret,
        an attack skill), so none skips a rule: every check first (`combat.declare`: targets,
        range, sight, the turn's event, the further targets of a multi-target weapon), then
        `pay` (what this way of attacking costs; it raises before changing anything if it
        cannot be paid), then the weapon's use (LIM) and the roll."""
        plan = combat.declare(self.state, declared)
        events = pay()
        if plan.weapon.has("LIM"):
            declared.attacker.lim_uses_left[plan.weapon.name] -= 1
        return events + self._roll(activation, plan)

    def _mission_action(self, command: commands.MissionAction) -> list[Event]:
        """A mission action (rulebook Mission Actions), TCH making the first one cheaper."""
        unit, activation, is_new = self._acting_unit(command)
        rule = mission_actions.find(self.state, command.action)
        target = mission_actions.check(self.state, unit, rule)
        cost = mission_actions.cost(self.state, unit, activation, rule)
        squad = self.state.squads[unit.side]
        check_payment(unit, squad, activation, rule.name, cost, command.orders)
        events = [
            *self._begin(unit, activation, is_new),
            pay(unit, squad, activation, rule.name, cost, command.orders),
            mission_actions.do(self.state, unit, rule, target),
        ]
        return events + self._after_action()

    def _roll(self, activation: Activation, plan: combat.AttackPlan) -> list[Event]:
        events, pending = combat.open_fire(self.state, plan, self.dice)
        return [*events, *self._settle(activation, pending)]

    def _settle(self, activation: Activation, pending: PendingRoll | None) -> list[Event]:
        """Resolve rolls until one waits for the active player's decision, or all are done
        (a multi-target weapon rolls once per target)."""
        events: list[Event] = []
        while pending is not None:
            if combat.needs_decision(self.state, pending):
                activation.pending = pending
                return events
            resolved, pending = self._resolve_roll(pending)
            events += resolved
        activation.pending = None
        return events + self._after_action()

    def _resolve_roll(self, pending: PendingRoll) -> tuple[list[Event], PendingRoll | None]:
        """Hits, saves and damage of a settled roll; the next target's roll, if any."""
        return combat.resolve_attack(self.state, pending, self.dice)

    def _decision(self, command: commands.Command) -> Activation:
        self._your_turn(command.side)
        activation = self.state.activation
        if activation is None or activation.pending is None:
            raise IllegalCommand("No roll is waiting for a decision.")
        return activation

    def _reroll(self, command: commands.Reroll) -> list[Event]:
        activation = self._decision(command)
        assert activation.pending is not None
        event = combat.reroll_die(self.state, activation.pending, command.die, self.dice)
        return [event, *self._resolve_if_settled(activation)]

    def _modify(self, command: commands.Modify) -> list[Event]:
        activation = self._decision(command)
        assert activation.pending is not None
        event = combat.modify_die(self.state, activation.pending, command.die, command.delta)
        return [event, *self._resolve_if_settled(activation)]

    def _accept(self, command: commands.Accept) -> list[Event]:
        activation = self._decision(command)
        return self._resolve(activation)

    def _resolve_if_settled(self, activation: Activation) -> list[Event]:
        assert activation.pending is not None
        if combat.needs_decision(self.state, activation.pending):
            return []
        return self._resolve(activation)

    def _resolve(self, activation: Activation) -> list[Event]:
        pending = activation.pending
        assert pending is not None
        activation.pending = None
        resolved, following = self._resolve_roll(pending)
        return resolved + self._settle(activation, following)


__all__ = ["Match", "new_state", "PLAYING"]
