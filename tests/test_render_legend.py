"""The key under the map: it lists exactly the kinds of mark the picture shows, each drawn with
the map's own code, in rows that fit the picture's width."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from builders import skirm_match, unit
from PIL import Image

from skirmbot.render.battlemap import Layout, MapRenderer
from skirmbot.render.legend import CELL, legend_entries, legend_layout
from skirmbot.render.palette import colour, font
from skirmbot.rules.commands import Door, EndActivation, Move, OpenCrate, Shoot
from skirmbot.rules.events import Event
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm.state import MatchState
from skirmbot.rules.view import MatchView


def view(state: Any, rules: str = "skirm") -> MatchView:
    """The match as the pictures see it (the ruleset's view of its state)."""
    return ruleset(rules).view(state)


FLAT = [" ".join(["."] * 12)] * 12
BUSY = [
    ". . . . . . . . . . . .",
    ". # . . . . . . . . . .",
    ". . ~ . . . . . . . . .",
    ". . . 1 2 . . . . . . .",
    *FLAT[4:],
]
BUSY_EDGES = [
    "A6|A7: wall=1",
    "B6|B7: wall=2",
    "C6|C7: wall=3",
    "D6|D7: door=closed",
    "E6|E7: door=open",
    "F6|F7: climbable",
    "D4|E4: stairs",
]


def kinds(state: MatchState, events: Sequence[Event] = ()) -> list[str]:
    return [entry.kind for entry in legend_entries(view(state), events)]


def test_a_bare_map_lists_only_the_tokens_marks() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C9")]})
    assert kinds(match.state) == ["leader", "hit_left"]


def test_the_key_lists_exactly_the_terrain_objectives_and_items_on_the_map() -> None:
    match = skirm_match(
        {0: [unit("Ada", "A1")], 1: [unit("Bo", "L12")]},
        rows=BUSY,
        edges=BUSY_EDGES,
        objectives=["H8"],
        items=[
            {"kind": "crate", "square": "J10"},
            {"kind": "barrel", "square": "K10"},
            {"kind": "turret", "square": "L10", "type": "machine_gun"},
        ],
    )
    assert kinds(match.state) == [
        "level1", "level2", "difficult", "impassable", "ledge",
        "wall_low", "wall_high", "wall_tall", "door_closed", "door_open", "ladder", "stairs",
        "objective", "crate", "barrel", "turret_mg", "leader", "hit_left",
    ]  # fmt: skip
    words = {entry.kind: entry.text for entry in legend_entries(view(match.state))}
    assert words["impassable"] == "impassable" and words["turret_mg"] == "MG turret"


def test_a_held_objective_hurt_and_activated_units_and_the_last_activation() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3"), unit("Cy", "H3")], 1: [unit("Bo", "C9"), unit("Di", "H9")]},
        objectives=["C4", "E6"],
        faces=[2, 6, 6],
    )
    events = match.apply(Move(0, "Ada", "C4")) + match.apply(Shoot(0, "Ada", "Bo"))
    events += match.apply(EndActivation(0))
    assert kinds(match.state, events) == [
        "objective", "objective_held",  # E6 is free, Ada holds C4
        "leader", "hit_left", "hit_lost", "activated",
        "move", "hit",  # Ada's path and her shot that cost Bo 1 HIT
    ]  # fmt: skip
    held = [
        e for e in legend_entries(view(match.state), events) if e.kind in ("objective_held", "move")
    ]
    assert [e.side for e in held] == [0, 0]
    # The same state without the events: no path and no line of fire in the key.
    assert kinds(match.state) == [
        "objective",
        "objective_held",
        "leader",
        "hit_left",
        "hit_lost",
        "activated",
    ]


def test_a_taken_out_line_and_cross_have_one_entry() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C9", arm=1, hit=1), unit("Cy", "H9")]},
        faces=[1, 1, 6, 6, 6, 6],
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    found = kinds(match.state, events)
    assert found.count("taken_out") == 1 and "hit" not in found and "miss" not in found


def test_entries_fill_rows_within_the_width_without_overlapping() -> None:
    match = skirm_match(
        {0: [unit("Ada", "A1")], 1: [unit("Bo", "L12")]}, rows=BUSY, edges=BUSY_EDGES,
        objectives=["H8"], items=[{"kind": "crate", "square": "J10"}],
    )  # fmt: skip
    entries = legend_entries(view(match.state))
    width = Layout(12, 12).size[0]
    placed, height = legend_layout(entries, width)
    face = font(18)
    spans = []
    for entry, (x0, y0, x1, y1) in placed:
        right = x1 + 8 + face.getlength(entry.text)
        assert x0 >= 0 and right <= width and y1 < height and x1 - x0 + 1 == CELL
        spans.append((y0, x0, right))
    for a in spans:
        for b in spans:
            assert a is b or a[0] != b[0] or a[2] < b[1] or b[2] < a[1]
    assert len({y for y, _, _ in spans}) >= 2  # it took several rows on a phone-sized width


def test_the_key_is_drawn_under_the_map_with_the_maps_symbols() -> None:
    match = skirm_match(
        {0: [unit("Ada", "A1")], 1: [unit("Bo", "L12")]}, rows=BUSY, edges=BUSY_EDGES
    )
    png = MapRenderer().png(view(match.state))
    image = Image.open(io.BytesIO(png))
    entries = legend_entries(view(match.state))
    width, map_height = Layout(12, 12).map_size
    placed, height = legend_layout(entries, width)
    assert image.size == (width, map_height + height)
    boxes = {entry.kind: box for entry, box in placed}
    x0, y0, _, _ = boxes["impassable"]
    assert image.getpixel((x0 + 1, map_height + y0 + 1)) in (
        colour("impassable"),
        colour("impassable_mark"),
    )
    x0, y0, x1, y1 = boxes["wall_high"]
    assert image.getpixel(((x0 + x1 + 1) // 2, map_height + (y0 + y1) // 2)) == colour("wall_high")
    x0, y0, _, _ = boxes["level2"]
    assert image.getpixel((x0 + CELL - 2, map_height + y0 + CELL - 2)) == colour("level2")


def test_a_door_opened_and_a_crate_opened_are_listed_as_the_map_frames_them() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3"), unit("Cy", "E5")], 1: [unit("Bo", "L12")]},
        edges=["C3|C4: door=closed"],
        items=[{"kind": "crate", "square": "E5"}],
    )
    events = match.apply(Door(0, "Ada", "C4")) + match.apply(EndActivation(0))
    events += match.apply(EndActivation(1, "Bo"))
    events += match.apply(OpenCrate(0, "Cy", "mp"))
    found = kinds(match.state, events)
    assert "door_open" in found and "door_closed" not in found  # the door is open now
    assert found[-2:] == ["door_opened", "crate_opened"]
    assert "crate" not in found  # opened crates leave the map
