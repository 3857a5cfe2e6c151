"""The d20 match: commands in, events out, all or nothing (the d20 package's own engine).

A turn: the Command Phase's action point roll (made as the turn starts, `rounds.next_turn`),
buying bonus dice, activating models, buying bonus dice again; "You can not purchase bonus dice
during the action phase", so a purchase after an activation ends the Action Phase (our ruling).
A model activates once per turn; its activation ends when another model activates, its player
ends it, or the turn ends. The turn ends when its action points are spent or its player ends it.
"""

from __future__ import annotations

import copy
from typing import ClassVar

from skirmbot.rules.commands import Command, Concede, Deploy, EndActivation
from skirmbot.rules.d20 import combat, rounds
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, Shift, StandingOrders
from skirmbot.rules.d20.geometry import can_shift, facing_of_step, paths, squares_for
from skirmbot.rules.d20.odds import BONUS_DIE
from skirmbot.rules.d20.setup import deploy, square_on
from skirmbot.rules.d20.state import (
    ACTION,
    ACTIVATED,
    AFTER,
    FACINGS,
    MAX_BONUS_DICE,
    READY,
    Model,
    PendingAttack,
    State,
)
from skirmbot.rules.d20.verbs import own_form
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.handlers import Handlers, handler_of
from skirmbot.rules.squares import Square
from skirmbot.words import plural

MOVE_COSTS = (1, 3, 5)  # "1st Movement is 1 AP, 2nd Movement is 3 AP, 3rd Movement is 5 AP"
# Bonus Dice | Action Point Cost: what holding 0 to 6 bonus dice has cost (our ruling: a
# purchase costs the difference, so the first die costs 1 AP as the text says).
BONUS_PRICES = (0, 1, 2, 4, 7, 12, 20)
# What the seat whose turn it is does in it (not a defender's decision, nor standing orders,
# which may be set at any time): what undo may take back.
TURN_ACTIONS = frozenset({"buy", "move", "attack", "shift", "end"})


def price(held: int, buying: int) -> int:
    """AP for `buying` more bonus dice when `held` are held."""
    return BONUS_PRICES[held + buying] - BONUS_PRICES[held]


