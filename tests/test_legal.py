"""Listing what a player may do (issue 2: every square a unit can reach with a Move or a Dash,
every legal target of a weapon with distance and cover)."""

from __future__ import annotations

import json

from builders import RIFLE, skirm_match, unit

from skirmbot.rules import commands
from skirmbot.rules.skirm.cards import RANGED
from skirmbot.rules.skirm.costs import DASH, MOVE
from skirmbot.rules.skirm.legal import attack_targets, legal_commands, reachable_squares
from skirmbot.rules.squares import Square


def test_move_and_dash_listings_on_open_ground() -> None:
    """Rulings Movement: a Move reaches every square within 3, a Dash the 8 neighbours."""
    match = skirm_match({0: [unit("Ada", "F6")], 1: [unit("Bo", "A12")]})
    ada = match.state.units["Ada"]
    moves = reachable_squares(match.state, ada, MOVE)
    assert len(moves) == 7 * 7 - 1 and Square.parse("F6") not in moves
    assert moves[Square.parse("I9")].cost == 3
    dashes = reachable_squares(match.state, ada, DASH)
    assert sorted(map(str, dashes)) == sorted(["E5", "F5", "G5", "E6", "G6", "E7", "F7", "G7"])


def test_targets_list_distance_and_cover() -> None:
    """Rulings Line of sight and cover: a 1-high wall on the target's facing edge gives cover."""
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C7"), unit("Cy", "H3")]},
        edges=["C6|C7: wall=1"],
    )
    ada = match.state.units["Ada"]
    options = {t.target: t for t in attack_targets(match.state, ada, RANGED, ada.card.weapons[0])}
    assert set(options) == {"Bo", "Cy"}
    assert (options["Bo"].distance, options["Bo"].cover) == (4, True)
    assert (options["Cy"].distance, options["Cy"].cover) == (5, False)


def test_out_of_range_and_hidden_targets_are_not_listed() -> None:
    """Rulings Combat / ranged restrictions: range and line of sight decide what is listed."""
    short = {**RIFLE, "specials": ["RG3"]}
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[short])], 1: [unit("Bo", "C7"), unit("Cy", "F3")]},
        edges=["D3|E3: wall=2"],
    )
    ada = match.state.units["Ada"]
    assert attack_targets(match.state, ada, RANGED, ada.card.weapons[0]) == []


def test_every_listed_command_is_accepted() -> None:
    """python-chess style: whatever legal_commands lists applies without an error."""
    base = skirm_match(
        {0: [unit("Ada", "C3"), unit("Eve", "D3")], 1: [unit("Bo", "C7")]}, orders=(2, 0)
    )
    listed = legal_commands(base.state, 0)
    assert any(isinstance(c, commands.Shoot) for c in listed)
    assert not legal_commands(base.state, 1), "the side not to act may do nothing"
    for command in listed:
        match = skirm_match(
            {0: [unit("Ada", "C3"), unit("Eve", "D3")], 1: [unit("Bo", "C7")]},
            orders=(2, 0),
            faces=[3] * 20,
        )
        match.apply(command)


def test_listing_changes_nothing() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C7")]}, orders=(1, 1))
    before = json.dumps(match.state.to_json())
    legal_commands(match.state, 0)
    assert json.dumps(match.state.to_json()) == before
