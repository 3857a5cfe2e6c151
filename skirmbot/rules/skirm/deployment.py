"""Skirm's set-up: both squads deploy in their zones, then the Infiltrators (INF) of both squads
are placed (rulebook Unit Special Rules, INF; rulings: Deployment), each stage in secret."""

from __future__ import annotations

from skirmbot.rules.ruleset import SetUpStage
from skirmbot.rules.skirm.state import DEPLOYMENT, MatchState


def set_up_stage(state: MatchState) -> SetUpStage | None:
    """Deployment while a squad has not deployed; then the infiltrators, if any wait."""
    if state.phase != DEPLOYMENT:
        return None
    if state.infiltrators:
        names = ", ".join(state.infiltrators)
        sides = tuple(sorted({state.units[uid].side for uid in state.infiltrators}))
        return SetUpStage(
            "infiltrate",
            sides,
            "The infiltrators appear",
            f"{names} will infiltrate: their players place them with /deploy (hidden until all are in).",
            "place the infiltrators of",
            "infiltrators",
        )
    return SetUpStage("deploy", (0, 1), "Both squads deploy")


def placement_help(state: MatchState, side: int) -> str:
    """What the squad places now: its units in its zone, or its infiltrators anywhere far
    enough from the enemy and the objectives."""
    squad = state.squads[side].name
    if state.infiltrators:
        units = [uid for uid in state.infiltrators if state.units[uid].side == side]
        return (
            f"Place the infiltrators of {squad} ({', '.join(units)}): each on an empty square "
            "far from every enemy unit and objective."
        )
    units = [u.id for u in state.units_of(side) if not u.card.has("INF")]
    zone = state.mission.zones[side]
    squares = zone.squares(state.board)
    where = f"your zone, {zone.describe()} of the map ({squares[0]} to {squares[-1]})"
    what = f"Deploy {squad}: put each of {', '.join(units)} on an empty square of {where}."
    later = [u.id for u in state.units_of(side) if u.card.has("INF")]
    if later:
        what += f"\n{', '.join(later)} (INF) will infiltrate after both deployments."
    return what
