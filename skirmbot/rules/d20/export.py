"""A d20 match as data: the whole state as JSON (`skirmbot replay --json`) and the result a
finished match's record keeps (`skirmbot verify` compares it)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from skirmbot.rules.d20.standings import placings, winner
from skirmbot.rules.d20.state import Model, State


def state_json(state: State) -> dict[str, Any]:
    return {
        "map": state.map_name,
        "scenario": state.scenario.name,
        "round": state.round,
        "rounds": state.scenario.rounds,
        "order": list(state.order),
        "to_act": state.to_act,
        "step": state.step,
        "active": state.active,
        "pending": None if state.pending is None else asdict(state.pending),
        "free_move": state.free_move,
        "objectives": [str(square) for square in state.objectives],
        "seats": [asdict(seat) for seat in state.seats],
        "models": [_model(model) for model in state.models.values()],
        "over": state.over,
        "reason": state.reason,
    }


def _model(model: Model) -> dict[str, Any]:
    return {
        "id": model.id,
        "side": model.side,
        "profile": model.profile.name,
        "square": None if model.square is None else str(model.square),
        "facing": model.facing,
        "status": model.status,
        "moves": model.moves,
        "fought": model.fought,
    }


def recorded_result(state: State) -> dict[str, Any] | None:
    """The seat placed first alone (None: first place shared), as a two-player record names
    it, with each seat's place and score, and why the match ended; None while it goes on."""
    if not state.over:
        return None
    scores = [seat.score for seat in state.seats]
    return {
        "winner": winner(state),
        "placings": list(placings(state)),
        "scores": scores,
        "reason": state.reason,
    }
