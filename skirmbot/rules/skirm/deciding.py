"""Who must decide now in Skirm's family (Skirm, Skirm Lite), for the clock, reminders and
pings (`Ruleset.deciding`): the side whose activation it is, alone. A roll waiting for a
decision (Re-roll, Change a die) belongs to that activation, so it needs no clock of its own."""

from __future__ import annotations

from collections.abc import Callable

from skirmbot.rules.commands import Accept, Command, EndActivation, Reroll
from skirmbot.rules.skirm.legal import failed_dice
from skirmbot.rules.skirm.state import PLAYING, MatchState
from skirmbot.rules.view import MISSED, Decision
from skirmbot.rules.view import activation_key as key_of


def deciding(state: MatchState) -> tuple[Decision, ...]:
    """The side to act, with what a missed deadline sends: a pending roll accepted, then the
    activation ended where the unit stands (its first ready unit's, when none has begun)."""
    side = state.to_act
    if state.phase != PLAYING or side is None:
        return ()
    return (Decision(side, _why(state, side), _on_timeout(state, side), key=activation_key(state)),)


def activation_key(state: MatchState) -> str:
    """The activation the side to act is in (or about to begin), as the clock keys it."""
    assert state.to_act is not None
    return key_of(state.turn, state.activations_done, state.to_act)


def _why(state: MatchState, side: int) -> str:
    if state.activation is not None:
        return f"{state.activation.unit} is still activating: act, or /end it"
    ready = state.ready_units(side)
    return f"activate a unit, {len(ready)} ready: {', '.join(u.name for u in ready)}"


def _on_timeout(state: MatchState, side: int) -> tuple[Command, ...]:
    sent: list[Command] = []
    if state.activation is not None and state.activation.pending:
        sent.append(Accept(side))
    if state.activation is not None:
        unit = None
    else:
        ready = state.ready_units(side)
        unit = ready[0].id if ready else None
    sent.append(EndActivation(side, unit, reason=MISSED))
    return tuple(sent)


def buttons(
    state: MatchState, legal: Callable[[MatchState, int], list[Command]]
) -> tuple[str, ...]:
    """During an activation, End and Preview (the activating unit's options); with a roll
    waiting, Accept and a Re-roll for each failed die its player may re-roll now (its `legal`
    commands say which: a die not re-rolled yet, a Tactical Order or a free re-roll to pay for
    it) - a button for a die worth re-rolling, not for a hit."""
    activation = state.activation
    if activation is None:
        return ()
    if activation.pending is None:
        return ("end", "preview")
    side = state.units[activation.unit].side
    failed = set(failed_dice(state))
    rerolls = sorted(
        {c.die for c in legal(state, side) if isinstance(c, Reroll) and c.die in failed}
    )
    return ("accept", *(f"reroll:{die}" for die in rerolls))
