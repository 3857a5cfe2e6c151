"""Pictures of the group rules (issue 30), drawn from hand-built MatchViews and events: no
ruleset needed. A Group's models each drawn and tied together, its R and marks on its first
model, team play's sides in shades of one colour per side, every acting seat named, the group
rules' dice in the caption, and a table of 24 squares a side kept to a readable width."""

from __future__ import annotations

import colorsys
import io
from dataclasses import replace

from PIL import Image

from skirmbot.render.battlemap import SIDE_LINE, TITLE, Layout, MapRenderer, alt_text, seats_by_side
from skirmbot.render.caption import captions
from skirmbot.render.legend import match_entries
from skirmbot.render.palette import COLOURS, colour, palette_bytes, side_colour
from skirmbot.render.pools import pool_text, resilience_text
from skirmbot.render.replay import _padded
from skirmbot.render.symbols import SQUARE, spanning_ties
from skirmbot.rules.board import parse_board
from skirmbot.rules.events import Event
from skirmbot.rules.squares import Square
from skirmbot.rules.view import ACTIVATED, PLAYING, MatchView, PieceView, SideView

TEAMS = ((0, 2), (1, 3))
SPEARMEN = tuple(Square.parse(s) for s in ("C3", "D3", "E3", "C4", "D4", "E4"))
ARCHERS = tuple(Square.parse(s) for s in ("H2", "I2", "J2", "K2"))
RAIDERS = tuple(Square.parse(s) for s in ("D20", "E20", "F20", "E21"))


def two_against_two(size: int = 24) -> MatchView:
    return MatchView(
        ruleset="companies",
        phase=PLAYING,
        turn=2,
        turns=6,
        title="Clash",
        board=parse_board([" ".join(["."] * size)] * size, []),
        map_name="Open Field",
        sides=(
            SideView(0, "Iron Company", "Attackers · 2 Groups"),
            SideView(1, "Ash Band", "Defenders · 1 Group"),
            SideView(2, "Red Lances", "Attackers · 1 Group"),
            SideView(3, "Grey Wolves", "Defenders · 1 Group"),
        ),
        pieces=(
            PieceView(
                "Spearmen", 0, "Spearmen", SPEARMEN, hit=4, max_hit=6, leader=True, group=True
            ),
            PieceView(
                "Archers", 0, "Archers", ARCHERS, hit=3, max_hit=4, group=True, status=ACTIVATED
            ),
            PieceView(
                "Raiders", 1, "Raiders", RAIDERS, hit=2, max_hit=5, marks=("SHK", "BLD"), group=True
            ),
            PieceView("Knights", 2, "Knights", (Square.parse("P3"),), hit=8, max_hit=9, group=True),
            PieceView("Wolves", 3, "Wolves", (Square.parse("Q20"),), hit=3, max_hit=3, group=True),
        ),
        to_act=0,
        acting=(0, 2),
        turn_word="Round",
        teams=TEAMS,
    )


SHOT = [
    Event("activation_started", "", {"unit": "Archers", "side": 0}),
    Event(
        "activation_test",
        "",
        {
            "unit": "Archers",
            "side": 0,
            "order": "shoot",
            "faces": [3, 4],
            "needed": 5,
            "passed": True,
        },
    ),  # fmt: skip
    Event(
        "pool",
        "",
        {
            "unit": "Archers",
            "target": "Raiders",
            "purpose": "shoot",
            "dice": 12,
            "faces": [1, 2, 3, 4, 5, 6, 4, 4, 2, 1, 6, 3],
            "needed": 4,
            "hits": 4,
            "rerolled": [2, 5, 6, 4, 6, 1],
            "r_lost": 2,
        },
    ),  # fmt: skip
    Event("r_lost", "", {"unit": "Raiders", "lost": 2, "r": 2, "by": "Archers"}),
    Event(
        "resilience",
        "",
        {
            "unit": "Raiders",
            "faces": [2, 3],
            "modifiers": [["R lost", -2], ["Captain", 1]],
            "total": 4,
            "needed": 5,
            "outcome": "retreat",
        },
    ),  # fmt: skip
    Event(
        "moved",
        "",
        {
            "unit": "Raiders",
            "path": ["D18", "D19", "D20"],
            "cost": 2,
            "action": "retreat",
            "paths": [
                ["D18", "D19", "D20"],
                ["E18", "E19", "E20"],
                ["F18", "F19", "F20"],
                ["E19", "E20", "E21"],
            ],
        },
    ),  # fmt: skip
    Event("shaken", "", {"unit": "Raiders"}),
    Event("activation_ended", "", {"unit": "Archers", "side": 0, "reason": "done"}),
]


