"""What Skirm keeps secret from a squad's opponent while a match goes on: each squad's
secondary objective of the turn (rulebook Game Cycle), until it scores or goes back into the
deck. An export of a match in progress (`skirmbot.rules.record.so_far`) hides it."""

from __future__ import annotations

from skirmbot.rules.errors import RulesError
from skirmbot.rules.skirm.secondaries import card_of
from skirmbot.rules.skirm.state import MatchState


def held(state: MatchState) -> tuple[str | None, ...]:
    """The secondary objective card each squad holds now (None: none)."""
    return tuple(draw.card if draw else None for draw in state.secondaries)


def unrevealed(state: MatchState, side: int) -> bool:
    """Whether `side` holds this turn's secondary objective, still unrevealed."""
    draw = state.secondaries[side]
    return draw is not None and not draw.revealed and draw.turn == state.turn


def note(state: MatchState, side: int) -> str:
    """The squad's secondary objective this turn, in words for its player alone."""
    if not state.mission.secondaries:
        raise RulesError("This mission plays without secondary objectives.")
    card = card_of(state, side)
    if card is None:
        return "Your squad holds no secondary objective right now."
    return f"Your secondary objective this turn: **{card.name}** ({card.points} MP): {card.text}"
