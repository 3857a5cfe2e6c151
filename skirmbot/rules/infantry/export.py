"""A match of the infantry rules as data: the whole state as JSON (`skirmbot replay --json`, and
what the property tests compare) and the result a finished match's record keeps (`skirmbot
verify` compares it). Everything that changes during a match is here, so a paused move, the
arcs and the tokens survive a restart as they were."""

from __future__ import annotations

from typing import Any

from skirmbot.rules.infantry import card
from skirmbot.rules.infantry.scoring import scores
from skirmbot.rules.infantry.state import Arc, Moving, State, Thrown, Trooper


def state_json(state: State) -> dict[str, Any]:
    return {
        "map": state.map_name,
        "scenario": state.scenario.name,
        "round": state.round,
        "rounds": state.scenario.rounds,
        "turns": state.turns,
        "first": state.first,
        "to_act": state.to_act,
        "activating": state.activating,
        "acted": state.acted,
        "seats": [
            {"name": s.name, "squad": s.squad, "prompt": s.prompt, "out": s.out}
            for s in state.seats
        ],
        "deployed": list(state.deployed),
        "troopers": [_trooper(t) for t in state.troopers],
        "arcs": [_arc(arc) for arc in state.arcs],
        "moving": _moving(state.moving),
        "melees": [
            {"attacker": m.attacker, "target": m.target, "weapon": m.weapon} for m in state.melees
        ],
        "tokens": [_thrown(thrown) for thrown in state.tokens],
        "items": [{"dot": str(i.dot), "level": i.level, "name": i.name} for i in state.items],
        "scores": list(scores(state)),
        "over": state.over,
        "winner": state.winner,
        "result": state.result,
    }


def _trooper(trooper: Trooper) -> dict[str, Any]:
    return {
        "id": trooper.id,
        "seat": trooper.seat,
        "name": trooper.recruit.name,
        "dot": None if trooper.dot is None else str(trooper.dot),
        "level": trooper.level,
        "prone": trooper.prone,
        "cells": card.track_text(trooper.track),
        "hp": card.current_hp(trooper.track),
        "armour": trooper.armour,
        "max_ap": trooper.max_ap,
        "spent": trooper.spent,
        "moved": trooper.moved,
        "active": trooper.active,
        "primary": trooper.primary,
        "secondary": trooper.secondary,
        "grenades": trooper.grenades,
        "switched_from": trooper.switched_from,
        "activated": trooper.activated,
        "combat": trooper.combat,
        "threw": trooper.threw,
        "attacked_here": list(trooper.attacked_here),
        "dead": trooper.dead,
        "unconscious": trooper.unconscious,
    }


def _arc(arc: Arc) -> dict[str, Any]:
    return {
        "owner": arc.owner,
        "vertex": str(arc.vertex),
        "level": arc.level,
        "facing": arc.facing,
        "width": arc.width,
        "weapon": arc.weapon,
        "shots_left": arc.shots_left,
        "order": arc.order,
        "n": arc.n,
        "fired_at": list(arc.fired_at),
    }


def _moving(moving: Moving | None) -> dict[str, Any] | None:
    if moving is None:
        return None
    return {
        "unit": moving.unit,
        "steps": [str(dot) for dot in moving.steps],
        "chances": list(moving.chances),
        "action": moving.action,
        "then": None if moving.then is None else moving.then.to_json(),
    }


def _thrown(thrown: Thrown) -> dict[str, Any]:
    token = thrown.token
    return {
        "seat": thrown.seat,
        "thrower": thrown.thrower,
        "weapon": thrown.weapon,
        "target": str(token.target),
        "level": token.level,
        "start": str(token.start),
        "tn": token.target_number,
        "values": list(token.values),
    }


def recorded_result(state: State) -> dict[str, Any] | None:
    """The winning seat (None: a draw), each seat's PV scored, and why the match ended; None
    while it goes on."""
    if not state.over:
        return None
    return {"winner": state.winner, "scores": list(scores(state)), "reason": state.result}