def drawn(view: MatchView, events: list[Event] | None = None) -> tuple[Image.Image, Layout]:
    image = Image.open(io.BytesIO(MapRenderer().png(view, events or [])))
    image.load()
    return image, Layout.of(view)


def index(image: Image.Image, xy: tuple[float, float]) -> int:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, int)
    return value


def rgb(image: Image.Image, number: int) -> tuple[int, int, int]:
    palette = image.getpalette()
    assert palette is not None
    red, green, blue = palette[3 * number : 3 * number + 3]
    return red, green, blue


def hue(colour_rgb: tuple[int, int, int]) -> float:
    """The hue in degrees."""
    return 360 * colorsys.rgb_to_hsv(*(channel / 255 for channel in colour_rgb))[0]


# --- a Group's models ----------------------------------------------------------------------
def test_every_model_of_a_group_is_drawn_on_its_own_square() -> None:
    image, layout = drawn(two_against_two())
    first_x, first_y = layout.centre(SPEARMEN[0])
    assert index(image, (first_x - 16, first_y - 4)) == side_colour(0), "the first's token"
    for square in SPEARMEN[1:]:
        assert index(image, layout.centre(square)) == side_colour(0), square
    empty = layout.centre(Square.parse("F3"))
    assert index(image, empty) != side_colour(0), "nothing past the Group's last model"


def test_a_groups_models_are_tied_together_in_its_seats_dark_shade() -> None:
    image, layout = drawn(two_against_two())
    d3, e3 = layout.centre(Square.parse("D3")), layout.centre(Square.parse("E3"))
    between = ((d3[0] + e3[0]) / 2, d3[1])  # on the grid line between the two models
    assert index(image, between) == side_colour(0, "dark")
    apart = replace(two_against_two(), pieces=(replace(two_against_two().pieces[0], group=False),))
    plain, _ = drawn(apart)
    assert index(plain, between) != side_colour(0, "dark"), "a Big Model is one token, untied"


def test_each_model_is_tied_to_the_nearest_model_already_tied() -> None:
    ties = spanning_ties([(0, 0), (100, 0), (10, 0), (110, 0)])
    assert len(ties) == 3, "every model tied, no tie twice"
    assert ((0, 0), (10, 0)) in ties and ((100, 0), (110, 0)) in ties
    assert ((10, 0), (100, 0)) in ties, "the two pairs joined by their nearest models"


def test_the_first_model_wears_the_captains_star_r_left_and_the_marks() -> None:
    image, layout = drawn(two_against_two())
    x0, y0, x1, y1 = layout.box(RAIDERS[0])
    top = {index(image, (x, y)) for x in range(x0, x1) for y in range(y0, y0 + 14)}
    assert colour("hit") in top and colour("taken_out") in top, "SHK and BLD chips"
    pips = {index(image, (x, y1 - 8)) for x in range(x0, x1)}
    assert side_colour(1, "dark") in pips and colour("pip_empty") in pips, "2 of 5 R left"
    sx0, sy0, sx1, _ = layout.box(SPEARMEN[0])
    star = {index(image, (x, y)) for x in range(sx0, sx0 + 20) for y in range(sy0, sy0 + 16)}
    assert colour("gold") in star, "the Captain's Group"
    others = {index(image, (x, y)) for x in range(x0 + SQUARE, x1 + SQUARE) for y in range(y0, y1)}
    assert colour("hit") not in others, "marks on the first model only"


