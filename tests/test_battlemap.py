"""The battlemap picture (issue 3): a pure function of state and last events to PNG bytes."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from builders import KNIFE, RIFLE, skirm_match, unit
from PIL import Image

from skirmbot.cli import main
from skirmbot.demo import play_demo
from skirmbot.render.battlemap import HEADER, MARGIN, SQUARE, Layout, MapRenderer, unit_labels
from skirmbot.render.legend import legend_entries, legend_layout
from skirmbot.render.palette import colour, side_colour
from skirmbot.render.replay import activation_steps, animation
from skirmbot.rules.commands import EndActivation, Move, Shoot
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.squares import Square
from skirmbot.rules.view import MatchView

LAYOUT = Layout(12, 12)


def view(state: Any, rules: str = "skirm") -> MatchView:
    """The match as the pictures see it (the ruleset's view of its state)."""
    return ruleset(rules).view(state)


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def at(image: Image.Image, square: str, dx: int = 0, dy: int = 0) -> int:
    """The palette index at a square's centre (offset by dx, dy pixels)."""
    x, y = LAYOUT.centre(Square.parse(square))
    value = image.getpixel((x + dx, y + dy))
    assert isinstance(value, int)
    return value


def test_size_leaves_room_for_coordinates_on_all_four_sides_the_header_and_the_key() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C9")]})
    image = picture(MapRenderer().png(view(match.state)))
    width = 2 * MARGIN + 12 * SQUARE
    _, key = legend_layout(legend_entries(view(match.state)), width)
    assert key > 0
    assert image.size == (width, HEADER + 2 * MARGIN + 12 * SQUARE + key)
    assert SQUARE >= 64 and image.mode == "P"


def test_tokens_stand_on_their_squares_in_their_squad_colour() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "H9")]})
    image = picture(MapRenderer().png(view(match.state)))
    # Beside the label, inside the token: the squad colour; an empty square shows the ground.
    assert at(image, "C3", dx=-15) == side_colour(0)
    assert at(image, "H9", dx=-15) == side_colour(1)
    assert at(image, "E5", dx=-15) == colour("level0")


def test_an_activated_unit_is_drawn_dimmed() -> None:
    match = skirm_match({0: [unit("Ada", "C3"), unit("Cy", "E3")], 1: [unit("Bo", "H9")]})
    match.apply(EndActivation(0, "Ada"))
    image = picture(MapRenderer().png(view(match.state)))
    assert at(image, "C3", dx=-15) == side_colour(0, "dim")
    assert at(image, "E3", dx=-15) == side_colour(0)


def test_terrain_walls_impassable_squares_and_levels() -> None:
    rows = [" ".join(["."] * 12)] * 12
    rows[4] = ". . # . . 2 . . . . . ."
    match = skirm_match(
        {0: [unit("Ada", "A1")], 1: [unit("Bo", "L12")]}, rows=rows, edges=["H7|H8: wall=2"]
    )
    image = picture(MapRenderer().png(view(match.state)))
    assert at(image, "C5") in (colour("impassable"), colour("impassable_mark"))
    assert at(image, "F5") == colour("level2")
    (x0, y0), (x1, _) = LAYOUT.edge_line(Square.parse("H7"), Square.parse("H8"))
    assert image.getpixel(((x0 + x1) // 2, y0)) == colour("wall_high")


def test_the_last_activation_shows_its_path_and_its_line_of_fire() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[RIFLE, KNIFE])], 1: [unit("Bo", "C9", arm=1, hit=1)]},
        faces=[1, 1, 6, 6, 6, 6],
    )
    events = match.apply(Move(0, "Ada", "C4")) + match.apply(Shoot(0, "Ada", "Bo"))
    image = picture(MapRenderer().png(view(match.state), events))
    # Between C4 and C9 the line of fire crosses C6: a Taken Out is drawn in solid black.
    assert at(image, "C6") == colour("taken_out")
    # The path from C3 to C4 crosses the grid line between them in the mover's dark colour.
    x, y = LAYOUT.centre(Square.parse("C3"))
    assert image.getpixel((x, y + SQUARE // 2)) == side_colour(0, "dark")


def test_equal_states_give_equal_bytes_and_a_change_changes_them() -> None:
    def state_after(square: str) -> bytes:
        match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C9")]})
        events = match.apply(Move(0, "Ada", square))
        return MapRenderer().png(view(match.state), events)

    assert state_after("D4") == state_after("D4")
    assert state_after("D4") != state_after("E5")


def test_labels_are_short_and_unique_in_the_match() -> None:
    match = skirm_match({0: [unit("Korra", "C3"), unit("Korrin", "D3")], 1: [unit("Bo", "C9")]})
    labels = unit_labels(view(match.state))
    assert labels["Bo"] == "Bo" and len(set(labels.values())) == 3
    assert labels["Korra"] != labels["Korrin"] and all(len(v) <= 6 for v in labels.values())


def test_a_whole_demo_stays_small_and_animates_within_limits() -> None:
    """Issue 3 figures: each PNG at most 120 KB, the 4-turn animation at most 2 MB."""
    _, record = play_demo(3)
    renderer = MapRenderer()
    steps = [(renderer.png(state, events)) for state, events in activation_steps(record)]
    assert max(len(png) for png in steps) <= 120 * 1024
    gif = animation(record)
    assert len(gif) <= 2 * 1024 * 1024
    frames = Image.open(io.BytesIO(gif))
    assert frames.n_frames == len(steps)
    # The key lists what each picture shows, so pictures differ in height: frames are padded.
    tallest = max(picture(png).size[1] for png in steps)
    assert frames.size == (picture(steps[0]).size[0], tallest)


def test_demo_and_render_commands_write_the_pictures(tmp_path: Path) -> None:
    assert main(["demo", "--seed", "4", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "activation-000.png").exists() and (tmp_path / "replay.gif").exists()
    out = tmp_path / "after3.png"
    assert main(["render", str(tmp_path / "match.json"), "--after", "3", "--out", str(out)]) == 0
    assert out.read_bytes() == (tmp_path / "activation-003.png").read_bytes()
    assert main(["render", str(tmp_path / "match.json"), "--after", "999", "--out", str(out)]) == 2


def test_an_armed_beacon_flies_its_squads_flag() -> None:
    """Missions (docs/rulings.md): a beacon armed by a squad shows in its colour."""
    match = skirm_match({0: [unit("Ada", "A1")], 1: [unit("Bo", "L12")]}, objectives=["E5", "H8"])
    match.state.beacons[1] = 1
    image = picture(MapRenderer().png(view(match.state)))
    x0, y0, _, _ = LAYOUT.box(Square.parse("H8"))
    assert image.getpixel((x0 + 9, y0 + 6)) == side_colour(1)
    x0, y0, _, _ = LAYOUT.box(Square.parse("E5"))
    assert image.getpixel((x0 + 9, y0 + 6)) != side_colour(1)
