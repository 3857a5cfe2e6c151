"""Which maps a ruleset plays on (issue 33): a ruleset states its kind (`Ruleset.board`), a map
file may say its own ("board"), read by its shape when it does not, and a map of another kind
is refused in words before it reaches the rules."""

from __future__ import annotations

import pytest

from skirmbot import content
from skirmbot.rules.errors import ContentError
from skirmbot.rules.mapkinds import DOTS, SQUARES, kind_of
from skirmbot.rules.ruleset import ruleset, rulesets

SQUARE_RULESETS = ("skirm", "lite", "d20", "companies")


def test_every_ruleset_states_the_kind_of_map_it_plays_on() -> None:
    kinds = {name: played.board for name, played in rulesets().items()}
    assert kinds == {**{name: SQUARES for name in SQUARE_RULESETS}, "infantry": DOTS}


def test_a_file_without_a_kind_is_read_by_its_shape() -> None:
    """The square format had no "board": a file without one (and every old record's map) is a
    map of squares; the infantry boards, which have "dots", are boards of dots."""
    assert kind_of(content.raw("maps", "foundry")) == SQUARES
    assert kind_of(content.raw("maps", "ruins", "infantry")) == DOTS
    assert kind_of({"name": "X", "board": "dots", "rows": []}) == DOTS


def test_a_kind_no_ruleset_plays_on_is_refused_in_words() -> None:
    with pytest.raises(ContentError, match="'board' is \"squares\" .* or \"dots\" .*not 'hexes'"):
        kind_of({"name": "X", "board": "hexes"})


@pytest.mark.parametrize("name", SQUARE_RULESETS)
def test_a_square_ruleset_refuses_a_board_of_dots(name: str) -> None:
    played = ruleset(name)
    played.load_map(content.raw("maps", "foundry"))  # its own kind loads
    with pytest.raises(
        ContentError, match=f"{played.title} plays on maps of squares; Ruins is a board of dots"
    ):
        played.load_map(content.raw("maps", "ruins", "infantry"))


def test_the_infantry_rules_refuse_a_map_of_squares() -> None:
    played = ruleset("infantry")
    played.load_map(content.raw("maps", "ruins", "infantry"))
    with pytest.raises(
        ContentError, match="Skirmishers plays on boards of dots; Foundry is a map of squares."
    ):
        played.load_map(content.raw("maps", "foundry"))
    # a file that says it is squares is refused even when shaped otherwise
    with pytest.raises(ContentError, match="is a map of squares"):
        played.load_map({**content.raw("maps", "ruins", "infantry"), "board": "squares"})


@pytest.mark.parametrize("name", SQUARE_RULESETS)
def test_the_shipped_names_are_kept(name: str) -> None:
    assert content.names("maps", name) == content.names("maps")
