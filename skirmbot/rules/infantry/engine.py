"""The match under the infantry rules: commands in, events out, all or nothing.

Set-up: each seat deploys in secret; when both have, the roll-off (turns.roll_off) and round 1.
A side's turn: its troopers activate one at a time, each once (plan §2, "The turn sequence").
An activation starts with the trooper's first order (Activate, or any order): (1) the melee
attacks waiting on it are resolved (Melee ¶1); (2) its own old arc is removed, since its vertex
moves with it (our ruling: how long an arc lasts); (3) the enemy arcs it stands in get their
chance ("activates in", Firing Arcs ¶2: a prompted owner pauses it here, `State.moving`); then
the order is carried out. Movement and special actions come before combat actions (Movement
¶1): after an arc, a melee attack or a throw, no more of them; no arc after a throw
(Explosives ¶1). An activation ends by `end`, when its AP are all spent, or when a hit leaves
it none (wounds.hurt). `end` naming a trooper not yet activated activates it and ends its
activation at once (it does nothing); `end` naming none, with no activation in progress, ends
the side's turn.

Every order is checked before anything changes or any die is rolled (IllegalCommand in plain
words); the state is also restored on any refusal, so a refused command changes nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from skirmbot.rules.commands import Activate, Command, Concede, Deploy, EndActivation, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.dice import Dice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.infantry import arcs, explosives, kit, setup, steps, terrain, turns
from skirmbot.rules.infantry import melee as melees
from skirmbot.rules.infantry.combat import MELEE_AP
from skirmbot.rules.infantry.commands import (
    Arc,
    ChangeWeapon,
    Climb,
    DropItem,
    FireAt,
    Move,
    Prone,
    Stand,
    StandingOrders,
    Take,
    Throw,
)
from skirmbot.rules.infantry.state import ARC_ORDERS, FIRST, Moving, State, Thrown, Trooper
from skirmbot.rules.infantry.state import Arc as ArcState
from skirmbot.rules.infantry.wounds import drop_arc, end_activation

PRONE_AP = terrain.MOVE_COSTS["prone"]
STAND_AP = terrain.MOVE_COSTS["stand"]
# Orders of one trooper: each starts its activation if it has not started.
ORDERS = (Move, Climb, Prone, Stand, ChangeWeapon, Take, DropItem, Arc, Throw, Melee)
# A prepared order: checked, not yet carried out; calling it carries it out.
Ready = Callable[[], list[Event]]


def chances_at(state: State, trooper: Trooper) -> list[ArcState]:
    """The enemy arcs that get a chance at `trooper` where it is now, oldest first."""
    return arcs.chances_at(state, trooper)


def paused(state: State) -> Moving | None:
    """The move waiting for an arc owner's answer (FireAt), if any."""
    return state.moving


def default_answer(state: State) -> FireAt | None:
    """What the arc's own order answers to the chance waiting (a missed prompt's answer, and
    the automatic player's); None when nothing waits."""
    moving = state.moving
    if moving is None or not moving.chances:
        return None
    owner = state.trooper(moving.chances[0])
    arc = state.arc_of(owner.id)
    fire = arc is not None and arcs.wants(state, arc, state.trooper(moving.unit))
    return FireAt(owner.seat, owner.id, fire)


def _dot(text: str) -> Dot:
    """A dot named in an order, refused in the order's words."""
    try:
        return Dot.parse(text)
    except RulesError as error:
        raise IllegalCommand(str(error)) from error


def _facing(text: str) -> Dot | float:
    """Where an arc faces: a dot ("F7"), or degrees clockwise from north-east ("150", as
    `dots.bearing` counts them: plan section 3)."""
    try:
        degrees = float(text)
    except ValueError:
        return _dot(text)
    if not 0 <= degrees < 360:
        raise IllegalCommand("An arc faces a dot (F7) or a bearing of 0 to 359 degrees.")
    return degrees


def _toward(toward: Dot | float) -> str:
    return str(toward) if isinstance(toward, Dot) else f"{toward:g} degrees"


def own_form(command: Command) -> Command:
    """The kernel's Move (what /move sends) is this rulebook's Move to its square."""
    if isinstance(command, KernelMove):
        return Move(command.side, command.unit, command.square)
    return command