def test_r_past_six_reads_as_a_number() -> None:
    image, layout = drawn(two_against_two())
    x0, _, x1, y1 = layout.box(Square.parse("P3"))
    badge = {index(image, (x, y1 - 8)) for x in range(x0, x1)}
    assert side_colour(2, "dark") in badge and colour("pip_empty") not in badge


def test_an_activated_group_is_dimmed_model_by_model() -> None:
    image, layout = drawn(two_against_two())
    for square in ARCHERS[1:]:
        assert index(image, layout.centre(square)) == side_colour(0, "dim"), square


def test_a_groups_move_draws_every_models_path() -> None:
    image, layout = drawn(two_against_two(), SHOT)
    for column in "DEF":  # each model's path passes row 19 in its own column
        assert index(image, layout.centre(Square.parse(f"{column}19"))) == side_colour(1, "dark")


def test_a_shooting_pool_draws_its_line_between_the_nearest_models() -> None:
    image, layout = drawn(two_against_two(), SHOT)
    (hx, hy), (fx, fy) = layout.centre(Square.parse("H2")), layout.centre(Square.parse("F20"))
    middle = ((hx + fx) / 2, (hy + fy) / 2)
    near = {index(image, (middle[0] + dx, middle[1])) for dx in range(-3, 4)}
    assert colour("hit") in near, "R was lost: the line of a hit"


# --- team play -----------------------------------------------------------------------------
def test_each_seat_has_its_own_shade_within_its_sides_hue() -> None:
    for teams in (TEAMS, ((0, 2, 4), (1, 3, 5))):
        palette = palette_bytes(2 * len(teams[0]), teams)
        shades: dict[int, tuple[int, int, int]] = {}
        for seat in (*teams[0], *teams[1]):
            at = 3 * side_colour(seat)
            shades[seat] = (palette[at], palette[at + 1], palette[at + 2])
        assert len(set(shades.values())) == len(shades), "every Company a shade of its own"
        for side, team in enumerate(teams):
            base = hue(COLOURS[f"side{side}"])
            for seat in team:
                assert abs(hue(shades[seat]) - base) < 25, (seat, shades[seat])
        assert shades[0] == COLOURS["side0"] and shades[1] == COLOURS["side1"]


def test_a_picture_of_teams_shows_each_seats_shade() -> None:
    image, layout = drawn(two_against_two())
    knights = layout.centre(Square.parse("P3"))
    drawn_in = rgb(image, index(image, (knights[0] - 16, knights[1] - 4)))
    assert drawn_in != COLOURS["side0"] and abs(hue(drawn_in) - hue(COLOURS["side0"])) < 25
    assert palette_bytes(2) == palette_bytes(2, ()), "without teams, the palette as it was"


def test_the_header_lists_seats_side_by_side_and_next_names_every_acting_seat() -> None:
    view = two_against_two()
    assert [seat.side for seat in seats_by_side(view)] == [0, 2, 1, 3]
    assert [seat.side for seat in seats_by_side(replace(view, teams=()))] == [0, 1, 2, 3]
    image, _ = drawn(view)
    swatches = [index(image, (21, TITLE + n * SIDE_LINE + 11)) for n in range(4)]
    assert swatches == [side_colour(0), side_colour(2), side_colour(1), side_colour(3)]
    assert "Next: Iron Company, Red Lances (2 ready)" in alt_text(view)
    assert "Iron Company: Attackers · 2 Groups; Red Lances: Attackers" in alt_text(view)
    one = replace(view, acting=())
    assert "Next: Iron Company (1 ready)" in alt_text(one)


def test_a_replay_frame_padded_keeps_its_team_shades() -> None:
    frame = MapRenderer().render(two_against_two(8 + 8))
    padded = _padded(frame, frame.size[0], frame.size[1] + 10)
    assert padded.getpalette() == frame.getpalette()


