"""Rounds, initiative, player turns and the Recovery Phase (rulebook Playing the Game).

"At the start of each round ... All players roll a d20 and determine playing order starting
with highest roll"; each turn starts with the Command Phase's 1d20 for action points, rolled
here as the turn starts; "a player rolls a 1 for Action Points, which ends the round and begins
recovery". The Recovery Phase, the rounds' number and the scoring are our rulings.
"""

from __future__ import annotations

from skirmbot.rules.d20.scenarios import BIG_CASUALTY
from skirmbot.rules.d20.standings import placings, winner
from skirmbot.rules.d20.state import ACTIVATED, BEFORE, DOWNED, OUT, READY, Model, State
from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square

INITIATIVE_DIE = 20
AP_DIE = 20
ROUND_ENDS_ON = 1  # "a player rolls a 1 for Action Points"
RECOVERY_DIE = 6
RETURNS_ON = 4  # a downed Small Model returns on 4+ (our ruling: Recovery Phase)
EXPLODES_ON = 2  # a downed Big Model explodes on 1-2, else it is back in play


def new_round(state: State, dice: Dice) -> list[Event]:
    state.round += 1
    for model in state.models.values():
        if model.status == ACTIVATED:
            model.status = READY
    events = [Event("turn_started", f"Round {state.round} begins.", {"turn": state.round})]
    events.append(initiative(state, dice))
    state.to_act = None
    return events + next_turn(state, dice)


def initiative(state: State, dice: Dice) -> Event:
    """Every seat still playing rolls a d20: highest first; tied seats roll again between them."""
    rolls: dict[int, list[int]] = {seat: [] for seat in state.in_play()}
    state.order = _ordered(state.in_play(), dice, rolls)
    names = ", ".join(state.seats[seat].name for seat in state.order)
    return Event(
        "initiative",
        f"Initiative for round {state.round}: {names}.",
        {
            "rolls": [rolls[seat] for seat in state.order],
            "order": list(state.order),
            "side": state.order[0],
        },
    )


def _ordered(seats: list[int], dice: Dice, rolls: dict[int, list[int]]) -> list[int]:
    faces = {seat: dice.roll(INITIATIVE_DIE) for seat in seats}
    for seat, face in faces.items():
        rolls[seat].append(face)
    order: list[int] = []
    for face in sorted(set(faces.values()), reverse=True):
        tied = [seat for seat in seats if faces[seat] == face]
        order += tied if len(tied) == 1 else _ordered(tied, dice, rolls)
    return order


def next_turn(state: State, dice: Dice) -> list[Event]:
    """The next seat in initiative order (round and round) rolls for action points."""
    if state.over:
        return []
    seat = _next_seat(state)
    state.to_act = seat
    face = dice.roll(AP_DIE)
    player = state.seats[seat]
    player.ap = 0 if face == ROUND_ENDS_ON else face
    state.step, state.active = BEFORE, None
    state.turns, state.acted = state.turns + 1, 0
    for model in models_of(state, seat):
        model.moves, model.fought, model.moved_then_fought = 0, False, False
        if model.status == ACTIVATED:
            model.status = READY
    event = Event(
        "orders_rolled",
        f"{player.name} rolls {face} for action points.",
        {"side": seat, "faces": [face], "orders": player.ap},
    )
    if face == ROUND_ENDS_ON:
        event = Event(
            event.kind, f"{player.name} rolls a 1 for action points: the round ends.", event.data
        )
        return [event, *end_round(state, dice)]
    return [event]


def _next_seat(state: State) -> int:
    order = state.order
    start = order.index(state.to_act) + 1 if state.to_act in order else 0
    return next(
        order[(start + n) % len(order)]
        for n in range(len(order))
        if not state.seats[order[(start + n) % len(order)]].out
    )


def end_turn(state: State, dice: Dice) -> list[Event]:
    """The turn ends: the activating model is done, action points left are lost."""
    seat = state.to_act
    assert seat is not None
    ended = finish_activation(state, "the turn ends")
    state.seats[seat].ap = 0
    return [
        *ended,
        Event(
            "activation_ended",
            f"{state.seats[seat].name}'s turn ends.",
            {"side": seat, "unit": None, "reason": "turn"},
        ),
        *next_turn(state, dice),
    ]


def finish_activation(state: State, reason: str) -> list[Event]:
    """The activating model is done for this turn: its activation's end, if one was going on."""
    if state.active is None:
        return []
    model = state.models[state.active.lower()]
    if model.status == READY:
        model.status = ACTIVATED
    state.active = None
    data = {"unit": model.id, "side": model.side, "reason": reason}
    return [Event("activation_ended", f"{model.id}'s activation ends.", data)]


def models_of(state: State, seat: int) -> list[Model]:
    return [model for model in state.models.values() if model.side == seat]


# --- the Recovery Phase -----------------------------------------------------------------------
def end_round(state: State, dice: Dice) -> list[Event]:
    state.to_act, state.active = None, None
    events = recovery(state, dice)
    for seat in state.seats:
        seat.ap, seat.bonus = 0, 0  # "Bonus dice do carry from turn-to-turn but not round-to-round"
    events += score_round(state)
    events += eliminate(state)
    if len(state.in_play()) <= 1 or state.round >= state.scenario.rounds:
        return events + finish(state, _reason(state))
    return events + new_round(state, dice)


