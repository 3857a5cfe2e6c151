"""Positions as the ruleset's own (issue 31, docs/plans/infantry.md section 4, part 1).

Our ruling (proposed in docs/plans/infantry.md): a ruleset reads a typed place into its own
position (`Ruleset.position`) and names it back with `str()`, so the service, cogs and console
never know which grid a match is on. The four square rulesets answer as their boards always did
(`Board.parse_square`): the same squares, the same refusals, in the same words.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, started

from skirmbot.demo import AutomaticPlayers, new_demo_match
from skirmbot.render.battlemap import Layout, MapRenderer, layout_of
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import PlayedMatch, Ruleset, ruleset, rulesets
from skirmbot.rules.skirm.ruleset import Skirm
from skirmbot.rules.squares import Square, own_square
from skirmbot.rules.view import DOTS, PLAYING, SQUARES
from skirmbot.service import MatchService, ServiceError
from skirmbot.store import Store

NAMES = sorted(rulesets())
# The rulesets played on the kernel's squares; the infantry rules play on dots (their own).
SQUARE_NAMES = [name for name in NAMES if name != "infantry"]


def _demo(name: str) -> PlayedMatch:
    match, _ = new_demo_match(7, rules=name)
    return match


@pytest.mark.parametrize("name", NAMES)
def test_each_ruleset_reads_a_typed_place_and_names_it_back(name: str) -> None:
    """Our ruling (proposed in docs/plans/infantry.md): `position` reads "c4" as typed, and
    `str()` of it is the name players read, "C4"; the same place is the same position."""
    rules, state = ruleset(name), _demo(name).state
    found = rules.position(state, "c4")
    assert str(found) == "C4"
    assert found == rules.position(state, " C4 ")
    assert hash(found) == hash(rules.position(state, "C4"))


@pytest.mark.parametrize("name", SQUARE_NAMES)
def test_the_square_rulesets_give_the_boards_own_squares(name: str) -> None:
    """Behaviour kept: the square rulesets' positions are the squares `Board.parse_square`
    gives, so their previews, routes and pictures are unchanged."""
    rules, state = ruleset(name), _demo(name).state
    assert rules.position(state, "B3") == Square(1, 2) == state.board.parse_square("B3")


@pytest.mark.parametrize("name", SQUARE_NAMES)
@pytest.mark.parametrize(
    ("typed", "words"),
    [("Z40", "off the map: squares run from A1 to"), ("here", "'here' is not a square")],
)
def test_a_place_not_on_the_board_is_refused_in_words(name: str, typed: str, words: str) -> None:
    """Our ruling (proposed in docs/plans/infantry.md): a refused place is a RulesError in a
    player's words, the ones `Board.parse_square` always gave."""
    rules, state = ruleset(name), _demo(name).state
    with pytest.raises(RulesError, match=words):
        rules.position(state, typed)


@pytest.mark.parametrize("name", NAMES)
def test_a_ruleset_previews_on_the_position_it_gave(name: str) -> None:
    """The preview takes the ruleset's own position back (`Ruleset.preview(state, unit,
    where)`): as if on it, the preview is on that square."""
    rules = ruleset(name)
    match = _demo(name)
    players = AutomaticPlayers(rules)
    while not _previewable(rules, match.state):  # the automatic players set up and begin
        command = players.next_command(match.state)
        assert command is not None
        match.apply(command)
    view = rules.view(match.state)
    assert view.phase == PLAYING
    piece = next(p for p in view.pieces if p.on_map)
    where = rules.position(match.state, str(piece.square))
    assert rules.preview(match.state, piece.id, where).square == piece.square


def _previewable(rules: Ruleset, state: Any) -> bool:
    """Whether the match is past its secret set-up (the group rules: past round 0)."""
    view = rules.view(state)
    try:
        rules.preview(state, next(p for p in view.pieces if p.on_map).id)
    except (RulesError, StopIteration):
        return False
    return True


def test_a_square_ruleset_refuses_a_position_of_another_grid() -> None:
    """A position goes back only to the ruleset that gave it: a dot handed to a square
    ruleset is a programming error (TypeError), never read as the square of the same name."""
    assert own_square(None) is None
    assert own_square(Square(2, 3)) == Square(2, 3)
    with pytest.raises(TypeError, match="not a square"):
        own_square(Dot(2, 3))