# --- the caption ---------------------------------------------------------------------------
def test_the_caption_counts_a_pools_hits_and_the_cover_re_roll() -> None:
    full, short, _ = captions(SHOT, two_against_two())
    assert full == ("Archers Shoot: 2d6 7 ≥ 5; shoots Raiders: 12d6 ≥4 → 6 hits "
                    "(Cover: 6 re-rolled → 4), −2 R; Raiders tests Resilience "
                    "5−2+1 = 4 < 5: Retreats to D20, Shaken")  # fmt: skip
    assert short == "Archers shoots Raiders: 4 hits, −2 R; Raiders Retreats to D20, Shaken"


def test_a_blocked_retreat_tells_its_roll_and_the_r_it_cost_once() -> None:
    """Rulebook Retreating: "roll 1d6 vs their current R; if lower, they lose R equal to the
    roll and stop moving"."""
    events = [
        Event("activation_started", "", {"unit": "Archers", "side": 0}),
        Event("retreat_blocked", "", {"unit": "Raiders", "faces": [2], "needed": 4, "lost": 2}),
        Event("r_lost", "", {"unit": "Raiders", "lost": 2, "r": 2, "by": "Archers"}),
        Event("activation_ended", "", {"unit": "Archers", "side": 0, "reason": "done"}),
    ]
    full, short, _ = captions(events, two_against_two())
    assert full == "Raiders is blocked: 1d6 2 < 4, −2 R", "the R loss not told twice"
    assert short == "Raiders is blocked, −2 R"


def test_a_retreat_ordered_is_a_move_of_its_own() -> None:
    """The Retreat order (not a failed test): the caption says where the Group went."""
    events = [
        Event("activation_started", "", {"unit": "Raiders", "side": 1}),
        Event(
            "moved", "", {"unit": "Raiders", "path": ["D20", "D19"], "cost": 1, "action": "retreat"}
        ),  # fmt: skip
        Event("activation_ended", "", {"unit": "Raiders", "side": 1, "reason": "done"}),
    ]
    assert captions(events, two_against_two())[0] == "Raiders retreats D20 to D19"


def test_a_pool_without_cover_and_a_defenders_pool() -> None:
    data = {"unit": "Spearmen", "target": "Raiders", "purpose": "defend", "dice": 6,
            "faces": [6, 5, 1, 2, 5, 3], "needed": 5, "hits": 3, "rerolled": [], "r_lost": 0}  # fmt: skip
    assert pool_text(data) == "strikes back at Raiders: 6d6 ≥5 → 3 hits, no R lost"


def test_resilience_test_words() -> None:
    held = {"unit": "Spearmen", "faces": [2, 4], "modifiers": [["R lost", -1], ["Captain", 1]],
            "total": 6, "needed": 5, "outcome": "passed"}  # fmt: skip
    assert resilience_text(held) == "tests Resilience 6−1+1 = 6 ≥ 5: holds"
    assert resilience_text({**held, "outcome": "routed"}, short=True) == "Routed"


def test_a_failed_activation_test_ends_the_turn_in_the_caption() -> None:
    events = [
        Event("activation_started", "", {"unit": "Spearmen", "side": 0}),
        Event(
            "activation_test",
            "",
            {
                "unit": "Spearmen",
                "side": 0,
                "order": "move",
                "faces": [1, 2],
                "needed": 5,
                "passed": False,
            },
        ),  # fmt: skip
        Event("activation_ended", "", {"unit": "Spearmen", "side": 0, "reason": "failed"}),
    ]
    full, short, _ = captions(events, two_against_two())
    assert full == "Spearmen Move: 2d6 3 < 5, fails: turn ends"
    assert short == "Spearmen fails to Move: turn ends"