class D20Match:
    """A d20 match as `PlayedMatch` (skirmbot.rules.ruleset) plays it."""

    # The method that plays each kind of command (skirmbot.rules.handlers).
    HANDLERS: ClassVar[Handlers] = {
        Deploy: "_deploy", StandingOrders: "_standing_orders", Buy: "_buy",
        Move: "_move", Attack: "_attack", Defend: "_defend", Shift: "_shift",
        EndActivation: "_end_activation", EndTurn: "_end_turn", Concede: "_concede",
    }  # fmt: skip

    def __init__(self, state: State, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.commands: list[Command] = []
        self.log: list[Event] = []
        self.late_end_is_no_op = False
        self.unused_fields_allowed = False
        # A trusted replay (skirmbot.rules.record) skips what only a refusal needs: the copy of
        # the state kept to put back (a refused command there ends the replay, whose match is
        # thrown away).
        self.trusted = False
        # An activation's end and start, told before the action that made them (`_activate`).
        self._opening: list[Event] = []

    def started_under(self, version: int) -> None:
        """The d20 rules came with record version 4 and have not changed since."""

    def apply(self, command: Command) -> list[Event]:
        """The command's events; a kernel verb is played (and kept) as its d20 form."""
        # The board never changes in the d20 rules (no doors open): shared, not copied.
        before = (
            None
            if self.trusted
            else copy.deepcopy(self.state, {id(self.state.board): self.state.board})
        )
        try:
            self._check_seat(command.side)
            command = own_form(self.state, command)
            handler = handler_of(self, self.HANDLERS, command)
            if handler is None:
                raise IllegalCommand(f"The d20 rules have no '{command.type}' command.")
            turns = self.state.turns
            self._opening = []
            events = handler(command)
            events = self._opening + events
            if self.state.turns == turns and command.type in TURN_ACTIONS:
                self.state.acted += 1
        except RulesError:
            if before is not None:
                self.state = before
            raise
        self.commands.append(command)
        self.log.extend(events)
        return events

    # --- checks ---------------------------------------------------------------------------------
    def _check_seat(self, side: int) -> None:
        if not 0 <= side < len(self.state.seats):
            raise IllegalCommand(f"This match has seats 0 to {len(self.state.seats) - 1}.")
        if self.state.over:
            raise IllegalCommand("The match is over.")
        if self.state.seats[side].out:
            raise IllegalCommand(f"{self.state.seats[side].name} is out of the match.")

    def _check_turn(self, side: int) -> None:
        state = self.state
        if state.round == 0:
            raise IllegalCommand("The warbands are still deploying.")
        if state.pending is not None:
            defender = state.models[state.pending.target.lower()]
            raise IllegalCommand(
                f"Waiting for {state.seats[defender.side].name} to defend {defender.id}."
            )
        if (
            state.free_move is not None
            and state.models[state.free_move.lower()].side != state.to_act
        ):
            raise IllegalCommand(f"Waiting for {state.free_move}'s free move.")
        if side != state.to_act:
            raise IllegalCommand(f"It is {state.seats[state.to_act or 0].name}'s turn.")

    def _activate(self, side: int, unit: str) -> Model:
        """The model acting now; a model starting its activation ends the one before."""
        state = self.state
        self._check_turn(side)
        state.free_move = None  # "the winner MAY move": any other action declines it
        model = state.model(unit)
        if model.side != side:
            raise IllegalCommand(f"{model.id} is not yours.")
        if not model.standing:
            raise IllegalCommand(f"{model.id} is down or out and cannot act.")
        if state.active == model.id:
            return model
        if state.step == AFTER:
            raise IllegalCommand(
                "Bonus dice were bought after the Action Phase: no model can activate this turn."
            )
        if model.status == ACTIVATED:
            raise IllegalCommand(f"{model.id} has already activated this turn.")
        self._opening += rounds.finish_activation(state, f"{model.id} activates")
        state.active, state.step = model.id, ACTION
        seat = state.seats[side]
        text = (
            f"{model.id} activates ({seat.ap} AP, {plural(seat.bonus, 'bonus die', 'bonus dice')})."
        )
        self._opening.append(Event("activation_started", text, {"unit": model.id, "side": side}))
        return model

    def _spend(self, side: int, ap: int, bonus: int) -> None:
        seat = self.state.seats[side]
        if not 0 <= bonus <= seat.bonus:
            raise IllegalCommand(f"{seat.name} holds {seat.bonus} bonus dice, not {bonus}.")
        if ap > seat.ap:
            raise IllegalCommand(f"That costs {ap} AP; {seat.name} has {seat.ap} left.")
        seat.ap -= ap
        seat.bonus -= bonus

    def _after(self, events: list[Event]) -> list[Event]:
        """The turn ends by itself when its action points are spent and nothing waits."""
        state = self.state
        if (
            state.over
            or state.to_act is None
            or state.pending is not None
            or state.free_move is not None
        ):
            return events
        if state.seats[state.to_act].ap == 0:
            return events + rounds.end_turn(state, self.dice)
        return events

    # --- commands -------------------------------------------------------------------------------
    def _deploy(self, command: Deploy) -> list[Event]:
        state = self.state
        if state.round:
            raise IllegalCommand("Deployment is over.")
        deploy(state, command.side, command.placements)
        return self._start_if_deployed()

    def _start_if_deployed(self) -> list[Event]:
        """The first round begins once every warband still in the match has deployed."""
        state = self.state
        if not all(seat.placed for seat in state.seats if not seat.out):
            return []
        events = [Event("deployed", "Every warband is deployed.", {})]
        return events + rounds.new_round(state, self.dice)

    def _standing_orders(self, command: StandingOrders) -> list[Event]:
        if not 0 <= command.defend <= MAX_BONUS_DICE:
            raise IllegalCommand(f"Defend with 0 to {MAX_BONUS_DICE} bonus dice.")
        seat = self.state.seats[command.side]
        seat.defend, seat.prompt = command.defend, command.prompt
        asked = (
            "asks to be prompted"
            if command.prompt
            else f"defends with up to {command.defend} bonus dice"
        )
        return [Event("standing_orders", f"{seat.name} {asked}.", {"side": command.side})]

    def _buy(self, command: Buy) -> list[Event]:
        state = self.state
        self._check_turn(command.side)
        state.free_move = None
        seat = state.seats[command.side]
        if command.dice < 1 or seat.bonus + command.dice > MAX_BONUS_DICE:
            raise IllegalCommand(
                f"A player holds at most {MAX_BONUS_DICE} bonus dice; "
                f"{seat.name} holds {seat.bonus}."
            )
        cost = price(seat.bonus, command.dice)
        self._spend(command.side, cost, 0)
        seat.bonus += command.dice
        if state.step == ACTION:  # buying after activations ends the Action Phase
            self._opening += rounds.finish_activation(state, "bonus dice are bought")
            state.step = AFTER
        text = f"{seat.name} buys {command.dice} bonus dice for {cost} AP."
        return self._after(
            [
                Event(
                    "bonus_bought", text, {"side": command.side, "dice": command.dice, "cost": cost}
                )
            ]
        )

    def _move(self, command: Move) -> list[Event]:
        state = self.state
        model = self._activate(command.side, command.unit)
        if model.moves >= len(MOVE_COSTS):
            raise IllegalCommand(f"{model.id} has moved three times this activation.")
        if model.moved_then_fought:
            raise IllegalCommand(f"{model.id} moved and fought: it cannot move again.")
        if command.facing is not None and (not model.big or command.facing not in FACINGS):
            raise IllegalCommand(f"Only Big Models face a way: one of {', '.join(FACINGS)}.")
        destination = _square(state, command.square)
        assert model.square is not None
        blocked = set(state.occupied(ignore=model))
        anywhere = state.board.width * state.board.height
        found = paths(state.board, model.square, model.big, blocked, anywhere)
        if destination not in found:
            raise IllegalCommand(f"{model.id} cannot reach {destination}: the way is blocked.")
        if destination == model.square and command.facing is None:
            raise IllegalCommand(f"{model.id} already stands on {destination}.")
        steps = len(found[destination]) - 1
        reach = squares_for(model.profile.move + BONUS_DIE * command.bonus)
        if steps > reach:
            raise IllegalCommand(
                f"{destination} is {steps} squares away; {model.id} moves {reach} at most"
                + (" with its bonus dice." if command.bonus else ".")
            )
        cost = MOVE_COSTS[model.moves]
        self._spend(command.side, cost, command.bonus)
        faces = [self.dice.roll(BONUS_DIE) for _ in range(command.bonus)]
        allowance = squares_for(model.profile.move + sum(faces))
        path = found[destination][: allowance + 1]
        model.square = path[-1]
        if model.big:
            model.facing = command.facing or (
                facing_of_step(path[-2], path[-1]) if len(path) > 1 else model.facing
            )
        model.moves += 1
        text = (
            f"{model.id} moves to {model.square} ({cost} AP"
            + (f", bonus dice {faces}" if faces else "")
            + ")."
        )
        data = {
            "unit": model.id,
            "path": [str(s) for s in path],
            "cost": cost,
            "action": "move",
            "faces": faces,
        }
        return self._after([Event("moved", text, data)])

    def _attack(self, command: Attack) -> list[Event]:
        state = self.state
        model = self._activate(command.side, command.unit)
        if model.fought:
            raise IllegalCommand(f"{model.id} has already fought this activation.")
        weapon = model.profile.weapon(command.weapon)
        if weapon is None:
            raise IllegalCommand(f"{model.id} has no weapon called '{command.weapon}'.")
        target = state.model(command.target)
        combat.check(state, model, target, weapon)
        self._spend(command.side, combat.ATTACK_COST, command.bonus)
        model.fought, model.moved_then_fought = True, model.moves > 0
        defender = state.seats[target.side]
        if defender.prompt and defender.bonus > 0:
            state.pending = PendingAttack(model.id, target.id, weapon.name, command.bonus)
            text = f"{model.id} attacks {target.id}: {defender.name} chooses bonus dice to defend."
            return [Event("defence_asked", text, {"side": target.side, "unit": target.id})]
        dice = min(defender.defend, defender.bonus)
        defender.bonus -= dice
        return self._resolve(model, target, weapon.name, (command.bonus, dice))

    def _resolve(
        self, attacker: Model, target: Model, weapon: str, bonus: tuple[int, int]
    ) -> list[Event]:
        state = self.state
        found = attacker.profile.weapon(weapon)
        assert found is not None
        events = combat.resolve(state, self.dice, attacker, target, found, bonus)
        if attacker.status != READY:  # downed in melee: its activation is over
            state.active = None
        if state.free_move is not None:
            winner = state.models[state.free_move.lower()]
            if winner.side != state.to_act and not state.seats[winner.side].prompt:
                state.free_move = None  # the standing order: stay
        return self._after(events)

    def _defend(self, command: Defend) -> list[Event]:
        state = self.state
        pending = state.pending
        if pending is None or state.models[pending.target.lower()].side != command.side:
            raise IllegalCommand("No attack is waiting for your defence.")
        seat = state.seats[command.side]
        if not 0 <= command.dice <= seat.bonus:
            raise IllegalCommand(f"{seat.name} holds {seat.bonus} bonus dice, not {command.dice}.")
        seat.bonus -= command.dice
        state.pending = None
        attacker, target = state.model(pending.attacker), state.model(pending.target)
        return self._resolve(attacker, target, pending.weapon, (pending.bonus, command.dice))

    def _shift(self, command: Shift) -> list[Event]:
        state = self.state
        model = state.model(command.unit)
        if state.free_move is None or state.free_move.lower() != model.id.lower():
            raise IllegalCommand(f"{model.id} has no free move to take.")
        if model.side != command.side:
            raise IllegalCommand(f"{model.id} is not yours.")
        state.free_move = None
        if command.square is None:
            return self._after(
                [Event("stayed", f"{model.id} stays where it is.", {"unit": model.id})]
            )
        destination = _square(state, command.square)
        assert model.square is not None
        dx, dy = destination.x - model.square.x, destination.y - model.square.y
        free = squares_for(combat.FREE_MOVE)
        blocked = set(state.occupied(ignore=model))
        if max(abs(dx), abs(dy)) != free or not can_shift(
            state.board, model.square, dx, dy, model.big, blocked
        ):
            raise IllegalCommand(
                f"{model.id}'s free move of {combat.FREE_MOVE}\" reaches a free square next to it."
            )
        path = [str(model.square), str(destination)]
        model.square = destination
        data = {"unit": model.id, "path": path, "cost": 0, "action": "free"}
        return self._after([Event("moved", f"{model.id} moves freely to {destination}.", data)])

    def _end_activation(self, command: EndActivation) -> list[Event]:
        state = self.state
        self._check_turn(command.side)
        state.free_move = None
        if state.active is None or (
            command.unit is not None and command.unit.lower() != state.active.lower()
        ):
            raise IllegalCommand("No such model is activating.")
        return rounds.finish_activation(state, command.reason)

    def _end_turn(self, command: EndTurn) -> list[Event]:
        self._check_turn(command.side)
        self.state.free_move = None
        return rounds.end_turn(self.state, self.dice)

    def _concede(self, command: Concede) -> list[Event]:
        state = self.state
        rounds.go_out(state, command.side)
        events = [
            Event(
                "conceded",
                f"{state.seats[command.side].name} concedes: its models leave the table.",
                {"side": command.side},
            )
        ]
        if state.pending is not None and command.side in (
            state.model(state.pending.attacker).side,
            state.model(state.pending.target).side,
        ):
            state.pending = None
        if state.free_move is not None and state.model(state.free_move).side == command.side:
            state.free_move = None
        if len(state.in_play()) <= 1:
            return events + rounds.finish(state, f"{state.seats[command.side].name} conceded")
        if state.round == 0:  # the others may all have deployed already
            return events + self._start_if_deployed()
        if state.to_act == command.side:
            state.active = None
            return events + rounds.next_turn(state, self.dice)
        return self._after(events)


def _square(state: State, text: object) -> Square:
    return square_on(state.board, text)
