"""Team play at the console (issue 30): four players hot-seat with the test double of a team
ruleset (tests/team_ruleset.py), the keyboard going to each seat of the side to act in turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from team_ruleset import NAME, Teams, registered
from test_console import scripted

from skirmbot.console import run_console


@pytest.fixture
def teams(monkeypatch: pytest.MonkeyPatch) -> Teams:
    return registered(monkeypatch)


async def test_both_seats_of_the_side_take_the_keyboard_and_the_help_names_each_ones_units(
    tmp_path: Path, teams: Teams
) -> None:
    """Player 1 and Player 3 (side 1) act in the same turn: each is asked in turn, each
    one's help names their own units; one ending their part hands the keyboard to the other.
    Then both concede: side 2 wins, and the result names all four with their side's place."""
    lines = ["auto"] * 4 + ["help", "act 1", "help", "concede", "concede"]
    ask, said = scripted(lines)
    code = await run_console(
        False, tmp_path, ask=ask, say=said.append, seed=7, rules=NAME, players=4
    )
    assert code == 0
    prompts = [line for line in said if line.endswith("> ")]
    assert prompts[4:8] == [
        "[Blue Hunters] Player 1> ",
        "[Blue Hunters] Player 1> ",
        "[Red Lancers] Player 3> ",
        "[Red Lancers] Player 3> ",
    ]
    told = "\n".join(said)
    assert "Now, Player 1: activate a unit (Grawl, " in told
    assert "Blue Hunters ends its part of the turn." in told
    assert "Now, Player 3: activate a unit (Vask, " in told
    assert "Side 2 wins: side 1 conceded" in told
    assert "Player 1 (Blue Hunters, 2nd) · Player 3 (Red Lancers, 2nd) · Player 2" in told
