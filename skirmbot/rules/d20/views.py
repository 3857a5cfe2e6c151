"""What the d20 rules show of a match: the view, a model's card, status lines and the outcome."""

from __future__ import annotations

from skirmbot.rules.commands import Command
from skirmbot.rules.d20.commands import Defend, EndTurn, Shift
from skirmbot.rules.d20.rounds import holder
from skirmbot.rules.d20.standings import placings
from skirmbot.rules.d20.state import ACTIVATED, DOWNED, OUT, READY, Model, State
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import Outcome
from skirmbot.rules.view import (
    OVER,
    PLAYING,
    SETUP,
    CardView,
    Decision,
    MarkerView,
    MatchView,
    PieceView,
    SideView,
    WeaponView,
)
from skirmbot.words import plural

# "the defending model is turned on it's side and is considered down" (rulebook: Ranged Combat)
STATUS_WORDS = {READY: "Ready", ACTIVATED: "Activated", DOWNED: "Down", OUT: "Casualty"}


def standing(state: State, side: int) -> str:
    """A seat's header line: "AP 7 · 3 bonus dice" (and its score when the scenario keeps one)."""
    seat = state.seats[side]
    if seat.out:
        return "out"
    return f"AP {seat.ap} · {plural(seat.bonus, 'bonus die', 'bonus dice')} · {seat.score} VP"


def phase(state: State) -> str:
    return OVER if state.over else SETUP if state.round == 0 else PLAYING


def view(state: State, ruleset: str) -> MatchView:
    sides = tuple(
        SideView(n, seat.name, standing(state, n), seat.score, seat.out)
        for n, seat in enumerate(state.seats)
    )
    secret = state.round == 0  # deployment is secret until every warband has placed
    pieces = tuple(_piece(model, secret) for model in state.models.values())
    markers = tuple(
        MarkerView(
            "objective", square, f"Objective {n}", side=None if secret else holder(state, square),
            number=n,
        )
        for n, square in enumerate(state.objectives, start=1)
    )  # fmt: skip
    # "Next" on the picture names the seat whose turn it is; this is the one after it.
    notes = tuple(f"Then: {state.seats[seat].name}" for seat in _next(state))
    return MatchView(
        ruleset=ruleset, phase=phase(state), turn=state.round, turns=state.scenario.rounds,
        title=state.scenario.name, board=state.board, map_name=state.map_name, sides=sides,
        pieces=pieces, markers=markers, to_act=state.to_act, activating=state.active,
        turn_word="Round", out_word="Casualties", notes=notes, outcome=headline(state),
        # "removed from the game as a casualty"; "the defending model ... is considered down";
        # "There are no hit points. Period." (rulebook: Playing the Game, Ranged Combat)
        casualty_word="removed as a casualty", down_word="down", hits=False,
    )  # fmt: skip


def _next(state: State) -> list[int]:
    if state.to_act is None or state.to_act not in state.order:
        return []
    order = state.order
    start = order.index(state.to_act)
    later = [order[(start + n) % len(order)] for n in range(1, len(order))]
    return [seat for seat in later if not state.seats[seat].out][:1]


def _piece(model: Model, secret: bool) -> PieceView:
    cells = () if secret or model.status == OUT else model.cells
    return PieceView(
        id=model.id, side=model.side, kind=model.profile.name, squares=cells, status=model.status,
        facing=model.facing if model.big else None, marks=("BIG",) if model.big else (),
    )  # fmt: skip


def card(state: State, unit: str) -> CardView:
    model = state.models.get(unit.lower())
    if model is None:
        raise RulesError(f"There is no model called '{unit}' in this match.")
    profile = model.profile
    stats = [("MOV", f'{profile.move}"'), ("SIZE", "Big" if profile.big else "Small")]
    if profile.armour is not None:
        stats.append(("ARM", "/".join(str(value) for value in profile.armour)))
    weapons = tuple(
        WeaponView(w.name, w.melee, (("RG", f'{w.range}"'), ("PEN", str(w.penetration))))
        for w in profile.weapons
    )
    notes = (f"Facing {model.facing}",) if model.big and model.facing else ()
    return CardView(
        name=model.id, kind=profile.name, side=model.side, squad=state.seats[model.side].name,
        stats=tuple(stats), weapons=weapons, rules=tuple(trait.name for trait in profile.traits),
        status=STATUS_WORDS[model.status], points=profile.points, notes=notes,
        status_kind=model.status,  # a casualty's or a downed model's card is tinted as out
    )  # fmt: skip


def status_line(state: State, side: int) -> str:
    return f"{state.seats[side].name}: {standing(state, side)}"


def scores(state: State) -> tuple[int, ...]:
    return tuple(seat.score for seat in state.seats)


def outcome(state: State) -> Outcome | None:
    """Placings and scores, and in words who won, why the match ended and every seat's score:
    "Blue Hunters wins (after all 3 rounds): Blue Hunters 11 VP, Gold Breakers 9 VP, Red
    Lancers out"."""
    if not state.over:
        return None
    standings = ", ".join(
        f"{seat.name} {'out' if seat.out else f'{seat.score} VP'}" for seat in state.seats
    )
    reason = f"{headline(state)} ({state.reason}): {standings}"
    return Outcome(placings(state), scores(state), reason)


def headline(state: State) -> str:
    """Who won, in a few words ("" while the match goes on)."""
    if not state.over:
        return ""
    places = placings(state)
    first = [seat.name for seat, place in zip(state.seats, places, strict=True) if place == 1]
    if len(first) == 1:
        return f"{first[0]} wins"
    return f"{', '.join(first[:-1])} and {first[-1]} share first place"


def deciding(state: State) -> tuple[Decision, ...]:
    """Who must decide now; a defender's bonus dice are decided by its standing order when its
    deadline passes, so another player's turn never stalls."""
    if state.over or state.round == 0 or state.to_act is None:
        return ()
    if state.pending is not None:
        target = state.models[state.pending.target.lower()]
        seat = state.seats[target.side]
        dice = min(seat.defend, seat.bonus)
        why = f"{state.pending.attacker} attacks {target.id}: choose bonus dice to defend"
        key = f"{_turn_key(state)}:d{state.acted}"
        return (Decision(target.side, why, (Defend(target.side, dice),), key=key, turn=False),)
    if state.free_move is not None:
        winner = state.models[state.free_move.lower()]
        why = f"{winner.id} won the melee: take its free move, or stay"
        stay: tuple[Command, ...] = (Shift(winner.side, winner.id, None),)
        key = f"{_turn_key(state)}:m{state.acted}"
        return (Decision(winner.side, why, stay, key=key, turn=winner.side == state.to_act),)
    seat = state.seats[state.to_act]
    why = f"{seat.name}'s turn: {seat.ap} AP to spend"
    return (Decision(state.to_act, why, (EndTurn(state.to_act),), key=_turn_key(state)),)


def _turn_key(state: State) -> str:
    """What a turn's deadline belongs to: each turn of each seat gets its own time (the clock
    keeps a key's time and starts afresh on a new one), a reaction within it its own."""
    return f"r{state.round}:t{state.turns}:s{state.to_act}"


def buttons(state: State) -> tuple[str, ...]:
    """End and Preview while a model activates and nothing waits on another seat; no roll
    waits for a re-roll in the d20 rules, and a defender's bonus dice are typed (/act)."""
    waiting = state.pending is not None or state.free_move is not None
    if state.over or state.active is None or waiting:
        return ()
    return ("end", "preview")