# The kernel's /shoot, refused in words that say how skirmishers fire (Firing Arcs ¶1-2).
SHOOT_REFUSED = (
    "Skirmishers fire from firing arcs: /act arc or /arc sets one (30°, 60° or 150° wide, "
    "facing a dot, 2, 4 or 6 AP), and it fires when an enemy activates in it or moves into it."
)


class InfantryMatch:
    """A match of the infantry rules as `PlayedMatch` (skirmbot.rules.ruleset) plays it."""

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

    def started_under(self, version: int) -> None:
        """The infantry rules came after every record version change so far."""

    def apply(self, command: Command) -> list[Event]:
        """The command's events; IllegalCommand (or RulesError) and no change at all."""
        state = self.state
        # The map, tables, scenario and squad files never change: shared, not copied.
        fixed: list[object] = [state.board, state.arms, state.scenario]
        fixed += [t.recruit for t in state.troopers]
        before = None if self.trusted else copy.deepcopy(state, {id(t): t for t in fixed})
        try:
            self._check_seat(command.side)
            events = self._play(own_form(command))
            events += self._after()
        except RulesError:
            if before is not None:
                self.state = before
            raise
        self.commands.append(command)
        self.log.extend(events)
        return events

    # --- dispatch -------------------------------------------------------------------------------
    def _play(self, command: Command) -> list[Event]:
        if isinstance(command, Deploy):
            return self._deploy(command)
        if isinstance(command, StandingOrders):
            return self._standing(command)
        if isinstance(command, Concede):
            return self._concede(command)
        self._check_playing()
        if isinstance(command, FireAt):
            return self._fire_at(command)
        if self.state.moving is not None:
            raise IllegalCommand(self._waiting_words())
        if isinstance(command, Shoot):
            raise IllegalCommand(SHOOT_REFUSED)
        if isinstance(command, EndActivation):
            return self._end(command)
        if isinstance(command, Activate):
            return self._activate(command)
        if isinstance(command, ORDERS):
            return self._order(command)
        raise IllegalCommand(f"The infantry rules have no '{command.type}' command.")

    def _check_seat(self, seat: int) -> None:
        state = self.state
        if not 0 <= seat < len(state.seats):
            raise IllegalCommand(f"This match has seats 0 to {len(state.seats) - 1}.")
        if state.over:
            raise IllegalCommand("The match is over.")
        if state.seats[seat].out:
            raise IllegalCommand(f"{state.seats[seat].name} has left the match.")

    def _check_playing(self) -> None:
        if self.state.round == 0:
            raise IllegalCommand("The match has not begun: both squads deploy first.")

    def _waiting_words(self) -> str:
        moving = self.state.moving
        assert moving is not None
        owner = moving.chances[0] if moving.chances else "?"
        return (
            f"{moving.unit} is in {owner}'s firing arc: {owner}'s player answers first "
            "(fire or hold)."
        )

    def _after(self) -> list[Event]:
        """After every command: an activation with no AP left ends, a side with no one left to
        activate ends its turn, a decided match ends."""
        state = self.state
        events: list[Event] = []
        if state.over or state.round == 0 or state.moving is not None:
            turns.finish(state, events)
            return events
        if state.activating is not None:
            trooper = state.trooper(state.activating)
            if trooper.left == 0:
                events += end_activation(state, trooper, "no AP left")
        if turns.finish(state, events):
            return events
        seat = state.to_act
        if state.activating is None and seat is not None and not turns.waiting(state, seat):
            events += turns.end_turn(state, self.dice)
        return events

    # --- set-up and seats -----------------------------------------------------------------------
    def _deploy(self, command: Deploy) -> list[Event]:
        state = self.state
        if state.round:
            raise IllegalCommand("Deployment is over.")
        setup.deploy(state, command.side, command.placements)
        told = Event(
            "deployed_seat",
            f"{state.seats[command.side].name} has deployed.",
            {"side": command.side},
        )
        if all(state.deployed):
            return [told, *turns.roll_off(state, self.dice)]
        return [told]

    def _standing(self, command: StandingOrders) -> list[Event]:
        seat = self.state.seats[command.side]
        seat.prompt = command.prompt
        words = "asks to be prompted" if command.prompt else "lets its arcs' orders decide"
        return [
            Event(
                "standing",
                f"{seat.name} {words} when an enemy enters one of its firing arcs.",
                {"side": command.side, "prompt": command.prompt},
            )
        ]

    def _concede(self, command: Concede) -> list[Event]:
        seat = self.state.seats[command.side]
        seat.out = True
        return [
            Event(
                "conceded",
                f"{seat.name} concedes ({command.reason}).",
                {"side": command.side, "reason": command.reason},
            )
        ]

    # --- the owner's answer ---------------------------------------------------------------------
    def _fire_at(self, command: FireAt) -> list[Event]:
        state = self.state
        moving = state.moving
        if moving is None or not moving.chances:
            raise IllegalCommand("No firing arc is waiting for an answer.")
        owner = state.trooper(moving.chances[0])
        if owner.id.casefold() != command.owner.casefold() or owner.seat != command.side:
            raise IllegalCommand(self._waiting_words())
        events = steps.decide(state, self.dice, command.fire)
        return events + self._run()

    def _run(self) -> list[Event]:
        """Go on with the move in progress; then the order that started the activation."""
        state = self.state
        if state.moving is None:
            return []
        held = state.moving.then
        events = steps.advance(state, self.dice)
        if state.moving is None and held is not None:
            events += self._resume(held)
        return events

    def _resume(self, held: Command) -> list[Event]:
        """Carry out the order held while the activation's first chances were decided, unless
        the trooper can no longer (its words say why)."""
        state = self.state
        unit = getattr(held, "unit", "")
        if state.activating is None or state.activating.casefold() != unit.casefold():
            return []
        trooper = state.trooper(unit)
        if isinstance(held, EndActivation):
            return end_activation(state, trooper, held.reason)
        try:
            ready = self._prepare(held, trooper)
        except IllegalCommand as error:
            return [
                Event(
                    "order_dropped",
                    f"{trooper.id}'s order is dropped: {error}",
                    {"unit": trooper.id},
                )
            ]
        return ready()

    # --- activations ----------------------------------------------------------------------------
    def _actor(self, seat: int, unit: str) -> Trooper:
        """The trooper an order of `seat` names, checked: its side's turn, its own, able, on the
        map, not done this turn, no other activation in progress."""
        state = self.state
        if state.to_act != seat:
            raise IllegalCommand(f"It is {state.seats[1 - seat].name}'s turn.")
        trooper = state.trooper(unit)
        if trooper.seat != seat:
            raise IllegalCommand(f"{trooper.id} is not in {state.seats[seat].name}.")
        if not trooper.able:
            raise IllegalCommand(f"{trooper.id} is {'dead' if trooper.dead else 'unconscious'}.")
        if state.activating not in (None, trooper.id):
            raise IllegalCommand(
                f"{state.activating} is activating: end its activation first (/end)."
            )
        if trooper.activated:
            raise IllegalCommand(f"{trooper.id} has already activated this turn.")
        return trooper

    def _activate(self, command: Activate) -> list[Event]:
        trooper = self._actor(command.side, command.unit)
        if self.state.activating == trooper.id:
            raise IllegalCommand(f"{trooper.id} is already activating.")
        return self._begin(trooper, (), None)

    def _begin(self, trooper: Trooper, path: tuple[Dot, ...], then: Command | None) -> list[Event]:
        """The activation's start: melee on it, its old arc gone, the chances where it stands,
        then the order (`path`: a move's steps; `then`: any other order)."""
        state = self.state
        state.activating = trooper.id
        trooper.moved, trooper.combat, trooper.threw = 0, False, False
        events = [
            Event(
                "activation_started",
                f"{trooper.id} activates ({trooper.left} AP).",
                {"unit": trooper.id, "side": trooper.seat},
            )
        ]
        events += melees.resolve(state, self.dice, trooper)
        if state.activating != trooper.id:
            return events  # put out, or knocked prone with no AP, by the melee
        events += drop_arc(state, trooper.id, f"{trooper.id} activates again")
        steps.start(state, trooper, path, steps.MOVE if path else steps.ACTIVATE, then)
        return events + self._run()

    def _end(self, command: EndActivation) -> list[Event]:
        state = self.state
        if state.to_act != command.side:
            raise IllegalCommand(f"It is {state.seats[1 - command.side].name}'s turn.")
        if state.activating is None and command.unit:
            # "Rossi does nothing": it activates (the arcs it stands in get their chance) and
            # its activation ends at once.
            return self._begin(self._actor(command.side, command.unit), (), command)
        if state.activating is None:
            return self._end_turn(command)
        trooper = state.trooper(state.activating)
        if command.unit and state.trooper(command.unit) is not trooper:
            raise IllegalCommand(f"{trooper.id} is the trooper activating, not {command.unit}.")
        return end_activation(state, trooper, command.reason)

    def _end_turn(self, command: EndActivation) -> list[Event]:
        """`end` with no activation in progress: the rest of the side's troopers stay put."""
        state = self.state
        seat = command.side
        for trooper in state.troopers_of(seat):
            trooper.activated = True
        event = Event(
            "turn_passed",
            f"{state.seats[seat].name} ends its turn ({command.reason}).",
            {"side": seat, "reason": command.reason},
        )
        return [event]

    # --- orders ---------------------------------------------------------------------------------
    def _order(self, command: Any) -> list[Event]:
        """Check the order; start the trooper's activation with it if need be; carry it out."""
        state = self.state
        trooper = self._actor(command.side, command.unit)
        ready = self._prepare(command, trooper)
        if state.activating == trooper.id:
            return ready()
        if isinstance(command, Move):
            return self._begin(trooper, self._path(command, trooper), None)
        return self._begin(trooper, (), command)

    def _prepare(self, command: Command, trooper: Trooper) -> Ready:
        """The order checked against the trooper as it is (IllegalCommand, nothing changed),
        ready to be carried out."""
        handlers: dict[type[Command], Callable[[Any, Trooper], Ready]] = {
            Move: self._move, Climb: self._climb, Prone: self._prone, Stand: self._stand,
            ChangeWeapon: self._change, Take: self._take, DropItem: self._drop, Arc: self._arc,
            Throw: self._throw, Melee: self._melee,
        }  # fmt: skip
        return handlers[type(command)](command, trooper)

    def _pay(self, trooper: Trooper, ap: int, *, movement: bool = False) -> None:
        """Refuse an order the trooper cannot pay for now (its AP, the movement cap)."""
        if ap > trooper.left:
            raise IllegalCommand(f"{trooper.id} has {trooper.left} AP left; this needs {ap}.")
        if movement and trooper.moved + ap > terrain.MOVE_CAP:
            raise IllegalCommand(
                f"{trooper.id} has used {trooper.moved} of its {terrain.MOVE_CAP} AP for "
                f"movement this activation; this needs {ap} more."
            )

    def _moving_phase(self, trooper: Trooper, what: str) -> None:
        """Movement ¶1: movement and special actions come before any combat action."""
        if trooper.combat:
            raise IllegalCommand(f"{trooper.id} has taken a combat action: no {what} after it.")

    # movement
    def _path(self, command: Move, trooper: Trooper) -> tuple[Dot, ...]:
        """The move's steps: each dot of `path` in order, or the cheapest route to `square`
        within the AP it may still spend on movement."""
        state = self.state
        budget = min(trooper.left, terrain.MOVE_CAP - trooper.moved)
        if command.path is not None and command.path.strip():
            return tuple(_dot(word) for word in command.path.replace(",", " ").split())
        if not command.square:
            raise IllegalCommand("Say where to move: a dot (D4) or a path (C4 D4 D5).")
        goal = _dot(command.square)
        found = steps.route(state, trooper, goal, budget)
        if found is None:
            raise IllegalCommand(
                f"{trooper.id} cannot reach {goal} with the {budget} AP of movement it has left."
            )
        return tuple(found)

    def _move(self, command: Move, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "movement")
        path = self._path(command, trooper)
        assert trooper.dot is not None
        state = self.state
        cost = terrain.path_cost(state.board, trooper.dot, path, trooper.level, trooper.prone)
        if not path or cost is None:
            raise IllegalCommand(
                f"{trooper.id} cannot walk {' '.join(map(str, path)) or 'nowhere'}: each step to "
                "a neighbouring open dot, not through a wall or off a floor."
            )
        taken = steps.blocked(state, trooper)
        for dot in path:
            if taken(dot):
                raise IllegalCommand(f"A trooper stands on {dot}: the path cannot go through it.")
        self._pay(trooper, cost, movement=True)

        def ready() -> list[Event]:
            steps.start(state, trooper, path, steps.MOVE)
            return self._run()

        return ready

    def _climb(self, command: Climb, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "movement")
        state = self.state
        assert trooper.dot is not None
        cost = terrain.climb_cost(
            state.board, trooper.dot, trooper.level, command.level, trooper.prone
        )
        if cost is None:
            raise IllegalCommand(
                f"{trooper.id} changes level on stairs or a ladder, one level at a time: "
                f"not to level {command.level} here."
            )
        if any(
            t.able and t.dot == trooper.dot and t.level == command.level for t in state.troopers
        ):
            raise IllegalCommand(f"A trooper stands on {trooper.dot} at level {command.level}.")
        self._pay(trooper, cost, movement=True)

        def ready() -> list[Event]:
            trooper.spent += cost
            trooper.moved += cost
            trooper.level = command.level
            trooper.attacked_here = ()
            event = Event(
                "climbed",
                f"{trooper.id} climbs to level {command.level} ({cost} AP).",
                {"unit": trooper.id, "level": command.level, "cost": cost},
            )
            steps.start(state, trooper, (), steps.CLIMB)
            return [event, *self._run()]

        return ready

    def _prone(self, command: Prone, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "going prone")
        if trooper.prone:
            raise IllegalCommand(f"{trooper.id} is already prone.")
        self._pay(trooper, PRONE_AP, movement=True)

        def ready() -> list[Event]:
            trooper.spent += PRONE_AP
            trooper.moved += PRONE_AP
            trooper.prone = True
            return [Event("prone", f"{trooper.id} goes prone (1 AP).", {"unit": trooper.id})]

        return ready

    def _stand(self, command: Stand, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "standing up")
        if not trooper.prone:
            raise IllegalCommand(f"{trooper.id} is not prone.")
        self._pay(trooper, STAND_AP, movement=True)
        state = self.state

        def ready() -> list[Event]:
            trooper.spent += STAND_AP
            trooper.moved += STAND_AP
            trooper.prone = False
            event = Event("stood", f"{trooper.id} stands up (2 AP).", {"unit": trooper.id})
            # Resolving Fire ¶2: arcs that have not attacked it on this dot get a chance.
            steps.start(state, trooper, (), steps.STAND)
            return [event, *self._run()]

        return ready

    # special actions
    def _change(self, command: ChangeWeapon, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "weapon change")
        weapon = kit.check_change(self.state, trooper, command.weapon)
        self._pay(trooper, kit.CHANGE_AP)

        def ready() -> list[Event]:
            trooper.spent += kit.CHANGE_AP
            kit.do_change(self.state, trooper, weapon)
            return [
                Event(
                    "weapon_changed",
                    f"{trooper.id} makes its {weapon} active (3 AP).",
                    {"unit": trooper.id, "weapon": weapon},
                )
            ]

        return ready

    def _take(self, command: Take, trooper: Trooper) -> Ready:
        self._moving_phase(trooper, "taking")
        taking = kit.check_take(self.state, trooper, command.source, command.item)
        self._pay(trooper, kit.TAKE_AP)

        def ready() -> list[Event]:
            trooper.spent += kit.TAKE_AP
            count = kit.do_take(self.state, trooper, taking)
            source = taking.giver.id if taking.giver is not None else str(command.source).upper()
            many = f"{count} {taking.name}s" if count > 1 else f"a {taking.name}"
            return [
                Event(
                    "picked_up",
                    f"{trooper.id} takes {many} from {source} (6 AP).",
                    {
                        "unit": trooper.id,
                        "item": taking.name,
                        "source": source,
                        "count": count,
                        "square": str(trooper.dot),
                    },
                )  # fmt: skip
            ]

        return ready

    def _drop(self, command: DropItem, trooper: Trooper) -> Ready:
        name = kit.check_drop(self.state, trooper, command.item)

        def ready() -> list[Event]:
            kit.do_drop(self.state, trooper, name)
            return [
                Event(
                    "dropped",
                    f"{trooper.id} drops its {name} on {trooper.dot}.",
                    {"unit": trooper.id, "item": name, "square": str(trooper.dot)},
                )
            ]

        return ready

    # combat actions
    def _arc(self, command: Arc, trooper: Trooper) -> Ready:
        state = self.state
        if trooper.threw:
            raise IllegalCommand(
                f"{trooper.id} has thrown an explosive: no firing arc after it this activation."
            )
        weapon = state.arms.weapons.get(trooper.active)
        if weapon is None or weapon.long is None:
            raise IllegalCommand(
                f"{trooper.id}'s active weapon ({trooper.active}) does not fire: change to a "
                "firearm first (3 AP)."
            )
        if command.width not in arcs.ARC_AP:
            raise IllegalCommand("A firing arc is 30, 60 or 150 degrees wide.")
        if command.order not in ARC_ORDERS:
            raise IllegalCommand(f"An arc's order is one of {', '.join(ARC_ORDERS)}.")
        if command.order == FIRST and command.n < 1:
            raise IllegalCommand("An arc ordered to fire at the first troopers says how many (n).")
        toward = _facing(command.toward)
        if toward == trooper.dot:
            raise IllegalCommand("An arc faces a dot other than its own vertex.")
        ap = arcs.ARC_AP[command.width]
        self._pay(trooper, ap)
        n = command.n if command.order == FIRST else 0
        arc = arcs.new_arc(state, trooper, command.width, toward, command.order, n)

        def ready() -> list[Event]:
            trooper.spent += ap
            trooper.combat = True
            events = drop_arc(state, trooper.id, "a new arc replaces it")
            state.arcs.append(arc)
            return events + [
                Event(
                    "arc_set",
                    f"{trooper.id} sets a {arc.width}-degree firing arc toward {_toward(toward)} "
                    "with its "
                    f"{arc.weapon}: {arcs.shots_words(arc.shots_left)}, {arcs.order_words(arc)} ({ap} AP).",
                    {
                        "unit": trooper.id,
                        "vertex": str(arc.vertex),
                        "level": arc.level,
                        "facing": arc.facing,
                        "width": arc.width,
                        "shots": arc.shots_left,
                        "weapon": arc.weapon,
                        "order": arc.order,
                        "n": arc.n,
                        "toward": str(toward),
                    },
                )  # fmt: skip
            ]

        return ready

    def _throw(self, command: Throw, trooper: Trooper) -> Ready:
        state = self.state
        target = _dot(command.target)
        plan = explosives.plan_throw(state, trooper, target, command.level)
        self._pay(trooper, plan.ap)
        weapon = trooper.active

        def ready() -> list[Event]:
            trooper.spent += plan.ap
            trooper.combat = trooper.threw = True
            if weapon in state.arms.explosives and weapon == trooper.secondary:
                trooper.secondary = None  # a satchel charge is its one (ammo 1)
            else:
                trooper.grenades -= 1
            kit.switch_back(state, trooper)
            state.tokens.append(Thrown(trooper.seat, trooper.id, weapon, plan.token))
            token = plan.token
            return [
                Event(
                    "thrown",
                    f"{trooper.id} throws a {weapon} at {token.target} (level {token.level}, "
                    f"{plan.ap} AP): it goes off at the end of the turn, needing "
                    f"{token.target_number}+.",
                    {
                        "unit": trooper.id,
                        "weapon": weapon,
                        "target": str(token.target),
                        "level": token.level,
                        "tn": token.target_number,
                        "ap": plan.ap,
                    },
                )  # fmt: skip
            ]

        return ready

    def _melee(self, command: Melee, trooper: Trooper) -> Ready:
        state = self.state
        pending = melees.check(state, trooper, command.target, command.weapon)
        self._pay(trooper, MELEE_AP)

        def ready() -> list[Event]:
            trooper.spent += MELEE_AP
            trooper.combat = True
            state.melees.append(pending)
            return [
                Event(
                    "melee_pending",
                    f"{trooper.id} attacks {pending.target} with its {pending.weapon} (5 AP): "
                    f"resolved when {pending.target} activates.",
                    {
                        "attacker": trooper.id,
                        "target": pending.target,
                        "weapon": pending.weapon,
                    },
                )  # fmt: skip
            ]

        return ready
