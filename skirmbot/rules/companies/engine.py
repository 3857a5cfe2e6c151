"""The match under the group rules: commands in, events out, all or nothing.

Set-up (rulebook Setup): every seat deploys in secret; when all are revealed the Captains'
traits and the attackers' roll-off are rolled (`setup.reveal`); every seat chooses its
ambition; then round 1 begins with the attackers' turn (the defenders' if the scenario says).

A turn is a side's (rulebook Turns): its Shaken Groups Rally and its Reckless Groups are
checked, then every seat of the side activates its own Groups, one order each ("Each Group may
activate only once each turn"), in any order between them. An order is checked legal first
(nothing rolled, nothing changed otherwise), then tested on 2d6; "If the Group failed their
activation test, end your side's turn" (the whole side's: our ruling for team play), except a
Reckless Group's ("this does not end the turn"). The turn also passes when every seat of the
side has ended its part ("choose to end your turn") or has no Group left that may activate. A
round is one turn of each side; after it, the scenario scores the round and may end the game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import ClassVar

from skirmbot.rules.commands import Command, Concede, Deploy, EndActivation, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.companies import combat, geometry, orders, resilience, scoring, setup
from skirmbot.rules.companies.captains import activation_minimum
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    StandingOrders,
    Summon,
)
from skirmbot.rules.companies.profiles import (
    ATTACK,
    CAST,
    DEFIANT,
    ELUSIVE,
    INTERRUPTS,
    MOVE,
    RECKLESS,
    RETREAT,
    SHOOT,
    SUMMON,
)
from skirmbot.rules.companies.scenarios import ATTACKERS
from skirmbot.rules.companies.state import SIDES, Group, PendingAttack, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.handlers import Handlers, handler_of
from skirmbot.rules.squares import Square
from skirmbot.words import possessive

TEST_DICE = 2  # "Roll 2d6, attempting to meet or exceed the Group's minimum activation result"
# What a seat does in its side's turn (not an answer to an Attack, nor standing orders, which
# may come at any time): what undo may take back. "end" is the kernel's EndActivation as a
# record keeps it (/end), played as EndTurn.
TURN_ACTIONS = frozenset(
    {"move", "shoot", "melee", "retreat", "cast", "summon", "end_turn", EndActivation.type}
)
ORDER_WORDS = {
    MOVE: "Move", SHOOT: "Shoot", ATTACK: "Attack", RETREAT: "Retreat", CAST: "Cast",
    SUMMON: "Summon",
}  # fmt: skip


def first_side(state: State) -> int:
    """The side whose turn opens each round (Setup 5: "Unless otherwise specified in the
    scenario, the attackers take the first turn")."""
    assert state.attackers is not None, "the roll-off comes before the first round"
    return state.attackers if state.scenario.first == ATTACKERS else 1 - state.attackers


class CompaniesMatch:
    """A match of the group rules as `PlayedMatch` (skirmbot.rules.ruleset) plays it."""

    # The method that plays each kind of command (skirmbot.rules.handlers).
    HANDLERS: ClassVar[Handlers] = {
        Deploy: "_deploy", ChooseAmbition: "_choose_ambition",
        StandingOrders: "_standing_orders", Move: "_move", Shoot: "_shoot",
        Melee: "_attack", Retreat: "_retreat", Cast: "_cast", Summon: "_summon",
        Interrupt: "_interrupt", EndTurn: "_end_turn", Concede: "_concede",
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
        # thrown away), and listing every Move there is to explain one refused.
        self.trusted = False

    def started_under(self, version: int) -> None:
        """The group rules came with issue 30's record version and have not changed since."""

    def apply(self, command: Command) -> list[Event]:
        """The command's events; a kernel Move is played (and kept) as this rulebook's Move."""
        # The table never changes under the group rules (no door opens): shared, not copied.
        table = self.state.battle_map
        before = (
            None
            if self.trusted
            else copy.deepcopy(
                self.state, {id(self.state.board): self.state.board, id(table): table}
            )
        )
        try:
            self._check_seat(command.side)
            command = own_form(command)
            handler = handler_of(self, self.HANDLERS, command)
            if handler is None:
                raise IllegalCommand(f"The group rules have no '{command.type}' command.")
            turns = self.state.turns
            events = handler(command)
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
    def _check_seat(self, seat: int) -> None:
        state = self.state
        if not 0 <= seat < len(state.seats):
            raise IllegalCommand(f"This match has seats 0 to {len(state.seats) - 1}.")
        if state.over:
            raise IllegalCommand("The match is over.")
        if state.seats[seat].out:
            raise IllegalCommand(f"{state.seats[seat].name} has left the match.")

    def _activating(self, seat: int, unit: str, order: str) -> Group:
        """The Group given `order`, checked: the seat's turn, its own Group, free to activate,
        an order its profile knows (a Reckless Group that must attempt its Attack: only that)."""
        state = self.state
        why = orders.seat_may_act(state, seat)
        if why is not None:
            raise IllegalCommand(why)
        group = state.group(unit)
        if group.seat != seat:
            raise IllegalCommand(f"{group.id} is not in {state.seats[seat].name}.")
        why = orders.may_activate(state, group)
        if why is not None:
            raise IllegalCommand(why)
        if not group.profile.can(order):
            raise IllegalCommand(f"{group.id} cannot be given a {ORDER_WORDS[order]} order.")
        if group.id in state.reckless and order != ATTACK:
            raise IllegalCommand(f"{group.id} is Reckless: it must attempt to Attack.")
        return group

    # --- set-up ---------------------------------------------------------------------------------
    def _deploy(self, command: Deploy) -> list[Event]:
        state = self.state
        if state.attackers is not None or state.round:
            raise IllegalCommand("Deployment is over.")
        setup.deploy(state, command.side, command.placements)
        return self._set_up_next()

    def _set_up_next(self) -> list[Event]:
        """Deployment revealed once every Company still in the match has deployed; round 1 once
        every one has chosen its ambition."""
        state = self.state
        playing = [seat for seat in state.seats if not seat.out]
        if state.attackers is None:
            if all(seat.placed for seat in playing):
                return setup.reveal(state, self.dice)
            return []
        if state.round == 0 and all(seat.ambition is not None for seat in playing):
            return self._after(self._start_turn(first_side(state), new_round=True))
        return []

    def _choose_ambition(self, command: ChooseAmbition) -> list[Event]:
        state = self.state
        if state.attackers is None or state.round:
            raise IllegalCommand(
                "Ambitions are chosen once deployment is revealed, before the first round."
            )
        seat = state.seats[command.side]
        if seat.ambition is not None:
            raise IllegalCommand(f"{seat.name} has already chosen its ambition.")
        ambition = state.catalogue.ambitions.get(command.ambition.strip().lower())
        if ambition is None:
            known = ", ".join(state.catalogue.ambitions)
            raise IllegalCommand(f"There is no ambition '{command.ambition}'; choose {known}.")
        seat.ambition = ambition.key
        event = Event(
            "ambition_chosen",
            f"{seat.name} chooses its ambition: {ambition.name}.",
            {"side": command.side, "ambition": ambition.key},
        )
        return [event, *self._set_up_next()]

    def _standing_orders(self, command: StandingOrders) -> list[Event]:
        seat = self.state.seats[command.side]
        seat.defiant, seat.elusive, seat.prompt = command.defiant, command.elusive, command.prompt
        if command.prompt:
            words = "asks to be prompted when attacked"
        else:
            both = (("Defiant", seat.defiant), ("Elusive", seat.elusive))
            chosen = [name for name, on in both if on]
            words = f"tests {' and '.join(chosen)} when attacked" if chosen else "stands firm"
        return [Event("standing_orders", f"{seat.name} {words}.", {"side": command.side})]

    # --- the turn -------------------------------------------------------------------------------
    def _start_turn(self, side: int, *, new_round: bool) -> list[Event]:
        """Turns: "At the beginning of each turn, in order: 1. Rally Shaken Groups ... 2. Make
        checks for Reckless Groups"."""
        state = self.state
        if new_round:
            state.round += 1
        state.active = side
        state.turns, state.acted = state.turns + 1, 0
        for group in state.groups.values():
            group.activated = False
        for seat in state.seats_of(side):
            state.seats[seat].ended = False
        names = setup.side_names(state, side)
        events = [
            Event(
                "turn_started",
                f"Round {state.round}: {possessive(names)} turn.",
                {"turn": state.round, "side": side},
            )
        ]
        events += resilience.rally(state, self.dice, side)
        return events + self._reckless(side)

    def _reckless(self, side: int) -> list[Event]:
        """Turns 2: each Reckless Group "within their movement range of an enemy" (our ruling:
        one it could Attack now) must attempt to activate to Attack."""
        state = self.state
        events = []
        for group in state.groups.values():
            if (
                group.side == side
                and group.profile.has(RECKLESS)
                and group.on_table
                and not (group.shaken or group.activated)
                and orders.attack_targets(state, group)
            ):
                state.reckless.append(group.id)
                events.append(
                    Event(
                        "reckless",
                        f"{group.id} is Reckless: it must attempt to Attack.",
                        {"unit": group.id, "side": group.seat},
                    )
                )
        return events

    def _after(self, events: list[Event], *, failed: bool = False) -> list[Event]:
        """The game may be over; the turn passes when an activation test failed or no seat of
        the side has anything left to do (nothing waits on an Attack)."""
        state = self.state
        if state.over or state.round == 0:
            return events
        if scoring.game_over(state):
            return events + scoring.finish(state)
        if state.pending is not None:
            return events
        self._drop_stale_reckless()
        if failed or not orders.acting_seats(state):
            return events + self._pass_turn()
        return events

    def _drop_stale_reckless(self) -> None:
        """A Reckless Group left with no enemy to Attack has made its check: it stays put."""
        state = self.state
        for name in list(state.reckless):
            group = state.group(name)
            if not orders.attack_targets(state, group):
                state.reckless.remove(name)
                group.activated = True

    def _pass_turn(self) -> list[Event]:
        """The side's turn ends; the other side's begins, or the round ends ("The active side
        attempts to activate Groups until an activation is failed or they choose to end their
        turn"). A side with nothing to do passes at once."""
        state = self.state
        events: list[Event] = []
        while True:
            side = state.active
            assert side is not None
            events.append(
                Event(
                    "turn_ended",
                    f"{possessive(setup.side_names(state, side))} turn ends.",
                    {"turn": state.round, "side": side},
                )
            )
            state.reckless = []
            new_round = side != first_side(state)
            if new_round:
                events += scoring.end_of_round(state)
                if scoring.game_over(state):
                    return events + scoring.finish(state)
            events += self._start_turn(1 - side, new_round=new_round)
            if scoring.game_over(state):
                return events + scoring.finish(state)
            self._drop_stale_reckless()
            if orders.acting_seats(state):
                return events

    def _end_turn(self, command: EndTurn) -> list[Event]:
        state = self.state
        why = orders.seat_may_act(state, command.side)
        if why is not None:
            raise IllegalCommand(why)
        reckless = orders.reckless_of(state, command.side)
        if reckless:
            names = ", ".join(g.id for g in reckless)
            raise IllegalCommand(f"{names} must first attempt to Attack (Reckless).")
        seat = state.seats[command.side]
        seat.ended = True
        why = f" ({command.reason})" if command.reason else ""  # the turn timer ran out
        event = Event(
            "activation_ended",
            f"{seat.name} ends its part of the turn{why}.",
            {"unit": None, "side": command.side, "reason": "turn"},
        )
        return self._after([event])

    # --- activations ----------------------------------------------------------------------------
    def _test(self, group: Group, order: str) -> tuple[list[Event], bool]:
        """Activation 3: "Roll 2d6, attempting to meet or exceed the Group's minimum activation
        result for their given order"."""
        state = self.state
        needed = activation_minimum(state, group, order)
        faces = [self.dice.roll(6) for _ in range(TEST_DICE)]
        passed = sum(faces) >= needed
        group.activated = True
        state.orders += 1
        if group.id in state.reckless:
            state.reckless.remove(group.id)
        verb = ORDER_WORDS[order]
        outcome = "passes" if passed else "fails"
        started = Event(
            "activation_started",
            f"{group.id} activates to {verb}.",
            {"unit": group.id, "side": group.seat},
        )
        test = Event(
            "activation_test",
            f"{group.id} tests to {verb}: {faces[0]}+{faces[1]} against {needed}: {outcome}.",
            {
                "unit": group.id,
                "side": group.seat,
                "order": order,
                "faces": faces,
                "needed": needed,
                "passed": passed,
            },
        )
        return [started, test], passed

    def _order(self, group: Group, order: str, perform: Callable[[], list[Event]]) -> list[Event]:
        """One activation: the test, then the order on a success; a failure ends the side's
        turn, a Reckless Group's excepted (Turns 2: "they remain stationary, but this does not
        end the turn")."""
        reckless = group.id in self.state.reckless
        events, passed = self._test(group, order)
        if passed:
            events += perform()
            if self.state.pending is None:
                events.append(_ended(group, "done"))
            return self._after(events)
        events.append(_ended(group, "failed its activation test"))
        return self._after(events, failed=not reckless)

    def _destinations(self, group: Group, square: Square) -> tuple[Square, ...]:
        """Every model's square when the Group's first model Moves to `square`. A trusted
        replay lists the Moves once, for the squares; only a refusal needs `why_not_move`,
        which lists them again to say why."""
        if self.trusted:
            found = orders.move_squares(self.state, group).get(square)
            if found is not None:
                return found
        why = orders.why_not_move(self.state, group, square)
        if why is not None:
            raise IllegalCommand(why)
        return orders.move_squares(self.state, group)[square]

    def _move(self, command: Move) -> list[Event]:
        state = self.state
        group = self._activating(command.side, command.unit, MOVE)
        if command.models is not None:
            squares = [setup.square_on(state.board, w) for w in command.models.split()]
            if (
                command.square
                and squares
                and setup.square_on(state.board, command.square) != squares[0]
            ):
                raise IllegalCommand(
                    f"The Move names {command.square} for {possessive(group.id)} first model, and "
                    f"{squares[0]} among its models' squares: give the same square."
                )
            why = orders.placed_move_error(state, group, squares)
            if why is not None:
                raise IllegalCommand(why)
            destinations = tuple(squares)
        else:
            destinations = self._destinations(group, setup.square_on(state.board, command.square))
        return self._order(group, MOVE, lambda: self._walk(group, destinations, "move"))

    def _walk(self, group: Group, destinations: tuple[Square, ...], action: str) -> list[Event]:
        """The Group's models go to `destinations`; the moved event with each model's path."""
        paths = orders.model_paths(self.state, group, destinations)
        cost = orders.path_cost(self.state, paths[0])
        group.models = list(destinations)
        verb = {"move": "moves", "charge": "charges"}.get(action, action)
        return [
            Event(
                "moved",
                f"{group.id} {verb} to {destinations[0]}.",
                {
                    "unit": group.id,
                    "path": [str(s) for s in paths[0]],
                    "cost": cost,
                    "action": action,
                    "paths": [[str(s) for s in path] for path in paths],
                },
            )
        ]

    def _shoot(self, command: Shoot) -> list[Event]:
        _no_kernel_extras(command.orders, command.weapon, command.also)
        state = self.state
        group = self._activating(command.side, command.unit, SHOOT)
        target = state.group(command.target)
        why = orders.why_not_shoot(state, group, target)
        if why is not None:
            options = orders.shoot_targets(state, group)
            raise IllegalCommand(orders.with_targets(why, group, "Shoot at", options))
        return self._order(group, SHOOT, lambda: combat.shoot(state, self.dice, group, target))

    def _cast(self, command: Cast) -> list[Event]:
        state = self.state
        group = self._activating(command.side, command.unit, CAST)
        target = state.group(command.target)
        why = orders.why_not_cast(state, group, target)
        if why is not None:
            options = orders.cast_targets(state, group)
            raise IllegalCommand(orders.with_targets(why, group, "Cast at", options))
        return self._order(group, CAST, lambda: combat.hex(state, self.dice, group, target))

    def _retreat(self, command: Retreat) -> list[Event]:
        state = self.state
        group = self._activating(command.side, command.unit, RETREAT)
        if not orders.can_retreat(state, group):
            raise IllegalCommand(f"{group.id} is not in melee: only a Group in melee Retreats.")

        def perform() -> list[Event]:
            cause = orders.in_melee(state, group)[0]
            return resilience.retreat(
                state, self.dice, group, cause, shaken=False, how=resilience.HOW_RETREAT
            )

        return self._order(group, RETREAT, perform)

    def _summon(self, command: Summon) -> list[Event]:
        state = self.state
        group = self._activating(command.side, command.unit, SUMMON)
        square = setup.square_on(state.board, command.square)
        if group.has_summoned:
            raise IllegalCommand(f"{group.id} has already Summoned this game.")
        places = orders.summon_squares(state, group)
        if square not in places:
            raise IllegalCommand(
                f"{group.id} cannot Summon at {square}: the new Group stands in Cohesion within "
                f'{orders.SUMMON_REACH}" of {group.id} and at least {geometry.COHESION}" from '
                f"enemy Groups, on free squares. {orders.nearest_words(group, square, places, 'may Summon at')}"
            )
        return self._order(group, SUMMON, lambda: self._summoned(group, places[square]))

    def _summoned(self, summoner: Group, squares: tuple[Square, ...]) -> list[Event]:
        """A new Group of the summoner's Company, fielded for no points; it may not activate in
        the turn it arrives (our content: Summon)."""
        state = self.state
        assert summoner.profile.summons is not None
        profile = state.catalogue.profiles[summoner.profile.summons]
        name = unique_id(state, profile.name)
        group = Group(
            id=name,
            name=profile.name,
            seat=summoner.seat,
            profile=profile,
            r=profile.r,
            models=list(squares),
            activated=True,
            summoned=True,
        )
        state.groups[name.lower()] = group
        summoner.has_summoned = True
        return [
            Event(
                "summoned",
                f"{summoner.id} Summons {name} at {squares[0]}.",
                {
                    "unit": name,
                    "side": summoner.seat,
                    "by": summoner.id,
                    "squares": [str(s) for s in squares],
                },
            )
        ]

    # --- the Attack -----------------------------------------------------------------------------
    def _attack(self, command: Melee) -> list[Event]:
        _no_kernel_extras(command.orders, command.weapon, command.also)
        state = self.state
        group = self._activating(command.side, command.unit, ATTACK)
        target = state.group(command.target)
        why = orders.why_not_attack(state, group, target)
        if why is not None:
            options = orders.attack_targets(state, group)
            raise IllegalCommand(orders.with_targets(why, group, "Attack", options))
        return self._order(group, ATTACK, lambda: self._attacks(group, target))

    def _attacks(self, attacker: Group, target: Group) -> list[Event]:
        """Attacking 1: a Defiant or Elusive defender "may test to activate that trait" - as
        its player's standing orders say, or, when they asked to be prompted, as they answer."""
        state = self.state
        trait = interrupt_trait(target)
        if trait is None:
            return self._fight(attacker, target, counter=False)
        seat = state.seats[target.seat]
        if seat.prompt:
            state.pending = PendingAttack(attacker.id, target.id, trait)
            return [
                Event(
                    "interrupt_asked",
                    f"{attacker.id} attacks {target.id}: {seat.name} may test "
                    f"{possessive(target.id)} {trait.title()}.",
                    {
                        "unit": target.id,
                        "side": target.seat,
                        "attacker": attacker.id,
                        "trait": trait,
                    },
                )
            ]
        use = orders.standing_answer(state, target.seat, trait)
        return self._interrupted(attacker, target, trait, use)

    def _interrupt(self, command: Interrupt) -> list[Event]:
        state = self.state
        pending = state.pending
        if pending is None or state.group(pending.target).seat != command.side:
            raise IllegalCommand("No Attack is waiting for your answer.")
        state.pending = None
        attacker, target = state.group(pending.attacker), state.group(pending.target)
        events = self._interrupted(attacker, target, pending.trait, command.use)
        return self._after(events + [_ended(attacker, "done")])

    def _interrupted(self, attacker: Group, target: Group, trait: str, use: bool) -> list[Event]:
        """The interrupt tested or not, then the Attack goes on: a Defiant success counter-
        charges (it fights with its Attacking ME, the attacker with its Defending ME); an Elusive
        success Retreats half its MO first, without becoming Shaken, and the attacker charges
        as far as it can."""
        state = self.state
        if not use:
            return self._fight(attacker, target, counter=False)
        needed = state.catalogue.traits[trait].minimum
        faces = [self.dice.roll(6) for _ in range(TEST_DICE)]
        passed = sum(faces) >= needed
        outcome = "succeeds" if passed else "fails: it stands still"
        events = [
            Event(
                "interrupt",
                f"{target.id} tests {trait.title()}: {faces[0]}+{faces[1]} against {needed}: "
                f"{outcome}.",
                {"unit": target.id, "trait": trait, "faces": faces, "needed": needed,
                 "passed": passed},
            )
        ]  # fmt: skip
        if passed and trait == ELUSIVE:
            events += resilience.retreat(state, self.dice, target, attacker, shaken=False)
            if not target.on_table or not attacker.on_table:
                return events
        return events + self._fight(attacker, target, counter=passed and trait == DEFIANT)

    def _fight(self, attacker: Group, target: Group, *, counter: bool) -> list[Event]:
        """Attacking 1-2: the charge into base contact, then both Groups roll; if no model can
        reach contact (an Elusive target slipped away), it closes in as far as it can."""
        state = self.state
        squares = orders.charge_squares(state, attacker, target)
        if squares is None:
            return self._close_in(attacker, target)
        events = []
        if tuple(squares) != tuple(attacker.models):
            events += self._walk(attacker, squares, "charge")
        return events + combat.melee(state, self.dice, attacker, target, counter=counter)

    def _close_in(self, attacker: Group, target: Group) -> list[Event]:
        """The charge that falls short (Elusive: "the attacker then charges as far as it can"):
        the Group's Move that ends nearest the target, keeping its shape, the straightest of
        equally near ones (our ruling)."""
        state = self.state
        found = orders.move_squares(state, attacker)
        now = geometry.group_distance(attacker.models, target.models)
        start = attacker.models[0]

        def nearest(models: tuple[Square, ...]) -> tuple[int, int, Square]:
            # Of equally near ends, the straightest (then the first square): one answer.
            dx, dy = models[0].x - start.x, models[0].y - start.y
            return geometry.group_distance(models, target.models), dx * dx + dy * dy, models[0]

        best = min(found.values(), key=nearest, default=None)
        if best is None or geometry.group_distance(best, target.models) >= now:
            return []
        return self._walk(attacker, best, "charge")

    # --- leaving --------------------------------------------------------------------------------
    def _concede(self, command: Concede) -> list[Event]:
        """The player's Company leaves the table: its Groups count as Routed for the scenario
        but cause no test; their teammates play on (our ruling: team play)."""
        state = self.state
        seat = state.seats[command.side]
        seat.out = True
        events = [
            Event(
                "conceded",
                f"{seat.name} concedes: its Groups leave the table.",
                {"side": command.side},
            )
        ]
        for group in state.groups_of(command.side):
            events += resilience.rout(state, self.dice, group, None, resilience.HOW_CONCEDED)
        pending = state.pending
        if pending is not None:
            attacker = state.group(pending.attacker)
            if not (attacker.on_table and state.group(pending.target).on_table):
                state.pending = None
                if attacker.on_table:
                    events.append(_ended(attacker, "its target left the table"))
        if any(all(state.seats[n].out for n in state.seats_of(side)) for side in range(SIDES)):
            return events + scoring.finish(state)
        if state.round == 0:
            return events + self._set_up_next()
        return self._after(events)


def own_form(command: Command) -> Command:
    """The command as the group rules play it: a kernel Move (/move) is this rulebook's Move of
    the whole Group; the kernel's EndActivation (/end, the "end" button) ends the seat's part
    of the turn (each order is a whole activation: there is no other to end); everything else
    as it is."""
    if isinstance(command, KernelMove):
        _no_kernel_extras(command.orders, None, None)
        return Move(command.side, command.unit, command.square)
    if isinstance(command, EndActivation):
        return EndTurn(command.side)
    return command


def _no_kernel_extras(spent: int, weapon: str | None, also: str | None) -> None:
    """The kernel verbs' fields the group rules have no use for: Tactical Orders, weapons and
    further targets (a Group fights with its MI or ME profile, at one target)."""
    if spent:
        raise IllegalCommand("The group rules have no Tactical Orders: each order is tested.")
    if weapon is not None:
        raise IllegalCommand("A Group has no weapons to choose: it fights with its profile.")
    if also:
        raise IllegalCommand("An order of the group rules has one target.")


def interrupt_trait(target: Group) -> str | None:
    """The trait the attacked Group may test to interrupt (Defiant first if it has both: our
    ruling); none while Shaken (our ruling: a Shaken Group "may not activate for any other
    reason" than to Rally)."""
    if target.shaken:
        return None
    return next((trait for trait in INTERRUPTS if target.profile.has(trait)), None)


def unique_id(state: State, name: str) -> str:
    """`name`, or `name2`, `name3`... whichever no Group of the match has yet."""
    shown, number = name, 1
    while shown.lower() in state.groups:
        number += 1
        shown = f"{name}{number}"
    return shown


def _ended(group: Group, reason: str) -> Event:
    return Event(
        "activation_ended",
        f"{possessive(group.id)} activation ends.",
        {"unit": group.id, "side": group.seat, "reason": reason},
    )
