"""The deck of secondary objectives (rulebook Game Cycle: "Each Squad draws a Secondary Objective
for the Turn", End of Turn: reveal and score; rulings: Missions, secondary objectives, events).

The cards are skirmbot's own. Each squad draws one card at the start of every turn, with the
match's dice, from the cards it has not scored yet: the card stays hidden from the opponent (the
draw's event does not name it, the state's JSON leaves it out) until it scores at the end of the
turn, when it is revealed. A scored card cannot be scored again by that squad; a card that did
not score goes back into the deck. `card_of` is the owner's private view of its card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skirmbot.rules.dice import Dice
from skirmbot.rules.events import Event
from skirmbot.rules.skirm import scoring
from skirmbot.rules.skirm.state import MatchState, SecondaryDraw


@dataclass(frozen=True, slots=True)
class SecondaryCard:
    id: str
    name: str
    text: str
    points: int
    condition: str  # a key of CONDITIONS
    count: int = 1


def _quarters(state: MatchState, side: int) -> int:
    board = state.board
    return len(
        {
            (unit.square.x * 2 // board.width, unit.square.y * 2 // board.height)
            for unit in state.on_map(side)
            if unit.square is not None
        }
    )


def _in_centre(state: MatchState, side: int) -> int:
    """Units of `side` in the central four-by-four squares."""
    board = state.board
    x0, y0 = (board.width - 4) // 2, (board.height - 4) // 2
    return sum(
        1
        for unit in state.on_map(side)
        if unit.square is not None and x0 <= unit.square.x < x0 + 4 and y0 <= unit.square.y < y0 + 4
    )


# Each condition: does `side` meet the card at the end of this turn?
CONDITIONS: dict[str, Callable[[MatchState, int, int], bool]] = {
    "took_out": lambda s, side, n: len(scoring.taken_out_by(s, side)) >= n,
    "took_out_leader": lambda s, side, n: any(
        u.card.is_leader for u in scoring.taken_out_by(s, side)
    ),
    "in_enemy_zone": lambda s, side, n: len(scoring.units_in_enemy_zone(s, side)) >= n,
    "controls": lambda s, side, n: len(scoring.controlled(s, side)) >= n,
    "lost_none": lambda s, side, n: scoring.lost_this_turn(s, side) == 0 and bool(s.on_map(side)),
    "opened_crate": lambda s, side, n: s.crates_opened_this_turn.count(side) >= n,
    "quarters": lambda s, side, n: _quarters(s, side) >= n,
    "centre_majority": lambda s, side, n: _in_centre(s, side) > _in_centre(s, 1 - side),
}

DECK: tuple[SecondaryCard, ...] = (
    SecondaryCard("opening-shot", "Opening Shot", "Take out at least one enemy unit this turn.", 1, "took_out", 1),
    SecondaryCard("double-tap", "Double Tap", "Take out at least two enemy units this turn.", 2, "took_out", 2),
    SecondaryCard("headhunter", "Headhunter", "Take out the enemy Leader this turn.", 3, "took_out_leader"),
    SecondaryCard("deep-strike", "Deep Strike", "End the turn with a unit of yours in the enemy's deployment zone.", 2, "in_enemy_zone", 1),
    SecondaryCard("foothold", "Foothold", "End the turn controlling at least one objective.", 1, "controls", 1),
    SecondaryCard("stake-a-claim", "Stake a Claim", "End the turn controlling at least two objectives.", 2, "controls", 2),
    SecondaryCard("unbroken", "Unbroken", "Lose no unit this turn (with a unit still on the map).", 1, "lost_none"),
    SecondaryCard("scavenger-run", "Scavenger Run", "Open or salvage a crate this turn.", 1, "opened_crate", 1),
    SecondaryCard("wide-net", "Wide Net", "End the turn with units of yours in three quarters of the map.", 1, "quarters", 3),
    SecondaryCard("centre-ground", "Centre Ground", "End the turn with more units than the enemy in the central four-by-four squares.", 1, "centre_majority"),
)  # fmt: skip
CARDS = {card.id: card for card in DECK}


def card_of(state: MatchState, side: int) -> SecondaryCard | None:
    """The card `side` holds this turn: shown only to its owner until revealed."""
    draw = state.secondaries[side]
    return CARDS[draw.card] if draw else None


def draw(state: MatchState, dice: Dice) -> list[Event]:
    """Each squad draws a card among those it has not scored: one die with as many faces."""
    state.secondaries = [None, None]
    if not state.mission.secondaries:
        return []
    events = []
    for side in (0, 1):
        left = [card for card in DECK if card.id not in state.secondaries_scored[side]]
        if not left:
            continue
        card = left[dice.roll(len(left)) - 1]
        state.secondaries[side] = SecondaryDraw(card.id, state.turn)
        name = state.squads[side].name
        events.append(
            Event(
                "secondary_drawn",
                f"{name} draws a secondary objective (hidden until it scores).",
                {"side": side, "turn": state.turn},
            )
        )
    return events


def score(state: MatchState) -> list[Event]:
    """End of Turn: a card whose condition is met is revealed and scores, once per match."""
    events = []
    for side in (0, 1):
        held = state.secondaries[side]
        if held is None or held.revealed:
            continue
        card = CARDS[held.card]
        if not CONDITIONS[card.condition](state, side, card.count):
            continue
        held.revealed = True
        state.secondaries_scored[side].append(card.id)
        squad = state.squads[side]
        squad.mp += card.points
        events.append(
            Event(
                "scored",
                f"{squad.name} reveals its secondary objective, {card.name} ({card.text}): "
                f"+{card.points} MP (total {squad.mp}).",
                {
                    "side": side,
                    "points": card.points,
                    "reason": "secondary",
                    "card": card.id,
                    "name": card.name,
                },
            )
        )
    return events
