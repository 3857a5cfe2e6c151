"""A test double for team play (issue 30): the d20 rules seated as two sides of two.

`Teams` wraps the d20 ruleset: four seats, seat n on side n % 2 (`sides_of(4)` = ((0, 2),
(1, 3))). A side's turn is taken by both its seats at once: each may end its part (EndTurn);
the d20 turn of the seat to act ends when both have. Only that seat moves models (the d20
engine's own turn); its teammate can only end its part, which is all the service's team play
needs to be shown. Each seat's squad may cost half its side's SIDE_POINTS. A side whose every
seat is out (conceded) has lost. Tests register it with `registered` (a pytest fixture helper).
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from skirmbot import content
from skirmbot.rules import ruleset as ruleset_module
from skirmbot.rules.commands import Command
from skirmbot.rules.d20 import engine
from skirmbot.rules.d20.commands import EndTurn
from skirmbot.rules.d20.ruleset import D20
from skirmbot.rules.d20.setup import new_state
from skirmbot.rules.d20.state import State
from skirmbot.rules.dice import Dice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.ruleset import Outcome
from skirmbot.rules.view import OVER, Decision, MatchView

NAME = "teams"
SIDES = ((0, 2), (1, 3))
SIDE_POINTS = 160  # a side's points, shared by its two seats: 80 each


def parted(state: State) -> frozenset[int]:
    """The seats of the side to act that have ended their part of its turn."""
    found: frozenset[int] = getattr(state, "parted", frozenset())
    return found


def side_out(state: State) -> int | None:
    """The side whose every seat is out (conceded), if any."""
    return next((n for n, side in enumerate(SIDES) if all(state.seats[s].out for s in side)), None)


def acting(state: State) -> tuple[int, ...]:
    """Both seats of the side whose turn it is, less those out or done with their part."""
    if state.over or state.round == 0 or state.to_act is None or side_out(state) is not None:
        return ()
    team = SIDES[state.to_act % 2]
    return tuple(s for s in team if not state.seats[s].out and s not in parted(state))


class TeamMatch(engine.D20Match):
    """The d20 match, where a seat of the side to act ends only its own part of the turn."""

    def apply(self, command: Command) -> list[Event]:
        state = self.state
        turn = (state.round, state.turns)
        if isinstance(command, EndTurn) and command.side in acting(state):
            done = parted(state) | {command.side}
            if any(seat not in done for seat in acting(state)):
                state.parted = done  # type: ignore[attr-defined]
                self.commands.append(command)
                name = state.seats[command.side].name
                event = Event(
                    "part_ended", f"{name} ends its part of the turn.", {"side": command.side}
                )
                self.log.append(event)
                return [event]
            assert state.to_act is not None
            command = EndTurn(state.to_act)
        events = super().apply(command)
        if (self.state.round, self.state.turns) != turn:
            self.state.parted = frozenset()  # type: ignore[attr-defined]
        return events


class Teams(D20):
    """The d20 rules as two sides of two seats (a test double of a team ruleset)."""

    name = NAME
    title = "d20 Teams"
    seats: tuple[int, ...] = (4,)
    demo_players = 4

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        if players != 4:
            raise RulesError(f"d20 Teams is played by 4 players, not {players}.")
        return SIDES

    def new_match(self, content: dict[str, Any], dice: Dice) -> TeamMatch:
        return TeamMatch(new_state(content, strict=False), dice)

    def points_limit(self, mission: Any, players: int = 2) -> int:
        return SIDE_POINTS // (players // 2)

    def view(self, state: State) -> MatchView:
        seen = replace(super().view(state), teams=SIDES, acting=acting(state))
        if self.outcome(state) is not None:
            return replace(seen, phase=OVER, to_act=None, acting=())
        return replace(seen, to_act=(seen.acting or (seen.to_act,))[0])

    def deciding(self, state: State) -> tuple[Decision, ...]:
        if self.outcome(state) is not None:
            return ()
        found = super().deciding(state)
        if state.pending is not None or state.free_move is not None:
            return found  # a reaction, as the d20 rules have it
        key = found[0].key if found else ""
        return tuple(
            Decision(seat, "your side's turn", (EndTurn(seat),), key=f"{key}:p{seat}")
            for seat in acting(state)
        )

    def legal_commands(self, state: State, side: int) -> list[Command]:
        if side not in acting(state):
            return []
        return super().legal_commands(state, side) if side == state.to_act else [EndTurn(side)]

    def automatic_command(self, state: State, side: int) -> Command:
        return super().automatic_command(state, side) if side == state.to_act else EndTurn(side)

    def outcome(self, state: State) -> Outcome | None:
        gone = side_out(state)
        scores = tuple(sum(state.seats[s].score for s in side) for side in SIDES)
        if gone is not None:
            placings = (2, 1) if gone == 0 else (1, 2)
            return Outcome(placings, scores, f"Side {2 - gone} wins: side {gone + 1} conceded")
        if not state.over:
            return None
        first, second = scores
        placings = (1, 1) if first == second else ((1, 2) if first > second else (2, 1))
        return Outcome(placings, scores, f"Sides placed {placings} with {first} VP to {second}")


def registered(monkeypatch: pytest.MonkeyPatch) -> Teams:
    """Teams playable for one test: in the registry, its content the d20 rules' own."""
    played = Teams()
    ruleset_module.rulesets()  # the shipped ones first
    monkeypatch.setitem(ruleset_module._REGISTRY, NAME, played)
    folder = content._folder

    def shared_with_d20(kind: str, rules: str) -> Any:
        return folder(kind, "d20" if rules == NAME else rules)

    monkeypatch.setattr(content, "_folder", shared_with_d20)
    assert resources.files("skirmbot.content").joinpath("d20").is_dir()
    return played