async def test_the_services_preview_reads_the_place_through_the_ruleset(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service's `/match preview square:` no longer reads a Square itself: it asks the
    match's ruleset (`Ruleset.position`) with the first word typed, and previews on what the
    ruleset gave back."""
    asked: list[str] = []
    own = Skirm.position

    def spy(self: Skirm, state: Any, text: str) -> Any:
        asked.append(text)
        return own(self, state, text)

    monkeypatch.setattr(Skirm, "position", spy)
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    mine = match.state.ready_units(side)[0]
    square = ruleset("skirm").preview(match.state, mine.id).reach[0].square
    reply = await service.preview(CHANNEL, member, mine.id, f"{str(square).lower()} (dash)")
    assert asked == [str(square).lower()]
    assert f"as if on {square}" in reply.text
    with pytest.raises(ServiceError, match="off the map"):
        await service.preview(CHANNEL, member, mine.id, "Z40")
    assert asked[-1] == "Z40"


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("Z40", "Z40 is not on the map: its dots run from A1 to"),
        ("here", "'here' is not a dot: write a column letter and a row number"),
    ],
)
def test_a_dot_not_on_the_board_is_refused_in_words(typed: str, words: str) -> None:
    """The infantry rules read their own positions, dots, and refuse in their own words."""
    rules = ruleset("infantry")
    with pytest.raises(RulesError, match=words):
        rules.position(_demo("infantry").state, typed)


def test_the_infantry_view_says_its_board_is_dots() -> None:
    """The view of a board of dots says so, and the picture lays it out as hexagons."""
    assert ruleset("infantry").view(_demo("infantry").state).grid == DOTS


@pytest.mark.parametrize("name", SQUARE_NAMES)
def test_each_square_rulesets_view_says_its_board_is_squares(name: str) -> None:
    """Our ruling (proposed in docs/plans/infantry.md): the view says which grid its board is
    (`MatchView.grid`), so the picture picks its layout without knowing the ruleset."""
    rules = ruleset(name)
    assert rules.view(_demo(name).state).grid == SQUARES


def test_the_picture_lays_out_each_grid_and_refuses_a_board_not_of_its_grid() -> None:
    """The picture picks its layout by the view's grid (squares as before, dots as hexagons:
    tests/test_render_hexmap.py); a view whose board is not of the grid it names is refused in
    words rather than drawn on the wrong grid."""
    view = ruleset("skirm").view(_demo("skirm").state)
    assert Layout.of(view).width == view.board.width
    assert isinstance(layout_of(view), Layout)
    with pytest.raises(ValueError, match="does not match its view's board"):
        MapRenderer().render(replace(view, grid=DOTS))


# The kernel's grids and their geometry: what only rulesets (and the pictures) may read.
GRID_MODULES = (
    "skirmbot.rules.squares",
    "skirmbot.rules.dots",
    "skirmbot.rules.board",
    "skirmbot.rules.adjacency",
    "skirmbot.rules.movement",
    "skirmbot.rules.sight",
    "skirmbot.rules.targeting",
)
ROOT = Path(__file__).resolve().parent.parent
GRID_BLIND = ("skirmbot/service", "skirmbot/timers", "cogs", "skirmbot/console.py")


def _grid_blind_sources() -> list[Path]:
    paths = [ROOT / place for place in GRID_BLIND]
    return sorted(p for path in paths for p in ([path] if path.is_file() else path.rglob("*.py")))


def test_the_service_cogs_timers_and_console_know_no_grid() -> None:
    """Issue 31: "nothing in the service, cogs or timers knows which grid a match is on". None
    of them imports a grid or reads a square itself (`parse_square`): typed places go through
    `Ruleset.position`."""
    found = []
    for path in _grid_blind_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Attribute) and node.attr == "parse_square":
                names = ["parse_square"]
            else:
                continue
            if any(name in GRID_MODULES or name == "parse_square" for name in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


# Where the pictures may read a grid's geometry: each grid in its own layout module.
GRID_LAYOUTS = {"skirmbot.rules.squares": "squaremap.py", "skirmbot.rules.dots": "hexmap.py"}


def test_the_pictures_read_each_grid_only_in_its_own_layout() -> None:
    """Plan section 4's check: the picture knows squares only in `render/squaremap.py` and dots
    only in `render/hexmap.py`; the battlemap, the key and the preview place everything through
    the layout (`centre`, `outline`, `box`, `parse`)."""
    found = []
    for path in sorted((ROOT / "skirmbot" / "render").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        for node in imports:
            if node.module in GRID_LAYOUTS and GRID_LAYOUTS[node.module] != path.name:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