def recovery(state: State, dice: Dice) -> list[Event]:
    """Big Models roll first (an explosion downs the Small Models next to it), then every downed
    Small Model rolls to return or be removed as a casualty."""
    events = [Event("recovery", f"Recovery Phase of round {state.round}.", {"turn": state.round})]
    for model in [m for m in state.models.values() if m.status == DOWNED and m.big]:
        events += _recover_big(state, dice, model)
    for model in [m for m in state.models.values() if m.status == DOWNED and not m.big]:
        face = dice.roll(RECOVERY_DIE)
        total = face + model.profile.bonus("recovery")
        if total >= RETURNS_ON:
            model.status = READY
            events.append(
                Event(
                    "revived",
                    f"{model.id} rolls {total} and returns to play.",
                    {"unit": model.id, "roll": face},
                )
            )
        else:
            events.append(remove(state, model, f"rolls {total} and is removed as a casualty"))
    return events


def _recover_big(state: State, dice: Dice, model: Model) -> list[Event]:
    face = dice.roll(RECOVERY_DIE)
    if face > EXPLODES_ON:
        model.status = READY
        return [
            Event(
                "revived",
                f"{model.id} rolls {face}: back in the fight.",
                {"unit": model.id, "roll": face},
            )
        ]
    around = {cell.offset(dx, dy) for cell in model.cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    explosion = Event(
        "explosion",
        f"{model.id} explodes.",
        {"item": model.id, "square": str(model.square), "kind": "big_model"},
    )
    events = [remove(state, model, f"rolls {face} and explodes"), explosion]
    for other in state.models.values():
        if not other.big and other.standing and other.square in around:
            other.status = DOWNED
            other.downed_by = model.downed_by if model.downed_by != other.side else None
            events.append(
                Event(
                    "downed",
                    f"{other.id} is caught by the explosion.",
                    {"unit": other.id, "by": model.id},
                )
            )
    return events


def remove(state: State, model: Model, how: str) -> Event:
    """The model is a casualty; the seat that downed it scores it (scenario `casualties`)."""
    model.status = OUT
    by = model.downed_by
    if by is not None and not state.seats[by].out:
        state.seats[by].score += state.scenario.scores("casualties") * (
            BIG_CASUALTY if model.big else 1
        )
    return Event(
        "taken_out",
        f"{model.id} {how}.",
        {
            "unit": model.id,
            "side": model.side,
            "by": None,
            "by_side": by,
            "weapon": None,
            "kind": "recovery",
            "turn": state.round,
        },
    )


def holder(state: State, objective: Square) -> int | None:
    """The seat whose standing models alone are within 1 square of the objective (scenario
    scoring `control`); None: nobody's, or contested."""
    near = {
        m.side
        for m in state.models.values()
        if m.standing and any(c.distance(objective) <= 1 for c in m.cells)
    }
    return near.pop() if len(near) == 1 else None


def score_round(state: State) -> list[Event]:
    events = []
    points = state.scenario.scores("control")
    for number, objective in enumerate(state.objectives, start=1):
        seat = holder(state, objective)
        if points and seat is not None:
            state.seats[seat].score += points
            events.append(
                Event(
                    "scored",
                    f"{state.seats[seat].name} holds objective {number}.",
                    {"side": seat, "points": points, "reason": "control"},
                )
            )
    survivors = state.scenario.scores("survivors")
    if survivors and state.round >= state.scenario.rounds:
        for seat in state.in_play():
            count = sum(1 for m in models_of(state, seat) if m.status != OUT)
            state.seats[seat].score += survivors * count
            events.append(
                Event(
                    "scored",
                    f"{state.seats[seat].name}: {count} models survive.",
                    {"side": seat, "points": survivors * count, "reason": "survivors"},
                )
            )
    return events


def eliminate(state: State) -> list[Event]:
    """A seat with no model left is out; the others play on."""
    events = []
    for seat in state.in_play():
        if all(model.status == OUT for model in models_of(state, seat)):
            go_out(state, seat)
            events.append(
                Event("eliminated", f"{state.seats[seat].name} has no models left.", {"side": seat})
            )
    return events


def go_out(state: State, seat: int) -> None:
    state.went_out += 1
    state.seats[seat].out = True
    state.seats[seat].out_at = state.went_out
    for model in models_of(state, seat):
        model.status = OUT


def _reason(state: State) -> str:
    left = state.in_play()
    if len(left) == 1:
        return f"{state.seats[left[0]].name} is the last warband standing"
    if not left:
        return "no warband is left standing"
    return f"after all {state.scenario.rounds} rounds"


def finish(state: State, reason: str) -> list[Event]:
    state.over, state.reason, state.to_act, state.active = True, reason, None, None
    state.pending, state.free_move = None, None
    scores = [seat.score for seat in state.seats]
    data = {
        "winner": winner(state),
        "reason": reason,
        "mp": scores,
        "placings": list(placings(state)),
    }
    return [Event("match_ended", f"The match is over: {reason}.", data)]
