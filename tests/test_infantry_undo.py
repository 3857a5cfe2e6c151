"""Taking back a seat's last action of its turn under the infantry rules
(skirmbot.rules.infantry.undo). Rolled dice stand (docs/rulings.md): the service refuses an undo
past a roll; this module finds the action and never goes past the turn's start."""

from __future__ import annotations

from typing import Any

import pytest

from skirmbot.rules.commands import EndActivation
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry.commands import Arc, Move
from skirmbot.rules.infantry.state import Moving
from skirmbot.rules.infantry.undo import undo_point
from tests.infantry_boards import deployed
from tests.infantry_helpers import dice_left, fresh, pass_turn, play, put

DEPLOYED: list[dict[str, Any]] = [
    {"type": "deploy", "side": 0, "placements": {}},
    {"type": "deploy", "side": 1, "placements": {}},
]


def test_the_last_action_of_the_turn_is_taken_back() -> None:
    """A move, then an arc: the arc is the last action; the move before it once it is gone."""
    recorded = [
        *DEPLOYED,
        {"type": "move", "side": 0, "unit": "Rossi", "square": "D3"},
        {"type": "arc", "side": 0, "unit": "Rossi", "width": 60, "toward": "D9"},
    ]
    state = deployed()
    assert undo_point(state, recorded, 0) == 3
    assert undo_point(state, recorded[:3], 0) == 2


def test_an_arc_owners_answer_and_standing_orders_are_passed_over() -> None:
    """Plan section 3: an arc owner's FireAt is a decision about the mover's move, and
    standing orders may be set at any time: neither is an action of the turn."""
    recorded = [
        *DEPLOYED,
        {"type": "move", "side": 0, "unit": "Rossi", "square": "D5"},
        {"type": "fire", "side": 1, "owner": "Varga", "fire": False},
        {"type": "standing_orders", "side": 1, "prompt": True},
    ]
    assert undo_point(deployed(), recorded, 0) == 2


def test_nothing_before_the_turn_started_is_taken_back() -> None:
    """The other side's last action ends what may be taken back: the turn is the side's."""
    recorded = [*DEPLOYED, {"type": "end", "side": 1, "unit": "Varga"}]
    with pytest.raises(RulesError, match="Nothing to take back yet"):
        undo_point(deployed(), recorded, 0)
    with pytest.raises(RulesError, match="Nothing to take back yet"):
        undo_point(deployed(), DEPLOYED, 0)


def test_undo_is_refused_out_of_turn_while_a_move_waits_or_when_over() -> None:
    recorded = [*DEPLOYED, {"type": "move", "side": 0, "unit": "Rossi", "square": "D3"}]
    state = deployed()
    with pytest.raises(RulesError, match="your side's turn"):
        undo_point(state, recorded, 1)
    state.moving = Moving("Rossi", (Dot.parse("D4"),), ("Varga",), "move")
    with pytest.raises(RulesError, match="waits for an arc's owner"):
        undo_point(state, recorded, 0)
    state.moving, state.over = None, True
    with pytest.raises(RulesError, match="over"):
        undo_point(state, recorded, 0)


def test_a_move_an_arc_fired_on_rolled_dice_so_it_stands() -> None:
    """Rolled dice stand (docs/rulings.md, Fair play): the service refuses to take back past a
    roll. The undo point of a move an enemy arc fired on is the move itself, and the move drew
    dice (2D6 to hit); a move no arc sees draws none and may come back."""
    match = fresh([1, 1])
    put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"), EndActivation(0))
    pass_turn(match)
    put(match, "Sorensen", "J6")
    before = dice_left(match)
    match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6"))
    assert dice_left(match) == before - 2
    recorded = [{"type": c.type, "side": c.side} for c in match.commands]
    assert undo_point(match.state, recorded, 1) == len(recorded) - 1
    match.apply(Move(1, "Sorensen", "F7"))
    assert dice_left(match) == before - 2  # its one shot spent, the arc is gone: no roll
