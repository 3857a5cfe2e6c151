"""A match of the group rules as data: the whole state as JSON (`skirmbot replay --json`) and the
result a finished match's record keeps (`skirmbot verify` compares it)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from skirmbot.rules.companies.standings import placings, winner
from skirmbot.rules.companies.state import Group, Seat, State


def state_json(state: State) -> dict[str, Any]:
    return {
        "map": state.map_name,
        "scenario": state.scenario.name,
        "round": state.round,
        "rounds": state.scenario.rounds,
        "attackers": state.attackers,
        "active": state.active,
        "turns": state.turns,
        "acted": state.acted,
        "orders": state.orders,
        "reckless": list(state.reckless),
        "pending": None if state.pending is None else asdict(state.pending),
        "objectives": [str(square) for square in state.objectives],
        "seats": [_seat(seat) for seat in state.seats],
        "groups": [_group(group) for group in state.groups.values()],
        "vp": list(state.vp),
        "over": state.over,
        "reason": state.reason,
    }


def _seat(seat: Seat) -> dict[str, Any]:
    trait = seat.captain_trait
    return {**asdict(seat), "captain_trait": None if trait is None else trait.key}


def _group(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "name": group.name,
        "seat": group.seat,
        "profile": group.profile.key,
        "r": group.r,
        "models": [str(square) for square in group.models],
        "shaken": group.shaken,
        "activated": group.activated,
        "captain": group.captain,
        "summoned": group.summoned,
        "routed": group.routed,
        "routed_by": group.routed_by,
    }


def recorded_result(state: State) -> dict[str, Any] | None:
    """The SIDE placed first alone (None: a draw), each side's place and VP, and why the match
    ended; None while it goes on."""
    if not state.over:
        return None
    return {
        "winner": winner(state),
        "placings": list(placings(state)),
        "scores": list(state.vp),
        "reason": state.reason,
    }
