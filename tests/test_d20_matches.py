"""Whole d20 matches between automatic players, for 2, 3 and 4 seats on every scenario: each
reaches its end, and its record replays to the same match (skirmbot.rules.record)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from d20_builders import content, shipped

from skirmbot.render.caption import captions, squad_lines
from skirmbot.render.legend import legend_entries
from skirmbot.render.replay import activation_steps
from skirmbot.rules.d20.engine import D20Match
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import record_of, replay
from skirmbot.rules.ruleset import Ruleset, ruleset
from skirmbot.rules.view import OVER

WARBANDS = ("red-lancers", "blue-hunters", "gold-breakers", "green-wardens")
SCENARIOS = ("last-stand", "hold-the-ground", "attrition")
MAPS = ("foundry", "ruined-chapel")
MOST_COMMANDS = 5000


def automatic_match(
    seats: int, scenario: str, map_name: str, seed: int
) -> tuple[D20Match, dict[str, object]]:
    data = content(
        [shipped("squads", name) for name in WARBANDS[:seats]],
        shipped("maps", map_name),
        shipped("missions", scenario),
    )
    match = RULESET.new_match(data, SeededDice(seed))
    for seat in range(seats):
        match.apply(RULESET.automatic_placement(match.state, seat))
    for _ in range(MOST_COMMANDS):
        deciding = RULESET.deciding(match.state)
        if not deciding:
            break
        match.apply(RULESET.automatic_command(match.state, deciding[0].side))
    return match, data


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_match_between_automatic_players_ends_and_replays(seats: int, scenario: str) -> None:
    map_name = MAPS[(seats + len(scenario)) % 2]
    match, data = automatic_match(seats, scenario, map_name, seed=seats * 31 + len(scenario))
    view = RULESET.view(match.state)
    outcome = RULESET.outcome(match.state)
    assert view.phase == OVER and outcome is not None
    assert len(outcome.placings) == seats and min(outcome.placings) == 1
    record = record_of(match, data, [f"Player {n + 1}" for n in range(seats)], ruleset="d20")
    again = replay(record)
    assert replace(RULESET.view(again.state), board=view.board) == view  # boards are equal maps
    assert [event.to_json() for event in again.log] == [event.to_json() for event in match.log]


def test_the_view_shows_a_header_line_per_seat_and_big_models_on_four_cells() -> None:
    match, _ = automatic_match(4, "last-stand", "foundry", seed=3)
    view = RULESET.view(match.state)
    assert len(view.sides) == 4 and all(side.standing for side in view.sides)
    assert view.turn_word == "Round" and view.title == "Last Stand"
    big = [piece for piece in view.pieces if "BIG" in piece.marks and piece.on_map]
    assert all(len(piece.squares) == 4 and piece.facing for piece in big)


def test_a_card_shows_armour_weapons_and_traits() -> None:
    match, _ = automatic_match(2, "last-stand", "foundry", seed=1)
    card = RULESET.card(match.state, "Vask")
    assert dict(card.stats)["ARM"] == "3/2/1" and dict(card.stats)["MOV"] == '12"'
    assert [w.name for w in card.weapons] == ["Autocannon", "Claws"]
    assert RULESET.card(match.state, "Sable").rules == ("Sharpshooter",)


def test_the_d20_rules_are_a_ruleset_for_2_to_4_players_each_for_themselves() -> None:
    rules: Ruleset = ruleset("d20")  # mypy --strict holds D20 to the whole Protocol
    assert rules is RULESET and rules.seats == (2, 3, 4) and rules.features == frozenset()
    assert rules.sides_of(3) == ((0,), (1,), (2,))
    with pytest.raises(RulesError, match="2, 3 or 4 players"):
        rules.sides_of(5)
    assert rules.medals(automatic_match(2, "attrition", "foundry", seed=2)[0], 0) is None


def test_the_pictures_speak_of_rounds_and_casualties_in_the_d20_rules_own_words() -> None:
    """The d20 rules play in rounds and remove casualties (rulebook Playing the Game, Recovery
    Phase); a model has no hit points ("There are no hit points. Period."): the caption, the
    header and the key say so, not Skirm's Turn, Taken Out and HIT."""
    match, data = automatic_match(3, "attrition", "foundry", seed=7)
    record = record_of(match, data, ["Ann", "Bo", "Cy"], ruleset="d20")
    texts: list[str] = []
    kinds: set[str] = set()
    for view, events in activation_steps(record):
        texts += captions(events, view)
        texts += [line for side in range(len(view.sides)) for line in squad_lines(view, side)]
        kinds |= {entry.kind for entry in legend_entries(view, events)}
    assert any(text.startswith("Every squad deployed; Round 1 begins") for text in texts)
    assert any("Casualties: " in text for text in texts)
    assert not any(
        "Turn " in text or "Taken Out" in text or "Both squads" in text for text in texts
    )
    assert "hit_left" not in kinds
