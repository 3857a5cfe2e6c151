"""What the turn's environment event forbids or limits (docs/rulings.md, Missions: `no_dash`,
`max_range`): read by the legal commands, movement and combat, apart from the rolling of the
event (skirmbot.rules.skirm.environment), which deals a hazard's damage through combat."""

from __future__ import annotations

from skirmbot.rules.skirm.costs import DASH
from skirmbot.rules.skirm.state import MatchState


def forbidden(state: MatchState, action: str) -> str | None:
    """Why the turn's event forbids the action, or None."""
    event = state.event
    if event is not None and event.effect == "no_dash" and action == DASH:
        return f"No unit may Dash this turn ({event.name})."
    return None


def range_cap(state: MatchState) -> int | None:
    """The longest ranged attack this turn's event allows, or None."""
    event = state.event
    return event.value if event is not None and event.effect == "max_range" else None


def range_problem(state: MatchState, distance: int) -> str | None:
    """Why a ranged attack this far (a turret's too) is out of reach this turn, or None."""
    cap = range_cap(state)
    if cap is not None and distance > cap:
        assert state.event is not None
        return (
            f"the target is {distance} squares away and ranged attacks reach at most {cap} "
            f"squares this turn ({state.event.name})."
        )
    return None