def test_a_rally_at_the_turns_start_is_told_between_activations() -> None:
    events = [
        Event("turn_started", "", {"turn": 3, "side": 1}),
        Event(
            "resilience",
            "",
            {
                "unit": "Raiders",
                "faces": [5, 4],
                "modifiers": [],
                "total": 9,
                "needed": 2,
                "outcome": "rallied",
            },
        ),  # fmt: skip
        Event("rallied", "", {"unit": "Raiders"}),
    ]
    assert captions(events, two_against_two())[0] == (
        "Round 3 begins; Raiders tests Resilience 9 = 9 ≥ 2: Rallies"
    )


# --- the key and the size ------------------------------------------------------------------
def test_the_key_shows_what_is_new() -> None:
    words = [entry.text for entry in match_entries(two_against_two(), SHOT)]
    for word in ("one Group", "Captain", "R left", "R lost", "Shaken", "Bloodied", "hit"):
        assert word in words, word
    assert "HIT left" not in words and "leader" not in words


def test_a_table_of_24_squares_is_readable_and_16_squares_as_before() -> None:
    image, _ = drawn(two_against_two(24))
    assert 1000 <= image.size[0] <= 1600
    assert Layout.of(two_against_two(16)).map_size[0] == 16 * SQUARE + 52


def test_the_attacker_is_named_again_after_the_defenders_clauses() -> None:
    """A melee's caption tells both Groups; the attacker's own failed Resilience test after the
    defender's clauses names the attacker, so it does not read as the defender's Retreat."""
    events = [
        Event("activation_started", "", {"unit": "Spearmen", "side": 0}),
        Event("pool", "", {"unit": "Spearmen", "target": "Raiders", "purpose": "attack",
                           "dice": 12, "faces": [4] * 5 + [1] * 7, "needed": 4, "hits": 5,
                           "rerolled": [], "r_lost": 2}),
        Event("pool", "", {"unit": "Raiders", "target": "Spearmen", "purpose": "defend",
                           "dice": 6, "faces": [6] * 4 + [1] * 2, "needed": 5, "hits": 4,
                           "rerolled": [], "r_lost": 1}),
        Event("resilience", "", {"unit": "Raiders", "faces": [6, 5], "modifiers": [],
                                 "total": 11, "needed": 3, "outcome": "passed"}),
        Event("resilience", "", {"unit": "Spearmen", "faces": [1, 1], "modifiers": [],
                                 "total": 2, "needed": 3, "outcome": "retreat"}),
        Event("activation_ended", "", {"unit": "Spearmen", "side": 0, "reason": "done"}),
    ]  # fmt: skip
    short = captions(events, two_against_two())[1]
    assert short == (
        "Spearmen attacks Raiders: 5 hits, −2 R; Raiders strikes back at Spearmen: 4 hits, −1 R; "
        "Raiders holds; Spearmen Retreats, Shaken"
    )


def test_a_rally_after_the_failed_test_that_ended_the_turn_is_told_with_it() -> None:
    """Turns 1: the next turn's Rallies come with the failed activation test that ended the
    turn (one command); the caption tells them, since no later picture does."""
    events = [
        Event("activation_started", "", {"unit": "Archers", "side": 0}),
        Event("activation_test", "", {"unit": "Archers", "side": 0, "order": "shoot",
                                      "faces": [1, 2], "needed": 6, "passed": False}),
        Event("activation_ended", "", {"unit": "Archers", "side": 0, "reason": "failed"}),
        Event("turn_ended", "", {"turn": 3, "side": 0}),
        Event("turn_started", "", {"turn": 3, "side": 1}),
        Event("resilience", "", {"unit": "Raiders", "faces": [5, 4], "modifiers": [],
                                 "total": 9, "needed": 2, "outcome": "rallied"}),
        Event("rallied", "", {"unit": "Raiders"}),
    ]  # fmt: skip
    full, short, _ = captions(events, two_against_two())
    assert full == (
        "Archers Shoot: 2d6 3 < 6, fails: turn ends; Round 3 begins; "
        "Raiders tests Resilience 9 = 9 ≥ 2: Rallies"
    )
    assert short == "Archers fails to Shoot: turn ends; Round 3 begins; Raiders Rallies"
